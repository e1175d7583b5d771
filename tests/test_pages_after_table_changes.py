"""Every game's pages after each change of the table its rules allow: the game page, the
correction of an earlier hand, the shared view and history answer (no 500), and a hand is
entered through the page's own form for the table as it is (Oh Hell after a late join)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES
from tests.test_input_sweep import post_forms

#: Each game's table (one seat more than its smallest), and a first hand through the API.
TABLES = {
    "oh_hell": (["Ann", "Ben", "Cy", "Dee"], {}),
    "wizard": (["Ann", "Ben", "Cy", "Dee"], {}),
    "hearts": (["Ann", "Ben", "Cy", "Dee"], {}),
    "score_pad": (["Ann", "Ben", "Cy"], {"name": "Catan"}),
    "pitch": (["Ann", "Ben", "Cy", "Dee"], {}),
    "spades": (["Ann", "Ben", "Cy", "Dee"], {}),
    "oklahoma_gin": (["Ann", "Ben"], {}),
}
CHANGES = {
    "join": {"kind": "join", "player": "Eve"},
    "leave": {"kind": "leave", "player": "Ben"},
    "sit_out": {"kind": "sit_out", "player": "Ben"},
    "substitute": {"kind": "substitute", "player": "Ben", "by": "Zed"},
    "adjust": {"kind": "adjust", "player": "Ann", "points": 5, "note": "Renege"},
}


def cases():
    for kind, (players, options) in TABLES.items():
        rules = GAMES[kind].rules
        resolved = rules.resolve_options(options, len(players))
        for change in rules.table_changes(resolved):
            if change in CHANGES:
                yield pytest.param(kind, change, id=f"{kind}-{change}")


@pytest.mark.parametrize(("kind", "change"), list(cases()))
def test_every_page_answers_after_a_change(api, table, kind, change):
    players, options = TABLES[kind]
    state = api.post("/games", {"game": kind, "players": players, "options": options})
    game = state.get_json()["id"]
    body = dict(CHANGES[change])
    if change == "adjust" and state.get_json()["teams"]:
        body["player"] = state.get_json()["teams"][0][0] + " & " + state.get_json()["teams"][0][1]
    answer = api.post(f"/games/{game}/changes", body)
    assert answer.status_code == 201, answer.text
    for path in (f"/games/{game}", f"/games/{game}/table/changes", f"/history/games/{game}"):
        page = table.get(path)
        assert page.status_code in (200, 404), (path, page.status_code)
    url = api.post(f"/games/{game}/share").get_json()["url"]
    assert table.get(url.replace("http://localhost", "")).status_code == 200


def test_a_late_joiner_bids_through_the_page(api, table):
    game = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    api.post(f"/games/{game['id']}/changes", {"kind": "join", "player": "Eve", "after": "Ann"})
    page = table.get(f"/games/{game['id']}").text
    ((action, fields),) = [
        found for found in post_forms(page) if found[0] == f"/games/{game['id']}/hands"
    ]
    names = re.findall(r'data-player="([^"]+)"', page)
    assert "Eve" in names
    seats = fields["seats"].split(",")
    assert len(seats) == 4  # the four players dealt in, Eve among them
    bids = {f"bid-{index}": "0" for index in range(4)}
    bids["bid-0"] = "1"  # the first row's player bids the one card
    saved = table.post(action, data={**fields, **bids})
    assert saved.status_code == 302, saved.text
    state = api.get(f"/games/{game['id']}").get_json()
    assert set(state["hands"][0]["input"]["bids"]) == {"Ann", "Eve", "Ben", "Cy"}
    assert state["hands"][0]["players"] == ["Ann", "Eve", "Ben", "Cy"]

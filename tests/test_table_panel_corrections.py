"""Correcting and removing an earlier change from the pages (issue 20: a change is corrected
and removed like a hand): each change in the panel's list opens its own form filled in as it
was recorded; a saved correction re-derives everything after it and says so; a correction
or removal that a later hand needs is refused on the form, keeping what was typed."""

from __future__ import annotations

import re

import pytest

from tests.pages import text
from tests.test_table_changes_service import OPENING
from tests.test_table_panel import flashed
from tests.test_table_panel import opened
from tests.test_table_panel import send


def hand(api, game: int, number: int, players: list[str]) -> None:
    """Hand ``number`` (``number`` cards): the first player bids and takes them all, the
    second bids 1 and misses, everyone else bids and takes 0 (a made bid: 10 points)."""
    bids = dict.fromkeys(players, 0) | {players[0]: number, players[1]: 1}
    tricks = dict.fromkeys(players, 0) | {players[0]: number}
    sent = {"number": number, "bids": bids, "tricks": tricks}
    assert api.post(f"/games/{game}/hands", sent).status_code == 201, sent


def change_ids(logged_in, game: int) -> list[str]:
    panel = logged_in.get(f"/games/{game}/table/changes")
    return re.findall(rf'href="/games/{game}/table/changes/(\d+)"', panel.text)


def test_a_join_is_corrected_from_its_own_form_filled_in_as_recorded(api, logged_in):
    game = opened(api, logged_in)
    assert send(logged_in, game, kind="join", player="Eve", score="zero").status_code == 302
    hand(api, game, len(OPENING) + 1, ["Ann", "Ben", "Cy", "Dee", "Eve"])
    (change,) = change_ids(logged_in, game)
    form = logged_in.get(f"/games/{game}/table/changes/{change}")
    assert form.status_code == 200
    words = text(form.text)
    assert "Correct a change" in words and "Eve joins, starting on 0." in words
    # As recorded: the choice made (zero), not the number it came to.
    assert re.search(r'value="zero"\s+checked', form.text)
    assert not re.search(r'value="number"\s+checked', form.text)
    assert 'id="change-leave"' not in form.text  # only this change's form
    answer = logged_in.post(
        f"/games/{game}/table/changes/{change}",
        data={"kind": "join", "player": "Eve", "score": "number", "score_number": "7"},
    )
    assert flashed(logged_in, answer) == "Change corrected: Eve joins, starting on 7."
    state = api.get(f"/games/{game}").get_json()
    assert state["totals"]["Eve"] == 7 + 10  # the hand after it is derived again
    assert [c["score"] for c in state["changes"]] == [7]


@pytest.mark.parametrize("how", ["last", "average"])
def test_a_join_recorded_as_a_choice_reappears_as_that_choice(api, logged_in, how):
    game = opened(api, logged_in)
    assert send(logged_in, game, kind="join", player="Eve", score=how).status_code == 302
    (change,) = change_ids(logged_in, game)
    form = logged_in.get(f"/games/{game}/table/changes/{change}").text
    assert re.search(rf'value="{how}"\s+checked', form), how
    assert not re.search(r'value="number"\s+checked', form)
    assert 'name="score_number" inputmode="numeric" maxlength="7" class="short"' in form
    assert re.search(r'name="score_number"[^>]*value=""', form)


def test_a_join_s_starting_total_is_filled_in_in_bengali_digits(api, logged_in):
    game = opened(api, logged_in)
    assert send(logged_in, game, kind="join", player="Eve", score="number", score_number="-12")
    (change,) = change_ids(logged_in, game)
    logged_in.post("/language", data={"code": "bn", "next": "/"})
    form = logged_in.get(f"/games/{game}/table/changes/{change}").text
    assert re.search(r'value="number"\s+checked', form)
    assert re.search(r'name="score_number"[^>]*value="-১২"', form)
    # Saved as it is shown, the correction keeps the total.
    answer = logged_in.post(
        f"/games/{game}/table/changes/{change}",
        data={"kind": "join", "player": "Eve", "score": "number", "score_number": "-১২"},
    )
    assert answer.status_code == 302
    assert [c["score"] for c in api.get(f"/games/{game}").get_json()["changes"]] == [-12]


def test_an_earlier_adjustment_is_corrected_and_then_removed(api, logged_in):
    game = opened(api, logged_in)
    before = api.get(f"/games/{game}").get_json()["totals"]["Ben"]
    sent = {"kind": "adjust", "player": "Ben", "points": "-5", "note": "Renege"}
    assert send(logged_in, game, **sent).status_code == 302
    hand(api, game, len(OPENING) + 1, ["Ann", "Ben", "Cy", "Dee"])
    (change,) = change_ids(logged_in, game)
    form = logged_in.get(f"/games/{game}/table/changes/{change}")
    assert 'value="-5"' in form.text and 'value="Renege"' in form.text
    answer = logged_in.post(
        f"/games/{game}/table/changes/{change}",
        data={"kind": "adjust", "player": "Ben", "points": "-10", "note": "Two reneges"},
    )
    assert flashed(logged_in, answer).startswith("Change corrected:")
    assert api.get(f"/games/{game}").get_json()["totals"]["Ben"] == before - 10
    # Not the last entry (a hand came after it), yet it can be removed: nothing needs it.
    answer = logged_in.post(f"/games/{game}/table/changes/{change}/remove")
    assert flashed(logged_in, answer).startswith("Change undone:")
    state = api.get(f"/games/{game}").get_json()
    assert state["changes"] == [] and state["totals"]["Ben"] == before


def test_a_correction_a_later_hand_needs_is_refused_on_the_form(api, logged_in):
    game = opened(api, logged_in)
    assert send(logged_in, game, kind="sit_out", player="Ben").status_code == 302
    hand(api, game, len(OPENING) + 1, ["Ann", "Cy", "Dee"])  # Ben sat out
    (change,) = change_ids(logged_in, game)
    answer = logged_in.post(
        f"/games/{game}/table/changes/{change}", data={"kind": "sit_out", "player": "Cy"}
    )
    assert answer.status_code == 422
    words = text(answer.text)
    assert "Hand 4: Cy is not dealt into this hand." in words  # the hand it would break
    assert re.search(r'value="Cy"\s+checked', answer.text)  # what was typed is kept
    state = api.get(f"/games/{game}").get_json()
    assert state["changes"][0]["player"] == "Ben"  # nothing changed
    # Removing it is refused too (hand 4 was played without Ben), and says why.
    answer = logged_in.post(f"/games/{game}/table/changes/{change}/remove")
    assert answer.status_code == 302
    page = logged_in.get(answer.headers["Location"])
    assert 'class="flash flash-warning"' in page.text
    assert len(api.get(f"/games/{game}").get_json()["changes"]) == 1


def test_an_unknown_change_is_not_found(api, logged_in):
    game = opened(api, logged_in)
    assert logged_in.get(f"/games/{game}/table/changes/999").status_code == 404
    assert logged_in.post(f"/games/{game}/table/changes/999", data={}).status_code == 404


def test_a_correction_reads_and_replays_the_game_once(app, api, logged_in, monkeypatch):
    """Like a hand's save: one pass of the rules over the record, saved or refused."""
    from tests.test_query_budget import game_loads
    from tests.test_query_budget import measured

    game = opened(api, logged_in)
    assert send(logged_in, game, kind="adjust", player="Ben", points="-5").status_code == 302
    (change,) = change_ids(logged_in, game)
    for points in ("-7", "x"):  # saved, then refused beside its field
        with measured(app, monkeypatch) as seen:
            logged_in.post(
                f"/games/{game}/table/changes/{change}",
                data={"kind": "adjust", "player": "Ben", "points": points},
            )
        assert seen["passes"] == 1, points
        assert game_loads(seen["statements"]) == 1, points

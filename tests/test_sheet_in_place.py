"""A hand saved in place by the game page's script (``X-Fragment`` and ``X-Sheet-Rows``: the
game's version the page shows) is answered with the sheet's lines from that hand on only; the
script puts back the lines it shows already (static/js/app.js; tests/e2e/test_phone_sheet.py
checks the merged sheet in Chromium). A page drawn from another version gets the whole sheet,
and so do a form saved without the script and a refusal."""

from __future__ import annotations

import re

import pytest

ROUND = {"upcard": "7", "result": "knock", "knocker_deadwood": "2", "opponent_deadwood": "4"}


def lines(html: str) -> list[int]:
    return [int(number) for number in re.findall(r'data-line="(\d+)"', html)]


def page_version(html: str) -> str:
    return re.search(r'data-game-page data-version="(\d+)"', html).group(1)


@pytest.fixture
def long_gin(api, logged_in):
    """A Gin game of 30 rounds (to 1,000 points), and the logged-in client."""
    options = {"target": 1000}
    state = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "options": options}
    ).get_json()
    for number in range(1, 31):
        knocker = "Ann" if number % 2 else "Ben"
        body = {**ROUND, "knocker": knocker, "knocker_deadwood": 2, "opponent_deadwood": 4}
        assert api.post(f"/games/{state['id']}/hands", {**body, "number": number}).status_code
    return state["id"], logged_in


def save_round(client, game: int, version: str | None, **form):
    headers = {"X-Fragment": "1"}
    if version is not None:
        headers["X-Sheet-Rows"] = version
    data = {**ROUND, "phase": "round", "number": "31", "knocker": "0", **form}
    return client.post(f"/games/{game}/hands", data=data, headers=headers)


def test_the_page_shows_the_latest_24_rounds(long_gin):
    game, client = long_gin
    page = client.get(f"/games/{game}").text
    assert lines(page) == list(range(7, 31))
    assert "data-sheet-after" not in page


def test_a_save_in_place_answers_the_new_round_s_line_only(long_gin):
    game, client = long_gin
    version = page_version(client.get(f"/games/{game}").text)
    answer = save_round(client, game, version)
    assert answer.status_code == 200
    assert lines(answer.text) == [31]
    # The lines the script keeps from the page: after 7 (now hidden), up to 30.
    assert 'data-sheet-start="7" data-sheet-after="30"' in answer.text
    assert "Show rounds 1 to 7 too" in answer.text
    assert page_version(answer.text) == str(int(version) + 1)


def test_a_page_of_another_version_gets_the_whole_sheet(long_gin):
    game, client = long_gin
    answer = save_round(client, game, "1")
    assert answer.status_code == 200
    assert lines(answer.text) == list(range(8, 32))
    assert "data-sheet-after" not in answer.text


@pytest.mark.parametrize("version", [None, "current"])
def test_no_script_or_a_refusal_gets_the_whole_sheet(long_gin, version):
    game, client = long_gin
    shown = page_version(client.get(f"/games/{game}").text) if version else None
    answer = save_round(client, game, shown, knocker_deadwood="x" if version else "2")
    if version:  # refused: the form again, and the sheet as it stands
        assert answer.status_code in (400, 422)
        assert lines(answer.text) == list(range(7, 31))
    else:
        assert lines(answer.text) == list(range(8, 32))
    assert "data-sheet-after" not in answer.text


def test_completing_or_correcting_the_last_round_answers_its_line(long_gin):
    game, client = long_gin
    version = page_version(client.get(f"/games/{game}").text)
    form = {**ROUND, "phase": "both", "knocker": "1", "opponent_deadwood": "9"}
    answer = client.post(
        f"/games/{game}/hands/30", data=form, headers={"X-Fragment": "1", "X-Sheet-Rows": version}
    )
    assert answer.status_code == 200
    assert lines(answer.text) == [30]
    assert 'data-sheet-start="6" data-sheet-after="29"' in answer.text

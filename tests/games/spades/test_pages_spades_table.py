"""Spades' pages after a substitute: the game page and a correction of an earlier hand name
each player's team as it was in the hand shown (the renamed team from the substitute on)."""

from __future__ import annotations

from tests.test_table_panel import flashed
from tests.test_table_panel import send

FOUR = ["Ann", "Ben", "Cy", "Dee"]
FIRST = {
    "bids": {"Ann": 3, "Ben": 4, "Cy": 2, "Dee": 3},
    "tricks": {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 3},
}


def test_the_pages_name_the_team_as_it_was_in_the_hand_shown(api, logged_in):
    logged_in.post("/players/", data={"name": "Eve"}, follow_redirects=True)
    game = api.post("/games", {"game": "spades", "players": FOUR}).get_json()["id"]
    api.post(f"/games/{game}/hands", {**FIRST, "number": 1})
    answer = send(logged_in, game, kind="substitute", player="Ann", by="Eve")
    assert flashed(logged_in, answer) == "Eve takes over from Ann."
    page = logged_in.get(f"/games/{game}")
    assert page.status_code == 200
    assert "Eve &amp; Cy" in page.text
    correction = logged_in.get(f"/games/{game}/hands/1/edit")
    assert correction.status_code == 200
    assert '<span class="tag">Ann &amp; Cy</span>' in correction.text
    assert '<span class="tag">Eve &amp; Cy</span>' not in correction.text

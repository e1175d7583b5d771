"""The entry screen's header says which game this is, and of which night (issue 27, item 19):
for every installed game, from the registry."""

from __future__ import annotations

import re
from datetime import date

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.services import games
from scorekeeper.services import nights
from tests.pages import html_text
from tests.pages import text
from tests.test_backup import needed_options

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def header(page: str) -> str:
    """The text of the entry screen's header (the hand now)."""
    found = re.search(r'<section class="hand-head card" id="now".*?</section>', page, re.S)
    assert found, "the page has no hand header"
    return text(found.group(0))


def new_game(app, kind: str, night_name: str | None) -> int:
    rules = GAMES[kind].rules
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        night = None
        if night_name is not None:
            night = nights.create_night(account, date.today().isoformat(), night_name)
        names = NAMES[: rules.min_players]
        played = games.create_game(
            account, kind, names, needed_options(rules), night_id=night.id if night else None
        )
        return played.game.id


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_entry_header_names_the_game_and_its_night(app, logged_in, kind):
    game = new_game(app, kind, "Friday at Ann's")
    head = header(logged_in.get(f"/games/{game}").text)
    assert str(GAMES[kind].rules.title) in head
    assert "Friday at Ann's" in head


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_game_of_no_night_is_named_alone(app, logged_in, kind):
    game = new_game(app, kind, None)
    page = logged_in.get(f"/games/{game}").text
    line = re.search(r'<p class="which-game"><span>(.*?)</span>', page)
    assert line and html_text(line.group(1)) == str(GAMES[kind].rules.title)

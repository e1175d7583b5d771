"""The score sheet a phone playing offline draws (``games.pages``: the game's own templates
under Jinja, without Flask, as play_offline.js runs it under Pyodide) is the server's page's:
for every registered game, after hands played through its pages (the last one left open where
a hand has two steps), in English and in Bengali, the sheet drawn in-process from what the
phone gets (``/offline/play/<id>.json``, the languages of ``rules.zip`` and the templates of
``sheet.zip``, unpacked as the phone unpacks them) is the game page's sheet, tag for tag; and
so for a sheet with every change of the table on it (joins, leaves, a hand sat out, points, a
seat handed over)."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games import pages
from scorekeeper.i18n import speak_to_the_rules
from tests.pages import game_id
from tests.pages import start_game
from tests.test_offline_samples import NEW
from tests.test_sheet_table_changes import oh_hell  # noqa: F401 (a fixture)

#: Hands played before the sheets are compared (and the first step of the next one).
HANDS = 3


@pytest.fixture
def phone(tmp_path):
    """Where the phone's bundles are unpacked; the server's words plugged in again after."""
    yield tmp_path
    speak_to_the_rules()


def _unpacked(client, url: str, folder) -> None:
    answer = client.get(url)
    assert answer.status_code == 200, url
    zipfile.ZipFile(io.BytesIO(answer.data)).extractall(folder)


def _card(html: str) -> str:
    """The sheet card's table (or what the card says without one), whitespace folded and
    each form's idempotency key left out (a fresh one for every form drawn)."""
    card = re.search(r'<section class="card sheet-card".*?</section>', html, re.S)
    assert card, "no sheet card"
    found = card.group(0)
    table = re.search(r"<table class=\"sheet.*?</table>", found, re.S)
    found = table.group(0) if table else found
    found = re.sub(r'(name="idempotency_key" value=")[^"]*"', r'\1"', found)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", found)).strip()


def phone_sheet(client, game: int, folder) -> str:
    """The sheet the phone draws for game ``game``, from what the phone gets."""
    data = client.get(f"/offline/play/{game}.json").get_json()
    assert data["urls"] is None or data["urls"]["sheet"]
    from scorekeeper.views import offline_rules

    rules = client.application.test_request_context()
    with rules:
        urls = {"rules": offline_rules.urls()["rules"], "sheet": offline_rules.urls()["sheet"]}
    _unpacked(client, urls["rules"], folder)
    _unpacked(client, urls["sheet"], folder)
    request = {**data["request"], "sheet": data["sheet"]}
    answer = json.loads(
        pages.sheet_json(json.dumps(request), str(folder / "languages"), str(folder / "templates"))
    )
    assert "sheet" in answer, answer
    return answer["sheet"]


def play_steps(client, game: int, kind: str, steps: int) -> None:
    """``steps`` steps of the game through its page's forms, each filled in by the game
    itself (its form module's ``sample``, as the steps ahead are made)."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.services import games

    plugin = GAMES[kind]
    for _step in range(steps):
        with client.application.app_context():
            played = games.played(db.session.get(Game, game))
            members = list(played.game.members)
            filled = plugin.form.sample(played.state, played.players)
            current = played.state.current
            number = current.number if current else played.state.next["number"]
            seats = ",".join(str(members.index(name)) for name in played.players)
        assert filled is not None
        phase, fields = filled
        form = {**fields, "phase": phase, "number": str(number), "seats": seats}
        url = f"/games/{game}/hands/{number}" if current else f"/games/{game}/hands"
        answer = client.post(url, data=form)
        assert answer.status_code in (200, 302), (kind, answer.status_code)


def _same(client, game: int, folder, language: str) -> None:
    client.set_cookie("lang", language)
    server = _card(client.get(f"/games/{game}").get_data(as_text=True))
    drawn = _card(phone_sheet(client, game, folder))
    speak_to_the_rules()
    assert drawn == server


@pytest.mark.parametrize("kind", sorted(NEW))
@pytest.mark.parametrize("language", ["en", "bn"])
def test_the_phones_sheet_is_the_servers_for_every_game(table, app, phone, kind, language):
    seats, options = NEW[kind]
    game = game_id(start_game(table, app, kind, seats, **options))
    _same(table, game, phone, language)  # no hand yet: the card says so
    two_steps = bool(GAMES[kind].completing)
    play_steps(table, game, kind, HANDS * (2 if two_steps else 1) + (1 if two_steps else 0))
    _same(table, game, phone, language)


def test_the_phones_sheet_shows_every_change_of_the_table(table, oh_hell, phone):  # noqa: F811
    for language in ("en", "bn"):
        _same(table, oh_hell, phone, language)

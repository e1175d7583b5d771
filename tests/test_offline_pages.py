"""The game page and the Table panel a phone playing offline draws itself (``games.pages``:
the games' own templates under Jinja, without Flask, as the phone runs them under Pyodide)
are the server's: for every registered game, in English and in Bengali, at the start, after
hands, with a hand half entered (a hand of two steps), and after each change of the table the
game allows, the page's main part drawn in-process from what the phone gets
(``/offline/play/<id>.json``, the languages of ``rules.zip`` and the templates of
``sheet.zip``, unpacked as the phone unpacks them) is the server's, tag for tag: the step the
game is at as the server makes it ahead (``ahead.json``, ``fragment_of(ahead_page(...))``),
and the panel's page (``/games/<id>/table/changes``). Only the forms' idempotency keys and
CSRF tokens may differ (fresh ones for every form drawn)."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import pages
from scorekeeper.games.page_context import fragment_of
from scorekeeper.i18n import speak_to_the_rules
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.pages import game_id
from tests.pages import start_game
from tests.test_offline_samples import NEW
from tests.test_offline_sheet import _unpacked
from tests.test_offline_sheet import phone  # noqa: F401 (a fixture)
from tests.test_offline_sheet import play_steps

#: The phone's drawing against the server's templates: the same on any database (the SQLite
#: pass only: in CI they were the slowest tests of the PostgreSQL pass, 22 to 33 s each).
pytestmark = pytest.mark.once

LANGUAGES = ["en", "bn"]


def _folded(html: str) -> str:
    """A page's main part, whitespace folded, each form's idempotency key and CSRF token
    left out (fresh ones for every form drawn)."""
    found = re.sub(
        r'(name="(?:idempotency_key|csrf_token)" (?:type="hidden" )?value=")[^"]*"', r'\1"', html
    )
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", found)).strip()


def _phone_request(client, game: int, folder) -> dict:
    """What the phone draws with: ``play.json``'s record, its ``"sheet"`` part (the whole
    sheet, as a step made ahead shows it) and the roster; the bundles unpacked."""
    data = client.get(f"/offline/play/{game}.json").get_json()
    from scorekeeper.views import offline_rules

    with client.application.test_request_context():
        urls = offline_rules.urls()
    _unpacked(client, urls["rules"], folder)
    _unpacked(client, urls["sheet"], folder)
    return {**data["request"], "sheet": {**data["sheet"], "every": True}, "roster": data["roster"]}


def _drawn(drawn, request: dict, folder) -> str:
    answer = json.loads(
        drawn(json.dumps(request), str(folder / "languages"), str(folder / "templates"))
    )
    speak_to_the_rules()
    assert "page" in answer, answer
    return answer["page"]


def _server_step(client, game: int) -> str:
    """The game page's main part at the step the game is at, as the server makes it ahead."""
    body = client.get(f"/offline/play/{game}/ahead.json").get_json()
    return body["steps"][body["now"]]


def _server_panel(client, game: int) -> str:
    answer = client.get(f"/games/{game}/table/changes")
    assert answer.status_code == 200
    return fragment_of(answer.get_data(as_text=True))


def same_pages(client, game: int, folder, language: str) -> None:
    """The phone's game page and Table panel are the server's, in ``language``."""
    client.set_cookie("lang", language)
    client.get(f"/games/{game}")  # what a change said (a flash) is shown there, once
    request = _phone_request(client, game, folder)
    assert request["language"] == language
    server = _folded(_server_step(client, game))
    assert 'id="entry"' in server or "data-winner" in server  # the hand's form, or the end
    assert _folded(_drawn(pages.page_json, request, folder)) == server
    if GAMES[request["game"]].rules.table_changes(request["sheet"]["options"]):
        panel = _folded(_server_panel(client, game))
        assert "change-card" in panel or 'class="notice"' in panel
        assert _folded(_drawn(pages.panel_json, request, folder)) == panel


@pytest.mark.parametrize("kind", sorted(NEW))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phones_page_is_the_servers_for_every_game(table, app, phone, kind, language):  # noqa: F811
    seats, options = NEW[kind]
    game = game_id(start_game(table, app, kind, seats, **options))
    same_pages(table, game, phone, language)  # the first hand
    two_steps = bool(GAMES[kind].completing)
    play_steps(table, game, kind, 2 if two_steps else 1)
    same_pages(table, game, phone, language)  # after a hand
    if two_steps:
        play_steps(table, game, kind, 1)
        same_pages(table, game, phone, language)  # the first step saved, the second to come


def _now(app, game: int):
    with app.app_context():
        return games.played(db.session.get(Game, game))


def _change(api, game: int, body: dict) -> None:
    answer = api.post(f"/games/{game}/changes", body)
    assert answer.status_code == 201, (body, answer.text)


def _bodies(app, game: int, allowed) -> list[dict]:
    """One change of each kind the game allows, the newcomers Eve (joins) and Zed (takes a
    seat over); each named for the table as it then is."""
    played = _now(app, game)
    seated, sides = list(played.players), list(played.state.sides)
    after_join = [*seated, "Eve"] if "join" in allowed else seated
    bodies = {
        "join": {"player": "Eve", "after": seated[0]},
        "sit_out": {"player": after_join[1]},
        "adjust": {"player": sides[0], "points": -5, "note": "reneged"},
        "substitute": {"player": seated[0], "by": "Zed"},
        "leave": {"player": after_join[-1]},
    }
    upcoming = played.state.next or {}
    if upcoming.get("schedule"):
        bodies["schedule"] = {"sizes": upcoming["schedule"][:2]}
    else:
        bodies["schedule"] = {"rounds": (upcoming.get("total_hands") or 0) + 2}
    return [{"kind": kind, **bodies[kind]} for kind in bodies if kind in allowed]


#: Each registered game, and the score pad played to a number of rounds (its schedule).
TABLES = {
    **NEW,
    "score_pad:rounds": (NEW["score_pad"][0], {"name": "Darts", "end": "rounds", "rounds": 6}),
}


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phones_page_and_panel_after_each_change_of_the_table(
    table,
    app,
    api,
    phone,  # noqa: F811
    name,
    language,
):
    kind = name.partition(":")[0]
    seats, options = TABLES[name]
    game = game_id(start_game(table, app, kind, seats, **options))
    two_steps = bool(GAMES[kind].completing)
    play_steps(table, game, kind, 2 if two_steps else 1)
    allowed = GAMES[kind].rules.table_changes(_now(app, game).game.options)
    bodies = _bodies(app, game, allowed)
    assert [body["kind"] for body in bodies] == [
        kind
        for kind in ("join", "sit_out", "adjust", "substitute", "leave", "schedule")
        if kind in allowed
    ]
    for body in bodies:
        if body["kind"] in ("leave", "schedule") and "sit_out" in allowed:
            # The hand sat out played first (a leaver then leaves enough players dealt in).
            allowed = ()
            play_steps(table, game, kind, 2 if two_steps else 1)
            same_pages(table, game, phone, language)
        _change(api, game, body)
        same_pages(table, game, phone, language)
    assert len(_now(app, game).state.changes) == len(bodies)
    # The next hand at the table as it now is, half entered too.
    play_steps(table, game, kind, 1)
    same_pages(table, game, phone, language)
    if two_steps:
        play_steps(table, game, kind, 1)
        same_pages(table, game, phone, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phones_page_at_the_game_over(table, app, phone, language):  # noqa: F811
    seats, options = TABLES["score_pad:rounds"]
    game = game_id(start_game(table, app, "score_pad", seats, **{**options, "rounds": 2}))
    play_steps(table, game, "score_pad", 2)
    assert _now(app, game).state.finished
    same_pages(table, game, phone, language)

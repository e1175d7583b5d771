"""The rules in the phone are the server's: the same random records (the games' own property-
test generators, with one value sometimes spoiled so that the rules refuse it) go through the
rules on the server, in the app's request (Flask-Babel's words), and through the rules in
Chromium (Pyodide running the bundle the app serves, with the phone's own catalog reader);
the two answers must be equal: the same state, or the same refusals with the same messages in
the same language and digits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games import portable
from scorekeeper.games.base import Setup
from scorekeeper.games.table import Change
from scorekeeper.views import offline_rules
from tests.browser import PHONE
from tests.games.hearts import test_rules_hearts as hearts
from tests.games.hearts import test_rules_hearts_table as hearts_table
from tests.games.oh_hell import test_rules_oh_hell_house_rules as oh_hell_house
from tests.games.oh_hell import test_rules_oh_hell_table as oh_hell_table
from tests.games.oklahoma_gin import test_rules_oklahoma_gin_hollywood as gin_hollywood
from tests.games.oklahoma_gin import test_rules_oklahoma_gin_table as gin_table
from tests.games.pitch import test_rules_pitch as pitch
from tests.games.pitch import test_rules_pitch_table as pitch_table
from tests.games.score_pad import test_rules_score_pad_table as pad_table
from tests.games.spades import test_rules_spades as spades
from tests.games.wizard import test_rules_wizard as wizard
from tests.live import serving

pytestmark = pytest.mark.usefixtures("patient_expect")

#: Records per game and run: enough to reach deep states and every kind of refusal, small
#: enough for the browser (about 20 ms a record in the phone).
EXAMPLES = 25
LANGUAGES = ("en", "su", "lo", "bn")
#: What a spoiled value becomes: out of range, negative, of the wrong type, missing.
SPOILERS = (-1, 99, "x", None, 2.5, [], True)


def _first(game: tuple) -> tuple[Setup, list]:
    return game[0], list(game[1])


@st.composite
def _oh_hell(draw) -> tuple[Setup, list]:
    if draw(st.booleans()):
        setup, _schedule, entries = draw(oh_hell_house.house_games())
        return setup, entries
    setup, record, extra = draw(oh_hell_table.records())
    return setup, [*record, extra]


@st.composite
def _spades(draw) -> tuple[Setup, list]:
    setup = spades.make_setup(
        target=draw(st.sampled_from([250, 300, 500])),
        bag_penalty=draw(st.booleans()),
        set_out=draw(st.booleans()),
    )
    return setup, draw(st.lists(spades.legal_hands(), min_size=1, max_size=14))


@st.composite
def _pitch(draw) -> tuple[Setup, list]:
    if draw(st.booleans()):
        players, options, first_dealer, entries = draw(pitch.games())
        return Setup(players, options, first_dealer), entries
    return _first(draw(pitch_table.games_with_changes()))


@st.composite
def _gin(draw) -> tuple[Setup, list]:
    if draw(st.booleans()):
        return _first(draw(gin_hollywood.hollywood_games()))
    return _first(draw(gin_table.games_with_changes()))


@st.composite
def _hearts(draw) -> tuple[Setup, list]:
    if draw(st.booleans()):
        return draw(hearts.games())
    setup = draw(hearts_table.hearts_setups())

    def hands(players):
        drawn = hearts.legal_hands(players)
        if setup.options["jack_of_diamonds"]:
            return drawn
        return drawn.map(lambda entry: {"points": entry["points"]})

    record, _refused, _tally = draw(hearts_table.table_games(hearts.RULES, setup, hands))
    return setup, record


@st.composite
def _score_pad(draw) -> tuple[Setup, list]:
    setup = draw(pad_table.pad_setups())
    return setup, draw(st.lists(pad_table.rounds(setup.players), min_size=0, max_size=10))


GAMES: dict[str, Callable[[], st.SearchStrategy]] = {
    "oh_hell": _oh_hell,
    "wizard": lambda: wizard.legal_games(),
    "spades": _spades,
    "pitch": _pitch,
    "oklahoma_gin": _gin,
    "hearts": _hearts,
    "score_pad": _score_pad,
}


def _entry(entry: Any) -> Any:
    if isinstance(entry, Change):
        return {"change": dict(entry.body), "id": entry.id}
    return entry


def _leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths to every value inside a record's entries."""
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [leaf for index, item in enumerate(value) for leaf in _leaves(item, (*path, index))]
    return [path]


def _spoil(entries: list, path: tuple, spoiler: Any) -> None:
    *above, last = path
    holder = entries
    for key in above:
        holder = holder[key]
    holder[last] = spoiler


@st.composite
def requests(draw, game: str) -> dict[str, Any]:
    setup, record = draw(GAMES[game]())
    entries = json.loads(json.dumps([_entry(entry) for entry in record], default=list))
    leaves = _leaves(entries)
    if leaves and draw(st.integers(0, 2)) == 0:  # a third of the records: one value spoiled
        _spoil(entries, draw(st.sampled_from(leaves)), draw(st.sampled_from(SPOILERS)))
    request = {
        "game": game,
        "players": list(setup.players),
        "options": dict(setup.options),
        "first_dealer": setup.first_dealer,
        "entries": entries,
        "language": draw(st.sampled_from(LANGUAGES)),
    }
    return json.loads(json.dumps(request, default=list))


@pytest.fixture(scope="module")
def phone_rules(browser, plain_app):
    """A phone with the rules started (Pyodide and the app's bundle) once for every game, and
    the app (the worker's own: its pages read nothing here but the login page)."""
    app = plain_app[0]
    with app.app_context():
        if not offline_rules.available():
            pytest.skip(
                "the phone's rules not compared: Pyodide is not installed (make installs it "
                "from the npm registry when npm is found)"
            )
    with serving(app) as base:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{base}/login")
        with app.test_request_context():
            urls = offline_rules.urls()
        page.evaluate(
            "async (urls) => { await (await import('/static/js/rules.js')).start(urls) }", urls
        )
        yield app, page, urls
        context.close()


def _on_server(app, request: dict[str, Any]) -> dict[str, Any]:
    headers = {"Accept-Language": request["language"]}
    with app.test_request_context(headers=headers):
        return json.loads(json.dumps(portable.play(request), ensure_ascii=False))


def _in_phone(page, urls, request: dict[str, Any]) -> dict[str, Any]:
    return page.evaluate(
        "async ([urls, request]) => (await import('/static/js/rules.js')).play(urls, request)",
        [urls, request],
    )


def _difference(found: Any, expected: Any, path: str = "") -> str:
    """Where two answers first differ, and how."""
    if isinstance(found, dict) and isinstance(expected, dict):
        for key in sorted(set(found) | set(expected), key=str):
            if found.get(key, "<none>") != expected.get(key, "<none>"):
                return _difference(found.get(key), expected.get(key), f"{path}.{key}")
    if isinstance(found, list) and isinstance(expected, list) and len(found) == len(expected):
        for index, (one, other) in enumerate(zip(found, expected, strict=True)):
            if one != other:
                return _difference(one, other, f"{path}[{index}]")
    return f"{path}: phone {found!r}, server {expected!r}"


@pytest.mark.parametrize("game", list(GAMES))
def test_the_phone_and_the_server_derive_the_same_answer(phone_rules, game):
    app, page, urls = phone_rules
    seen = {"state": 0, "refused": 0}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests(game))
    def check(request):
        expected = _on_server(app, request)
        found = _in_phone(page, urls, request)
        assert found == expected, (_difference(found, expected), request)
        seen[next(iter(expected))] += 1

    check()
    # Both kinds of answer were compared, not only one.
    assert seen["state"] > 0 and seen["refused"] > 0, seen

"""Every game fills in its own forms for the steps ahead of a phone playing offline (its form
module's ``sample``): from a new game, ``ahead.json`` holds every step the rules reach for
the first hands, each with the parts a step changes (``data-step``: the hand's head and its
forms); and whatever state a game is in (its records drawn by the games' own property-test
generators, tests/rules/test_fold.py), the form ``sample`` fills in is one the game's form
reader and rules take, as the phone's save makes it (``portable.save``)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings

from scorekeeper.games import GAMES
from scorekeeper.games import portable
from tests.pages import game_id
from tests.pages import start_game
from tests.rules.test_fold import RECORDS
from tests.rules.test_fold import accepted

#: A new game of each registered kind, as the new-game form starts it: seats and options.
NEW = {
    "oh_hell": ({"Ann": 1, "Ben": 2, "Cy": 3}, {}),
    "wizard": ({"Ann": 1, "Ben": 2, "Cy": 3}, {}),
    "spades": ({"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}, {"target": 250}),
    "pitch": ({"Ann": 1, "Ben": 2, "Cy": 3}, {}),
    "hearts": ({"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}, {}),
    "oklahoma_gin": ({"Ann": 1, "Ben": 2}, {}),
    "score_pad": ({"Ann": 1, "Ben": 2, "Cy": 3}, {"name": "Catan"}),
}
#: The hands whose steps are checked.
HANDS = 4


def test_every_registered_game_is_started_here():
    assert set(GAMES) == set(NEW)


def _parts(html: str) -> list[str]:
    """The opening tags of the page's parts marked ``data-step``."""
    return re.findall(r"<(?:section|form|details)\b[^>]*\bdata-step\b[^>]*>", html)


@pytest.mark.parametrize("kind", sorted(NEW))
def test_every_step_of_the_first_hands_is_made_ahead(table, app, kind):
    seats, options = NEW[kind]
    game = game_id(start_game(table, app, kind, seats, **options))
    answer = table.get(f"/offline/play/{game}/ahead.json")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["now"] == "0:0"
    two_steps = bool(GAMES[kind].completing)
    for hand in range(1, HANDS + 1):
        # A hand of two steps (bids or auction, then what completes it) is at "hand:hand-1"
        # after its first, "hand:hand" once scored.
        if two_steps:
            middle = body["steps"].get(f"{hand}:{hand - 1}")
            assert middle is not None, (kind, hand, sorted(body["steps"]))
            parts = _parts(middle)
            assert any('id="now"' in part for part in parts), parts
            # The form that completes the hand, saved to the hand itself.
            forms = [part for part in parts if part.startswith("<form")]
            assert forms and any(f'/hands/{hand}"' in form for form in forms), forms
        after = body["steps"].get(f"{hand}:{hand}")
        assert after is not None, (kind, hand, sorted(body["steps"]))
        parts = _parts(after)
        assert any('id="now"' in part for part in parts), parts
        forms = [part for part in parts if part.startswith("<form")]
        assert forms, (kind, hand, parts)
        # The next hand's form: recorded as the next hand.
        assert f'name="number" value="{hand + 1}"' in after
    pages = "".join(body["steps"].values())
    keys = re.findall(r'name="idempotency_key"[^>]*value="([^"]+)"', pages)
    assert len(keys) == len(set(keys)) >= HANDS


@pytest.mark.parametrize("record", sorted(RECORDS))
def test_the_filled_in_form_is_taken_by_the_game_s_reader_and_rules(record):
    form_of = portable.form_of

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(RECORDS[record])
    def check(drawn):
        key, setup, generated = drawn
        rules = GAMES[key].rules
        entries = accepted(rules, setup, list(generated))
        state = rules.play(setup, entries)
        players = list(state.players or setup.players)
        sample = form_of(key).sample
        filled = sample(state, players)
        if state.finished or state.next is None:
            assert filled is None
            return
        assert filled is not None
        phase, fields = filled
        current = state.current
        number = current.number if current else state.next["number"]
        answer = portable.save(
            {
                "game": key,
                "players": list(setup.players),
                "options": dict(setup.options),
                "first_dealer": setup.first_dealer,
                "members": list(setup.players),
                "entries": portable.plain(entries),
                "action": "update" if current else "record",
                "number": number,
                "phase": phase,
                "form": {**fields, "seats": ",".join(str(setup.players.index(n)) for n in players)},
            }
        )
        assert "refused" not in answer, (phase, fields, answer)
        after = answer["state"]
        # The step moved on: a hand recorded, or the one in play completed.
        before = (len(state.hands), sum(h.status == "scored" for h in state.hands))
        now = (len(after["hands"]), sum(h["status"] == "scored" for h in after["hands"]))
        assert now != before and now[0] >= before[0], (before, now)

    check()


@pytest.mark.parametrize("kind", ["spades", "pitch", "hearts", "oklahoma_gin"])
def test_the_filled_in_forms_keep_the_game_going_for_many_hands(table, app, kind):
    """Each filled-in form keeps the game going (no side runs to the target or is set out):
    a phone has the pages of at least 10 hands ahead; the steps of a game over carry
    ":over", so a game that ends offline where the filled-in forms did not finds no page
    made for a game still going."""
    seats, options = NEW[kind]
    game = game_id(start_game(table, app, kind, seats, **options))
    steps = table.get(f"/offline/play/{game}/ahead.json").get_json()["steps"]
    hands = {int(step.split(":")[0]) for step in steps}
    assert max(hands) >= 10, sorted(steps)
    assert all(step.endswith(":over") or "Game over" not in html for step, html in steps.items())

"""Partners' rules alone (no app): teams by seats, every problem of a hand at once, the tie at
the target, storage by team and seat, and a rules module that imports only the rules floor."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from tests.fifth_game.rules import RULES

pytestmark = pytest.mark.pure

SIX = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")


def setup(players=SIX, **options) -> Setup:
    return Setup(players, RULES.resolve_options(options, len(players)), 0)


def test_partners_sit_opposite_in_two_or_three_teams():
    assert RULES.sides(SIX[:4], {}) == ["Ann & Cy", "Ben & Dee"]
    assert RULES.sides(SIX, {}) == ["Ann & Dee", "Ben & Eve", "Cy & Fay"]
    assert RULES.side_of_seat({}, 6) == [0, 1, 2, 0, 1, 2]
    for table in (SIX[:3], SIX[:5], (*SIX, "Gus")):
        with pytest.raises(RuleError) as refused:
            RULES.check_setup(table, {})
        assert refused.value.code == "player_count"


def test_every_problem_of_a_hand_is_reported_at_once():
    with pytest.raises(RuleError) as refused:
        RULES.play(
            setup(),
            [{"points": {"Ann & Dee": 1.5, "Ann & Ben": 3, "Cy & Fay": None}, "went_out": "Zed"}],
        )
    found = {(error.code, error.field) for error in refused.value.errors}
    assert found == {
        ("unknown_player", "points.Ann & Ben"),
        ("wrong_type", "points.Ann & Dee"),
        ("missing_points", "points.Ben & Eve"),
        ("missing_points", "points.Cy & Fay"),
        ("unknown_player", "went_out"),
    }
    assert all(error.hand == 1 for error in refused.value.errors)
    with pytest.raises(RuleError) as far:
        RULES.play(setup(), [{"points": {"Ann & Dee": 10_001, "Ben & Eve": 0, "Cy & Fay": 0}}])
    assert far.value.message == "The points of Ann & Dee must be from −10000 to 10000."


def test_the_going_out_bonus_is_an_option_and_a_tie_at_the_target_plays_on():
    entries = [
        {"points": {"Ann & Cy": 400, "Ben & Dee": 300}, "went_out": "Dee"},  # 400 / 400
        {"points": {"Ann & Cy": 100, "Ben & Dee": 100}},  # 500 / 500: level, play on
        {"points": {"Ann & Cy": -20, "Ben & Dee": 0}},  # 480 / 500: Ben & Dee win
    ]
    state = RULES.play(setup(SIX[:4], target=500), entries)
    assert [hand.points for hand in state.hands] == [
        {"Ann & Cy": 400, "Ben & Dee": 400},
        {"Ann & Cy": 100, "Ben & Dee": 100},
        {"Ann & Cy": -20, "Ben & Dee": 0},
    ]
    assert [hand.info["hand_winners"] for hand in state.hands] == [[], [], ["Ben & Dee"]]
    assert state.finished and state.winners == ["Ben & Dee"]
    with pytest.raises(RuleError) as over:
        RULES.play(setup(SIX[:4], target=500), [*entries, entries[-1]])
    assert (over.value.code, over.value.hand) == ("game_over", 4)
    plain = RULES.play(setup(SIX[:4], target=500, going_out=False), entries[:2])
    assert plain.totals == {"Ann & Cy": 500, "Ben & Dee": 400}  # no bonus: Ann & Cy win
    assert plain.winners == ["Ann & Cy"]


def test_an_entry_is_stored_by_team_and_seat():
    entry = {"points": {"Ann & Dee": 5, "Ben & Eve": -5, "Cy & Fay": 0}, "went_out": "Eve"}
    stored = RULES.to_seats(entry, SIX)
    assert stored == {"points": [5, -5, 0], "went_out": 4}
    assert RULES.from_seats(stored, SIX) == entry
    moved = ("Ann", "Ben", "Cy", "Dee", "Gus", "Fay")  # Gus in Eve's seat
    assert RULES.from_seats(stored, moved) == {
        "points": {"Ann & Dee": 5, "Ben & Gus": -5, "Cy & Fay": 0},
        "went_out": "Gus",
    }


def test_the_rules_import_nothing_but_the_rules_floor():
    allowed = {
        "rules.py": ("scorekeeper.games.", "collections.", "typing"),
        "schema.py": ("scorekeeper.games.", "pydantic"),
    }
    for module, floor in allowed.items():
        tree = ast.parse((Path(__file__).parent / module).read_text())
        imported = {
            node.module if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        outside = {name for name in imported - {"__future__"} if not name.startswith(floor)}
        assert not outside, (module, outside)

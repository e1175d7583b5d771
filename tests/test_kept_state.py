"""A game saved hand by hand from the tally its worker kept (services/kept.py) is the game a
full replay of its stored record derives, whatever was done to it: hands recorded, the last
one corrected or undone, an earlier one corrected, the table changed and the change removed,
the table corrected, each accepted or refused. After every step, for every registered game:

- the state the save answered (and what a page or the API then reads) equals a replay of the
  stored record by the rules, from nothing;
- the stored copies (totals, winners, tally, each hand's results) are what a replay derives;
- the API's state, put together from each hand's JSON kept with the game, is the JSON its
  model writes.

The records come from each game's own generators (tests/rules/test_fold.py, ``RECORDS``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from pydantic import BaseModel

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games.base import GameRules
from scorekeeper.models import Account
from scorekeeper.models import HandResult
from scorekeeper.services import games
from scorekeeper.services import kept
from scorekeeper.services import results
from scorekeeper.services import table
from tests.rules.test_fold import RECORDS
from tests.rules.test_fold import accepted

STEPS = ("hand", "hand", "hand", "last", "undo", "earlier", "change", "unchange", "table")


def test_every_registered_game_is_drawn():
    assert set(GAMES) <= set(RECORDS)


def replayed(game) -> games.Played:
    """The game as a replay of its stored record derives it (nothing kept is used)."""
    setup = games.setup_for(game)
    state = game.plugin.rules.play(setup, games.entries_of(game, setup))
    return games.Played(game, game.plugin, setup, games._closed(game, setup, state))


def check_stored(game, result: games.Played) -> None:
    """The game's stored copies are what its state derives, every hand's results included."""
    status = results.status_of(result.state, game)
    derived = results.derive(game.plugin, result.setup, result.state, status, 1, game.members)
    assert game.status == status
    assert game.totals == derived.totals
    assert game.winners == derived.winners
    assert game.hand_count == len(result.state.hands)
    assert game.tally == [dict(counts) for counts in derived.tally]
    stored = db.session.execute(
        db.select(HandResult.number, HandResult.seat, HandResult.key, HandResult.value).where(
            HandResult.game_id == game.id
        )
    ).all()
    assert sorted(map(tuple, stored)) == sorted(derived.results)


def check_answer(result: games.Played) -> None:
    """The API's state written from the kept JSON of each hand is its model's own JSON."""
    answer = games.state_answer(result)
    assert answer.model_dump_json() == BaseModel.model_dump_json(answer)


def step(game, kind: str, entries: list, data) -> games.Played:
    """One thing done to the game, as a page or the API does it (it may be refused)."""
    rules = game.plugin.rules
    recorded = game.hand_count
    if kind == "hand":
        entry = (
            entries[recorded]
            if recorded < len(entries)
            else data.draw(st.sampled_from([*entries, {}]), label="a hand past the record")
        )
        return games.record_hand(game, entry, number=recorded + 1)
    if kind in ("last", "earlier") and recorded:
        number = recorded if kind == "last" else data.draw(st.integers(1, recorded), label="hand")
        entry = data.draw(st.sampled_from(entries or [{}]), label="correction")
        return games.update_hand(game, number, entry, replace=True)
    if kind == "undo":
        return games.undo_last_hand(game, recorded or None)
    if kind == "change":
        allowed = rules.table_changes(game.options)
        sides = game.sides
        if "adjust" in allowed:
            points = data.draw(st.integers(-5, 5), label="points")
            body = {"kind": "adjust", "player": sides[0], "points": points}
        elif "substitute" in allowed:
            body = {"kind": "substitute", "player": game.players[-1], "by": "Zed"}
        else:
            return games.played(game)
        return table.record_change(game, body, recorded + 1)
    if kind == "unchange" and game.changes:
        return table.remove_change(game, game.changes[-1].id)
    if kind == "table":
        names = list(game.players)
        first = data.draw(st.sampled_from(names), label="first dealer")
        return games.correct_table(game, names, first)
    return games.played(game)


@pytest.mark.parametrize("record", sorted(RECORDS))
def test_a_game_saved_from_the_kept_tally_is_its_full_replay(app, account, record, monkeypatch):
    folds = []
    real_fold_on = GameRules.fold_on

    def fold_on(self, tally, entry):
        folds.append(entry)
        return real_fold_on(self, tally, entry)

    monkeypatch.setattr(GameRules, "fold_on", fold_on)

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(RECORDS[record], st.data())
    def check(drawn, data):
        key, setup, generated = drawn
        rules = GAMES[key].rules
        entries = accepted(rules, setup, list(generated))
        with app.app_context():
            owner = db.session.get(Account, account.id)
            made = games.create_game(
                owner,
                key,
                list(setup.players),
                dict(setup.options),
                setup.players[setup.first_dealer],
            )
            game_id = made.game.id
            db.session.remove()
            for kind in data.draw(st.lists(st.sampled_from(STEPS), max_size=14), label="steps"):
                game = games.get_game(owner, game_id)
                try:
                    result = step(game, kind, entries, data)
                except (Refusal, NotFound):
                    db.session.rollback()
                    result = None
                db.session.remove()
                game = games.get_game(owner, game_id)
                full = replayed(game)
                if result is not None:  # what the save answered is the replay of its record
                    assert result.state == full.state, kind
                    check_answer(result)
                read = games.played(game)  # what a page or the API reads next
                assert read.state == full.state, kind
                check_answer(read)
                check_stored(game, full)
                db.session.remove()

    check()
    kept.forget()
    assert folds  # hands were saved from the kept tally, not only replayed

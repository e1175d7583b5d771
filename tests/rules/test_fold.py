"""The fold contract every game keeps (``GameRules.begin``, ``step``, ``end``): ``play`` is a
fold of its entries; ``replay`` of a changed record derives what ``play`` does and, when the
changed entry is refused, the state of the record as it stands in the same pass; ``end``
changes nothing in the tally, so a record can be folded on after its state was taken.

Each game's records come from its own property-test generators (the legal games of its rule
tests); the change is any hand of the same game, or an entry no game takes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games import GAMES
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from tests.games.hearts import test_rules_hearts as hearts
from tests.games.oh_hell import test_rules_oh_hell as oh_hell
from tests.games.oklahoma_gin import test_rules_oklahoma_gin as gin
from tests.games.oklahoma_gin import test_rules_oklahoma_gin_hollywood as hollywood
from tests.games.pitch import test_rules_pitch as pitch
from tests.games.spades import test_rules_spades as spades
from tests.games.wizard import test_rules_wizard as wizard

SCORE_PAD = ("Ann", "Ben", "Cy")


def score_pad_games():
    rounds = st.fixed_dictionaries(
        {"points": st.fixed_dictionaries({name: st.integers(-20, 40) for name in SCORE_PAD})}
    )
    options = st.sampled_from(
        [{"name": "Catan"}, {"name": "Golf", "winner": "lowest", "end": "rounds", "rounds": 4}]
    )
    return st.tuples(options, st.lists(rounds, max_size=8)).map(
        lambda drawn: (
            "score_pad",
            Setup(SCORE_PAD, GAMES["score_pad"].rules.resolve_options(drawn[0], 3)),
            drawn[1],
        )
    )


#: Per game: a strategy of ``(game key, setup, entries)``.
RECORDS = {
    "oh_hell": oh_hell.legal_games().map(lambda game: ("oh_hell", *game)),
    "wizard": wizard.legal_games().map(lambda game: ("wizard", *game)),
    "oklahoma_gin": gin.legal_games().map(lambda game: ("oklahoma_gin", game[0], game[1])),
    "hollywood": hollywood.hollywood_games().map(lambda game: ("oklahoma_gin", game[0], game[1])),
    "pitch": pitch.games().map(lambda game: ("pitch", Setup(game[0], game[1], game[2]), game[3])),
    "hearts": hearts.games().map(lambda game: ("hearts", *game)),
    "spades": st.lists(spades.legal_hands(), max_size=10).map(
        lambda hands: ("spades", spades.make_setup(), hands)
    ),
    "score_pad": score_pad_games(),
}

#: Entries no game takes as a hand.
STRANGE = ["x", {}, {"bids": "all"}, None]


def accepted(rules, setup: Setup, entries: list) -> list:
    """The longest start of ``entries`` the rules take (a generator may run past the end)."""
    tally = rules.begin(setup)
    for index, entry in enumerate(entries):
        try:
            rules._fold(tally, entry, last=True)
        except RuleError:
            return entries[:index]
        if tally.hands[-1].status != "scored":  # an unfinished hand ends a record
            return entries[: index + 1]
    return entries


def drawn(record, data):
    """The game's rules, setup, generated entries, the record they take, and a place in it."""
    key, setup, entries = record
    rules = GAMES[key].rules
    kept = accepted(rules, setup, list(entries))
    return rules, setup, entries, kept, data.draw(st.integers(0, len(kept)), label="place")


def outcome(call):
    try:
        return call(), None
    except RuleError as error:
        return None, error


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_changed_record_derives_what_play_does_and_the_record_as_it_stands(game):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(RECORDS[game], st.data())
    def check(record, data):
        rules, setup, entries, kept, changed = drawn(record, data)
        new = data.draw(st.sampled_from([*entries, *STRANGE]), label="new entry")
        attempt = [*kept[:changed], new, *kept[changed + 1 :]]

        state, refused = outcome(lambda: rules.replay(setup, attempt, kept, changed))
        played, play_refused = outcome(lambda: rules.play(setup, attempt))
        assert state == played
        if refused is None:
            assert play_refused is None
            return
        assert (refused.code, refused.hand) == (play_refused.code, play_refused.hand)
        if refused.hand <= changed + 1:
            assert refused.kept_state is not None
            assert refused.kept_state == rules.play(setup, kept)
        else:  # a later hand, broken by the change: the tally went past the kept record
            assert refused.kept_state is None

    check()


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_state_taken_midway_is_not_changed_by_folding_on(game):
    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(RECORDS[game], st.data())
    def check(record, data):
        rules, setup, _, kept, cut = drawn(record, data)
        tally = rules.begin(setup)
        for number, entry in enumerate(kept[:cut], start=1):
            rules._fold(tally, entry, last=number == len(kept))
        midway = rules._state(tally)
        for number, entry in enumerate(kept[cut:], start=cut + 1):
            rules._fold(tally, entry, last=number == len(kept))
        assert rules._state(tally) == rules.play(setup, kept)
        assert midway == rules.play(setup, kept[:cut])

    check()

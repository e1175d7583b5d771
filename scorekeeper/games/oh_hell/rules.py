"""Oh Hell (Oh Pshaw, Blackout): bid the exact number of tricks you will take.

Each hand is entered as ``{"bids": {name: int}, "tricks": {name: int}, "trump": suit}``.
Bids alone open the hand (status "playing"); the last hand may also hold only some of the bids
while the table is still bidding (status "bidding"), so the app can show who bid what and tell
the dealer which bid the hook forbids. Tricks complete the hand (status "scored").
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import SUITS
from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Option
from scorekeeper.games.base import Preset
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import collect_options
from scorekeeper.games.base import each_player
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import suit_word
from scorekeeper.games.bidding.seats import DroppedBySeats
from scorekeeper.games.bidding.words import BID_HIGHLIGHTS
from scorekeeper.games.bidding.words import balance_words
from scorekeeper.games.bidding.words import bid_entry
from scorekeeper.games.bidding.words import made_note
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import Numbers
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import number
from scorekeeper.games.readers import BIDS
from scorekeeper.games.readers import TRICKS
from scorekeeper.games.readers import whole_of
from scorekeeper.games.table import Change
from scorekeeper.games.table import Deal
from scorekeeper.games.words import HANDS

#: Most cards in a hand by player count (the seeds' table).
MAX_CARDS = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
#: The named sequences of hand sizes; "custom" plays the sizes the table lists.
SEQUENCES = ("up", "down", "up-down", "down-up")
CUSTOM = "custom"
#: The options' defaults by rules and player count (``OhHell._defaults``).
_DEFAULTS: dict[tuple[type, int], dict[str, Any]] = {}
#: Most hands a custom sequence may list.
MAX_CUSTOM_HANDS = 40
#: Which hands are played without trump (besides those that deal all 52 cards).
NO_TRUMP_HANDS = ("last", "largest", "none")
DECK = 52
#: The most a scoring value (bonus, points per trick, penalty) may be.
MOST_POINTS = 100
#: The options that decide the score of a hand (what the presets fill in).
SCORING_OPTIONS = ("made_bonus", "trick_value", "miss_scoring", "miss_penalty", "zero_bid_bonus")
#: Plain play: the scoring of the seeds.
SEED_SCORING = {
    "made_bonus": 10,
    "trick_value": 1,
    "miss_scoring": "zero",
    "miss_penalty": 0,
    "zero_bid_bonus": False,
}
PRESETS = (
    Preset("seed", N_("Standard"), dict(SEED_SCORING)),
    Preset(
        "nomination_whist", N_("Nomination Whist"), {**SEED_SCORING, "miss_scoring": "per_trick"}
    ),
    Preset("penalty", N_("Penalty"), {**SEED_SCORING, "miss_penalty": 5}),
    Preset(
        "wizard_scoring",
        N_("Wizard scoring"),
        {**SEED_SCORING, "made_bonus": 20, "trick_value": 10, "miss_penalty": 10},
    ),
)
MINUS = "\u2212"
#: The variant of a game scored by none of the presets: "custom:" and its made bonus, points
#: per trick and penalty per trick off ("custom:5/5/5"), then ":per_trick" when a missed bid
#: scores its tricks and ":zero_bid" with the zero-bid bonus.
CUSTOM_VARIANT = "custom:"
#: The worked example of a formula on the new-game page: (bid, tricks taken) in a hand of
#: ``EXAMPLE_CARDS`` cards (the hand's size counts only for the zero-bid bonus).
EXAMPLE_HANDS = ((2, 2), (1, 3), (0, 0))
EXAMPLE_CARDS = 5


def max_cards_for(player_count: int) -> int:
    """The number of hands (and most cards in one) for a table of ``player_count``."""
    try:
        return MAX_CARDS[player_count]
    except KeyError:
        raise ValueError(f"Oh Hell is played by 3 to 7 players, not {player_count}") from None


def hand_sizes(sequence: str, max_cards: int) -> list[int]:
    """Cards dealt in each hand, in order, for a ``sequence`` variant."""
    up = list(range(1, max_cards + 1))
    down = up[::-1]
    sizes = {"up": up, "down": down, "up-down": up + down[1:], "down-up": down + up[1:]}
    try:
        return sizes[sequence]
    except KeyError:
        raise ValueError(f"unknown sequence {sequence!r}") from None


def game_sizes(options: Mapping[str, Any]) -> list[int]:
    """Cards dealt in each hand of a game with these (resolved) options."""
    if options["sequence"] == CUSTOM:
        return list(options["custom_sizes"])
    return hand_sizes(options["sequence"], options["max_cards"])


def forbidden_dealer_bid(cards: int, other_bids: Iterable[int]) -> int | None:
    """The dealer's bid that would make the bids add up to ``cards`` (None if none can)."""
    value = cards - sum(other_bids)
    return value if 0 <= value <= cards else None


def hand_points(bid: int, tricks: int, cards: int, options: Mapping[str, Any]) -> int:
    """Points for one player. A made bid scores ``made_bonus`` (10) + ``trick_value`` (1) a
    trick, or 5 + cards for a made 0 with the zero-bid bonus. A miss scores 0, or the tricks
    at ``trick_value`` with ``miss_scoring = per_trick``, less ``miss_penalty`` (0) for every
    trick it was off by. Options left out count as their defaults."""
    trick_value = options.get("trick_value", 1)
    if bid == tricks:
        if bid == 0 and options.get("zero_bid_bonus", False):
            return 5 + cards
        return options.get("made_bonus", 10) + trick_value * tricks
    points = tricks * trick_value if options.get("miss_scoring", "zero") == "per_trick" else 0
    return points - options.get("miss_penalty", 0) * abs(tricks - bid)


def no_trump(player_count: int, cards: int) -> bool:
    """True when the hand uses the whole deck, so no card is left to turn for trump."""
    return player_count * cards == DECK


def no_trump_reason(player_count: int, sizes: Sequence[int], index: int, chosen: str) -> str | None:
    """Why hand ``index`` (from 0) of ``sizes`` has no trump: "deck" (all 52 cards are dealt),
    "last" or "largest" (the ``no_trump_hands`` option), or None when a trump is turned."""
    cards = sizes[index]
    if no_trump(player_count, cards):
        return "deck"
    if chosen == "last" and index == len(sizes) - 1:
        return "last"
    if chosen == "largest" and cards == max(sizes):
        return "largest"
    return None


def hook_applies(options: Mapping[str, Any], cards: int) -> bool:
    """Whether the hook holds in a hand of ``cards`` (on, and at least ``hook_min_cards``)."""
    return bool(options["hook"]) and cards >= options.get("hook_min_cards", 1)


def bid_balance(total: int, cards: int) -> str:
    """How the bids compare with the tricks available: "2 over", "1 under" or "even" (the
    API's ``info.balance``, the same in every language; ``balance_words`` says it)."""
    if total > cards:
        return f"{total - cards} over"
    if total < cards:
        return f"{cards - total} under"
    return "even"


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


class OhHell(DroppedBySeats, GameRules):
    key = "oh_hell"
    title = lazy_pgettext("game title", "Oh Hell")
    min_players = 3
    max_players = 7
    hand_words = HANDS
    name_maps = ("bids", "tricks")
    facts = (
        Fact("bids", N_("Bids")),
        Fact("bids_made", N_("Bids made")),
        Fact("zero_bids", N_("Zero bids")),
        Fact("zero_bids_made", N_("Zero bids made")),
    )
    highlights = BID_HIGHLIGHTS
    stats = (
        Stat(N_("Bids made"), "bids_made", out_of="bids"),
        Stat(N_("Zero bids made"), "zero_bids_made", out_of="zero_bids"),
    )
    presets = PRESETS
    example_options = SCORING_OPTIONS

    def variant_of(self, options: Mapping[str, Any]) -> str:
        """Games compare like with like by how they score: a preset's key, or a custom
        formula's values ("custom:5/5/5", see ``CUSTOM_VARIANT``)."""
        preset = self.preset_of(options)
        if preset is not None:
            return preset
        scoring = {**SEED_SCORING, **{k: options[k] for k in SCORING_OPTIONS if k in options}}
        variant = (
            f"{CUSTOM_VARIANT}{scoring['made_bonus']}/{scoring['trick_value']}"
            f"/{scoring['miss_penalty']}"
        )
        if scoring["miss_scoring"] == "per_trick":
            variant += ":per_trick"
        if scoring["zero_bid_bonus"]:
            variant += ":zero_bid"
        return variant

    def variant_label(self, variant: str) -> str:
        """A custom formula reads as its values ("Scoring 5/5/5"); a preset by its name."""
        scoring = _custom_scoring(variant)
        if scoring is None:
            return super().variant_label(variant)
        values = {
            "bonus": scoring["made_bonus"],
            "value": scoring["trick_value"],
            "penalty": scoring["miss_penalty"],
        }
        per_trick = scoring["miss_scoring"] == "per_trick"
        if per_trick and scoring["zero_bid_bonus"]:
            return _(
                "Scoring %(bonus)s/%(value)s/%(penalty)s, misses score their tricks, "
                "zero-bid bonus",
                **values,
            )
        if per_trick:
            return _("Scoring %(bonus)s/%(value)s/%(penalty)s, misses score their tricks", **values)
        if scoring["zero_bid_bonus"]:
            return _("Scoring %(bonus)s/%(value)s/%(penalty)s, zero-bid bonus", **values)
        return _("Scoring %(bonus)s/%(value)s/%(penalty)s", **values)

    def worked_example(self, options: Mapping[str, Any]) -> str:
        """How a few hands score with these options, in the reader's words: "bid 2, took 2:
        7 points · bid 1, took 3: −10 points · bid 0, took 0: 5 points" (the scoring options
        left out count as their defaults)."""
        scoring = {**SEED_SCORING, **{k: options[k] for k in SCORING_OPTIONS if k in options}}
        parts = []
        for bid, took in EXAMPLE_HANDS:
            points = hand_points(bid, took, EXAMPLE_CARDS, scoring)
            if bid == took == 0 and scoring["zero_bid_bonus"]:
                parts.append(
                    ngettext(
                        "bid %(bid)s, took %(took)s in a %(cards)s-card hand: %(num)s point",
                        "bid %(bid)s, took %(took)s in a %(cards)s-card hand: %(num)s points",
                        abs(points),
                        bid=bid,
                        took=took,
                        cards=EXAMPLE_CARDS,
                        num=points,
                    )
                )
            else:
                parts.append(
                    ngettext(
                        "bid %(bid)s, took %(took)s: %(num)s point",
                        "bid %(bid)s, took %(took)s: %(num)s points",
                        abs(points),
                        bid=bid,
                        took=took,
                        num=points,
                    )
                )
        return " · ".join(parts)

    def schedule(self, setup: Setup) -> list[int]:
        return game_sizes(setup.options)

    def reminders(self, options: Mapping[str, Any]) -> list[str]:
        reminders = [
            _(
                "Follow suit if you can. The highest card of the suit led wins the trick, unless "
                "trumps were played: then the highest trump wins."
            )
        ]
        if options.get("must_trump"):
            reminders.append(
                _("Must trump: a player who cannot follow suit must play a trump if holding one.")
            )
        return reminders

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        return made_note(state, side)

    def balance_text(self, total: int, cards: int) -> str:
        """How the bids compare with the cards, for the pages: "2 over"."""
        return balance_words(total, cards)

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        bids, tricks = hand.input["bids"], hand.input["tricks"]
        return [
            {
                "bids": 1,
                "bids_made": int(bids[name] == tricks[name]),
                "zero_bids": int(bids[name] == 0),
                "zero_bids_made": int(bids[name] == 0 == tricks[name]),
            }
            for name in setup.players
        ]

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = [_("Cards"), _("Trump")]
        for name in setup.players:
            columns += [_("%(name)s bid", name=name), _("%(name)s tricks", name=name)]
        return columns

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        cells = [
            hand.info["cards"],
            suit_word("none" if hand.info["no_trump"] else hand.input.get("trump")),
        ]
        for name in setup.players:
            cells += [hand.input["bids"].get(name), (hand.input.get("tricks") or {}).get(name)]
        return cells

    # Options --------------------------------------------------------------------------------

    def seat_entry(self, options: Mapping[str, Any]) -> Any:
        return bid_entry(simultaneous=bool(options.get("simultaneous")))

    def option_specs(self, player_count: int) -> list[Option]:
        count = min(max(player_count, self.min_players), self.max_players)
        most = max_cards_for(count)
        return [
            Option(
                "sequence",
                N_("Cards per hand"),
                "choice",
                "up",
                choices=(*SEQUENCES, CUSTOM),
                help=N_(
                    "Up: 1 card, then 2, 3 … up to the most. Down: the reverse. "
                    "Up-down and down-up go there and back. Custom: the table lists the cards "
                    "of every hand."
                ),
                choice_labels={
                    "up": N_("Up: 1 card, then 2, 3 … to the most"),
                    "down": N_("Down: the most, then one fewer each hand to 1"),
                    "up-down": N_("Up and down: 1 … the most … 1"),
                    "down-up": N_("Down and up: the most … 1 … the most"),
                    CUSTOM: N_("Custom: the cards of each hand as the table lists them"),
                },
            ),
            Option(
                "custom_sizes",
                N_("Custom hand sizes"),
                "list",
                None,
                minimum=1,
                maximum=most,
                help=N_(
                    "With the custom sequence only: the cards of each hand in order, "
                    "%(one)s to %(hands)s hands of %(one)s to %(most)s cards (e.g. %(example)s).",
                    one=1,
                    hands=MAX_CUSTOM_HANDS,
                    most=most,
                    example=Numbers(7, 7, 7),
                ),
            ),
            Option(
                "max_cards",
                N_("Most cards in a hand"),
                "int",
                most,
                minimum=1,
                maximum=most,
                help=N_(
                    "%(most)s with %(count)s players; may be lowered for a shorter game. "
                    "No part of a custom sequence.",
                    most=most,
                    count=count,
                ),
                form_help=N_(
                    "Blank: by player count (3 → 15, 4 → 13, 5 → 10, 6 → 8, 7 → 7). "
                    "Lower it for a shorter game."
                ),
            ),
            Option(
                "no_trump_hands",
                N_("Hands without trump"),
                "choice",
                "last",
                choices=NO_TRUMP_HANDS,
                help=N_(
                    "Which hands are played without turning a trump card. A hand that deals "
                    "all 52 cards never has a trump."
                ),
                choice_labels={
                    "last": N_("The last hand of the game"),
                    "largest": N_("Every hand with the most cards"),
                    "none": N_("None chosen (only when all 52 cards are dealt)"),
                },
            ),
            Option(
                "hook",
                N_("Hook"),
                "bool",
                False,
                help=N_(
                    "The bids may not add up to the cards dealt: the dealer, bidding last, "
                    "may not bid the value that would make them equal."
                ),
            ),
            Option(
                "hook_min_cards",
                N_("Smallest hand with the hook"),
                "int",
                1,
                minimum=1,
                maximum=most,
                help=N_(
                    "The hook holds only in hands of at least this many cards (2 or 4 "
                    "spare the small hands). No effect with the hook off."
                ),
            ),
            Option(
                "simultaneous",
                N_("Simultaneous bidding"),
                "bool",
                False,
                help=N_(
                    "Everyone shows a bid at once. With the hook, bids that add up to the "
                    "cards dealt are refused and the table bids again."
                ),
            ),
            Option(
                "miss_scoring",
                N_("A missed bid scores"),
                "choice",
                "zero",
                choices=("zero", "per_trick"),
                help=N_("Zero: nothing. Per trick: the tricks taken, each worth the trick value."),
                choice_labels={
                    "zero": N_("Nothing"),
                    "per_trick": N_("The tricks taken (points per trick each)"),
                },
            ),
            Option(
                "zero_bid_bonus",
                N_("Zero-bid bonus"),
                "bool",
                False,
                help=N_(
                    "A made bid of 0 scores 5 + the cards dealt instead of the exact-bid bonus."
                ),
            ),
            Option(
                "made_bonus",
                N_("Exact-bid bonus"),
                "int",
                10,
                minimum=0,
                maximum=MOST_POINTS,
                help=N_("What a made bid scores on top of its tricks."),
                stepper=True,
            ),
            Option(
                "trick_value",
                N_("Points per trick"),
                "int",
                1,
                minimum=0,
                maximum=MOST_POINTS,
                help=N_(
                    "What each trick of a made bid is worth (and of a missed one, when a "
                    "missed bid scores its tricks)."
                ),
                stepper=True,
            ),
            Option(
                "miss_penalty",
                N_("Penalty per trick off"),
                "int",
                0,
                minimum=0,
                maximum=MOST_POINTS,
                help=N_(
                    "Taken off a missed bid for every trick it was off by; totals may go "
                    "below zero."
                ),
                stepper=True,
            ),
            Option(
                "must_trump",
                N_("Must trump (La Podrida)"),
                "bool",
                False,
                help=N_(
                    "A player who cannot follow suit must play a trump if holding one. "
                    "A reminder only; it changes no score."
                ),
            ),
        ]

    def resolve_options(self, raw: Mapping[str, Any] | None, player_count: int) -> dict[str, Any]:
        """Every option with its effective value. Besides each option's own values: the
        custom sizes go with the custom sequence only (every problem with them is one
        ``custom_sizes_invalid``), and the hook's smallest hand is at most the biggest hand."""
        raw = dict(raw or {})
        specs = self.option_specs(player_count)
        by_key = {spec.key: spec for spec in specs}
        problems = Problems()
        given_sizes = raw.pop("custom_sizes", None)
        resolved = collect_options([s for s in specs if s.key != "custom_sizes"], raw, problems)
        with problems.check():
            resolved["custom_sizes"] = _custom_sizes(
                given_sizes, resolved.get("sequence"), by_key["custom_sizes"].maximum
            )
        sequence = resolved.get("sequence")
        sizes = None
        if sequence == CUSTOM:
            sizes = resolved.get("custom_sizes")
        elif sequence in SEQUENCES and "max_cards" in resolved:
            sizes = hand_sizes(sequence, resolved["max_cards"])
        least = resolved.get("hook_min_cards")
        if sizes and least is not None and least > max(sizes):
            spec = by_key["hook_min_cards"]
            problems.add(
                RuleError(
                    "option_value",
                    _(
                        "%(option)s must be from %(low)s to %(high)s, the biggest hand of this "
                        "game.",
                        option=spec.label,
                        low=1,
                        high=max(sizes),
                    ),
                    f"options.{spec.key}",
                )
            )
        problems.raise_any()
        return {spec.key: resolved[spec.key] for spec in specs}

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        """How this game scores and plays, in plain sentences: the scoring, the cards per
        hand, the hands without trump, then one sentence for each other option that differs
        from plain play. With ``player_count`` the hands that deal all 52 cards are named."""
        options = {**self._defaults(player_count), **options}
        sizes = game_sizes(options)
        sentences = [_scoring_sentence(options)]
        if options["zero_bid_bonus"]:
            sentences.append(_("A made bid of 0 scores 5 + the cards dealt."))
        sentences.append(_sizes_sentence(options, sizes))
        sentences.append(_no_trump_sentence(options["no_trump_hands"], sizes))
        if player_count is not None:
            for cards in sorted({cards for cards in sizes if no_trump(player_count, cards)}):
                sentences.append(
                    _(
                        "A hand of %(cards)s cards deals all 52, so it has no trump "
                        "(no card is left to turn).",
                        cards=cards,
                    )
                )
        if options["hook"]:
            least = options["hook_min_cards"]
            if least > 1:
                sentences.append(
                    _(
                        "Hook: the bids may not add up to the cards dealt (hands of %(least)s "
                        "cards or more).",
                        least=least,
                    )
                )
            else:
                sentences.append(_("Hook: the bids may not add up to the cards dealt."))
        if options["simultaneous"]:
            if options["hook"]:
                sentences.append(
                    _(
                        "Everyone shows a bid at once; with the hook, bids that add up to the "
                        "cards dealt are refused and the table bids again."
                    )
                )
            else:
                sentences.append(_("Everyone shows a bid at once."))
        if options["must_trump"]:
            sentences.append(str(MUST_TRUMP))
        return sentences

    def _defaults(self, player_count: int | None) -> dict[str, Any]:
        """The options' defaults for ``player_count`` players, worked out once per count (every
        game's replay starts from them; the specs' words need not be made each time)."""
        count = player_count or self.min_players
        key = (type(self), count)
        known = _DEFAULTS.get(key)
        if known is None:
            specs = self.option_specs(count)
            known = _DEFAULTS[key] = {spec.key: spec.default for spec in specs}
        return dict(known)

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """Bids and tricks are merged player by player, so bids can be added one at a time
        and one player's figure corrected alone; other keys are replaced."""
        merged = dict(entered)
        for key, value in change.items():
            held = merged.get(key)
            per_name = key in ("bids", "tricks")
            if per_name and isinstance(held, Mapping) and isinstance(value, Mapping):
                merged[key] = {**held, **value}
            else:
                merged[key] = value
        return merged

    # The game -------------------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        # Options stored before an option existed get its default.
        options = {**self._defaults(len(players)), **setup.options}
        return Tally(
            Setup(players, options, setup.first_dealer), players, sizes=game_sizes(options)
        )

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        sizes = tally.sizes
        if number > len(sizes):
            raise RuleError("game_over", _("This game is over."), hand=number)
        hand = self._hand(tally.deal, number, sizes, entry, last=last)
        if hand.points is not None:
            add_points(tally.totals, hand.points)
        tally.hands.append(hand)
        tally.finished = number == len(sizes) and hand.status == "scored"

    # The table's changes: every one; the schedule is the cards of the hands still to play --

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ("join", "leave", "sit_out", "substitute", "adjust", "schedule")

    deck = DECK

    def no_hands_left(self, count: int) -> str:
        return ngettext(
            "With %(num)s player no hand still to play can be dealt.",
            "With %(num)s players no hand still to play can be dealt.",
            count,
        )

    def reschedule(self, tally: Tally, change: Change, apply: bool) -> dict[str, Any]:
        """The cards of every hand still to play: each from 1 to the player-count table's
        biggest hand for the seated players, at most 40 hands; ``[]`` ends the game now (once
        a hand is scored)."""
        sizes = change.body.get("sizes")
        where = change.field("sizes")
        seated = len(tally.seated)
        biggest = MAX_CARDS.get(seated, DECK // seated)
        if not isinstance(sizes, list) or not all(
            isinstance(cards, int) and not isinstance(cards, bool) for cards in sizes
        ):
            raise RuleError(
                "custom_sizes_invalid", _("List the cards of each hand still to play."), where
            )
        if len(sizes) > MAX_CUSTOM_HANDS or any(not 1 <= cards <= biggest for cards in sizes):
            raise RuleError(
                "custom_sizes_invalid",
                _(
                    "At most %(hands)s hands, each of 1 to %(cards)s cards.",
                    hands=MAX_CUSTOM_HANDS,
                    cards=biggest,
                ),
                where,
            )
        if not sizes and not tally.hands:
            raise RuleError(
                "custom_sizes_invalid", _("Play at least one hand before ending the game."), where
            )
        if apply:
            tally.sizes = tally.sizes[: len(tally.hands)] + list(sizes)
            tally.finished = not sizes
        return {"kind": "schedule", "sizes": list(sizes)}

    def end(self, tally: Tally) -> State:
        hands = list(tally.hands)
        state = State(
            sides=list(tally.sides),
            teams=None,
            hands=hands,
            totals=dict(tally.totals),
            left=list(tally.seating.left),
        )
        state.finished = tally.finished
        if state.finished:
            state.winners = state.leaders()
        else:
            state.next = self._next(tally.next_deal(), tally.sizes, hands)
        state.notices = self._notices(tally.next_deal(), tally.sizes, state)
        return state

    # One hand -----------------------------------------------------------------------------

    def _hand(
        self,
        deal: Deal,
        number: int,
        sizes: list[int],
        entry: Mapping[str, Any],
        last: bool,
    ) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A hand must be given as bids and tricks per player."))
        players = deal.players
        options = deal.options
        cards = sizes[number - 1]
        dealer_seat = deal.dealer_seat
        dealer = players[dealer_seat]
        tricks_given = entry.get("tricks") is not None
        without_trump = no_trump_reason(len(players), sizes, number - 1, options["no_trump_hands"])

        # Every independent problem is reported at once; the hook waits for valid bids and
        # the tricks' sum for valid tricks.
        problems = Problems()
        bids: dict[str, int] = {}
        with problems.check():
            bids = self._bids(entry, deal, cards, partial_ok=last and not tricks_given)
        complete = not problems and len(bids) == len(players)
        if complete and hook_applies(options, cards):
            with problems.check():
                self._check_hook(bids, dealer, cards, options["simultaneous"])
        trump = None
        with problems.check():
            trump = self._trump(entry.get("trump"), number, cards, without_trump)
        tricks: dict[str, int] | None = None
        if tricks_given:
            with problems.check():
                tricks = self._tricks(entry, deal, cards)
        elif not last:
            problems.add(
                RuleError(
                    "missing_tricks",
                    _(
                        "Hand %(number)s has no tricks yet: enter them before the next hand.",
                        number=number,
                    ),
                    "tricks",
                    names_hand=True,
                )
            )
        problems.raise_any()

        normalised: dict[str, Any] = {"bids": bids}
        if trump is not None:
            normalised["trump"] = trump
        points = None
        made = None
        if tricks is not None:
            normalised["tricks"] = tricks
            points = {n: hand_points(bids[n], tricks[n], cards, options) for n in players}
            made = {n: bids[n] == tricks[n] for n in players}
            status = "scored"
        else:
            status = "playing" if complete else "bidding"

        order = order_from_left_of(dealer_seat, players)
        total = sum(bids.values())
        info = {
            "cards": cards,
            "no_trump": without_trump is not None,
            "trump": trump,
            "order": None if options["simultaneous"] else order,
            "leader": order[0],
            "bids_total": total,
            "balance": bid_balance(total, cards),
            "made": made,
            "total_hands": len(sizes),
        }
        return Hand(number, dealer, status, normalised, points, info)

    @staticmethod
    def _bids(entry: Mapping[str, Any], deal: Deal, cards: int, partial_ok: bool) -> dict[str, int]:
        """The bids entered, in seat order. Only the hand still being bid may lack some."""

        def read(name: str, value: Any) -> int:
            return whole_of(value, BIDS, name, f"bids.{name}", "bid_out_of_range", 0, cards)

        return each_player(
            entry, "bids", deal.players, "missing_bid", BIDS, read, partial_ok, deal.members
        )

    @staticmethod
    def _check_hook(bids: Mapping[str, int], dealer: str, cards: int, simultaneous: bool) -> None:
        if simultaneous:
            if sum(bids.values()) == cards:
                raise RuleError(
                    "hook_violation",
                    ngettext(
                        "The bids add up to the %(num)s card dealt, which the hook forbids: "
                        "the table must bid again.",
                        "The bids add up to the %(num)s cards dealt, which the hook forbids: "
                        "the table must bid again.",
                        cards,
                    ),
                    "bids",
                )
            return
        others = [bid for name, bid in bids.items() if name != dealer]
        forbidden = forbidden_dealer_bid(cards, others)
        if bids[dealer] == forbidden:
            raise RuleError(
                "hook_violation",
                ngettext(
                    "%(dealer)s is the dealer and may not bid %(bid)s: the bids would total "
                    "the %(num)s card.",
                    "%(dealer)s is the dealer and may not bid %(bid)s: the bids would total "
                    "the %(num)s cards.",
                    cards,
                    dealer=dealer,
                    bid=forbidden,
                ),
                f"bids.{dealer}",
            )

    @staticmethod
    def _trump(value: Any, number: int, cards: int, without_trump: str | None) -> str | None:
        if value is None:
            return None
        suit = value.strip().lower() if isinstance(value, str) else None
        if suit not in SUITS:
            raise RuleError(
                "trump_invalid", _("The trump must be clubs, diamonds, hearts or spades."), "trump"
            )
        if without_trump == "deck":
            raise RuleError(
                "trump_invalid",
                _(
                    "All 52 cards are dealt in a %(cards)s-card hand, so there is no trump.",
                    cards=cards,
                ),
                "trump",
            )
        if without_trump == "last":
            raise RuleError(
                "trump_invalid",
                _(
                    "Hand %(number)s is the last hand, which is played without trump.",
                    number=number,
                ),
                "trump",
                names_hand=True,
            )
        if without_trump == "largest":
            raise RuleError(
                "trump_invalid",
                _(
                    "Hand %(number)s has the most cards of the game (%(cards)s), so it is played "
                    "without trump.",
                    number=number,
                    cards=cards,
                ),
                "trump",
                names_hand=True,
            )
        return suit

    @staticmethod
    def _tricks(entry: Mapping[str, Any], deal: Deal, cards: int) -> dict[str, int]:
        def read(name: str, value: Any) -> int:
            where = f"tricks.{name}"
            return whole_of(value, TRICKS, name, where, "tricks_out_of_range", 0, cards)

        tricks = each_player(
            entry, "tricks", deal.players, "missing_tricks", TRICKS, read, members=deal.members
        )
        taken = sum(tricks.values())
        if taken != cards:
            message = ngettext(
                "Tricks add up to %(taken)s but %(num)s card was dealt.",
                "Tricks add up to %(taken)s but %(num)s cards were dealt.",
                cards,
                taken=taken,
            )
            raise RuleError("tricks_sum_mismatch", message, "tricks")
        return tricks

    # What comes next ----------------------------------------------------------------------

    def _next(self, deal: Deal, sizes: list[int], hands: list[Hand]) -> dict[str, Any]:
        players = deal.players
        options = deal.options
        current = hands[-1] if hands and hands[-1].status != "scored" else None
        number = current.number if current else len(hands) + 1
        dealer_seat = deal.dealer_seat
        dealer = players[dealer_seat]
        cards = sizes[number - 1]
        order = order_from_left_of(dealer_seat, players)
        forbidden = None
        if current and hook_applies(options, cards) and not options["simultaneous"]:
            bids = current.input["bids"]
            others = [name for name in players if name != dealer]
            if all(name in bids for name in others):
                forbidden = forbidden_dealer_bid(cards, (bids[name] for name in others))
        reason = no_trump_reason(len(players), sizes, number - 1, options["no_trump_hands"])
        return {
            "number": number,
            "dealer": dealer,
            "cards": cards,
            "order": None if options["simultaneous"] else order,
            "leader": order[0],
            "no_trump": reason is not None,
            "forbidden_dealer_bid": forbidden,
            "total_hands": len(sizes),
            # The cards of every hand still to play, this one first (API.md): what the
            # table's schedule change lists.
            "schedule": list(sizes[number - 1 :]),
        }

    @staticmethod
    def _notices(setup: Deal, sizes: list[int], state: State) -> list[str]:
        if state.finished:
            best = state.totals[state.winners[0]]
            if len(state.winners) == 1:
                return [_("%(name)s wins with %(points)s.", name=state.winners[0], points=best)]
            return [
                _(
                    "%(names)s share the win with %(points)s.",
                    names=_join(state.winners),
                    points=best,
                )
            ]
        notices = []
        upcoming = state.next
        current = state.current
        if current is not None:
            bids = current.input["bids"]
            dealer = current.dealer
            forbidden = upcoming["forbidden_dealer_bid"]
            if forbidden is not None and dealer not in bids:
                notices.append(
                    _(
                        "%(dealer)s is the dealer and may not bid %(bid)s.",
                        dealer=dealer,
                        bid=forbidden,
                    )
                )
            if current.status == "playing":
                info = current.info
                notices.append(
                    ngettext(
                        "Bids total %(total)s for %(num)s card (%(balance)s).",
                        "Bids total %(total)s for %(num)s cards (%(balance)s).",
                        info["cards"],
                        total=info["bids_total"],
                        balance=balance_words(info["bids_total"], info["cards"]),
                    )
                )
        number = upcoming["number"]
        reason = no_trump_reason(
            len(setup.players), sizes, number - 1, setup.options["no_trump_hands"]
        )
        if reason == "deck":
            notices.append(
                _("Hand %(number)s: all 52 cards are dealt, so there is no trump.", number=number)
            )
        elif reason == "last":
            notices.append(
                _("Hand %(number)s is the last hand: it is played without trump.", number=number)
            )
        elif reason == "largest":
            notices.append(
                _(
                    "Hand %(number)s has the most cards of the game: it is played without trump.",
                    number=number,
                )
            )
        if setup.options.get("must_trump"):
            notices.append(str(MUST_TRUMP))
        return notices


MUST_TRUMP = N_("A player who cannot follow suit must play a trump if holding one.")


def _custom_sizes(value: Any, sequence: str | None, most: int) -> list[int] | None:
    """The custom hand sizes: a list with the custom sequence, None with any other. Every
    problem is one ``custom_sizes_invalid``."""
    where = "options.custom_sizes"
    if value is None:
        if sequence == CUSTOM:
            raise RuleError(
                "custom_sizes_invalid",
                _("A custom sequence needs its hand sizes: the cards of each hand, in order."),
                where,
            )
        return None
    if sequence is not None and sequence != CUSTOM:
        raise RuleError(
            "custom_sizes_invalid",
            _("Custom hand sizes go with the custom sequence only; choose it or leave them out."),
            where,
        )
    if not isinstance(value, list | tuple):
        raise RuleError(
            "custom_sizes_invalid",
            _("Custom hand sizes must be a list of whole numbers, one for each hand."),
            where,
        )
    if not 1 <= len(value) <= MAX_CUSTOM_HANDS:
        raise RuleError(
            "custom_sizes_invalid",
            _(
                "A custom sequence has %(low)s to %(high)s hands, not %(given)s.",
                low=1,
                high=MAX_CUSTOM_HANDS,
                given=len(value),
            ),
            where,
        )
    for hand_number, cards in enumerate(value, 1):
        if type(cards) is not int or not 1 <= cards <= most:
            raise RuleError(
                "custom_sizes_invalid",
                _(
                    "Each custom hand has %(low)s to %(high)s cards, but hand %(number)s has "
                    "“%(cards)s”.",
                    low=1,
                    high=most,
                    number=hand_number,
                    cards=cards,
                ),
                where,
            )
    return list(value)


def _custom_scoring(variant: str) -> dict[str, Any] | None:
    """The scoring options a custom variant ("custom:5/5/5:per_trick") says; None for any
    other variant (a preset's key, the "custom" of games stored before it said its values)."""
    if not variant.startswith(CUSTOM_VARIANT):
        return None
    values, *flags = variant.removeprefix(CUSTOM_VARIANT).split(":")
    numbers = values.split("/")
    if len(numbers) != 3 or not all(n.isascii() and n.isdigit() for n in numbers):
        return None
    bonus, value, penalty = (int(n) for n in numbers)
    return {
        "made_bonus": bonus,
        "trick_value": value,
        "miss_penalty": penalty,
        "miss_scoring": "per_trick" if "per_trick" in flags else "zero",
        "zero_bid_bonus": "zero_bid" in flags,
    }


def _scoring_sentence(options: Mapping[str, Any]) -> str:
    """How a hand scores, as two whole sentences (made, then missed)."""
    value, bonus, penalty = options["trick_value"], options["made_bonus"], options["miss_penalty"]
    if value == 0:
        made = _("Exact bid: %(bonus)s.", bonus=bonus)
    elif value == 1:
        made = _("Exact bid: %(bonus)s + tricks.", bonus=bonus)
    else:
        made = _("Exact bid: %(bonus)s + %(value)s per trick.", bonus=bonus, value=value)
    per_trick = options["miss_scoring"] == "per_trick"
    if per_trick and penalty:
        missed = _(
            "Missed: %(value)s per trick taken, %(minus)s%(penalty)s per trick off.",
            value=value,
            minus=MINUS,
            penalty=penalty,
        )
    elif per_trick:
        missed = _("Missed: %(value)s per trick taken.", value=value)
    elif penalty:
        missed = _("Missed: %(minus)s%(penalty)s per trick off.", minus=MINUS, penalty=penalty)
    else:
        missed = _("Missed: %(points)s.", points=0)
    return _("%(made)s %(missed)s", made=made, missed=missed)


def _sizes_sentence(options: Mapping[str, Any], sizes: list[int]) -> str:
    hands = ngettext("%(num)s hand", "%(num)s hands", len(sizes))
    if options["sequence"] == CUSTOM:
        return _(
            "Cards per hand, as the table listed them: %(sizes)s (%(hands)s).",
            sizes=", ".join(number(size) for size in sizes),
            hands=hands,
        )
    most = options["max_cards"]
    if most == 1:
        return _("Cards per hand: %(most)s (%(hands)s).", most=1, hands=hands)
    ways = {
        "up": lambda: _(
            "Cards per hand: 1 to %(most)s, one more each hand (%(hands)s).",
            most=most,
            hands=hands,
        ),
        "down": lambda: _(
            "Cards per hand: %(most)s down to 1, one fewer each hand (%(hands)s).",
            most=most,
            hands=hands,
        ),
        "up-down": lambda: _(
            "Cards per hand: 1 to %(most)s, then back down to 1 (%(hands)s).",
            most=most,
            hands=hands,
        ),
        "down-up": lambda: _(
            "Cards per hand: %(most)s down to 1, then back up to %(most)s (%(hands)s).",
            most=most,
            hands=hands,
        ),
    }
    return ways[options["sequence"]]()


def _no_trump_sentence(chosen: str, sizes: list[int]) -> str:
    if chosen == "last":
        return _("The last hand is played without trump.")
    if chosen == "largest":
        count = sizes.count(max(sizes))
        if count == 1:
            return _(
                "The hand with the most cards (%(cards)s) is played without trump.",
                cards=max(sizes),
            )
        return ngettext(
            "The %(num)s hand with the most cards (%(cards)s) is played without trump.",
            "The %(num)s hands with the most cards (%(cards)s) are played without trump.",
            count,
            cards=max(sizes),
        )
    return _("A trump card is turned in every hand that leaves a card to turn.")


RULES = OhHell()

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
from scorekeeper.games.base import add_points
from scorekeeper.games.base import collect_options
from scorekeeper.games.base import each_player
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import seat_after
from scorekeeper.games.base import whole_number
from scorekeeper.games.bidding import made_note

#: Most cards in a hand by player count (the seeds' table).
MAX_CARDS = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
#: The named sequences of hand sizes; "custom" plays the sizes the table lists.
SEQUENCES = ("up", "down", "up-down", "down-up")
CUSTOM = "custom"
#: Most hands a custom sequence may list.
MAX_CUSTOM_HANDS = 40
#: Which hands are played without trump (besides those that deal all 52 cards).
NO_TRUMP_HANDS = ("last", "largest", "none")
DECK = 52
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
    Preset("seed", "Seed rules", dict(SEED_SCORING)),
    Preset("nomination_whist", "Nomination Whist", {**SEED_SCORING, "miss_scoring": "per_trick"}),
    Preset("penalty", "Penalty", {**SEED_SCORING, "miss_penalty": 5}),
    Preset(
        "wizard_scoring",
        "Wizard scoring",
        {**SEED_SCORING, "made_bonus": 20, "trick_value": 10, "miss_penalty": 10},
    ),
)
MINUS = "\u2212"


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
    """How the bids compare with the tricks available: "2 over", "1 under" or "even"."""
    if total > cards:
        return f"{total - cards} over"
    if total < cards:
        return f"{cards - total} under"
    return "even"


def _cards_word(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class OhHell(GameRules):
    key = "oh_hell"
    title = "Oh Hell"
    min_players = 3
    max_players = 7
    hand_word = "Hand"
    name_maps = ("bids", "tricks")
    facts = (
        Fact("bids", "Bids"),
        Fact("bids_made", "Bids made"),
        Fact("zero_bids", "Zero bids"),
        Fact("zero_bids_made", "Zero bids made"),
    )
    stats = (
        Stat("Bids made", "bids_made", out_of="bids"),
        Stat("Zero bids made", "zero_bids_made", out_of="zero_bids"),
    )
    presets = PRESETS

    def variant_of(self, options: Mapping[str, Any]) -> str:
        """Games compare like with like by how they score: a preset's key, or "custom"."""
        return self.preset_of(options) or "custom"

    def schedule(self, setup: Setup) -> list[int]:
        return game_sizes(setup.options)

    def reminders(self, options: Mapping[str, Any]) -> list[str]:
        reminders = [
            "Follow suit if you can. The highest card of the suit led wins the trick, unless "
            "trumps were played: then the highest trump wins."
        ]
        if options.get("must_trump"):
            reminders.append(
                "Must trump: a player who cannot follow suit must play a trump if holding one."
            )
        return reminders

    def standing_note(self, state: State, side: str) -> str | None:
        return made_note(state, side)

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
        columns = ["Cards", "Trump"]
        for name in setup.players:
            columns += [f"{name} bid", f"{name} tricks"]
        return columns

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        cells = [hand.info["cards"], "none" if hand.info["no_trump"] else hand.input.get("trump")]
        for name in setup.players:
            cells += [hand.input["bids"].get(name), (hand.input.get("tricks") or {}).get(name)]
        return cells

    # Options --------------------------------------------------------------------------------

    def option_specs(self, player_count: int) -> list[Option]:
        count = min(max(player_count, self.min_players), self.max_players)
        most = max_cards_for(count)
        return [
            Option(
                "sequence",
                "Cards per hand",
                "choice",
                "up",
                choices=(*SEQUENCES, CUSTOM),
                help="Up: 1 card, then 2, 3 … up to the most. Down: the reverse. "
                "Up-down and down-up go there and back. Custom: the table lists the cards "
                "of every hand.",
                choice_labels={
                    "up": "Up: 1 card, then 2, 3 … to the most",
                    "down": "Down: the most, then one fewer each hand to 1",
                    "up-down": "Up and down: 1 … the most … 1",
                    "down-up": "Down and up: the most … 1 … the most",
                    CUSTOM: "Custom: the cards of each hand as the table lists them",
                },
            ),
            Option(
                "custom_sizes",
                "Custom hand sizes",
                "list",
                None,
                minimum=1,
                maximum=most,
                help=f"With the custom sequence only: the cards of each hand in order, "
                f"1 to {MAX_CUSTOM_HANDS} hands of 1 to {most} cards (e.g. 7, 7, 7).",
            ),
            Option(
                "max_cards",
                "Most cards in a hand",
                "int",
                most,
                minimum=1,
                maximum=most,
                help=f"{most} with {count} players; may be lowered for a shorter game. "
                "No part of a custom sequence.",
            ),
            Option(
                "no_trump_hands",
                "Hands without trump",
                "choice",
                "last",
                choices=NO_TRUMP_HANDS,
                help="Which hands are played without turning a trump card. A hand that deals "
                "all 52 cards never has a trump.",
                choice_labels={
                    "last": "The last hand of the game",
                    "largest": "Every hand with the most cards",
                    "none": "None chosen (only when all 52 cards are dealt)",
                },
            ),
            Option(
                "hook",
                "Hook",
                "bool",
                False,
                help="The bids may not add up to the cards dealt: the dealer, bidding last, "
                "may not bid the value that would make them equal.",
            ),
            Option(
                "hook_min_cards",
                "Smallest hand with the hook",
                "int",
                1,
                minimum=1,
                maximum=most,
                help="The hook holds only in hands of at least this many cards (2 or 4 "
                "spare the small hands). No effect with the hook off.",
            ),
            Option(
                "simultaneous",
                "Simultaneous bidding",
                "bool",
                False,
                help="Everyone shows a bid at once. With the hook, bids that add up to the "
                "cards dealt are refused and the table bids again.",
            ),
            Option(
                "miss_scoring",
                "A missed bid scores",
                "choice",
                "zero",
                choices=("zero", "per_trick"),
                help="Zero: nothing. Per trick: the tricks taken, each worth the trick value.",
                choice_labels={
                    "zero": "Nothing",
                    "per_trick": "The tricks taken (points per trick each)",
                },
            ),
            Option(
                "zero_bid_bonus",
                "Zero-bid bonus",
                "bool",
                False,
                help="A made bid of 0 scores 5 + the cards dealt instead of the exact-bid bonus.",
            ),
            Option(
                "made_bonus",
                "Exact-bid bonus",
                "choice",
                10,
                choices=(5, 10, 20),
                help="What a made bid scores on top of its tricks.",
                choice_labels={5: "5 points", 10: "10 points", 20: "20 points"},
            ),
            Option(
                "trick_value",
                "Points per trick",
                "choice",
                1,
                choices=(1, 10),
                help="What each trick of a made bid is worth (and of a missed one, when a "
                "missed bid scores its tricks).",
                choice_labels={1: "1 point", 10: "10 points"},
            ),
            Option(
                "miss_penalty",
                "Penalty per trick off",
                "choice",
                0,
                choices=(0, 5, 10),
                help="Taken off a missed bid for every trick it was off by; totals may go "
                "below zero.",
                choice_labels={
                    0: "None",
                    5: f"{MINUS}5 per trick off",
                    10: f"{MINUS}10 per trick off",
                },
            ),
            Option(
                "must_trump",
                "Must trump (La Podrida)",
                "bool",
                False,
                help="A player who cannot follow suit must play a trump if holding one. "
                "A reminder only; it changes no score.",
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
                    f"{spec.label} must be from 1 to {max(sizes)}, the biggest hand of this game.",
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
            sentences.append("A made bid of 0 scores 5 + the cards dealt.")
        sentences.append(_sizes_sentence(options, sizes))
        sentences.append(_no_trump_sentence(options["no_trump_hands"], sizes))
        if player_count is not None:
            for cards in sorted({cards for cards in sizes if no_trump(player_count, cards)}):
                sentences.append(
                    f"A hand of {cards} cards deals all 52, so it has no trump "
                    "(no card is left to turn)."
                )
        if options["hook"]:
            least = options["hook_min_cards"]
            only = f" (hands of {least} cards or more)" if least > 1 else ""
            sentences.append(f"Hook: the bids may not add up to the cards dealt{only}.")
        if options["simultaneous"]:
            together = "Everyone shows a bid at once"
            if options["hook"]:
                together += (
                    "; with the hook, bids that add up to the cards dealt are refused and the "
                    "table bids again"
                )
            sentences.append(together + ".")
        if options["must_trump"]:
            sentences.append(MUST_TRUMP)
        return sentences

    def _defaults(self, player_count: int | None) -> dict[str, Any]:
        specs = self.option_specs(player_count or self.min_players)
        return {spec.key: spec.default for spec in specs}

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

    def play(self, setup: Setup, entries: Sequence[Mapping[str, Any]]) -> State:
        players = tuple(setup.players)
        # Options stored before an option existed get its default.
        options = {**self._defaults(len(players)), **setup.options}
        setup = Setup(players, options, setup.first_dealer)
        sizes = game_sizes(options)
        totals = {name: 0 for name in players}
        hands: list[Hand] = []
        for index, entry in enumerate(entries):
            number = index + 1
            if number > len(sizes):
                raise RuleError("game_over", "This game is over.", hand=number)
            try:
                hand = self._hand(setup, number, sizes, entry, last=index == len(entries) - 1)
            except RuleError as error:
                raise error.for_hand(number) from None
            if hand.points is not None:
                add_points(totals, hand.points)
            hands.append(hand)

        state = State(sides=list(players), teams=None, hands=hands, totals=totals)
        state.finished = len(hands) == len(sizes) and hands[-1].status == "scored"
        if state.finished:
            state.winners = state.leaders()
        else:
            state.next = self._next(setup, sizes, hands)
        state.notices = self._notices(setup, sizes, state)
        return state

    # One hand -----------------------------------------------------------------------------

    def _hand(
        self,
        setup: Setup,
        number: int,
        sizes: list[int],
        entry: Mapping[str, Any],
        last: bool,
    ) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", "A hand must be given as bids and tricks per player.")
        players = setup.players
        options = setup.options
        cards = sizes[number - 1]
        dealer_seat = seat_after(setup.first_dealer, len(players), number - 1)
        dealer = players[dealer_seat]
        tricks_given = entry.get("tricks") is not None
        without_trump = no_trump_reason(len(players), sizes, number - 1, options["no_trump_hands"])

        # Every independent problem is reported at once; the hook waits for valid bids and
        # the tricks' sum for valid tricks.
        problems = Problems()
        bids: dict[str, int] = {}
        with problems.check():
            bids = self._bids(entry, players, cards, partial_ok=last and not tricks_given)
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
                tricks = self._tricks(entry, players, cards)
        elif not last:
            problems.add(
                RuleError(
                    "missing_tricks",
                    f"Hand {number} has no tricks yet: enter them before the next hand.",
                    "tricks",
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
    def _bids(
        entry: Mapping[str, Any], players: Sequence[str], cards: int, partial_ok: bool
    ) -> dict[str, int]:
        """The bids entered, in seat order. Only the hand still being bid may lack some."""

        def read(name: str, value: Any) -> int:
            return whole_number(
                value, f"{name}'s bid", f"bids.{name}", "bid_out_of_range", 0, cards
            )

        return each_player(entry, "bids", players, "missing_bid", "a bid", read, partial_ok)

    @staticmethod
    def _check_hook(bids: Mapping[str, int], dealer: str, cards: int, simultaneous: bool) -> None:
        if simultaneous:
            if sum(bids.values()) == cards:
                raise RuleError(
                    "hook_violation",
                    f"The bids add up to the {_cards_word(cards)} dealt, which the hook "
                    "forbids: the table must bid again.",
                    "bids",
                )
            return
        others = [bid for name, bid in bids.items() if name != dealer]
        forbidden = forbidden_dealer_bid(cards, others)
        if bids[dealer] == forbidden:
            raise RuleError(
                "hook_violation",
                f"{dealer} is the dealer and may not bid {forbidden}: "
                f"the bids would total the {_cards_word(cards)}.",
                f"bids.{dealer}",
            )

    @staticmethod
    def _trump(value: Any, number: int, cards: int, without_trump: str | None) -> str | None:
        if value is None:
            return None
        suit = value.strip().lower() if isinstance(value, str) else None
        if suit not in SUITS:
            raise RuleError(
                "trump_invalid", "The trump must be clubs, diamonds, hearts or spades.", "trump"
            )
        if without_trump == "deck":
            raise RuleError(
                "trump_invalid",
                f"All 52 cards are dealt in a {cards}-card hand, so there is no trump.",
                "trump",
            )
        if without_trump == "last":
            raise RuleError(
                "trump_invalid",
                f"Hand {number} is the last hand, which is played without trump.",
                "trump",
            )
        if without_trump == "largest":
            raise RuleError(
                "trump_invalid",
                f"Hand {number} has the most cards of the game ({cards}), so it is played "
                "without trump.",
                "trump",
            )
        return suit

    @staticmethod
    def _tricks(entry: Mapping[str, Any], players: Sequence[str], cards: int) -> dict[str, int]:
        def read(name: str, value: Any) -> int:
            where = f"tricks.{name}"
            return whole_number(value, f"{name}'s tricks", where, "tricks_out_of_range", 0, cards)

        tricks = each_player(entry, "tricks", players, "missing_tricks", "the tricks", read)
        taken = sum(tricks.values())
        if taken != cards:
            dealt = f"{_cards_word(cards)} {'was' if cards == 1 else 'were'} dealt"
            raise RuleError(
                "tricks_sum_mismatch", f"Tricks add up to {taken} but {dealt}.", "tricks"
            )
        return tricks

    # What comes next ----------------------------------------------------------------------

    def _next(self, setup: Setup, sizes: list[int], hands: list[Hand]) -> dict[str, Any]:
        players = setup.players
        options = setup.options
        current = hands[-1] if hands and hands[-1].status != "scored" else None
        number = current.number if current else len(hands) + 1
        dealer_seat = seat_after(setup.first_dealer, len(players), number - 1)
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
            "knock_limit": None,
            "total_hands": len(sizes),
        }

    @staticmethod
    def _notices(setup: Setup, sizes: list[int], state: State) -> list[str]:
        if state.finished:
            best = state.totals[state.winners[0]]
            if len(state.winners) == 1:
                return [f"{state.winners[0]} wins with {best}."]
            return [f"{_join(state.winners)} share the win with {best}."]
        notices = []
        upcoming = state.next
        current = state.current
        if current is not None:
            bids = current.input["bids"]
            dealer = current.dealer
            forbidden = upcoming["forbidden_dealer_bid"]
            if forbidden is not None and dealer not in bids:
                notices.append(f"{dealer} is the dealer and may not bid {forbidden}.")
            if current.status == "playing":
                notices.append(
                    f"Bids total {current.info['bids_total']} for "
                    f"{_cards_word(current.info['cards'])} ({current.info['balance']})."
                )
        number = upcoming["number"]
        reason = no_trump_reason(
            len(setup.players), sizes, number - 1, setup.options["no_trump_hands"]
        )
        if reason == "deck":
            notices.append(f"Hand {number}: all 52 cards are dealt, so there is no trump.")
        elif reason == "last":
            notices.append(f"Hand {number} is the last hand: it is played without trump.")
        elif reason == "largest":
            notices.append(
                f"Hand {number} has the most cards of the game: it is played without trump."
            )
        if setup.options.get("must_trump"):
            notices.append(MUST_TRUMP)
        return notices


MUST_TRUMP = "A player who cannot follow suit must play a trump if holding one."


def _custom_sizes(value: Any, sequence: str | None, most: int) -> list[int] | None:
    """The custom hand sizes: a list with the custom sequence, None with any other. Every
    problem is one ``custom_sizes_invalid``."""
    where = "options.custom_sizes"
    if value is None:
        if sequence == CUSTOM:
            raise RuleError(
                "custom_sizes_invalid",
                "A custom sequence needs its hand sizes: the cards of each hand, in order.",
                where,
            )
        return None
    if sequence is not None and sequence != CUSTOM:
        raise RuleError(
            "custom_sizes_invalid",
            "Custom hand sizes go with the custom sequence only; choose it or leave them out.",
            where,
        )
    if not isinstance(value, list | tuple):
        raise RuleError(
            "custom_sizes_invalid",
            "Custom hand sizes must be a list of whole numbers, one for each hand.",
            where,
        )
    if not 1 <= len(value) <= MAX_CUSTOM_HANDS:
        raise RuleError(
            "custom_sizes_invalid",
            f"A custom sequence has 1 to {MAX_CUSTOM_HANDS} hands, not {len(value)}.",
            where,
        )
    for number, cards in enumerate(value, 1):
        if type(cards) is not int or not 1 <= cards <= most:
            raise RuleError(
                "custom_sizes_invalid",
                f"Each custom hand has 1 to {most} cards, but hand {number} has “{cards}”.",
                where,
            )
    return list(value)


def _scoring_sentence(options: Mapping[str, Any]) -> str:
    trick_value = options["trick_value"]
    per_trick = "tricks" if trick_value == 1 else f"{trick_value} per trick"
    made = f"Exact bid: {options['made_bonus']} + {per_trick}."
    missed: list[str] = []
    if options["miss_scoring"] == "per_trick":
        missed.append("1 per trick taken" if trick_value == 1 else f"{trick_value} per trick taken")
    if options["miss_penalty"]:
        missed.append(f"{MINUS}{options['miss_penalty']} per trick off")
    return f"{made} Missed: {', '.join(missed) or '0'}."


def _sizes_sentence(options: Mapping[str, Any], sizes: list[int]) -> str:
    hands = f"{len(sizes)} hand{'s' if len(sizes) != 1 else ''}"
    if options["sequence"] == CUSTOM:
        return f"Cards per hand, as the table listed them: {', '.join(map(str, sizes))} ({hands})."
    most = options["max_cards"]
    if most == 1:
        return f"Cards per hand: 1 ({hands})."
    ways = {
        "up": f"1 to {most}, one more each hand",
        "down": f"{most} down to 1, one fewer each hand",
        "up-down": f"1 to {most}, then back down to 1",
        "down-up": f"{most} down to 1, then back up to {most}",
    }
    return f"Cards per hand: {ways[options['sequence']]} ({hands})."


def _no_trump_sentence(chosen: str, sizes: list[int]) -> str:
    if chosen == "last":
        return "The last hand is played without trump."
    if chosen == "largest":
        count = sizes.count(max(sizes))
        if count == 1:
            return f"The hand with the most cards ({max(sizes)}) is played without trump."
        return f"The {count} hands with the most cards ({max(sizes)}) are played without trump."
    return "A trump card is turned in every hand that leaves a card to turn."


RULES = OhHell()

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
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import add_points
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import per_player
from scorekeeper.games.base import seat_after
from scorekeeper.games.base import whole_number

#: Most cards in a hand by player count (the seeds' table).
MAX_CARDS = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
SEQUENCES = ("up", "down", "up-down", "down-up")
DECK = 52


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


def forbidden_dealer_bid(cards: int, other_bids: Iterable[int]) -> int | None:
    """The dealer's bid that would make the bids add up to ``cards`` (None if none can)."""
    value = cards - sum(other_bids)
    return value if 0 <= value <= cards else None


def hand_points(bid: int, tricks: int, cards: int, options: Mapping[str, Any]) -> int:
    """Points for one player: 10 + tricks for a made bid (5 + cards for a made 0 with the
    zero-bid bonus); a miss scores 0, or 1 a trick with ``miss_scoring = per_trick``."""
    if bid == tricks:
        if bid == 0 and options.get("zero_bid_bonus", False):
            return 5 + cards
        return 10 + tricks
    if options.get("miss_scoring", "zero") == "per_trick":
        return tricks
    return 0


def no_trump(player_count: int, cards: int) -> bool:
    """True when the hand uses the whole deck, so no card is left to turn for trump."""
    return player_count * cards == DECK


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

    def option_specs(self, player_count: int) -> list[Option]:
        count = min(max(player_count, self.min_players), self.max_players)
        most = max_cards_for(count)
        return [
            Option(
                "sequence",
                "Cards per hand",
                "choice",
                "up",
                choices=SEQUENCES,
                help="Up: 1 card, then 2, 3 ... up to the most. Down: the reverse. "
                "Up-down and down-up go there and back.",
                choice_labels={
                    "up": "Up: 1, 2, 3 … most",
                    "down": "Down: most … 3, 2, 1",
                    "up-down": "Up and down: 1 … most … 1",
                    "down-up": "Down and up: most … 1 … most",
                },
            ),
            Option(
                "max_cards",
                "Most cards in a hand",
                "int",
                most,
                minimum=1,
                maximum=most,
                help=f"{most} with {count} players; may be lowered for a shorter game.",
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
                help="Zero: nothing. Per trick: 1 point for each trick taken.",
                choice_labels={"zero": "Nothing", "per_trick": "1 point per trick taken"},
            ),
            Option(
                "zero_bid_bonus",
                "Zero-bid bonus",
                "bool",
                False,
                help="A made bid of 0 scores 5 + the cards dealt instead of 10.",
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

    def play(self, setup: Setup, entries: Sequence[Mapping[str, Any]]) -> State:
        players = tuple(setup.players)
        options = setup.options
        sizes = hand_sizes(options["sequence"], options["max_cards"])
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
        state.notices = self._notices(setup, state)
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

        bids = self._bids(entry, players, cards, partial_ok=last and not tricks_given)
        complete = len(bids) == len(players)
        if complete and options["hook"]:
            self._check_hook(bids, dealer, cards, options["simultaneous"])
        trump = self._trump(entry.get("trump"), len(players), cards)

        normalised: dict[str, Any] = {"bids": bids}
        if trump is not None:
            normalised["trump"] = trump
        points = None
        made = None
        if tricks_given:
            tricks = self._tricks(entry, players, cards)
            normalised["tricks"] = tricks
            points = {n: hand_points(bids[n], tricks[n], cards, options) for n in players}
            made = {n: bids[n] == tricks[n] for n in players}
            status = "scored"
        elif not last:
            raise RuleError(
                "missing_tricks",
                f"Hand {number} has no tricks yet: enter them before the next hand.",
                "tricks",
            )
        else:
            status = "playing" if complete else "bidding"

        order = order_from_left_of(dealer_seat, players)
        total = sum(bids.values())
        info = {
            "cards": cards,
            "no_trump": no_trump(len(players), cards),
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
        raw = entry.get("bids")
        if partial_ok and isinstance(raw, Mapping) and any(v is not None for v in raw.values()):
            for name in raw:
                if name not in players:
                    raise RuleError(
                        "unknown_player", f"{name} is not playing in this game.", f"bids.{name}"
                    )
            given = {name: raw[name] for name in players if raw.get(name) is not None}
        else:
            given = per_player(entry, "bids", players, "missing_bid", "a bid")
        return {
            name: whole_number(value, f"{name}'s bid", f"bids.{name}", "bid_out_of_range", 0, cards)
            for name, value in given.items()
        }

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
    def _trump(value: Any, player_count: int, cards: int) -> str | None:
        if value is None:
            return None
        suit = value.strip().lower() if isinstance(value, str) else None
        if suit not in SUITS:
            raise RuleError(
                "trump_invalid", "The trump must be clubs, diamonds, hearts or spades.", "trump"
            )
        if no_trump(player_count, cards):
            raise RuleError(
                "trump_invalid",
                f"All 52 cards are dealt in a {cards}-card hand, so there is no trump.",
                "trump",
            )
        return suit

    @staticmethod
    def _tricks(entry: Mapping[str, Any], players: Sequence[str], cards: int) -> dict[str, int]:
        given = per_player(entry, "tricks", players, "missing_tricks", "the tricks")
        tricks = {
            name: whole_number(
                value, f"{name}'s tricks", f"tricks.{name}", "tricks_out_of_range", 0, cards
            )
            for name, value in given.items()
        }
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
        if current and options["hook"] and not options["simultaneous"]:
            bids = current.input["bids"]
            others = [name for name in players if name != dealer]
            if all(name in bids for name in others):
                forbidden = forbidden_dealer_bid(cards, (bids[name] for name in others))
        return {
            "number": number,
            "dealer": dealer,
            "cards": cards,
            "order": None if options["simultaneous"] else order,
            "leader": order[0],
            "no_trump": no_trump(len(players), cards),
            "forbidden_dealer_bid": forbidden,
            "knock_limit": None,
            "total_hands": len(sizes),
        }

    @staticmethod
    def _notices(setup: Setup, state: State) -> list[str]:
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
        if upcoming["no_trump"]:
            notices.append(
                f"Hand {upcoming['number']}: all 52 cards are dealt, so there is no trump."
            )
        if setup.options.get("must_trump"):
            notices.append("A player who cannot follow suit must play a trump if holding one.")
        return notices


RULES = OhHell()

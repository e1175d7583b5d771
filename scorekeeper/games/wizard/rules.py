"""Wizard (Ken Fisher's cousin of Oh Hell, 60 cards): bid the exact number of tricks.

Round k deals k cards; there are 60 / players rounds. Each round is entered like an Oh Hell
hand::

    {"bids": {name: int}, "tricks": {name: int},
     "trump": "clubs" | "diamonds" | "hearts" | "spades" | "none" | None,
     "trump_chosen": bool}

Bids alone open the round (status "playing"); the last round entered may hold only some of the
bids while the table is still bidding (status "bidding"), so the app can show who bid what and
tell the dealer which bid the hook forbids. Tricks complete the round (status "scored").
``trump`` records the turned card's effect: a suit, or "none" for a Jester (no trump);
``trump_chosen`` says a Wizard was turned and the dealer chose the suit. The last round deals
every card, so nothing is turned and there is no trump.
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
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import suit_word
from scorekeeper.games.bidding.seats import DroppedBySeats
from scorekeeper.games.bidding.words import BID_HIGHLIGHTS
from scorekeeper.games.bidding.words import balance_words
from scorekeeper.games.bidding.words import bid_entry
from scorekeeper.games.bidding.words import made_note
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_ngettext
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.readers import BIDS
from scorekeeper.games.readers import TRICKS
from scorekeeper.games.readers import dealt_numbers
from scorekeeper.games.readers import merge_per_player
from scorekeeper.games.table import Deal
from scorekeeper.games.words import ROUNDS

DECK = 60
#: A Jester turned up: no trump this round.
NO_TRUMP = "none"
MADE_BONUS = 20
TRICK_VALUE = 10
MISS_PENALTY = 10


def rounds_for(player_count: int) -> int:
    """The number of rounds (and the cards of the last one): 60 / players."""
    if not 3 <= player_count <= 6:
        raise ValueError(f"Wizard is played by 3 to 6 players, not {player_count}")
    return DECK // player_count


def round_points(bid: int, tricks: int) -> int:
    """20 + 10 a trick for an exact bid; otherwise -10 for every trick off."""
    if bid == tricks:
        return MADE_BONUS + TRICK_VALUE * tricks
    return -MISS_PENALTY * abs(tricks - bid)


def no_trump_reason(dealt: int, sizes: Sequence[int], index: int) -> str | None:
    """Why round ``index`` (from 0) of the schedule ``sizes`` has no trump: "last_deck" (the
    last round, in which all 60 cards are dealt: the usual last round), "last" (the last round
    of the schedule as it stands, with cards to spare after a leave), "deck" (the ``dealt``
    players are dealt all 60 cards, so none is left to turn), or None when a card is turned."""
    deck = dealt * sizes[index] == DECK
    if index == len(sizes) - 1:
        return "last_deck" if deck else "last"
    return "deck" if deck else None


def hook_applies(options: Mapping[str, Any], cards: int) -> bool:
    """Whether the bids of a ``cards``-card round may not add up to the cards."""
    return bool(options["bids_may_not_equal"]) and cards >= options["hook_min_cards"]


def forbidden_dealer_bid(cards: int, other_bids: Iterable[int]) -> int | None:
    """The dealer's bid that would make the bids add up to ``cards`` (None if none can)."""
    value = cards - sum(other_bids)
    return value if 0 <= value <= cards else None


def bid_balance(total: int, cards: int) -> str:
    """How the bids compare with the tricks available: "2 over", "1 under" or "even"."""
    if total > cards:
        return f"{total - cards} over"
    if total < cards:
        return f"{cards - total} under"
    return "even"


class Wizard(DroppedBySeats, GameRules):
    key = "wizard"
    title = lazy_pgettext("game title", "Wizard")
    min_players = 3
    max_players = 6
    hand_words = ROUNDS
    name_maps = ("bids", "tricks")
    facts = (
        Fact("bids", N_("Bids")),
        Fact("bids_made", N_("Bids made")),
        Fact("zero_bids", N_("Zero bids")),
        Fact("zero_bids_made", N_("Zero bids made")),
        Fact("tricks_off", N_("Tricks off the bid")),
    )
    highlights = BID_HIGHLIGHTS
    stats = (
        Stat(N_("Bids made"), "bids_made", out_of="bids"),
        Stat(N_("Zero bids made"), "zero_bids_made", out_of="zero_bids"),
        # (The statistics page adds the points per round for every game.)
        Stat(N_("Tricks off the bid"), "tricks_off", per="played"),
    )

    # Self-description ---------------------------------------------------------------------

    def schedule(self, setup: Setup) -> list[int]:
        """Round k deals k cards, up to 60 / players."""
        return list(range(1, rounds_for(len(setup.players)) + 1))

    def reminders(self, options: Mapping[str, Any]) -> list[str]:
        return [
            _(
                "A Wizard may always be played and wins the trick (the first Wizard played); "
                "a Jester may always be played and loses it. Otherwise follow suit if you can: "
                "the highest trump wins, else the highest card of the suit led."
            )
        ]

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        lines = []
        if player_count:
            rounds = rounds_for(player_count)
            lines.append(
                _(
                    "%(rounds)s rounds: round 1 deals 1 card, each round one more, the last "
                    "%(rounds)s (every card, so no trump).",
                    rounds=rounds,
                )
            )
        lines.append(
            _(
                "Exact bid: %(bonus)s + %(trick)s per trick. Missed: −%(penalty)s per trick off.",
                bonus=MADE_BONUS,
                trick=TRICK_VALUE,
                penalty=MISS_PENALTY,
            )
        )
        if options.get("bids_may_not_equal"):
            smallest = options.get("hook_min_cards", 1)
            if smallest > 1:
                lines.append(
                    _(
                        "From %(cards)s cards on the bids may not add up to the cards: the "
                        "dealer may not bid the value that would make them equal.",
                        cards=smallest,
                    )
                )
            else:
                lines.append(
                    _(
                        "The bids may not add up to the cards: the dealer may not bid the "
                        "value that would make them equal."
                    )
                )
        return lines

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        return made_note(state, side)

    def balance_text(self, total: int, cards: int) -> str:
        """How the bids compare with the cards, for the pages: "2 over"."""
        return balance_words(total, cards)

    def seat_entry(self, options: Mapping[str, Any]) -> Any:
        return bid_entry()

    def option_specs(self, player_count: int) -> list[Option]:
        count = min(max(player_count, self.min_players), self.max_players)
        rounds = rounds_for(count)
        return [
            Option(
                "bids_may_not_equal",
                N_("Bids may not equal the tricks (hook)"),
                "bool",
                False,
                help=N_(
                    "The bids of a round may not add up to the cards dealt: the dealer, "
                    "bidding last, may not bid the value that would make them equal."
                ),
            ),
            Option(
                "hook_min_cards",
                N_("Hook from this many cards"),
                "int",
                1,
                minimum=1,
                maximum=rounds,
                help=lazy_ngettext(
                    "The hook applies only to rounds of at least this many cards "
                    "(%(low)s to %(high)s with %(num)s player); no effect with the hook off.",
                    "The hook applies only to rounds of at least this many cards "
                    "(%(low)s to %(high)s with %(num)s players); no effect with the hook off.",
                    count,
                    low=1,
                    high=rounds,
                ),
            ),
        ]

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        bids, tricks = hand.input["bids"], hand.input["tricks"]
        facts = []
        for name in setup.players:
            if name not in bids:  # not dealt into this round (sat out, left, handed over)
                facts.append({})
                continue
            bid, took = bids[name], tricks[name]
            seat = {
                "bids": 1,
                "bids_made": int(bid == took),
                "zero_bids": int(bid == 0),
                "zero_bids_made": int(bid == 0 == took),
                "tricks_off": abs(took - bid),
            }
            facts.append({key: value for key, value in seat.items() if value})
        return facts

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = [_("Cards"), _("Trump"), _("Dealer chose trump")]
        for name in setup.players:
            columns += [_("%(name)s bid", name=name), _("%(name)s tricks", name=name)]
        return columns

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        info = hand.info
        cells = [info["cards"], suit_word(NO_TRUMP if info["no_trump"] else info["trump"])]
        cells.append(info["trump_chosen"])
        for name in setup.players:
            cells += [hand.input["bids"].get(name), (hand.input.get("tricks") or {}).get(name)]
        return cells

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """Bids and tricks are merged player by player, so bids can be added one at a time
        and one player's figure corrected alone; other keys are replaced."""
        return merge_per_player(entered, change, ("bids", "tricks"))

    # Replaying the game -------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        self.check_players(players, setup.options)
        # The schedule: round k deals k cards (``sizes[k - 1]``); a join drops the rounds too
        # big for the table (``seats_changed``).
        return Tally(setup, players, sizes=list(range(1, rounds_for(len(players)) + 1)))

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        sizes = tally.sizes
        if number > len(sizes):
            raise RuleError("game_over", _("This game is over."), hand=number)
        hand = self._round(tally.deal, number, sizes, entry, last=last)
        if hand.points is not None:
            add_points(tally.totals, hand.points)
        tally.hands.append(hand)
        tally.finished = number == len(sizes) and hand.status == "scored"

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
        state.notices = self._notices(state, tally.next_deal(), tally.sizes)
        return state

    # The table's changes: all but the schedule; a join drops the rounds too big -------------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ("join", "leave", "sit_out", "substitute", "adjust")

    deck = DECK

    def no_hands_left(self, count: int) -> str:
        return ngettext(
            "With %(num)s player no round still to play can be dealt.",
            "With %(num)s players no round still to play can be dealt.",
            count,
        )

    # One round ----------------------------------------------------------------------------

    def _round(
        self, deal: Deal, number: int, sizes: list[int], entry: Mapping[str, Any], last: bool
    ) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A round must be given as bids and tricks per player."))
        players = deal.players
        options = deal.options
        cards = sizes[number - 1]
        without_trump = no_trump_reason(len(players), sizes, number - 1)
        dealer = deal.dealer
        tricks_given = entry.get("tricks") is not None

        problems = Problems()
        codes = ("missing_bid", "bid_out_of_range")
        bids = dealt_numbers(
            entry, "bids", deal, problems, BIDS, codes, cards, last and not tricks_given, ROUNDS
        )
        bids_ok = bids is not None and not problems
        trump, chosen = None, False
        with problems.check():
            trump, chosen = self._trump(entry, number, without_trump)
        tricks = None
        if tricks_given:
            found = len(problems.errors)
            codes = ("missing_tricks", "tricks_out_of_range")
            tricks = dealt_numbers(
                entry, "tricks", deal, problems, TRICKS, codes, cards, deals=ROUNDS
            )
            if tricks is not None and len(problems.errors) == found:
                with problems.check():
                    _check_tricks_total(tricks, cards)
        elif not last:
            problems.add(
                RuleError(
                    "missing_tricks",
                    _(
                        "Round %(number)s has no tricks yet: enter them before the next round.",
                        number=number,
                    ),
                    "tricks",
                    names_hand=True,
                )
            )
        if bids_ok and len(bids) == len(players) and hook_applies(options, cards):
            with problems.check():
                _check_hook(bids, dealer, cards)
        problems.raise_any()
        assert bids is not None

        normalised: dict[str, Any] = {"bids": bids}
        if trump is not None:
            normalised["trump"] = trump
        if chosen:
            normalised["trump_chosen"] = True
        points = made = None
        if tricks is not None:
            normalised["tricks"] = tricks
            points = {name: round_points(bids[name], tricks[name]) for name in players}
            made = {name: bids[name] == tricks[name] for name in players}
            status = "scored"
        else:
            status = "playing" if len(bids) == len(players) else "bidding"

        order = deal.order
        total = sum(bids.values())
        info = {
            "cards": cards,
            "no_trump": without_trump is not None or trump == NO_TRUMP,
            "trump": trump if trump in SUITS else None,
            "trump_chosen": chosen,
            "order": order,
            "leader": order[0],
            "bids_total": total,
            "balance": bid_balance(total, cards),
            "made": made,
            "total_hands": len(sizes),
            "hook": hook_applies(options, cards),
        }
        return Hand(number, dealer, status, normalised, points, info)

    @staticmethod
    def _trump(
        entry: Mapping[str, Any], number: int, without_trump: str | None
    ) -> tuple[str | None, bool]:
        """The recorded trump (a suit, "none" or None) and whether the dealer chose it."""
        chosen = entry.get("trump_chosen")
        if chosen is None:
            chosen = False
        if not isinstance(chosen, bool):
            raise RuleError(
                "wrong_type",
                _("Whether the dealer chose trump (a Wizard was turned) must be yes or no."),
                "trump_chosen",
            )
        value = entry.get("trump")
        trump = value.strip().lower() if isinstance(value, str) else value
        if trump is not None and trump not in (*SUITS, NO_TRUMP):
            raise RuleError(
                "trump_invalid",
                _("The trump must be clubs, diamonds, hearts, spades or none (a Jester)."),
                "trump",
            )
        if without_trump is not None and (trump in SUITS or chosen):
            raise RuleError(
                "trump_invalid",
                _without_trump(without_trump, number),
                "trump_chosen" if chosen and trump not in SUITS else "trump",
                names_hand=True,
            )
        if chosen and trump == NO_TRUMP:
            raise RuleError(
                "trump_invalid",
                _("A turned Wizard lets the dealer choose a suit; no trump comes from a Jester."),
                "trump",
            )
        return trump, chosen

    # What comes next ----------------------------------------------------------------------

    def _next(self, deal: Deal, sizes: list[int], hands: list[Hand]) -> dict[str, Any]:
        players = deal.players
        options = deal.options
        current = hands[-1] if hands and hands[-1].status != "scored" else None
        number = current.number if current else len(hands) + 1
        dealer = deal.dealer
        cards = sizes[number - 1]
        order = deal.order
        forbidden = None
        if current is not None and hook_applies(options, cards):
            bids = current.input["bids"]
            others = [name for name in players if name != dealer]
            if all(name in bids for name in others):
                forbidden = forbidden_dealer_bid(cards, (bids[name] for name in others))
        without_trump = no_trump_reason(len(players), sizes, number - 1)
        return {
            "number": number,
            "dealer": dealer,
            "cards": cards,
            "order": order,
            "leader": order[0],
            "no_trump": without_trump is not None,
            "forbidden_dealer_bid": forbidden,
            "total_hands": len(sizes),
            "hook": hook_applies(options, cards),
        }

    @staticmethod
    def _notices(state: State, deal: Deal, sizes: list[int]) -> list[str]:
        if state.finished:
            best = state.totals[state.winners[0]]
            if len(state.winners) == 1:
                return [_("%(name)s wins with %(points)s.", name=state.winners[0], points=best)]
            return [
                _(
                    "%(names)s share the win with %(points)s.",
                    names=names(state.winners),
                    points=best,
                )
            ]
        notices = []
        upcoming = state.next
        current = state.current
        if current is not None:
            dealer = current.dealer
            forbidden = upcoming["forbidden_dealer_bid"]
            if forbidden is not None and dealer not in current.input["bids"]:
                notices.append(
                    _(
                        "%(name)s is the dealer and may not bid %(bid)s.",
                        name=dealer,
                        bid=forbidden,
                    )
                )
            info = current.info
            if info["trump_chosen"] and info["trump"]:
                notices.append(_chose_trump(dealer, info["trump"]))
            elif current.input.get("trump") == NO_TRUMP:
                notices.append(_("A Jester was turned: there is no trump this round."))
            if current.status == "playing":
                notices.append(_bids_total(info["bids_total"], info["cards"]))
        number = upcoming["number"]
        reason = no_trump_reason(len(deal.players), sizes, number - 1)
        if reason == "last_deck":
            notices.append(
                _(
                    "Round %(number)s is the last: every card is dealt, so there is no trump.",
                    number=number,
                )
            )
        elif reason == "last":
            notices.append(
                _("Round %(number)s is the last: it is played without trump.", number=number)
            )
        elif reason == "deck":
            notices.append(
                _(
                    "Round %(number)s deals all 60 cards, so there is no trump.",
                    number=number,
                )
            )
        return notices


def _without_trump(reason: str, number: int) -> str:
    """Why a suit may not be recorded for round ``number`` (``no_trump_reason``)."""
    if reason == "last_deck":
        return _(
            "Every card is dealt in the last round (round %(number)s), so no card is turned "
            "and there is no trump.",
            number=number,
        )
    if reason == "last":
        return _(
            "Round %(number)s is the last round, which is played without trump.", number=number
        )
    return _(
        "Every card is dealt in round %(number)s, so no card is turned and there is no trump.",
        number=number,
    )


def _chose_trump(dealer: str, suit: str) -> str:
    """The notice of a turned Wizard: the suit the dealer chose."""
    if suit == "clubs":
        return _("A Wizard was turned: %(name)s chose clubs as trump.", name=dealer)
    if suit == "diamonds":
        return _("A Wizard was turned: %(name)s chose diamonds as trump.", name=dealer)
    if suit == "hearts":
        return _("A Wizard was turned: %(name)s chose hearts as trump.", name=dealer)
    return _("A Wizard was turned: %(name)s chose spades as trump.", name=dealer)


def _bids_total(total: int, cards: int) -> str:
    """How the bids of a round compare with its cards: "Bids total 3 for 2 cards (1 over)."."""
    if total > cards:
        return ngettext(
            "Bids total %(total)s for %(num)s card (%(off)s over).",
            "Bids total %(total)s for %(num)s cards (%(off)s over).",
            cards,
            total=total,
            off=total - cards,
        )
    if total < cards:
        return ngettext(
            "Bids total %(total)s for %(num)s card (%(off)s under).",
            "Bids total %(total)s for %(num)s cards (%(off)s under).",
            cards,
            total=total,
            off=cards - total,
        )
    return ngettext(
        "Bids total %(total)s for %(num)s card (even).",
        "Bids total %(total)s for %(num)s cards (even).",
        cards,
        total=total,
    )


def _check_tricks_total(tricks: Mapping[str, int], cards: int) -> None:
    taken = sum(tricks.values())
    if taken != cards:
        raise RuleError(
            "tricks_sum_mismatch",
            ngettext(
                "Tricks add up to %(taken)s but %(num)s card was dealt to each player.",
                "Tricks add up to %(taken)s but %(num)s cards were dealt to each player.",
                cards,
                taken=taken,
            ),
            "tricks",
        )


def _check_hook(bids: Mapping[str, int], dealer: str, cards: int) -> None:
    others = [bid for name, bid in bids.items() if name != dealer]
    forbidden = forbidden_dealer_bid(cards, others)
    if bids[dealer] == forbidden:
        raise RuleError(
            "hook_violation",
            ngettext(
                "%(name)s is the dealer and may not bid %(bid)s: the bids would total the "
                "%(num)s card.",
                "%(name)s is the dealer and may not bid %(bid)s: the bids would total the "
                "%(num)s cards.",
                cards,
                name=dealer,
                bid=forbidden,
            ),
            f"bids.{dealer}",
        )


RULES = Wizard()

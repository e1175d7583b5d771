"""Auction Pitch (Setback): the auction, the four points of a hand, set backs and the winner.

The app never sees cards. Per hand the scorekeeper enters the auction (or just the pitcher and
the bid) and then who won High, Low, Jack and Game. The rules here refuse what cannot happen at
the table and derive the rest: dealer, bidding order, pitcher, points, totals and the winner.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Highlight
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import SeatEntry
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import check_player_count
from scorekeeper.games.base import team_name
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import LazyText
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_ngettext
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.table import Deal
from scorekeeper.games.words import HANDS

#: The four scoring points of a hand, in the order they are shown.
POINTS = ("high", "low", "jack", "game")
#: Highest bid; bidding it is "pitching".
TOP_BID = 4
#: The call that is not a bid.
PASS = "pass"
#: The least a dealer everyone passed to must bid (whatever the lowest bid).
DEALER_MIN_BID = 2
CARDS_EACH = 6
#: Game-point value of every counting card in the deck: tens, aces, kings, queens, jacks.
COUNTING_CARDS = (10,) * 4 + (4,) * 4 + (3,) * 4 + (2,) * 4 + (1,) * 4
#: Keys a scorekeeper may enter for the points of a hand.
POINT_KEYS = ("high", "low", "jack", "game", "game_points", "single_trump")
#: What the rules say when a point is not given by a player's name, or not at all.
NOT_A_NAME = {
    "high": N_("High must name a player."),
    "low": N_("Low must name a player."),
    "jack": N_("Jack must name a player."),
    "game": N_("Game must name a player."),
}
NOT_ENTERED = {
    "high": N_("Enter who won High; it is awarded every hand."),
    "low": N_("Enter who won Low; it is awarded every hand."),
}


def teams_for(players: Sequence[str], options: Mapping[str, Any]) -> list[list[str]] | None:
    """Partners sit opposite: seats 1+3 and 2+4. ``None`` when everyone plays alone."""
    if not options.get("partnerships"):
        return None
    return [[players[0], players[2]], [players[1], players[3]]]


def max_game_points(player_count: int) -> int:
    """The most game points the cards in play can hold (all 80 from 4 players on)."""
    cards = CARDS_EACH * player_count
    return sum(sorted(COUNTING_CARDS, reverse=True)[:cards])


def legal_calls(
    auction_so_far: Sequence[Sequence[Any]],
    dealer: str,
    order: Sequence[str],
    options: Mapping[str, Any],
) -> list[Any]:
    """What the next player in ``order`` may call: ``"pass"`` and/or bids (ints).

    ``auction_so_far`` holds the legal ``[name, call]`` turns already made. Empty when the
    auction is over.
    """
    turn = len(auction_so_far)
    if turn >= len(order):
        return []
    high = max((call for _, call in auction_so_far if _is_int(call)), default=0)
    player = order[turn]
    allowed: list[Any] = []
    min_bid = options.get("min_bid", 1)
    may_steal = options.get("dealer_may_steal", True)
    for call in ("pass", 1, 2, 3, TOP_BID):
        try:
            _check_call(player, call, high, player == dealer, min_bid, "", may_steal)
        except RuleError:
            continue
        allowed.append(call)
    return allowed


class Pitch(GameRules):
    key = "pitch"
    title = lazy_pgettext("game title", "Auction Pitch")
    min_players = 2
    max_players = 7
    hand_words = HANDS
    name_fields = ("pitcher", "high", "low", "jack", "game")
    name_maps = ("game_points",)
    plays_in_teams = True
    facts = (
        Fact("hands_pitched", N_("Hands pitched")),
        Fact("pitches_made", N_("Pitches made")),
        Fact("pitches_set", N_("Pitches set back")),
    )
    highlights = (
        Highlight(
            "pitcher_set",
            "pitches_set",
            "each",
            N_("%(name)s was set back as pitcher in hand %(hand)s of %(game)s."),
        ),
    )
    stats = (
        Stat(N_("Hands pitched"), "hands_pitched", out_of="hands"),
        Stat(N_("Pitches made"), "pitches_made", out_of="hands_pitched"),
        Stat(N_("Set back"), "pitches_set", out_of="hands_pitched"),
    )

    seat_words = (PASS,)

    def seat_entry(self, options: Mapping[str, Any]) -> SeatEntry:
        """Each player's phone makes its own call of the auction, in turn from the dealer's
        left: pass or a bid (RULES.md, "Auction Pitch"). The last call opens the hand as the
        whole auction entered by the scorekeeper would; the scorekeeper enters the points."""
        low = options.get("min_bid", 1)
        return SeatEntry(
            "auction",
            "call",
            in_turn=True,
            turns=True,
            incomplete=("missing_bid",),
            choices=(PASS, *range(low, TOP_BID + 1)),
            words=((PASS, N_("Pass")),),
        )

    def seat_choices(
        self,
        options: Mapping[str, Any],
        upcoming: Mapping[str, Any],
        entered: Sequence[tuple[str, Any]],
    ) -> list[Any]:
        """The calls the player whose turn it is may make: pass, or a bid above the high bid
        (the dealer: the steal, and no pass when everyone else passed)."""
        return legal_calls(entered, upcoming["dealer"], upcoming["order"], options)

    def team_seats(self, options: Mapping[str, Any], count: int) -> list[list[int]] | None:
        """Partners sit opposite: seats 1+3 and 2+4."""
        return [[0, 2], [1, 3]] if options.get("partnerships") else None

    def to_seats(self, entry: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        stored = super().to_seats(entry, players)
        if isinstance(stored.get("auction"), list):
            stored["auction"] = [[players.index(name), call] for name, call in stored["auction"]]
        return stored

    def from_seats(self, stored: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        entry = super().from_seats(stored, players)
        if isinstance(entry.get("auction"), list):
            entry["auction"] = [[players[seat], call] for seat, call in entry["auction"]]
        return entry

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        pitcher, made = hand.info["pitcher"], hand.info["made"]
        return [
            {"hands_pitched": 1, "pitches_made" if made else "pitches_set": 1}
            if name == pitcher
            else {}
            for name in setup.players
        ]

    def csv_columns(self, setup: Setup) -> list[str]:
        return [_("Pitcher"), _("Bid"), _("Made"), _("High"), _("Low"), _("Jack"), _("Game")]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        info = hand.info
        return [info["pitcher"], info["bid"], info["made"]] + [
            hand.input.get(point) for point in POINTS
        ]

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                N_("Points to win"),
                "choice",
                7,
                choices=(7, 11, 15, 21),
                help=N_("The first to reach this at the end of a hand they pitched wins."),
                choice_labels={
                    points: lazy_ngettext("%(num)s point", "%(num)s points", points)
                    for points in (7, 11, 15, 21)
                },
            ),
            Option(
                "partnerships",
                lazy_ngettext(
                    "Partnerships (%(num)s player, partners sit opposite)",
                    "Partnerships (%(num)s players, partners sit opposite)",
                    4,
                ),
                "bool",
                False,
                help=N_(
                    "Seats %(one)s and %(three)s play against seats %(two)s and %(four)s; "
                    "team points replace your own.",
                    one=1,
                    two=2,
                    three=3,
                    four=4,
                ),
            ),
            Option(
                "min_bid",
                N_("Lowest bid"),
                "choice",
                1,
                choices=(1, 2),
                help=N_(
                    "%(low)s for tables that play the “%(low)s to %(top)s” auction. "
                    "A dealer everyone passed to must bid at least %(dealer)s either way.",
                    low=2,
                    top=TOP_BID,
                    dealer=DEALER_MIN_BID,
                ),
                choice_labels={
                    low: N_("%(low)s (bids of %(low)s to %(top)s)", low=low, top=TOP_BID)
                    for low in (1, 2)
                },
            ),
            Option(
                "low_to_player",
                N_("Low goes to whoever played it"),
                "bool",
                False,
                help=N_("Off: Low goes to whoever wins it in a trick."),
            ),
            Option(
                "smudge",
                N_("Smudge"),
                "bool",
                False,
                help=N_(
                    "Winning all four points (High, Low, Jack and Game) in one hand wins the "
                    "game at once, pitcher or not."
                ),
            ),
            Option(
                "dealer_may_steal",
                N_("The dealer may steal"),
                "bool",
                True,
                help=N_(
                    "The dealer, bidding last, may take the contract by bidding the same as "
                    "the high bid (not a pitch of %(top)s). Off: the dealer must bid higher too.",
                    top=TOP_BID,
                ),
            ),
        ]

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        """How this game scores and plays, in plain sentences."""
        options = {**{spec.key: spec.default for spec in self.option_specs(4)}, **options}
        team = bool(options["partnerships"])
        target = options["target"]
        if team:
            first = _(
                "Game to %(target)s: the first side to reach it at the end of a hand one of "
                "them pitched wins.",
                target=target,
            )
        else:
            first = _(
                "Game to %(target)s: the first player to reach it at the end of a hand they "
                "pitched wins.",
                target=target,
            )
        sentences = [
            first,
            _(
                "Bids from %(low)s to %(top)s; if everyone else passes, the dealer must bid at "
                "least %(dealer)s.",
                low=options["min_bid"],
                top=TOP_BID,
                dealer=DEALER_MIN_BID,
            ),
        ]
        if options["dealer_may_steal"]:
            sentences.append(
                _(
                    "The dealer may steal the high bid by bidding the same (not a pitch of "
                    "%(top)s).",
                    top=TOP_BID,
                )
            )
        else:
            sentences.append(_("The dealer may not steal: every bid must be higher than the last."))
        sentences.append(_("A pitcher who falls short of the bid is set back by the bid."))
        if team:
            sentences.append(
                _(
                    "Partnerships: seats %(one)s and %(three)s play against seats %(two)s and "
                    "%(four)s.",
                    one=1,
                    two=2,
                    three=3,
                    four=4,
                )
            )
        if options["low_to_player"]:
            sentences.append(_("Low goes to whoever played it."))
        else:
            sentences.append(_("Low goes to whoever wins it in a trick."))
        if options["smudge"] and team:
            sentences.append(
                _(
                    "Smudge: a side who wins all four points (High, Low, Jack and Game) in one "
                    "hand wins the game at once."
                )
            )
        elif options["smudge"]:
            sentences.append(
                _(
                    "Smudge: a player who wins all four points (High, Low, Jack and Game) in one "
                    "hand wins the game at once."
                )
            )
        return sentences

    def page_context(self, setup: Setup) -> dict[str, Any]:
        players = list(setup.players)
        options = self.resolve_options(setup.options, len(players))
        teams = teams_for(players, options)
        side_of = {name: name for name in players}
        if teams is not None:
            side_of = {name: team_name(team) for team in teams for name in team}
        return {
            "max_game_points": max_game_points(len(players)),
            # The options with their defaults (a game stored before an option existed).
            "rules_options": options,
            "side_of": side_of,
        }

    def winner_line(self, state: State) -> str:
        winner = state.winners[0]
        if state.hands and state.hands[-1].info.get("smudge"):
            if state.teams:
                return _("Smudge! %(name)s win!", name=winner)
            return _("Smudge! %(name)s wins!", name=winner)
        return _("%(name)s win!", name=winner) if state.teams else _("%(name)s wins!", name=winner)

    def page_notices(self, state: State) -> list[str]:
        """None once a smudge ends the game (its head says it)."""
        smudged = state.finished and state.hands and state.hands[-1].info.get("smudge")
        return [] if smudged else list(state.notices)

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """The side's pitches made ("made 2 of 3"), and how far it is from the target
        ("3 to go"; at the target, that it must pitch to win)."""
        pitched = [
            hand
            for hand in state.hands
            if hand.status == "scored" and hand.info["pitcher_side"] == side
        ]
        made = sum(1 for hand in pitched if hand.info["made"])
        record = _("made %(made)s of %(pitched)s", made=made, pitched=len(pitched))
        if options is None or state.finished:
            return record if pitched else None
        target = {**self.defaults(self.max_players), **options}["target"]
        short = target - state.totals[side]
        if short > 0:
            distance = ngettext("%(num)s to go", "%(num)s to go", short)
        else:
            distance = _("must pitch to win")
        if not pitched:
            return distance
        return _("%(record)s · %(distance)s", record=record, distance=distance)

    def check_players(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        if options.get("partnerships"):
            if len(set(players)) != len(players):
                check_player_count(players, 4, 4)
            if len(players) != 4:
                raise RuleError(
                    "partnership_count",
                    ngettext(
                        "Partnerships need exactly %(need)s players; %(num)s chosen.",
                        "Partnerships need exactly %(need)s players; %(num)s chosen.",
                        len(players),
                        need=4,
                    ),
                    "players",
                )
            return
        check_player_count(players, self.min_players, self.max_players)

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """Like ``dict.update``, but a new bidding form replaces the other one."""
        merged = dict(entered)
        if change.get("auction") is not None:
            merged.pop("pitcher", None)
            merged.pop("bid", None)
        if change.get("pitcher") is not None or change.get("bid") is not None:
            merged.pop("auction", None)
        merged.update(change)
        return merged

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        options = self.resolve_options(setup.options, len(players))
        self.check_players(players, options)
        return Tally(
            Setup(players, options, setup.first_dealer),
            _Table(players, options).sides,
            set_back_win=False,
            smudged=False,
        )

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        deal = tally.deal
        hand = _Table(deal.players, tally.options, deal.members).hand(deal, entry)
        if hand.status != "scored" and not last:
            raise RuleError(
                "required",
                _(
                    "Hand %(number)s is not finished: enter who won High and Low.",
                    number=number,
                ),
                "high",
                hand=number,
                names_hand=True,
            )
        tally.hands.append(hand)
        if hand.points is None:
            return
        # The end is checked after hands only: a starting total or an adjustment at or above
        # the target wins nothing until its side pitches a hand and is still there.
        add_points(tally.totals, hand.points)
        side = hand.info["pitcher_side"]
        if hand.info["smudge"]:
            # Only one side can take all four points: it wins, whoever reached the target.
            tally.finished = tally.smudged = True
            tally.winners = [next(s for s, won in hand.info["won"].items() if len(won) == 4)]
        elif tally.totals[side] >= tally.options["target"]:
            tally.finished = True
            tally.winners = [side]
            tally.set_back_win = not hand.info["made"]

    def end(self, tally: Tally) -> State:
        hands = list(tally.hands)
        totals = dict(tally.totals)
        winners = list(tally.winners)
        seated = _Table(tuple(tally.seated), tally.options)
        # Who may still win (the notices' sides): the sides at the table, not who left.
        at_table = [side for side in tally.sides if side not in tally.seating.left]
        return State(
            sides=list(tally.sides),
            teams=seated.teams,
            hands=hands,
            totals=totals,
            finished=tally.finished,
            winners=winners,
            next=None if tally.finished else _next_hand(tally.next_deal(), hands),
            notices=seated.notices(at_table, totals, winners, tally.set_back_win, tally.smudged),
            left=list(tally.seating.left),
        )

    # The table's changes: playing alone every roster change; partnerships a substitute -----

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        if options.get("partnerships"):
            return ("substitute", "adjust")
        return ("join", "leave", "sit_out", "substitute", "adjust")

    def sides_now(self, tally: Tally) -> list[str]:
        """Who an adjustment may name: the seated players, or the teams by their current
        names (a player's name or a team's old name is not at the table)."""
        return _Table(tuple(tally.seated), tally.options).sides

    def rename_side(self, tally: Tally, old: str, new: str) -> None:
        """Playing alone the seat's total goes with it; in partnerships the team is named by
        its current players in seat order (earlier hands keep the name they had)."""
        if not tally.options.get("partnerships"):
            super().rename_side(tally, old, new)
            return
        now = _Table(tuple(tally.seated), tally.options).sides
        renamed = dict(zip(tally.sides, now, strict=True))
        tally.sides = now
        tally.totals = {renamed[side]: total for side, total in tally.totals.items()}


def _next_hand(deal: Deal, hands: list[Hand]) -> dict[str, Any]:
    """The hand to enter next (or the one in progress, with its pitcher and bid), dealt as
    ``deal`` says: its dealer bids last."""
    current = hands[-1] if hands and hands[-1].status != "scored" else None
    upcoming: dict[str, Any] = {
        "number": deal.number,
        "dealer": deal.dealer,
        "order": deal.order,
    }
    if current is not None:
        upcoming["pitcher"] = current.info["pitcher"]
        upcoming["bid"] = current.info["bid"]
    return upcoming


class _Table:
    """The players, sides and options of one game, and how to read one hand."""

    def __init__(
        self,
        players: tuple[str, ...],
        options: Mapping[str, Any],
        members: Sequence[str] = (),
    ) -> None:
        """``players``: the players dealt into the hand, in seat order (partners opposite);
        ``members``: everyone who has been at the table (a name among them not dealt in is
        ``not_seated``)."""
        self.players = players
        self.members = members
        self.options = options
        self.teams = teams_for(players, options)
        self.plural = self.teams is not None
        if self.teams is None:
            self.sides = list(players)
            self.side_of = {name: name for name in players}
        else:
            self.sides = [team_name(team) for team in self.teams]
            self.side_of = {name: team_name(team) for team in self.teams for name in team}

    # One hand ----------------------------------------------------------------------------

    def hand(self, deal: Deal, entry: Mapping[str, Any]) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A hand must be given as an object of fields."))
        number = deal.number
        dealer = deal.dealer
        order = deal.order
        # The bidding and the points are checked together, so that every problem of the
        # entry is reported at once; the lone-trump check waits for a known pitcher.
        problems = Problems()
        bidding: dict[str, Any] = {}
        pitcher: str | None = None
        bid = 0
        stolen = False
        with problems.check():
            bidding, pitcher, bid, stolen = self.read_bidding(entry, order, dealer)
        scored = _points_entered(entry)
        entered: dict[str, Any] = {}
        won: dict[str, list[str]] = {}
        if scored:
            with problems.check():
                entered, won = self.read_points(entry, pitcher)
        problems.raise_any()
        assert pitcher is not None
        side = self.side_of[pitcher]
        info: dict[str, Any] = {
            "pitcher": pitcher,
            "pitcher_side": side,
            "bid": bid,
            "stolen": stolen,
            "made": None,
            "won": None,
            "order": order,
            "smudge": False,
        }
        if not scored:
            return Hand(number, dealer, "playing", bidding, None, info)

        winnings = {name: len(points) for name, points in won.items()}
        made = winnings[side] >= bid
        points = dict(winnings)
        if not made:
            points[side] = -bid
        info["made"] = made
        info["won"] = won
        info["smudge"] = bool(self.options["smudge"]) and len(POINTS) in winnings.values()
        return Hand(number, dealer, "scored", {**bidding, **entered}, points, info)

    def read_bidding(
        self, entry: Mapping[str, Any], order: list[str], dealer: str
    ) -> tuple[dict[str, Any], str, int, bool]:
        """The bidding as entered (auction or short form): input, pitcher, bid, stolen."""
        auction = entry.get("auction")
        short = entry.get("pitcher") is not None or entry.get("bid") is not None
        if auction is not None and short:
            raise RuleError(
                "bid_invalid",
                _("Enter either the auction or the pitcher and the bid, not both."),
                "auction",
            )
        if auction is not None:
            return self.read_auction(auction, order, dealer)
        if not short:
            raise RuleError(
                "required", _("Enter the auction, or who pitched and for how much."), "auction"
            )
        problems = Problems()
        pitcher = None
        with problems.check():
            if entry.get("pitcher") is None:
                raise RuleError("required", _("Enter who pitched (the high bidder)."), "pitcher")
            pitcher = self.player(
                entry["pitcher"], "pitcher", N_("The pitcher must name a player.")
            )
        bid = 0
        with problems.check():
            if entry.get("bid") is None:
                if pitcher:
                    raise RuleError(
                        "required", _("Enter how much %(name)s bid.", name=pitcher), "bid"
                    )
                raise RuleError("required", _("Enter the bid."), "bid")
            low = self.options["min_bid"]

            def not_whole() -> str:
                if pitcher:
                    return _("%(name)s’s bid must be a whole number.", name=pitcher)
                return _("The bid must be a whole number.")

            def out_of_range() -> str:
                if pitcher:
                    return _(
                        "%(name)s’s bid must be from %(low)s to %(high)s.",
                        name=pitcher,
                        low=low,
                        high=TOP_BID,
                    )
                return _("The bid must be from %(low)s to %(high)s.", low=low, high=TOP_BID)

            bid = _whole_number(
                entry["bid"], "bid", "bid_invalid", low, TOP_BID, not_whole, out_of_range
            )
        problems.raise_any()
        assert pitcher is not None
        return {"pitcher": pitcher, "bid": bid}, pitcher, bid, False

    def read_auction(
        self, auction: Any, order: list[str], dealer: str
    ) -> tuple[dict[str, Any], str, int, bool]:
        if isinstance(auction, str | bytes) or not isinstance(auction, Sequence):
            raise RuleError(
                "wrong_type",
                _("The auction must be a list of turns, each a player and a call."),
                "auction",
            )
        turns: list[list[Any]] = []
        high = 0
        pitcher = ""
        stolen = False
        for index, turn in enumerate(auction):
            where = f"auction.{index}"
            if (
                isinstance(turn, str | bytes | Mapping)
                or not isinstance(turn, Sequence)
                or len(turn) != 2
            ):
                raise RuleError(
                    "wrong_type",
                    _("Each turn of the auction must be a player and a call, like [“Ann”, 2]."),
                    where,
                )
            name = self.player(turn[0], where, N_("Each turn of the auction must name a player."))
            if index >= len(order):
                raise RuleError(
                    "bid_invalid",
                    _(
                        "%(name)s has already had a turn; everyone bids or passes exactly once.",
                        name=name,
                    ),
                    where,
                )
            expected = order[index]
            if name != expected:
                if name in order[:index]:
                    message = _(
                        "%(name)s has already had a turn; it is %(expected)s’s turn now.",
                        name=name,
                        expected=expected,
                    )
                else:
                    message = _(
                        "It is %(expected)s’s turn to bid, not %(name)s’s.",
                        expected=expected,
                        name=name,
                    )
                raise RuleError("bid_invalid", message, where)
            call = _check_call(
                name,
                turn[1],
                high,
                name == dealer,
                self.options["min_bid"],
                where,
                self.options["dealer_may_steal"],
            )
            turns.append([name, call])
            if call == "pass":
                continue
            if call == high:
                stolen = True
            high = call
            pitcher = name
        if len(turns) < len(order):
            missing = order[len(turns)]
            raise RuleError(
                "bid_invalid",
                _(
                    "The auction is missing %(name)s’s turn; everyone bids or passes exactly once.",
                    name=missing,
                ),
                f"auction.{len(turns)}",
            )
        return {"auction": turns}, pitcher, high, stolen

    def read_points(
        self, entry: Mapping[str, Any], pitcher: str | None
    ) -> tuple[dict[str, Any], dict[str, list[str]]]:
        """The points as entered and, per side, the points it won. Every independent problem
        is reported at once; the lone-trump check waits for valid holders and a known pitcher,
        Game by the game points for a valid Game and valid counts."""
        problems = Problems()
        holders: dict[str, str | None] = {}
        for point in POINTS:
            value = entry.get(point)
            holders[point] = None
            with problems.check():
                if value is not None:
                    holders[point] = self.player(value, point, NOT_A_NAME[point])
                elif point in NOT_ENTERED:
                    raise RuleError("required", str(NOT_ENTERED[point]), point)
        holders_ok = not problems
        entered: dict[str, Any] = dict(holders)

        game_points = None
        known = len(problems.errors)
        with problems.check():
            game_points = self.read_game_points(entry.get("game_points"))
        counts_ok = len(problems.errors) == known
        if game_points is not None:
            entered["game_points"] = game_points

        single = entry.get("single_trump")
        if single is not None:
            if isinstance(single, bool):
                entered["single_trump"] = single
            else:
                problems.add(
                    RuleError(
                        "wrong_type",
                        _("Whether only one trump was played must be yes or no."),
                        "single_trump",
                    )
                )
        if single is True and holders_ok and pitcher is not None:
            with problems.check():
                self.check_single_trump(holders, pitcher)

        won: dict[str, list[str]] = {side: [] for side in self.sides}
        if holders_ok and counts_ok:
            for point in ("high", "low", "jack"):
                holder = holders[point]
                if holder is not None:
                    won[self.side_of[holder]].append(point)
            with problems.check():
                game_side = self.game_side(holders["game"], game_points)
                if game_side is not None:
                    won[game_side].append("game")
        problems.raise_any()
        return entered, won

    def read_game_points(self, value: Any) -> dict[str, int] | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise RuleError("wrong_type", _("Game points must be given per player."), "game_points")
        for name in value:
            self.check_dealt_in(name, f"game_points.{name}")
        counts: dict[str, int] = {}
        for name in self.players:
            if value.get(name) is None:
                continue
            counts[name] = _whole_number(
                value[name],
                f"game_points.{name}",
                "game_points_invalid",
                0,
                80,
                lambda name=name: _("%(name)s’s game points must be a whole number.", name=name),
                lambda name=name: _(
                    "%(name)s’s game points must be from %(low)s to %(high)s.",
                    name=name,
                    low=0,
                    high=80,
                ),
            )
        total = sum(counts.values())
        if total > 80:
            raise RuleError(
                "game_points_invalid",
                _(
                    "The game points add up to %(total)s, but the counts can never sum to more "
                    "than %(most)s.",
                    total=total,
                    most=80,
                ),
                "game_points",
            )
        most = max_game_points(len(self.players))
        if total > most:
            raise RuleError(
                "game_points_invalid",
                ngettext(
                    "The game points add up to %(total)s, but the %(num)s card in play holds "
                    "at most %(most)s.",
                    "The game points add up to %(total)s, but the %(num)s cards in play hold "
                    "at most %(most)s.",
                    CARDS_EACH * len(self.players),
                    total=total,
                    most=most,
                ),
                "game_points",
            )
        return counts

    def game_side(self, named: str | None, game_points: dict[str, int] | None) -> str | None:
        """The side that won Game: as named, or decided by the game points when given."""
        if game_points is None:
            return None if named is None else self.side_of[named]
        by_side = {side: 0 for side in self.sides}
        for name, count in game_points.items():
            by_side[self.side_of[name]] += count
        best = max(by_side.values())
        leaders = [side for side in self.sides if by_side[side] == best]
        decided = leaders[0] if len(leaders) == 1 else None
        if named is None or self.side_of[named] == decided:
            return decided
        if decided is None:
            raise RuleError(
                "game_point_on_tie",
                _(
                    "The game points tie for the most (%(best)s each), so nobody gets Game, "
                    "not %(named)s.",
                    best=best,
                    named=self.side_of[named],
                ),
                "game",
            )
        raise RuleError(
            "game_point_mismatch",
            _(
                "By the game points Game goes to %(decided)s (%(best)s), not to %(named)s "
                "(%(named_points)s).",
                decided=decided,
                best=best,
                named=self.side_of[named],
                named_points=by_side[self.side_of[named]],
            ),
            "game",
        )

    def check_single_trump(self, holders: Mapping[str, str | None], pitcher: str) -> None:
        """The lone trump is the card the pitcher led and nothing beats it: its points go to
        the pitcher's side, entered as the pitcher (or, in partnerships, the partner)."""
        side = self.side_of[pitcher]
        allowed = [name for name in self.players if self.side_of[name] == side]
        partner = next((name for name in allowed if name != pitcher), None)
        problems = Problems()
        for point in ("high", "low", "jack"):
            holder = holders[point]
            if holder is None or holder in allowed:
                continue
            said = {"pitcher": pitcher, "partner": partner, "holder": holder}
            if point == "jack" and partner:
                message = _(
                    "Only one trump was played, the one %(pitcher)s led, so if it was the jack "
                    "Jack goes to %(pitcher)s or %(partner)s too, not %(holder)s.",
                    **said,
                )
            elif point == "jack":
                message = _(
                    "Only one trump was played, the one %(pitcher)s led, so if it was the jack "
                    "Jack goes to %(pitcher)s too, not %(holder)s.",
                    **said,
                )
            elif partner:
                message = _(
                    "Only one trump was played, the one %(pitcher)s led, so High and Low both go "
                    "to %(pitcher)s or %(partner)s, not %(holder)s.",
                    **said,
                )
            else:
                message = _(
                    "Only one trump was played, the one %(pitcher)s led, so High and Low both go "
                    "to %(pitcher)s, not %(holder)s.",
                    **said,
                )
            problems.add(RuleError("single_trump_mismatch", message, point))
        problems.raise_any()

    def player(self, value: Any, where: str, not_a_name: LazyText) -> str:
        """``value`` as one of the players; ``not_a_name`` says what is wrong if it is no name
        (a lazy text: translated only when refused, not for every hand of a replay)."""
        if not isinstance(value, str):
            raise RuleError("wrong_type", str(not_a_name), where)
        self.check_dealt_in(value, where)
        return value

    def check_dealt_in(self, name: str, where: str) -> None:
        """Refuse a name not dealt into this hand: someone at the table who is not (a sitter,
        a player who left) is ``not_seated``, a stranger ``unknown_player``."""
        if name in self.players:
            return
        if name in self.members:
            raise RuleError(
                "not_seated", _("%(name)s is not dealt into this hand.", name=name), where
            )
        raise RuleError(
            "unknown_player", _("%(name)s is not playing in this game.", name=name), where
        )

    # Notices -----------------------------------------------------------------------------

    def notices(
        self,
        sides: Sequence[str],
        totals: Mapping[str, int],
        winners: list[str],
        set_back: bool,
        smudged: bool = False,
    ) -> list[str]:
        target = self.options["target"]
        team = self.plural
        notices: list[str] = []
        if smudged:
            if team:
                return [_("Smudge! %(side)s win.", side=winners[0])]
            return [_("Smudge! %(name)s wins.", name=winners[0])]
        if not winners:
            for side in sides:
                if totals[side] < target:
                    continue
                if team:
                    notices.append(
                        _(
                            "%(side)s have %(points)s but one of them must pitch to win.",
                            side=side,
                            points=totals[side],
                        )
                    )
                else:
                    notices.append(
                        _(
                            "%(name)s has %(points)s but must pitch to win.",
                            name=side,
                            points=totals[side],
                        )
                    )
            return notices
        winner = winners[0]
        if set_back and team:
            notices.append(
                _(
                    "%(side)s were set back but still have %(points)s, enough to win as the "
                    "pitcher.",
                    side=winner,
                    points=totals[winner],
                )
            )
        elif set_back:
            notices.append(
                _(
                    "%(name)s was set back but still has %(points)s, enough to win as the pitcher.",
                    name=winner,
                    points=totals[winner],
                )
            )
        ahead = [side for side in sides if totals[side] > totals[winner]]
        if ahead and team:
            notices.append(
                _(
                    "%(side)s reached %(target)s as the pitcher’s side and win, though "
                    "%(others)s scored more.",
                    side=winner,
                    target=target,
                    others=names(ahead),
                )
            )
        elif ahead:
            notices.append(
                _(
                    "%(name)s reached %(target)s as the pitcher and wins, though %(others)s "
                    "scored more.",
                    name=winner,
                    target=target,
                    others=names(ahead),
                )
            )
        return notices


def _points_entered(entry: Mapping[str, Any]) -> bool:
    """Whether the entry carries the points of the hand (else only the bidding is known)."""
    if entry.get("single_trump") is True:
        return True
    return any(entry.get(key) is not None for key in POINT_KEYS if key != "single_trump")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_call(
    player: str,
    call: Any,
    high: int,
    is_dealer: bool,
    min_bid: int,
    where: str,
    may_steal: bool = True,
) -> Any:
    """``call`` normalised (``"pass"`` or an int), or a RuleError saying why it is refused.

    ``high`` is the current high bid (0 when everyone so far passed). ``may_steal``: the
    dealer may take the contract with a bid equal to a high bid of 1 to 3.
    """
    if call is None or (isinstance(call, str) and not call.strip()):
        raise RuleError(
            "missing_bid", _("Enter %(name)s’s call: pass or a bid.", name=player), where
        )
    if isinstance(call, str):
        if call.strip().lower() != "pass":
            raise RuleError(
                "bid_invalid",
                _(
                    "%(name)s may pass or bid %(low)s to %(top)s; “%(call)s” is not a call.",
                    name=player,
                    low=min_bid,
                    top=TOP_BID,
                    call=call,
                ),
                where,
            )
        if is_dealer and high == 0:
            raise RuleError(
                "dealer_must_bid",
                _(
                    "Everyone else passed, so %(name)s (the dealer) must bid at least %(low)s.",
                    name=player,
                    low=DEALER_MIN_BID,
                ),
                where,
            )
        return "pass"
    if not _is_int(call):
        raise RuleError(
            "wrong_type",
            _("%(name)s’s call must be “pass” or a whole number.", name=player),
            where,
        )
    if is_dealer and high == 0 and 0 < call < DEALER_MIN_BID:
        # Before the lowest bid: a dealer everyone passed to must bid at least 2 either way.
        raise RuleError(
            "dealer_min_bid",
            _(
                "Everyone else passed, so %(name)s (the dealer) must bid at least %(low)s.",
                name=player,
                low=DEALER_MIN_BID,
            ),
            where,
        )
    if not min_bid <= call <= TOP_BID:
        raise RuleError(
            "bid_invalid",
            _(
                "%(name)s bid %(bid)s, but a bid must be from %(low)s to %(top)s.",
                name=player,
                bid=call,
                low=min_bid,
                top=TOP_BID,
            ),
            where,
        )
    steals = is_dealer and may_steal
    if high == TOP_BID:
        if steals and call == TOP_BID:
            raise RuleError(
                "steal_not_allowed",
                _(
                    "%(name)s cannot steal a bid of %(top)s; the dealer can only pass now.",
                    name=player,
                    top=TOP_BID,
                ),
                where,
            )
        if is_dealer:
            message = _(
                "After a bid of %(top)s everyone else can only pass, so %(name)s (the dealer) "
                "must pass.",
                top=TOP_BID,
                name=player,
            )
        else:
            message = _(
                "After a bid of %(top)s everyone else can only pass, so %(name)s must pass.",
                top=TOP_BID,
                name=player,
            )
        raise RuleError("bid_not_higher", message, where)
    if steals:
        if call < high:
            raise RuleError(
                "bid_not_higher",
                _(
                    "The high bid is %(high)s: %(name)s (the dealer) may steal it by bidding "
                    "%(high)s, bid higher, or pass.",
                    high=high,
                    name=player,
                ),
                where,
            )
        return call
    if call <= high:
        if is_dealer:
            message = _(
                "The high bid is %(high)s: %(name)s (the dealer) must bid more than %(high)s or "
                "pass; the dealer may not steal in this game.",
                high=high,
                name=player,
            )
        else:
            message = _(
                "The high bid is %(high)s: %(name)s must bid more than %(high)s or pass.",
                high=high,
                name=player,
            )
        raise RuleError("bid_not_higher", message, where)
    return call


def _whole_number(
    value: Any,
    where: str,
    code: str,
    low: int,
    high: int,
    not_whole: Callable[[], str],
    out_of_range: Callable[[], str],
) -> int:
    """``value`` as a whole number from ``low`` to ``high``; else a RuleError saying
    ``not_whole()`` (code "wrong_type") or ``out_of_range()`` (``code``), whole sentences
    made only when refused (a replay of every hand of a restore reads a bid in each)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("wrong_type", not_whole(), where)
    if not low <= value <= high:
        raise RuleError(code, out_of_range(), where)
    return value


RULES = Pitch()

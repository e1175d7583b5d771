"""Spades in partnerships: contracts, nils, bags, the target and the set-out.

Four players, partners opposite (seats 1+3 against 2+4); points and totals belong to the teams
("Ann & Cy"). Each hand is entered as::

    {"bids": {name: int}, "blind_nil": [names] (optional), "tricks": {name: int}}

Bids alone open the hand (status "playing"); tricks complete it (status "scored"); both may
come in one entry. A bid of 0 is nil; a blind nil bidder bids 0 and is listed in
``blind_nil``. Each team's accumulated bags are carried from hand to hand: every hand's info
holds ``bags_total`` (after that hand) and ``next["bags"]`` the bags so far.
"""

from __future__ import annotations

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
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import check_player_count
from scorekeeper.games.bidding.words import bid_entry
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.readers import BIDS
from scorekeeper.games.readers import TRICKS
from scorekeeper.games.readers import dealt_numbers
from scorekeeper.games.readers import merge_per_player
from scorekeeper.games.table import Deal
from scorekeeper.games.words import HANDS

CARDS = 13
TEAM_SEATS = [[0, 2], [1, 3]]
NIL_POINTS = 100
BLIND_NIL_POINTS = 200
#: How far behind a team must be (at the start of a hand) for its players to bid blind nil.
BLIND_NIL_BEHIND = 100
BAG_LIMIT = 10
BAG_PENALTY = 100
#: A team at or below this total at the end of a hand is set out (with ``set_out``).
SET_OUT = -200
TARGETS = (250, 300, 500)


def bag_penalty(bags: int) -> tuple[int, int]:
    """The points lost for ``bags`` accumulated bags and the bags left: -100 for every 10."""
    times = bags // BAG_LIMIT
    return -BAG_PENALTY * times, bags - BAG_LIMIT * times


def team_score(
    bids: Mapping[str, int],
    tricks: Mapping[str, int],
    blind: Sequence[str],
    team: Sequence[str],
) -> dict[str, Any]:
    """One team's hand before bag penalties: points, contract, made, bags and nil results.

    The contract is the sum of the bids (a nil adds 0). Made when the tricks of the players
    who did not bid nil reach it: 10 a trick bid + 1 a trick over (each also a bag); missed:
    -10 a trick bid; a contract of 0 scores nothing itself (``made`` None). A nil scores +-100
    (blind +-200); a failed nil's tricks are bags, worth nothing, and do not help the partner.
    """
    contract = sum(bids[name] for name in team)
    counted = sum(tricks[name] for name in team if bids[name] > 0)
    points = 0
    bags = 0
    made: bool | None = None
    if contract > 0:
        made = counted >= contract
        if made:
            bags = counted - contract
            points = 10 * contract + bags
        else:
            points = -10 * contract
    nils = []
    for name in team:
        if bids[name] != 0:
            continue
        value = BLIND_NIL_POINTS if name in blind else NIL_POINTS
        nil_made = tricks[name] == 0
        points += value if nil_made else -value
        bags += tricks[name]
        nils.append({"player": name, "blind": name in blind, "made": nil_made})
    return {
        "points": points,
        "contract": contract,
        "tricks": counted,
        "made": made,
        "bags": bags,
        "nil": nils,
    }


class Spades(GameRules):
    key = "spades"
    title = lazy_pgettext("game title", "Spades")
    min_players = 4
    max_players = 4
    hand_words = HANDS
    name_maps = ("bids", "tricks")
    seat_marks = ("blind_nil",)
    name_lists = ("blind_nil",)
    plays_in_teams = True
    facts = (
        Fact("contracts", N_("Contracts bid")),
        Fact("contracts_made", N_("Contracts made")),
        Fact("nils", N_("Nil bids")),
        Fact("nils_made", N_("Nil bids made")),
        Fact("blind_nils", N_("Blind nil bids")),
        Fact("blind_nils_made", N_("Blind nil bids made")),
        Fact("bags", N_("Bags")),
        Fact("bag_penalties", N_("Bag penalties")),
    )
    highlights = (
        Highlight(
            "nil_made",
            "nils_made",
            "each",
            N_("%(name)s made a nil bid in hand %(hand)s of %(game)s."),
        ),
    )
    stats = (
        Stat(N_("Contracts made"), "contracts_made", out_of="contracts"),
        Stat(N_("Nil bids made"), "nils_made", out_of="nils"),
        Stat(N_("Blind nil bids made"), "blind_nils_made", out_of="blind_nils"),
        Stat(N_("Bags"), "bags", per="played"),
        Stat(N_("Bag penalties"), "bag_penalties", per="played"),
        # (The statistics page adds the points per hand for every game.)
    )

    # Self-description ---------------------------------------------------------------------

    def reminders(self, options: Mapping[str, Any]) -> list[str]:
        return [
            _(
                "Spades are always trump. Follow suit if you can: the highest spade wins, else "
                "the highest card of the suit led."
            )
        ]

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        options = {**self.defaults(4), **options}
        lines = [
            _("Partners sit opposite: seats 1 and 3 against 2 and 4."),
            _(
                "Contract made: 10 per trick bid + 1 per trick over (a bag). Set: −10 per "
                "trick bid. Nil: +100 or −100; a failed nil's tricks are bags."
            ),
            _("The first team to %(target)s wins; both over it: the higher total.",
              target=options["target"]),
        ]  # fmt: skip
        if options.get("blind_nil"):
            lines.append(
                _(
                    "Blind nil (+200 or −200) only while the team is %(behind)s or more behind.",
                    behind=BLIND_NIL_BEHIND,
                )
            )
        if options.get("bag_penalty"):
            lines.append(_("Every 10 bags cost 100 points."))
        if options.get("set_out"):
            lines.append(_("A team at %(floor)s or below loses at once.", floor=SET_OUT))
        return lines

    def page_context(self, setup: Setup) -> dict[str, Any]:
        """The team each seat scores for (``seat_side[seat]``, an index into the sides: the
        pages name it as it was in the hand shown, or as it is now), and each player of the
        setup's (``side_of[name]``)."""
        sides = self.sides(setup.players, setup.options)
        seat_side = self.side_of_seat(setup.options, len(setup.players))
        return {
            "side_of": {name: sides[seat_side[seat]] for seat, name in enumerate(setup.players)},
            "seat_side": seat_side,
        }

    def page_notices(self, state: State) -> list[str]:
        """None while a hand is played: its status line says the contracts."""
        return list(state.notices) if state.current is None else []

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """The bags a team carries, once a hand is scored."""
        scored = [hand for hand in state.hands if hand.status == "scored"]
        if not scored:
            return None
        # The bags so far under the team's name now (a substitute renames it after a hand).
        bags = (state.next or {}).get("bags", scored[-1].info["bags_total"])[side]
        return ngettext("%(num)s bag", "%(num)s bags", bags)

    def seat_entry(self, options: Mapping[str, Any]) -> Any:
        # With blind nil, a phone bids it as {"bid": 0, "blind_nil": true}: the rules say
        # whether its team may (blind_nil_not_allowed).
        return bid_entry(marks=self.seat_marks if options.get("blind_nil") else ())

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                N_("Points to win"),
                "choice",
                500,
                choices=TARGETS,
                help=N_(
                    "A team at or above this at the end of a hand wins; if both are, the "
                    "higher total wins."
                ),
            ),
            Option(
                "blind_nil",
                N_("Blind nil"),
                "bool",
                False,
                help=N_(
                    "A player of a team %(behind)s or more points behind may bid nil before "
                    "seeing the cards: +%(points)s if they take no trick, -%(points)s if they "
                    "take any.",
                    behind=BLIND_NIL_BEHIND,
                    points=BLIND_NIL_POINTS,
                ),
            ),
            Option(
                "bag_penalty",
                N_("Bag penalty"),
                "bool",
                True,
                help=N_(
                    "Every %(bags)s overtricks (bags) a team collects cost it %(points)s points.",
                    bags=BAG_LIMIT,
                    points=BAG_PENALTY,
                ),
            ),
            Option(
                "set_out",
                N_("Set out at %(total)s", total=SET_OUT),
                "bool",
                True,
                help=N_(
                    "A team at %(total)s or below at the end of a hand loses at once.",
                    total=SET_OUT,
                ),
            ),
        ]

    def check_players(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        check_player_count(players, 4, 4)

    def team_seats(self, options: Mapping[str, Any], count: int) -> list[list[int]] | None:
        """Partners sit opposite: seats 1+3 and 2+4."""
        return [list(team) for team in TEAM_SEATS]

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        """Each seat's facts, from whoever held the seat in that hand and their team as it
        was named then."""
        info = hand.info
        players, sides = _seats_of(setup, hand)
        side_of = self.side_of_seat(setup.options, len(players))
        facts = []
        for seat, name in enumerate(players):
            side = sides[side_of[seat]]
            nil = next((n for n in info["nil"][side] if n["player"] == name), None)
            seat_facts = {
                "contracts": int(info["contract"][side] > 0),
                "contracts_made": int(info["made"][side] is True),
                "nils": int(nil is not None and not nil["blind"]),
                "nils_made": int(nil is not None and not nil["blind"] and nil["made"]),
                "blind_nils": int(nil is not None and nil["blind"]),
                "blind_nils_made": int(nil is not None and nil["blind"] and nil["made"]),
                "bags": info["bags"][side],
                "bag_penalties": -info["bag_penalty"][side] // BAG_PENALTY,
            }
            facts.append({key: value for key, value in seat_facts.items() if value})
        return facts

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = []
        for name in setup.players:
            columns += [_("%(name)s bid", name=name), _("%(name)s tricks", name=name)]
        columns.append(_("Blind nil"))
        for side in self.sides(setup.players, setup.options):
            columns += [
                _("%(side)s contract", side=side),
                _("%(side)s made", side=side),
                _("%(side)s bags", side=side),
                _("%(side)s bags total", side=side),
            ]
        return columns

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        """One hand's cells, seat by seat and team by team (whoever held the seat then; the
        team as it was named then)."""
        info = hand.info
        players, sides = _seats_of(setup, hand)
        cells = []
        for name in players:
            cells += [hand.input["bids"].get(name), (hand.input.get("tricks") or {}).get(name)]
        cells.append(" ".join(hand.input.get("blind_nil", [])) or None)
        for side in sides:
            made = None if info["made"] is None else info["made"][side]
            bags = None if info["bags"] is None else info["bags"][side]
            cells += [info["contract"][side], made, bags, info["bags_total"][side]]
        return cells

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """Bids and tricks are merged player by player; ``blind_nil`` is replaced."""
        return merge_per_player(entered, change, ("bids", "tricks"))

    # Replaying the game -------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        self.check_players(players, setup.options)
        sides = self.sides(players, setup.options)
        return Tally(
            setup,
            sides,
            teams=[[players[seat] for seat in team] for team in TEAM_SEATS],
            bags=dict.fromkeys(sides, 0),
        )

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        hand = self._hand(tally.deal, tally.sides, number, entry, last, tally.totals, tally.bags)
        tally.hands.append(hand)
        if hand.points is None:
            return
        add_points(tally.totals, hand.points)
        tally.bags = dict(hand.info["bags_total"])
        tally.winners = self._winners(tally.options, tally.totals)
        tally.finished = bool(tally.winners)

    def end(self, tally: Tally) -> State:
        hands = list(tally.hands)
        totals = dict(tally.totals)
        state = State(
            sides=list(tally.sides),
            teams=tally.teams,
            hands=hands,
            totals=totals,
            finished=tally.finished,
            winners=list(tally.winners),
        )
        if not state.finished:
            state.next = self._next(tally.next_deal(), hands, totals, tally.bags)
        state.notices = self._notices(tally.options, state)
        return state

    # The table's changes: a substitute (the team is renamed) and points for a team --------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ("substitute", "adjust")

    def sides_now(self, tally: Tally) -> list[str]:
        """An adjustment names a team by its current name (a player's name or a team's old
        name is not at the table)."""
        return list(tally.sides)

    def rename_side(self, tally: Tally, old: str, new: str) -> None:
        """A team is named by its current players in seat order ("Eve & Cy"); its total and
        the bags it carries keep going under the new name (earlier hands keep the name they
        had)."""
        seated = tuple(tally.seated)
        now = self.sides(seated, tally.options)
        renamed = dict(zip(tally.sides, now, strict=True))
        tally.sides = now
        tally.totals = {renamed[side]: total for side, total in tally.totals.items()}
        tally.bags = {renamed[side]: bags for side, bags in tally.bags.items()}
        tally.teams = [[seated[seat] for seat in team] for team in TEAM_SEATS]

    @staticmethod
    def _winners(options: Mapping[str, Any], totals: Mapping[str, int]) -> list[str]:
        """Who has won at the end of a hand: the set-out first, then the target."""
        sides = list(totals)
        if options["set_out"] and any(totals[side] <= SET_OUT for side in sides):
            # One team set out: the other (higher) wins; both: the higher, a tie plays on.
            return _higher(totals)
        over = [side for side in sides if totals[side] >= options["target"]]
        if len(over) == 1:
            return over
        if over:
            return _higher(totals)
        return []

    # One hand -----------------------------------------------------------------------------

    def _hand(
        self,
        deal: Deal,
        sides: Sequence[str],
        number: int,
        entry: Mapping[str, Any],
        last: bool,
        totals: Mapping[str, int],
        bags_before: Mapping[str, int],
    ) -> Hand:
        """Hand ``number``, dealt to the four seats as they are now (``sides``: their teams'
        names now, as ``totals`` and ``bags_before`` are keyed)."""
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A hand must be given as bids and tricks per player."))
        players = deal.players
        options = deal.options
        side_of_seat = self.side_of_seat(options, len(players))
        side_of = {name: sides[side_of_seat[seat]] for seat, name in enumerate(players)}
        allowed = blind_nil_allowed(options, totals)
        problems = Problems()
        blind = self._blind_nil(entry, deal, side_of, options, totals, problems)
        raw_bids = entry.get("bids")
        if blind and (raw_bids is None or isinstance(raw_bids, Mapping)):
            # A blind nil bidder bids 0; the bid need not be entered again.
            raw_bids = dict(raw_bids or {})
            for name in blind:
                if raw_bids.get(name) is None:
                    raw_bids[name] = 0
        codes = ("missing_bid", "bid_out_of_range")
        bids = dealt_numbers({"bids": raw_bids}, "bids", deal, problems, BIDS, codes, CARDS)
        for name in blind:
            if bids is not None and bids.get(name, 0) != 0:
                problems.add(
                    RuleError(
                        "bid_out_of_range",
                        _(
                            "%(name)s bid blind nil, so %(name)s's bid is %(zero)s, not %(bid)s.",
                            name=name,
                            zero=0,
                            bid=bids[name],
                        ),
                        f"bids.{name}",
                    )
                )
        tricks = None
        if entry.get("tricks") is not None:
            found = len(problems.errors)
            codes = ("missing_tricks", "tricks_out_of_range")
            tricks = dealt_numbers(entry, "tricks", deal, problems, TRICKS, codes, CARDS)
            if tricks is not None and len(problems.errors) == found:
                taken = sum(tricks.values())
                if taken != CARDS:
                    problems.add(
                        RuleError(
                            "tricks_sum_mismatch",
                            _(
                                "Tricks add up to %(taken)s but every hand has %(cards)s tricks.",
                                taken=taken,
                                cards=CARDS,
                            ),
                            "tricks",
                        )
                    )
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
        assert bids is not None

        normalised: dict[str, Any] = {"bids": bids}
        if blind:
            normalised["blind_nil"] = blind
        order = deal.order
        by_side = {side: [name for name in players if side_of[name] == side] for side in sides}
        info: dict[str, Any] = {
            "order": order,
            "leader": order[0],
            "blind_nil_allowed": allowed,
            "contract": {side: sum(bids[name] for name in by_side[side]) for side in sides},
            "nil": {
                side: [
                    {"player": name, "blind": name in blind, "made": None}
                    for name in by_side[side]
                    if bids[name] == 0
                ]
                for side in sides
            },
            "tricks": None,
            "made": None,
            "bags": None,
            "bag_penalty": None,
            "bags_total": dict(bags_before),
        }
        if tricks is None:
            return Hand(number, deal.dealer, "playing", normalised, None, info)

        normalised["tricks"] = tricks
        points: dict[str, int] = {}
        info.update(tricks={}, made={}, bags={}, bag_penalty={}, bags_total={})
        for side in sides:
            scored = team_score(bids, tricks, blind, by_side[side])
            penalty = 0
            carried = bags_before[side] + scored["bags"]
            if options["bag_penalty"]:
                penalty, carried = bag_penalty(carried)
            points[side] = scored["points"] + penalty
            info["tricks"][side] = scored["tricks"]
            info["made"][side] = scored["made"]
            info["bags"][side] = scored["bags"]
            info["bag_penalty"][side] = penalty
            info["bags_total"][side] = carried
            info["nil"][side] = scored["nil"]
        return Hand(number, deal.dealer, "scored", normalised, points, info)

    @staticmethod
    def _blind_nil(
        entry: Mapping[str, Any],
        deal: Deal,
        side_of: Mapping[str, str],
        options: Mapping[str, Any],
        totals: Mapping[str, int],
        problems: Problems,
    ) -> list[str]:
        """The blind nil bidders in seat order; each one refused is reported."""
        value = entry.get("blind_nil")
        if value is None or value == []:
            return []
        if not isinstance(value, list | tuple):
            problems.add(
                RuleError(
                    "wrong_type", _("Blind nil must list the players who bid it."), "blind_nil"
                )
            )
            return []
        players = deal.players
        named = []
        for index, name in enumerate(value):
            where = f"blind_nil.{index}"
            if not isinstance(name, str):
                problems.add(
                    RuleError("wrong_type", _("Blind nil must list players by name."), where)
                )
            elif name in deal.members and name not in players:
                problems.add(
                    RuleError(
                        "not_seated",
                        _("%(name)s is not dealt into this hand.", name=name),
                        where,
                    )
                )
            elif name not in players:
                problems.add(
                    RuleError(
                        "unknown_player",
                        _("%(name)s is not playing in this game.", name=name),
                        where,
                    )
                )
            else:
                named.append(name)
        blind = [name for name in players if name in named]
        if blind and not options["blind_nil"]:
            problems.add(
                RuleError(
                    "blind_nil_not_allowed", _("Blind nil is not played in this game."), "blind_nil"
                )
            )
            return blind
        allowed = blind_nil_allowed(options, totals)
        for name in blind:
            side = side_of[name]
            if allowed[side]:
                continue
            other = next(s for s in totals if s != side)
            behind = totals[other] - totals[side]
            if behind > 0:
                message = _(
                    "%(name)s may not bid blind nil: %(side)s are behind by only %(behind)s at "
                    "the start of this hand, and blind nil needs %(needed)s or more behind.",
                    name=name,
                    side=side,
                    behind=behind,
                    needed=BLIND_NIL_BEHIND,
                )
            else:
                message = _(
                    "%(name)s may not bid blind nil: %(side)s are not behind at the start of "
                    "this hand, and blind nil needs %(needed)s or more behind.",
                    name=name,
                    side=side,
                    needed=BLIND_NIL_BEHIND,
                )
            problems.add(RuleError("blind_nil_not_allowed", message, "blind_nil"))
        return blind

    # What comes next ----------------------------------------------------------------------

    def _next(
        self,
        deal: Deal,
        hands: list[Hand],
        totals: Mapping[str, int],
        bags: Mapping[str, int],
    ) -> dict[str, Any]:
        current = hands[-1] if hands and hands[-1].status != "scored" else None
        number = current.number if current else len(hands) + 1
        order = deal.order
        return {
            "number": number,
            "dealer": deal.dealer,
            "cards": CARDS,
            "order": order,
            "leader": order[0],
            "trump": "spades",
            "bags": dict(bags),
            "blind_nil_allowed": blind_nil_allowed(deal.options, totals),
        }

    def _notices(self, options: Mapping[str, Any], state: State) -> list[str]:
        totals = state.totals
        notices = []
        scored = [hand for hand in state.hands if hand.status == "scored"]
        if scored:
            latest = scored[-1]  # its teams by the names they had then
            for side, penalty in latest.info["bag_penalty"].items():
                if penalty:
                    left = latest.info["bags_total"][side]
                    notices.append(
                        ngettext(
                            "%(side)s reached %(limit)s bags in hand %(number)s: %(off)s points "
                            "off, %(num)s bag carried over.",
                            "%(side)s reached %(limit)s bags in hand %(number)s: %(off)s points "
                            "off, %(num)s bags carried over.",
                            left,
                            side=side,
                            limit=BAG_LIMIT,
                            number=latest.number,
                            off=-penalty,
                        )
                    )
        if state.finished:
            winner = state.winners[0]
            loser = next(side for side in state.sides if side != winner)
            if options["set_out"] and totals[loser] <= SET_OUT:
                notices.append(
                    _(
                        "%(loser)s are set out at %(lost)s: %(winner)s win with %(won)s.",
                        loser=loser,
                        lost=totals[loser],
                        winner=winner,
                        won=totals[winner],
                    )
                )
            else:
                notices.append(
                    _(
                        "%(winner)s win with %(won)s to %(lost)s.",
                        winner=winner,
                        won=totals[winner],
                        lost=totals[loser],
                    )
                )
            return notices
        first, second = state.sides
        if totals[first] == totals[second] and (
            totals[first] >= options["target"] or (options["set_out"] and totals[first] <= SET_OUT)
        ):
            notices.append(
                _("Both teams have %(points)s: another hand decides.", points=totals[first])
            )
        upcoming = state.next
        for side, allowed in upcoming["blind_nil_allowed"].items():
            if allowed:
                notices.append(
                    _(
                        "%(side)s are %(behind)s or more behind: either of them may bid blind nil.",
                        side=side,
                        behind=BLIND_NIL_BEHIND,
                    )
                )
        current = state.current
        if current is not None:
            contract = current.info["contract"]
            notices.append(
                _(
                    "Contracts: %(first)s %(first_bid)s, %(second)s %(second_bid)s.",
                    first=first,
                    first_bid=contract[first],
                    second=second,
                    second_bid=contract[second],
                )
            )
        return notices


def blind_nil_allowed(options: Mapping[str, Any], totals: Mapping[str, int]) -> dict[str, bool]:
    """For each team, whether its players may bid blind nil in a hand that starts with these
    totals: the option is on and the team is at least 100 behind the other."""
    sides = list(totals)
    allowed = {}
    for side in sides:
        other = next(s for s in sides if s != side)
        allowed[side] = bool(options["blind_nil"]) and totals[other] - totals[side] >= (
            BLIND_NIL_BEHIND
        )
    return allowed


def _seats_of(setup: Setup, hand: Hand) -> tuple[tuple[str, ...], list[str]]:
    """Who held each seat in ``hand`` and the teams' names then (a substitute renames a team
    for the hands after it only)."""
    return tuple(hand.players or setup.players), list(hand.info["contract"])


def _higher(totals: Mapping[str, int]) -> list[str]:
    """The side with the higher total; nobody on an exact tie (another hand is played)."""
    first, second = totals
    if totals[first] == totals[second]:
        return []
    return [first if totals[first] > totals[second] else second]


RULES = Spades()

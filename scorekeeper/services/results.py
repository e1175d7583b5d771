"""The copies of a game the rules derive, rewritten on every change of the game.

- ``Game.totals`` (by side), ``winners`` (side numbers), ``status``, ``hand_count``: what
  lists and history show without replaying a game.
- ``hand_result`` rows: each scored hand's points, running total and facts per seat, and the
  end of a finished game (hand 0: ``final`` and ``won``). Statistics are plain GROUP BY
  queries over them.
- ``Game.tally``: each seat's part in the statistics (games played and won, final score,
  hands, points, and the sum of every fact), and ``player_stat``: those parts summed per
  player, game and variant. A save applies the difference between the game's old and new
  tally to ``player_stat``, so a statistics page reads a few rows whatever the history's size.

None of these hold a name, so a roster rename touches none of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.extensions import db
from scorekeeper.games import GamePlugin
from scorekeeper.games import Setup
from scorekeeper.games import State
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from scorekeeper.models import PlayerStat
from scorekeeper.models import Seat
from scorekeeper.models import utcnow
from scorekeeper.services import bulk
from scorekeeper.services import events
from scorekeeper.services import ratings

#: Figures every game has, besides its own facts. ``best`` is a maximum, not a sum.
PLAYED, WON, IN_PROGRESS, SCORE, BEST, HANDS, POINTS = (
    "played",
    "won",
    "in_progress",
    "score",
    "best",
    "hands",
    "points",
)
#: A hand's own figures besides its facts: the points and the running total.
TOTAL = "total"
FIGURES = frozenset({POINTS, TOTAL})
#: The hand number under which the end of a finished game is kept.
END = 0

#: Add a tally's difference to ``player_stat`` (``best`` keeps the larger value). The same
#: SQL on SQLite (3.24 and newer) and PostgreSQL.
UPSERT_HEAD = 'INSERT INTO player_stat (player_id, kind, variant, "key", value)'
UPSERT_TAIL = (
    ' ON CONFLICT (player_id, kind, variant, "key") DO UPDATE SET value = CASE '
    "WHEN player_stat.key = 'best' THEN CASE WHEN excluded.value > player_stat.value "
    "THEN excluded.value ELSE player_stat.value END "
    "ELSE player_stat.value + excluded.value END"
)
UPSERT_STATS = sa.text(
    f"{UPSERT_HEAD} VALUES (:player_id, :kind, :variant, :key, :value){UPSERT_TAIL}"
)
#: The hand results' INSERT, sent with its rows' values (``bulk.insert_values``).
RESULTS_HEAD = 'INSERT INTO hand_result (game_id, number, seat, "key", value)'


def status_of(state: State, game: Game | None = None) -> str:
    if state.finished:
        return "finished"
    if game is not None and game.status == "abandoned":
        return "abandoned"
    return "in_progress"


RESULT_COLUMNS = ("game_id", "number", "seat", "key", "value")
#: The columns of a hand result after its game's id, as ``Derived.results`` holds them.
RESULT_FIELDS = ("number", "seat", "key", "value")


@dataclass
class Derived:
    """Everything a save writes, computed from the rules' state (no database)."""

    totals: list[int]
    winners: list[int]
    tally: list[dict[str, int]]
    #: The hand results as ``(number, seat, key, value)``: many of them for a long history,
    #: so plain tuples (``rows`` gives them as mappings).
    results: list[tuple[int, int, str, int]]
    #: A finished game's final standings (``Game.standing``); None otherwise.
    standing: list | None = None
    #: Each seat's figures summed over the scored hands (``tally`` before the game's end is
    #: added): what a later save of the next hand starts from (``derive``'s ``base``).
    sums: list[dict[str, int]] | None = None

    @property
    def rows(self) -> list[dict]:
        return [dict(zip(RESULT_FIELDS, row, strict=True)) for row in self.results]


def derive(
    plugin: GamePlugin,
    setup: Setup,
    state: State,
    status: str,
    first: int = 1,
    members: Sequence[str] | None = None,
    base: Sequence[dict[str, int]] | None = None,
) -> Derived:
    """The copies of a game in ``state``; ``results`` are the hand results of hands from
    ``first`` on and, for a finished game, its end. ``base``: each seat's figures summed over
    the hands before ``first`` (``Derived.sums`` of the save that derived them), so that only
    the hands from ``first`` on are read again (a save of the next hand reads one hand).

    Everything is kept by seat position: the starting table's, then who came later
    (``members``, when the table changed). Each player is credited with the hands they were
    dealt into, under the side they were on in that hand; the game's result (played, won,
    final total) goes to who holds each side at the end (a player who left keeps theirs).
    """
    rules = plugin.rules
    options = setup.options
    members = list(members or setup.players)
    position = {name: seat for seat, name in enumerate(members)}
    sides = state.sides
    tally: list[dict[str, int]] = [defaultdict(int) for _ in members]
    hands = state.hands
    if base is not None:
        for counts, kept in zip(tally, base, strict=False):
            counts.update(kept)
        hands = hands[first - 1 :]
    rows: list[tuple[int, int, str, int]] = []
    add = rows.append
    # Each table a hand was dealt to: its seats, sides and setup, worked out once.
    tables: dict[tuple[str, ...], tuple] = {}
    for hand in hands:
        if hand.status != "scored" or hand.points is None:
            continue
        dealt = tuple(hand.players or setup.players)
        table = tables.get(dealt)
        if table is None:
            at_hand = setup if dealt == tuple(setup.players) else Setup(dealt, options)
            table = tables[dealt] = (*_hand_sides(rules, options, dealt, position), at_hand)
        seats, hand_sides, at_hand = table
        facts = rules.hand_facts(at_hand, hand)
        number, points, totals = hand.number, hand.points, hand.totals
        kept = number >= first
        for index, (seat, side) in enumerate(zip(seats, hand_sides, strict=True)):
            scored = points[side]
            counts = tally[seat]
            counts[HANDS] += 1
            counts[POINTS] += scored
            seat_facts = facts[index]
            for key, value in seat_facts.items():
                counts[key] += value
            if kept:
                add((number, seat, POINTS, scored))
                add((number, seat, TOTAL, totals[side]))
                for key, value in seat_facts.items():
                    if value and key not in FIGURES:
                        add((number, seat, key, value))
    sums = [dict(counts) for counts in tally]
    winners = [sides.index(side) for side in state.winners]
    holders = _holders(rules, options, state, setup, position)
    for seat, counts in enumerate(tally):
        side = holders.get(seat)
        if side is None:
            continue  # handed the seat over: the game's result went with it
        if status == "finished":
            won = int(sides.index(side) in winners)
            counts.update({PLAYED: 1, WON: won, SCORE: state.totals[side]})
            counts[BEST] = state.totals[side]
            add((END, seat, "final", counts[SCORE]))
            if won:
                add((END, seat, WON, 1))
        elif status == "in_progress":
            counts[IN_PROGRESS] = 1
    return Derived(
        totals=[state.totals[side] for side in sides],
        winners=winners,
        tally=[dict(counts) for counts in tally],
        results=rows,
        standing=standing(state, holders) if status == "finished" else None,
        sums=sums,
    )


def standing(state: State, holders: dict[int, str]) -> list:
    """The final standings by side, best first: ``[[rank, [seat positions]], ...]``.

    The winners share rank 1; the others who finished follow by their totals (the lowest
    first where the lowest wins), equal totals sharing a rank; a player who left ranks below
    everyone who finished, in the order of their totals (RULES.md, "Ratings across nights")."""
    seats_of: dict[str, list[int]] = defaultdict(list)
    for seat, side in sorted(holders.items()):
        seats_of[side].append(seat)
    sign = 1 if state.low_wins else -1
    left = set(state.left)
    winners = [side for side in seats_of if side in state.winners]
    others = [side for side in seats_of if side not in state.winners and side not in left]
    gone = [side for side in seats_of if side in left and side not in state.winners]
    ranks = dict.fromkeys(winners, 1)
    start = len(winners) + 1
    for group in (others, gone):
        for side in group:
            better = sum(sign * state.totals[o] < sign * state.totals[side] for o in group)
            ranks[side] = start + better
        start += len(group)
    return sorted([ranks[side], seats] for side, seats in seats_of.items())


def _hand_sides(rules, options, dealt: Sequence[str], position: dict[str, int]):
    """The seat position of each player dealt into a hand, and the side each scored on."""
    side_of = rules.side_of_seat(options, len(dealt))
    names = rules.sides(list(dealt), options)
    return [position[name] for name in dealt], [names[side_of[i]] for i in range(len(dealt))]


def _holders(rules, options, state: State, setup: Setup, position: dict[str, int]):
    """Who holds each side at the end, by seat position: the players at the table and those
    who left (a player who handed a seat over holds none)."""
    seated = list(state.players if state.players is not None else setup.players)
    seats, sides = _hand_sides(rules, options, seated, position)
    holders = dict(zip(seats, sides, strict=True))
    for name in state.left:
        holders[position[name]] = name
    return holders


def side_seats(state: State, members: Sequence[str], teams: bool) -> list[list[int]]:
    """Each side of ``state`` by the seat positions of its players (``Game.side_seats``)."""
    position = {name: seat for seat, name in enumerate(members)}
    if not teams:
        return [[position[side]] for side in state.sides]
    by_name = {" & ".join(team): team for team in state.teams or []}
    return [[position[name] for name in by_name.get(side, [side])] for side in state.sides]


def store(
    game: Game,
    plugin: GamePlugin,
    setup: Setup,
    state: State,
    first: int = 1,
    seats_before: Sequence[int] | None = None,
    base: Sequence[dict[str, int]] | None = None,
) -> Derived:
    """Rewrite the game's copies after a change of hand ``first`` or later (no commit); what
    was derived (``base``: as ``derive`` takes it).

    ``seats_before`` are the players' ids by seat before a change of the table (the old
    tally is taken away from them). Statements: the game's UPDATE (``_write_copies``), hand
    results (a DELETE only where old rows may differ, then one INSERT), one upsert of
    statistics.
    """
    was_finished = game.status == "finished"
    before = (game.finished_at if was_finished else None, game.standing)
    old_tally = list(game.tally or [])
    status = status_of(state, game)
    members = game.members
    derived = derive(plugin, setup, state, status, first, members, base)
    sides = None
    if state.changes:
        teams = plugin.rules.team_seats(setup.options, len(setup.players)) is not None
        sides = side_seats(state, members, teams)
    now = utcnow()
    if not state.finished:
        finished_at, locked = None, False
    elif was_finished:
        finished_at, locked = game.finished_at, game.locked
    else:
        finished_at, locked = now, True
    copies = {
        "status": status,
        "totals": derived.totals,
        "winners": derived.winners,
        "hand_count": len(state.hands),
        "tally": derived.tally,
        "standing": derived.standing,
        "side_seats": sides,
        "updated_at": now,
        "finished_at": finished_at,
        "locked": locked,
    }
    _write_copies(game, copies)

    old_scored = old_tally[0].get(HANDS, 0) if old_tally else 0
    if game.id is not None and (was_finished or first <= old_scored):
        db.session.execute(
            sa.delete(HandResult).where(
                HandResult.game_id == game.id,
                sa.or_(HandResult.number >= first, HandResult.number == END),
            )
        )
    if game.id is None:
        db.session.flush()
    if derived.results:
        game_id = game.id
        bulk.insert_values(
            RESULTS_HEAD, len(RESULT_COLUMNS), [(game_id, *row) for row in derived.results]
        )
    players_now = [seat.player.id for seat in game.seats]
    ratings.changed(game.account_id, game, before)
    apply_tally(
        game.kind,
        game.variant,
        players_before=list(seats_before or players_now),
        old=old_tally,
        players_now=players_now,
        new=derived.tally,
        game_id=game.id,
    )
    return derived


def _write_copies(game: Game, copies: dict) -> None:
    """The game's row given its new ``copies`` (and its next version). A stored game with no
    other change pending is written by one UPDATE of its own, checked against the version it
    was read at (a stale one: ``StaleDataError``, as the session's flush raises it), and the
    object takes the values as written. The session's flush of one changed game (its unit of
    work: the game's relationships sorted and walked) took 1.3 ms of a 10 ms save through the
    API, the UPDATE itself 0.07 ms; written apart, an API save executes 7% fewer instructions
    (bench/instructions.py: 19.2 against 20.8 million). Any other game (new, or with another
    change pending) goes through the session."""
    state = sa.inspect(game)
    if not state.persistent or state.modified:
        for key, value in copies.items():
            setattr(game, key, value)
        return
    version = game.version
    written = db.session.execute(_UPDATE_COPIES, {**copies, "p_id": game.id, "p_version": version})
    if written.rowcount != 1:
        raise StaleDataError()  # caught by the save: a conflict (409), nothing written
    for key, value in copies.items():
        set_committed_value(game, key, value)
    set_committed_value(game, "version", version + 1)
    events.note_changed(db.session, game)


#: The columns of a game that ``store`` rewrites (``_write_copies``).
COPIES = (
    "status", "totals", "winners", "hand_count", "tally", "standing", "side_seats",
    "updated_at", "finished_at", "locked",
)  # fmt: skip
_COLUMNS = Game.__table__.c
_UPDATE_COPIES = (
    sa.update(Game.__table__)
    .where(_COLUMNS.id == sa.bindparam("p_id"), _COLUMNS.version == sa.bindparam("p_version"))
    .values(
        {key: sa.bindparam(key, type_=_COLUMNS[key].type) for key in COPIES}
        | {"version": _COLUMNS.version + 1}
    )
)


def apply_tally(
    kind: str,
    variant: str,
    players_before: Sequence[int],
    old: Sequence[dict[str, int]],
    players_now: Sequence[int],
    new: Sequence[dict[str, int]],
    game_id: int | None = None,
) -> None:
    """Add the difference between a game's old and new tally to ``player_stat``."""
    deltas: dict[tuple[int, str], int] = defaultdict(int)
    best: dict[int, int] = {}
    lowered: set[int] = set()
    for player, counts in zip(players_before, old, strict=False):
        for key, value in counts.items():
            if key != BEST:
                deltas[(player, key)] -= value
    for player, counts in zip(players_now, new, strict=False):
        for key, value in counts.items():
            if key == BEST:
                best[player] = value
            else:
                deltas[(player, key)] += value
    for player, counts in zip(players_before, old, strict=False):
        if BEST in counts and best.get(player, counts[BEST] - 1) < counts[BEST]:
            lowered.add(player)
    params = [
        (player, kind, variant, key, value) for (player, key), value in deltas.items() if value
    ]
    params += [(player, kind, variant, BEST, value) for player, value in best.items()]
    if params:
        # Rows in one order whatever the game's stage (on PostgreSQL each upsert locks its
        # rows: two saves of games with the same players, taking them in unlike orders,
        # could each wait for the other: a deadlock, 409 to one of them). One statement:
        # each (player, key) comes once (a row may not be changed twice by one upsert).
        params.sort(key=lambda row: (row[0], row[3]))
        bulk.insert_values(UPSERT_HEAD, 5, params, UPSERT_TAIL)
    if lowered:
        recompute_best(lowered, kind, variant)


def recompute_best(players: Iterable[int], kind: str, variant: str) -> None:
    """A best score may have gone down (a correction, an undo, a deleted game): read it again
    from the ends of the players' finished games (two statements, on this rare path only)."""
    players = sorted(set(players))
    db.session.flush()
    db.session.execute(
        sa.delete(PlayerStat).where(
            PlayerStat.player_id.in_(players),
            PlayerStat.kind == kind,
            PlayerStat.variant == variant,
            PlayerStat.key == BEST,
        )
    )
    finals = (
        sa.select(
            Seat.player_id,
            sa.literal(kind),
            sa.literal(variant),
            sa.literal(BEST),
            sa.func.max(HandResult.value),
        )
        .join(Seat, sa.and_(Seat.game_id == HandResult.game_id, Seat.position == HandResult.seat))
        .join(Game, Game.id == HandResult.game_id)
        .where(
            Seat.player_id.in_(players),
            Game.kind == kind,
            Game.variant == variant,
            HandResult.number == END,
            HandResult.key == "final",
        )
        .group_by(Seat.player_id)
    )
    db.session.execute(
        sa.insert(PlayerStat).from_select(["player_id", "kind", "variant", "key", "value"], finals)
    )


def forget(
    game_id: int, kind: str, variant: str, players: Sequence[int], tally: Sequence[dict]
) -> None:
    """Take a deleted game (its seats' ``players`` and its ``tally``) out of the statistics,
    its results first (so that a best score it held is read again without it)."""
    db.session.execute(sa.delete(HandResult).where(HandResult.game_id == game_id))
    apply_tally(kind, variant, list(players), list(tally), [], [])


def write_many(made: Sequence[tuple[Game, Derived]], chunk: int = 5000) -> None:
    """Hand results and statistics of many stored games at once (a restore, a rebuild): the
    games are flushed already and their copies were set from ``derive``."""
    rows = [
        dict(zip(RESULT_COLUMNS, (game.id, *row), strict=True))
        for game, derived in made
        for row in derived.results
    ]
    for start in range(0, len(rows), chunk):
        db.session.execute(sa.insert(HandResult), rows[start : start + chunk])
    sums: dict[tuple, int] = defaultdict(int)
    best: dict[tuple, int] = {}
    for game, derived in made:
        for seat, counts in zip(game.seats, derived.tally, strict=True):
            for key, value in counts.items():
                where = (seat.player.id, game.kind, game.variant, key)
                if key == BEST:
                    best[where] = max(best.get(where, value), value)
                else:
                    sums[where] += value
    params = [
        {"player_id": p, "kind": k, "variant": v, "key": key, "value": value}
        for (p, k, v, key), value in [*sums.items(), *best.items()]
        if value or key == BEST
    ]
    for start in range(0, len(params), chunk):
        db.session.execute(UPSERT_STATS, params[start : start + chunk])

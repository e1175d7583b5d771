"""After a drill (races, crashes): every game's stored copies equal what a replay of its
hands derives, and nothing is duplicated or half-saved."""

from __future__ import annotations

from collections import Counter
from collections import defaultdict

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from scorekeeper.models import Player
from scorekeeper.models import PlayerStat
from scorekeeper.models import Seat
from scorekeeper.services import games
from scorekeeper.services import kept as snapshots
from scorekeeper.services import results


def check_database(app) -> int:
    """Assert the database is whole, every account of it; the number of games checked."""
    snapshots.forget()  # a replay of every game, not what this process kept of it
    with app.app_context():
        # A name is one player per account (two accounts may each have their own Ann).
        keys = Counter(db.session.execute(db.select(Player.account_id, Player.name_key)).all())
        assert all(count == 1 for count in keys.values()), keys
        orphans = db.session.scalar(
            db.select(db.func.count())
            .select_from(Seat)
            .where(~Seat.game_id.in_(db.select(Game.id)))
        )
        assert orphans == 0
        stats: dict[tuple, int] = defaultdict(int)
        checked = 0
        for game in db.session.scalars(db.select(Game).order_by(Game.id)).unique():
            assert len(game.seats) >= 2, game.id
            assert [hand.number for hand in game.hands] == list(range(1, len(game.hands) + 1))
            result = games.played(game)
            status = results.status_of(result.state, game)
            derived = results.derive(
                game.plugin, result.setup, result.state, status, 1, game.members
            )
            assert game.status == status, game.id
            assert game.totals == derived.totals, game.id
            assert game.winners == derived.winners, game.id
            assert game.hand_count == len(result.state.hands), game.id
            assert game.tally == [dict(counts) for counts in derived.tally], game.id
            stored = db.session.execute(
                db.select(
                    HandResult.number, HandResult.seat, HandResult.key, HandResult.value
                ).where(HandResult.game_id == game.id)
            ).all()
            expected = [(r["number"], r["seat"], r["key"], r["value"]) for r in derived.rows]
            assert sorted(map(tuple, stored)) == sorted(expected), game.id
            for seat, counts in zip(game.seats, derived.tally, strict=True):
                for key, value in counts.items():
                    where = (seat.player_id, game.kind, game.variant, key)
                    if key == results.BEST:
                        stats[where] = max(stats.get(where, value), value)
                    else:
                        stats[where] += value
            checked += 1
        rows = db.session.execute(
            db.select(
                PlayerStat.player_id,
                PlayerStat.kind,
                PlayerStat.variant,
                PlayerStat.key,
                PlayerStat.value,
            )
        ).all()
        kept = {tuple(row[:4]): row[4] for row in rows if row[4]}
        assert kept == {where: value for where, value in stats.items() if value}
        return checked

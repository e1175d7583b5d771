"""Oh Hell's custom scoring told apart: games stored as the variant "custom" get the variant
that says their formula ("custom:5/5/5", "custom:20/2/0:per_trick"), and the players'
statistics of those variants are summed again, so that no average mixes two formulas.

Revision ID: a25c7e0d9b41
Revises: 7f3a9d2c5e18
Create Date: 2026-12-05 12:00:00

Before this revision an Oh Hell game scored by none of the presets was stored as "custom",
whatever its made bonus, points per trick and penalty. The key is written here as the rules
wrote it when this revision was made (``OhHell.variant_of``); the presets were the same when
"custom" was written, so no such game matches one.
"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "a25c7e0d9b41"
down_revision = "7f3a9d2c5e18"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
KIND = "oh_hell"
OLD = "custom"
#: A player's figure that is a maximum (the best final score), not a sum.
BEST = "best"
#: The scoring options and their defaults (an option left out of a game's options).
SCORING = {
    "made_bonus": 10,
    "trick_value": 1,
    "miss_scoring": "zero",
    "miss_penalty": 0,
    "zero_bid_bonus": False,
}

game = sa.table(
    "game",
    sa.column("id"),
    sa.column("kind"),
    sa.column("options", JSON),
    sa.column("variant"),
    sa.column("tally", JSON),
)
seat = sa.table("seat", sa.column("game_id"), sa.column("position"), sa.column("player_id"))
player_stat = sa.table(
    "player_stat",
    sa.column("player_id"),
    sa.column("kind"),
    sa.column("variant"),
    sa.column("key"),
    sa.column("value"),
)


def custom_variant(options):
    """The variant of a game scored by none of the presets: "custom:" and its made bonus,
    points per trick and penalty, then ":per_trick" and ":zero_bid" when they hold."""
    scoring = {**SCORING, **{key: options[key] for key in SCORING if key in (options or {})}}
    variant = f"custom:{scoring['made_bonus']}/{scoring['trick_value']}/{scoring['miss_penalty']}"
    if scoring["miss_scoring"] == "per_trick":
        variant += ":per_trick"
    if scoring["zero_bid_bonus"]:
        variant += ":zero_bid"
    return variant


def sum_again(bind, variants):
    """The statistics of Oh Hell's ``variants`` summed again from their games' tallies (one
    per seat, in seat order), as a restore writes them: sums, and the largest best score."""
    variants = sorted(variants)
    if not variants:
        return
    bind.execute(
        player_stat.delete().where(player_stat.c.kind == KIND, player_stat.c.variant.in_(variants))
    )
    seats = defaultdict(list)
    for game_id, player_id in bind.execute(
        sa.select(seat.c.game_id, seat.c.player_id)
        .join(game, game.c.id == seat.c.game_id)
        .where(game.c.kind == KIND, game.c.variant.in_(variants))
        .order_by(seat.c.game_id, seat.c.position)
    ):
        seats[game_id].append(player_id)
    sums = defaultdict(int)
    best = {}
    for game_id, variant, tally in bind.execute(
        sa.select(game.c.id, game.c.variant, game.c.tally).where(
            game.c.kind == KIND, game.c.variant.in_(variants)
        )
    ):
        for player_id, counts in zip(seats[game_id], tally or [], strict=False):
            for key, value in counts.items():
                where = (player_id, variant, key)
                if key == BEST:
                    best[where] = max(best.get(where, value), value)
                else:
                    sums[where] += value
    rows = [
        {"player_id": p, "kind": KIND, "variant": v, "key": key, "value": value}
        for (p, v, key), value in [*sums.items(), *best.items()]
        if value or key == BEST
    ]
    if rows:
        bind.execute(player_stat.insert(), rows)


def tell_apart(bind):
    """Every Oh Hell game stored as "custom" keyed by its formula, and the statistics of the
    variants it leaves and joins summed again."""
    touched = set()
    for game_id, options in bind.execute(
        sa.select(game.c.id, game.c.options).where(game.c.kind == KIND, game.c.variant == OLD)
    ):
        variant = custom_variant(options)
        bind.execute(game.update().where(game.c.id == game_id).values(variant=variant))
        touched.update((OLD, variant))
    sum_again(bind, touched)


def upgrade():
    tell_apart(op.get_bind())


def downgrade():
    # The formulas stay told apart: "custom" would mix them again (nothing to undo).
    pass

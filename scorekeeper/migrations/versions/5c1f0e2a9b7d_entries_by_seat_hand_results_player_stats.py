"""entries keyed by seat, hand results, player statistics

Entries were stored keyed by player name and the derived copies (game totals, winners, each
hand's points) too, so a roster rename rewrote every game the player sat in. From here on
entries are keyed by seat, totals and winners by side number, each scored hand's results per
seat are rows of ``hand_result`` and every player's sums per game live in ``player_stat``.
Existing games are converted: each is replayed through its rules (the code of this release)
and every copy rewritten from that replay.

Revision ID: 5c1f0e2a9b7d
Revises: 2606f977b239
Create Date: 2026-12-01 12:00:00

"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = "5c1f0e2a9b7d"
down_revision = "2606f977b239"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("variant", sa.String(length=60), nullable=False, server_default="")
        )
        batch_op.add_column(
            sa.Column("tally", JSON, nullable=False, server_default=sa.text("'[]'"))
        )
    op.create_table(
        "hand_result",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_hand_result_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "number", "seat", "key", name=op.f("pk_hand_result")),
    )
    op.create_table(
        "player_stat",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("variant", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("value", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_player_stat_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "kind", "variant", "key", name=op.f("pk_player_stat")),
    )
    convert_existing_games(op.get_bind())
    with op.batch_alter_table("hand_entry", schema=None) as batch_op:
        batch_op.drop_column("points")


def convert_existing_games(bind) -> None:
    """Replay every stored game and rewrite what is stored from the replay."""
    from scorekeeper.games import GAMES
    from scorekeeper.games import Setup
    from scorekeeper.services.results import BEST
    from scorekeeper.services.results import derive
    from scorekeeper.services.results import status_of

    game = sa.table(
        "game",
        sa.column("id"),
        sa.column("kind"),
        sa.column("options", JSON),
        sa.column("first_dealer"),
        sa.column("status"),
        sa.column("totals", JSON),
        sa.column("winners", JSON),
        sa.column("variant"),
        sa.column("tally", JSON),
    )
    seat = sa.table("seat", sa.column("game_id"), sa.column("position"), sa.column("player_id"))
    player = sa.table("player", sa.column("id"), sa.column("name"))
    hand = sa.table("hand_entry", sa.column("id"), sa.column("game_id"), sa.column("number"),
                    sa.column("input", JSON))  # fmt: skip
    hand_result = sa.table(
        "hand_result",
        sa.column("game_id"),
        sa.column("number"),
        sa.column("seat"),
        sa.column("key"),
        sa.column("value"),
    )
    player_stat = sa.table(
        "player_stat",
        sa.column("player_id"),
        sa.column("kind"),
        sa.column("variant"),
        sa.column("key"),
        sa.column("value"),
    )
    tables: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_id, name in bind.execute(
        sa.select(seat.c.game_id, seat.c.player_id, player.c.name)
        .join(player, player.c.id == seat.c.player_id)
        .order_by(seat.c.game_id, seat.c.position)
    ):
        tables[game_id].append((player_id, name))
    entries: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for hand_id, game_id, entry in bind.execute(
        sa.select(hand.c.id, hand.c.game_id, hand.c.input).order_by(hand.c.game_id, hand.c.number)
    ):
        entries[game_id].append((hand_id, entry))
    sums: dict[tuple, int] = defaultdict(int)
    for game_id, kind, options, first_dealer in bind.execute(
        sa.select(game.c.id, game.c.kind, game.c.options, game.c.first_dealer)
    ):
        plugin = GAMES[kind]
        rules = plugin.rules
        names = tuple(name for _, name in tables[game_id])
        setup = Setup(names, options, first_dealer)
        state = rules.play(setup, [entry for _, entry in entries[game_id]])
        derived = derive(plugin, setup, state, status_of(state))
        variant = rules.variant_of(options)
        bind.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(
                totals=derived.totals,
                winners=derived.winners,
                tally=derived.tally,
                variant=variant,
            )
        )
        for (hand_id, _), replayed in zip(entries[game_id], state.hands, strict=True):
            bind.execute(
                hand.update()
                .where(hand.c.id == hand_id)
                .values(input=rules.to_seats(replayed.input, names))
            )
        if derived.rows:
            bind.execute(hand_result.insert(), [{"game_id": game_id, **r} for r in derived.rows])
        for (player_id, _), counts in zip(tables[game_id], derived.tally, strict=True):
            for key, value in counts.items():
                where = (player_id, kind, variant, key)
                sums[where] = (
                    max(sums.get(where, value), value) if key == BEST else (sums[where] + value)
                )
    if sums:
        bind.execute(
            player_stat.insert(),
            [
                {"player_id": p, "kind": k, "variant": v, "key": key, "value": value}
                for (p, k, v, key), value in sums.items()
            ],
        )


def downgrade():
    # The tables go; entries stay keyed by seat (a downgrade of existing data is not offered).
    with op.batch_alter_table("hand_entry", schema=None) as batch_op:
        batch_op.add_column(sa.Column("points", JSON, nullable=True))
    op.drop_table("player_stat")
    op.drop_table("hand_result")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("tally")
        batch_op.drop_column("variant")

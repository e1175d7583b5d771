"""Helpers for page tests: the roster's ids, starting a game from the new-game form."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Player


def roster_ids(app) -> dict[str, int]:
    with app.app_context():
        return {p.name: p.id for p in db.session.scalars(db.select(Player))}


def start_game(client, app, kind: str, seats: dict[str, int], dealer=None, **options):
    """Post the new-game form: players by seat number, the first dealer, the options."""
    ids = roster_ids(app)
    data = {"game": kind}
    for name, seat in seats.items():
        data[f"seat-{ids[name]}"] = str(seat)
    if dealer:
        data["first_dealer"] = str(ids[dealer])
    # A browser posts every checkbox that is ticked, and those that are on by default are
    # ticked when the form opens.
    from scorekeeper.games import GAMES

    rules = GAMES[kind].rules
    for spec in rules.option_specs(max(len(seats), rules.min_players)):
        if spec.kind == "bool" and spec.default is True and spec.key not in options:
            options = {**options, spec.key: True}
    for key, value in options.items():
        if value is False:
            continue
        data[f"opt-{key}"] = "y" if value is True else str(value)
    return client.post(f"/games/new?game={kind}", data=data)


def game_id(response) -> int:
    """The id of the game a successful new-game form redirected to."""
    assert response.status_code == 302, response.text
    return int(re.search(r"/games/(\d+)$", response.headers["Location"]).group(1))

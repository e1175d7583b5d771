"""Helpers for page tests: the roster's ids, starting a game from the new-game form, reading a
points page."""

from __future__ import annotations

import re

from markupsafe import Markup

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


def pack(client, html: str, extension: str) -> str:
    """The text of the one stylesheet (``css``) or script (``js``) a game page links to, its
    pack (views/assets.py): fetched by its hashed URL, without compression."""
    found = re.findall(rf'"(/static/packs/[a-z_]+\.{extension}\?v=[0-9a-f]{{10}})"', html)
    assert len(found) == 1, found
    with client.get(found[0]) as answer:
        assert answer.status_code == 200, found[0]
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        return answer.get_data(as_text=True)


def csrf_token(html: str) -> str:
    """The CSRF token a page's forms carry."""
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def game_id(response) -> int:
    """The id of the game a successful new-game form redirected to."""
    assert response.status_code == 302, response.text
    return int(re.search(r"/games/(\d+)$", response.headers["Location"]).group(1))


# Reading a points page (the Hearts and score pad forms: one ``point-<seat>`` field per player)


def html_text(html: str) -> str:
    return Markup(html).unescape()


def text(html: str) -> str:
    return html_text(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def value_of(html: str, seat: int) -> str:
    match = re.search(rf'name="point-{seat}" value="([^"]*)"', html)
    assert match, f"no field for seat {seat}"
    return match.group(1)


def error_beside(html: str, name: str) -> str:
    """The message shown in a player's row (beside the field)."""
    row = re.search(rf'data-player="{name}">(.*?)</li>', html, re.S)
    assert row, f"no row for {name}"
    found = re.search(r'<p class="error" role="alert">([^<]*)</p>', row.group(1))
    return html_text(found.group(1)) if found else ""


def totals(html: str) -> dict[str, str]:
    return dict(re.findall(r'<span class="total" data-total="([^"]+)">([^<]+)<', html))

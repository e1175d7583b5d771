"""Helpers for the tests of the bid-then-take-tricks games (Wizard, Spades): a player's row of
the bids or tricks form, the head of a form, what the database holds, a backup restored into
another account."""

from __future__ import annotations

import html
import json
import re
from types import SimpleNamespace

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import Api
from tests.conftest import make_account
from tests.conftest import new_token


def row_of(page: str, form: str, player: str) -> str:
    """The row of one player in the bids or tricks form, as rendered."""
    start = page.index(f"data-{form}-form")
    found = re.search(
        rf'<li class="row[^"]*" data-seat="\d" data-player="{player}".*?</li>', page[start:], re.S
    )
    assert found, f"no {form} row for {player}"
    return html.unescape(found.group(0))


def form_head(page: str, form: str) -> str:
    """The part of a form above its rows (where a problem of the whole entry is shown)."""
    start = page.index(f"data-{form}-form")
    return html.unescape(page[start : page.index('<ol class="rows">', start)])


def stored(app, game: int) -> SimpleNamespace:
    """What the database holds for a game: its options, totals and hands as stored."""
    with app.app_context():
        found = db.session.get(Game, game)
        return SimpleNamespace(
            options=dict(found.options),
            totals_by_side=found.totals_by_side,
            hands=[SimpleNamespace(input=dict(row.input)) for row in found.hands],
        )


def restored_elsewhere(app, api) -> Api:
    """The account's backup restored into a new, empty account: its API client."""
    before = api.get("/backup").get_json()
    make_account(app, "new-club")
    client = app.test_client()
    other = Api(client, new_token(client, "new-club"))
    restored = client.post(
        "/api/v1/restore",
        data=json.dumps(before),
        headers={**other.headers(), "Content-Type": "application/json"},
    )
    assert restored.status_code == 201, restored.text
    assert other.get("/backup").get_json()["games"] == before["games"]
    return other

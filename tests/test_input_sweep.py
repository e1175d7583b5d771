"""Every form field of the main pages, and every query argument the app reads, sent with the
values that gave 500s in the drills (Unicode digits, numbers beyond 64 bits, NUL): never a
server error. What each answers is asserted in test_bad_input.py; this is the net for a
field added later."""

from __future__ import annotations

import html
import re
import urllib.parse
import uuid

import pytest

from tests.pages import game_id
from tests.pages import start_game

pytestmark = pytest.mark.drill

BAD = ["²", str(2**63), "Ann\x00"]
#: Every query argument a view reads (request.args), and some it does not.
ARGS = ["page", "player", "game", "variant", "sheet", "next", "night", "rule_set", "again", "other"]


def post_forms(text: str):
    """(action, {field: value}) of each POST form on a page."""
    for form in re.finditer(r"<form\b([^>]*)>(.*?)</form>", text, re.S):
        attributes, body = form.groups()
        if 'method="post"' not in attributes.lower():
            continue
        action = re.search(r'action="([^"]*)"', attributes)
        fields = {}
        for tag in re.finditer(r"<(?:input|select|textarea)\b[^>]*>", body):
            name = re.search(r'name="([^"]+)"', tag.group(0))
            value = re.search(r'value="([^"]*)"', tag.group(0))
            if name:
                fields.setdefault(name.group(1), html.unescape(value.group(1)) if value else "1")
        yield (html.unescape(action.group(1)) if action else None), fields


@pytest.fixture
def pages(app, table) -> list[str]:
    """A game of each kind, a night, and the pages that show their forms."""
    seats = {
        "oh_hell": {"Ann": 1, "Ben": 2, "Cy": 3},
        "oklahoma_gin": {"Ann": 1, "Ben": 2},
        "pitch": {"Ann": 1, "Ben": 2, "Cy": 3},
    }
    night = table.post("/nights/new", data={"date": "2026-11-27"}).headers["Location"]
    found = ["/players/", "/nights/new", night, f"{night}/edit", "/backup"]
    for kind, seated in seats.items():
        game = game_id(start_game(table, app, kind, seated))
        found += [f"/games/new?game={kind}", f"/games/{game}", f"/games/{game}/table"]
        found += [f"/games/{game}/share", f"/history/games/{game}"]
    return found


def test_every_form_field_with_bad_values_is_no_server_error(table, pages):
    failures, tried = [], 0
    for page in pages:
        answer = table.get(page)
        assert answer.status_code == 200, page
        for action, fields in post_forms(answer.text):
            url = action or page
            if url.endswith(("/logout", "/delete")):
                continue
            for name in fields:
                for bad in BAD:
                    tried += 1
                    # A form's idempotency key is fresh for each post, as a page rendered
                    # again gives it (the same key with other values is not saved again).
                    fresh = {k: uuid.uuid4().hex for k in fields if k == "idempotency_key"}
                    status = table.post(url, data={**fields, **fresh, name: bad}).status_code
                    if status >= 500:
                        failures.append((url, name, bad, status))
    assert tried > 200
    assert not failures


def test_every_query_argument_with_bad_values_is_no_server_error(table, api, pages):
    """Each view once (the pages of one game of each kind only once: they share views)."""
    views = {re.sub(r"\d+", "N", url): url for url in pages}
    urls = [*views.values(), "/", "/games/", "/nights/", "/stats/", "/stats/oh_hell"]
    urls += ["/view/abc", "/games/new"]
    urls += [f"/api/v1{path}" for path in ("/games", "/nights", "/players", "/rulesets")]
    urls += ["/api/v1/leaderboards/oh_hell", "/api/v1/games/1"]
    failures = []
    for url in urls:
        client, headers = (api.client, api.headers()) if url.startswith("/api/") else (table, {})
        for arg in ARGS:
            for bad in BAD:
                sep = "&" if "?" in url else "?"
                full = f"{url}{sep}{arg}={urllib.parse.quote(bad)}"
                status = client.get(full, headers=headers).status_code
                if status >= 500:
                    failures.append((url, arg, bad, status))
    assert not failures

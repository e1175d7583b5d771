"""Who may say where a request came from, under gunicorn with the repository's
gunicorn.conf.py: without ``PROXY_FIX`` nobody (a client's ``X-Forwarded-*`` headers change
neither the scheme, the host nor the address the login limits count); with ``PROXY_FIX=1``
the proxy on this machine does."""

from __future__ import annotations

import pytest

from tests.conftest import basic
from tests.conftest import make_account
from tests.conftest import new_token
from tests.live import Gunicorn
from tests.live import send

pytestmark = [pytest.mark.drill, pytest.mark.once]  # proxy headers: the same on any database

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}
LIMIT = 3


def _share_url(base: str, headers: dict) -> str:
    game = send(
        f"{base}/api/v1/games",
        "POST",
        json_body={"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]},
        headers=headers,
    )
    assert game.status == 201, game.body
    link = send(
        f"{base}/api/v1/games/{game.json()['id']}/share", "POST", headers={**headers, **FORWARDED}
    )
    assert link.status == 201, link.body
    return link.json()["url"]


def _guesses(base: str, first: int) -> list[int]:
    """LIMIT + 1 wrong logins (API tokens: the page's form needs its CSRF token), each
    from a different forwarded address."""
    return [
        send(
            f"{base}/api/v1/tokens",
            "POST",
            headers={
                **basic(f"user-{first + i}", "guess"),
                "X-Forwarded-For": f"198.51.100.{first + i}",
            },
        ).status
        for i in range(LIMIT + 1)
    ]


@pytest.mark.parametrize("proxy_fix", [False, True], ids=["no proxy", "PROXY_FIX"])
def test_forwarded_headers_count_only_with_proxy_fix(app, tmp_path, proxy_fix):
    make_account(app)
    headers = {"Authorization": f"Bearer {new_token(app.test_client())}"}
    settings = {
        "WEB_CONCURRENCY": "1",
        "LOGIN_ADDRESS_LIMIT": f"{LIMIT} per minute",
        **({"PROXY_FIX": "1"} if proxy_fix else {}),
    }
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path, **settings) as server:
        url = _share_url(server.base, headers)
        statuses = _guesses(server.base, 1)
    if proxy_fix:
        # The proxy's word is taken: its scheme and host, and each client's own address.
        assert url.startswith("https://scores.example/view/")
        assert statuses == [401] * (LIMIT + 1)
    else:
        # gunicorn's default would take X-Forwarded-Proto from 127.0.0.1: not here.
        assert url.startswith(f"{server.base}/view/")
        assert statuses == [401] * LIMIT + [429]

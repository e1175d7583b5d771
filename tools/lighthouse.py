"""Lighthouse on a game page at phone size: performance, accessibility and best practices must
each score at least 0.95 (``make lighthouse``; not part of ``make test``: it takes a minute).

The app is served on a free local port (a fresh SQLite database in a temporary folder, as
production would run: no debug, CSRF on), with an account, four players and an Oh Hell game
of five hands; Lighthouse 12 (installed from the npm registry in tests/lighthouse/, pinned)
drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium; no browser is downloaded)
with its mobile settings on a 390x844 phone (simulated slow 4G and a slowed CPU), logged in
by the session cookie. The report is kept in tests/lighthouse/report.json.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import send  # noqa: E402 (the repository's root first)
from tests.live import serving  # noqa: E402

LIGHTHOUSE = ROOT / "tests" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
REPORT = ROOT / "tests" / "lighthouse" / "report.json"
CATEGORIES = ("performance", "accessibility", "best-practices")
THRESHOLD = 0.95
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
USER = "friday-club"
PASSWORD = "correct horse battery"


def made_app(folder: str):
    """The app on its own SQLite database in ``folder``, migrated."""
    os.environ["INSTANCE_PATH"] = folder
    logging.disable(logging.INFO)  # the server's and the migrations' lines
    from flask_migrate import upgrade

    from scorekeeper import create_app

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/lighthouse.db",
            "SECRET_KEY": "lighthouse-only",
            "SIGNUP_ENABLED": True,
        }
    )
    with app.app_context():
        upgrade()
    return app


def game_and_cookie(base: str) -> tuple[str, str]:
    """An account with an Oh Hell game of five hands, made through the API; the address of
    the game's page and the Cookie header of a login."""
    send(base + "/api/v1/accounts", "POST", json_body={"username": USER, "password": PASSWORD})
    basic = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    token = send(base + "/api/v1/tokens", "POST", headers={"Authorization": f"Basic {basic}"})
    bearer = {"Authorization": f"Bearer {token.json()['token']}"}
    for name in PLAYERS:
        send(base + "/api/v1/players", "POST", json_body={"name": name}, headers=bearer)
    body = {"game": "oh_hell", "players": PLAYERS}
    game = send(base + "/api/v1/games", "POST", json_body=body, headers=bearer).json()["id"]
    for number in range(1, 6):
        bids = {name: (number if name == PLAYERS[number % 4] else 0) for name in PLAYERS}
        hand = {"bids": bids, "tricks": bids}
        send(f"{base}/api/v1/games/{game}/hands", "POST", json_body=hand, headers=bearer)
    form = send(base + "/login")
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', form.body).group(1)
    session = "; ".join(cookie.split(";")[0] for cookie in form.cookies)
    fields = {"csrf_token": csrf.decode(), "username": USER, "password": PASSWORD}
    login = send(base + "/login", "POST", data=fields, headers={"Cookie": session})
    assert login.status == 302, login.body
    return f"{base}/games/{game}", "; ".join(cookie.split(";")[0] for cookie in login.cookies)


def main() -> int:
    if not LIGHTHOUSE.exists():
        print("Lighthouse is not installed: npm ci --prefix tests/lighthouse", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder, serving(made_app(folder)) as base:
        url, cookie = game_and_cookie(base)
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        started = time.monotonic()
        subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={REPORT}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--form-factor=mobile",
                "--screenEmulation.mobile",
                "--screenEmulation.width=390",
                "--screenEmulation.height=844",
                "--screenEmulation.deviceScaleFactor=3",
                f"--extra-headers={json.dumps({'Cookie': cookie})}",
                "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
            ],
            env=env,
            check=True,
        )
        took = time.monotonic() - started
    report = json.loads(REPORT.read_text())
    if report["finalDisplayedUrl"] != url:  # not logged in: the login page was measured
        print(f"Lighthouse ended on {report['finalDisplayedUrl']}, not {url}", file=sys.stderr)
        return 1
    failing = []
    for key in CATEGORIES:
        category = report["categories"][key]
        print(f"{category['title']}: {category['score']:.2f}")
        if category["score"] < THRESHOLD:
            failing.append(key)
            for ref in category["auditRefs"]:
                audit = report["audits"][ref["id"]]
                if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                    print(f"  {audit['id']}: {audit['score']} {audit.get('displayValue', '')}")
    print(f"Lighthouse {report['lighthouseVersion']} on {url} in {took:.0f} s")
    if failing:
        print(f"below {THRESHOLD}: {', '.join(failing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

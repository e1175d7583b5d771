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
import threading
import time
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor
from urllib.request import Request
from urllib.request import build_opener

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LIGHTHOUSE = ROOT / "tests" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
REPORT = ROOT / "tests" / "lighthouse" / "report.json"
CATEGORIES = ("performance", "accessibility", "best-practices")
THRESHOLD = 0.95
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
PASSWORD = "correct horse battery"


def serve(folder: str) -> str:
    """The app on a free port, on its own database in ``folder``; its address."""
    os.environ["INSTANCE_PATH"] = folder
    logging.disable(logging.INFO)  # the server's and the migrations' lines
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

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
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def game_and_cookie(base: str) -> tuple[str, str]:
    """An account with an Oh Hell game of five hands, made through the API; the address of
    the game's page and the Cookie header of a login."""
    jar = CookieJar()
    opener = build_opener(HTTPCookieProcessor(jar))

    def call(path: str, body=None, headers=None, form=None, method=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if form is not None:
            data = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        sent = Request(base + path, data=data, headers=headers, method=method)
        with opener.open(sent) as answer:
            return answer.read().decode()

    call("/api/v1/accounts", {"username": "friday-club", "password": PASSWORD})
    basic = base64.b64encode(f"friday-club:{PASSWORD}".encode()).decode()
    token = json.loads(call("/api/v1/tokens", None, {"Authorization": f"Basic {basic}"}, method="POST"))["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for name in PLAYERS:
        call("/api/v1/players", {"name": name}, bearer)
    game = json.loads(call("/api/v1/games", {"game": "oh_hell", "players": PLAYERS}, bearer))
    for number in range(1, 6):
        bids = {name: (number if name == PLAYERS[number % 4] else 0) for name in PLAYERS}
        call(f"/api/v1/games/{game['id']}/hands", {"bids": bids, "tricks": bids}, bearer)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', call("/login"))
    form = {"csrf_token": csrf.group(1), "username": "friday-club", "password": PASSWORD}
    call("/login", form=form)
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar if c.name != "lang")
    return f"{base}/games/{game['id']}", cookie


def main() -> int:
    if not LIGHTHOUSE.exists():
        print("Lighthouse is not installed: npm ci --prefix tests/lighthouse", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        base = serve(folder)
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

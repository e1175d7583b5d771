"""Bench: the rules in the phone (Pyodide in Debian's Chromium at 390x844), against the same
rules on the server, in one run.

- cold start: the runtime and the rules bundle fetched from the app (first time) or from the
  browser's cache (a phone that kept the game before), then started;
- a save's local answer: the whole record of a 7-player Oh Hell game replayed by the phone's
  rules after each of its 7 hands (what "tap to updated totals" costs when the answer is
  local), median and p95, beside the same call on the server.

Run with ``.venv/bin/python bench/offline_rules.py`` (Pyodide installed by ``make``)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.games import portable  # noqa: E402
from scorekeeper.views import offline_rules  # noqa: E402
from tests.browser import LAUNCH_ARGS  # noqa: E402
from tests.browser import PHONE  # noqa: E402
from tests.live import serving  # noqa: E402

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
PLAY = "async ([urls, request]) => (await import('/static/js/rules.js')).play(urls, request)"
START = """async (urls) => {
  const t0 = performance.now();
  await (await import('/static/js/rules.js')).start(urls);
  return performance.now() - t0;
}"""


def record(hands: int) -> list[dict]:
    """``hands`` hands of 7-player Oh Hell (1, 2, 3 ... cards), everyone making 0 but Ann."""
    entries = []
    for cards in range(1, hands + 1):
        bids = dict.fromkeys(SEVEN, 0) | {"Ann": cards}
        entries.append({"bids": bids, "tricks": dict.fromkeys(SEVEN, 0) | {"Ann": cards}})
    return entries


def request(hands: int) -> dict:
    return {
        "game": "oh_hell",
        "players": SEVEN,
        "options": {},
        "entries": record(hands),
        "language": "bn",
    }


def quantiles(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    return f"median {statistics.median(times):6.1f} ms, p95 {p95:6.1f} ms"


def main() -> None:
    folder = tempfile.mkdtemp(prefix="scorekeeper-offline-bench-")
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.db"})
    with app.app_context():
        if not offline_rules.available():
            sys.exit("Pyodide is not installed (make installs it from the npm registry)")
    with app.test_request_context():
        urls = offline_rules.urls()
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with serving(app) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        context = browser.new_context(viewport=PHONE)
        for label in ("cold start, fetched from the app", "cold start, from the cache"):
            page = context.new_page()
            page.goto(f"{base}/login")
            print(f"{label:36} {page.evaluate(START, urls):7.0f} ms")
            if label.endswith("cache"):
                break
            page.close()
        phone, server = [], []
        for _round in range(5):
            for hands in range(1, 8):
                body = request(hands)
                started = time.perf_counter()
                page.evaluate(PLAY, [urls, body])
                phone.append((time.perf_counter() - started) * 1000)
                with app.test_request_context(headers={"Accept-Language": "bn"}):
                    started = time.perf_counter()
                    portable.play(body)
                    server.append((time.perf_counter() - started) * 1000)
        print(
            f"{'local answer in the phone (7 players)':36} {quantiles(phone)} "
            "(Playwright's round trip included)"
        )
        print(f"{'the same rules on the server':36} {quantiles(server)}")
        browser.close()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

"""Bench: offline play on a game page (Debian's Chromium at 390x844, the app on loopback).

- cold start of the offline rules: from the "Keep this game on this phone" tap to the rules
  ready (runtime and bundle fetched from the app the first time, from the browser's cache
  after);
- an offline save, tap to totals: from the Save tap (its submit event) to the form's entry
  checked by the phone's rules and the totals written (the outbox keeps it right after);
- the sync: 7 saves made offline (one hand in each of 7 open 7-player Oh Hell games, one tab
  each), from the link's return to every one of them on the server.

Run with ``.venv/bin/python bench/play_offline.py`` (Pyodide installed by ``make``)."""

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
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Account  # noqa: E402
from scorekeeper.models import HandEntry  # noqa: E402
from scorekeeper.services import games  # noqa: E402
from scorekeeper.views import offline_rules  # noqa: E402
from tests.browser import LAUNCH_ARGS  # noqa: E402
from tests.browser import PHONE  # noqa: E402
from tests.browser import log_in  # noqa: E402
from tests.conftest import make_account  # noqa: E402
from tests.live import serving  # noqa: E402

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
GAMES = 7
#: Times the Save tap (capture phase, before anything else) and the offline save's end.
WATCH = """() => {
  window.benchTimes = [];
  window.addEventListener("submit", () => { window.benchTapped = performance.now(); }, true);
  new MutationObserver(() => window.benchTimes.push(performance.now() - window.benchTapped))
    .observe(document.body, { attributes: true, attributeFilter: ["data-offline-checked"] });
}"""


def main() -> None:
    folder = tempfile.mkdtemp(prefix="scorekeeper-play-offline-bench-")
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.db",
        }
    )
    with app.app_context():
        if not offline_rules.available():
            sys.exit("Pyodide is not installed (make installs it from the npm registry)")
        db.create_all()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        ids = [games.create_game(account, "oh_hell", SEVEN, {}).game.id for _ in range(GAMES)]
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with serving(app) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        context = browser.new_context(viewport=PHONE, base_url=base, is_mobile=True, has_touch=True)
        context.set_default_timeout(120_000)
        login = context.new_page()
        log_in(login)
        pages, starts = [], []
        for game in ids:
            page = context.new_page()
            page.goto(f"/games/{game}")
            page.locator("input[data-keep-offline]").check()
            started = time.perf_counter()
            page.locator(".keep-offline[data-ready]").wait_for(state="attached")
            starts.append((time.perf_counter() - started) * 1000)
            page.evaluate(WATCH)
            pages.append(page)
        print(f"{'cold start, fetched from the app':36} {starts[0]:7.0f} ms")
        print(f"{'cold start, from the cache':36} {statistics.median(starts[1:]):7.0f} ms (median)")
        context.set_offline(True)
        taps = []
        for page in pages:
            form = page.locator("form[data-bids-form]")
            for name in SEVEN:
                form.locator(f'li[data-player="{name}"] input[value="0"]').locator("..").click()
            form.locator(f'li[data-player="{SEVEN[0]}"] input[value="0"]').locator("..").click()
            form.locator("[data-save]").click()
            page.wait_for_function("() => window.benchTimes.length === 1")
            taps.append(page.evaluate("() => window.benchTimes[0]"))
        taps.sort()
        print(
            f"{'offline save, tap to totals':36} median {statistics.median(taps):6.1f} ms, "
            f"max {taps[-1]:6.1f} ms ({len(taps)} saves)"
        )
        started = time.perf_counter()
        context.set_offline(False)
        while True:
            with app.app_context():
                saved = db.session.scalar(db.select(db.func.count(HandEntry.id)))
            if saved >= GAMES:
                break
            if time.perf_counter() - started > 60:
                sys.exit(f"only {saved} of {GAMES} saves reached the server in 60 s")
            time.sleep(0.01)
        print(f"{'sync of 7 offline saves':36} {(time.perf_counter() - started) * 1000:7.0f} ms")
        browser.close()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

"""Bench: offline play on a game page (Debian's Chromium at 390x844, the app on loopback).

- cold start of the offline rules: from the "Keep this game on this phone" tap to the rules
  ready (runtime and bundle fetched from the app the first time, from the browser's cache
  after), and the steps ahead (``ahead.json``: the server renders the page at every step
  still to come);
- the sheet's drawing made ready (its bundle unpacked, Jinja imported, the game's templates
  compiled: done when the phone is idle once the link drops), and how long the page's own
  thread was blocked meanwhile (its long tasks: the rules run in a worker of their own);
- an offline save, tap to totals: from the Save tap (its submit event) to the save checked by
  the phone's rules, kept by the outbox, the next step's form in place and the totals written,
  over a whole 7-player Oh Hell game of 7 hands played offline (14 saves); and tap to sheet:
  to the score sheet drawn again by the game's templates in the phone (after a paint);
- the sync: those 14 saves (7 hands), from the link's return to every one of them on the
  server;
- an online save with the local answer first, tap to totals: the switch on and the link up,
  from the Save tap to the phone's answer drawn (the next step, the totals written) while the
  same save goes to the server, over another whole game (14 saves), each save's server answer
  awaited before the next tap; with the server's tap to answer beside it; on loopback, and
  on a slow link (a proxy adding 150 ms of round trip at 1.6 Mbps: ``slow_link.py``);
- a change of the table offline: the Table panel drawn by the phone (its template, under
  Pyodide), from the link's tap; and a change saved, from the tap to the next hand's page
  drawn by the game's templates in the phone for the table as it now is (a sit-out, a leave,
  a join, each after a hand).

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
from slow_link import ROUND_TRIP  # noqa: E402 - bench/slow_link.py
from slow_link import SlowLink  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Account  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.services import games  # noqa: E402
from scorekeeper.views import offline_rules  # noqa: E402
from tests.browser import LAUNCH_ARGS  # noqa: E402
from tests.browser import PHONE  # noqa: E402
from tests.browser import log_in  # noqa: E402
from tests.conftest import make_account  # noqa: E402
from tests.e2e.test_phone_play_offline import play_hand  # noqa: E402
from tests.e2e.test_phone_play_offline import tap  # noqa: E402
from tests.live import serving  # noqa: E402

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
OPTIONS = {"hook": True, "sequence": "down"}
#: Times the Save tap (capture phase, before anything else) and the offline save's end.
WATCH = """() => {
  window.benchTimes = [];
  window.benchTaps = [];
  window.benchSheets = [];
  window.addEventListener("submit", () => {
    window.benchTapped = performance.now();
    window.benchTaps.push(window.benchTapped);
  }, true);
  new MutationObserver(() => window.benchTimes.push(performance.now() - window.benchTapped))
    .observe(document.body, { attributes: true, attributeFilter: ["data-offline-checked"] });
  new MutationObserver(() => window.benchSheets.push(
    performance.now() - window.benchTaps[window.benchSheets.length]))
    .observe(document.body, { attributes: true, attributeFilter: ["data-offline-sheets"] });
}"""


#: The page's long tasks (over 50 ms each: the page's thread blocked), summed since the
#: last ``long_tasks``.
LONG_TASKS = """() => {
  window.benchLong = [];
  new PerformanceObserver((found) => found.getEntries()
    .forEach((task) => window.benchLong.push(task.duration))).observe({ type: "longtask" });
}"""


def long_tasks(page) -> float:
    return page.evaluate("() => window.benchLong.splice(0).reduce((sum, ms) => sum + ms, 0)")


def switch_on(page, game: int) -> float:
    """The switch tapped on game ``game``'s page: ms until the rules are ready and the steps
    ahead kept."""
    page.goto(f"/games/{game}")
    page.locator("input[data-keep-offline]").check()
    started = time.perf_counter()
    page.locator(".keep-offline[data-ready][data-ahead]").wait_for(state="attached")
    return (time.perf_counter() - started) * 1000


def play_offline(page) -> None:
    """The whole game, 7 hands, bids then tricks: everyone bids 0, the first takes all."""
    for number in range(1, 8):
        play_hand(page, 8 - number)
        page.wait_for_function(f"() => window.benchTimes.length === {number * 2}")


#: Times the Save tap, the phone's answer drawn online (data-local-first) and the server's.
WATCH_ONLINE = """() => {
  window.benchLocal = [];
  window.benchServer = [];
  window.addEventListener("submit", () => { window.benchTapped = performance.now(); }, true);
  new MutationObserver(() => window.benchLocal.push(performance.now() - window.benchTapped))
    .observe(document.body, { attributes: true, attributeFilter: ["data-local-first"] });
  document.addEventListener("sk:page", (event) => {
    if (event.detail && event.detail.offline) return;
    window.benchServer.push(performance.now() - window.benchTapped);
  });
}"""


def play_online(page) -> None:
    """The whole game online (everyone bids 0, the first takes all), each save's server
    answer in before the next tap."""
    saves = 0
    for number in range(1, 8):
        for kind, cards in (("bids", 0), ("tricks", 8 - number)):
            form = page.locator(f"form[data-{kind}-form]")
            order = form.locator("li.row").evaluate_all(
                "(rows) => rows.map((r) => r.dataset.player)"
            )
            for name in order:
                tap(form, name, 0)
            if cards:
                tap(form, order[0], cards)
            form.locator("[data-save]").click()
            saves += 1
            page.wait_for_function(f"() => window.benchServer.length === {saves}")


#: Times a change's Save tap to the next hand's page drawn by the phone.
WATCH_CHANGES = """() => {
  window.benchChanges = [];
  window.addEventListener("submit", () => { window.benchTapped = performance.now(); }, true);
  new MutationObserver(() => window.benchChanges.push(performance.now() - window.benchTapped))
    .observe(document.body, { attributes: true, attributeFilter: ["data-offline-changes"] });
}"""
#: The changes made, one after each hand: the panel's form and what is chosen or typed in it.
CHANGES = (
    ("sit_out", {"player": "Ben"}, {}),
    ("leave", {"player": "Cy"}, {}),
    ("join", {"score": "zero"}, {"new_player": "Hal"}),  # seven at most: after the leave
)


def table_offline(context, game: int) -> None:
    """Three changes of the table offline, each after a hand: the panel's drawing, from the
    link's tap, and the change's save, from its tap to the next hand's page."""
    page = context.new_page()
    switch_on(page, game)
    page.evaluate(WATCH_CHANGES)
    context.set_offline(True)
    page.locator(".keep-offline[data-sheet]").wait_for(state="attached")
    panels = []
    for number, (kind, chosen, typed) in enumerate(CHANGES, start=1):
        play_hand(page, int(page.locator("form[data-bids-form]").get_attribute("data-cards")))
        page.locator("form[data-bids-form]").wait_for()
        started = time.perf_counter()
        page.locator("#now a.table-link").click()
        card = page.locator(f"#change-{kind}")
        card.wait_for()
        panels.append((time.perf_counter() - started) * 1000)
        card.locator("summary").click()
        for name, value in chosen.items():
            card.locator(f'input[name="{name}"][value="{value}"]').locator("xpath=..").click()
        for name, value in typed.items():
            card.locator(f'input[name="{name}"]').fill(value)
        card.locator("button[type=submit]").click()
        page.wait_for_function(f"() => window.benchChanges.length === {number}")
    changes = page.evaluate("() => window.benchChanges")
    print(
        f"{'offline Table panel, tap to drawn':36} median {statistics.median(panels):6.1f} ms, "
        f"max {max(panels):6.1f} ms ({len(panels)} panels)"
    )
    print(
        f"{'offline change, tap to next hand':36} median {statistics.median(changes):6.1f} ms, "
        f"max {max(changes):6.1f} ms ({len(changes)} changes)"
    )
    context.set_offline(False)


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
        ids = [games.create_game(account, "oh_hell", SEVEN, OPTIONS).game.id for _ in range(5)]
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with serving(app) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        context = browser.new_context(viewport=PHONE, base_url=base, is_mobile=True, has_touch=True)
        context.set_default_timeout(120_000)
        login = context.new_page()
        log_in(login)
        first = switch_on(context.new_page(), ids[0])
        page = context.new_page()
        cached = switch_on(page, ids[1])
        ahead = page.evaluate(
            """async (game) => { const started = performance.now();
              await (await fetch(`/offline/play/${game}/ahead.json`)).json();
              return performance.now() - started; }""",
            ids[1],
        )
        print(f"{'cold start, fetched from the app':36} {first:7.0f} ms")
        print(f"{'cold start, from the cache':36} {cached:7.0f} ms")
        print(f"{'steps ahead (15 pages, 7 corrections)':36} {ahead:7.0f} ms")
        with app.app_context():
            version = db.session.get(Game, ids[1]).version
        page.evaluate(WATCH)
        page.evaluate(LONG_TASKS)
        context.set_offline(True)
        started = time.perf_counter()  # the sheet's drawing is made ready once the link drops
        page.locator(".keep-offline[data-sheet]").wait_for(state="attached")
        warmed = (time.perf_counter() - started) * 1000
        print(f"{'the sheet ready, after the link drops':36} {warmed:7.0f} ms")
        print(f"{'  the page thread blocked meanwhile':36} {long_tasks(page):7.0f} ms")
        play_offline(page)
        print(f"{'  the page thread blocked, 14 saves':36} {long_tasks(page):7.0f} ms")
        taps = sorted(page.evaluate("() => window.benchTimes"))
        print(
            f"{'offline save, tap to totals':36} median {statistics.median(taps):6.1f} ms, "
            f"max {taps[-1]:6.1f} ms ({len(taps)} saves)"
        )
        page.wait_for_function(f"() => window.benchSheets.length === {len(taps)}")
        sheets = sorted(page.evaluate("() => window.benchSheets"))
        print(
            f"{'offline save, tap to sheet':36} median {statistics.median(sheets):6.1f} ms, "
            f"max {sheets[-1]:6.1f} ms ({len(sheets)} sheets)"
        )
        started = time.perf_counter()
        context.set_offline(False)
        while True:
            with app.app_context():
                now = db.session.get(Game, ids[1]).version
            if now >= version + len(taps):
                break
            if time.perf_counter() - started > 60:
                sys.exit(f"only {now - version} of {len(taps)} saves reached the server in 60 s")
            time.sleep(0.01)
        synced = (time.perf_counter() - started) * 1000
        print(f"{'sync of 7 offline hands (14 saves)':36} {synced:7.0f} ms")
        port = int(base.rsplit(":", 1)[1])
        with SlowLink(("127.0.0.1", port)) as link:
            # A slow link: a proxy that delays each direction (slow_link.py), so the server's
            # time adds to it; another origin (the proxy's port), so logged in again there.
            slow = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{link.port}",
                                       is_mobile=True, has_touch=True)  # fmt: skip
            slow.set_default_timeout(120_000)
            log_in(slow.new_page())
            for on, game, said in (
                (context, ids[2], "online save, local first, loopback"),
                (slow, ids[3], f"online save, local first, {ROUND_TRIP * 1000:.0f} ms"),
            ):
                online = on.new_page()
                switch_on(online, game)
                online.evaluate(WATCH_ONLINE)
                play_online(online)
                local = sorted(online.evaluate("() => window.benchLocal"))
                server = sorted(online.evaluate("() => window.benchServer"))
                print(
                    f"{said:36} median {statistics.median(local):6.1f} ms, "
                    f"max {local[-1]:6.1f} ms ({len(local)} of {len(server)} saves answered "
                    "first)"
                )
                print(
                    f"{'  server answer, tap to page':36} median "
                    f"{statistics.median(server):6.1f} ms, max {server[-1]:6.1f} ms"
                )
            slow.close()
        table_offline(context, ids[4])
        browser.close()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

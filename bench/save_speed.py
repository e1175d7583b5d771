"""Bench: how fast a saved hand reaches the totals, in Chromium at 390x844.

A 7-player Oh Hell game is played on the game page against gunicorn (2 workers, SQLite).
For every save the time from the tap on Save to the updated page is measured in the page
(the in-place save announces itself with the ``sk:page`` event), and, interleaved with it in
the same run, its floor: a ``fetch()`` of a static file of the same size from the same server
followed by the same DOM update. Then the same on a slow phone link (150 ms round trip,
1.6 Mbps each way): a delaying proxy between Chromium and gunicorn (``slow_link.py``), so that
the server's time adds to the link's as on a real network (Chromium's own emulation holds each
answer until its latency has passed since the request, and so hid up to 150 ms of server
time). Prints median and p95 of each, and their ratio; then where the medians go: before the
request leaves, from the request sent to its answer's first byte (the server's time, and on the
slow link the round trip), the answer's body, and the page's update after it (the browser's
Resource Timing of each save and floor).

The service worker is kept out of the bench: a save never goes through it, and the floor
should not either.

``--games`` plays that many games on each link, one after the other, their saves taken
together (the median of 24 saves moved between 1.57x and 1.83x from run to run).

    .venv/bin/python bench/save_speed.py [--hands 10] [--games 1]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
BIN = Path(sys.executable).parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update"]  # fmt: skip
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]  # 7: the figures quoted
PASSWORD = "correct horse battery"

#: In the page, after a save or a floor: the parts of its time (ms) from the Resource Timing of
#: its request (the last one whose address holds ``part``): before the request left, to its
#: answer's first byte, the body, and after it to ``ended``.
PARTS = """([part, started, ended]) => {
  const e = performance.getEntriesByType("resource").filter((r) => r.name.includes(part)).pop();
  performance.clearResourceTimings();
  return [e.requestStart - started, e.responseStart - e.requestStart,
          e.responseEnd - e.responseStart, ended - e.responseEnd];
}"""

#: In the page: tap Save, resolve when the page announces the swapped-in answer.
SAVE = """async () => {
  const done = new Promise((ok) => document.addEventListener("sk:page", ok, {once: true}));
  const started = performance.now();
  document.querySelector("[data-save]").click();
  await done;
  const ended = performance.now();
  return [started, ended];
}"""
#: In the page: the floor: fetch a static file of that size, then the same DOM update.
FLOOR = """async (url) => {
  const main = document.getElementById("main");
  const html = main.innerHTML;
  const started = performance.now();
  const response = await fetch(url, {cache: "no-store"});
  await response.text();
  main.innerHTML = html;
  document.dispatchEvent(new CustomEvent("sk:page"));
  const ended = performance.now();
  return [started, ended];
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def serve(folder: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "INSTANCE_PATH": folder, "SECRET_KEY": "bench", "FLASK_APP": "app"}
    env.pop("DATABASE_URL", None)
    subprocess.run([str(BIN / "flask"), "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "--workers", "2", "--bind", f"127.0.0.1:{port}", "app:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def play(page, floor_file, floor_url, wire, hands) -> tuple[list, list]:
    """Save ``hands`` hands' bids and tricks; each save followed by its floor: a static file
    as large as the answers so far (incompressible random bytes). Each a ``(ms, parts)``."""
    saves, floors = [], []
    for number in range(1, hands + 1):
        first = PLAYERS[number % len(PLAYERS)]
        # The cards this hand deals: the highest bid the form offers.
        cards = page.evaluate(
            "Math.max(...[...document.querySelectorAll('form[data-bids-form] "
            'input[name="bid-0"]\')].map((box) => Number(box.value)))'
        )
        for form in ("data-bids-form", "data-tricks-form"):
            prefix = "bid" if form == "data-bids-form" else "trick"
            for seat, name in enumerate(PLAYERS):
                # Everyone bids 0 (the hook forbids bids that add up to the cards), then one
                # player takes every trick.
                value = cards if name == first and prefix == "trick" else 0
                page.locator(f'form[{form}] input[name="{prefix}-{seat}"][value="{value}"]') \
                    .check(force=True)  # fmt: skip
            started, ended = page.evaluate(SAVE)
            saves.append((ended - started, page.evaluate(PARTS, ["/hands", started, ended])))
            if len(wire) == 1 or len(saves) % 5 == 0:
                floor_file.write_bytes(os.urandom(int(statistics.median(wire))))
            started, ended = page.evaluate(FLOOR, floor_url)
            floors.append((ended - started, page.evaluate(PARTS, ["bench-floor", started, ended])))
    return saves, floors


def signed_in(browser, base: str, new: bool):
    """A phone's page on ``base``, signed up (``new``) or logged in, and an API token."""
    # No service worker: a save does not go through it (it lets every write through to the
    # network), and the floor's static file should not either.
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base,
                                  is_mobile=True, has_touch=True,
                                  service_workers="block")  # fmt: skip
    page = context.new_page()
    page.goto("/signup" if new else "/login")
    page.get_by_label("Username").fill("speed-club")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    if new:
        page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up" if new else "Log in").click()
    page.wait_for_url(lambda url: "/signup" not in url and "/login" not in url)
    basic = base64.b64encode(f"speed-club:{PASSWORD}".encode()).decode()
    token = page.request.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"}).json()[
        "token"
    ]
    return page, token


def measured(page, token: str, label: str, hands: int) -> tuple:
    """A new game played on ``page``: its saves and floors, the page's size and the answers'
    median size over the wire (compressed)."""
    game = page.request.post(
        "/api/v1/games",
        # Up and down again: 13 hands at 7 players (down alone ends after 7).
        data=json.dumps(
            {"game": "oh_hell", "players": PLAYERS, "options": {"sequence": "up-down"}}
        ),  # fmt: skip
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    ).json()
    page.goto(f"/games/{game['id']}")
    size = page.evaluate("document.getElementById('main').innerHTML.length")
    wire: list[int] = []  # each save's answer, bytes over the wire (compressed)
    page.on(
        "response",
        lambda r: (
            wire.append(int(r.headers.get("content-length", 0))) if "/hands" in r.url else None
        ),
    )
    page.request.get(f"/games/{game['id']}")  # warm the workers up
    floor_file = ROOT / "static" / "bench-floor.html"
    floor_file.write_bytes(os.urandom(5_000))
    try:
        saves, floors = play(page, floor_file, f"/static/bench-floor.html?r={label}", wire, hands)
    finally:
        floor_file.unlink(missing_ok=True)
    return saves, floors, size, int(statistics.median(wire))


def played(page, token: str, label: str, args) -> tuple:
    """``args.games`` games measured on ``page``, their saves and floors taken together."""
    runs = [measured(page, token, label, args.hands) for _ in range(args.games)]
    saves = [save for run in runs for save in run[0]]
    floors = [floor for run in runs for floor in run[1]]
    return saves, floors, runs[-1][2], int(statistics.median(run[3] for run in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10, help="hands played in each game")
    parser.add_argument("--games", type=int, default=1, help="games played on each link")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from slow_link import RATE
    from slow_link import ROUND_TRIP
    from slow_link import SlowLink

    folder = tempfile.mkdtemp(prefix="scorekeeper-speed-")
    port = free_port()
    server = serve(folder, port)
    results = {}
    try:
        with (
            sync_playwright() as playwright,
            SlowLink(("127.0.0.1", port)) as link,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page, token = signed_in(browser, f"http://127.0.0.1:{port}", new=True)
            results["loopback"] = played(page, token, "loopback", args)
            # Another origin (the proxy's port): logged in again there.
            page, token = signed_in(browser, f"http://127.0.0.1:{link.port}", new=False)
            results["slow link"] = played(page, token, "slow", args)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"Scorekeeper: tap on Save to the updated page (in-place save), Chromium 390x844, "
        f"{len(PLAYERS)} players; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"  (slow link: a proxy holding each direction {ROUND_TRIP * 500:.0f} ms, "
        f"{RATE * 8 / 1e6:.1f} Mbps: the server's time adds to it)"
    )
    print(f"{'':<12}{'save med':>9}{'p95':>8}{'floor med':>10}{'p95':>8}{'ratio':>7}")
    for label, (saves, floors, size, compressed) in results.items():
        save_ms, floor_ms = [ms for ms, _ in saves], [ms for ms, _ in floors]
        ratio = statistics.median(save_ms) / statistics.median(floor_ms)
        print(
            f"{label:<12}{statistics.median(save_ms):>9.1f}{p95(save_ms):>8.1f}"
            f"{statistics.median(floor_ms):>10.1f}{p95(floor_ms):>8.1f}{ratio:>7.2f}"
            f"   ({len(saves)} saves; answer {size:,} chars, {compressed:,} B compressed)"
        )
    print("where the time goes (medians, ms): before the request, to the first byte, the body, "
          "the page's update")  # fmt: skip
    for label, (saves, floors, _size, _compressed) in results.items():
        for kind, runs in (("save", saves), ("floor", floors)):
            parts = [
                statistics.median(column) for column in zip(*(p for _, p in runs), strict=True)
            ]
            print(f"  {label + ' ' + kind:<16}" + "".join(f"{part:>9.1f}" for part in parts))


if __name__ == "__main__":
    main()

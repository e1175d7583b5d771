"""Bench: how fast a saved hand reaches the totals, in Chromium at 390x844.

A 7-player Oh Hell game is played on the game page against gunicorn (2 workers, SQLite).
For every save the time from the tap on Save to the updated page is measured in the page
(the in-place save announces itself with the ``sk:page`` event), and, interleaved with it in
the same run, its floor: a ``fetch()`` of a static file of the same size from the same server
followed by the same DOM update. Then the same on Chromium's emulated slow phone link (150 ms
latency, 1.6 Mbps). Prints median and p95 of each, and their ratio.

The slow link's figures are Chromium's emulation, not a network: it holds each answer until
the emulated latency has passed since the request, rather than adding the latency to the
server's time, so up to 150 ms of server time is hidden in it (a probe with 60 ms of extra
server time showed no difference). Read the slow-link row as what a phone would see at best,
and the loopback row for the server's own part. The service worker is kept out of the bench:
Chromium's emulation does not slow the worker's own fetches, so a floor fetched through it
looked faster than the link (24 ms at 150 ms of latency), and a save never goes through it.

    .venv/bin/python bench/save_speed.py [--hands 10]
"""

from __future__ import annotations

import argparse
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
BIN = Path(sys.executable).parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update"]  # fmt: skip
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]  # 7: the figures quoted
SLOW = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 200_000,
    "uploadThroughput": 200_000,
}

#: In the page: tap Save, resolve when the page announces the swapped-in answer.
SAVE = """async () => {
  const done = new Promise((ok) => document.addEventListener("sk:page", ok, {once: true}));
  const started = performance.now();
  document.querySelector("[data-save]").click();
  await done;
  return [performance.now() - started, document.getElementById("main").innerHTML.length];
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
  return performance.now() - started;
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


def play(page, floor_file, floor_url, wire, hands) -> tuple[list[float], list[float]]:
    """Save ``hands`` hands' bids and tricks; each save followed by its floor: a static file
    as large as the answers so far (incompressible random bytes)."""
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
            elapsed, _size = page.evaluate(SAVE)
            saves.append(elapsed)
            if len(wire) == 1 or len(saves) % 5 == 0:
                floor_file.write_bytes(os.urandom(int(statistics.median(wire))))
            floors.append(page.evaluate(FLOOR, floor_url))
    return saves, floors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="scorekeeper-speed-")
    port = free_port()
    server = serve(folder, port)
    base = f"http://127.0.0.1:{port}"
    floor_file = ROOT / "static" / "bench-floor.html"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            # No service worker: the floor's static file went through it, and Chromium's
            # emulated link does not slow the worker's own fetches (the slow link's floor was
            # 24 ms at 150 ms of latency). A save does not go through it either (it lets every
            # write through to the network).
            context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base,
                                          is_mobile=True, has_touch=True,
                                          service_workers="block")  # fmt: skip
            page = context.new_page()
            page.goto("/signup")
            page.get_by_label("Username").fill("speed-club")
            page.get_by_label("Password", exact=True).fill("correct horse battery")
            page.get_by_label("Password again").fill("correct horse battery")
            page.get_by_role("button", name="Sign up").click()
            token = page.request.post(
                "/api/v1/tokens",
                headers={"Authorization": "Basic c3BlZWQtY2x1Yjpjb3JyZWN0IGhvcnNlIGJhdHRlcnk="},
            ).json()["token"]
            results = {}
            for label, conditions in (("loopback", None), ("slow link", SLOW)):
                game = page.request.post(
                    "/api/v1/games",
                    # Up and down again: 13 hands at 7 players (down alone ends after 7).
                    data=json.dumps({"game": "oh_hell", "players": PLAYERS,
                                     "options": {"sequence": "up-down"}}),  # fmt: skip
                    headers={"Authorization": f"Bearer {token}",
                             "Content-Type": "application/json"},
                ).json()  # fmt: skip
                page.goto(f"/games/{game['id']}")
                size = page.evaluate("document.getElementById('main').innerHTML.length")
                wire: list[int] = []  # each save's answer, bytes over the wire (compressed)
                page.on(
                    "response",
                    lambda r, wire=wire: (
                        wire.append(int(r.headers.get("content-length", 0)))
                        if "/hands" in r.url
                        else None
                    ),
                )
                page.request.get(f"/games/{game['id']}")  # warm the workers up
                floor_file.write_bytes(os.urandom(5_000))
                cdp = None
                if conditions:
                    cdp = context.new_cdp_session(page)
                    cdp.send("Network.enable")
                    cdp.send("Network.emulateNetworkConditions", conditions)
                saves, floors = play(page, floor_file, f"/static/bench-floor.html?r={label}",
                                     wire, args.hands)  # fmt: skip
                compressed = int(statistics.median(wire))
                if cdp:
                    cdp.send("Network.emulateNetworkConditions",
                             {"offline": False, "latency": 0, "downloadThroughput": -1,
                              "uploadThroughput": -1})  # fmt: skip
                results[label] = (saves, floors, size, compressed)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        floor_file.unlink(missing_ok=True)
    print(
        f"Scorekeeper: tap on Save to the updated page (in-place save), Chromium 390x844, "
        f"{len(PLAYERS)} players; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print("  (slow link: Chromium's emulation, which hides up to its latency of server time)")
    print(f"{'':<12}{'save med':>9}{'p95':>8}{'floor med':>10}{'p95':>8}{'ratio':>7}")
    for label, (saves, floors, size, compressed) in results.items():
        ratio = statistics.median(saves) / statistics.median(floors)
        print(
            f"{label:<12}{statistics.median(saves):>9.1f}{p95(saves):>8.1f}"
            f"{statistics.median(floors):>10.1f}{p95(floors):>8.1f}{ratio:>7.2f}"
            f"   ({len(saves)} saves; answer {size:,} chars, {compressed:,} B compressed)"
        )


if __name__ == "__main__":
    main()

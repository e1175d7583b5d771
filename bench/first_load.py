"""Bench: what the first load of a game page costs over the wire, compressed as a browser asks
for it, with the headers the app writes: the page and its stylesheet and script (what
issue 26's 15 KB counts, as tests/e2e/test_phone_offline.py measures it in Chromium), and
apart the pictures it links (its icon; the home-screen icon, fetched only when the app is
installed); each file once, however often the page names it. For a 7-player Oh Hell game at
hand 7 and a 200-round Gin game. Run with ``.venv/bin/python bench/first_load.py``."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from scorekeeper.services import games  # noqa: E402

BROWSER = {"Accept-Encoding": "br, gzip"}
SEVEN = ["Ann", "Ben", "Cyrus", "Dee", "Eve", "Fay", "Gus"]


def header_bytes(answer) -> int:
    """The bytes of an answer's headers as the app writes them ("Name: value" and CRLF each;
    the server adds its status line, Date and Server: about 100 B more on HTTP/1.1)."""
    return sum(len(f"{name}: {value}\r\n".encode()) for name, value in answer.headers.items())


def weigh(client, url: str) -> tuple[int, int, int, list[str]]:
    """Bytes over the wire (compressed) and uncompressed, the headers', and the assets the
    page links."""
    packed = client.get(url, headers=BROWSER)
    raw = client.get(url)
    assets = list(dict.fromkeys(re.findall(r'(?:href|src)="(/static/[^"]+)"', raw.text)))
    return len(packed.data), len(raw.data), header_bytes(packed), assets


def main() -> None:
    folder = tempfile.mkdtemp(prefix="scorekeeper-first-load-")
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db",
            "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade()
        account = accounts.create_account("bench-club", "bench password")
        seven = games.create_game(account, "oh_hell", SEVEN)
        for number in range(1, 7):
            said = {name: (number if name == SEVEN[number % 7] else 0) for name in SEVEN}
            games.record_hand(
                games.get_game(account, seven.game.id), {"bids": said, "tricks": said}
            )
        gin = games.create_game(account, "oklahoma_gin", ["Ann", "Ben"], {"target": 1000})
        for number in range(200):
            entry = {"upcard": "7", "result": "knock", "knocker": "Ann" if number % 2 else "Ben",
                     "knocker_deadwood": 2, "opponent_deadwood": 4}  # fmt: skip
            games.record_hand(games.get_game(account, gin.game.id), entry)
        ids = (seven.game.id, gin.game.id)
        db.session.remove()
    client = app.test_client()
    client.post("/login", data={"username": "bench-club", "password": "bench password"})
    for label, game_id in (("7-player Oh Hell, hand 7", ids[0]), ("200-round Gin", ids[1])):
        packed, raw, headers, assets = weigh(client, f"/games/{game_id}")
        total = packed
        print(f"{label}: page {packed:,} B over the wire ({raw:,} B uncompressed)", end="")
        print(f", headers {headers} B")
        pictures = 0
        for asset in assets:
            answer = client.get(asset, headers=BROWSER)
            own = header_bytes(answer)
            picture = answer.mimetype.startswith("image/")
            if picture:
                pictures += len(answer.data) + own
            else:
                total += len(answer.data)
                headers += own
            mark = "  (a picture: not counted)" if picture else ""
            print(f"  {asset.split('?')[0]:<34} {len(answer.data):>7,} B  headers {own} B{mark}")
            answer.close()
        print(
            f"  first load (page, stylesheet, script): {total:,} B, with the app's headers "
            f"{total + headers:,} B ({(total + headers) / 1024:.1f} KiB; the server's status "
            "lines, Date and Server come on top: about 100 B an answer)"
        )
        print(f"  the pictures it links, with their headers: {pictures:,} B")


if __name__ == "__main__":
    main()

"""bench/slow_link.py: the slow phone link bench/save_speed.py puts between Chromium and the
server. Each answer comes a round trip after its request, later by the server's own time
(which Chromium's emulation hid) and by its size over the link's rate; the bytes arrive
whole and in order."""

from __future__ import annotations

import http.client
import http.server
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from slow_link import SlowLink  # noqa: E402

ROUND_TRIP = 0.1
RATE = 100_000  # bytes per second
SERVER_TIME = 0.08
BIG = bytes(range(256)) * 80  # 20,480 bytes: 0.2 s at RATE


class Answers(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # kept alive

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/slow":
            time.sleep(SERVER_TIME)
        answer = BIG if self.path == "/big" else body[::-1]
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def link():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with SlowLink(("127.0.0.1", server.server_port), ROUND_TRIP, RATE) as slow:
            yield slow
    finally:
        server.shutdown()
        server.server_close()


def timed(connection: http.client.HTTPConnection, path: str, body: bytes) -> tuple[float, bytes]:
    started = time.perf_counter()
    connection.request("POST", path, body=body)
    answer = connection.getresponse().read()
    return time.perf_counter() - started, answer


def test_each_answer_waits_a_round_trip_and_the_first_a_handshake_more(link):
    connection = http.client.HTTPConnection("127.0.0.1", link.port, timeout=10)
    first, answer = timed(connection, "/", b"bid 3")
    assert answer == b"3 dib"
    assert first >= 2 * ROUND_TRIP
    second, answer = timed(connection, "/", b"tricks 2")
    assert answer == b"2 skcirt"
    assert ROUND_TRIP <= second < first
    connection.close()


def test_the_servers_time_adds_to_the_round_trip(link):
    connection = http.client.HTTPConnection("127.0.0.1", link.port, timeout=10)
    timed(connection, "/", b"warm")  # the handshake
    slow, answer = timed(connection, "/slow", b"hand 4")
    assert answer == b"4 dnah"
    assert slow >= ROUND_TRIP + SERVER_TIME
    connection.close()


def test_a_large_answer_comes_at_the_links_rate_whole_and_in_order(link):
    connection = http.client.HTTPConnection("127.0.0.1", link.port, timeout=10)
    timed(connection, "/", b"warm")
    elapsed, answer = timed(connection, "/big", b"")
    assert answer == BIG
    assert elapsed >= ROUND_TRIP + len(BIG) / RATE
    connection.close()

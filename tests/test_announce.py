"""`make run` says where a phone at the table can open the app, once it answers."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("announce", ROOT / "tools" / "announce.py")
announce = importlib.util.module_from_spec(spec)
spec.loader.exec_module(announce)


def test_on_every_network_the_phones_get_the_network_address():
    said = announce.lines("0.0.0.0", 5000, ["192.0.2.7"])
    assert said == [
        "Scorekeeper is ready on this computer: http://127.0.0.1:5000/",
        "On a phone on the same network: http://192.0.2.7:5000/",
    ]


def test_on_loopback_it_says_how_to_let_the_phones_in():
    said = announce.lines("127.0.0.1", 8000, ["192.0.2.7"])
    assert said[0].endswith("http://127.0.0.1:8000/")
    assert "make run HOST=0.0.0.0" in said[1]
    assert "192.0.2.7" not in " ".join(said)


def test_the_addresses_are_this_computer_s_own_without_loopback():
    addresses = announce.network_addresses()
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in addresses)


def test_make_run_announces_once_the_app_answers():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert "tools/announce.py" in run and "flask run" in run


def test_on_one_address_of_its_own_the_phones_get_that_address():
    said = announce.lines("192.0.2.7", 5000, ["192.0.2.7", "198.51.100.3"])
    assert said == [
        "Scorekeeper is ready on this computer: http://192.0.2.7:5000/",
        "On a phone on the same network: http://192.0.2.7:5000/",
    ]
    assert announce.lines("::", 5000, [])[0].endswith("http://[::1]:5000/")


def test_it_speaks_once_the_server_answers_and_not_before(app):
    """tools/announce.py as `make run` starts it: nothing said while the app does not answer
    yet, the addresses once it does."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waiting = subprocess.Popen(
        [sys.executable, str(ROOT / "tools" / "announce.py"), "127.0.0.1", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)
        assert waiting.poll() is None, "it spoke before the app answered"
        server = make_server("127.0.0.1", port, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            out, err = waiting.communicate(timeout=20)
        finally:
            server.shutdown()
            thread.join(timeout=5)
            server.server_close()
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    assert out.splitlines() == announce.lines("127.0.0.1", port, [])


def test_start_here_says_that_the_phones_need_host_0_0_0_0():
    readme = (ROOT / "README.md").read_text()
    start_here = readme[readme.index("## Start here") :].split("\n## ")[0]
    assert "make run\nHOST=0.0.0.0" in start_here or "make run HOST=0.0.0.0" in start_here
    assert "On a phone on the same network:" in start_here

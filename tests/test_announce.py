"""`make run` says where a phone at the table can open the app, once it answers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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

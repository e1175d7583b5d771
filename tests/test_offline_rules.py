"""The phone's copy of the rules, as the app serves it: the bundle holds every installed game's
rules and what they import, nothing of the app above the rules, and each language's words;
the runtime's files are served and nothing else from its folder."""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile

from scorekeeper.games import INSTALLED
from scorekeeper.views import offline_rules


def test_the_bundle_holds_the_rules_of_every_game_and_the_languages(client):
    answer = client.get("/offline/rules.zip")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    names = set(zipfile.ZipFile(io.BytesIO(answer.data)).namelist())
    for key in INSTALLED:
        assert f"scorekeeper/games/{key}/rules.py" in names
    assert "scorekeeper/games/portable.py" in names
    # Nothing above the rules but each game's form reader (the phone reads the entry form as
    # the server does: portable.save): no view, service, model, schema or plug-in.
    assert not [name for name in names if name.endswith(("schema.py", "plugin.py"))]
    for key in INSTALLED:
        if (offline_rules.PACKAGE / "games" / key / "form.py").is_file():
            assert f"scorekeeper/games/{key}/form.py" in names
    assert not [
        name
        for name in names
        if name.startswith("scorekeeper/")
        and "/games/" not in name
        and name != "scorekeeper/__init__.py"
    ]
    words = json.loads(zipfile.ZipFile(io.BytesIO(answer.data)).read("languages/languages.json"))
    assert set(words) == {"bn", "lo", "su"}
    assert words["bn"]["digits"] == "০১২৩৪৫৬৭৮৯" and words["su"]["digits"] is None
    assert "{0}" in words["lo"]["patterns"]["2"]


def test_the_bundle_is_the_same_bytes_each_time(app):
    offline_rules.bundle.cache_clear()
    first = offline_rules.bundle()
    offline_rules.bundle.cache_clear()
    assert offline_rules.bundle() == first


def test_only_the_runtime_files_are_served(app, client):
    with app.app_context():
        installed = offline_rules.available()
    for name in ("package.json", "../package.json", "console.html", "pyodide.js.map"):
        assert client.get(f"/offline/pyodide/{name}").status_code == 404
    answer = client.get("/offline/pyodide/pyodide.asm.wasm")
    assert answer.status_code == (200 if installed else 404)
    if installed:
        assert answer.mimetype == "application/wasm"
        answer.close()


def test_the_sheet_bundle_holds_jinja_the_sheets_templates_and_no_compiled_code(client):
    """``sheet.zip``: the sheet's drawing (``games.pages``), Jinja and MarkupSafe as pure
    Python with their licences (no C speedups, nothing the phone cannot import), and the
    templates every installed game's sheet is drawn by; nothing of the app above the games."""
    with client.application.test_request_context():
        url = offline_rules.urls()["sheet"]
    answer = client.get(url)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    names = set(zipfile.ZipFile(io.BytesIO(answer.data)).namelist())
    assert {"scorekeeper/games/pages.py", "scorekeeper/games/sheet.py"} <= names
    assert {"jinja2/environment.py", "jinja2/LICENSE.txt", "markupsafe/_native.py"} <= names
    assert not [name for name in names if not name.endswith((".py", ".html", ".txt"))]
    assert "scorekeeper/games/portable.py" not in names  # in the rules' bundle
    for key in INSTALLED:
        assert f"templates/games/{key}/_sheet.html" in names
    assert "templates/games/_macros.html" in names
    assert not [n for n in names if n.startswith("scorekeeper/") and "/games/" not in n]


def test_the_modules_are_read_one_thread_at_a_time(monkeypatch):
    """Two first requests after a start make the bundles in two threads at once: Python 3.11's
    ``ast.parse`` then fails now and then ("AST constructor recursion depth mismatch", a 500
    on ``play.json`` in a CI run), so the modules are parsed one at a time. Four threads read
    the rules' modules together; never two parses at once."""
    inside = {"now": 0, "most": 0}
    watch = threading.Lock()
    parse = offline_rules.ast.parse

    def slow_parse(source, *args, **kwargs):
        with watch:
            inside["now"] += 1
            inside["most"] = max(inside["most"], inside["now"])
        time.sleep(0.002)  # long enough for another thread to come in if it may
        try:
            return parse(source, *args, **kwargs)
        finally:
            with watch:
                inside["now"] -= 1

    monkeypatch.setattr(offline_rules.ast, "parse", slow_parse)
    found: list[int] = []
    threads = [
        threading.Thread(target=lambda: found.append(len(offline_rules.rules_modules())))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4 and len(set(found)) == 1 and found[0] > 10
    assert inside["most"] == 1

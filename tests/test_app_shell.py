"""The installable app as the server gives it: the web manifest in each language, the service
worker's script (its precache list made from the static files themselves), the offline page,
the content security policy that lets the worker in, and the static files made small once."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
from pathlib import Path

import brotli
import pytest

from scorekeeper.games import FAMILIES
from scorekeeper.games import GAMES
from scorekeeper.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
APP_CSS = (ROOT / "static" / "css" / "app.css").read_text()


def css_colour(name: str) -> str:
    """The light theme's value of the custom property ``--name`` in app.css."""
    return re.search(rf"--{name}:\s*(#[0-9a-f]+);", APP_CSS).group(1)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def fetched(client, url: str):
    answer = client.get(url)
    data = answer.get_data()
    answer.close()
    return answer, data


def worker_config(client) -> dict:
    script = client.get("/sw.js").text
    return json.loads(re.search(r"^const CONFIG = (\{.*\});$", script, re.M).group(1))


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_manifest_names_the_app_in_the_pages_language_with_real_icons(client, code):
    answer = client.get(f"/manifest.webmanifest?lang={code}")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    assert answer.headers["Cache-Control"] == "no-cache"
    manifest = answer.get_json(force=True)
    english = client.get("/manifest.webmanifest?lang=en").get_json(force=True)
    assert manifest["lang"] == code
    assert manifest["name"] and manifest["short_name"] and len(manifest["short_name"]) <= 12
    if code != "en":  # translated: the short name and the description in the reader's words
        assert manifest["short_name"] != english["short_name"]
        assert manifest["description"] != english["description"]
    assert manifest["display"] == "standalone"
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == ("/", "/", "/")
    assert manifest["theme_color"] == css_colour("topbar")
    assert manifest["background_color"] == css_colour("bg")
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {(icon["sizes"], icon["purpose"]) for icon in pngs} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    }
    for icon in pngs:
        image, data = fetched(client, icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png"
        side = int(icon["sizes"].split("x")[0])
        assert png_size(data) == (side, side), icon["src"]


def test_the_manifest_without_a_language_follows_the_reader(client):
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "lo"})
    assert manifest.get_json(force=True)["lang"] == "lo"


def test_every_page_links_the_manifest_the_touch_icon_and_its_colour(client):
    client.set_cookie("lang", "su")
    page = client.get("/login").text
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=su">' in page
    assert '<meta name="theme-color" content="#14532d"' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page).group(1)
    image, data = fetched(client, touch)
    assert image.status_code == 200 and png_size(data) == (180, 180)
    # The worker is registered by app.js from the address the page gives.
    assert 'data-sw="/sw.js"' in page
    assert client.get("/login").headers["Content-Language"] == "su"


def test_the_worker_script_is_served_from_the_root_never_from_a_cache(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    # Served from the root, the worker's scope is the whole app: no Service-Worker-Allowed.
    assert "Service-Worker-Allowed" not in answer.headers
    config = worker_config(client)
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    assert re.fullmatch(config["game_page"].replace("\\/", "/"), "/games/12")
    assert not re.fullmatch(config["game_page"], "/games/12/hands")


def on_disk() -> dict[str, Path]:
    """Every static file of the app and of each game and family, by the URL it is served at."""
    folders = {"/static/": ROOT / "static"}
    for key, owner in {**FAMILIES, **GAMES}.items():
        folders[f"/static/games/{key}/"] = owner.static_folder
    return {
        prefix + path.relative_to(folder).as_posix(): path
        for prefix, folder in folders.items()
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.is_file()
    }


def test_the_worker_precaches_every_static_file_by_its_hashed_url(logged_in, api):
    config = worker_config(logged_in)
    files = on_disk()
    precached = {url.split("?")[0]: url for url in config["precache"]}
    # Each game page's two packs (views/assets.py), and every file on disk.
    packs = {f"/static/packs/{key}.{extension}" for key in GAMES for extension in ("css", "js")}
    assert set(precached) == set(files) | packs
    for plain in packs:
        answer, _ = fetched(logged_in, precached[plain])
        assert answer.status_code == 200, plain
    for plain, url in ((plain, precached[plain]) for plain in files):
        digest = hashlib.sha256(files[plain].read_bytes()).hexdigest()[:10]
        assert url == f"{plain}?v={digest}"
        answer, _ = fetched(logged_in, url)
        assert answer.status_code == 200, url
    # What the pages link to is what the worker keeps (a game page's own files too).
    for name in ("Ann", "Ben", "Cy", "Dee"):
        api.post("/players", json={"name": name})
    games = [
        api.post("/games", json={"game": key, "players": ["Ann", "Ben", "Cy", "Dee"]})
        for key in ("hearts", "oh_hell")
    ]
    pages = ["/", "/players/", "/games/new"] + [f"/games/{g.json['id']}" for g in games]
    for page in pages:
        linked = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', logged_in.get(page).text))
        assert linked and linked <= set(config["precache"]), page
    # And the offline page, in each language.
    assert set(config["offline"]) == set(LANGUAGES)
    for code, url in config["offline"].items():
        page = logged_in.get(url)
        assert page.status_code == 200
        assert f'<html lang="{code}">' in page.text


def test_the_offline_page_is_the_same_for_every_reader_and_offers_no_form(client, logged_in):
    seen = client.get("/offline?lang=bn").text
    assert '<html lang="bn">' in seen
    assert "<form" not in seen  # no language switch: it could not be sent
    assert "data-kept-games" in seen and "js/offline.js" in seen
    assert "সংযোগ নেই।" in seen  # "No connection." in Bengali
    assert 'class="topnav"' not in seen


def test_the_content_security_policy_lets_the_worker_in_and_nothing_else(client):
    policy = client.get("/login").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))

    def effective(name: str) -> str:
        """The directive a browser applies for ``name`` (CSP 3's fallbacks)."""
        fallbacks = {"worker-src": ["child-src", "script-src"]}.get(name, [])
        for each in [name, *fallbacks, "default-src"]:
            if each in directives:
                return directives[each]
        return "*"

    for name in ("manifest-src", "style-src", "connect-src"):
        assert effective(name) == "'self'", name
    # Scripts (and so the worker) are the app's own; the only eval is WebAssembly's, for the
    # phone's copy of the rules (views/offline_rules.py).
    for name in ("worker-src", "script-src"):
        assert effective(name) == "'self' 'wasm-unsafe-eval'", name
    assert policy.count("unsafe") == 1 and "*" not in policy and "blob:" not in policy
    # The worker's own script obeys the same policy.
    assert client.get("/sw.js").headers["Content-Security-Policy"] == policy


def test_static_files_are_shrunk_and_compressed_once_at_the_best_level(client):
    page = client.get("/login").text
    script = re.search(r'src="(/static/js/app\.js\?v=[^"]+)"', page).group(1)
    source = (ROOT / "static" / "js" / "app.js").read_text()
    packed = client.get(script, headers={"Accept-Encoding": "br, gzip"})
    assert packed.headers["Content-Encoding"] == "br"
    text = brotli.decompress(packed.get_data()).decode()
    assert not any(line.startswith("//") for line in text.splitlines())
    assert len(text) < len(source) and "function inplaceForms()" in text
    assert len(packed.get_data()) <= len(brotli.compress(source.encode(), quality=5))
    zipped = client.get(script, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.get_data()).decode() == text
    plain = client.get(script)
    assert "Content-Encoding" not in plain.headers and plain.get_data(as_text=True) == text
    # A file goes without the headers only a document obeys; nosniff stays.
    for answer in (packed, zipped, plain):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "Content-Security-Policy" not in answer.headers
        assert "Last-Modified" not in answer.headers
    stylesheet = re.search(r'href="(/static/css/app\.css\?v=[^"]+)"', page).group(1)
    css = client.get(stylesheet, headers={"Accept-Encoding": "br"})
    shrunk = brotli.decompress(css.get_data()).decode()
    assert "/*" not in shrunk and "prefers-color-scheme:dark" in shrunk.replace(": ", ":")
    # An SVG may be opened as a document: it keeps the policy.
    icon = re.search(r'href="(/static/icon\.svg\?v=[^"]+)"', page).group(1)
    assert "Content-Security-Policy" in client.get(icon).headers

"""The URLs of the app's static files, each with its content hash (``?v=``), so that a browser
(and the service worker) may keep them for a year; and the list of every one of them, which the
service worker precaches (``views/app_shell.py``): made from the files, never kept by hand."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import current_app
from flask import url_for

from scorekeeper.games import FAMILIES
from scorekeeper.games import GAMES
from scorekeeper.views.game_assets import folder_of


@cache
def _kept_hash(path: Path) -> str:
    return _hash(path)


def _hash(path: Path) -> str:
    if not path.is_file():
        return "0"
    return hashlib.sha256(path.read_bytes()).hexdigest()[:10]


def file_hash(path: Path) -> str:
    """The first 10 hex digits of the file's SHA-256, read once (again each time in debug,
    where the files change while the app runs)."""
    return _hash(path) if current_app.debug else _kept_hash(path)


def static_url(filename: str) -> str:
    """The URL of a static file with its content hash, so it can be cached for a year."""
    path = Path(current_app.static_folder) / filename
    return url_for("static", filename=filename, v=file_hash(path))


def asset_url(kind: str, filename: str) -> str:
    """The URL of a game's or a family's own static file (``asset_url("bidding",
    "bidding.js")``), with its content hash."""
    path = folder_of(kind).static_folder / filename
    return url_for("game_assets.static", key=kind, filename=filename, v=file_hash(path))


#: What a game page loads besides its game's own files (static/), by kind, in this order: the
#: words every script reads, the app's enhancements, the sheet's corrections in place.
PACKED = {"css": ["css/app.css"], "js": ["js/words.js", "js/app.js", "js/sheet.js"]}


def pack_parts(kind: str, extension: str) -> list[Path]:
    """The files of a game page's pack (``extension``: css or js), in the order they run: the
    app's own (``PACKED``), then each family's of the game, then the game's own."""
    plugin = GAMES[kind]
    parts = [Path(current_app.static_folder) / name for name in PACKED[extension]]
    for owner in [*(folder_of(family) for family in plugin.families), plugin]:
        parts += sorted(owner.static_folder.glob(f"*.{extension}"))
    return parts


def pack_hash(kind: str, extension: str) -> str:
    """A pack's version: the hash of its parts' hashes (a part changed, the pack's URL too)."""
    hashes = "".join(file_hash(path) for path in pack_parts(kind, extension))
    return hashlib.sha256(hashes.encode()).hexdigest()[:10]


def pack_url(kind: str, extension: str) -> str:
    """The URL of a game page's stylesheet or script: one file each (``views/static_files.py``
    serves it), so a phone's first load of the page is three answers, not seven."""
    return url_for("pack", kind=kind, extension=extension, v=pack_hash(kind, extension))


def _files(folder: Path) -> list[str]:
    """The files under ``folder`` (relative, with /), hidden ones left out."""
    if not folder.is_dir():
        return []
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and not any(part.startswith(".") for part in path.parts)
    )


def every_asset_url() -> list[str]:
    """Every static file of the app, of each installed game and of each family, and each game
    page's packs, by their hashed URLs: what a page may link to."""
    urls = [static_url(name) for name in _files(Path(current_app.static_folder))]
    for key in [*FAMILIES, *GAMES]:
        urls += [asset_url(key, name) for name in _files(folder_of(key).static_folder)]
    urls += [pack_url(key, extension) for key in GAMES for extension in PACKED]
    return urls

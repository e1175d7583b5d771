"""The static files as a phone gets them: small, because a game page's first load (the page,
its stylesheets and scripts) must stay within 15 KB over the wire.

A file asked for by its hashed URL (``?v=``: it never changes under that name) is made ready
once per version and kept in memory:

- a stylesheet without its comments and runs of spaces, a script without its comment lines
  and indentation (the lines themselves stay, so no statement changes: nothing more clever
  than that, no build step);
- compressed at the best level (brotli 11, else gzip 9): Flask-Compress compresses each
  answer as it goes, at the fast level a page needs, which is the wrong trade for a file
  made once and fetched by every phone.

A game page's stylesheet and script are each one file, a pack (``views/assets.py``): the
app's own, its family's and the game's, made ready the same way at ``/static/packs/``. Every
answer costs its headers (about 350 B): three answers instead of seven, and one file
compresses better than its parts apart.

Anything else (a file without its hash, a range, a conditional request) is served as Flask
serves it.
"""

from __future__ import annotations

import gzip
import re
from functools import cache
from pathlib import Path

import brotli
from flask import Flask
from flask import abort
from flask import current_app
from flask import request
from werkzeug.security import safe_join

from scorekeeper.games import GAMES
from scorekeeper.views.assets import file_hash
from scorekeeper.views.assets import pack_hash
from scorekeeper.views.assets import pack_parts
from scorekeeper.views.game_assets import folder_of
from scorekeeper.views.security import STATIC_ENDPOINTS

#: Headers a file's answer does without: its URL names its version, and it is cached for a
#: year as immutable (``security.py``), so it is never asked for again, conditionally (no
#: ETag) or in pieces.
NEEDLESS = ("Last-Modified", "Expires", "Content-Disposition", "Accept-Ranges", "ETag")


def _css(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([{};,>])\s*", r"\1", text).strip()


def _js(text: str) -> str:
    lines = (line.strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"


SHRINK = {"text/css": _css, "text/javascript": _js}
PACKABLE = {*SHRINK, "image/svg+xml"}


@cache
def packed(path: Path, version: str, mimetype: str, encoding: str | None) -> bytes:
    """The file's bytes as served: shrunk, then compressed with ``encoding`` (br, gzip or
    None). ``version`` (its hash) keys the memory: a changed file is made ready again."""
    data = path.read_bytes()
    shrink = SHRINK.get(mimetype)
    if shrink:
        data = shrink(data.decode("utf-8")).encode("utf-8")
    return _compressed(data, encoding)


def _compressed(data: bytes, encoding: str | None) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=11)
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


#: A pack's kinds of file (``views/assets.py``, ``pack_url``).
PACK_TYPES = {"css": "text/css", "js": "text/javascript"}


@cache
def _pack(kind: str, extension: str, version: str, encoding: str | None) -> bytes:
    """A game page's pack as served: its parts shrunk one by one, joined (scripts each ended,
    as if each were a file of its own), compressed. ``version`` keys the memory."""
    shrink = SHRINK[PACK_TYPES[extension]]
    joint = ";\n" if extension == "js" else "\n"
    parts = (shrink(path.read_text("utf-8")) for path in pack_parts(kind, extension))
    return _compressed(joint.join(parts).encode("utf-8"), encoding)


def pack(kind: str, extension: str):
    """``/static/packs/<game>.css`` or ``.js``: a game page's stylesheet or script, one file
    (see ``pack_url``); cached for a year by its hashed URL (``security.py``)."""
    if kind not in GAMES:
        abort(404)
    encoding = _encoding()
    body = _pack(kind, extension, pack_hash(kind, extension), encoding)
    response = current_app.response_class(body, mimetype=PACK_TYPES[extension])
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    return response


def _path() -> Path | None:
    """The file a static answer holds."""
    filename = (request.view_args or {}).get("filename", "")
    if request.endpoint == "static":
        folder = Path(current_app.static_folder)
    else:
        owner = folder_of((request.view_args or {}).get("key", ""))
        if owner is None:
            return None
        folder = owner.static_folder
    found = safe_join(str(folder), filename)
    return Path(found) if found else None


def _encoding() -> str | None:
    accepted = request.accept_encodings
    return next((name for name in ("br", "gzip") if accepted[name]), None)


def register(app: Flask) -> None:
    """After Flask-Compress is set up: its hook runs after this one, and leaves an answer that
    is already compressed as it is."""

    app.add_url_rule("/static/packs/<kind>.<any(css,js):extension>", "pack", pack)

    @app.after_request
    def packed_static(response):
        if (
            request.endpoint not in STATIC_ENDPOINTS
            or request.endpoint == "pack"  # made ready by the view itself
            or not request.args.get("v")
            or response.status_code != 200
            or response.mimetype not in PACKABLE
        ):
            return response
        path = _path()
        if path is None or not path.is_file():
            return response
        encoding = _encoding()
        response.close()  # the file Flask opened to send it
        response.direct_passthrough = False
        response.set_data(packed(path, file_hash(path), response.mimetype, encoding))
        for name in NEEDLESS:
            response.headers.pop(name, None)
        if encoding:
            response.headers["Content-Encoding"] = encoding
        response.headers["Vary"] = "Accept-Encoding"
        return response

"""What makes the app installable and readable offline: the web manifest, the service worker
and the page it shows when there is no connection.

- ``/manifest.webmanifest?lang=xx``: the manifest in the page's language (``base.html`` links
  it with the reader's language; without ``lang``, the reader's).
- ``/sw.js``: the service worker (``templates/shell/sw.js``, written for this app: see the
  README, "Dependencies"), served from the root so that its scope is the whole app. The app
  fills in what it must know: the hashed URL of every static file (``views/assets.py``), the
  offline page in each language, the shape of a game page's address. Its version is a hash of
  all that, of its own text and of what the offline page is made of: a new release changes it,
  so the phones install the new worker, which drops the old copies of the static files.
- ``/offline?lang=xx``: the page the worker shows when a page cannot be fetched; it lists the
  game pages the phone keeps a copy of (``static/js/offline.js`` reads them from the cache).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from flask import Blueprint
from flask import Response
from flask import current_app
from flask import g
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import refresh

from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import pgettext
from scorekeeper.i18n import LANGUAGES
from scorekeeper.i18n import locale_code
from scorekeeper.i18n import time_words
from scorekeeper.views.assets import every_asset_url
from scorekeeper.views.assets import file_hash
from scorekeeper.views.assets import static_url

bp = Blueprint("app_shell", __name__)

#: The colours of the installed app: the top bar's green (``--topbar`` in app.css) for the
#: system bars, the page's background (``--bg``) for the splash screen.
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#f4f6f4"
#: The cache the worker keeps the game pages in (``offline.js`` reads it too).
PAGES_CACHE = "sk-pages"
#: The worker's cache of offline play's files (its script, a kept game's record, the rules
#: and their runtime, ``views/offline_rules.py``): a tab loaded again with no link plays on.
RULES_CACHE = "sk-rules"
#: The header of a kept copy that says when it was made (an ISO time).
KEPT_AT = "X-Kept-At"
#: How many game pages a phone keeps a copy of (the oldest copy goes first).
KEPT_PAGES = 20
#: The PNG icons (static/icons/, drawn by tools/make_icons.py): file, size, purpose.
ICONS = [
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-192.png", 192, "maskable"),
    ("icons/maskable-512.png", 512, "maskable"),
]


@bp.app_template_global()
def offline_words() -> dict[str, str]:
    """The words of an offline copy's mark ("Offline copy from 21:14"), for the scripts."""
    return {"offline_copy": _("Offline copy from %(time)s", time="{time}"), **time_words()}


def speak(code: str | None) -> None:
    """This answer in the language ``code`` (one of the app's), else the reader's."""
    if code in LANGUAGES:
        g.language = code
        for key in ("scorekeeper.locale", "scorekeeper.translations"):
            request.environ.pop(key, None)
        refresh()


@bp.app_template_global()
def outbox_words() -> dict:
    """The words of the outbox (static/js/outbox.js: a save kept on this phone while the link
    is down, sent when it is back). ``kept`` in the forms for one and for more (the app's
    languages have at most these two: English and Bengali, one and other; Sundanese and Lao,
    one form), ``{count}`` filled in by the script with the reader's digits."""
    return {
        "kept": {
            count: ngettext(
                "%(num)s save kept on this phone, not sent yet",
                "%(num)s saves kept on this phone, not sent yet",
                count,
                num="{count}",
            )
            for count in (1, 2)
        },
        "kept_note": _(
            "Kept on this phone, not sent yet: it goes as soon as the connection is back."
        ),
        "discard": _("Discard"),
        "discard_confirm": _("Discard this save? It was not sent: what it holds will be lost."),
        "keep_mine": _("Keep this phone’s"),
        "keep_mine_confirm": _(
            "Save this phone’s version of the hand over the one saved? What the other phone"
            " saved for it will be replaced."
        ),
        "refused": _("Not saved when sent: %(why)s", why="{why}"),
        "differs": _(
            "%(field)s: yours %(yours)s, saved %(saved)s",
            field="{field}",
            yours="{yours}",
            saved="{saved}",
        ),
    }


@bp.get("/manifest.webmanifest")
def manifest():
    """The web manifest: the app's name and icons in the page's language."""
    speak(request.args.get("lang"))
    code = locale_code()
    body = {
        "id": "/",
        "name": _("Scorekeeper"),
        "short_name": pgettext("the app's name under its icon", "Scores"),
        "description": _("Keep score of card games at the table, hand by hand."),
        "lang": code,
        "dir": "ltr",
        "start_url": url_for("main.home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {
                "src": static_url(name),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ]
        + [{"src": static_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = Response(
        json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


def offline_pages() -> dict[str, str]:
    """The offline page's address in each language."""
    return {code: url_for("app_shell.offline", lang=code) for code in LANGUAGES}


def game_page_pattern() -> str:
    """A regular expression (for the worker's JavaScript) of a game page's path."""
    sample = url_for("games.show", game_id=2**31 - 1)
    return "^" + re.escape(sample).replace(str(2**31 - 1), "[0-9]+") + "$"


def worker_config() -> dict:
    """What the service worker is told by the app (the ``CONFIG`` of ``shell/sw.js``)."""
    precache = every_asset_url()
    offline = offline_pages()
    # What the worker and the offline page are made of: a change of any gives a new version.
    root = Path(current_app.root_path).parent
    made_of = [
        root / "templates" / name
        for name in ("shell/sw.js", "shell/offline.html", "base.html", "_macros.html")
    ] + sorted((Path(current_app.root_path) / "translations").glob("*/LC_MESSAGES/messages.mo"))
    stamp = json.dumps([precache, offline, [file_hash(path) for path in made_of]])
    return {
        "version": hashlib.sha256(stamp.encode()).hexdigest()[:12],
        "precache": precache,
        "offline": offline,
        "default_language": "en",
        "static": url_for("static", filename=""),
        "pages": PAGES_CACHE,
        "kept_at": KEPT_AT,
        "kept_pages": KEPT_PAGES,
        "game_page": game_page_pattern(),
        "logout": url_for("auth.logout"),
        "rules": RULES_CACHE,
        "rules_path": "/offline/",
        "rules_runtime": "/offline/pyodide/",
    }


@bp.get("/sw.js")
def worker():
    """The service worker, for the whole app (served from the root: its scope is ``/``).
    Never taken from the HTTP cache: a phone sees a new release at its next page."""
    script = render_template("shell/sw.js", config=worker_config())
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()  # the browser's check at each page: "not modified", without a body
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    """The page the service worker shows when a page cannot be fetched: no connection, and
    the games this phone keeps a copy of."""
    speak(request.args.get("lang"))
    response = Response(
        render_template("shell/offline.html", pages_cache=PAGES_CACHE, kept_at=KEPT_AT)
    )
    response.headers["Cache-Control"] = "no-cache"
    return response

"""The game's rules for the phone: the Python runtime (Pyodide) and the rules package, served
by the app itself, fetched only when a phone is asked to keep a game for offline play.

- ``/offline/pyodide/<file>``: Pyodide's runtime, installed from the npm registry at build
  time (``tools/pyodide``, ``make``); never from a CDN. Only the files the runtime loads.
- ``/offline/rules.zip?v=<hash>``: ``scorekeeper/games`` as the phone runs it: the modules the
  rules of every installed game import (found by reading their imports, so a new game needs
  nothing here), ``portable`` (one call, JSON in and out), and each language's catalog with
  its digits and list patterns (what the app takes from Babel, which the phone does without).
- ``/offline/sheet.zip?v=<hash>``: what the phone draws the score sheet, the game page's main
  part and the Table panel with, fetched beside the rules: ``games.pages`` and what it
  imports beyond the rules, Jinja and MarkupSafe (pure Python, from the app's own
  environment, MarkupSafe without its C speedups) and the templates of every installed
  game's pages (each game's ``_sheet.html``, ``show.html``, ``_table_schedule.html``, the
  panel's ``games/table_changes.html`` and what they extend, import or include, found by
  reading them).

All are cached for a year under their version; the service worker keeps them.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import threading
import zipfile
from functools import cache
from importlib.metadata import files as package_files
from pathlib import Path

import jinja2
import markupsafe
from babel import Locale
from flask import Blueprint
from flask import Response
from flask import abort
from flask import current_app
from flask import jsonify
from flask import request
from flask import send_from_directory
from flask import session
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.games import INSTALLED
from scorekeeper.games import portable
from scorekeeper.games.i18n import _
from scorekeeper.games.page_context import fragment_of
from scorekeeper.games.table import Change
from scorekeeper.i18n import digits_of
from scorekeeper.i18n import locale_code
from scorekeeper.services import games
from scorekeeper.services import players as roster
from scorekeeper.services.events import Shared
from scorekeeper.services.nights import night_title
from scorekeeper.views.assets import static_url
from scorekeeper.views.games import ahead_page
from scorekeeper.views.games import edit_page
from scorekeeper.views.games import next_game
from scorekeeper.views.games import page_hidden
from scorekeeper.views.security import KEPT_A_YEAR

bp = Blueprint("offline_rules", __name__)

#: The package's folder: ``scorekeeper``.
PACKAGE = Path(__file__).resolve().parent.parent
#: What the phone imports first: the one call, and each installed game's rules; the Table
#: panel's form reader (``portable.change`` imports it when called, as it does a game's form).
ROOTS = ("scorekeeper.games.portable", "scorekeeper.games.table_form")
#: The files of Pyodide's package that its runtime loads (nothing else is served).
RUNTIME = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
YEAR = 365 * 24 * 3600


def _module_path(name: str) -> Path | None:
    parts = name.split(".")
    if parts[0] != "scorekeeper":
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


#: ``ast.parse`` one thread at a time: on Python 3.11 two at once can fail ("SystemError: AST
#: constructor recursion depth mismatch": its depth counter is shared), and the first requests
#: after a start (each game page's ``play.json``) may make the bundles in two threads at once.
PARSING = threading.Lock()


def _imports(path: Path, name: str) -> set[str]:
    """The app's modules ``path`` imports at its top level (function-level imports run only
    in the app: the rules' own imports are all at the top)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    with PARSING:
        tree = ast.parse(path.read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {each for each in found if each.startswith("scorekeeper") and _module_path(each)}


def _closure(todo: list[str]) -> dict[str, Path]:
    """The app's modules ``todo`` names, what they import, and the packages above each."""
    found: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _module_path(name)
        if path is None:
            continue
        found[name] = path
        todo.extend(_imports(path, name))
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
    return found


def rules_modules() -> dict[str, Path]:
    """Every module of the app the phone's rules need: the roots, each installed game's rules
    and form reader (the phone reads the game page's form as the server does) and what they
    import, with the packages above each of them."""
    todo = [*ROOTS]
    for key in INSTALLED:
        todo += [f"scorekeeper.games.{key}.rules", f"scorekeeper.games.{key}.form"]
    return _closure(todo)


#: What the phone draws the score sheet with, besides the rules.
SHEET_ROOTS = ("scorekeeper.games.pages",)
#: The libraries the sheet's drawing imports, shipped with it (pure Python), and the modules
#: of them it never imports.
LIBRARIES = (jinja2, markupsafe)
LEFT_OUT = {"nativetypes.py", "meta.py", "sandbox.py", "ext.py"}


def sheet_modules() -> dict[str, Path]:
    """The app's modules the sheet's drawing needs that the rules' bundle does not hold."""
    rules = rules_modules()
    return {name: path for name, path in _closure([*SHEET_ROOTS]).items() if name not in rules}


def library_files() -> dict[str, bytes]:
    """Jinja and MarkupSafe as the phone imports them: their Python files (MarkupSafe falls
    back to its pure-Python escaping without its C speedups), with their licences."""
    found: dict[str, bytes] = {}
    for library in LIBRARIES:
        folder = Path(library.__file__).parent
        for path in sorted(folder.glob("*.py")):
            if path.name not in LEFT_OUT:
                found[f"{folder.name}/{path.name}"] = path.read_bytes()
        for licence in package_files(library.__name__) or ():
            if licence.name.startswith("LICENSE"):
                found[f"{folder.name}/{licence.name}"] = licence.locate().read_bytes()
    return found


#: The templates the phone draws besides each game's own (``PAGES``): the Table panel.
SHARED_PAGES = ("games/table_changes.html",)
#: Each game's templates the phone draws (a game without one draws no such page), their
#: parts named by an expression (the panel's ``_table_schedule.html``, the page's sheet).
PAGES = ("_sheet.html", "show.html", "_table_schedule.html")


def _named(node: jinja2.nodes.Node) -> list[str]:
    """The templates an import, include or extends names as text (a list's items too)."""
    found = node.template
    items = found.items if isinstance(found, jinja2.nodes.List) else [found]
    return [item.value for item in items if isinstance(item, jinja2.nodes.Const)]


@cache
def sheet_templates() -> dict[str, str]:
    """The templates the phone draws every installed game's pages by (``games.pages``: the
    score sheet, the game page's main part, the Table panel), by name: each game's
    ``PAGES``, ``SHARED_PAGES`` and the templates they extend, import or include, read by
    the app's own loader (once a process, as the bundle is made)."""
    env = current_app.jinja_env
    todo = [f"games/{key}/{name}" for key in INSTALLED for name in PAGES] + [*SHARED_PAGES]
    kinds = (jinja2.nodes.Import, jinja2.nodes.FromImport, jinja2.nodes.Include)
    found: dict[str, str] = {}
    while todo:
        name = todo.pop()
        if name in found:
            continue
        try:
            found[name] = env.loader.get_source(env, name)[0]
        except jinja2.TemplateNotFound:
            continue
        for node in env.parse(found[name]).find_all((*kinds, jinja2.nodes.Extends)):
            todo += _named(node)
    return dict(sorted(found.items()))


def _zipped(files: dict[str, bytes]) -> tuple[bytes, str]:
    """A zip of ``files`` (name to bytes), and its version (a hash of what it holds)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(_entry(name), data)
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:10]


def _module_files(modules: dict[str, Path]) -> dict[str, bytes]:
    return {
        path.relative_to(PACKAGE.parent).as_posix(): path.read_bytes()
        for _name, path in sorted(modules.items())
    }


def _patterns(code: str) -> dict[str, str]:
    standard = Locale.parse(code).list_patterns["standard"]
    return {key: standard[key] for key in ("2", "start", "middle", "end")}


def _languages() -> dict[str, Path]:
    folder = PACKAGE / "translations"
    return {
        path.parent.parent.name: path for path in sorted(folder.glob("*/LC_MESSAGES/messages.mo"))
    }


@cache
def bundle() -> tuple[bytes, str]:
    """The zip the phone unpacks, and its version (a hash of what it holds)."""
    files = _module_files(rules_modules())
    words: dict[str, dict[str, object]] = {}
    for code, path in _languages().items():
        files[f"languages/{code}.mo"] = path.read_bytes()
        words[code] = {"digits": digits_of(code), "patterns": _patterns(code)}
    files["languages/languages.json"] = json.dumps(words, sort_keys=True).encode()
    return _zipped(files)


@cache
def sheet_bundle() -> tuple[bytes, str]:
    """The zip of the sheet's drawing (unpacked beside the rules), and its version."""
    files = _module_files(sheet_modules()) | library_files()
    for name, source in sheet_templates().items():
        files[f"templates/{name}"] = source.encode()
    return _zipped(files)


#: Where a template says ``url_for('an.endpoint'``.
LINKED = re.compile(r"""url_for\(\s*['"]([\w.]+)['"]""")
#: Where a template says ``static_url('js/a.js'``.
STATIC = re.compile(r"""static_url\(\s*['"]([\w./-]+)['"]""")
#: A rule's variable part (``<int:game_id>``), which a pattern writes ``{game_id}``.
VARIABLE = re.compile(r"<(?:[^<>:]+:)?(\w+)>")


def addresses() -> dict[str, str]:
    """The addresses the phone's templates link to, as patterns the phone fills in
    (``games.pages.url_for``): ``{"games.edit": "/games/{game_id}/hands/{number}/edit"}``."""
    return _addresses(request.script_root)


@cache
def _addresses(root: str) -> dict[str, str]:
    endpoints = {found for source in sheet_templates().values() for found in LINKED.findall(source)}
    patterns = {}
    for endpoint in sorted(endpoints):
        rule = next(iter(current_app.url_map.iter_rules(endpoint)), None)
        if rule is not None:
            patterns[endpoint] = root + VARIABLE.sub(r"{\1}", rule.rule)
    return patterns


def static_files() -> dict[str, str]:
    """The static files the phone's templates name, by their address (``static_url``)."""
    names = {found for source in sheet_templates().values() for found in STATIC.findall(source)}
    return {name: static_url(name) for name in sorted(names)}


def _entry(name: str) -> zipfile.ZipInfo:
    """A zip entry with a fixed date, so the same files give the same bytes (and version)."""
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def runtime_folder() -> Path:
    return Path(current_app.config["PYODIDE_DIR"])


def available() -> bool:
    """Whether the runtime is installed (``make`` installs it where npm is found)."""
    return (runtime_folder() / "pyodide.asm.wasm").is_file()


def urls() -> dict[str, str]:
    """What the page's script needs: where the runtime, the rules and the sheet's drawing
    are."""
    return {
        "runtime": url_for("offline_rules.runtime", filename="pyodide.mjs"),
        "rules": url_for("offline_rules.rules", v=bundle()[1]),
        "sheet": url_for("offline_rules.sheet", v=sheet_bundle()[1]),
    }


def _zip_response(made: tuple[bytes, str]):
    data, version = made
    response = Response(data, mimetype="application/zip")
    response.headers["Cache-Control"] = KEPT_A_YEAR
    response.set_etag(version)
    return response


@bp.get("/offline/rules.zip")
def rules():
    return _zip_response(bundle())


@bp.get("/offline/sheet.zip")
def sheet():
    return _zip_response(sheet_bundle())


@bp.get("/offline/pyodide/<path:filename>")
def runtime(filename: str):
    mimetype = RUNTIME.get(filename)
    if mimetype is None or not available():
        abort(404)
    response = send_from_directory(runtime_folder(), filename, mimetype=mimetype, max_age=YEAR)
    response.headers["Cache-Control"] = KEPT_A_YEAR
    return response


def _plain_entry(entry: object) -> object:
    if isinstance(entry, Change):
        return {"change": dict(entry.body), "id": entry.id}
    return entry


#: At most this many steps ahead are made (a hand of two steps, bids then tricks, takes two).
STEPS_AHEAD = 40


def _step(state) -> str:
    """Which step a game is at: its hands entered, those scored (a save that records or
    completes a hand moves it on; a correction does not), and ":over" once the game is over
    (a game whose end depends on what was entered ends where its filled-in forms did not: the
    page made ahead for that step is not its page)."""
    scored = sum(1 for hand in state.hands if hand.status == "scored")
    return f"{len(state.hands)}:{scored}" + (":over" if state.finished else "")


#: At most this many steps back are made (the hands undone on the phone, the last first).
STEPS_BACK = 8


def _correction_ahead(corrections: dict[str, str], played) -> None:
    """The correction form of the hand just scored in ``played`` (the sheet's "tap a hand's
    number"), by the page's own template, once per hand: the phone writes into it what its
    record holds for that hand (``portable.fields``)."""
    hands = played.state.hands
    if hands and hands[-1].status == "scored" and str(hands[-1].number) not in corrections:
        corrections[str(hands[-1].number)] = fragment_of(edit_page(played, hands[-1].number))


def _steps_back(game, played, raw) -> tuple[dict[str, str], dict[str, str]]:
    """The page at the step the game is at now and at the steps an undo on the phone goes
    back to (the record without its last hands), and the correction form of each hand
    scored so far: a phone playing offline undoes and corrects without the server."""
    setup, found, corrections = played.setup, {}, {}
    for gone in range(min(len(raw), STEPS_BACK) + 1):
        entries = portable.entries_of(raw[: len(raw) - gone])
        state = played.rules.play(setup, entries) if gone else played.state
        found.setdefault(
            _step(state), fragment_of(ahead_page(games.Played(game, played.plugin, setup, state)))
        )
    for hand in played.state.hands:
        if hand.status == "scored":
            corrections[str(hand.number)] = fragment_of(edit_page(played, hand.number))
    return found, corrections


@cache
def build() -> str:
    """The app's build: a hash of its code, templates and catalogs (read once per process;
    the same files give the same build in every worker)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in {".py", ".html", ".mo"} and path.is_file():
            digest.update(path.relative_to(PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


#: The answers of ``ahead`` kept in this process, by app (``app.extensions``): at most this
#: many, the least recently asked dropped first.
AHEAD_KEPT = 32


def ahead_kept() -> Shared:
    """This app's kept answers (each app its own: a test's app never sees another's)."""
    return current_app.extensions.setdefault("sk_ahead_kept", Shared(kept=AHEAD_KEPT))


def _ahead_key(game) -> str:
    """What an answer of ``ahead`` is made from besides the game's version: its reader (the
    account and the session's CSRF secret, which the answer's forms carry), the language,
    the names shown (a roster rename leaves the version as it is) and the app's build. A
    hash: the ETag says nothing of what it is made from."""
    parts = [
        str(current_user.get_id()),
        str(session.get("csrf_token", "")),
        str(game.id),
        str(game.version),
        locale_code(),
        json.dumps(list(game.members)),
        build(),
    ]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def _ahead_response(body: bytes, key: str):
    response = Response(body, mimetype="application/json")
    response.set_etag(key, weak=True)
    # Per account: kept by no shared cache; the phone's own asks again each time (304 when
    # the game has not moved).
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Cookie"
    return response.make_conditional(request)


@bp.get("/offline/play/<int:game_id>/ahead.json")
@login_required
def ahead(game_id: int):
    """The game page's steps ahead (``make_ahead``), the same answer for the same game's
    version, reader and language made once: kept in this process (``ahead_kept``), with a
    weak ETag, so a phone that asks again for a game that has not moved gets a 304."""
    game = games.get_game(current_user, game_id)
    key = _ahead_key(game)
    if request.if_none_match.contains_weak(key):
        return _ahead_response(b"", key)
    # Kept under the key as it is once made: a first render may have started the session's
    # CSRF secret, which the key holds.
    body = ahead_kept().get(
        key, lambda: make_ahead(game).get_data(), keep_as=lambda _body: _ahead_key(game)
    )
    return _ahead_response(body, _ahead_key(game))


def make_ahead(game):
    """The game page's entry at each step still to come, rendered by the page's own templates,
    for a phone playing offline: by step (``_step``), the main part of the page the game would
    show after it (its hand's head and forms are what the phone takes, marked ``data-step``).
    Each step is reached by a form the game fills in itself (its form module's ``sample``, any
    entry its rules take): the phone writes in what was really entered and the totals its own
    rules worked out. A game without ``sample`` has no steps ahead."""
    played = games.played(game)
    sample = getattr(played.plugin.form, "sample", None)
    setup = played.setup
    base = {
        "game": game.kind,
        "players": list(setup.players),
        "options": dict(setup.options),
        "first_dealer": setup.first_dealer,
        "members": list(game.members),
    }
    raw = portable.plain([_plain_entry(entry) for entry in games.entries_of(game, setup)])
    state, found, corrections = played.state, {}, {}
    if sample:
        found, corrections = _steps_back(game, played, raw)
    more = False
    for _step_number in range(STEPS_AHEAD if sample else 0):
        now = games.Played(game, played.plugin, setup, state)
        filled = sample(state, now.players)
        if filled is None:
            break
        phase, fields = filled
        members = list(game.members)
        fields["seats"] = ",".join(str(members.index(name)) for name in now.players)
        current = state.current
        number = current.number if current else (state.next or {}).get("number")
        answer = portable.save(
            {
                **base,
                "entries": raw,
                "action": "update" if current else "record",
                "number": number,
                "phase": phase,
                "form": fields,
            }
        )
        if "refused" in answer:
            break
        raw = answer["entries"]
        state = played.rules.play(setup, portable.entries_of(raw))
        after = games.Played(game, played.plugin, setup, state)
        found[_step(state)] = fragment_of(ahead_page(after))
        _correction_ahead(corrections, after)
    else:
        more = bool(sample)
    return jsonify(
        version=game.version,
        now=_step(played.state),
        steps=found,
        corrections=corrections,
        # The table's changes the steps were made with: after one made (or undone) on the
        # phone, none of them is the game's page (the phone draws it: ``games.pages.page``).
        changes=len(played.state.changes),
        # Whether more steps ahead could be made than were (STEPS_AHEAD reached): the phone
        # asks again when few are left; else the game ends (or fills in no form) before.
        more=more,
    )


def _needs(played, record) -> dict[str, object]:
    back = None
    if record:
        entries = portable.entries_of(portable.plain(record[:-1]))
        back = _step(played.rules.play(played.setup, entries))
    return {
        "step": _step(played.state),
        "back": back,
        "scored": [hand.number for hand in played.state.hands if hand.status == "scored"],
    }


def _again(game) -> dict[str, object] | None:
    """What the page's "Play again" says of a finished, read-only game (``next_game``): who
    deals first, the night."""
    again = next_game(game)
    if again is None:
        return None
    return {"dealer": {"name": again.dealer.name}, "night_id": again.night_id}


@bp.get("/offline/play.js")
def play_script():
    """The game page's offline play (``static/js/play_offline.js``), loaded by the outbox
    after the page is drawn: at a fixed address (the first load names no file of it), checked
    again each time (``no-cache``: a small answer, 304 when unchanged)."""
    response = send_from_directory(
        current_app.static_folder, "js/play_offline.js", mimetype="text/javascript", max_age=0
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline/play/<int:game_id>.json")
@login_required
def play(game_id: int):
    """What a phone needs to play game ``game_id`` offline: where the rules are, the game's
    record as the phone's rules take it (``portable.save``), and the words of the switch."""
    game = games.get_game(current_user, game_id)
    played = games.played(game)
    setup = played.setup
    record = [_plain_entry(entry) for entry in games.entries_of(game, setup)]
    players = roster.roster(current_user)
    response = jsonify(
        urls={
            **urls(),
            "script": static_url("js/rules.js"),
            "worker": static_url("js/rules_worker.js"),
            # The Table panel's own styles, which the panel the phone draws takes on.
            "panel_css": static_url("css/table.css"),
            # Offline play's script and the runtime's files: asked for again once the app's
            # worker takes over a page drawn before it (a first visit), so that it keeps them.
            "play": url_for("offline_rules.play_script"),
            "files": [url_for("offline_rules.runtime", filename=name) for name in RUNTIME],
        }
        if available()
        else None,
        digits=digits_of(locale_code()),
        version=game.version,
        # What the phone's steps ahead must hold to play on offline (play_offline.js asks
        # ahead.json again only when they do not): the step the game is at, the step an
        # undo goes back to, and the hands a correction form is needed for.
        needs=_needs(played, record),
        # The notices the page shows (the game's ``page_notices``): drawn again if a save the
        # phone answered first is not answered by the server.
        notices=portable.plain(played.rules.page_notices(played.state)),
        request={
            "game": game.kind,
            "players": list(setup.players),
            "options": dict(setup.options),
            "first_dealer": setup.first_dealer,
            "members": list(game.members),
            "entries": portable.plain(record),
            "language": locale_code(),
            # The roster's names, which a newcomer typed on the phone is matched to
            # (``portable.change``: "eve" is Eve), and whether the game takes a change.
            "roster": [player.name for player in players],
            "locked": bool(game.locked),
            "status": game.status,
        },
        # The account's active players, who may join or take a seat over on the Table
        # panel the phone draws (``games.pages.panel``).
        roster=[player.name for player in players if not player.archived],
        # What the phone's pages (``games.pages``) read of the stored game beside its
        # record: its id, options, state, version and night, the addresses and static files
        # its templates name, the hidden fields of the page's forms.
        sheet={
            "id": game.id,
            "options": dict(game.options),
            "locked": bool(game.locked),
            "status": game.status,
            "version": game.version,
            "night": night_title(game.night) if game.night else None,
            "seat_link": bool(game.seat_link),
            "urls": addresses(),
            "static": static_files(),
            "hidden": page_hidden(played),
            "again": _again(game),
        },
        words={
            "keep": _("Keep this game on this phone"),
            "kept": _("Kept on this phone: with no connection its hands are checked here."),
            "loading": _("Getting the rules onto this phone…"),
            "checked": _("Checked on this phone, sent when the link returns."),
            "server_won": _(
                "The server's answer differs from this phone's: the server's is shown."
            ),
            "needs_link": _(
                "Correcting an earlier change needs the connection; the last one can be "
                "undone here."
            ),
        },
    )
    response.headers["Cache-Control"] = "no-store"
    return response

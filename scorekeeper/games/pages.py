"""A game's pages drawn by the game's own templates without Flask: what the phone runs, under
Pyodide, to draw a game played offline (issue 24), and what the server's pages draw for the
same record (tests/test_offline_sheet.py and tests/test_offline_pages.py hold them equal for
every game):

- ``sheet``: the score sheet card (``games/<key>/_sheet.html``);
- ``page``: the game page's main part (``games/<key>/show.html``: the hand's head and forms,
  the totals, the sheet, the game's actions), as the server makes a step ahead
  (``views.games.ahead_page``): what the phone shows after a change of the table made
  offline, which no page made ahead fits;
- ``panel``: the Table panel's main part (``games/table_changes.html``), its context worked
  out by ``page_context.panel_context`` as the server's.

The templates are the server's (``base.html`` cut to its main part: ``MainOnly``), rendered
by Jinja with what they use of the app given here instead: the words (``_``, ``ngettext``,
``pgettext``: the catalog ``portable.use_language`` plugged in, filled in as the app's
templates fill them), the numbers (``num``, ``signed``, ``delta``: the language's digits), the
sheet's lines (``sheet_of``), the seat colours, nothing from the players' own phones, and
``url_for`` of the addresses the templates link to, as patterns the server gave
(``/games/7/hands/{number}/edit``)::

    sheet({"game": "oh_hell", "players": [...], "options": {...}, "first_dealer": 0,
           "members": [...], "entries": [...], "language": "bn",
           "sheet": {"id": 7, "urls": {"games.edit": "/games/7/hands/{number}/edit", ...},
                     "hidden": "<input ...>", "version": 12, "static": {...}}}, loader)
    -> {"sheet": "<section class=\"card sheet-card\" ...>"} or {"refused": [...]}
    page(<the same>, loader) -> {"page": "<section class=\"hand-head card\" ...>"}
    panel(<the same, with "roster": ["Ann", "Eve", ...]>, loader) -> {"page": "<h1>..."}

Jinja and MarkupSafe are the only libraries: the phone gets them (pure Python) with the
templates, in the bundle the app builds for it (``views/offline_rules.py``, ``sheet.zip``).
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import quote
from urllib.parse import urlencode

from jinja2 import BaseLoader
from jinja2 import Environment
from jinja2 import FileSystemLoader
from jinja2 import pass_context
from jinja2 import pass_eval_context
from jinja2 import select_autoescape
from markupsafe import Markup

from scorekeeper.games import i18n
from scorekeeper.games import portable
from scorekeeper.games.base import Setup
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.page_context import fragment_of
from scorekeeper.games.page_context import has_prefix
from scorekeeper.games.page_context import panel_context
from scorekeeper.games.page_context import players_now
from scorekeeper.games.page_context import words_attribute
from scorekeeper.games.plugin import GamePlugin
from scorekeeper.games.sheet import latest_start
from scorekeeper.games.sheet import seat_tint
from scorekeeper.games.sheet import sheet_of

#: The files the app's templates are autoescaped in (Flask's choice, which the server uses).
ESCAPED = ("html", "htm", "xml", "xhtml", "svg")


def filled(eval_ctx, text: str, variables: Mapping[str, Any], number) -> str:
    """A template's text: autoescaped (a format string) and filled in, the numbers of the
    placeholders written by ``number`` (the reader's digits). The server's templates fill
    their words in with this too (``scorekeeper.i18n``).

    The words' functions take Jinja's evaluation context (whether the template escapes), not
    the whole context: called in a loop, a function taking the context gets a copy of it
    made for the call, with the loop's variables (every global and variable of the page)."""
    if eval_ctx.autoescape:
        text = Markup(text)
    if not variables and "%" not in text:  # a plain label: nothing to fill in
        return text
    return text % {
        key: number(value)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else value
        for key, value in variables.items()
    }


@pass_eval_context
def _gettext(eval_ctx, message: str, **variables: Any) -> str:
    return filled(eval_ctx, i18n.translated(message), variables, i18n.number)


@pass_eval_context
def _pgettext(eval_ctx, message_context: str, message: str, **variables: Any) -> str:
    return filled(eval_ctx, i18n.translated_in(message_context, message), variables, i18n.number)


@pass_eval_context
def _ngettext(eval_ctx, one: str, many: str, count: int, **variables: Any) -> str:
    variables.setdefault("num", count)
    return filled(eval_ctx, i18n.translated_plural(one, many, count), variables, i18n.number)


def _delta(value: int) -> str:
    """A change of a total: "+14", "−3", "±0" (as the server's ``delta``)."""
    shown = i18n.number
    return f"+{shown(value)}" if value > 0 else (shown(value) if value < 0 else f"±{shown(0)}")


def _shown_now(func):
    """A filter worked out when the page is drawn, never when the template is compiled (a
    filter of constants, ``{{ 0|num }}``, would keep the language of the first sheet)."""

    @pass_context
    def shown(_context, *args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return shown


def _identity(value: Any) -> Any:
    return value


class MainOnly(BaseLoader):
    """The app's templates as ``loader`` finds them, ``base.html`` cut to its main part (what
    lies between its ``<!--main-->`` markers: the flashes, none on the phone, and the page's
    content): a page drawn by the phone is the main part of the server's (``fragment_of``)."""

    def __init__(self, loader: BaseLoader) -> None:
        self.loader = loader

    def get_source(self, environment: Environment, template: str):
        source, filename, uptodate = self.loader.get_source(environment, template)
        if template == "base.html":
            source = fragment_of(source)
        return source, filename, uptodate


#: What the page being drawn gives the templates' globals (the addresses it links to, the
#: static files, the sheet's first line, the CSRF token, a finished game's "Play again"):
#: the macros a template imports without its context see the environment's globals only.
_drawing: ContextVar[Mapping[str, Any] | None] = ContextVar("drawing", default=None)


def _now(key: str) -> Any:
    return (_drawing.get() or {}).get(key) or {}


def environment(loader: BaseLoader) -> Environment:
    """A Jinja environment that draws the game's templates as the app's does: what the
    templates use of the app given without Flask, as a phone playing offline has it (nothing
    from the players' own phones, no flashes, no game to play next)."""
    env = Environment(
        loader=MainOnly(loader),
        autoescape=select_autoescape(ESCAPED, default_for_string=True, default=False),
    )
    env.globals.update(
        _=_gettext,
        gettext=_gettext,
        ngettext=_ngettext,
        pgettext=_pgettext,
        seat_tint=seat_tint,
        has_prefix=has_prefix,
        url_for=lambda endpoint, **values: url_for(_now("urls"))(endpoint, **values),
        static_url=lambda path: _now("static").get(path, path),
        has_endpoint=lambda endpoint: endpoint in _now("urls"),
        phone_draft=lambda _played: None,
        phone_values=lambda _played: {},
        phone_marks=lambda _played: {},
        # "Play again" of a finished, read-only game: what the server said of it.
        next_game=lambda game: _now("again") or None if game.locked else None,
        csrf_token=lambda: _now("csrf").get("token", ""),
        get_flashed_messages=lambda **_kwargs: [],
        fragment_only=lambda: True,
        # The sheet's lines the page shows: the latest, or all of them (``about["every"]``).
        sheet_of=lambda shown: sheet_of(shown, _now("start")["hand"]),
        sheet_start=lambda _state: _now("start")["hand"],
        sheet_after=lambda _state: _now("start")["hand"],
    )
    env.filters.update(
        num=_shown_now(i18n.number),
        signed=_shown_now(i18n.number),
        delta=_shown_now(_delta),
        names=_shown_now(i18n.names),
        words=words_attribute,
        # A game's night as the page names it: its title, which the server gave.
        night_title=_identity,
    )
    return env


def url_for(patterns: Mapping[str, str]):
    """The templates' ``url_for`` for the addresses the server gave as patterns: each
    ``{name}`` filled in, the other values as the query (as Flask's), ``_anchor`` after."""

    def build(endpoint: str, **values: Any) -> str:
        anchor = values.pop("_anchor", None)
        used: set[str] = set()

        def value(found: re.Match) -> str:
            used.add(found.group(1))
            return quote(str(values[found.group(1)]), safe="")

        url = re.sub(r"\{(\w+)\}", value, patterns[endpoint])
        query = {key: item for key, item in values.items() if key not in used and item is not None}
        if query:
            url += "?" + urlencode(query)
        return f"{url}#{quote(anchor)}" if anchor else url

    return build


@dataclasses.dataclass
class Game:
    """What the pages read of the stored game (the server gives what the record does not
    hold: ``request["sheet"]``)."""

    id: int
    kind: str
    members: list[str]
    options: Mapping[str, Any]
    plugin: GamePlugin
    locked: bool = False
    status: str = "in_progress"
    version: int = 0
    #: The title of the night the game is part of (None: of none).
    night: str | None = None
    #: Whether the players' own phones follow the game (its page then loads their script).
    seat_link: bool = False


@dataclasses.dataclass
class Played:
    """What the pages read of the played game (``services.games.Played``'s part of it)."""

    game: Game
    plugin: GamePlugin
    setup: Setup
    state: Any

    @property
    def rules(self) -> Any:
        return self.plugin.rules

    @property
    def players(self) -> list[str]:
        return players_now(self.state, self.setup.players)


#: The seats field and the CSRF token of the page's forms as the server draws them
#: (``forms.HandForm``).
SEATS = re.compile(r'(<input id="seats" name="seats" type="hidden" value=")[^"]*"')
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]*)"')


@dataclasses.dataclass
class Forms:
    """The page's ``action_form``: its hidden fields as the server drew them, the seats those
    of the players the page's forms are for (the table may have changed on the phone), and a
    fresh idempotency key for each form (as ``forms.HandForm``)."""

    hidden: str
    seats: str | None = None

    def hidden_tag(self) -> Markup:
        key = secrets.token_urlsafe(16)
        hidden = self.hidden
        if self.seats is not None:
            hidden = SEATS.sub(lambda found: f'{found.group(1)}{self.seats}"', hidden)
        return Markup(hidden) + Markup(
            '<input type="hidden" name="idempotency_key" value="{}">'
        ).format(key)


_environments: dict[BaseLoader, Environment] = {}


def played_of(request: Mapping[str, Any]) -> Played:
    """The played game ``request`` describes (``portable.play``'s request, with ``"sheet"``:
    what the server gave of the stored game), its record played by the rules (a
    ``RuleError`` when they refuse it)."""
    about = request.get("sheet") or {}
    key = request.get("game")
    rules = portable.rules_of(key)
    players = tuple(request.get("players") or ())
    # The stored options, as the server's page reads them (``services.games.setup_for``).
    options = about.get("options", request.get("options")) or {}
    rules.check_setup(players, options)
    setup = Setup(players, options, int(request.get("first_dealer") or 0))
    state = rules.play(setup, portable.entries_of(request.get("entries") or ()))
    plugin = GamePlugin(rules=rules, form=None, schema=None, folder=Path())
    game = Game(
        id=about.get("id", 0),
        kind=key,
        members=list(request.get("members") or players),
        options=options,
        plugin=plugin,
        locked=bool(about.get("locked")),
        status=about.get("status", "in_progress"),
        version=about.get("version", 0),
        night=about.get("night"),
        seat_link=bool(about.get("seat_link")),
    )
    return Played(game, plugin, setup, state)


def draw(
    played: Played, about: Mapping[str, Any], loader: BaseLoader, template: str, **context: Any
) -> str:
    """The template ``template`` of ``played`` as the server's ``views.games.page_html``
    draws it (``about``: the request's ``"sheet"``), cut to its main part."""
    state, setup = played.state, played.setup
    players = played.players
    if list(players) != list(setup.players):  # the table changed: the hand's own table
        setup = Setup(tuple(players), setup.options, setup.first_dealer)
    members = played.game.members
    seats = ",".join(str(members.index(name)) for name in players if name in members)
    start = latest_start(state, bool(about.get("every")))
    env = _environments.get(loader)
    if env is None:
        env = _environments[loader] = environment(loader)
    token = CSRF.search(about.get("hidden", ""))
    drawing = _drawing.set(
        {
            "urls": about.get("urls"),
            "static": about.get("static"),
            "again": about.get("again") if about.get("status") == "finished" else None,
            "csrf": {"token": token.group(1)} if token else None,
            "start": {"hand": start},
        }
    )
    try:
        return env.get_template(template).render(
            **played.rules.page_context(setup),
            played=played,
            state=state,
            game=played.game,
            action_form=Forms(about.get("hidden", ""), seats),
            **context,
        )
    finally:
        _drawing.reset(drawing)


def _refused(error: RuleError) -> dict[str, Any]:
    return {"refused": [portable.refusal(each) for each in error.errors]}


def sheet(request: Mapping[str, Any], loader: BaseLoader) -> dict[str, Any]:
    """The sheet card of the game ``request`` describes (``portable.play``'s request, with
    ``"sheet"``: the stored game's id, options, state and the addresses), as the game page
    draws it; or the rules' refusal."""
    try:
        played = played_of(request)
    except RuleError as error:
        return _refused(error)
    about = request.get("sheet") or {}
    return {"sheet": draw(played, about, loader, played.plugin.template("_sheet.html"))}


def page(request: Mapping[str, Any], loader: BaseLoader) -> dict[str, Any]:
    """The game page's main part for the record ``request`` holds (``sheet``'s request): the
    hand's head and forms, the totals, the sheet and the game's actions, as the server draws
    a step ahead (``views.games.ahead_page``, ``fragment_of``); or the rules' refusal. What
    a phone playing offline shows after a change of the table no page made ahead fits."""
    try:
        played = played_of(request)
    except RuleError as error:
        return _refused(error)
    html = draw(
        played,
        request.get("sheet") or {},
        loader,
        played.plugin.template("show.html"),
        refusal=None,
        errors={},
        entered=None,
        phase=None,
        ahead=True,
    )
    return {"page": html}


def panel(request: Mapping[str, Any], loader: BaseLoader) -> dict[str, Any]:
    """The Table panel's main part (``games/table_changes.html``, nothing typed, no change
    being corrected) for the record ``request`` holds, with ``request["roster"]``: the
    account's active players' names (who may join or take a seat over); or the refusal (a
    game that allows no change of the table)."""
    try:
        played = played_of(request)
        context = panel_context(
            played.rules,
            played.game.options,
            played.state,
            played.players,
            list(request.get("roster") or ()),
        )
        if context is None:
            raise RuleError("change_not_allowed", _("This game does not allow that change."))
    except RuleError as error:
        return _refused(error)
    html = draw(
        played,
        request.get("sheet") or {},
        loader,
        "games/table_changes.html",
        **context,
        refusal=None,
        errors={},
        form={},
        editing=None,
    )
    return {"page": html}


_loaders: dict[str, BaseLoader] = {}


def _answer(drawn, text: str, folder: str, templates: str) -> str:
    """``drawn`` (``sheet``, ``page`` or ``panel``) for the phone: the request as JSON text
    (its ``"language"`` read from ``folder``, the templates from ``templates``), the answer
    as JSON text."""
    request = json.loads(text)
    portable.use_language(portable.language_from(folder, request.get("language")))
    loader = _loaders.setdefault(templates, FileSystemLoader(templates))
    return json.dumps(drawn(request, loader), ensure_ascii=False)


def sheet_json(text: str, folder: str = "languages", templates: str = "templates") -> str:
    """``sheet`` for the phone (``_answer``)."""
    return _answer(sheet, text, folder, templates)


def page_json(text: str, folder: str = "languages", templates: str = "templates") -> str:
    """``page`` for the phone (``_answer``)."""
    return _answer(page, text, folder, templates)


def panel_json(text: str, folder: str = "languages", templates: str = "templates") -> str:
    """``panel`` for the phone (``_answer``)."""
    return _answer(panel, text, folder, templates)

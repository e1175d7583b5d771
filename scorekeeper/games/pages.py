"""The score sheet drawn by the game's own templates without Flask: what the phone runs, under
Pyodide, to draw the sheet of a game played offline (issue 24), and what the server's page
draws for the same record (tests/test_offline_sheet.py holds them equal for every game).

The templates are the server's (``games/<key>/_sheet.html`` and the macros it imports,
``games/_macros.html``), rendered by Jinja with what they use of the app given here instead:
the words (``_``, ``ngettext``, ``pgettext``: the catalog ``portable.use_language`` plugged
in, filled in as the app's templates fill them), the numbers (``num``, ``signed``, ``delta``:
the language's digits), the sheet's lines (``sheet_of``), the seat colours, and ``url_for`` of
the few addresses the sheet links to, as patterns the server gave
(``/games/7/hands/{number}/edit``)::

    sheet({"game": "oh_hell", "players": [...], "options": {...}, "first_dealer": 0,
           "members": [...], "entries": [...], "language": "bn",
           "sheet": {"id": 7, "urls": {"games.edit": "/games/7/hands/{number}/edit", ...},
                     "hidden": "<input ...>"}}, loader)
    -> {"sheet": "<section class=\"card sheet-card\" ...>"} or {"refused": [...]}

Jinja and MarkupSafe are the only libraries: the phone gets them (pure Python) with the
templates, in the bundle the app builds for it (``views/offline_rules.py``, ``sheet.zip``).
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote
from urllib.parse import urlencode

from jinja2 import BaseLoader
from jinja2 import Environment
from jinja2 import FileSystemLoader
from jinja2 import pass_context
from jinja2 import select_autoescape
from markupsafe import Markup

from scorekeeper.games import i18n
from scorekeeper.games import portable
from scorekeeper.games.base import Setup
from scorekeeper.games.errors import RuleError
from scorekeeper.games.sheet import latest_start
from scorekeeper.games.sheet import seat_tint
from scorekeeper.games.sheet import sheet_of

#: The files the app's templates are autoescaped in (Flask's choice, which the server uses).
ESCAPED = ("html", "htm", "xml", "xhtml", "svg")


def filled(context, text: str, variables: Mapping[str, Any], number) -> str:
    """A template's text: autoescaped (a format string) and filled in, the numbers of the
    placeholders written by ``number`` (the reader's digits). The server's templates fill
    their words in with this too (``scorekeeper.i18n``)."""
    if context.eval_ctx.autoescape:
        text = Markup(text)
    if not variables and "%" not in text:  # a plain label: nothing to fill in
        return text
    return text % {
        key: number(value)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else value
        for key, value in variables.items()
    }


@pass_context
def _gettext(context, message: str, **variables: Any) -> str:
    return filled(context, i18n.translated(message), variables, i18n.number)


@pass_context
def _pgettext(context, message_context: str, message: str, **variables: Any) -> str:
    return filled(context, i18n.translated_in(message_context, message), variables, i18n.number)


@pass_context
def _ngettext(context, one: str, many: str, count: int, **variables: Any) -> str:
    variables.setdefault("num", count)
    return filled(context, i18n.translated_plural(one, many, count), variables, i18n.number)


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


def _not_on_the_sheet(*_args: Any, **_kwargs: Any) -> str:
    """A filter of the app that the macros the sheet imports use elsewhere (the entry's
    words, a night's title): never called when a sheet is drawn."""
    raise RuntimeError("not a filter of the score sheet")


def environment(loader: BaseLoader) -> Environment:
    """A Jinja environment that draws the sheet's templates as the app's does."""
    env = Environment(
        loader=loader,
        autoescape=select_autoescape(ESCAPED, default_for_string=True, default=False),
    )
    env.globals.update(
        _=_gettext, gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, seat_tint=seat_tint
    )
    env.filters.update(
        num=_shown_now(i18n.number),
        signed=_shown_now(i18n.number),
        delta=_shown_now(_delta),
        names=_shown_now(i18n.names),
        words=_not_on_the_sheet,
        night_title=_not_on_the_sheet,
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
    """What the sheet reads of the stored game."""

    id: int
    kind: str
    members: list[str]
    options: Mapping[str, Any]
    locked: bool = False
    status: str = "in_progress"


@dataclasses.dataclass
class Played:
    """What the sheet reads of the played game (``services.games.Played``'s part of it)."""

    game: Game
    rules: Any
    setup: Setup
    state: Any


@dataclasses.dataclass
class Forms:
    """The page's ``action_form`` (the sheet's undo): its hidden fields as the server drew
    them, and a fresh idempotency key for each form (as ``forms.HandForm``)."""

    hidden: str

    def hidden_tag(self) -> Markup:
        key = secrets.token_urlsafe(16)
        return Markup(self.hidden) + Markup(
            '<input type="hidden" name="idempotency_key" value="{}">'
        ).format(key)


_environments: dict[BaseLoader, Environment] = {}


def sheet(request: Mapping[str, Any], loader: BaseLoader) -> dict[str, Any]:
    """The sheet card of the game ``request`` describes (``portable.play``'s request, with
    ``"sheet"``: the stored game's id, options, state and the addresses), as the game page
    draws it; or the rules' refusal."""
    about = request.get("sheet") or {}
    try:
        key = request.get("game")
        rules = portable.rules_of(key)
        players = tuple(request.get("players") or ())
        # The stored options, as the server's page reads them (``services.games.setup_for``).
        options = about.get("options", request.get("options")) or {}
        rules.check_setup(players, options)
        setup = Setup(players, options, int(request.get("first_dealer") or 0))
        state = rules.play(setup, portable.entries_of(request.get("entries") or ()))
    except RuleError as error:
        return {"refused": [portable.refusal(each) for each in error.errors]}
    game = Game(
        id=about.get("id", 0),
        kind=key,
        members=list(request.get("members") or players),
        options=options,
        locked=bool(about.get("locked")),
        status=about.get("status", "in_progress"),
    )
    played = Played(game, rules, setup, state)
    start = latest_start(state, bool(about.get("every")))
    env = _environments.get(loader)
    if env is None:
        env = _environments[loader] = environment(loader)
    template = env.get_template(f"games/{key}/_sheet.html")
    html = template.render(
        **rules.page_context(setup),
        played=played,
        state=state,
        game=game,
        action_form=Forms(about.get("hidden", "")),
        url_for=url_for(about.get("urls") or {}),
        sheet_of=lambda shown: sheet_of(shown, start),
        sheet_start=lambda _state: start,
        sheet_after=lambda _state: start,
    )
    return {"sheet": html}


_loaders: dict[str, BaseLoader] = {}


def sheet_json(text: str, folder: str = "languages", templates: str = "templates") -> str:
    """``sheet`` for the phone: the request as JSON text (its ``"language"`` read from
    ``folder``, the templates from ``templates``), the answer as JSON text."""
    request = json.loads(text)
    portable.use_language(portable.language_from(folder, request.get("language")))
    loader = _loaders.setdefault(templates, FileSystemLoader(templates))
    return json.dumps(sheet(request, loader), ensure_ascii=False)

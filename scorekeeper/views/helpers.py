"""Template helpers: cache-busted static URLs, plural words, signed numbers."""

from __future__ import annotations

from babel.lists import format_list
from flask import Flask
from flask import g
from flask import has_request_context
from markupsafe import Markup

from scorekeeper.games import GAMES
from scorekeeper.games.page_context import has_prefix
from scorekeeper.games.page_context import words_attribute
from scorekeeper.games.sheet import latest_start
from scorekeeper.games.sheet import seat_tint
from scorekeeper.games.sheet import sheet_of
from scorekeeper.i18n import locale_code
from scorekeeper.i18n import number
from scorekeeper.services.nights import night_title
from scorekeeper.templating import kept_url_for
from scorekeeper.views.assets import asset_url
from scorekeeper.views.assets import pack_url
from scorekeeper.views.assets import static_url
from scorekeeper.views.common import wants_fragment


def register(app: Flask) -> None:
    def game_assets(kind: str, scripts: bool = True) -> Markup:
        """The ``<link>`` and ``<script>`` tags of a game's own ``game.css`` and ``game.js``."""
        plugin = GAMES[kind]
        tags = []
        for filename, tag in (
            ("game.css", '<link rel="stylesheet" href="{}">'),
            ("game.js", '<script src="{}" defer></script>'),
        ):
            if not plugin.has_static(filename) or (filename.endswith(".js") and not scripts):
                continue
            tags.append(Markup(tag).format(asset_url(kind, filename)))
        return Markup("\n  ").join(tags)

    def game_pack(kind: str) -> Markup:
        """The ``<link>`` and ``<script>`` tags of a game page: its packs (``pack_url``)."""
        return Markup(
            '<link rel="stylesheet" href="{}">\n  <script src="{}" defer></script>'
        ).format(pack_url(kind, "css"), pack_url(kind, "js"))

    # Each address inside the app built once per process (``kept_url_for``).
    app.jinja_env.globals["url_for"] = kept_url_for(app)
    app.jinja_env.globals["static_url"] = static_url
    app.jinja_env.globals["game_pack"] = game_pack
    app.jinja_env.globals["game_assets"] = game_assets
    app.jinja_env.globals["asset_url"] = asset_url
    app.jinja_env.globals["has_endpoint"] = lambda endpoint: endpoint in app.view_functions
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["words"] = words_attribute
    app.jinja_env.filters["delta"] = delta
    app.jinja_env.filters["names"] = join_names
    app.jinja_env.filters["hands"] = hands
    # A stored game's name in lists: its game's title, or the name it was given (score pad).
    app.jinja_env.filters["game_title"] = lambda game: game.plugin.game_title(game.options)
    app.jinja_env.filters["night_title"] = night_title
    app.jinja_env.globals["sheet_start"] = sheet_start
    app.jinja_env.globals["sheet_after"] = sheet_after
    # The sheet as a page shows it: the lines of the hands it does not show have no cells.
    app.jinja_env.globals["sheet_of"] = lambda played: sheet_of(played, sheet_start(played.state))
    app.jinja_env.globals["seat_tint"] = seat_tint
    # A form saved in place asks for the page's main part only: the rest is not rendered.
    app.jinja_env.globals["fragment_only"] = lambda: has_request_context() and wants_fragment()
    app.jinja_env.globals["has_prefix"] = has_prefix
    app.jinja_env.globals["phone_draft"] = phone_draft
    app.jinja_env.globals["phone_values"] = phone_values
    app.jinja_env.globals["phone_marks"] = phone_marks
    # The installed games by name, in the order the app offers them (the login page).
    app.jinja_env.globals["game_titles"] = lambda: [str(plugin.title) for plugin in GAMES.values()]


def phone_draft(played):
    """The hand being entered from the players' own phones (``services.seats``), once per
    page."""
    from flask import g

    from scorekeeper.services import seats

    key = (played.game.id, played.game.version, len(played.state.hands))
    kept = g.get("phone_draft")
    if kept is None or kept[0] != key:
        kept = (key, seats.draft_of(played))
        g.phone_draft = kept
    return kept[1]


def _open_draft(played):
    """The phones' draft when the scorekeeper may see it (None under secret bidding)."""
    draft = phone_draft(played)
    return None if draft is None or draft.spec.secret else draft


def phone_values(played) -> dict:
    """What the phones entered so far, for the scorekeeper's form (nothing that is secret)."""
    draft = _open_draft(played)
    return draft.shown() if draft is not None else {}


def phone_marks(played) -> dict[str, list[str]]:
    """The marks the phones set beside their values (``SeatEntry.marks``: who is on each), for
    the scorekeeper's form, so that saving it keeps them (nothing that is secret)."""
    draft = _open_draft(played)
    return dict(draft.marked) if draft is not None else {}


def signed(value: int) -> str:
    """-3 -> "−3", 0 -> "0", 4 -> "4" (a real minus sign reads better in a score sheet), in
    the reader's digits."""
    return number(value)


def join_names(names) -> str:
    """["Ann", "Ben", "Cy"] -> "Ann, Ben and Cy", as the reader's language joins a list
    (Babel's CLDR list patterns)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    code = locale_code()
    if code == "en":  # the app's English, as it always wrote lists (no Oxford comma)
        return ", ".join(names[:-1]) + " and " + names[-1]
    return format_list(names, locale=code)


def hands(count: int, rules) -> str:
    """A count in the game's own word: "1 hand", "3 rounds"."""
    return rules.phrase("count", count=count)


#: Where a save made in place keeps the hand it saved (``sheet_after``), on ``flask.g``.
SHEET_FROM = "sheet_from"


def sheet_start(state) -> int:
    """Where a game page's sheet starts: all hands, or the latest ``SHEET_HANDS`` of them."""
    from flask import request

    # The game page, and its main part as a save made in place answers it.
    on_game_page = request.endpoint in ("games.show", "games.record", "games.update")
    return latest_start(state, request.args.get("sheet") == "all" or not on_game_page)


def sheet_after(state) -> int:
    """The sheet's lines a page draws are those after this hand: ``sheet_start``'s, or, in
    the answer to a save made in place that the page's script merges into its sheet
    (``views.games.saved``), only the lines from the hand saved on (the lines before it are
    on the phone already)."""
    start = sheet_start(state)
    saved = g.get(SHEET_FROM) if has_request_context() else None
    return max(start, saved - 1) if saved else start


def delta(value: int) -> str:
    """A change of a total: "+14", "−3", "±0"."""
    return f"+{number(value)}" if value > 0 else (number(value) if value < 0 else f"±{number(0)}")

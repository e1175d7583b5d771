"""What a game's pages are drawn with beside the state, worked out without Flask: the same
for the server's pages (``views/helpers.py``, ``views/table_panel.py``) and for the pages a
phone playing offline draws itself (``games.pages``, under Pyodide).

- ``fragment_of``: a page's main part (what ``base.html`` marks);
- ``words_attribute``: the ``words`` filter (an element's ``data-words``);
- ``has_prefix``: whether a form's fields under a prefix hold something;
- ``players_now``: the players of the hand to enter (``services.games.Played.players``);
- ``panel_context``: what the Table panel (``games/table_changes.html``) shows for a state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.games import table
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import number


def fragment_of(html: str) -> str:
    """The main part of a rendered page (between the markers ``base.html`` puts around it):
    what a form saved in place replaces, and what the phone draws of a page."""
    start = html.index("<!--main-->") + len("<!--main-->")
    return html[start : html.index("<!--/main-->")]


def _plain(value):
    """A text the templates filled in (escaped once as markup) as plain text, in lists and
    mappings too; anything else as it is."""
    if isinstance(value, Markup):
        return value.unescape()
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def words_attribute(words: dict) -> Markup:
    """The ``data-words`` attribute of an element a script writes in: the page's words for the
    script (``static/js/words.js`` reads them), as JSON; each text once escaped, as an
    attribute's value is (``{{ {'done': _('Done')}|words }}``)."""
    return Markup(' data-words="{}"').format(json.dumps(_plain(words), ensure_ascii=False))


def has_prefix(mapping, prefix: str) -> bool:
    """Whether any key of ``mapping`` starting with ``prefix`` holds something."""
    if not mapping:
        return False
    return any(key.startswith(prefix) and mapping[key] not in ("", None) for key in mapping)


def players_now(state: Any, starting: Sequence[str]) -> list[str]:
    """The players of the hand to enter: dealt into the open hand or the next one (the
    starting table, ``starting``, until the table changes)."""
    upcoming = state.next
    if upcoming is not None and upcoming.get("players"):
        return list(upcoming["players"])
    if state.players is not None:
        return list(state.players)
    return list(starting)


def _chips(names: list[str], named: list[str]) -> list[tuple[str, str]]:
    """Chips of ``names``, with the names of the change being corrected (who may no longer
    be seated, or be seated now) added in front."""
    return [(name, name) for name in dict.fromkeys([*named, *names])]


def panel_context(
    rules: Any,
    options: Mapping[str, Any],
    state: Any,
    players: Sequence[str],
    roster: Sequence[str],
    kind: str = "",
    editing: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """What the Table panel shows for ``state``: the changes the game allows (``kinds``, the
    one ``kind`` opened), whom a joiner sits after, the chips of each form (``roster``: the
    account's active players' names, who may join or take a seat over), the figures each
    starting total gives now. ``players``: the players of the hand to enter; ``editing``: the
    change being corrected (its names stay among the chips). None when the game allows no
    change (or not the kind being corrected)."""
    kinds = [k for k in table.KINDS if k in rules.table_changes(options)]
    if not kinds or (editing and editing["kind"] not in kinds):
        return None
    seated = list(state.players or players)
    named = [editing[key] for key in ("player", "by") if editing and editing.get(key)]
    low_wins = rules.low_wins(options)
    starts = {
        how: table.starting_total(how, state.totals, seated, low_wins) for how in table.STARTS
    }
    newcomers = [name for name in roster if name not in seated]
    takers = [name for name in newcomers if name not in state.left]
    back = [name for name in state.left if name not in takers]
    return {
        "kinds": kinds,
        "open_kind": kind if kind in kinds else "",
        "seated": [name for name in seated if name not in named],  # whom a joiner sits after
        "joiner_chips": _chips(takers, named)
        + [
            (
                name,
                _(
                    "%(name)s (back on %(total)s)",
                    name=name,
                    total=number(state.totals.get(name, 0)),
                ),
            )
            for name in back
        ],
        "taker_chips": _chips(takers, named),
        "seated_chips": _chips(seated, named),
        "side_chips": [(side, side) for side in state.sides if side not in state.left],
        "starts": starts,
        "describe": table.describe,
        "open_hand": state.current is not None,
    }

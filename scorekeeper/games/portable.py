"""The rules as one call with JSON in and JSON out: what the phone runs when it plays offline.

The same function runs on the server (tests compare the two) and in the browser, under
Pyodide, where only the standard library and this package are present. A request names the
game, its table and options and every entry of its record; the answer is the state the rules
derive, or the refusal they give, in plain JSON types::

    play({"game": "oh_hell", "players": ["Ann", "Ben", "Cy"], "options": {},
          "entries": [{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}], "language": "bn"})
    -> {"state": {...}} or {"refused": [{"code", "message", "field", "hand"}, ...]}

Words go through ``i18n`` like everywhere else: ``use_language`` plugs in a catalog read
with the standard library's ``gettext`` and the language's digits and list patterns (the app
writes them beside the catalogs when it builds the phone's bundle).
"""

from __future__ import annotations

import dataclasses
import gettext as std_gettext
import io
import json
from collections.abc import Mapping
from collections.abc import Sequence
from importlib import import_module
from typing import Any

from scorekeeper.games import i18n
from scorekeeper.games.base import Setup
from scorekeeper.games.errors import RuleError
from scorekeeper.games.table import Change

#: The gettext separator between a message's context and its text (``msgctxt``).
_CONTEXT = "\x04"


def rules_of(key: Any) -> Any:
    """The rules object of the game ``key`` (its ``rules.RULES``), imported on first use."""
    if not isinstance(key, str) or not key.isidentifier():
        raise RuleError("option_value", i18n._("Unknown game “%(key)s”.", key=str(key)), "game")
    try:
        module = import_module(f"scorekeeper.games.{key}.rules")
    except ImportError:
        raise RuleError(
            "option_value", i18n._("Unknown game “%(key)s”.", key=key), "game"
        ) from None
    return module.RULES


@dataclasses.dataclass(frozen=True)
class Language:
    """What the phone needs to write in a language without Babel: its catalog (a compiled
    ``.mo``), its digits (None: 0-9) and its list patterns (CLDR's "standard" list)."""

    code: str
    catalog: bytes | None = None
    digits: str | None = None
    #: CLDR list patterns: ``{"2": "{0} and {1}", "start": ..., "middle": ..., "end": ...}``.
    patterns: Mapping[str, str] | None = None


def use_language(language: Language | None) -> None:
    """Speak ``language`` from now on (None: English), writing numbers as the app does (the
    language's digits, a real minus sign) and lists with the language's patterns."""
    table = str.maketrans("0123456789", language.digits) if language and language.digits else None

    def number(value: Any) -> str:
        text = str(value)
        return (text.translate(table) if table else text).replace("-", "−")

    if language is None or language.catalog is None:
        i18n.use(i18n.as_it_is, i18n.english_plural, number, i18n.english_names)
        return
    catalog = std_gettext.GNUTranslations(io.BytesIO(language.catalog))

    def pgettext(context: str, message: str) -> str:
        found = catalog.gettext(f"{context}{_CONTEXT}{message}")
        return message if _CONTEXT in found else found

    def names(items: list[str]) -> str:
        return list_phrase(items, language.patterns)

    i18n.use(catalog.gettext, catalog.ngettext, number, names, pgettext)


_languages: dict[str, Language] = {}


def language_from(folder: str, code: Any) -> Language | None:
    """The language ``code`` as the app wrote it into ``folder`` (the phone's bundle:
    ``<code>.mo`` and ``languages.json``); None for English or a language not there."""
    if not isinstance(code, str) or code == "en":
        return None
    if code not in _languages:
        with open(f"{folder}/languages.json", encoding="utf-8") as file:
            words = json.load(file).get(code)
        if words is None:
            return None
        with open(f"{folder}/{code}.mo", "rb") as file:
            catalog = file.read()
        _languages[code] = Language(code, catalog, words.get("digits"), words.get("patterns"))
    return _languages[code]


def play_json(text: str, folder: str = "languages") -> str:
    """``play`` for the phone: the request as JSON text (its ``"language"`` read from
    ``folder``), the answer as JSON text."""
    request = json.loads(text)
    use_language(language_from(folder, request.get("language")))
    return json.dumps(play(request), ensure_ascii=False)


def list_phrase(items: Sequence[str], patterns: Mapping[str, str] | None) -> str:
    """Items joined by CLDR list patterns (as Babel's ``format_list`` does)."""
    if patterns is None:
        return i18n.english_names(list(items))
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return patterns["2"].format(items[0], items[1])
    result = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        result = patterns["middle"].format(result, item)
    return patterns["end"].format(result, items[-1])


def entries_of(raw: Sequence[Any]) -> list[Any]:
    """The record's entries: a hand is its entered values, a change of the table is
    ``{"change": {...the change...}, "id": 7}``."""
    entries: list[Any] = []
    for item in raw:
        if isinstance(item, Mapping) and "change" in item:
            entries.append(Change(item["change"], item.get("id")))
        else:
            entries.append(item)
    return entries


def play(request: Mapping[str, Any]) -> dict[str, Any]:
    """The state of the game ``request`` describes, or the rules' refusal, as plain JSON."""
    try:
        rules = rules_of(request.get("game"))
        players = tuple(request.get("players") or ())
        options = rules.check_setup(players, request.get("options") or {})
        setup = Setup(players, options, int(request.get("first_dealer") or 0))
        state = rules.play(setup, entries_of(request.get("entries") or ()))
    except RuleError as error:
        return {"refused": [refusal(each) for each in error.errors]}
    return {"state": plain(dataclasses.asdict(state))}


def refusal(error: RuleError) -> dict[str, Any]:
    return {
        "code": error.code,
        "message": str(error.message),
        "field": error.field,
        "hand": error.hand,
    }


def plain(value: Any) -> Any:
    """``value`` with only JSON's types: lazy texts as the text shown, tuples as lists, every
    key a string."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, str):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    return value

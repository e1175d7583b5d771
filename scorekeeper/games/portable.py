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
from scorekeeper.games.table import describe
from scorekeeper.games.table import hand_index
from scorekeeper.games.text import text_key

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


#: The digits of the language spoken now (None: 0-9), which the forms are read in too.
_digits: str | None = None


def use_language(language: Language | None) -> None:
    """Speak ``language`` from now on (None: English), writing numbers as the app does (the
    language's digits, a real minus sign) and lists with the language's patterns."""
    global _digits
    _digits = language.digits if language else None
    table = str.maketrans("0123456789", language.digits) if _digits else None

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


def form_of(key: str) -> Any:
    """The game's form reader (its ``form`` module: pure, as its rules)."""
    return import_module(f"scorekeeper.games.{key}.form")


def _hand_index(entries: Sequence[Any], number: int) -> int | None:
    try:
        return hand_index(entries, number)
    except IndexError:
        return None


def _scored(state: Any) -> int:
    return sum(1 for hand in state.hands if hand.status == "scored")


def seated_of(request: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """Whom the form is for: its ``seats`` field read against the game's ``members`` (as the
    server reads it), the starting table for a form without them."""
    members = list(request.get("members") or players)
    raw = str((request.get("form") or {}).get("seats", ""))
    parts = [part.strip() for part in raw.split(",")]
    seats = [int(part) for part in parts if part.isascii() and part.isdigit()]
    chosen = [members[seat] for seat in seats if seat < len(members)]
    if not chosen or len(set(chosen)) != len(chosen):
        return list(players)
    return chosen


def _table_of(request: Mapping[str, Any]) -> tuple[Any, tuple[str, ...], Setup]:
    """The game's rules, its starting table and its setup, as ``request`` names them."""
    rules = rules_of(request.get("game"))
    players = tuple(request.get("players") or ())
    options = rules.check_setup(players, request.get("options") or {})
    return rules, players, Setup(players, options, int(request.get("first_dealer") or 0))


def save(request: Mapping[str, Any]) -> dict[str, Any]:
    """A save of the game page's form made on the phone, as the server makes it: ``request``
    is ``play``'s with ``"action"`` ("record": the next hand; "update": complete or correct
    hand ``"number"``; "undo": the last hand), ``"phase"`` and ``"form"`` (the form's fields,
    name to text) and ``"members"`` (the game's seats, read with the form's ``seats``). The
    answer is the new record, its state, the sides that lead, the standings card's lines and
    the notices its box shows, the game-over page's winner line and what the page says of the
    save (``{"entries", "state", "leaders", "standings", "notices", "winner", "said"}``),
    or the refusal, with the server's codes and messages."""
    try:
        key = request.get("game")
        rules, players, setup = _table_of(request)
        raw = list(request.get("entries") or ())
        entries = entries_of(raw)
        hands = sum(1 for entry in entries if not isinstance(entry, Change))
        action = request.get("action")
        number = request.get("number")
        if action == "undo":
            if not hands:
                raise RuleError("not_found", rules.phrase("nothing_to_undo"))
            if number is not None and number != hands:
                code = "not_next_hand" if number < hands else "not_found"
                raise RuleError(code, rules.phrase("only_last", number=hands), "number")
            at = _hand_index(entries, hands)
            new = entries[:at] + entries[at + 1 :]
            raw = raw[:at] + raw[at + 1 :]
        else:
            phase = str(request.get("phase") or "")
            seated = seated_of(request, players)
            entry = form_of(key).read(request.get("form") or {}, seated, phase)
            if action == "record":
                if number != hands + 1:
                    raise not_next(rules, number, hands)
                new = [*entries, entry]
                raw = [*raw, entry]
            else:
                at = _hand_index(entries, number) if isinstance(number, int) else None
                if at is None:
                    raise RuleError("not_found", rules.phrase("not_found", number=number))
                completing = phase in getattr(form_of(key), "COMPLETING", ())
                if completing and number <= _scored(rules.play(setup, entries)):
                    raise RuleError(
                        "not_next_hand", rules.phrase("already_complete", number=number), "number"
                    )
                entry = dict(entry) if phase == "both" else rules.merge(entries[at], entry)
                new = [*entries[:at], entry, *entries[at + 1 :]]
                raw = [*raw[:at], entry, *raw[at + 1 :]]
        state = rules.play(setup, new)
    except RuleError as error:
        return {"refused": [refusal(each) for each in error.errors]}
    return {
        "entries": plain(raw),
        "state": plain(dataclasses.asdict(state)),
        "leaders": plain(state.leaders()),  # the sheet's stars (not a field of the state)
        "standings": standings(rules, state, setup.options),
        "notices": plain(rules.page_notices(state)),  # the page's notices box, in its language
        "winner": plain(rules.winner_line(state)) if state.finished else None,
        "said": said(rules, request, hands),
    }


def not_next(rules: Any, number: Any, hands: int) -> RuleError:
    """The refusal of a save that names hand ``number`` as the next when ``hands`` were
    entered (``not_next_hand``), as the server words it."""
    if isinstance(number, int) and number <= hands:
        message = rules.phrase("already_recorded", number=number)
    else:
        message = rules.phrase("not_next", count=hands, number=number)
    return RuleError("not_next_hand", message, "number")


def standings(rules: Any, state: Any, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The standings card's lines as the server's page draws them (``games/_macros.html``,
    ``standings``), in its order (``State.ranked``): each side's total, the change of the last
    hand (None: not shown), whether it leads or won, and the game's note beside it."""
    leaders, last = state.leaders(), state.last_points()
    return [
        {
            "side": side,
            "total": total,
            "change": last.get(side),
            "leader": side in leaders,
            "winner": side in state.winners,
            "note": plain(rules.standing_note(state, side, options)),
        }
        for side, total in state.ranked()
    ]


def said(rules: Any, request: Mapping[str, Any], hands: int) -> str | None:
    """What the page says of an accepted save, as the server's page does (its message above
    the sheet): an undo, a correction, the bids of the hand in play changed; None for a save
    that moves the game on."""
    number = request.get("number")
    if request.get("action") == "undo":
        return str(rules.phrase("removed", number=hands))
    if request.get("action") != "update":
        return None
    if request.get("phase") == "both":
        return str(rules.phrase("corrected", number=number))
    if (request.get("form") or {}).get("change") == "1":
        return str(rules.phrase("bids_changed", number=number))
    return None


def fields(request: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of hand ``"number"``'s correction form as the record of ``request`` (``play``'s)
    holds it (the game's form module's ``fields``), for the form made ahead on the phone;
    ``{"fields": {}}`` for a game without them, ``{"refused": [...]}`` for no such hand."""
    try:
        key = request.get("game")
        rules, players, setup = _table_of(request)
        entries = entries_of(request.get("entries") or ())
        number = request.get("number")
        at = _hand_index(entries, number) if isinstance(number, int) else None
        if at is None:
            raise RuleError("not_found", rules.phrase("not_found", number=number))
        hand = rules.play(setup, entries).hands[number - 1]
    except RuleError as error:
        return {"refused": [refusal(each) for each in error.errors]}
    write = getattr(form_of(key), "fields", None)
    found = write(entries[at], list(hand.players or players)) if write else {}
    return {"fields": found}


def fields_json(text: str, folder: str = "languages") -> str:
    """``fields`` for the phone, JSON text in and out (as ``play_json``)."""
    request = json.loads(text)
    use_language(language_from(folder, request.get("language")))
    return json.dumps(fields(request), ensure_ascii=False)


def save_json(text: str, folder: str = "languages") -> str:
    """``save`` for the phone, JSON text in and out (as ``play_json``)."""
    request = json.loads(text)
    use_language(language_from(folder, request.get("language")))
    return json.dumps(save(request), ensure_ascii=False)


def change(request: Mapping[str, Any]) -> dict[str, Any]:
    """A change of the table made on the phone, as the server makes it (RULES.md, "the table
    changes mid-game"): ``request`` is ``play``'s with ``"members"`` (the game's seats, as
    ``save`` takes them), ``"roster"`` (the account's players' names: a newcomer typed "eve"
    is the roster's Eve), ``"locked"`` and ``"status"`` (the game's: one over or abandoned
    takes no change), ``"digits"`` (the reader's, else the language's) and ``"action"``:
    "record" (the panel's form, ``"form"``: name to text, a list for a field given more
    than once; ``"before_hand"``, the hand it says comes next, may be given beside it) or
    "remove" (the undo of the record's last entry, a change). The answer is ``save``'s, with
    ``"members"`` (a newcomer's seat added as the server adds it) and ``"said"`` the
    sentence the server says after it; or the refusal, with the server's codes, messages and
    fields, in its order."""
    try:
        rules, players, setup = _table_of(request)
        raw = list(request.get("entries") or ())
        entries = entries_of(raw)
        members = list(request.get("members") or players)
        if request.get("action") == "remove":
            if not entries or not isinstance(entries[-1], Change):
                raise RuleError("not_found", i18n._("That change was not found."))
            _check_open(request)
            state = _played(rules, setup, entries[:-1])
            if state.current is not None:
                raise RuleError(
                    "hand_in_progress",
                    i18n._("Finish the hand being played before changing the table."),
                )
            raw, said_now = raw[:-1], str(i18n._("The change of the table was undone."))
        else:
            given = _recorded_change(request, rules, entries, members)
            state = _played(rules, setup, [*entries, Change(given)])
            newcomer = given.get(_table_form().NEWCOMERS.get(given["kind"], ""))
            if isinstance(newcomer, str) and newcomer not in members:
                members.append(newcomer)
            raw = [*raw, {"change": given, "id": None}]
            said_now = str(describe(state.changes[-1]))
    except RuleError as error:
        return {"refused": [refusal(each) for each in error.errors]}
    return {
        "entries": plain(raw),
        "members": members,
        "state": plain(dataclasses.asdict(state)),
        "leaders": plain(state.leaders()),
        "standings": standings(rules, state, setup.options),
        "notices": plain(rules.page_notices(state)),
        "winner": plain(rules.winner_line(state)) if state.finished else None,
        "said": said_now,
    }


def _table_form() -> Any:
    """The Table panel's form reader (imported when used, as a game's form module)."""
    return import_module("scorekeeper.games.table_form")


def _check_open(request: Mapping[str, Any]) -> None:
    _table_form().check_open(bool(request.get("locked")), request.get("status"))


def _recorded_change(
    request: Mapping[str, Any], rules: Any, entries: Sequence[Any], members: list[str]
) -> dict[str, Any]:
    """The change the panel's form describes, checked as the server checks it before the
    rules do: the form read, the hand it says comes next, the game open, its names matched."""
    table_form = _table_form()
    form = dict(request.get("form") or {})
    if request.get("before_hand") is not None:
        form["before_hand"] = str(request["before_hand"])
    digits = request.get("digits", _digits)
    body = table_form.read_change(form, str(form.get("kind", "")), digits)
    before_hand = table_form.read_before_hand(form)
    hands = sum(1 for entry in entries if not isinstance(entry, Change))
    if before_hand is not None and before_hand != hands + 1:
        raise not_next(rules, before_hand, hands)
    _check_open(request)
    by_key = {text_key(name): name for name in request.get("roster") or ()}
    return table_form.given_change(body, members, lambda name: by_key.get(text_key(name), name))


def _played(rules: Any, setup: Setup, entries: Sequence[Any]) -> Any:
    """The rules' play of ``entries``, a refusal's messages naming its hand as the server's
    do (``Refusal.from_rule``)."""
    try:
        return rules.play(setup, entries)
    except RuleError as error:
        for each in error.errors:
            each.message = each.said_by(rules)
        raise


def change_json(text: str, folder: str = "languages") -> str:
    """``change`` for the phone, JSON text in and out (as ``play_json``)."""
    request = json.loads(text)
    use_language(language_from(folder, request.get("language")))
    return json.dumps(change(request), ensure_ascii=False)

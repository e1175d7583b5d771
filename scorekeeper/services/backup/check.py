"""The restore check: a backup file read, its document validated with its version's model
(``document.py``), then checked for what no shape can say, and turned into the rows it will
become (a ``Plan``, which ``restore.py`` writes).

A restore reads a plain or gzip-compressed file, checks the whole document first (replaying
every game through the rules): a refusal is one whole sentence in the reader's language, said
of the place in the backup ("Game 3, hand 2: ...").
"""

from __future__ import annotations

import functools
import json
import re
import zlib
from array import array
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from scorekeeper.errors import Refusal
from scorekeeper.games import GAMES
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.table import Change
from scorekeeper.services import nights as night_service
from scorekeeper.services import players as roster
from scorekeeper.services import results
from scorekeeper.services import rule_sets as rule_set_service
from scorekeeper.services.backup.document import FORMAT
from scorekeeper.services.backup.document import GAME_MODELS
from scorekeeper.services.backup.document import VERSIONS
from scorekeeper.services.backup.document import BackupV1
from scorekeeper.services.backup.document import GameV1
from scorekeeper.services.games import change_by_seat
from scorekeeper.text import clean_line
from scorekeeper.text import text_key
from scorekeeper.web import JSON_MAX_DEPTH

CODE = "restore_refused"
#: How far a compressed backup may unpack (bytes): 10,000 games take about 30 MB.
MAX_UNPACKED = 64 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"

#: JSON as the restore writes it: hand entries are kept (and spooled) as this text.
_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


class Damaged(Exception):
    """Something in the document is missing, of the wrong kind or against the rules."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def refuse(message: str, field: str | None = None) -> Refusal:
    """The refusal of a restore: ``message`` (a whole sentence, in the reader's language)
    followed by the sentence that nothing was restored."""
    return Refusal(CODE, _("%(problem)s Nothing was restored.", problem=message), field)


def _gunzip(raw: bytes, limit: int) -> bytes:
    """A gzip file's content, refused beyond ``limit`` bytes (a small file may unpack to a
    huge one) or when it is damaged or cut short."""
    out: list[bytes] = []
    length = 0
    rest = raw
    try:
        while rest:
            unpacker = zlib.decompressobj(31)
            part = unpacker.decompress(rest, limit + 1 - length)
            length += len(part)
            if length > limit or unpacker.unconsumed_tail:
                raise refuse(
                    _(
                        "This backup unpacks to more than the %(size)s MB this server reads.",
                        size=round(limit / 1024 / 1024, 4),  # in the reader's digits
                    )
                )
            if not unpacker.eof:
                raise refuse(_("This compressed backup is cut short (the download did not end?)."))
            out.append(part)
            rest = unpacker.unused_data  # a file of several gzip members
            if rest and not rest.startswith(GZIP_MAGIC):
                break
    except zlib.error:
        raise refuse(
            _("This file is not a Scorekeeper backup: it is not a readable gzip file.")
        ) from None
    return b"".join(out)


#: Characters no backup holds: control characters other than tab and line breaks (NUL
#: included, which PostgreSQL cannot store), and lone surrogates (which are not text).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _holds(char: str, key: str | None = None) -> str:
    """The whole sentence saying that the backup (or its ``key``) holds ``char``."""
    code = ord(char)
    params = {"code": f"U+{code:04X}", "key": key}
    if 0xD800 <= code <= 0xDFFF:
        if key is None:
            return _("This backup is damaged: it holds a lone surrogate (%(code)s).", **params)
        return _("This backup is damaged: “%(key)s” holds a lone surrogate (%(code)s).", **params)
    if code == 0:
        if key is None:
            return _("This backup is damaged: it holds a NUL character (%(code)s).", **params)
        return _("This backup is damaged: “%(key)s” holds a NUL character (%(code)s).", **params)
    if key is None:
        return _("This backup is damaged: it holds a control character (%(code)s).", **params)
    return _("This backup is damaged: “%(key)s” holds a control character (%(code)s).", **params)


#: In JSON text, the only ways to write such a character: an escape (``\\u0000``, ``\\b``) or
#: the raw character (control characters below U+0020 are no valid JSON).
_RAW_FORBIDDEN = re.compile("[\x7f-\x9f]")


def _too_deep() -> str:
    return _("This file is not a Scorekeeper backup: it is nested too deeply.")


def check_text(document: object, text: str | None = None, max_depth: int = JSON_MAX_DEPTH) -> None:
    """Refuse a document nested deeper than ``max_depth`` or holding, in any text or key,
    a character no backup holds. Walks iteratively, so checking cannot run out of stack.

    Given the JSON ``text`` the document was read from, and none of the escapes or raw
    characters that could write such a character in it (the usual case: a backup writes
    every character as itself), only the nesting is walked.
    """
    if (
        text is not None
        and "\\u" not in text
        and "\\b" not in text
        and "\\f" not in text
        and not _RAW_FORBIDDEN.search(text)
    ):
        _check_depth(document, max_depth)
        return
    search = _FORBIDDEN.search
    stack = [(document, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if isinstance(item, dict):
            if depth > max_depth:
                raise refuse(_too_deep())
            for key, inner in item.items():
                found = search(key)
                if found:
                    raise refuse(_holds(found.group()))
                if isinstance(inner, str):
                    found = search(inner)
                    if found:
                        raise refuse(_holds(found.group(), key))
                elif isinstance(inner, dict | list):
                    push((inner, depth + 1))
        elif isinstance(item, list):
            if depth > max_depth:
                raise refuse(_too_deep())
            for inner in item:
                if isinstance(inner, str):
                    found = search(inner)
                    if found:
                        raise refuse(_holds(found.group()))
                elif isinstance(inner, dict | list):
                    push((inner, depth + 1))
        elif isinstance(item, str):
            found = search(item)
            if found:
                raise refuse(_holds(found.group()))


def _check_depth(document: object, max_depth: int) -> None:
    if not isinstance(document, dict | list):
        return
    stack = [(document, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth > max_depth:
            raise refuse(_too_deep())
        values = item.values() if isinstance(item, dict) else item
        for inner in values:
            if isinstance(inner, dict | list):
                push((inner, depth + 1))


def read_document(raw: bytes | str, unpacked_limit: int = MAX_UNPACKED) -> object:
    """The JSON document in an uploaded file, plain or gzip-compressed (refused when it is
    not JSON, nested too deeply, or holds control characters or lone surrogates)."""
    if isinstance(raw, bytes) and raw.startswith(GZIP_MAGIC):
        raw = _gunzip(raw, unpacked_limit)
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = json.loads(text)
    except RecursionError:
        raise refuse(_too_deep()) from None
    except (UnicodeDecodeError, ValueError):
        raise refuse(_("This file is not a Scorekeeper backup: it is not JSON.")) from None
    check_text(document, text)
    return document


# The document's version, and its model -----------------------------------------------------


def model_for(document: object) -> type[BackupV1]:
    """The model of the document's version (refused: not a backup, or a version unknown)."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise refuse(_("This file is not a Scorekeeper backup."), "format")
    version = document.get("version")
    model = VERSIONS.get(version) if type(version) is int else None
    if model is None:
        raise refuse(
            _(
                "This backup is in format version %(version)s; this app reads version %(known)s.",
                version=repr(version),
                known=max(VERSIONS),
            ),
            "version",
        )
    return model


# The model's errors, as the app's sentences -------------------------------------------------

#: Where in the backup a problem is ("Night 3"), and the sentence for two items of one id.
_LABELS = {
    "players": lambda ref: _("Player %(id)s", id=ref),
    "nights": lambda ref: _("Night %(id)s", id=ref),
    "rule_sets": lambda ref: _("Rule set %(id)s", id=ref),
    "games": lambda ref: _("Game %(id)s", id=ref),
}
_SAME_ID = {
    "players": lambda ref: _("two players have the id %(id)s.", id=ref),
    "nights": lambda ref: _("two nights have the id %(id)s.", id=ref),
    "rule_sets": lambda ref: _("two rule sets have the id %(id)s.", id=ref),
    "games": lambda ref: _("two games have the id %(id)s.", id=ref),
}
#: The sentence for a missing list of the backup, for each list.
_MISSING_LIST = {
    "players": lambda: _("the list of players is missing."),
    "nights": lambda: _("the list of nights is missing."),
    "rule_sets": lambda: _("the list of rule sets is missing."),
    "games": lambda: _("the list of games is missing."),
}
#: The sentence for each kind of error the models give, said of a key of a place.
_SENTENCES = {
    "missing": lambda **p: _("%(what)s has no “%(key)s”.", **p),
    "string_type": lambda **p: _("%(what)s: “%(key)s” is not text.", **p),
    "int_type": lambda **p: _("%(what)s: “%(key)s” is not a whole number.", **p),
    "bool_type": lambda **p: _("%(what)s: “%(key)s” is not true or false.", **p),
    "list_type": lambda **p: _("%(what)s: “%(key)s” is not a list.", **p),
    "dict_type": lambda **p: _("%(what)s: “%(key)s” is not an object.", **p),
    "model_type": lambda **p: _("%(what)s: “%(key)s” is not an object.", **p),
    "moment_invalid": lambda **p: _("%(what)s: “%(value)s” is not a date and time.", **p),
    "moment_naive": lambda **p: _("%(what)s: “%(value)s” has no time zone.", **p),
    "day_invalid": lambda **p: _("%(what)s: “%(value)s” is not a date.", **p),
    "string_too_long": lambda limit, key, **p: _TOO_LONG[key](limit, **p),
}
#: A moment missing or not text: one sentence.
_NO_MOMENT = {"missing", "string_type"}
_MOMENTS = {"created_at", "updated_at", "finished_at", "exported_at"}
#: The sentence for a night's text beyond its limit, for each text.
_TOO_LONG = {
    "name": lambda limit, **p: ngettext(
        "%(what)s: the name is longer than %(num)s character.",
        "%(what)s: the name is longer than %(num)s characters.",
        limit,
        **p,
    ),
    "place": lambda limit, **p: ngettext(
        "%(what)s: the place is longer than %(num)s character.",
        "%(what)s: the place is longer than %(num)s characters.",
        limit,
        **p,
    ),
    "notes": lambda limit, **p: ngettext(
        "%(what)s: the notes are longer than %(num)s character.",
        "%(what)s: the notes are longer than %(num)s characters.",
        limit,
        **p,
    ),
}


def _path(loc: tuple) -> str:
    """An error's place as the API's ``field`` (``games[2].hands[0].input``)."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)[1:]


def _ref(items: object, index: int) -> int:
    """The id of an item of a list of the backup, or its place (1, 2 ...) when it has none."""
    if isinstance(items, Mapping):  # a streamed restore: {index: the game being read}
        item = items.get(index)
    else:
        item = items[index] if isinstance(items, list) else None
    ref = item.get("id") if isinstance(item, Mapping) else None
    return ref if type(ref) is int else index + 1


def _damage(error: ErrorDetails, document: Mapping[str, Any]) -> Damaged:
    """The first error of a model, as the app's sentence for its place."""
    loc, kind, where = error["loc"], error["type"], _path(error["loc"])
    top = loc[0]
    if top in _MISSING_LIST and len(loc) == 1:
        return Damaged(where, _MISSING_LIST[top]())
    if top not in _LABELS:  # a part of the head no restore reads (``account``)
        return Damaged(where, _("“%(key)s” is not valid.", key=where))
    index, key = loc[1], loc[2] if len(loc) > 2 else None
    if key is None:
        number = index + 1
        return Damaged(
            where, _("entry %(number)s of “%(key)s” is not an object.", number=number, key=top)
        )
    ref = index + 1 if key == "id" else _ref(document[top], index)
    what = _LABELS[top](ref)
    if top == "games" and key == "hands" and len(loc) > 3:
        number = loc[3] + 1
        if len(loc) == 4:
            return Damaged(
                where, _("%(what)s: hand %(number)s is not an object.", what=what, number=number)
            )
        what, key = _hand_label(ref, number), loc[4]
    elif top == "games" and key == "players" and len(loc) == 4:
        return Damaged(where, _no_such_player(what, loc[3], error["input"]))
    elif top == "games" and key == "night":
        return Damaged(where, _no_such_night(what))
    if key in _MOMENTS and kind in _NO_MOMENT:
        sentence = _("%(what)s has no valid “%(key)s” (a date and time).", what=what, key=key)
    elif kind in _SENTENCES and isinstance(key, str):
        limit = (error.get("ctx") or {}).get("max_length")
        params = {"limit": limit} if kind == "string_too_long" else {}
        sentence = _SENTENCES[kind](what=what, key=key, value=error["input"], **params)
    else:
        sentence = _("%(what)s: “%(key)s” is not valid.", what=what, key=_path(loc[2:]))
    return Damaged(where, sentence)


def _validated(model: type, value: object, document: Mapping[str, Any], at: tuple = ()):
    """``value`` validated by ``model``; its first error refused as the app's sentence
    (``at``: where in the document ``value`` is)."""
    try:
        return model.model_validate(value)
    except ValidationError as invalid:
        first = invalid.errors(include_url=False)[0]
        raise _damage({**first, "loc": (*at, *first["loc"])}, document) from None


class _Worded:
    """A game's label ("Game 3"), worded only when a refusal's sentence takes it (``%s``):
    most games are never refused, and wording each one's label took 13 µs in a restore's
    background thread (an app context and no request: 0.13 s of 10,000 games), 0.2 µs
    like this."""

    __slots__ = ("ref", "word")

    def __init__(self, word, ref: object) -> None:
        self.word, self.ref = word, ref

    def __str__(self) -> str:
        return self.word(self.ref)


def _no_such_player(what: str, seat: int, ref: object) -> str:
    return _(
        "%(what)s: seat %(seat)s names no player of the backup (%(ref)s).",
        what=what,
        seat=seat + 1,
        ref=repr(ref),
    )


def _no_such_night(what: str) -> str:
    return _("%(what)s belongs to a night not in the backup.", what=what)


def _at(what: str, problem: str) -> str:
    """A refusal of the app's own checks, said of one place of the backup ("Night 3")."""
    return _("%(what)s: %(problem)s", what=what, problem=str(problem))


def _hand_label(ref: int, number: int) -> str:
    return _("Game %(id)s, hand %(number)s", id=ref, number=number)


def _unique(refs: list[int], where: str) -> None:
    seen: set[int] = set()
    for index, ref in enumerate(refs):
        if ref in seen:
            raise Damaged(f"{where}[{index}].id", _SAME_ID[where](ref))
        seen.add(ref)


# What no shape can say ----------------------------------------------------------------------


@dataclass
class Plan:
    """The document checked, and the rows it will become (games in a compact form: what the
    rules derived is kept, the replayed states are not)."""

    players: dict[int, dict] = field(default_factory=dict)
    nights: dict[int, dict] = field(default_factory=dict)
    rule_sets: list[dict] = field(default_factory=list)
    games: list[dict] = field(default_factory=list)
    #: The keys of hand results, numbered (a game's results are kept as four arrays of
    #: numbers: the hands' numbers, the seats, the keys' numbers and the values).
    keys: dict[str, int] = field(default_factory=dict)
    #: Each set of game options met, as the rules resolved it (``_options``).
    options: dict[tuple, tuple] = field(default_factory=dict)
    #: The format's version, and the ids of the games checked so far.
    version: int = 0
    game_ids: set[int] = field(default_factory=set)


def plan(document: Mapping[str, Any]) -> Plan:
    """The document's rows, or ``Damaged`` at its first problem: the head and the lists
    validated whole by the version's model, the games one at a time (a game's model and its
    replay are dropped once its rows are made)."""
    games = document.get("games")
    found = plan_head(document)
    for index, item in enumerate(games):
        found.games.append(plan_game(found, index, item, document))
    return found


def plan_head(document: Mapping[str, Any]) -> Plan:
    """The rows of the document's head (players, nights, rule sets), its games not yet read
    (``plan_game`` makes each game's), or ``Damaged`` at its first problem."""
    model = model_for(document)
    games = document.get("games")
    head = _validated(
        model, {**document, "games": []} if isinstance(games, list) else document, document
    )
    found = Plan()
    _players(found, head.players)
    _nights(found, head.nights)
    _rule_sets(found, head.rule_sets)
    found.version = head.version
    return found


def plan_game(found: Plan, index: int, item: object, document: Mapping[str, Any]) -> dict:
    """The rows of game ``index`` of the document (``item``), checked against the head and the
    games before it, or ``Damaged``. ``document["games"]`` may hold only this game (a
    streamed restore): a refusal names the game by its own id."""
    game = _validated(GAME_MODELS[found.version], item, document, ("games", index))
    if game.id in found.game_ids:
        raise Damaged(f"games[{index}].id", _SAME_ID["games"](game.id))
    found.game_ids.add(game.id)
    # The seats kept are the document's own list (read by now), not the model's copy.
    planned = _game(found, index, game, item["players"], item.get("joined", []))
    planned["id"] = game.id
    return planned


def _players(found: Plan, items: list) -> None:
    _unique([item.id for item in items], "players")
    keys: dict[str, str] = {}
    for index, item in enumerate(items):
        where, what = f"players[{index}]", _LABELS["players"](item.id)
        try:
            name = roster.clean_name(item.name)
        except Refusal as refusal:
            raise Damaged(f"{where}.name", _at(what, refusal.message)) from None
        if name != item.name:
            raise Damaged(
                f"{where}.name",
                _("%(what)s: “%(name)s” has extra spaces.", what=what, name=item.name),
            )
        key = roster.name_key(name)
        if key in keys:
            raise Damaged(f"{where}.name", _("two players are called %(name)s.", name=keys[key]))
        keys[key] = name
        found.players[item.id] = {
            "name": name,
            "name_key": key,
            "archived": item.archived,
            "created_at": item.created_at,
        }


def _nights(found: Plan, items: list) -> None:
    _unique([item.id for item in items], "nights")
    limits = {
        "name": night_service.NAME_MAX,
        "place": night_service.PLACE_MAX,
        "notes": night_service.NOTES_MAX,
    }
    for index, item in enumerate(items):
        where, what = f"nights[{index}]", _LABELS["nights"](item.id)
        for key, limit in limits.items():
            try:  # what the nights service stores (no NUL, nothing invisible)
                night_service.clean_text(getattr(item, key), key, limit, key == "notes")
            except Refusal as refusal:
                raise Damaged(f"{where}.{key}", _at(what, refusal.message)) from None
        found.nights[item.id] = {
            "date": item.date,
            "name": item.name,
            "place": item.place,
            "notes": item.notes,
            "created_at": item.created_at,
        }


def _rule_sets(found: Plan, items: list) -> None:
    _unique([item.id for item in items], "rule_sets")
    names: set[tuple[str, str]] = set()
    for index, item in enumerate(items):
        where, what = f"rule_sets[{index}]", _LABELS["rule_sets"](item.id)
        kind = item.game
        if kind not in GAMES:
            raise Damaged(
                f"{where}.game",
                _("%(what)s is for an unknown game “%(kind)s”.", what=what, kind=kind),
            )
        try:
            name = clean_line(
                item.name,
                _("A rule set's name"),
                "name",
                rule_set_service.NAME_MAX,
                required=_("Name the rule set."),
            )
        except Refusal as refusal:
            raise Damaged(f"{where}.name", _at(what, refusal.message)) from None
        key = text_key(name)
        if (kind, key) in names:
            raise Damaged(
                f"{where}.name", _("two rule sets of one game are called %(name)s.", name=name)
            )
        names.add((kind, key))
        rules = GAMES[kind].rules
        try:
            rules.resolve_options(item.options, rules.min_players)
        except RuleError as error:
            raise Damaged(
                f"{where}.options.{error.field or ''}".rstrip("."), _at(what, error.message)
            ) from None
        found.rule_sets.append(
            {
                "kind": kind,
                "name": name,
                "name_key": key,
                "options": item.options,
                "created_at": item.created_at,
            }
        )


def _record(game: GameV1, members: list[str], where: str, what: str) -> list:
    """The game's record as the rules read it: each hand, and each change of the table
    (version 2) before the hand it names."""
    entries: list = [hand.input for hand in game.hands]
    changes = list(getattr(game, "changes", []))
    if not changes:
        return entries
    record: list = []
    for number, entry in enumerate(entries, start=1):
        while changes and changes[0].before_hand <= number:
            record.append(changes.pop(0))
        record.append(entry)
    record += changes
    last = 0
    for index, item in enumerate(record):
        if isinstance(item, dict):
            continue
        if not last <= item.before_hand <= len(entries) + 1:
            raise Damaged(
                f"{where}.changes",
                _("%(what)s: the changes are not in order with the hands.", what=what),
            )
        last = item.before_hand
        record[index] = Change(item.change)
    return record


def _options(found: Plan, kind: str, options: dict, players: int) -> tuple[dict, str, bool]:
    """A game's options as its rules resolve them for ``players``, its variant, and whether it
    is played in teams: worked out once for each set of options a backup holds (a long
    history repeats a few), or ``RuleError``/``ValueError`` as the rules refuse them."""
    key = (kind, players, json.dumps(options, sort_keys=True, ensure_ascii=False))
    known = found.options.get(key)
    if known is None:
        rules = GAMES[kind].rules
        resolved = rules.resolve_options(options, players)
        teams = rules.team_seats(resolved, players) is not None
        known = found.options[key] = (resolved, rules.variant_of(resolved), teams)
    resolved, variant, teams = known
    return dict(resolved), variant, teams


def shown_as_given(entry: Change, shown: dict) -> dict:
    """A change as the rules took it (names matched), without what they derived from it."""
    given = {key: shown[key] for key in shown if key not in ("id", "before_hand", "score")}
    if "score" in entry.body:
        given["score"] = entry.body["score"]
    return given


def _game(
    found: Plan, index: int, game: GameV1, seat_refs: list[int], joined: list[int] = ()
) -> dict:
    where, ref, kind = f"games[{index}]", game.id, game.game
    what = _Worded(_LABELS["games"], ref)
    if kind not in GAMES:
        known = ", ".join(GAMES)
        raise Damaged(
            f"{where}.game",
            _(
                "%(what)s is of an unknown game “%(kind)s” (%(known)s).",
                what=what,
                kind=kind,
                known=known,
            ),
        )
    plugin = GAMES[kind]
    game_rules = plugin.rules
    for seat, player_ref in enumerate([*seat_refs, *joined]):
        if player_ref not in found.players:
            raise Damaged(f"{where}.players[{seat}]", _no_such_player(what, seat, player_ref))
    if len(set([*seat_refs, *joined])) != len(seat_refs) + len(joined):
        raise Damaged(
            f"{where}.players", _("%(what)s: a player sits at the table twice.", what=what)
        )
    names = [found.players[player_ref]["name"] for player_ref in seat_refs]
    members = names + [found.players[player_ref]["name"] for player_ref in joined]
    first_dealer = game.first_dealer
    try:
        resolved, variant, teams = _options(found, kind, game.options, len(names))
        game_rules.check_players(names, resolved)
    except RuleError as error:
        raise Damaged(f"{where}.{error.field or 'options'}", _at(what, error.message)) from None
    except ValueError:
        raise Damaged(
            f"{where}.players", _("%(what)s: wrong number of players.", what=what)
        ) from None
    if not 0 <= first_dealer < len(names):
        raise Damaged(
            f"{where}.first_dealer", _("%(what)s: the first dealer is not a seat.", what=what)
        )
    if game.night is not None and game.night not in found.nights:
        raise Damaged(f"{where}.night", _no_such_night(what))
    for number, hand in enumerate(game.hands, start=1):
        if hand.number != number:
            raise Damaged(
                f"{where}.hands[{number - 1}].number",
                _("%(what)s: the hands are not numbered 1, 2, 3 …", what=what),
            )
    setup = Setup(players=tuple(names), options=resolved, first_dealer=first_dealer)
    record = _record(game, members, where, what)
    try:
        state = game_rules.play(setup, record)
    except RuleError as error:
        problem = error.said_by(game_rules)
        raise Damaged(
            f"{where}.hands[{(error.hand or 1) - 1}]",
            _(
                "%(what)s (%(game)s), %(problem)s",
                what=what,
                game=game_rules.title,
                problem=problem,
            ),
        ) from None
    finished_at, locked, abandoned = game.finished_at, game.locked, game.abandoned
    if finished_at is not None and not state.finished:
        # A game the table ended (an open-ended score pad) is ended again by its rules.
        with suppress(RuleError):
            state = game_rules.close(setup, state)
    if locked and not state.finished:
        raise Damaged(
            f"{where}.locked", _("%(what)s is marked finished but is not over.", what=what)
        )
    if finished_at is not None and not state.finished:
        raise Damaged(
            f"{where}.finished_at", _("%(what)s has an end time but is not over.", what=what)
        )
    if abandoned and state.finished:
        raise Damaged(
            f"{where}.abandoned", _("%(what)s is marked abandoned but is over.", what=what)
        )
    status = "abandoned" if abandoned else results.status_of(state)
    derived = results.derive(plugin, setup, state, status, 1, members)
    came = [entry for entry in record if isinstance(entry, Change)]
    try:
        changes = (
            [
                (
                    item.before_hand,
                    change_by_seat(shown_as_given(entry, shown), members),
                    item.created_at,
                    item.updated_at,
                )
                for item, entry, shown in zip(game.changes, came, state.changes, strict=True)
            ]
            if came
            else []
        )
    except ValueError:  # a name that sits at no seat of the game
        raise Damaged(
            f"{where}.joined", _("%(what)s: a player of a change has no seat.", what=what)
        ) from None
    keys = found.keys
    if derived.results:
        numbers, seats, result_keys, values = zip(*derived.results, strict=True)
        for key in set(result_keys).difference(keys):
            keys[key] = len(keys)
        packed = tuple(
            array("q", column)
            for column in (numbers, seats, map(keys.__getitem__, result_keys), values)
        )
    else:
        packed = ()
    return {
        "row": {
            "kind": kind,
            "options": resolved,
            "first_dealer": first_dealer,
            "variant": variant,
            "locked": locked,
            "status": status,
            "totals": derived.totals,
            "winners": derived.winners,
            "tally": derived.tally,
            "standing": derived.standing,
            "hand_count": len(state.hands),
            "table_size": len(names) if joined else None,
            "side_seats": results.side_seats(state, members, teams) if came else None,
            "version": 1,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
            "finished_at": finished_at,
        },
        "night": game.night,
        "seats": [*seat_refs, *joined],
        "changes": changes,
        "hands": [
            (
                hand.number,
                _dumps(game_rules.to_seats(hand.input, members)),
                raw.created_at,
                raw.updated_at,
            )
            for hand, raw in zip(state.hands, game.hands, strict=True)
        ],
        "results": packed,
    }

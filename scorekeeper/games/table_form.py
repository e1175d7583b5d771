"""Reading the "Table" panel's forms (RULES.md, "the table changes mid-game") into the change
the rules take, as the server's panel and the phone playing offline both read them.

Pure Python like every module of ``scorekeeper.games``: ``read_change`` reads a panel form
(``Fields``: a page's form, or the phone's ``{name: text or [texts]}``) with the reader's
digits; ``given_change`` matches the names it gives to the table however they are spelt
("ann" is Ann) and a newcomer's to the roster ("eve" is Eve); ``typed_for`` writes a recorded
change back as its form's fields.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games import entry_form
from scorekeeper.games.errors import Problems
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import number
from scorekeeper.games.text import ascii_digits
from scorekeeper.games.text import clean_name
from scorekeeper.games.text import text_key

#: What a change may hold besides its kind (anything else sent is not kept).
KEYS = ("kind", "player", "after", "score", "by", "points", "note", "sizes", "rounds")
#: The names a change may bring to the table (a newcomer), by kind.
NEWCOMERS = {"join": "player", "substitute": "by"}


class Fields:
    """A form's fields: ``get`` the first value of a name, ``getlist`` all of them (a page's
    form as it is; the phone's ``{name: text}``, a list for a field given more than once)."""

    def __init__(self, form: Mapping[str, Any]) -> None:
        self.form = form

    def __contains__(self, key: object) -> bool:
        return key in self.form

    def getlist(self, key: str) -> list[str]:
        if hasattr(self.form, "getlist"):
            return list(self.form.getlist(key))
        value = self.form.get(key)
        if value is None:
            return []
        return [str(item) for item in value] if isinstance(value, list) else [str(value)]

    def get(self, key: str, default: str = "") -> str:
        found = self.getlist(key)
        return found[0] if found else default


def fields(form: Mapping[str, Any]) -> Fields:
    return form if isinstance(form, Fields) else Fields(form)


def check_open(locked: bool, status: str | None) -> None:
    """Refuse any save to a game that is over (``locked``) or abandoned (``game_over``)."""
    if locked:
        raise RuleError("game_over", _("This game is over. Reopen it first to correct a hand."))
    if status == "abandoned":
        raise RuleError(
            "game_over", _("This game was abandoned. Resume it first to go on with it.")
        )


def read_before_hand(form: Mapping[str, Any]) -> int | None:
    """The hand the panel's form says comes next (blank: not said)."""
    return entry_form.whole_or_none(
        fields(form).get("before_hand"),
        _("The hand number must be a whole number."),
        "before_hand",
    )


def _typed_number(value: int) -> str:
    """A number as the reader types it: their digits, an ASCII minus (read back by
    ``read_change``)."""
    return number(value).replace("\u2212", "-")


def typed_for(change: Mapping[str, Any], recorded: Mapping[str, Any] | None = None) -> dict:
    """A recorded change as its form's fields (what ``read_change`` reads back): numbers in
    the reader's digits, a joiner's start as chosen (``recorded``: the change as it was
    recorded, "last" or "average" and not the total it came to)."""
    typed = {
        key: str(change[key])
        for key in ("player", "after", "by", "note")
        if change.get(key) is not None
    }
    if change.get("points") is not None:
        typed["points"] = _typed_number(change["points"])
    score = (recorded or change).get("score", change.get("score"))
    if isinstance(score, int):
        typed |= {"score": "number", "score_number": _typed_number(score)}
    elif score:
        typed["score"] = score
    return typed


def read_change(form: Mapping[str, Any], kind: str, digits: str | None = None) -> dict:
    """The change a panel form describes, as the service takes it (API.md, "Table
    changes"); what is no whole number is refused beside its field. Numbers are read in the
    reader's ``digits`` too (Bengali ৫; None: 0-9 only), as the panel writes them."""
    form = fields(form)
    body: dict = {"kind": kind}
    problems = Problems()

    def whole(key: str, message: str, negative: bool = True):
        try:
            raw = ascii_digits(form.get(key, ""), digits)
            return entry_form.whole_or_none(raw, message, key, negative)
        except RuleError as error:
            problems.add(error)
            return None

    def name(key: str) -> str | None:
        """A chip's name, or the new name typed beside the chips (it wins when given)."""
        typed = form.get(f"new_{key}", "").strip()
        return typed or form.get(key, "").strip() or None

    if kind in ("join", "leave", "sit_out", "substitute", "adjust"):
        body["player"] = name("player")
    if kind == "join":
        if form.get("after"):
            body["after"] = form.get("after")
        score = form.get("score", "last")
        typed = form.get("score_number", "").strip()
        if body["player"] in form.getlist("left"):
            pass  # a player who left comes back with the total they left with
        elif score == "number" or (typed and score == "last"):
            body["score"] = whole("score_number", _("The starting total must be a whole number."))
            if body["score"] is None and not problems:
                problems.add(RuleError("required", _("Type the starting total."), "score_number"))
        else:
            body["score"] = score
    elif kind == "substitute":
        body["by"] = name("by")
    elif kind == "adjust":
        body["points"] = whole("points", _("The points must be a whole number."))
        if form.get("note", "").strip():
            body["note"] = form.get("note")
    elif kind == "schedule":
        if "rounds" in form:
            body["rounds"] = whole("rounds", _("The rounds must be a whole number."), False)
        else:
            body["sizes"] = _sizes(form, problems, digits)
    problems.raise_any()
    return body


def _sizes(form: Fields, problems: Problems, digits: str | None) -> list[int]:
    """The cards of each hand still to play: the fields in order, the dropped hands left
    out, a blank field (the one for a hand to add) skipped; "end" ends the game now."""
    if form.get("end") == "1":
        return []
    dropped = set(form.getlist("drop"))
    sizes = []
    for index, raw in enumerate(form.getlist("size")):
        if str(index) in dropped or not raw.strip():
            continue
        try:
            value = entry_form.whole_or_none(
                ascii_digits(raw, digits), _("List the cards of each hand still to play."), "sizes"
            )
        except RuleError as error:
            problems.add(error)
            continue
        sizes.append(value)
    return sizes


def newcomer_name(body: object) -> str | None:
    """The name a change brings to the table, cleaned (None when it brings none or the name
    is no name: ``given_change`` refuses it)."""
    if not isinstance(body, Mapping):
        return None
    name = body.get(NEWCOMERS.get(body.get("kind"), ""))
    if not isinstance(name, str) or not name.strip():
        return None
    try:
        return clean_name(name)
    except RuleError:
        return None


def given_change(
    body: object, members: Sequence[str], roster_name: Callable[[str], str]
) -> dict[str, Any]:
    """The change as sent: an object, its names trimmed and matched to who has been at the
    table (``members``) however they are spelt ("ann" is Ann), a newcomer's name cleaned and
    made a roster name by ``roster_name`` (its cleaned name to the roster's spelling: "eve"
    is Eve, or the name as it is for someone new to the roster)."""
    if not isinstance(body, Mapping):
        raise RuleError("wrong_type", _("A change must be an object."))
    given = {key: body[key] for key in KEYS if key in body}
    by_key = {text_key(name): name for name in members}
    newcomer_key = NEWCOMERS.get(given.get("kind"))
    for key in ("player", "after", "by"):
        name = given.get(key)
        if not isinstance(name, str) or not name.strip():
            continue
        if key == newcomer_key:
            name = clean_name(name)
        found = by_key.get(text_key(name))
        if found is None and key == newcomer_key:
            found = roster_name(name)
        given[key] = found or name
    return given

"""Text that people type, as the rules and the app both read it (pure Python: no Flask).

Every line is put in Unicode NFKC form (full-width ``Ａｎｎ`` is ``Ann``, a decomposed ``Åsa`` the
composed one), its runs of spaces collapsed, and refused (a ``RuleError``) when it holds
something that cannot be seen or that changes how the text around it is shown: control
characters (NUL included), zero-width and bidirectional formatting characters (U+200B, U+202E
RLO, U+2066 LRI, ...), invisible fillers and lone surrogates. ``text_key`` is what uniqueness
and look-ups compare: the NFKC case-folded text without the characters that are never shown.
The app's ``scorekeeper.text`` gives the same as its own refusals.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _

#: Line breaks and tabs inside a one-line value are read as spaces.
SPACES = str.maketrans({"\t": " ", "\n": " ", "\r": " ", "\u2028": " ", "\u2029": " "})

#: Letters and marks that show nothing (Hangul fillers, the Braille blank, the combining
#: grapheme joiner, Khmer inherent vowels): categories alone do not catch them.
_INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0])


def _is_variation_selector(code: int) -> bool:
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F


def _is_noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _refused(char: str) -> bool:
    """Control, format (zero-width, bidirectional), surrogate, invisible or non-characters."""
    code = ord(char)
    category = unicodedata.category(char)
    return (
        category in ("Cc", "Cf", "Cs")
        or code in _INVISIBLE
        or _is_noncharacter(code)
        or code == 0x180E  # Mongolian vowel separator: a format character in older Unicode
    )


def ignorable(char: str) -> bool:
    """Left out of keys: everything refused, and variation selectors (allowed after emoji)."""
    return _refused(char) or _is_variation_selector(ord(char))


def _describe(char: str) -> str:
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return _("a lone surrogate, U+%(code)s", code=f"{code:04X}")
    name = unicodedata.name(char, "") or _("a control character")
    return f"U+{code:04X} {name}"


#: The zero-width joiner: refused, except between two emoji, where it makes one picture of
#: them (👩🏽‍🦱, 👨‍👩‍👧, 🏃‍♀️).
ZWJ = "\u200d"


def _is_emoji_part(char: str) -> bool:
    """A picture (a symbol, category So) or what modifies one: a skin tone, a variation
    selector."""
    code = ord(char)
    return (
        unicodedata.category(char) == "So"
        or 0x1F3FB <= code <= 0x1F3FF
        or (_is_variation_selector(code))
    )


def _joins_emoji(text: str, index: int) -> bool:
    """Whether the joiner at ``index`` stands between two emoji."""
    before, after = text[index - 1 : index], text[index + 1 : index + 2]
    return (
        bool(before)
        and bool(after)
        and _is_emoji_part(before)
        and unicodedata.category(after) == "So"
    )


def _check_characters(text: str, what: str, field: str | None, code: str) -> None:
    for index, char in enumerate(text):
        if char == ZWJ and _joins_emoji(text, index):
            continue
        if _refused(char):
            raise RuleError(
                code,
                _(
                    "%(what)s holds an invisible or control character (%(character)s): "
                    "type it again without it.",
                    what=what,
                    character=_describe(char),
                ),
                field,
            )


def normal_form(value: object, what: str, field: str | None, code: str) -> str:
    if not isinstance(value, str):
        raise RuleError("wrong_type", _("%(what)s must be text.", what=what), field)
    # Surrogates first: NFKC would pass them through, and nothing can store them.
    for char in value:
        if 0xD800 <= ord(char) <= 0xDFFF:
            _check_characters(char, what, field, code)
    return unicodedata.normalize("NFKC", value)


def normalize_line(value: object, what: str, field: str | None, code: str = "name_invalid") -> str:
    """One line of text in NFKC form, spaces collapsed, refused characters refused; any length."""
    text = normal_form(value, what, field, code).translate(SPACES)
    _check_characters(text, what, field, code)  # before split(), which takes some for spaces
    return " ".join(text.split())


def too_long(text: str, what: str, field: str | None, max_len: int, code: str) -> None:
    """Refuse ``text`` when it is longer than ``max_len`` characters."""
    if len(text) > max_len:
        raise RuleError(
            code,
            _(
                "%(what)s can be at most %(most)s characters (%(given)s given).",
                what=what,
                most=max_len,
                given=len(text),
            ),
            field,
        )


def clean_line(
    value: object,
    what: str,
    field: str | None,
    max_len: int,
    *,
    required: str | None = None,
    code: str = "name_invalid",
    too_long_code: str | None = None,
) -> str:
    """A one-line value (a name, a place): normalized, checked, at most ``max_len`` characters.

    ``what`` starts the messages ("A name must be text."); ``required`` is the message for an
    empty value (None: empty is allowed and gives ""). ``code`` is the error code for refused
    characters, ``too_long_code`` the one for too long a value (default: ``code``).
    """
    text = normalize_line(value, what, field, code)
    if not text and required:
        raise RuleError(code, required, field)
    too_long(text, what, field, max_len, too_long_code or code)
    return text


#: The longest name a player may have.
NAME_MAX = 40


def clean_name(name: object) -> str:
    """A player name in NFKC form, spaces collapsed, 1 to 40 characters, nothing invisible."""
    if not isinstance(name, str):
        raise RuleError("wrong_type", _("A player's name must be text."), "name")
    return clean_line(name, _("A name"), "name", NAME_MAX, required=_("Enter a name."))


def ascii_digits(text: str, digits: str | None) -> str:
    """What the reader typed with ``digits``, their language's digits (০-৯ in Bengali; None:
    0-9), in 0-9; any other digit (², ①) is left as it is, for the check to refuse."""
    return text.translate(str.maketrans(digits, "0123456789")) if digits else text


def text_key(text: str) -> str:
    """What uniqueness compares: NFKC, case-folded, spaces collapsed, never-shown characters
    left out. ``Ａｎｎ``, ``ANN`` and ``ann`` have one key; so do both forms of ``Åsa``."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    visible = "".join(char for char in folded.translate(SPACES) if not ignorable(char))
    return " ".join(visible.split())


def sort_key(text: str) -> tuple[str, str]:
    """How names sort for the reader: letters with accents among their plain letters
    (Élodie with the E's), case ignored; the full form breaks ties."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return plain.casefold(), text


# The same rules as patterns (the API's JSON schemas) ----------------------------------------
#
# A pattern is checked on the text as sent. It takes only characters that stay one character,
# and one this module accepts, in NFKC form (``Ａ`` is ``A``; the ligature ``ﬁ``, two letters
# in NFKC, is refused), so a text it takes is accepted as it is and never grows longer when
# normalized: what a pattern takes, the checks above take too.


def _taken_as_typed(char: str) -> str | None:
    """The character's NFKC form when it is one character the checks accept (a line break or
    tab counts as the space it is read as), else None."""
    if _refused(char.translate(SPACES)) or char == ZWJ:
        return None
    normal = unicodedata.normalize("NFKC", char)
    if len(normal) != 1 or _refused(normal.translate(SPACES)):
        return None
    return normal


def _escape(code: int) -> str:
    if code > 0xFFFF:
        return chr(code)  # Python's re, JSON schema validators and pydantic read it as one
    return f"\\u{code:04x}"


def _char_class(ranges: list[list[int]], negated: bool = False) -> str:
    body = "".join(
        _escape(low) if low == high else f"{_escape(low)}-{_escape(high)}" for low, high in ranges
    )
    return f"[^{body}]" if negated else f"[{body}]"


def _complement(ranges: list[list[int]]) -> list[list[int]]:
    """The code points outside ``ranges``, but the surrogates: a lone one is no JSON text (the
    app refuses the body, 400 invalid_json) and JSON schema validators refuse a pattern that
    names them."""
    outside: list[list[int]] = []
    start = 0
    for low, high in [*ranges, [0x110000, 0x110000]]:
        if low > start:
            gap = (start, low - 1)
            for part in ([gap[0], min(gap[1], 0xD7FF)], [max(gap[0], 0xE000), gap[1]]):
                if part[0] <= part[1]:
                    outside.append(part)
        start = high + 1
    return outside


def _kinds(char: str) -> tuple[str, ...]:
    """The classes of the patterns a character belongs to (as typed)."""
    normal = _taken_as_typed(char)
    if normal is None:
        return ()
    kinds = ["typed"]
    kinds.append("space" if normal.translate(SPACES).isspace() else "visible")
    if _is_emoji_part(normal):
        kinds.append("emoji")
    if unicodedata.category(normal) == "So":
        kinds.append("picture")
    conjoining = 0x1100 <= ord(char) <= 0x11FF  # Hangul jamo: two may become one syllable
    if not conjoining and (normal.isalnum() or normal in "._-"):
        kinds.append("username")
    return tuple(kinds)


#: What an unassigned or private-use character is: kept as it is, seen (a box at least).
_UNASSIGNED = ("typed", "visible")


@cache
def _classes() -> dict[str, str]:
    """Each class of the patterns, from one pass over every code point (about a second)."""
    ranges: dict[str, list[list[int]]] = {
        kind: [] for kind in ("typed", "visible", "space", "emoji", "picture", "username")
    }
    category = unicodedata.category
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        if category(char) in ("Cn", "Co") and not _is_noncharacter(code):
            kinds: tuple[str, ...] = _UNASSIGNED
        else:
            kinds = _kinds(char)
        for kind in kinds:
            held = ranges[kind]
            if held and held[-1][1] == code - 1:
                held[-1][1] = code
            else:
                held.append([code, code])
    found = {kind: _char_class(each) for kind, each in ranges.items()}
    # The wide classes by what they leave out (a few thousand characters): a generator of
    # examples (hypothesis) reads them in a moment, the full lists in minutes.
    for kind in ("typed", "visible"):
        found[kind] = _char_class(_complement(ranges[kind]), negated=True)
    found["untyped"] = _char_class(_complement(ranges["typed"]))
    # Between the lines of notes: the line breaks ``str.splitlines`` reads.
    breaks = [[0x0B, 0x0C], [0x1C, 0x1E], [0x85, 0x85]]
    found["breaks"] = _char_class(breaks)
    # What a text is made of: what can be typed, and the joiner (where it may stand is said
    # around it); for notes, the line breaks too.
    joiner = [[ord(ZWJ), ord(ZWJ)]]
    found["unit"] = _char_class(_complement(_merge(ranges["typed"] + joiner)), negated=True)
    found["unit_lines"] = _char_class(
        _complement(_merge(ranges["typed"] + joiner + breaks)), negated=True
    )
    return found


def _merge(ranges: list[list[int]]) -> list[list[int]]:
    """The code point ranges in order, those that touch or overlap made one."""
    merged: list[list[int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return merged


@cache
def line_pattern(required: bool = True, lines: bool = False) -> str:
    """The pattern of a one-line text (a name, a place), or of ``lines`` (notes): characters
    the checks accept, a zero-width joiner only between two emoji (after an emoji part,
    before a picture: ``_joins_emoji``), and, when ``required``, at least one that can be
    seen.

    One class repeated, the joiner's place and the visible character said by lookarounds
    at the start: a generator of examples (schemathesis, hypothesis) reaches any length of
    it at once (it folds a length into the repeat), where alternatives of unlike lengths
    made it draw and throw away for seconds a field."""
    found = _classes()
    unit = found["unit_lines" if lines else "unit"]
    anything = "[\\s\\S]*"
    joiner = (
        f"(?!{anything}(?<!{found['emoji']})\\u200d)(?!{anything}\\u200d(?!{found['picture']}))"
    )
    # What can be typed is a space or seen: the first that is no space is seen (no line break,
    # no joiner), and there is one.
    seen = f"(?!{found['space']}*(?:$|{found['untyped']}))" if required else ""
    return f"^{seen}{joiner}{unit}*$"


@cache
def username_pattern() -> str:
    """The pattern of a username: letters, digits, dots, dashes and underscores (the NFKC
    form of each one character: ``ｆｒｉｄａｙ`` is ``friday``)."""
    return f"^{_classes()['username']}*$"

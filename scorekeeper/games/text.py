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

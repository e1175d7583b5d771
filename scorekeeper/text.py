"""Text that people type (names, usernames, places, notes): one place that normalizes it.

Every line is put in Unicode NFKC form (full-width ``Ａｎｎ`` is ``Ann``, a decomposed ``Åsa`` the
composed one), its runs of spaces collapsed, and refused when it holds something that cannot be
seen or that changes how the text around it is shown: control characters (NUL included),
zero-width and bidirectional formatting characters (U+200B, U+202E RLO, U+2066 LRI, ...),
invisible fillers and lone surrogates. ``text_key`` is what uniqueness and look-ups compare:
the NFKC case-folded text without the characters that are never shown.

The checks themselves live with the rules (``scorekeeper.games.text``, pure Python); here they
refuse as the app does (a ``Refusal``, with the same code, message and field).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.errors import as_refusal
from scorekeeper.games import text as rules_text
from scorekeeper.games.text import sort_key
from scorekeeper.games.text import text_key

__all__ = ["clean_line", "clean_lines", "normalize_line", "sort_key", "text_key"]


def _normal(value: object, what: str, field: str | None, code: str) -> str:
    with as_refusal():
        return rules_text.normal_form(value, what, field, code)


def normalize_line(value: object, what: str, field: str | None, code: str = "name_invalid") -> str:
    """One line of text in NFKC form, spaces collapsed, refused characters refused; any length."""
    with as_refusal():
        return rules_text.normalize_line(value, what, field, code)


def clean_line(value: object, what: str, field: str | None, max_len: int, **checks: Any) -> str:
    """A one-line value (a name, a place): normalized, checked, at most ``max_len`` characters
    (``scorekeeper.games.text.clean_line``, whose ``required``, ``code`` and
    ``too_long_code`` it takes), refused as the app refuses."""
    with as_refusal():
        return rules_text.clean_line(value, what, field, max_len, **checks)


def clean_lines(
    value: object,
    what: str,
    field: str | None,
    max_len: int,
    *,
    code: str = "name_invalid",
    too_long_code: str | None = None,
) -> str:
    """Text of several lines (notes): each line as ``clean_line`` makes it, line breaks kept."""
    text = _normal(value, what, field, code)
    lines = [normalize_line(line, what, field, code) for line in text.strip().splitlines()]
    text = "\n".join(lines).strip()
    with as_refusal():
        rules_text.too_long(text, what, field, max_len, too_long_code or code)
    return text

"""Words for people, in the reader's language, for the rules too (which know nothing of Flask).

The rules mark every sentence they say with ``_`` (or ``ngettext`` when a number decides the
form), with named placeholders so that no sentence is glued together from pieces::

    raise RuleError("bid_out_of_range", _("%(name)s's bid must be from %(low)s to %(high)s.",
                                          name=name, low=0, high=cards), ...)

Labels made when a module is imported (option labels, facts, statistics) use ``N_``: a
lazy text, translated each time it is shown. The app plugs Flask-Babel in with ``use``; without
it (the rules' own tests) the English is used as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_gettext: Callable[[str], str] = lambda message: message  # noqa: E731
_ngettext: Callable[[str, str, int], str] = lambda one, many, n: one if n == 1 else many  # noqa: E731
_number: Callable[[Any], str] = str


def use(gettext: Callable, ngettext: Callable, number: Callable | None = None) -> None:
    """Translate with these (the app's Flask-Babel functions); ``number`` writes numbers."""
    global _gettext, _ngettext, _number
    _gettext, _ngettext = gettext, ngettext
    if number is not None:
        _number = number


def _fill(text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    shown = {key: (_number(value) if _is_number(value) else value) for key, value in params.items()}
    return text % shown


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _(message: str, **params: Any) -> str:
    """``message`` in the reader's language, its ``%(name)s`` placeholders filled in."""
    return _fill(_gettext(message), params)


def ngettext(one: str, many: str, count: int, **params: Any) -> str:
    """The form of the sentence for ``count`` (``%(num)s`` is the count) in the language."""
    return _fill(_ngettext(one, many, count), {"num": count, **params})


class LazyText(str):
    """A text translated when it is shown (labels defined when a module is imported)."""

    def __new__(cls, message: str, **params: Any) -> LazyText:
        made = super().__new__(cls, message)
        made.params = params
        return made

    def __str__(self) -> str:
        return _(str.__str__(self), **self.params)

    def __html__(self) -> str:  # Jinja renders what __html__ says (escaped by markupsafe)
        from markupsafe import escape

        return str(escape(str(self)))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self, other: str) -> str:
        return str(self) + other

    def __radd__(self, other: str) -> str:
        return other + str(self)

    def capitalize(self) -> str:
        return str(self).capitalize()

    def lower(self) -> str:
        return str(self).lower()

    def upper(self) -> str:
        return str(self).upper()


def N_(message: str, **params: Any) -> LazyText:  # noqa: N802 (the usual name for it)
    return LazyText(message, **params)


def number(value: Any) -> str:
    """A number as the reader writes it (Bengali digits in Bengali)."""
    return _number(value)


def english(text: str) -> str:
    """A plain ``str`` of the English of ``text`` (a lazy text or not): for documents that stay
    in English, such as the API's schema."""
    return str.__str__(text)

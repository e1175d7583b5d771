"""Words for people, in the reader's language, for the rules too (which know nothing of Flask).

The rules mark every sentence they say with ``_`` (or ``ngettext`` when a number decides the
form), with named placeholders so that no sentence is glued together from pieces::

    raise RuleError("bid_out_of_range", _("%(name)s's bid must be from %(low)s to %(high)s.",
                                          name=name, low=0, high=cards), ...)

The same English word that means two things gets a context, so that a language can word
each its own way: ``pgettext("suit", "Hearts")`` is the suit, ``lazy_pgettext("game title",
"Hearts")`` the game (the catalog keeps them apart, as gettext's ``msgctxt``).

Labels made when a module is imported (option labels, facts, statistics) use ``N_`` (or
``lazy_ngettext``, ``lazy_pgettext``): a lazy text, translated each time it is shown. A lazy
text is a ``str`` holding its English, so it works wherever a string does; it turns into the
reader's language when it is shown: ``str()``, f-strings and ``format``, Jinja (``__html__``),
the usual string methods, and JSON answers through ``shown`` (the app's JSON encoder calls it).
Comparing it (``==``, a dict key) uses the English. ``names`` writes a list of names ("Ann, Ben
and Cy") as the language does. The app plugs Flask-Babel in with ``use``; without it
(the rules' own tests) the English is used as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any


def as_it_is(message: str) -> str:
    return message


def english_plural(one: str, many: str, count: int) -> str:
    return one if count == 1 else many


_gettext: Callable[[str], str] = as_it_is
#: ``(context, message)`` to its text; None: the context is not told apart (``_gettext``).
_pgettext: Callable[[str, str], str] | None = None
_ngettext: Callable[[str, str, int], str] = english_plural
_number: Callable[[Any], str] = str


def english_names(items: list[str]) -> str:
    """Names as the English of the app writes them: "Ann and Ben", "Ann, Ben and Cy"."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_names: Callable[[list[str]], str] = english_names


def use(
    gettext: Callable,
    ngettext: Callable,
    number: Callable | None = None,
    names: Callable | None = None,
    pgettext: Callable | None = None,
) -> None:
    """Translate with these: ``gettext(message)``, ``ngettext(one, many, count)`` and
    ``pgettext(context, message)`` give the translated text without filling it in (``_``
    fills it); ``number`` writes numbers and ``names`` a list of names in the reader's
    language. Without ``pgettext`` a message with a context is translated as without one."""
    global _gettext, _ngettext, _pgettext, _number, _names
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext
    if number is not None:
        _number = number
    if names is not None:
        _names = names


def plain() -> None:
    """Back to the English as it is, numbers as Python writes them (the rules' own tests)."""
    use(as_it_is, english_plural, str, english_names)


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


def pgettext(context: str, message: str, **params: Any) -> str:
    """``message`` as it is meant in ``context`` ("suit", "game title"), filled in."""
    return _fill(_in_context(context, message), params)


def _in_context(context: str, message: str) -> str:
    return _pgettext(context, message) if _pgettext is not None else _gettext(message)


def ngettext(one: str, many: str, count: int, **params: Any) -> str:
    """The form of the sentence for ``count`` (``%(num)s`` is the count) in the language."""
    return _fill(_ngettext(one, many, count), {"num": count, **params})


def translated(message: str) -> str:
    """``message`` in the reader's language, its placeholders left as they are (for a
    template's ``_``, which fills them in itself)."""
    return _gettext(message)


def translated_plural(one: str, many: str, count: int) -> str:
    """The form for ``count`` in the reader's language, placeholders left as they are."""
    return _ngettext(one, many, count)


def translated_in(context: str, message: str) -> str:
    """``message`` as meant in ``context``, placeholders left as they are."""
    return _in_context(context, message)


def names(items: Iterable[str]) -> str:
    """Names (or sides) as one phrase in the reader's language: "Ann, Ben and Cy"."""
    return _names([str(item) for item in items])


def _in_english(text: str, params: dict[str, Any]) -> str:
    return text % {key: str(value) for key, value in params.items()} if params else text


class LazyText(str):
    """A text translated when it is shown (labels defined when a module is imported).

    Its ``str`` value is the English (filled in), so comparing and hashing it is stable; each
    way of showing it gives the reader's language.
    """

    def __new__(
        cls, message: str, plural: str | None = None, count: int | None = None, /, **params: Any
    ) -> LazyText:  # positional only: a placeholder may be called "count" or "plural"
        if plural is not None:
            params = {"num": count, **params}
            english = _in_english(message if count == 1 else plural, params)
        else:
            english = _in_english(message, params)
        made = super().__new__(cls, english)
        made.message, made.plural, made.count, made.params = message, plural, count, params
        return made

    def __getnewargs_ex__(self):  # copies and pickles keep the message, not only the English
        return (self.message, self.plural, self.count), self.params

    def __str__(self) -> str:
        if self.plural is not None:
            return _fill(_ngettext(self.message, self.plural, self.count), self.params)
        return _(self.message, **self.params)

    def __html__(self) -> str:  # Jinja renders what __html__ says (escaped by markupsafe)
        from markupsafe import escape

        return str(escape(str(self)))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self, other: str) -> str:
        return str(self) + other

    def __radd__(self, other: str) -> str:
        return other + str(self)

    def __mod__(self, values: Any) -> str:
        return str(self) % values

    def __contains__(self, part: object) -> bool:
        return isinstance(part, str) and str.__str__(part) in str(self)


def _shown_method(name: str) -> Callable:
    method = getattr(str, name)

    def shown_method(self: LazyText, *args: Any, **kwargs: Any) -> Any:
        return method(str(self), *args, **kwargs)

    shown_method.__name__ = name
    shown_method.__doc__ = f"``str.{name}`` of the text as shown."
    return shown_method


# The string methods people's words go through (and Jinja's filters of the same names).
for _name in (
    "capitalize",
    "casefold",
    "endswith",
    "format",
    "lower",
    "lstrip",
    "replace",
    "rstrip",
    "split",
    "startswith",
    "strip",
    "title",
    "upper",
):
    setattr(LazyText, _name, _shown_method(_name))
del _name


def N_(message: str, **params: Any) -> LazyText:  # noqa: N802 (the usual name for it)
    """A lazy ``_``: ``message`` translated each time it is shown."""
    return LazyText(message, **params)


class LazyContextText(LazyText):
    """A lazy text with a context (``lazy_pgettext``): the English, translated as meant in
    its context each time it is shown."""

    def __new__(cls, context: str, message: str, /, **params: Any) -> LazyContextText:
        made = super().__new__(cls, message, **params)
        made.context = context
        return made

    def __getnewargs_ex__(self):
        return (self.context, self.message), self.params

    def __str__(self) -> str:
        return _fill(_in_context(self.context, self.message), self.params)


def lazy_pgettext(context: str, message: str, **params: Any) -> LazyContextText:
    """A lazy ``pgettext``: ``message`` as meant in ``context``, translated when shown."""
    return LazyContextText(context, message, **params)


def lazy_ngettext(one: str, many: str, count: int, **params: Any) -> LazyText:
    """A lazy ``ngettext``: the form for ``count``, translated each time it is shown."""
    return LazyText(one, many, count, **params)


def number(value: Any) -> str:
    """A number as the reader writes it (Bengali digits in Bengali)."""
    return _number(value)


class Numbers(str):
    """Whole numbers separated by commas ("7, 7, 7"), an example of what to type: shown in
    the reader's digits; its value (comparing, hashing) is the English."""

    def __new__(cls, *values: int) -> Numbers:
        made = super().__new__(cls, ", ".join(str(value) for value in values))
        made.values = values
        return made

    def __getnewargs__(self):
        return self.values

    def __str__(self) -> str:
        return ", ".join(_number(value) for value in self.values)


def english(text: str) -> str:
    """A plain ``str`` of the English of ``text`` (a lazy text or not): for documents that stay
    in English, such as the API's schema."""
    return str.__str__(text)


def shown(value: Any) -> Any:
    """``value`` with every lazy text in it (in dicts, lists, tuples, dataclasses) turned
    into the text as shown now: what a JSON answer holds."""
    if isinstance(value, LazyText):
        return str(value)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, dict):
        return {shown(key): shown(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [shown(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return shown(dataclasses.asdict(value))
    return value

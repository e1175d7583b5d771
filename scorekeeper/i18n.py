"""The reader's language: Flask-Babel, the locale of each request, numbers and dates.

Pages follow the account's choice, else the browser's (a cookie set by the language switch),
else its Accept-Language; the API follows Accept-Language only (codes and fields never change
with the language). English is the fallback.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from datetime import date
from datetime import datetime

from babel import Locale
from babel import numbers
from babel.dates import format_date as babel_format_date
from babel.lists import format_list
from flask import Flask
from flask import g
from flask import has_request_context
from flask import request
from flask.globals import _cv_request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_babel import get_locale
from flask_babel import get_translations
from flask_login import current_user
from jinja2 import pass_eval_context
from markupsafe import Markup

from scorekeeper.games import i18n as rules_i18n
from scorekeeper.games import text as rules_text
from scorekeeper.games.pages import filled

#: The languages of the app, each by its own name (the switch shows them so).
LANGUAGES = {"en": "English", "su": "Basa Sunda", "lo": "ພາສາລາວ", "bn": "বাংলা"}
COOKIE = "lang"
#: Dates of a language written as another locale of it writes them.
DATE_LOCALES = {"en": "en_GB"}


def select_locale() -> str:
    if not has_request_context():
        return "en"
    if request.path.startswith("/api/"):
        return request.accept_languages.best_match(LANGUAGES) or "en"
    chosen = getattr(g, "language", None)
    if chosen in LANGUAGES:
        return chosen
    user = current_user if current_user else None
    account_locale = getattr(user, "locale", None) if user and user.is_authenticated else None
    if account_locale in LANGUAGES:
        return account_locale
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return request.accept_languages.best_match(LANGUAGES) or "en"


def _environ() -> dict | None:
    """The current request's WSGI environ, or None outside a request: read from Flask's
    context variable itself, not through the ``request`` proxy (a page asks hundreds of
    times, for every number and word it shows)."""
    context = _cv_request.get(None)
    return None if context is None else context.request.environ


def locale_code() -> str:
    """The reader's language code, looked up once per request (a page asks hundreds of times)."""
    environ = _environ()
    if environ is None:
        return str(get_locale() or "en")
    known = environ.get("scorekeeper.locale")
    if known is None:
        known = environ["scorekeeper.locale"] = str(get_locale() or "en")
    return known


def _translations():
    """The reader's catalog, looked up once per request."""
    environ = _environ()
    if environ is None:
        return get_translations()
    known = environ.get("scorekeeper.translations")
    if known is None:
        known = environ["scorekeeper.translations"] = get_translations()
    return known


#: The script of each numbering system CLDR gives a language (Babel itself writes 0-9 only).
DIGIT_SCRIPTS = {"beng": "BENGALI", "laoo": "LAO", "deva": "DEVANAGARI", "arab": "ARABIC-INDIC"}


@functools.cache
def digits_of(code: str) -> str | None:
    """The digits the locale writes numbers with when CLDR says they are not 0-9."""
    system = getattr(Locale.parse(code), "default_numbering_system", "latn")
    script = DIGIT_SCRIPTS.get(system)
    if script is None:
        return None
    zero = ord(unicodedata.lookup(f"{script} DIGIT ZERO"))
    return "".join(chr(zero + offset) for offset in range(10))


@functools.cache
def _digit_table(code: str) -> dict[int, int] | None:
    digits = digits_of(code)
    return str.maketrans("0123456789", digits) if digits else None


def ascii_digits(text: str) -> str:
    """What the reader typed with the digits of their language (০-৯ in Bengali) in 0-9; any
    other digit (², ①) is left as it is, for the check to refuse."""
    return rules_text.ascii_digits(text, digits_of(locale_code()))


def _native_digits(text: str, code: str) -> str:
    table = _digit_table(code)
    return text.translate(table) if table else text


#: The whole numbers a page shows most (scores, bids, hand numbers) are written once per
#: language and process (``_whole``): a game page shows hundreds.
SMALL_LIMIT = 1000


def _written(text: str, code: str) -> str:
    """Digits as language ``code`` writes them, with a real minus sign."""
    return _native_digits(text, code).replace("-", "−")


@functools.cache
def _whole(value: int, code: str) -> str:
    return _written(str(value), code)


def number(value) -> str:
    """A number as the reader writes it (Bengali digits in Bengali; a real minus sign).
    Scores are not grouped in thousands (a score sheet reads 1000, as the table writes it)."""
    code = locale_code()
    if type(value) is int and -SMALL_LIMIT <= value <= SMALL_LIMIT:
        return _whole(value, code)
    if isinstance(value, int):  # any size (Babel's decimal context stops at 28 digits)
        text = str(value)
    else:
        text = numbers.format_decimal(
            value, format="0.####", locale=code, numbering_system="default"
        )
    return _written(text, code)


def percent(value) -> str:
    if value is None:
        return "–"
    code = locale_code()
    return _native_digits(
        numbers.format_percent(value, locale=code, numbering_system="default"), code
    )


def decimal(value, places: int = 1) -> str:
    """A number with exactly ``places`` decimals (12.345 -> "12.3"), in the reader's digits."""
    code = locale_code()
    pattern = "0." + "0" * places if places else "0"
    text = numbers.format_decimal(value, format=pattern, locale=code, numbering_system="default")
    return _native_digits(text, code).replace("-", "−")


def duration(seconds: float) -> str:
    """How long to wait, rounded up to whole minutes, in the reader's words ("3 minutes")."""
    minutes = max(1, math.ceil(seconds / 60))
    return rules_i18n.ngettext("%(num)s minute", "%(num)s minutes", minutes)


def day(value: date | datetime, form: str = "full") -> str:
    """A date in the reader's language (and digits)."""
    code = locale_code()
    # The app's English writes dates the British way (Friday 17 May 2024), as it always has.
    shown = DATE_LOCALES.get(code, code)
    return _native_digits(babel_format_date(value, format=form, locale=shown), code)


def time_words() -> dict[str, str]:
    """How the reader writes a time of day, for a script that writes one (the browser's own
    ``Intl`` knows no Sundanese or Lao): CLDR's short time pattern ("HH:mm", "h:mm a") and
    the names of the two halves of the day; ``Words.time`` (static/js/words.js) fills them in
    with the reader's digits."""
    locale = Locale.parse(DATE_LOCALES.get(locale_code(), locale_code()))
    periods = locale.day_periods["format"]["abbreviated"]
    return {
        "time_pattern": str(locale.time_formats["short"].pattern),
        "am": periods["am"],
        "pm": periods["pm"],
    }


def gettext(message: str) -> str:
    """``message`` in the reader's language, placeholders left as they are."""
    return _translations().ugettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` ("suit", "game title"; the catalog's msgctxt),
    placeholders left as they are. A context the catalog holds no translation for yet is
    translated as the same words without one, so a page never turns English while the
    catalogs catch up with a new context."""
    translations = _translations()
    text = translations.upgettext(context, message)
    return translations.ugettext(message) if text == message else text


def ngettext(one: str, many: str, count: int) -> str:
    """The form for ``count`` in the reader's language, placeholders left as they are
    (Flask-Babel's own ``ngettext`` fills ``%(num)s`` at once, with ASCII digits)."""
    return _translations().ungettext(one, many, count)


def _filled(eval_ctx, text: str, variables: dict) -> str:
    """A template's text: autoescaped (a format string) and filled in, the numbers of the
    placeholders in the reader's digits (as the phone's sheet fills them: ``games.pages``)."""
    return filled(eval_ctx, text, variables, number)


#: Where a catalog keeps what its templates' words were worked out to: the labels, and the
#: sentences filled in with words and numbers (a game page says the same ones save after
#: save: each bid still to make, each player's tricks, the hand's title), each worked out once
#: per catalog, so in the reader's language and digits. Only what is filled in with plain
#: text and numbers is kept (a value of any other kind may say something else next time), and
#: at most ``KEPT_LIMIT`` of them: past it, the catalog starts over.
_KEPT = "_scorekeeper_kept"
KEPT_LIMIT = 4096
_KEPT_TYPES = frozenset({str, Markup, int, float})


def _worked_out(eval_ctx, source: tuple, variables: dict, text) -> str:
    """The words of ``source`` (the message's ids, and its count for a plural) filled in with
    ``variables``: as the reader's catalog kept them, else ``text()`` (the catalog's words for
    them: ``gettext``, ``pgettext`` or ``ngettext`` above) filled in, and kept."""
    translations = _translations()
    kept = translations.__dict__.get(_KEPT)
    if kept is None:
        kept = translations.__dict__[_KEPT] = {}
    key = (source, eval_ctx.autoescape)
    if variables:
        for name, value in variables.items():
            if type(value) not in _KEPT_TYPES:
                return _filled(eval_ctx, text(), variables)
            key += (name, type(value), value)
    try:
        found = kept.get(key)
    except TypeError:  # a message id or a count that is no text or number
        return _filled(eval_ctx, text(), variables)
    if found is None:
        if len(kept) >= KEPT_LIMIT:
            kept.clear()
        found = kept[key] = _filled(eval_ctx, text(), variables)
    return found


@pass_eval_context
def _template_gettext(eval_ctx, message: str, **variables) -> str:
    """The templates' ``_``/``gettext``: Jinja's newstyle gettext (autoescaped, always a
    format string) with the numbers of the placeholders in the reader's digits."""
    return _worked_out(eval_ctx, (message,), variables, lambda: gettext(message))


@pass_eval_context
def _template_pgettext(eval_ctx, message_context: str, message: str, **variables) -> str:
    """The templates' ``pgettext``: ``_`` for a message with a context."""
    return _worked_out(
        eval_ctx, (message_context, message), variables, lambda: pgettext(message_context, message)
    )


@pass_eval_context
def _template_ngettext(eval_ctx, one: str, many: str, count: int, **variables) -> str:
    variables.setdefault("num", count)
    return _worked_out(eval_ctx, (one, many, count), variables, lambda: ngettext(one, many, count))


def names(items: list[str]) -> str:
    """Names as one phrase in the reader's language ("Ann, Ben and Cy"): Babel's list
    patterns, English as the rules write it."""
    code = locale_code()
    if code == "en":
        return rules_i18n.english_names(items)
    return format_list(items, locale=code)


class JSONProvider(DefaultJSONProvider):
    """JSON answers with every lazy text (labels of the rules) in the reader's language."""

    def dumps(self, obj, **kwargs) -> str:
        return super().dumps(rules_i18n.shown(obj), **kwargs)


def speak_to_the_rules() -> None:
    """The rules' words through the reader's catalog and digits (the rules layer keeps them
    process-wide: ``register`` plugs them in, as would a test that unplugged them).

    The rules fill their placeholders themselves (numbers in the reader's digits), so they get
    the catalog's texts as they are (Flask-Babel's ngettext would fill in ``num`` only)."""
    rules_i18n.use(gettext, ngettext, number, names, pgettext)


def register(app: Flask) -> None:
    # One Babel per app: its catalogs are cached on it, so two apps of one process (the
    # tests') never share a translation directory's catalogs.
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        _=_template_gettext,
        gettext=_template_gettext,
        ngettext=_template_ngettext,
        pgettext=_template_pgettext,
    )
    speak_to_the_rules()
    app.json = JSONProvider(app)
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["day"] = day
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["locale_code"] = locale_code
    app.jinja_env.globals["lang_attr"] = lambda code: Markup(f' lang="{code}"')
    app.jinja_env.globals["time_words"] = time_words

    @app.after_request
    def content_language(response):
        """A page says its language (the service worker shows its offline page in it)."""
        if response.mimetype == "text/html":
            response.headers.setdefault("Content-Language", locale_code())
        return response

"""The reader's language: Flask-Babel, the locale of each request, numbers and dates.

Pages follow the account's choice, else the browser's (a cookie set by the language switch),
else its Accept-Language; the API follows Accept-Language only (codes and fields never change
with the language). English is the fallback.
"""

from __future__ import annotations

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
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_babel import get_locale
from flask_babel import get_translations
from flask_login import current_user
from markupsafe import Markup

from scorekeeper.games import i18n as rules_i18n

#: The languages of the app, each by its own name (the switch shows them so).
LANGUAGES = {"en": "English", "su": "Basa Sunda", "lo": "ພາສາລາວ", "bn": "বাংলা"}
COOKIE = "lang"

babel = Babel()


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


def locale_code() -> str:
    return str(get_locale() or "en")


#: The script of each numbering system CLDR gives a language (Babel itself writes 0-9 only).
DIGIT_SCRIPTS = {"beng": "BENGALI", "laoo": "LAO", "deva": "DEVANAGARI", "arab": "ARABIC-INDIC"}


def digits_of(code: str) -> str | None:
    """The digits the locale writes numbers with when CLDR says they are not 0-9."""
    system = getattr(Locale.parse(code), "default_numbering_system", "latn")
    script = DIGIT_SCRIPTS.get(system)
    if script is None:
        return None
    zero = ord(unicodedata.lookup(f"{script} DIGIT ZERO"))
    return "".join(chr(zero + offset) for offset in range(10))


def _native_digits(text: str, code: str) -> str:
    digits = digits_of(code)
    return text.translate(str.maketrans("0123456789", digits)) if digits else text


def number(value) -> str:
    """A number as the reader writes it (Bengali digits in Bengali; a real minus sign)."""
    code = locale_code()
    if isinstance(value, int):
        text = numbers.format_decimal(value, locale=code, numbering_system="default")
    else:
        text = numbers.format_decimal(
            value, format="#,##0.#", locale=code, numbering_system="default"
        )
    return _native_digits(text, code).replace("-", "−")


def percent(value) -> str:
    if value is None:
        return "–"
    code = locale_code()
    return _native_digits(
        numbers.format_percent(value, locale=code, numbering_system="default"), code
    )


def day(value: date | datetime, form: str = "full") -> str:
    """A date in the reader's language (and digits)."""
    code = locale_code()
    return _native_digits(babel_format_date(value, format=form, locale=code), code)


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


def register(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    # The rules fill their placeholders themselves (numbers in the reader's digits), so they
    # get the catalog's texts as they are (Flask-Babel's ngettext would fill in ``num`` only).
    rules_i18n.use(
        lambda message: get_translations().ugettext(message),
        lambda one, many, count: get_translations().ungettext(one, many, count),
        number,
        names,
    )
    app.json = JSONProvider(app)
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["day"] = day
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["locale_code"] = locale_code
    app.jinja_env.globals["lang_attr"] = lambda code: Markup(f' lang="{code}"')

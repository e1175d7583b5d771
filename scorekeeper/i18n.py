"""The reader's language: Flask-Babel, the locale of each request, numbers and dates.

Pages follow the account's choice, else the browser's (a cookie set by the language switch),
else its Accept-Language; the API follows Accept-Language only (codes and fields never change
with the language). English is the fallback.
"""

from __future__ import annotations

from datetime import date
from datetime import datetime

from babel import Locale
from babel import numbers
from babel.dates import format_date as babel_format_date
from flask import Flask
from flask import g
from flask import has_request_context
from flask import request
from flask_babel import Babel
from flask_babel import get_locale
from flask_babel import gettext
from flask_babel import ngettext
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


def digits_of(code: str) -> str | None:
    """The digits the locale writes numbers with when CLDR says they are not 0-9."""
    locale = Locale.parse(code)
    system = (
        locale.default_numbering_system if hasattr(locale, "default_numbering_system") else "latn"
    )
    if system == "latn":
        return None
    zero = numbers.format_decimal(0, locale=code, numbering_system="default")
    return "".join(chr(ord(zero) + offset) for offset in range(10)) if len(zero) == 1 else None


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
    return text.replace("-", "−")


def percent(value) -> str:
    if value is None:
        return "–"
    return numbers.format_percent(value, locale=locale_code(), numbering_system="default")


def day(value: date | datetime, form: str = "full") -> str:
    """A date in the reader's language (and digits)."""
    code = locale_code()
    return _native_digits(babel_format_date(value, format=form, locale=code), code)


def register(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    rules_i18n.use(gettext, ngettext, number)
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["day"] = day
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["locale_code"] = locale_code
    app.jinja_env.globals["lang_attr"] = lambda code: Markup(f' lang="{code}"')

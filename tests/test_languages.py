"""The reader's language: chosen on every page, remembered per account and per browser,
the default from Accept-Language, <html lang> set right; the API by Accept-Language."""

from __future__ import annotations

import re

import pytest
from flask_babel import force_locale

from scorekeeper.extensions import db
from scorekeeper.games.registry import GAMES
from scorekeeper.i18n import speak_to_the_rules
from scorekeeper.models import Account


def html_lang(page) -> str:
    return re.search(r'<html lang="([^"]+)"', page.text).group(1)


def test_the_browser_s_language_is_the_default(client):
    assert html_lang(client.get("/login")) == "en"
    assert html_lang(client.get("/login", headers={"Accept-Language": "lo, en;q=0.5"})) == "lo"
    assert html_lang(client.get("/login", headers={"Accept-Language": "fr"})) == "en"


def switch(client, code: str, back: str = "/", **extra):
    """Tap a language on the switch: a button of the footer's form."""
    return client.post("/language", data={"code": code, "next": back, **extra})


def test_the_switch_is_on_every_page_and_remembered_by_the_browser(client):
    page = client.get("/login")
    for code, name in (("su", "Basa Sunda"), ("lo", "ພາສາລາວ"), ("bn", "বাংলা"), ("en", "English")):
        assert re.search(
            rf'<button type="submit" name="code" value="{code}"[^>]*>{name}</button>', page.text
        )
    assert 'name="next" value="/login"' in page.text
    switched = switch(client, "bn", "/login")
    assert switched.status_code == 302 and switched.headers["Location"].endswith("/login")
    assert html_lang(client.get("/login", headers={"Accept-Language": "lo"})) == "bn"
    assert switch(client, "xx").status_code == 404


@pytest.mark.parametrize(
    "back",
    [
        "//evil.example/",
        "/\t/evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "https://evil.example/",
        "/\r\n/x",
        "/\r\nSet-Cookie: a=b",
        "/\x00/x",
        "/\u2028/evil.example",
        "evil.example",
        "",
    ],
)
def test_next_never_leads_off_the_site_or_breaks_the_answer(client, account, back):
    """Every ``next`` goes through one check: another host (however it is spelt: a tab or a
    backslash a browser drops or reads as a slash), or a newline that cannot be written in a
    header, leads home, never away and never to a 500."""
    away = switch(client, "su", back)
    assert away.status_code == 302
    assert away.headers["Location"] == "/"
    login = client.post(
        "/login",
        query_string={"next": back},
        data={"username": "friday-club", "password": "correct horse battery"},
    )
    assert login.status_code in (302, 400), login.text  # 400: a NUL is refused first
    assert login.headers.get("Location", "/") == "/"


def test_the_language_links_of_before_are_gone(client, logged_in, app, account):
    """Switching changes the account: a GET (an image another site embeds) cannot do it."""
    assert logged_in.get("/language/lo?next=/").status_code in (404, 405)
    with app.app_context():
        assert db.session.get(Account, account.id).locale != "lo"


def test_switching_needs_the_form_s_token(make_app, account):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/login").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert switch(client, "lo", "/login").status_code == 400  # forged: no token
    assert html_lang(client.get("/login")) == "en"
    assert switch(client, "lo", "/login", csrf_token=token).status_code == 302
    assert html_lang(client.get("/login")) == "lo"


def test_an_account_keeps_its_language_on_every_device(app, account, logged_in, client):
    switch(logged_in, "lo")
    with app.app_context():
        assert db.session.get(Account, account.id).locale == "lo"
    other = app.test_client()
    other.post("/login", data={"username": "friday-club", "password": "correct horse battery"})
    assert html_lang(other.get("/players/")) == "lo"


@pytest.mark.parametrize("code", ["en", "su", "lo", "bn"])
def test_the_login_page_names_every_game_in_the_reader_s_language(app, client, code):
    """Issue 27, item 22: the login page named three of the seven games."""
    lead = re.search(
        r'<p class="lead">(.*?)</p>',
        client.get("/login", headers={"Accept-Language": code}).text,
        re.S,
    ).group(1)
    with app.test_request_context(), force_locale(code):
        titles = [str(plugin.title) for plugin in GAMES.values()]
    assert len(titles) == 7
    assert [title for title in titles if title not in lead] == []


#: A name a player could type, and a label filled with it in a loop that sets a variable and in
#: a block that does (where Jinja hands a function taking the whole context a copy of it).
_TYPED = "<b>Ann & Co</b>"
_WORDS = (
    "{% set seen = [] %}{% for name in names %}{% set shown = name %}"
    "[{{ _('%(name)s bids first', name=shown) }}|{{ ngettext('%(num)s card', '%(num)s cards', 2) }}"
    "|{{ pgettext('suit', 'Spades') }}]{% endfor %}"
)


@pytest.mark.parametrize("escaped", [True, False])
def test_the_words_filled_in_loops_are_escaped_as_their_template_is(app, escaped):
    """A page's words escape what they are filled with; a template that does not escape (a
    text, a script's words) gets it as typed. Said of the server's templates and of the
    phone's (``games.pages``), which take only the evaluation context, not the page's."""
    from jinja2 import DictLoader

    from scorekeeper.games import pages

    source = _WORDS if escaped else "{% autoescape false %}" + _WORDS + "{% endautoescape %}"
    with app.test_request_context(), force_locale("en"):
        server = app.jinja_env.from_string(source).render(names=[_TYPED])
    speak_to_the_rules()
    phone = pages.environment(DictLoader({"page.html": source})).get_template("page.html")
    drawn = phone.render(names=[_TYPED])
    for html in (server, drawn):
        if escaped:
            assert html == "[&lt;b&gt;Ann &amp; Co&lt;/b&gt; bids first|2 cards|Spades]"
        else:
            assert html == "[<b>Ann & Co</b> bids first|2 cards|Spades]"


def _kept_words(app, code: str) -> dict:
    from flask_babel import get_translations

    from scorekeeper import i18n

    with app.test_request_context(), force_locale(code):
        return get_translations().__dict__.get(i18n._KEPT, {})


def _say(app, code: str, source: str, **values) -> str:
    with app.test_request_context(), force_locale(code):
        return app.jinja_env.from_string(source).render(**values)


def test_a_filled_sentence_is_worked_out_once_in_each_language(app):
    """The same sentence with the same values, said again, is the one the reader's catalog
    kept: in that language and its digits, escaped as the template escapes it."""
    from markupsafe import Markup

    source = (
        "{{ _('%(name)s bids first', name=who) }} "
        "{{ ngettext('%(num)s card', '%(num)s cards', n) }}"
    )
    english = _say(app, "en", source, who="Ann", n=3)
    assert english == "Ann bids first 3 cards"
    assert _say(app, "en", source, who="Ann", n=3) == english
    assert any("%(name)s bids first" in key[0] for key in _kept_words(app, "en"))
    bengali = _say(app, "bn", source, who="Ann", n=3)
    assert "৩" in bengali and "3" not in bengali
    assert _say(app, "en", source, who="Ann", n=1) == "Ann bids first 1 card"
    # Text and markup of the same letters, and a template that does not escape: each its own.
    assert _say(app, "en", source, who=_TYPED, n=3).startswith("&lt;b&gt;Ann &amp; Co&lt;/b&gt;")
    assert _say(app, "en", source, who=Markup(_TYPED), n=3).startswith(_TYPED + " bids")
    unescaped = "{% autoescape false %}" + source + "{% endautoescape %}"
    assert _say(app, "en", unescaped, who=_TYPED, n=3).startswith(_TYPED + " bids")
    assert _say(app, "en", source, who=_TYPED, n=3).startswith("&lt;b&gt;")


def test_a_sentence_filled_with_anything_else_is_worked_out_each_time(app):
    """A value that is neither text nor a number may say something else next time: the
    sentence is filled in anew (nor is a message id that is no text refused)."""

    class Seat:
        said = "Ann"

        def __str__(self) -> str:
            return self.said

    seat = Seat()
    source = "{{ _('%(name)s bids first', name=seat) }}"
    assert _say(app, "en", source, seat=seat) == "Ann bids first"
    seat.said = "Ben"
    assert _say(app, "en", source, seat=seat) == "Ben bids first"
    assert (
        _say(app, "en", "{{ ngettext('%(num)s card', '%(num)s cards', n) }}", n=[2]) == "[2] cards"
    )


def test_the_kept_sentences_start_over_past_their_limit(app, monkeypatch):
    from scorekeeper import i18n

    monkeypatch.setattr(i18n, "KEPT_LIMIT", 3)
    _kept_words(app, "en").clear()  # what earlier tests had kept
    source = "{{ _('Hand %(number)s', number=n) }}"
    for number in range(1, 8):
        assert _say(app, "en", source, n=number) == f"Hand {number}"
        assert len(_kept_words(app, "en")) <= 3

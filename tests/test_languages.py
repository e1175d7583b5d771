"""The reader's language: chosen on every page, remembered per account and per browser,
the default from Accept-Language, <html lang> set right; the API by Accept-Language."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Account


def html_lang(page) -> str:
    return re.search(r'<html lang="([^"]+)"', page.text).group(1)


def test_the_browser_s_language_is_the_default(client):
    assert html_lang(client.get("/login")) == "en"
    assert html_lang(client.get("/login", headers={"Accept-Language": "lo, en;q=0.5"})) == "lo"
    assert html_lang(client.get("/login", headers={"Accept-Language": "fr"})) == "en"


def test_the_switch_is_on_every_page_and_remembered_by_the_browser(client):
    page = client.get("/login")
    for name in ("Basa Sunda", "ພາສາລາວ", "বাংলা", "English"):
        assert f">{name}</a>" in page.text
    switched = client.get("/language/bn?next=/login")
    assert switched.status_code == 302 and switched.headers["Location"].endswith("/login")
    assert html_lang(client.get("/login", headers={"Accept-Language": "lo"})) == "bn"
    assert client.get("/language/xx").status_code == 404
    away = client.get("/language/su?next=//evil.example/")
    assert away.headers["Location"] == "/"


def test_an_account_keeps_its_language_on_every_device(app, account, logged_in, client):
    logged_in.get("/language/lo?next=/")
    with app.app_context():
        assert db.session.get(Account, account.id).locale == "lo"
    other = app.test_client()
    other.post("/login", data={"username": "friday-club", "password": "correct horse battery"})
    assert html_lang(other.get("/players/")) == "lo"

"""At 390x844 in Chromium, in Bengali and Sundanese: a suit and a game's title are told apart
(issue 27, item 13). Oh Hell's trump picker names the suits (Bengali হরতন, ইস্কাপন beside
চিড়িতন, রুইতন; Sundanese Haté, Sekop), Oklahoma Gin's suit chips are named by the suits too,
and the new-game page lists the games by their titles (Bengali হার্টস, স্পেডস)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser import screenshot
from tests.e2e.test_phone_script_words import in_language
from tests.test_languages_flows import said

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
BASIC = {"Authorization": "Basic ZnJpZGF5LWNsdWI6Y29ycmVjdCBob3JzZSBiYXR0ZXJ5"}


def new_game(page, game: str, players: list[str], **options) -> int:
    token = page.request.post("/api/v1/tokens", headers=BASIC).json()["token"]
    created = page.request.post(
        "/api/v1/games",
        data=json.dumps({"game": game, "players": players, "options": options}),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    assert created.status == 201, created.text()
    return created.json()["id"]


@pytest.mark.parametrize("language", ["bn", "su"])
def test_suits_are_named_as_suits_and_games_by_their_titles(phone, language):
    page = phone
    in_language(page, language)
    suits = [said(language, suit, context="suit") for suit in SUITS]
    titles = [said(language, title, context="game title") for title in ("Hearts", "Spades")]
    if language == "bn":
        assert suits == ["চিড়িতন", "রুইতন", "হরতন", "ইস্কাপন"]
        assert titles == ["হার্টস", "স্পেডস"]
    assert not set(suits) & set(titles)
    page.goto(f"/games/{new_game(page, 'oh_hell', ['Ann', 'Ben', 'Cy'])}")
    picker = page.locator('select[name="trump"] option')
    shown = picker.all_inner_texts()
    for suit in suits:
        assert any(text.endswith(suit) for text in shown), (suit, shown)
    assert not any(title in text for title in titles for text in shown)
    screenshot(page, f"{language}-oh-hell-trump-suits")
    page.goto(f"/games/{new_game(page, 'oklahoma_gin', ['Ann', 'Ben'], spade_double=True)}")
    for suit in suits:
        expect(page.get_by_role("radio", name=suit, exact=True)).to_have_count(1)
    page.get_by_role("radio", name=suits[3], exact=True).check(force=True)
    expect(page.get_by_role("radio", name=suits[3], exact=True)).to_be_checked()
    page.goto("/games/new")
    for title in titles:
        expect(page.get_by_text(title, exact=True).first).to_be_visible()
    for suit in suits:
        expect(page.get_by_text(suit, exact=True)).to_have_count(0)

"""A word meant two ways is two messages: the suits ("suit") and the game titles ("game
title") each have their own context (msgctxt), so that Bengali says হরতন for the suit and
হার্টস for the game, and Sundanese can spell each its way (issue 27, item 13)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper.games import GAMES
from scorekeeper.games import i18n
from scorekeeper.games.base import suit_word
from scorekeeper.i18n import pgettext
from tests.pages import game_id
from tests.pages import start_game
from tests.test_translations import TRANSLATIONS
from tests.test_translations import extracted

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
TITLES = ("Auction Pitch", "Hearts", "Oh Hell", "Oklahoma Gin", "Score pad", "Spades", "Wizard")
#: Bengali as the lead is to translate it: the suits by their card names, the games by theirs.
BENGALI = {
    ("suit", "Clubs"): "চিড়িতন",
    ("suit", "Diamonds"): "রুইতন",
    ("suit", "Hearts"): "হরতন",
    ("suit", "Spades"): "ইস্কাপন",
    ("game title", "Hearts"): "হার্টস",
    ("game title", "Spades"): "স্পেডস",
}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The messages of the sources, extracted as ``make messages`` does."""
    return extracted(tmp_path_factory.mktemp("pot") / "messages.pot")


def test_suits_and_titles_are_distinct_messages_each_with_its_context(template):
    for suit in SUITS:
        assert template.get(suit, context="suit") is not None, suit
    for title in TITLES:
        assert template.get(title, context="game title") is not None, title
    # No word is left as one message for both (nor a title or a suit without a context).
    shared = [word for word in {*SUITS, *TITLES} if template.get(word) is not None]
    assert shared == []


def test_the_rules_ask_for_the_suit_and_the_title_in_their_contexts():
    asked = []

    def in_context(context, message):
        asked.append((context, message))
        return f"{context}:{message}"

    saved = (i18n._gettext, i18n._ngettext, i18n._pgettext)
    i18n.use(lambda message: message, lambda one, many, n: one, pgettext=in_context)
    try:
        assert suit_word("hearts") == "suit:Hearts"
        assert str(GAMES["hearts"].rules.title) == "game title:Hearts"
        assert f"{GAMES['spades'].rules.title}" == "game title:Spades"
    finally:
        i18n._gettext, i18n._ngettext, i18n._pgettext = saved
    assert ("suit", "Hearts") in asked and ("game title", "Hearts") in asked


@pytest.fixture
def app(make_app, tmp_path):
    """The app with the Bengali catalog and the suits and titles translated in context."""
    with (TRANSLATIONS / "bn" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    for (context, message), text in BENGALI.items():
        catalog.add(message, text, context=context)
    target = tmp_path / "bn" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)
    return make_app(BABEL_TRANSLATION_DIRECTORIES=str(tmp_path))


BN = {"Accept-Language": "bn"}


def test_the_bengali_trump_picker_names_the_suits_and_the_games_keep_their_names(app, table):
    seats = {"Ann": 1, "Ben": 2, "Cy": 3}
    game = game_id(start_game(table, app, "oh_hell", seats))
    page = table.get(f"/games/{game}", headers=BN).text
    picker = re.search(r'<select name="trump".*?</select>', page, re.S).group(0)
    for suit in ("হরতন", "ইস্কাপন", "চিড়িতন", "রুইতন"):
        assert suit in picker
    assert "হার্টস" not in picker and "স্পেডস" not in picker
    choose = table.get("/games/new", headers=BN).text
    assert "হার্টস" in choose and "স্পেডস" in choose
    assert "হরতন" not in choose and "ইস্কাপন" not in choose
    hearts = game_id(start_game(table, app, "hearts", {**seats, "Dee": 4}))
    assert "<title>হার্টস" in table.get(f"/games/{hearts}", headers=BN).text


def test_a_context_not_translated_yet_is_said_as_the_words_without_it(make_app, tmp_path):
    """Until the lead translates a context, the page keeps the catalog's word (not English);
    once translated, the context's own word."""
    catalog = Catalog(locale="bn")
    catalog.add("Oh Hell", "ও হেল")
    catalog.add("Hearts", "হার্টস")
    catalog.add("Hearts", "হরতন", context="suit")
    target = tmp_path / "bn" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)
    app = make_app(BABEL_TRANSLATION_DIRECTORIES=str(tmp_path))
    with app.test_request_context("/", headers=BN):
        assert pgettext("game title", "Oh Hell") == "ও হেল"
        assert pgettext("suit", "Hearts") == "হরতন"
        assert pgettext("game title", "Hearts") == "হার্টস"
        assert pgettext("suit", "Clubs") == "Clubs"  # in no catalog: the English

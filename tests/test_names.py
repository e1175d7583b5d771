"""Names and usernames: NFKC, case-folded keys, invisible and control characters refused."""

from __future__ import annotations

import unicodedata

import pytest

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Player
from scorekeeper.text import clean_line
from scorekeeper.text import clean_lines
from scorekeeper.text import text_key
from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import basic
from tests.conftest import login
from tests.conftest import signup

NFC_ASA = unicodedata.normalize("NFC", "Åsa")
NFD_ASA = unicodedata.normalize("NFD", "Åsa")

#: Names that look like "Ann" (or like nothing) but hide something.
HIDDEN = {
    "zero-width space": "An\u200bn",
    "zero-width joiner": "Ann\u200d",
    "zero-width joiner between letters": "An\u200dn",
    "zero-width joiner after an emoji": "👩\u200d",
    "zero-width joiner before an emoji": "Ann\u200d👩",
    "right-to-left override": "\u202eAnn",
    "left-to-right override": "Ann\u202d",
    "left-to-right isolate": "\u2066Ann\u2069",
    "byte order mark": "\ufeffAnn",
    "NUL": "Ann\x00",
    "escape": "Ann\x1b[31m",
    "Hangul filler": "\u3164",
    "lone surrogate": "Ann\ud800",
}


def names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


# The text module ------------------------------------------------------------------------


def test_clean_line_normalizes_width_and_unicode_forms():
    assert clean_line("Ａｎｎ", "A name", "name", 40) == "Ann"
    assert clean_line(NFD_ASA, "A name", "name", 40) == NFC_ASA
    assert clean_line("  Ann \t Lee\n", "A name", "name", 40) == "Ann Lee"
    assert clean_line("\u00a0Ann\u3000Lee ", "A name", "name", 40) == "Ann Lee"


def test_text_keys_ignore_case_width_forms_and_invisible_characters():
    assert text_key("Ａｎｎ") == text_key("ANN") == text_key("ann")
    assert text_key(NFD_ASA) == text_key(NFC_ASA) == text_key("ÅSA")
    assert text_key("Straße") == text_key("STRASSE")
    assert text_key("Ann\u200b") == text_key("Ann\ufe0f") == "ann"
    assert text_key("Ann") != text_key("Anne")


@pytest.mark.parametrize("what", sorted(HIDDEN))
def test_clean_line_refuses_hidden_characters(what):
    with pytest.raises(Refusal) as refused:
        clean_line(HIDDEN[what], "A name", "name", 40)
    assert refused.value.code == "name_invalid"
    assert refused.value.field == "name"
    assert "invisible or control character" in refused.value.message


@pytest.mark.parametrize(
    "name",
    [
        "👩🏽\u200d🦱",  # woman, medium skin tone, curly hair
        "👨\u200d👩\u200d👧",  # a family
        "🏃\u200d♀\ufe0f Dee",  # a woman running, then a name
        "❤\ufe0f\u200d🔥 Cy",
    ],
)
def test_an_emoji_joined_into_one_picture_is_a_name(name, logged_in, app):
    """The joiner that makes one picture of several emoji is kept; anywhere else it is
    refused (above)."""
    assert clean_line(name, "A name", "name", 40) == name
    logged_in.post("/players/", data={"name": name})
    assert name in names(app)


def test_clean_line_names_the_character_it_refuses():
    with pytest.raises(Refusal) as refused:
        clean_line("\u202eAnn", "The place", "place", 80)
    assert refused.value.message == (
        "The place holds an invisible or control character (U+202E RIGHT-TO-LEFT OVERRIDE): "
        "type it again without it."
    )


def test_emoji_with_a_variation_selector_are_names():
    assert clean_line("Ann ❤️", "A name", "name", 40) == "Ann ❤️"


def test_clean_line_checks_type_emptiness_and_length():
    with pytest.raises(Refusal) as refused:
        clean_line(7, "The place", "place", 80)
    assert (refused.value.code, refused.value.message) == ("wrong_type", "The place must be text.")
    assert clean_line("   ", "The place", "place", 80) == ""
    with pytest.raises(Refusal, match="^Enter a name.$"):
        clean_line("   ", "A name", "name", 40, required="Enter a name.")
    with pytest.raises(Refusal) as refused:
        clean_line("x" * 81, "The place", "place", 80, too_long_code="text_too_long")
    assert refused.value.code == "text_too_long"
    assert refused.value.message == "The place can be at most 80 characters (81 given)."


def test_clean_lines_keeps_line_breaks_and_refuses_the_same_characters():
    assert clean_lines(" first  line \n\n second\u3000line ", "The notes", "notes", 100) == (
        "first line\n\nsecond line"
    )
    with pytest.raises(Refusal):
        clean_lines("fine\nbut \u202ehidden", "The notes", "notes", 100)


# Players on the pages and in the API --------------------------------------------------------


def test_full_width_ann_is_ann_on_the_roster_page(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    response = logged_in.post("/players/", data={"name": "Ａｎｎ"})
    assert response.status_code == 422
    assert "There is already a player called Ann." in response.text
    assert names(app) == ["Ann"]


def test_a_full_width_name_is_kept_in_its_normal_form(app, logged_in):
    response = logged_in.post("/players/", data={"name": "Ｂｅｎ"}, follow_redirects=True)
    assert "Ben added." in response.text
    assert names(app) == ["Ben"]


def test_both_unicode_forms_of_asa_are_one_player(app, logged_in):
    logged_in.post("/players/", data={"name": NFD_ASA})
    assert names(app) == [NFC_ASA]
    response = logged_in.post("/players/", data={"name": NFC_ASA})
    assert response.status_code == 422
    assert f"There is already a player called {NFC_ASA}." in response.text


@pytest.mark.parametrize("what", ["zero-width space", "right-to-left override", "NUL"])
def test_hidden_characters_are_refused_on_the_roster_page(app, logged_in, what):
    response = logged_in.post("/players/", data={"name": HIDDEN[what]})
    assert response.status_code == 422
    assert "invisible or control character" in response.text
    assert names(app) == []


def test_a_rename_to_a_hidden_lookalike_is_refused(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    with app.app_context():
        ann = db.session.scalar(db.select(Player))
        ann_id = ann.id
    response = logged_in.post(f"/players/{ann_id}/rename", data={"name": "An\u200bn"})
    assert response.status_code == 422
    assert "U+200B ZERO WIDTH SPACE" in response.text
    assert names(app) == ["Ann"]


def test_full_width_and_decomposed_names_through_the_api(api):
    assert api.post("/players", {"name": "Ann"}).status_code == 201
    again = api.post("/players", {"name": "Ａｎｎ"})
    assert again.status_code == 422
    assert again.get_json()["errors"][0]["code"] == "name_taken"
    asa = api.post("/players", {"name": NFD_ASA})
    assert asa.status_code == 201
    assert asa.get_json()["name"] == NFC_ASA
    again = api.post("/players", {"name": NFC_ASA})
    assert again.get_json()["errors"][0]["code"] == "name_taken"


@pytest.mark.parametrize("what", sorted(set(HIDDEN) - {"lone surrogate"}))
def test_hidden_characters_are_refused_by_the_api(app, api, what):
    response = api.post("/players", {"name": HIDDEN[what]})
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("name_invalid", "name")
    assert names(app) == []


def test_a_rename_to_a_hidden_lookalike_is_refused_by_the_api(app, api):
    ann = api.post("/players", {"name": "Ann"}).get_json()
    response = api.patch(f"/players/{ann['id']}", {"name": "\u202eAnn"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "name_invalid"
    assert names(app) == ["Ann"]


def test_names_whose_key_is_longer_than_the_name_are_stored(app, api):
    # Case folding lengthens some letters (ß: ss): 40 of them make an 80-character key.
    assert api.post("/players", {"name": "ß" * 40}).status_code == 201
    assert api.post("/players", {"name": "ß" * 20}).status_code == 201
    taken = api.post("/players", {"name": "SS" * 20})
    assert taken.get_json()["errors"][0]["code"] == "name_taken"


# Usernames ----------------------------------------------------------------------------------


def test_a_full_width_username_is_the_same_username(client, account):
    response = signup(client, "ＦＲＩＤＡＹ-ｃｌｕｂ")
    assert response.status_code == 422
    assert "is taken" in response.text
    assert login(client, "ｆｒｉｄａｙ-ｃｌｕｂ").status_code == 302


def test_usernames_are_stored_in_normal_form(app, client):
    assert signup(client, "Ｓａｔ-club").status_code == 302
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        assert (account.username, account.username_key) == ("Sat-club", "sat-club")


@pytest.mark.parametrize("what", ["zero-width space", "right-to-left override", "NUL"])
def test_usernames_with_hidden_characters_are_refused(app, client, what):
    api = Api(client)
    response = api.post("/accounts", {"username": f"club-{HIDDEN[what]}", "password": PASSWORD})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "name_invalid"
    page = signup(client, f"club-{HIDDEN[what]}")
    assert page.status_code == 422
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Account.id))) == 0


def test_a_token_for_a_full_width_username(client, account):
    response = client.post("/api/v1/tokens", headers=basic("ｆｒｉｄａｙ-ｃｌｕｂ", PASSWORD))
    assert response.status_code == 201


def test_a_player_added_by_a_new_game_has_the_same_key(app, api):
    """Whoever makes the player (the roster, a new game), one key for one name."""
    response = api.post("/games", {"game": "oh_hell", "players": ["Ann ❤️", "Ben", "Cy"]})
    assert response.status_code == 201
    again = api.post("/players", {"name": "Ann ❤"})
    assert again.status_code == 422
    assert again.get_json()["errors"][0]["code"] == "name_taken"
    with app.app_context():
        keys = sorted(db.session.scalars(db.select(Player.name_key)))
    assert keys == ["ann ❤", "ben", "cy"]

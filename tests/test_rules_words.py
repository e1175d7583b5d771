"""The rules' words inside the app: Flask-Babel's catalog, the reader's digits and lists,
and lazy labels turned into the reader's language in JSON answers."""

from __future__ import annotations

import json
from pathlib import Path

from babel.support import Translations

from scorekeeper.games import i18n as rules_i18n
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import lazy_ngettext
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"


def test_plurals_keep_every_placeholder_and_write_the_reader_s_digits(app):
    with app.test_request_context("/api/games", headers={"Accept-Language": "bn"}):
        said = ngettext(
            "%(name)s has %(num)s point.", "%(name)s has %(num)s points.", 12, name="Ann"
        )
        assert said == "Ann has ১২ points."
        assert names(["Ann", "Ben", "Cy"]) == "Ann, Ben এবং Cy"
    with app.test_request_context("/api/games"):
        assert ngettext("%(name)s has %(num)s point.", "x", 1, name="Ann") == "Ann has 1 point."
        assert names(["Ann", "Ben"]) == "Ann and Ben"
        assert names(["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"  # as the rules write English


def test_json_answers_show_lazy_labels_as_the_reader_reads_them(app, monkeypatch):
    monkeypatch.setattr(rules_i18n, "_gettext", lambda message: message.upper())
    monkeypatch.setattr(rules_i18n, "_ngettext", lambda one, many, n: one if n == 1 else many)
    with app.test_request_context("/api/games", headers={"Accept-Language": "bn"}):
        answer = app.json.response(
            {"title": N_("Auction Pitch"), "labels": [lazy_ngettext("%(num)s pt", "x", 1)]}
        )
    assert json.loads(answer.get_data()) == {"title": "AUCTION PITCH", "labels": ["১ pt"]}


def test_a_rules_refusal_in_the_api_follows_accept_language_and_keeps_its_code(api):
    made = api.post("/games", {"game": "pitch", "players": ["Ann", "Ben", "Cy"]}).get_json()
    wrong = {"number": 1, "pitcher": "Ben", "bid": 9}
    english = api.post(f"/games/{made['id']}/hands", wrong).get_json()["errors"][0]
    bengali = api.post(
        f"/games/{made['id']}/hands", wrong, headers={"Accept-Language": "bn"}
    ).get_json()["errors"][0]
    assert english["code"] == bengali["code"] == "bid_invalid"
    assert english["field"] == bengali["field"] == "bid"
    assert "Ben’s bid must be from 1 to 4." in english["message"]
    # The Bengali sentence is the catalog's, filled with Bengali digits.
    translations = Translations.load(str(TRANSLATIONS), ["bn"])
    sentence = translations.gettext("%(name)s’s bid must be from %(low)s to %(high)s.")
    assert sentence != "%(name)s’s bid must be from %(low)s to %(high)s."
    assert sentence % {"name": "Ben", "low": "১", "high": "৪"} in bengali["message"]


def test_an_unknown_game_is_refused_in_the_reader_s_language(app):
    from scorekeeper.games import GAMES
    from scorekeeper.games.errors import RuleError

    for language, word in (("en", "Unknown game"), ("bn", "অজানা খেলা"), ("lo", "ບໍ່ຮູ້ຈັກເກມ")):
        with app.test_request_context("/api/games", headers={"Accept-Language": language}):
            try:
                GAMES.get("chess")
            except RuleError as error:
                assert (error.code, error.field) == ("option_value", "game")
                assert word in error.message and "“chess”" in error.message
                assert "oh_hell" in error.message
            else:
                raise AssertionError("an unknown game was found")

"""The rules' words: ``_``, ``ngettext``, ``names`` and lazy texts (``N_``, ``lazy_ngettext``)
show the reader's language wherever they are shown, and stay plain English strings for
comparisons, keys and the rules' own tests."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from markupsafe import escape

from scorekeeper.games import i18n
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_ngettext
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import shown

#: A small catalog in a made-up language: every word written backwards, the plural by "s".
CATALOG = {
    "Hands pitched": "dehctip sdnaH",
    "%(name)s bid %(bid)s.": "%(bid)s dib %(name)s.",
    "Round": "dnuoR",
}


def backwards_gettext(message: str) -> str:
    return CATALOG.get(message, message)


def backwards_ngettext(one: str, many: str, count: int) -> str:
    return "[one] " + one if count == 1 else "[many] " + many


@pytest.fixture
def backwards():
    """The rules speak the made-up language (digits in brackets) during the test."""
    saved = (i18n._gettext, i18n._ngettext, i18n._pgettext, i18n._number, i18n._names)
    i18n.use(
        backwards_gettext,
        backwards_ngettext,
        lambda value: f"<{value}>",
        lambda items: " + ".join(items),
    )
    yield
    i18n._gettext, i18n._ngettext, i18n._pgettext, i18n._number, i18n._names = saved


def test_english_is_used_as_it_is_without_a_catalog():
    assert _("%(name)s bid %(bid)s.", name="Ann", bid=3) == "Ann bid 3."
    assert ngettext("%(num)s point", "%(num)s points", 1) == "1 point"
    assert ngettext("%(num)s point for %(name)s", "%(num)s points for %(name)s", 4, name="Cy") == (
        "4 points for Cy"
    )
    assert names(["Ann"]) == "Ann"
    assert names(["Ann", "Ben"]) == "Ann and Ben"
    assert names(["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"


def test_sentences_are_translated_with_their_placeholders_and_numbers(backwards):
    assert _("%(name)s bid %(bid)s.", name="Ann", bid=3) == "<3> dib Ann."
    assert ngettext("%(num)s point", "%(num)s points", 2) == "[many] <2> points"
    assert ngettext("%(num)s point for %(name)s", "%(num)s points for %(name)s", 1, name="Cy") == (
        "[one] <1> point for Cy"
    )
    assert names(["Ann", "Ben"]) == "Ann + Ben"


def test_a_lazy_text_is_its_english_until_shown(backwards):
    label = N_("Hands pitched")
    assert label == "Hands pitched"  # comparisons and keys use the English
    assert {label: 1}["Hands pitched"] == 1
    assert str(label) == "dehctip sdnaH"
    assert f"{label}!" == "dehctip sdnaH!"
    assert f"{label}" == "dehctip sdnaH"
    assert "%s" % label == "dehctip sdnaH"  # noqa: UP031 (how _ fills placeholders)
    assert label + "." == "dehctip sdnaH."
    assert "- " + label == "- dehctip sdnaH"
    assert escape(label) == "dehctip sdnaH"
    assert label.lower() == "dehctip sdnah"
    assert label.upper() == "DEHCTIP SDNAH"
    assert "tip" in label


def test_lazy_texts_keep_their_placeholders_and_plurals(backwards):
    bid = N_("%(name)s bid %(bid)s.", name="Ann", bid=4)
    assert bid == "Ann bid 4."
    assert str(bid) == "<4> dib Ann."
    seven = lazy_ngettext("%(num)s point", "%(num)s points", 7)
    one = lazy_ngettext("%(num)s point", "%(num)s points", 1)
    assert (seven, one) == ("7 points", "1 point")
    assert (str(seven), str(one)) == ("[many] <7> points", "[one] <1> point")
    named = N_("%(count)s cards, %(plural)s", count=3, plural="yes")
    assert (named, str(named)) == ("3 cards, yes", "<3> cards, yes")


def test_lazy_texts_survive_copies_and_json(backwards):
    label = lazy_ngettext("%(num)s point", "%(num)s points", 7)
    for copied in (copy.copy(label), copy.deepcopy(label), pickle.loads(pickle.dumps(label))):
        assert type(copied) is type(label)
        assert str(copied) == "[many] <7> points"
    answer = {"title": N_("Round"), "lines": [(N_("Hands pitched"), 3)], N_("Round"): [label]}
    assert json.loads(json.dumps(shown(answer))) == {
        "title": "dnuoR",
        "lines": [["dehctip sdnaH", 3]],
        "dnuoR": ["[many] <7> points"],
    }
    # Without ``shown`` a JSON encoder writes the English (a lazy text is a str).
    assert json.loads(json.dumps(answer))["title"] == "Round"

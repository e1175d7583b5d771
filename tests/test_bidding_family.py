"""The bidding family (Oh Hell, Wizard, Spades) is a folder of its own, ``games/bidding/``:
its template and script are served from there as a game's own are, and its rules-side words
are apart from its form reader. The rules refuse with their own error; the pages answer with
the same codes, messages and fields as before."""

from __future__ import annotations

import pytest

from scorekeeper.games import FAMILIES
from scorekeeper.games import GAMES
from scorekeeper.views.static_files import SHRINK
from tests.pages import game_id
from tests.pages import pack
from tests.pages import start_game

ROOT_STATIC = GAMES["oh_hell"].folder.parents[2] / "static"


def shrunk_script(source: str) -> str:
    return SHRINK["text/javascript"](source)


@pytest.mark.parametrize(
    "kind,seats",
    [
        ("oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}),
        ("wizard", {"Ann": 1, "Ben": 2, "Cy": 3}),
        ("spades", {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}),
    ],
)
def test_a_bidding_game_page_loads_the_familys_script_from_its_folder(table, app, kind, seats):
    game = game_id(start_game(table, app, kind, seats))
    page = table.get(f"/games/{game}")
    assert page.status_code == 200
    assert "data-bids-form" in page.text  # the family's template, found as games/bidding/...
    assert "/static/js/bidding.js" not in page.text
    # The page's one script (its pack) holds the file of the family's folder, as every script
    # is sent: without its comment lines and indentation (views/static_files.py).
    source = (FAMILIES["bidding"].static_folder / "bidding.js").read_text()
    assert shrunk_script(source) in pack(table, page.text, "js")


def test_the_bidding_files_live_only_in_the_familys_folder():
    family = FAMILIES["bidding"]
    assert family.folder == GAMES["oh_hell"].folder.parent / "bidding"
    assert (family.template_folder / "_bidding.html").is_file()
    assert family.has_static("bidding.js")
    assert not (ROOT_STATIC / "js" / "bidding.js").exists()
    assert not (ROOT_STATIC.parent / "templates" / "games" / "_bidding.html").exists()


def test_an_unknown_family_or_game_has_no_static_files(client):
    for url in ("/static/games/nobody/bidding.js", "/static/games/bidding/nothing.js"):
        with client.get(url) as answer:
            assert answer.status_code == 404


def test_a_bid_that_is_no_number_is_refused_on_the_page_as_before(table, app):
    """The form reader refuses with the rules' own error; the page turns it into the same
    refusal as before (400 wrong_type, the message beside the field, the typed value kept)."""
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    page = table.post(
        f"/games/{game}/hands",
        data={"phase": "bids", "number": "1", "bid-0": "x", "bid-1": "²", "bid-2": "0"},
    )
    assert page.status_code == 400
    assert "Ann&#39;s bid must be a whole number." in page.text
    assert "Ben&#39;s bid must be a whole number." in page.text
    page = table.post(f"/games/{game}/hands", data={"phase": "bids", "number": "one"})
    assert page.status_code == 400  # the hand number (a hidden field) is refused as before

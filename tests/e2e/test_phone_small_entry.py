"""On a small phone (360x740) every game's entry fits one screen, as on a 390 px phone: the
largest usual table of each installed game, each phase of a hand, no swipe, nothing wider
than the phone (issue 27, item 23)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.services import games
from tests.browser import SMALL_PHONE
from tests.browser import log_in
from tests.browser import screenshot
from tests.conftest import make_account
from tests.e2e.test_phone_long_words import SIDEWAYS

NAMES = ["Ann", "Ben", "Cyrus", "Dee", "Eve", "Fay", "Gus"]


def bids_of(state) -> dict[str, int]:
    """The first bidder bids every card, the others 0 (with the hook the dealer bids 1)."""
    upcoming = state.next
    bids = dict.fromkeys(upcoming["order"], 0)
    bids[upcoming["order"][0]] = upcoming["cards"]
    if upcoming.get("hook") and upcoming["cards"] == sum(bids.values()):
        bids[upcoming["dealer"]] = 1
    return bids


def a_round(state) -> dict:
    """A whole hand of a bidding game: the bids, and each took what he bid."""
    bids = bids_of(state)
    return {"bids": bids, "tricks": bids}


#: Each game at its largest usual table, at its largest hand: (players, options, hands played
#: before, what opens the hand for its second phase, if it has one). Oh Hell: 7 players with 7
#: cards (bids 0 to 7); Wizard: 6 players in round 7 (8 chips a row); Spades: bids nil to 13;
#: Pitch: 5 players (with 6 or 7 its points take two lines a row even on a 390 px phone).
TABLES = {
    "oh_hell": (7, {"sequence": "down"}, 0, lambda state: {"bids": bids_of(state)}),
    "pitch": (5, {}, 0, lambda state: {"pitcher": "Ann", "bid": 2}),
    "oklahoma_gin": (2, {}, 0, None),
    "wizard": (6, {}, 6, lambda state: {"bids": bids_of(state)}),
    "spades": (4, {}, 0, lambda state: {"bids": bids_of(state)}),
    "hearts": (6, {}, 0, None),
    "score_pad": (7, {"name": "Catan"}, 0, None),
}

PHASES = [
    (kind, phase)
    for kind in TABLES
    for phase in ("first", "second")
    if phase == "first" or TABLES[kind][3] is not None
]


def test_every_installed_game_has_its_table_here():
    assert set(TABLES) == set(GAMES)


def game_at(app, kind: str, phase: str) -> int:
    count, options, before, opening = TABLES[kind]
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, kind, NAMES[:count], options).game
        for _ in range(before):
            games.record_hand(game, a_round(games.played(game).state))
        if phase == "second":
            games.record_hand(game, opening(games.played(game).state))
        return game.id


@pytest.mark.parametrize("language", ["en", "su"])
@pytest.mark.parametrize(("kind", "phase"), PHASES)
def test_a_hand_s_entry_fits_a_small_phone(small_phone, make_app, kind, phase, language):
    """In English and in Sundanese, whose status lines and pills are the longest (its Oh Hell
    tricks and Spades' entry were 3 to 11 px too tall: the last row's chips under Save)."""
    app = make_app()
    make_account(app)
    game = game_at(app, kind, phase)
    log_in(small_phone)
    if language != "en":
        small_phone.locator(f'.languages button[value="{language}"]').click()
        small_phone.wait_for_load_state()
    small_phone.goto(f"/games/{game}")
    small_phone.evaluate("window.scrollTo(0, 0)")
    screenshot(small_phone, f"entry-{kind}-{phase}-{language}")
    entry = small_phone.locator("form#entry")
    box = entry.bounding_box()
    save = entry.locator("[data-save]").bounding_box()
    assert box["y"] + box["height"] <= SMALL_PHONE["height"], (
        f"{kind}: the entry ends at {box['y'] + box['height']:.0f} px of 740"
    )
    assert save["y"] + save["height"] <= SMALL_PHONE["height"]
    width = small_phone.evaluate("document.documentElement.scrollWidth")
    assert width <= SMALL_PHONE["width"], f"{kind}: the page is {width} px wide"


LONG_NAMES = ["Christiane", "Benedikt", "Evangeline", "Gustavo"]


@pytest.mark.parametrize("language", ["en", "su"])
def test_pitch_s_points_of_four_long_names_fit_a_small_phone(small_phone, make_app, language):
    """Four players of ten letters: each point's names stay on one line (cut short with …, the
    whole name still in the text) instead of taking two lines each, in English and in
    Sundanese's longer words."""
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, "pitch", LONG_NAMES, {}).game
        games.record_hand(game, {"pitcher": "Benedikt", "bid": 2})
        game_id = game.id
    page = small_phone
    log_in(page)
    if language != "en":
        page.locator(f'.languages button[value="{language}"]').click()
        page.wait_for_load_state()
    page.goto(f"/games/{game_id}")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"entry-pitch-long-names-{language}")
    high = page.locator('.point-row[data-point="high"] .chip')
    assert high.count() == 4
    tops = {round(high.nth(seat).bounding_box()["y"]) for seat in range(4)}
    assert len(tops) == 1, f"High's names take {len(tops)} lines"
    assert high.nth(0).inner_text() == "Christiane"  # the whole name, cut only on the screen
    entry = page.locator("form#entry").bounding_box()
    assert entry["y"] + entry["height"] <= SMALL_PHONE["height"], (
        f"the entry ends at {entry['y'] + entry['height']:.0f} px of 740"
    )
    # Tapped, a cut name is still the player it says: the points are saved as his.
    page.locator('.point-row[data-point="high"] .chip', has_text="Evangeline").click()
    checked = page.locator('.point-row[data-point="high"] input:checked')
    assert checked.get_attribute("value") == str(LONG_NAMES.index("Evangeline"))


#: Long Sundanese names written as one word, 40 letters (the longest a name may be): seven for
#: Oh Hell, four for Spades' teams (two such names joined with " & ").
SUNDANESE = [
    "RadenAyuKusumawardaningsihPuspitasariDew",
    "UjangSuryadiningratPrawiraAdiwinataSoedi",
    "NyimasSukmawatiRahayuningsihKartasasmita",
    "AsepMulyanagaraWiranatakusumahSasmitaAji",
    "EuisSulastrinengsihPuspitasariWidjajakus",
    "DadangSumantrikusumahAdiwijayaNataprawir",
    "EntinKartikasaripuspitaDewiSuryaningrata",
]
LONG_TABLES = {"oh_hell": (7, {"sequence": "down"}), "spades": (4, {})}
#: The entry's rows, in bidding order: from the dealer's left, the dealer last.
LONG_TABLES_ROWS = {
    "oh_hell": SUNDANESE[1:7] + SUNDANESE[:1],
    "spades": SUNDANESE[1:4] + SUNDANESE[:1],
}


@pytest.mark.parametrize(
    ("kind", "phase"), [(k, p) for k in LONG_TABLES for p in ("first", "second")]
)
def test_long_names_fit_a_small_phone_in_sundanese(small_phone, make_app, kind, phase):
    """Seven long names in Oh Hell, long team names in Spades: the entry stays 360 px wide
    (no sideways swipe), each name wraps inside its box, and Save stays on the screen. Not on
    one screen, though (Oh Hell's ends at about 950 px, Spades' about 1040): a name is never
    cut (item 16, tests/e2e/test_phone_long_words.py's CLIPPED), and 40 letters without a
    space take two or three lines wherever they are written; names of a usual length fit (the
    test above, in English and Sundanese)."""
    app = make_app()
    make_account(app)
    count, options = LONG_TABLES[kind]
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, kind, SUNDANESE[:count], options).game
        if phase == "second":
            games.record_hand(game, {"bids": bids_of(games.played(game).state)})
        game_id = game.id
    page = small_phone
    log_in(page)
    page.locator('.languages button[value="su"]').click()
    page.wait_for_load_state()
    page.goto(f"/games/{game_id}")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"entry-{kind}-{phase}-long-names-su")
    width = page.evaluate("document.documentElement.scrollWidth")
    wider = page.evaluate(
        """(limit) => [...document.querySelectorAll('body *')]
             .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
             .slice(0, 8)
             .map((el) => `${el.className}: ${Math.round(el.getBoundingClientRect().right)}`)""",
        SMALL_PHONE["width"],
    )
    assert width <= SMALL_PHONE["width"], f"{kind}: the page is {width} px wide: {wider}"
    # Nor a box of it that scrolls sideways (the sheet included).
    assert page.evaluate(SIDEWAYS) == []
    # Each long name breaks inside its box beside the pills and the total (three lines at most,
    # not three of a row's own); and Save is on the screen.
    heads = page.evaluate(
        """() => [...document.querySelectorAll('form#entry .row-head')].map((head) => [
             head.getBoundingClientRect().height, head.querySelector('.name').textContent])"""
    )
    assert [name for _height, name in heads] == LONG_TABLES_ROWS[kind]
    assert max(height for height, _name in heads) <= 56, heads
    save = page.locator("form#entry [data-save]").bounding_box()
    assert save["y"] + save["height"] <= SMALL_PHONE["height"]
    if page.locator(".sheet-card").count():
        page.locator(".sheet-card").scroll_into_view_if_needed()
        screenshot(page, f"sheet-{kind}-{phase}-long-names-su")

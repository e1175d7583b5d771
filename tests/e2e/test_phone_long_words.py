"""A 40-letter name without spaces breaks inside its box on every page, and only it (issue 27,
item 16): the figures and short words beside it stay whole ("7 games", not "7 gam" over "es";
"11", not "1" over "1"), the hand's head says "… deals" in full, and a leader's star stays on
the line of the name. At 390x844 in English and 360x740 in Bengali."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Player
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import sharing
from scorekeeper.services import table
from tests.browser import PHONE
from tests.browser import SMALL_PHONE
from tests.browser import _phone_page
from tests.browser import log_in
from tests.browser import screenshot
from tests.conftest import make_account

LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 letters, no space
NIGHT = "Nachtderlangenwörterundnamenohnejedeleer"  # 40 letters too
JOINER = "Zweiundvierzigbuchstabenlangernachzügler"  # who joins later, 40 letters

#: Each game with the long name in the first seat, and a hand that puts it in the lead.
TABLES = {
    "oh_hell": (
        [LONG, "Ben", "Cy"],
        {},
        {"bids": {LONG: 1, "Ben": 0, "Cy": 0}, "tricks": {LONG: 1, "Ben": 0, "Cy": 0}},
    ),
    "oklahoma_gin": (
        [LONG, "Ben"],
        {"hollywood": True},
        {"upcard": "5", "result": "gin", "knocker": LONG, "opponent_deadwood": 30},
    ),
    "hearts": ([LONG, "Ben", "Cy", "Dee"], {}, None),
    "spades": ([LONG, "Ben", "Cy", "Dee"], {}, None),
    "wizard": ([LONG, "Ben", "Cy"], {}, None),
    "pitch": ([LONG, "Ben", "Cy", "Dee"], {"partnerships": True}, None),
    "score_pad": ([LONG, "Ben"], {"name": "B" * 60}, None),
}

#: The words of a page that must never be cut: a run of letters (with their marks, as
#: Bengali's vowel signs) or digits, up to 12 long (the 40-letter names are longer). A word
#: whose characters sit on more than one line was cut.
CUT_WORDS = """() => {
  const cut = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const word = /[\\p{L}\\p{M}\\p{N}]+/gu;
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const box = node.parentElement;
    if (!box || !box.getClientRects().length) continue;
    if (box.closest(".visually-hidden, [hidden], option, select, details:not([open])")) continue;
    for (const found of node.textContent.matchAll(word)) {
      if (found[0].length < 2 || found[0].length > 12) continue;
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom)));
      if (lines.size > 1) cut.push(`${found[0]} in ${box.tagName.toLowerCase()}.${box.className}`);
    }
  }
  return cut;
}"""

#: Pills and names cut off with an ellipsis (the score sheet's narrow column heads excepted:
#: they keep the whole name in their text, and the standings say it in full).
CLIPPED = """() => [...document.querySelectorAll(".pill, .who, .name, h1, h2")]
  .filter((el) => el.getClientRects().length && !el.closest(".sheet thead"))
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.slice(0, 50)}`)"""


#: Boxes that scroll sideways because something in them is wider than they are (the score
#: sheets of up to seven players fit the phone: item 20).
SIDEWAYS = """() => [...document.querySelectorAll("*")]
  .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowX))
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.className}: ${el.scrollWidth} > ${el.clientWidth}`)"""


def long_named_games(app) -> dict:
    """Every game with the long name at the table, in a night with a long name; the pages to
    look at."""
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        night = nights.create_night(account, name=NIGHT)
        ids = {}
        for kind, (names, options, hand) in TABLES.items():
            game = games.create_game(account, kind, names, options, night_id=night.id).game
            if hand:
                games.record_hand(game, hand)
            ids[kind] = game.id
        token = sharing.share(db.session.get(type(game), ids["oh_hell"])).share_token
        # A finished game, for the leaderboard and the head-to-head of a player's page.
        names, _options, hand = TABLES["oh_hell"]
        one_hand = {"sequence": "custom", "custom_sizes": [1]}
        finished = games.create_game(account, "oh_hell", names, one_hand).game
        games.record_hand(finished, hand)
        ben = db.session.scalar(db.select(Player).where(Player.name == "Ben"))
        # Gin's final score (its own table of the two names).
        gin = games.create_game(account, "oklahoma_gin", [LONG, "Ben"], {"target": 50}).game
        games.record_hand(gin, TABLES["oklahoma_gin"][2])
        # A second long name joins after the first: the sheet's change line and its undo.
        played = games.create_game(account, "oh_hell", names, {}).game
        games.record_hand(played, hand)
        joined = table.record_change(played, {"kind": "join", "player": JOINER}).game.id
        return {
            "home": "/",
            "players": "/players/",
            "statistics": "/stats/",
            "night": f"/nights/{night.id}",
            "new game": "/games/new?game=oh_hell",
            "shared view": f"/view/{token}",
            "Oh Hell in history": f"/history/games/{ids['oh_hell']}",
            "Gin in history": f"/history/games/{ids['oklahoma_gin']}",
            "Gin's final score": f"/games/{gin.id}",
            "a late joiner on the sheet": f"/games/{joined}",
            "leaderboard": "/stats/oh_hell",
            "a player's statistics": f"/stats/players/{ben.id}",
            **{kind: f"/games/{game_id}" for kind, game_id in ids.items()},
        }


@pytest.mark.parametrize(("language", "size"), [("en", PHONE), ("bn", SMALL_PHONE)])
def test_only_the_long_name_breaks(browser, live_server, make_app, language, size):
    app = make_app()
    make_account(app)
    pages = long_named_games(app)
    opened = _phone_page(browser, live_server, size)
    phone = next(opened)
    try:
        log_in(phone)
        phone.goto("/account")
        phone.locator(f"form.languages button[value={language}]").click()
        expect(phone.locator("html")).to_have_attribute("lang", language)
        wide, cut, clipped = {}, {}, {}
        for what, address in pages.items():
            phone.goto(address)
            if phone.evaluate("document.documentElement.scrollWidth") > size["width"]:
                wide[what] = phone.evaluate("document.documentElement.scrollWidth")
            if found := phone.evaluate(SIDEWAYS):
                wide[what] = found
            if found := phone.evaluate(CUT_WORDS):
                cut[what] = found
            if found := phone.evaluate(CLIPPED):
                clipped[what] = found
        assert wide == {}, wide
        assert cut == {}, cut
        assert clipped == {}, clipped
        # The leader's star on the line of the name, not above it.
        phone.goto(pages["oh_hell"])
        leader = phone.locator("#totals li.leader .who")
        star = leader.evaluate(
            """(who) => { const range = document.createRange();
                 range.setStart(who.firstChild, 0); range.setEnd(who.firstChild, 3);
                 const rects = [...range.getClientRects()];
                 return new Set(rects.map((r) => Math.round(r.bottom))).size; }"""
        )
        assert star == 1, "the star is on a line of its own"
        screenshot(phone, f"long-name-totals-{language}")
    finally:
        next(opened, None)

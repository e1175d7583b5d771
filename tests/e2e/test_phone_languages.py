"""At phone size in Chromium: one Oh Hell hand (bids then tricks) in Lao and one in Bengali,
the language chosen on the switch. The words on the buttons are the catalog's, the phone's own
fonts draw the script (Debian's fonts-noto-core, no web font), and nothing is wider than the
screen. With SCREENSHOTS=1 the screens are saved for a person to look at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES
from tests.browser import PHONE
from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.games.oh_hell.test_phone_oh_hell import PLAYERS
from tests.games.oh_hell.test_phone_oh_hell import bids_in_play
from tests.games.oh_hell.test_phone_oh_hell import change_a_bid
from tests.games.oh_hell.test_phone_oh_hell import row
from tests.games.oh_hell.test_phone_oh_hell import start_game
from tests.test_languages_flows import said
from tests.test_languages_flows import said_plural
from tests.test_languages_flows import title_in
from tests.test_languages_flows import written

PASSWORD = "correct horse battery"
#: The table: names as typed, one in the language's own script.
NAMES = {"lo": ["Ann", "ສົມໃຈ", "Cy"], "bn": ["Ann", "রহিম", "Cy"]}
#: A script's letters and the words that a font for it must draw.
SCRIPTS = {"lo": ("Lao", r"[\u0e80-\u0eff]"), "bn": ("Bengali", r"[\u0980-\u09ff]")}


def overflowing(page) -> list[str]:
    """Every element whose content is wider than its box (scroll containers aside: they
    scroll on purpose), and the page if it is wider than the phone. The page is measured at
    rest: a just-saved change pops in (scaled up for a moment), so animations are finished
    first."""
    return page.evaluate(
        """(width) => {
            document.getAnimations().forEach((animation) => animation.finish());
            const found = [];
            const root = document.documentElement;
            if (root.scrollWidth > width) found.push(`page ${root.scrollWidth}px wide`);
            for (const el of document.body.querySelectorAll("*")) {
                const style = getComputedStyle(el);
                if (style.display === "inline" || style.display === "none") continue;
                if (["auto", "scroll"].includes(style.overflowX)) continue;
                if (el.clientWidth === 0) continue;  // visually hidden (radio behind a chip)
                if (el.scrollWidth > el.clientWidth + 1) {
                    const name = el.tagName.toLowerCase() +
                        (el.className && typeof el.className === "string"
                            ? "." + el.className.trim().split(/\\s+/).join(".") : "");
                    found.push(`${name} ${el.scrollWidth}>${el.clientWidth}: ` +
                               el.textContent.trim().slice(0, 40));
                }
                const box = el.getBoundingClientRect();
                if (box.width && box.right > width + 1 && style.position !== "fixed") {
                    found.push(`${el.tagName.toLowerCase()} ends at ${Math.round(box.right)}px`);
                }
            }
            return found;
        }""",
        PHONE["width"],
    )


def assert_fits(page) -> None:
    found = overflowing(page)
    assert not found, f"too wide on {page.url}:\n" + "\n".join(found)


def fonts_of(page, selector: str) -> list[dict]:
    """The fonts Chromium drew the element's text with (DevTools' "Rendered fonts"). The
    page's scripts may draw the element again between finding it and asking for its fonts
    (the node is then gone): it is found again, a few times at most."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        for attempt in range(5):
            root = session.send("DOM.getDocument")["root"]["nodeId"]
            node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})
            try:
                fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
            except PlaywrightError as error:
                if "Could not find node" not in error.message or attempt == 4:
                    raise
                page.wait_for_timeout(100)
            else:
                return fonts["fonts"]
    finally:
        session.detach()


def glyph_widths(page, selector: str, letters: str) -> dict:
    """Each letter's width in the element's font, and the width of a missing glyph's box (a
    code point no font has: every missing glyph is drawn as the same box)."""
    return page.evaluate(
        """([selector, letters]) => {
            const el = document.querySelector(selector);
            const context = document.createElement("canvas").getContext("2d");
            context.font = getComputedStyle(el).font;
            const width = (text) => context.measureText(text).width;
            return {
                letters: [...letters].map(width),
                tofu: width("\\u{10FFFD}"),
                tofu2: width("\\u{10FFFC}"),
            };
        }""",
        [selector, letters],
    )


def assert_script_renders(page, language: str, selector: str) -> None:
    script, pattern = SCRIPTS[language]
    text = page.locator(selector).first.inner_text()
    letters = "".join(dict.fromkeys(re.findall(pattern, text)))
    assert len(letters) >= 3, f"no {script} text in {selector}: {text!r}"
    # The fonts that drew it are the system's (DejaVu Sans has the Lao letters, Noto Sans
    # Bengali the Bengali ones): every letter got a glyph from an installed font.
    fonts = fonts_of(page, selector)
    assert fonts, f"nothing drew the {script} text"
    assert not any(font["isCustomFont"] for font in fonts), "a web font was downloaded"
    assert sum(font["glyphCount"] for font in fonts) >= len(text.strip()) // 2, fonts
    widths = glyph_widths(page, selector, letters)
    assert widths["tofu"] == widths["tofu2"]  # the missing-glyph box, whatever the code point
    assert len(set(widths["letters"])) > 1, widths  # boxes would all be one width
    assert any(abs(width - widths["tofu"]) > 0.5 for width in widths["letters"]), widths


def chip(page, form: str, player: str, value: str):
    row = page.locator(f'form[{form}] li.row[data-player="{player}"]')
    return row.locator("label.chip span").get_by_text(value, exact=True)


@pytest.mark.parametrize("language", ["lo", "bn"])
def test_an_oh_hell_hand_in_the_table_s_language_on_a_phone(phone, language):
    page = phone
    page.goto("/signup")
    page.locator("form.languages").get_by_role("button", name=LANGUAGES[language]).click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_script_renders(page, language, "h1")
    screenshot(page, f"{language}-signup")
    assert_fits(page)
    page.get_by_label(said(language, "Username")).fill("friday-club")
    page.get_by_label(said(language, "Password"), exact=True).fill(PASSWORD)
    page.get_by_label(said(language, "Password again")).fill(PASSWORD)
    page.get_by_role("button", name=said(language, "Sign up")).click()
    names = NAMES[language]
    for name in names:
        page.get_by_label(said(language, "Name"), exact=True).fill(name)
        page.get_by_role("button", name=said(language, "Add player")).click()
        expect(page.get_by_text(said(language, "%(name)s added.", name=name))).to_be_visible()
    screenshot(page, f"{language}-players")
    assert_fits(page)

    page.goto("/games/new")
    expect(page.locator("html")).to_have_attribute("lang", language)
    screenshot(page, f"{language}-choose")
    assert_fits(page)
    page.get_by_role("link", name=re.compile(re.escape(title_in(language, "oh_hell")))).click()
    seat_players(page, names)
    screenshot(page, f"{language}-setup")
    assert_fits(page)
    page.get_by_role("button", name=said(language, "Start the game")).click()

    # Hand 1 (1 card), Ann deals: the second seat bids 1 and takes the trick; Cy bids 1
    # (so the bids do not total the card) and misses; Ann bids 0 and makes it.
    save_bids = page.get_by_role("button", name=said(language, "Save bids"))
    expect(save_bids).to_be_visible()
    assert_script_renders(page, language, "#now h1")
    for name, bid in zip(names, (0, 1, 1), strict=True):
        chip(page, "data-bids-form", name, written(language, bid)).click()
    screenshot(page, f"{language}-oh-hell-bids")
    assert_fits(page)
    save_bids.click()
    save_tricks = page.get_by_role("button", name=said(language, "Save tricks"))
    expect(save_tricks).to_be_visible()
    for name, tricks in zip(names, (0, 1, 0), strict=True):
        chip(page, "data-tricks-form", name, written(language, tricks)).click()
    screenshot(page, f"{language}-oh-hell-tricks")
    assert_fits(page)
    save_tricks.click()

    # Hand 2: the totals in the language's digits, the names as typed.
    expect(page.get_by_role("button", name=said(language, "Save bids"))).to_be_visible()
    for name, total in zip(names, (10, 11, 0), strict=True):
        shown = page.locator(f'span.total[data-total="{name}"]')  # the total, then the change
        expect(shown).to_have_text(re.compile(f"^{written(language, total)}[^0-9০-৯]"))
    assert_script_renders(page, language, "#now h1")
    screenshot(page, f"{language}-oh-hell-hand-2")
    assert_fits(page)
    page.locator("#sheet-title").scroll_into_view_if_needed()
    screenshot(page, f"{language}-oh-hell-sheet")


def test_a_changed_bid_the_hook_refuses_is_refused_in_lao_beside_it(phone):
    """Issue 27, item 10 in Lao: the refusal beside the changed bid is the catalog's (the
    message the API gives), and a valid change is said in Lao too."""
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS, Hook=True)
    phone.locator("form.languages").get_by_role("button", name=LANGUAGES["lo"]).click()
    expect(phone.locator("html")).to_have_attribute("lang", "lo")
    bids_in_play(phone, {"Ann": 0, "Ben": 0, "Cy": 0})
    phone.get_by_text(said("lo", "Change a bid")).click()
    change_a_bid(phone, "Ann", 1)
    phone.get_by_role("button", name=said("lo", "Save changed bids")).click()
    problem = said_plural(
        "lo",
        "%(dealer)s is the dealer and may not bid %(bid)s: the bids would total the %(num)s card.",
        "%(dealer)s is the dealer and may not bid %(bid)s: the bids would total the %(num)s cards.",
        1,
        dealer="Ann",
        bid=1,
    )
    refusal = row(phone, "data-change-bids", "Ann").locator("p.error[role=alert]")
    expect(refusal).to_have_text(
        said("lo", "Hand %(number)s: %(problem)s", number=1, problem=problem)
    )
    expect(refusal).to_be_in_viewport()
    change_a_bid(phone, "Cy", 1)
    phone.get_by_role("button", name=said("lo", "Save changed bids")).click()
    expect(phone.locator(".flash-success")).to_have_count(1)
    expect(row(phone, "data-tricks-form", "Ann").locator(".pill.bid")).to_have_text(
        said("lo", "bid %(bid)s", bid=1)
    )
    screenshot(phone, "lo-oh-hell-change-refused")

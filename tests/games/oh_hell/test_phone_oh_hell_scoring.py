"""At phone size in Chromium: Oh Hell's scoring values set with one thumb (− and + beside each
field, 44 px targets) and by typing, the worked example said again as they change (by the
server, with the rules), in English and in Bengali (the reader's digits)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import add_players
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up

PLAYERS = ["Ann", "Ben", "Cy"]
NEW_GAME = "/games/new?game=oh_hell"
BENGALI = str.maketrans("0123456789-", "০১২৩৪৫৬৭৮৯−")


def step(page, key: str, direction: int, times: int = 1) -> None:
    button = page.locator(f'.stepper .step[data-step="{direction}"][aria-controls="opt-{key}"]')
    for _ in range(times):
        button.tap()


def value(page, key: str):
    return page.locator(f"#opt-{key}")


def example(page):
    return page.locator("#worked-example")


def points(value: int) -> str:
    return f"{value} point" if abs(value) == 1 else f"{value} points"


def example_of(made: int, missed: int, zero: int) -> str:
    return (
        f"bid 2, took 2: {points(made)} · bid 1, took 3: {points(missed)} · "
        f"bid 0, took 0: {points(zero)}"
    ).replace("-", "−")


def show_the_values(page) -> None:
    """Scroll so that the worked example is at the foot of the screen (the values above it),
    and check that all of it is in sight: above the bar with Start, which stays at the bottom
    of the screen (the page keeps what is scrolled to clear of it)."""
    page.locator(".worked-example").evaluate("(box) => box.scrollIntoView({block: 'end'})")
    box = page.locator(".worked-example").bounding_box()
    bar = page.locator(".start-bar").bounding_box()
    assert box and bar and box["y"] >= 0, box
    assert box["y"] + box["height"] <= bar["y"], (box, bar)
    # The three values and their steppers are in sight with it.
    field = page.locator("#opt-made_bonus").bounding_box()
    assert field and field["y"] >= 0, field


def assert_fits(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"


def assert_thumb_sized(page) -> None:
    for button in page.locator(".stepper .step").all():
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box


def test_the_steppers_and_typing_change_the_worked_example(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    phone.goto(NEW_GAME)
    open_options(phone)
    expect(example(phone)).to_have_text(example_of(12, 0, 10))
    assert_thumb_sized(phone)
    assert_fits(phone)
    # The example: a bonus of 5 and a penalty of 5, with the steppers.
    step(phone, "made_bonus", -1, 5)
    step(phone, "miss_penalty", 1, 5)
    expect(value(phone, "made_bonus")).to_have_value("5")
    expect(value(phone, "miss_penalty")).to_have_value("5")
    expect(example(phone)).to_have_text(example_of(7, -10, 5))
    show_the_values(phone)
    screenshot(phone, "oh-hell-scoring-steppers")
    # Typed: 3 a trick.
    value(phone, "trick_value").fill("3")
    expect(example(phone)).to_have_text(example_of(11, -10, 5))
    # A miss that scores its tricks: 3 x 3 less 5 x 2.
    phone.locator("#opt-miss_scoring").select_option("per_trick")
    expect(example(phone)).to_have_text(example_of(11, -1, 5))
    # The steppers stop at 0 and 100.
    step(phone, "miss_penalty", -1, 7)
    expect(value(phone, "miss_penalty")).to_have_value("0")
    value(phone, "made_bonus").fill("99")
    step(phone, "made_bonus", 1, 3)
    expect(value(phone, "made_bonus")).to_have_value("100")
    expect(example(phone)).to_have_text(example_of(106, 9, 100))
    # A value the rules do not take says why, in the example's place.
    value(phone, "trick_value").fill("101")
    expect(example(phone)).to_have_text("Points per trick must be from 0 to 100.")
    value(phone, "trick_value").fill("1")
    expect(example(phone)).to_have_text(example_of(102, 3, 100))
    # A field left blank steps from the value the page gave it (the default, 1).
    value(phone, "trick_value").fill("")
    step(phone, "trick_value", 1)
    expect(value(phone, "trick_value")).to_have_value("2")
    expect(example(phone)).to_have_text(example_of(104, 6, 100))
    step(phone, "trick_value", -1)
    # A preset fills the values and the example in one tap.
    phone.get_by_role("button", name="Wizard scoring").tap()
    expect(value(phone, "made_bonus")).to_have_value("20")
    expect(value(phone, "trick_value")).to_have_value("10")
    expect(value(phone, "miss_penalty")).to_have_value("10")
    expect(phone.locator("#opt-miss_scoring")).to_have_value("zero")  # the preset's
    expect(example(phone)).to_have_text(example_of(40, -20, 20))
    phone.locator("#opt-miss_scoring").select_option("per_trick")
    expect(example(phone)).to_have_text(example_of(40, 10, 20))  # 3 x 10 less 2 x 10
    phone.locator("#opt-miss_scoring").select_option("zero")
    expect(example(phone)).to_have_text(example_of(40, -20, 20))
    # The game starts with the values as set.
    seat_players(phone, PLAYERS)
    step(phone, "made_bonus", -1, 15)
    expect(example(phone)).to_have_text(example_of(25, -20, 5))
    phone.get_by_role("button", name="Start the game").click()
    rules_card = phone.get_by_text("Exact bid: 5 + 10 per trick. Missed: −10 per trick off.")
    expect(rules_card).to_have_count(1)  # in the folded "Rules of this game"


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_the_worked_example_in_bengali_digits(browser, live_server, size):
    from tests.browser import _phone_page

    width, height = size
    pages = _phone_page(browser, live_server, {"width": width, "height": height})
    page = next(pages)
    try:
        sign_up(page)
        add_players(page, *PLAYERS)
        page.goto(NEW_GAME)
        page.locator("form.languages").get_by_role("button", name="বাংলা").click()
        expect(page.locator("html")).to_have_attribute("lang", "bn")
        open_options(page)
        expect(example(page)).to_have_text(re.compile("১২"))
        step(page, "made_bonus", -1, 5)
        step(page, "miss_penalty", 1, 5)
        expect(value(page, "made_bonus")).to_have_value("5")
        expect(example(page)).to_contain_text("−১০")
        said = example(page).inner_text()
        assert "৭" in said and "৫" in said and not re.search("[0-9]", said), said
        assert_thumb_sized(page)
        assert_fits(page)
        show_the_values(page)
        screenshot(page, "oh-hell-scoring-bn")
        page.locator("form.languages").get_by_role("button", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        open_options(page)
        show_the_values(page)
        assert_fits(page)
        screenshot(page, "oh-hell-scoring-en")
    finally:
        next(pages, None)

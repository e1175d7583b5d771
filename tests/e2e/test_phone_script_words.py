"""At 390x844 in Chromium, in Lao and Bengali: what the game scripts write as chips are tapped
is the page's catalog words with the reader's digits (issue 27, item 11): Pitch's status line,
Oklahoma Gin's knock limit, status line and deadwood labels. A sentence the catalog does not
translate yet is its English, filled in with the reader's digits (the lead translates new
messages after a merge)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES
from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import sign_up
from tests.e2e.test_phone_accessibility import api_game
from tests.test_languages_flows import catalog
from tests.test_languages_flows import fill
from tests.test_languages_flows import said
from tests.test_languages_flows import written

#: A letter of the language's own script.
LETTERS = {"lo": r"[\u0e80-\u0eff]", "bn": r"[\u0980-\u09ff]"}


def says(language: str, message: str, **params) -> str:
    """``message`` as the page's catalog says it: translated, or still its English."""
    return fill(language, catalog(language).ugettext(message), params)


def in_language(page, language: str) -> None:
    sign_up(page)
    add_players(page, "Ann", "Ben", "Cy")
    page.locator("form.languages").get_by_role("button", name=LANGUAGES[language]).click()
    expect(page.locator("html")).to_have_attribute("lang", language)


def call(page, player: str, text: str):
    row = page.locator(f'[data-auction] [data-player="{player}"]')
    row.locator("label.chip span").get_by_text(text, exact=True).click()


@pytest.mark.parametrize("language", ["lo", "bn"])
def test_pitch_s_status_line_is_in_the_table_s_language(phone, language):
    page = phone
    in_language(page, language)
    page.goto(f"/games/{api_game(page, 'pitch', ['Ann', 'Ben', 'Cy'])}")
    status = page.locator("form[data-inplace] [data-status]").first
    # Ann deals: Ben bids first, bids from 1 to 4 (the chips in the reader's digits).
    first = said(
        language, "No calls yet · %(name)s bids first · bids %(low)s to 4", name="Ben", low=1
    )
    expect(status).to_have_text(first)
    assert re.search(LETTERS[language], status.inner_text())
    chips = page.locator('[data-auction] [data-player="Ben"] label.chip span')
    expect(chips).to_have_text(
        [said(language, "Pass")] + [written(language, bid) for bid in range(1, 5)]
    )
    call(page, "Ben", written(language, 2))
    high = says(
        language, "High bid: %(name)s %(bid)s · %(next)s to call", name="Ben", bid=2, next="Cy"
    )
    expect(status).to_have_text(high)
    call(page, "Cy", said(language, "Pass"))
    call(page, "Ann", written(language, 2))
    expect(status).to_have_text(says(language, "%(name)s steals at %(bid)s", name="Ann", bid=2))
    screenshot(page, f"{language}-pitch-auction-words")


@pytest.mark.parametrize("language", ["lo", "bn"])
def test_gin_s_knock_hint_and_status_line_are_in_the_table_s_language(phone, language):
    page = phone
    in_language(page, language)
    page.goto(f"/games/{api_game(page, 'oklahoma_gin', ['Ann', 'Ben'])}")
    hint = page.locator("[data-knock-limit]")
    status = page.locator("form[data-gin-form] [data-status]")
    expect(hint).to_have_text(said(language, "Tap the upcard: it sets the knock limit."))
    page.locator('input[name="upcard"][value="7"] + span').click()
    limit = said(language, "Knock with %(limit)s or less", limit=7)
    expect(hint).to_have_text(limit)
    assert re.search(LETTERS[language], hint.inner_text())
    expect(status).to_have_text(says(language, "%(limit)s · tap how the round ended", limit=limit))
    page.locator('input[name="result"][value="knock"] + span').click()
    page.locator('input[name="knocker"][value="0"] + span').click()
    expect(page.locator("[data-label-knocker]")).to_have_text(
        said(language, "%(name)s's deadwood (knocked)", name="Ann")
    )
    expect(page.locator("[data-label-opponent]")).to_have_text(
        said(language, "%(name)s's deadwood", name="Ben")
    )
    page.locator("#knocker_deadwood").fill("9")
    page.locator("#opponent_deadwood").fill("20")
    over = says(
        language,
        "Knock with %(limit)s or less: %(name)s has %(deadwood)s.",
        limit=7,
        name="Ann",
        deadwood=9,
    )
    expect(status).to_have_text(over)
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    screenshot(page, f"{language}-gin-knock-words")


def next_marks(page) -> list[tuple[str, str]]:
    """Each drawn "whose call" marker of the auction: its row's player and its text, with what
    a stylesheet draws beside the names (``::after``), which must be nothing."""
    return page.locator("[data-auction] li").evaluate_all(
        """(rows) => rows.flatMap((row) => {
            const drawn = [...row.querySelectorAll('*')].map(
                (el) => getComputedStyle(el, '::after').content).filter(
                (content) => content && content !== 'none' && content !== 'normal');
            const marks = [...row.querySelectorAll('.pill.next')].filter(
                (mark) => mark.checkVisibility());
            return [...drawn.map((content) => [row.dataset.player, `::after ${content}`]),
                    ...marks.map((mark) => [row.dataset.player, mark.textContent])];
        })"""
    )


@pytest.mark.parametrize("language", ["lo"])
def test_pitch_s_next_marker_is_in_the_table_s_language(phone, language):
    """The auction marks whose call it is ("← next") in the reader's words, on one row, and
    the mark moves on as the calls are tapped."""
    page = phone
    in_language(page, language)
    page.goto(f"/games/{api_game(page, 'pitch', ['Ann', 'Ben', 'Cy'])}")
    mark = said(language, "← next")
    assert re.search(LETTERS[language], mark)
    # Ann deals: Ben calls first.
    assert next_marks(page) == [["Ben", mark]]
    call(page, "Ben", written(language, 2))
    expect(page.locator('[data-auction] [data-player="Cy"]')).to_have_class(re.compile("waiting"))
    assert next_marks(page) == [["Cy", mark]]
    screenshot(page, f"{language}-pitch-next-mark")
    call(page, "Cy", said(language, "Pass"))
    call(page, "Ann", said(language, "Pass"))
    assert next_marks(page) == []

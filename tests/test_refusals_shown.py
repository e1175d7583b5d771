"""Every refusal of a game's hand form (each saved in place) is shown on the page it answers
with: beside its field, or above the form (issue 27, item 10: a change of the bids that the
rules refused was answered 422 with its message nowhere on the page)."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.games import entry_form
from tests.pages import game_id
from tests.pages import start_game
from tests.test_input_sweep import post_forms

SEATS = {
    "oh_hell": {"Ann": 1, "Ben": 2, "Cy": 3},
    "wizard": {"Ann": 1, "Ben": 2, "Cy": 3},
    "spades": {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4},
    "hearts": {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4},
    "pitch": {"Ann": 1, "Ben": 2, "Cy": 3},
    "oklahoma_gin": {"Ann": 1, "Ben": 2},
    "score_pad": {"Ann": 1, "Ben": 2, "Cy": 3},
}
OPTIONS = {"score_pad": {"name": "Darts"}}
#: Values that a form's reader or the rules refuse (blank, not a number, out of range).
BAD = ["", "x", "99", "-1"]
FRAGMENT = {"X-Fragment": "1"}


@pytest.fixture
def refusals(monkeypatch):
    """Each refusal a page was rendered with, as the page got it."""
    seen = []
    field_errors = entry_form.field_errors

    def recording(refusal):
        if refusal is not None:
            seen.append(refusal)
        return field_errors(refusal)

    monkeypatch.setattr(entry_form, "field_errors", recording)
    return seen


def hand_forms(text: str):
    """(action, {field: value}) of each form of the page that saves a hand, each saved in
    place with the script (``data-inplace``)."""
    for form in re.finditer(r"<form\b([^>]*)>.*?</form>", text, re.S):
        for action, fields in post_forms(form.group(0)):
            if re.search(r"/games/\d+/hands(/\d+)?$", action or ""):
                assert "data-inplace" in form.group(1), action
                yield action, fields


def shown(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.parametrize("kind", list(SEATS))
def test_every_refusal_of_a_hand_form_is_on_the_page_it_answers_with(app, table, refusals, kind):
    game = game_id(start_game(table, app, kind, SEATS[kind], **OPTIONS.get(kind, {})))
    missing, tried = [], 0
    # The hand's first step, then (for the bidding games) its second with its own forms.
    for _step in range(2):
        page = table.get(f"/games/{game}").text
        forms = list(hand_forms(page))
        assert forms, kind
        for action, fields in forms:
            for name in fields:
                if name in ("csrf_token", "seats", "phase", "number", "change", "quick"):
                    continue
                for bad in BAD:
                    refusals.clear()
                    answer = table.post(action, data={**fields, name: bad}, headers=FRAGMENT)
                    if answer.status_code != 422:
                        continue
                    tried += 1
                    text = shown(answer.text)
                    for refusal in refusals:
                        for problem in refusal.problems:
                            if " ".join(problem.message.split()) not in " ".join(text.split()):
                                missing.append((action, name, bad, problem.field, problem.message))
        # Move on a step: the first form as the page fills it in.
        action, fields = forms[0]
        if table.post(action, data=fields).status_code != 302:
            break
    assert tried
    assert not missing, missing[:5]

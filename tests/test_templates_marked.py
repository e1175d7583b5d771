"""Every template's words go through ``_()``: a static read of every template (the shared ones
and each game's) finds no text with letters outside ``{{ }}``/``{% %}`` between tags, nor in
the attributes a person sees or hears. It catches what the rendering checks of
``test_translations.py`` do not reach (a page that test does not open, such as a correction)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(
    [*ROOT.glob("templates/**/*.html"), *ROOT.glob("scorekeeper/games/*/templates/**/*.html")]
)
CODE = re.compile(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", re.S)
HIDDEN = re.compile(r"<script.*?</script>|<style.*?</style>", re.S)
BETWEEN_TAGS = re.compile(r">([^<>]*[^\W\d_]{2,}[^<>]*)<")
SHOWN = re.compile(r'(?:title|aria-label|placeholder|alt|data-confirm)="([^"]*[^\W\d_]{2,}[^"]*)"')
BLOCK_TITLE = re.compile(r"\{% block title %\}([^{]*[^\W\d_]{2,}[^{]*)\{")


def unmarked(source: str) -> list[str]:
    titles = BLOCK_TITLE.findall(source)
    text = HIDDEN.sub("", CODE.sub("", source))
    found = titles + BETWEEN_TAGS.findall(text) + SHOWN.findall(text)
    return [piece.strip() for piece in found if piece.strip()]


def test_the_check_finds_an_unmarked_word():
    assert unmarked("<p>Save</p>") == ["Save"]
    assert unmarked("<a title=\"Undo\">{{ _('Undo') }}</a>") == ["Undo"]
    assert unmarked("{% block title %}Correct hand {{ n }}{% endblock %}") == ["Correct hand"]
    assert unmarked("<p>{{ _('Save') }} · {{ n|num }}</p>") == []


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_template_marks_its_words(template):
    assert unmarked(template.read_text(encoding="utf-8")) == []

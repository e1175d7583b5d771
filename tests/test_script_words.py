"""Every word a script writes comes from the page's catalog words (issue 27, item 11): the
scripts hold no sentence of their own. Each takes its words from a ``data-words`` attribute
(``static/js/words.js`` reads it and writes numbers in the reader's digits), so a literal in a
script is code only: event names, selectors, class names, the values of the form's fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(ROOT.glob("static/js/*.js")) + sorted(ROOT.glob("scorekeeper/games/*/static/*.js"))

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')

#: Literals with a capital letter that are the browser's names, not words for people (and
#: Gin's ace, the card's letter).
CODE_NAMES = {
    "DOMContentLoaded",
    "ETag",
    "If-None-Match",
    "POST",
    "X-Fragment",
    "use strict",
    "wakeLock",
    "A",
}


def words_in(script: Path) -> list[str]:
    """The literals of ``script`` that read as words for people: with a capital letter, a
    letter beyond ASCII, or two plain words in a row (a selector's parts are not plain)."""
    source = re.sub(r"^\s*//.*$", "", script.read_text(encoding="utf-8"), flags=re.M)
    return worded(source)


def worded(source: str) -> list[str]:
    found = []
    for match in LITERAL.finditer(source):
        # A template literal's ${...} is code again (it may hold literals of its own).
        inner = re.findall(r"\$\{([^}]*)\}", match.group(0)) if match.group(0)[0] == "`" else []
        found += [literal for part in inner for literal in worded(part)]
        text = re.sub(r"\$\{[^}]*\}", "", match.group(0)[1:-1])
        if text in CODE_NAMES:
            continue
        words = (
            re.search(r"[A-Z]", text)
            or re.search(r"[^\x00-\x7f]", text)
            and re.search(r"\w", text)
            or re.search(r"(?<![\w.#\[-])[a-z]+ [a-z]+(?![\w\[(-])", text)
        )
        if words:
            found.append(match.group(0))
    return found


def test_the_scripts_are_all_checked():
    names = {str(path.relative_to(ROOT)) for path in SCRIPTS}
    assert {"static/js/app.js", "static/js/view.js", "static/js/words.js"} <= names
    assert "scorekeeper/games/bidding/static/bidding.js" in names
    assert {
        f"scorekeeper/games/{key}/static/game.js" for key in ("pitch", "oklahoma_gin", "hearts")
    } <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_script_writes_no_words_of_its_own(script):
    assert words_in(script) == []


def test_the_check_finds_a_sentence(tmp_path):
    script = tmp_path / "game.js"
    script.write_text(
        "status.textContent = `High bid: ${name} ${bid} · ${next} to call`;\n"
        "note.textContent = ' · the others pass (filled in)';\n"
        'out.textContent = "Saving…";\n'
        'form.querySelector("[data-presets] button[data-options]").classList.add("just-saved");\n'
    )
    assert words_in(script) == [
        "`High bid: ${name} ${bid} · ${next} to call`",
        "' · the others pass (filled in)'",
        '"Saving…"',
    ]

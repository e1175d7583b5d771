"""Every word a script writes comes from the page's catalog words (issue 27, item 11): the
scripts hold no sentence of their own, nor does a stylesheet (``content:``). Each script takes
its words from a ``data-words`` attribute (``static/js/words.js`` reads it and writes numbers in
the reader's digits), so a literal in a script is code only: event names, selectors, class
names, the values of the form's fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(ROOT.glob("static/js/*.js")) + sorted(ROOT.glob("scorekeeper/games/*/static/*.js"))
STYLESHEETS = sorted(ROOT.glob("static/css/*.css")) + sorted(
    ROOT.glob("scorekeeper/games/*/static/*.css")
)

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')

#: Literals with a capital letter that are the browser's names, not words for people (and
#: Gin's ace, the card's letter).
CODE_NAMES = {
    "DOMContentLoaded",
    "ETag",
    "If-None-Match",
    "POST",
    "TimeoutError",
    "X-Fragment",
    "X-Sheet-Rows",
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


def written_by(source: Path) -> list[str]:
    """What a script or a stylesheet writes into the page that reads as words."""
    return drawn_by(source) if source.suffix == ".css" else words_in(source)


@pytest.mark.parametrize(
    "source", SCRIPTS + STYLESHEETS, ids=lambda path: str(path.relative_to(ROOT))
)
def test_a_script_or_stylesheet_writes_no_words_of_its_own(source):
    assert written_by(source) == []


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
    sheet = tmp_path / "game.css"
    sheet.write_text(
        '.call-row.waiting .name::after { content: " ← next"; color: red; }\n'
        '.live-dot::before { content: "● "; }\n'
        "/* content: 'a comment' */ .open::after { content: '▾'; }\n"
    )
    assert written_by(sheet) == ['" ← next"']


def drawn_by(stylesheet: Path) -> list[str]:
    """The texts a stylesheet writes into the page (``content: "..."``) that hold a letter:
    signs and arrows are fine, a word is not (it would be English in every language)."""
    source = re.sub(r"/\*.*?\*/", "", stylesheet.read_text(encoding="utf-8"), flags=re.S)
    texts = re.findall(r"content:\s*((?:\"[^\"]*\"|'[^']*'|\s)+)", source)
    return [text.strip() for text in texts if re.search(r"[^\W\d_]", text)]


def test_the_stylesheets_are_all_checked():
    names = {str(path.relative_to(ROOT)) for path in STYLESHEETS}
    assert "static/css/app.css" in names and "scorekeeper/games/pitch/static/game.css" in names

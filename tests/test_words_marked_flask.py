"""Every sentence the Flask side's Python shows a person is marked for translation.

The static check of the rules (``tests/rules/test_words_marked.py``) read over the services,
the views, ``web.py``, ``text.py`` and ``errors.py``: any text with a space in it must be an
argument of ``_``, ``N_``, ``ngettext`` or ``lazy_ngettext`` (or of a log call, or a
docstring), or be one of the technical texts listed here (SQL, HTTP headers, HTML tags).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.rules.test_words_marked import unmarked_phrases

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
MODULES = sorted(
    str(path.relative_to(PACKAGE))
    for path in [
        *PACKAGE.glob("services/**/*.py"),
        *PACKAGE.glob("views/*.py"),
        PACKAGE / "web.py",
        PACKAGE / "text.py",
        PACKAGE / "errors.py",
    ]
)
#: Log calls: read by whoever runs the server, in English.
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical"}
#: Texts no person reads as words: SQL, headers, tags (each in its module).
TECHNICAL = {
    "services/backup/restore.py": {
        ") FROM STDIN",
        "INSERT INTO ",
        ") VALUES (",
        "COPY hand_result (",
        "INSERT INTO hand_result (",
    },
    "services/results.py": {
        "INSERT INTO player_stat",
        "INSERT INTO hand_result (",
        " ON CONFLICT (",
        " VALUES (:player_id",
    },
    "services/bulk.py": {
        ") FROM STDIN",
        "INSERT INTO ",
        ") VALUES ",
        " SELECT * FROM unnest(",
        "%04d-%02d-%02d %02d:%02d:%02d.%06d",  # SQLite's stored moments
    },
    "services/backup/stream.py": {r"[ \t\n\r]*"},
    # User-Agent patterns and the product names they stand for (a browser's own name).
    "services/events.py": {"SELECT id, version FROM game", "SELECT version FROM game"},
    "services/sessions.py": {"Samsung Internet", r"\bMac OS X\b"},
    "views/common.py": {'Bearer realm="scorekeeper"'},
    "views/errors.py": {"database is locked"},
    "views/helpers.py": {'<link rel="stylesheet" href="{}">', '<script src="{}" defer></script>'},
    "views/main.py": {"SELECT 1"},
    "views/security.py": {
        *(
            f"{directive}-src '"
            for directive in ("default", "script", "style", "img", "connect", "worker", "manifest")
        ),
        *(f"{directive} '" for directive in ("object-src", "base-uri", "form-action")),
        "frame-ancestors '",
        "public, max-age=31536000, immutable",
        "; secure",
        "; Secure",
    },
    "views/share.py": {"private, no-cache"},
    "views/offline_rules.py": {"private, no-cache"},
    # The server-sent events' own format (field names, not words).
    "views/events.py": {"\nevent: game\ndata: "},
    "services/live.py": {', "state": ', ', "draft": '},
}


def logged(source: str) -> set[str]:
    """The texts given to a log call (``current_app.logger.exception("...")``)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOG_METHODS
        ):
            found |= {
                arg.value
                for arg in node.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            }
    return found


def documented(source: str) -> set[str]:
    """The texts of ``(status, text)`` pairs: how the OpenAPI document describes an answer
    (``answers(400, (422, "The name is taken ..."))``), read by a client's developer."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Tuple)
            and len(node.elts) == 2
            and isinstance(node.elts[0], ast.Constant)
            and type(node.elts[0].value) is int
            and 100 <= node.elts[0].value < 600
            and isinstance(node.elts[1], ast.Constant)
            and isinstance(node.elts[1].value, str)
        ):
            found.add(node.elts[1].value)
    return found


def left_unmarked(module: str) -> list[str]:
    source = (PACKAGE / module).read_text()
    allowed = logged(source) | documented(source)
    technical = TECHNICAL.get(module, set())
    return [
        text
        for text in unmarked_phrases(source)
        if text not in allowed and not any(text.startswith(known) for known in technical)
    ]


@pytest.mark.parametrize("module", MODULES)
def test_no_sentence_is_left_unmarked(module):
    assert left_unmarked(module) == []


def test_the_check_covers_the_modules_and_finds_an_unmarked_sentence(tmp_path):
    assert {"services/backup/check.py", "views/errors.py", "web.py", "text.py", "errors.py"} <= set(
        MODULES
    )
    source = (
        'def f():\n    """Doc string."""\n    logger.warning("Slow request %s", 3)\n'
        '    flash("Saved the hand.")\n    raise Refusal("code", f"{x} is bad.")\n'
    )
    assert unmarked_phrases(source) != [] and logged(source) == {"Slow request %s"}
    assert [t for t in unmarked_phrases(source) if t not in logged(source)] == [
        "Saved the hand.",
        " is bad.",
    ]
    api = 'NAME_TAKEN = (422, "The name is taken.")\nflash((2, "Two words here."))\n'
    assert documented(api) == {"The name is taken."}

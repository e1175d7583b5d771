"""The rules are the ground floor: every game's rules import and play with only the standard
library and Babel (offline play runs them on a phone, without Flask, pydantic or a database).

A child Python runs with a path of the standard library, the repository and a folder that
holds nothing but Babel (``python -I -S``: no site-packages). It checks that Flask and pydantic
are not there, then imports every game's rules (found from the registry and the folders, not
from a list of ours), sets a game up and replays one hand through the rules' public methods.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import textwrap
from importlib import import_module
from pathlib import Path

import babel
import pytest

from scorekeeper.games.base import Setup
from scorekeeper.games.registry import INSTALLED

ROOT = Path(__file__).resolve().parents[2]
GAMES_FOLDER = ROOT / "scorekeeper" / "games"

#: One table and one valid hand per installed game (a new game adds its own here).
ONE_HAND = {
    "oh_hell": (
        ["Ann", "Ben", "Cy"],
        {},
        {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 0, "Cy": 1}},
    ),
    "pitch": (
        ["Ann", "Ben", "Cy"],
        {},
        {"pitcher": "Ben", "bid": 2, "high": "Ben", "low": "Ben", "jack": None, "game": None},
    ),
    "oklahoma_gin": (
        ["Ann", "Ben"],
        {},
        {
            "upcard": "10",
            "result": "knock",
            "knocker": "Ann",
            "knocker_deadwood": 5,
            "opponent_deadwood": 30,
        },
    ),
    "wizard": (
        ["Ann", "Ben", "Cy"],
        {},
        {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 0, "Cy": 1}},
    ),
    "spades": (
        ["Ann", "Ben", "Cy", "Dee"],
        {},
        {
            "bids": {"Ann": 4, "Ben": 3, "Cy": 2, "Dee": 3},
            "tricks": {"Ann": 5, "Ben": 3, "Cy": 3, "Dee": 2},
        },
    ),
    "hearts": (
        ["Ann", "Ben", "Cy", "Dee"],
        {},
        {"points": {"Ann": 3, "Ben": 13, "Cy": 6, "Dee": 4}},
    ),
    # A text option: its check (NFKC, invisible characters refused) runs in the child too.
    "score_pad": (["Ann", "Ben", "Cy"], {"name": " Cribbage "}, {"points": {"Ann": 10, "Cy": 3}}),
}

#: What the child does: every line of it runs with the restricted path.
CHILD = textwrap.dedent(
    """
    import importlib
    import json
    import sys

    given = json.loads(sys.stdin.read())
    sys.path[:] = given["path"]
    refused = {}
    for name in ("flask", "pydantic", "sqlalchemy", "werkzeug", "wtforms", "jinja2"):
        try:
            importlib.import_module(name)
        except ImportError:
            refused[name] = True
        else:
            refused[name] = False
    import babel  # the one library besides the standard library

    from scorekeeper.games.base import Setup
    from scorekeeper.games.errors import RuleError

    played = {}
    for key, (players, options, entry) in sorted(given["hands"].items()):
        rules = importlib.import_module(f"scorekeeper.games.{key}.rules").RULES
        resolved = rules.check_setup(players, options)
        setup = Setup(tuple(players), resolved, 0)
        state = rules.play(setup, [entry])
        try:
            rules.play(setup, [{"nonsense": True}])
        except RuleError as error:
            refusal = error.code
        else:
            refusal = None
        played[key] = {
            "options": resolved,
            "status": [hand.status for hand in state.hands],
            "totals": state.totals,
            "refusal": refusal,
        }
    print(json.dumps({
        "refused": refused,
        "babel": babel.__name__,
        "played": played,
        "loaded": sorted(name for name in sys.modules if name.startswith("scorekeeper")),
        "path": sys.path,
    }))
    """
)


def rules_games() -> list[str]:
    """Every game with rules: the registry's list, and every folder holding a ``rules.py``."""
    folders = {path.parent.name for path in GAMES_FOLDER.glob("*/rules.py")}
    return sorted(set(INSTALLED) | folders)


def stdlib_path() -> list[str]:
    """The standard library's folders (of the base Python, not of the virtual environment)."""
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})
    found = [paths["stdlib"], paths["platstdlib"], str(Path(paths["platstdlib"]) / "lib-dynload")]
    return list(dict.fromkeys(path for path in found if Path(path).is_dir()))


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    only_babel = tmp_path_factory.mktemp("only_babel")
    (only_babel / "babel").symlink_to(Path(babel.__file__).parent, target_is_directory=True)
    given = {
        "path": [*stdlib_path(), str(ROOT), str(only_babel)],
        "hands": {key: ONE_HAND[key] for key in rules_games() if key in ONE_HAND},
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", CHILD],
        input=json.dumps(given),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=only_babel,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_game_with_rules_has_one_hand_to_play_here():
    assert set(rules_games()) == set(ONE_HAND), "add one valid hand of the new game to ONE_HAND"
    assert set(INSTALLED) <= set(rules_games())


def test_the_child_has_no_site_packages_and_neither_flask_nor_pydantic(child):
    assert not [
        path for path in child["path"] if "site-packages" in path or "dist-packages" in path
    ]
    assert child["refused"] == dict.fromkeys(
        ("flask", "pydantic", "sqlalchemy", "werkzeug", "wtforms", "jinja2"), True
    )
    assert child["babel"] == "babel"


@pytest.mark.parametrize("key", rules_games())
def test_the_rules_play_a_hand_with_only_the_standard_library_and_babel(child, key):
    players, options, entry = ONE_HAND[key]
    rules = import_module(f"scorekeeper.games.{key}.rules").RULES
    resolved = rules.check_setup(players, options)
    state = rules.play(Setup(tuple(players), resolved, 0), [entry])
    played = child["played"][key]
    # The same game as here, where everything is installed: options, the hand, the totals.
    assert played["options"] == json.loads(json.dumps(resolved))
    assert played["status"] == ["scored"] == [hand.status for hand in state.hands]
    assert played["totals"] == state.totals
    # A hand the rules refuse is refused there too, with the rules' own error.
    assert played["refusal"]


def test_the_rules_load_no_form_reader_schema_plug_in_or_registry(child):
    loaded = set(child["loaded"])
    assert {f"scorekeeper.games.{key}.rules" for key in rules_games()} <= loaded
    gathered = {
        "scorekeeper.games.registry",
        "scorekeeper.games.plugin",
        "scorekeeper.games.schema",
    }
    assert not loaded & gathered
    assert not [name for name in loaded if name.endswith((".form", ".schema", ".plugin"))]
    assert "scorekeeper.games.entry_form" not in loaded
    # Of the app outside the games, only the package itself (which imports nothing).
    assert [name for name in loaded if not name.startswith("scorekeeper.games")] == ["scorekeeper"]

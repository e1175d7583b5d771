"""Every word a game's Python shows a person is marked for translation.

A static check reads every module of every game folder (``scorekeeper/games/*/``, found by
itself, so a new game is checked without a line here) and the shared readers: any text with
a space in it (a phrase or a sentence) must be an argument of ``_``, ``N_``, ``ngettext``,
``lazy_ngettext``, ``pgettext`` or ``lazy_pgettext``, apart from docstrings, the API
schema's ``description=`` (the schema stays in English) and programming errors
(``ValueError``). A runtime check then speaks a
made-up language in which every translated text is bracketed, and looks at what each game
says: labels, choices, descriptions, refusals (from the rules and the form readers) and
notices.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.errors import Refusal
from scorekeeper.games import GAMES as REGISTRY
from scorekeeper.games import i18n
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.oklahoma_gin import form as gin_form
from scorekeeper.games.oklahoma_gin.rules import RULES as GIN
from scorekeeper.games.pitch import form as pitch_form
from scorekeeper.games.pitch.rules import RULES as PITCH
from scorekeeper.games.spades.rules import RULES as SPADES
from scorekeeper.games.wizard.rules import RULES as WIZARD

GAMES = Path(__file__).resolve().parents[2] / "scorekeeper" / "games"
#: Every module of every game folder (and of a family folder beside them), and the readers.
MODULES = sorted(str(path.relative_to(GAMES)) for path in GAMES.glob("*/**/*.py")) + ["readers.py"]
MARKERS = {"_", "N_", "ngettext", "lazy_ngettext", "pgettext", "lazy_pgettext"}


def unmarked_phrases(source: str) -> list[str]:
    tree = ast.parse(source)
    allowed: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            allowed.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else None
            if called in MARKERS or called == "ValueError":
                allowed.update(id(arg) for arg in node.args)
            allowed.update(id(kw.value) for kw in node.keywords if kw.arg == "description")
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if id(node) in allowed:
            return
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and " " in text.strip() and any(c.isalpha() for c in text):
            found.append(text)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_phrase_is_left_unmarked(module):
    found = unmarked_phrases((GAMES / module).read_text())
    assert found == []


def test_the_check_finds_an_unmarked_phrase():
    source = 'def f():\n    """Doc string."""\n    raise RuleError("code", f"{x} is bad.")\n'
    assert unmarked_phrases(source) == [" is bad."]
    assert unmarked_phrases('_("Fine words"); N_("More words"); ValueError("not a rank")') == []


# At runtime, in a made-up language -------------------------------------------------------


@pytest.fixture
def bracketed():
    saved = (i18n._gettext, i18n._ngettext, i18n._pgettext)
    i18n.use(lambda message: f"⟦{message}⟧", lambda one, many, n: f"⟦{one if n == 1 else many}⟧")
    yield
    i18n._gettext, i18n._ngettext, i18n._pgettext = saved


def assert_marked(text) -> None:
    shown = str(text)
    assert shown.startswith("⟦") and shown.endswith("⟧"), shown


def refusals(rules, players, entries, **options) -> list[str]:
    setup = Setup(tuple(players), rules.resolve_options(options, len(players)), 0)
    with pytest.raises(RuleError) as caught:
        rules.play(setup, entries)
    return [error.message for error in caught.value.errors]


def _last_value(spec):
    """An option's value that turns it on as far as it goes."""
    if spec.kind == "bool":
        return True
    if spec.kind == "list":
        return [1, 2, 1]
    if spec.choices:
        return spec.choices[-1]
    return "Yahtzee" if spec.kind == "text" else spec.minimum


@pytest.mark.parametrize("rules", [pytest.param(REGISTRY[key].rules, id=key) for key in REGISTRY])
def test_labels_choices_facts_and_descriptions_are_translated(bracketed, rules):
    assert_marked(rules.title)
    assert_marked(rules.hand_word)
    for spec in rules.option_specs(rules.min_players) + rules.option_specs(rules.max_players):
        assert_marked(spec.label)
        assert_marked(spec.help)
        for label in spec.choice_labels.values():
            assert_marked(label)
    for fact in rules.facts:
        assert_marked(fact.label)
    for stat in rules.stats:
        assert_marked(stat.label)
    every_option = {spec.key: _last_value(spec) for spec in rules.option_specs(rules.max_players)}
    for options in ({}, every_option):
        for sentence in rules.describe(options, rules.max_players):
            assert_marked(sentence)
    setup = Setup(tuple("ABCD"[: rules.max_players]), every_option, 0)
    for header in rules.csv_columns(setup):
        assert_marked(header)


PITCH_WRONG = [
    [{}],
    [{"auction": "Ann 2"}],
    [{"auction": [["Ben", "pass"]], "pitcher": "Ann"}],
    [{"auction": [["Ben", "two"], ["Cy", 2.5], ["Ann", None]]}],
    [{"auction": [["Cy", 2]]}],
    [{"auction": [["Ben", 4], ["Cy", 4], ["Ann", 4]]}],
    [{"auction": [["Ben", "pass"], ["Cy", "pass"], ["Ann", "pass"]]}],
    [{"auction": [["Ben", 2], ["Cy", 1], ["Ann", 1]]}],
    [{"auction": [["Ben", 7], [3, 2], "Ann"]}],
    [{"pitcher": 3, "bid": "x"}],
    [{"pitcher": "Zed", "bid": 9}],
    [{"pitcher": "Ann"}],
    [{"pitcher": "Ann", "bid": 9, "high": 1, "low": "Zed", "jack": 2, "game": "Zed"}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "game_points": {"Ann": "x", "Zed": 1}}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "low": "Cy", "game_points": {"Ann": 99}}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "low": "Cy", "game_points": [1]}],
    [{"pitcher": "Ann", "bid": 2, "high": "B", "low": "C", "game_points": {"Ann": 60, "B": 30}}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "low": "Cy", "single_trump": "yes"}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "low": "Cy", "jack": "Cy", "single_trump": True}],
    [{"pitcher": "Ann", "bid": 2, "high": "Ben", "low": "Cy", "game": "Ann", "game_points": {}}],
    [{"pitcher": "Ann", "bid": 2}, {"pitcher": "Ann", "bid": 2}],
    ["hand"],
]


def test_pitch_refusals_and_notices_are_translated(bracketed):
    said = []
    for entries in PITCH_WRONG:
        said += refusals(PITCH, ("Ann", "Ben", "Cy"), entries)
    said += refusals(PITCH, ("Ann", "Ben", "Cy"), [{"pitcher": "Ann", "bid": 2}], partnerships=True)
    four = ("Ann", "Ben", "Cy", "Dee")
    said += refusals(
        PITCH,
        four,
        [{"pitcher": "Ben", "bid": 2, "high": "Ann", "low": "Ann", "single_trump": True}],
        partnerships=True,
    )
    said += refusals(
        PITCH,
        four,
        [{"auction": [["Ben", 2], ["Cy", 2], ["Dee", 3], ["Ann", 2]]}],
        dealer_may_steal=False,
    )
    game_points = {"Ann": 40, "Ben": 40}
    said += refusals(
        PITCH,
        ("Ann", "Ben"),
        [
            {
                "pitcher": "Ann",
                "bid": 2,
                "high": "Ann",
                "low": "Ann",
                "game": "Ann",
                "game_points": game_points,
            }
        ],
    )
    assert len(said) > 30
    for message in said:
        assert_marked(message)
    setup = Setup(("Ann", "Ben", "Cy"), PITCH.resolve_options({"smudge": True}, 3), 0)
    smudge = {"pitcher": "Ben", "bid": 2, "high": "Ben", "low": "Ben", "jack": "Ben", "game": "Ben"}
    for message in PITCH.play(setup, [smudge]).notices:
        assert_marked(message)


def test_oklahoma_gin_refusals_and_notices_are_translated(bracketed):
    two = ("Ann", "Ben")
    said = []
    for entries in (
        [{}],
        ["round"],
        [{"upcard": 7, "upcard_suit": 3, "result": 1}],
        [{"upcard": "Z", "upcard_suit": "stars", "result": "won"}],
        [{"upcard": "7", "result": "knock"}],
        [{"upcard": "7", "result": "knock", "knocker": 1}],
        [{"upcard": "7", "result": "knock", "knocker": "Zed", "knocker_deadwood": "x"}],
        [{"upcard": "7", "result": "gin", "knocker_deadwood": 3, "opponent_deadwood": 200}],
        [{"upcard": "7", "result": "gin", "knocker": "Ann", "knocker_deadwood": 3}],
        [{"upcard": "7", "result": "knock", "knocker": "Ann", "knocker_deadwood": "x"}],
        [{"upcard": "7", "result": "knock", "knocker": "Ann", "knocker_deadwood": 9}],
        [{"upcard": "7", "result": "knock", "knocker_deadwood": 9, "opponent_deadwood": 1}],
        [{"upcard": "7", "result": "knock", "knocker": "Ann", "knocker_deadwood": 300}],
    ):
        said += refusals(GIN, two, entries)
    said += refusals(
        GIN,
        two,
        [
            {
                "upcard": "A",
                "result": "knock",
                "knocker": "Ann",
                "knocker_deadwood": 1,
                "opponent_deadwood": 5,
            }
        ],
        ace_requires_gin=True,
    )
    said += refusals(GIN, two, [{"upcard": "7", "result": "draw"}], spade_double=True)
    won = {"upcard": "7", "result": "gin", "knocker": "Ann", "opponent_deadwood": 90}
    said += refusals(GIN, two, [won, won])
    assert len(said) > 20
    for message in said:
        assert_marked(message)
    draw = {"upcard": "7", "result": "draw"}
    for options, entries in (({}, [draw]), ({}, [won]), ({"hollywood": True}, [won, won, won])):
        setup = Setup(two, GIN.resolve_options(options, 2), 0)
        notices = GIN.play(setup, entries).notices
        assert notices
        for message in notices:
            assert_marked(message)


def test_the_form_readers_refusals_are_translated(bracketed):
    two, three = ["Ann", "Ben"], ["Ann", "Ben", "Cy"]
    said = []
    for form, players, phase in (
        ({"quick": "1"}, three, "auction"),
        ({"quick": "1", "pitcher": "9"}, three, "auction"),
        ({"quick": "1", "pitcher": "0", "bid": "x"}, three, "auction"),
        ({"quick": "1", "pitcher": "0"}, three, "auction"),
        ({"call-0": "x"}, three, "auction"),
        ({}, three, "points"),
        ({"high": "0"}, three, "points"),
        ({"high": "9"}, three, "points"),
        ({"high": "0", "low": "0"}, three, "points"),
        ({"high": "0", "low": "0", "jack": "9"}, three, "points"),
        ({"high": "0", "low": "0", "game": "9"}, three, "points"),
        ({"high": "0", "low": "0", "game_points-0": "x"}, three, "points"),
        ({"pitcher_seat": "9"}, three, "points"),
    ):
        with pytest.raises(RuleError) as caught:  # the reader's own error (pure rules side)
            pitch_form.read(form, players, phase)
        said += [problem.message for problem in Refusal.from_rule(caught.value).problems]
    for form in (
        {"result": "knock", "knocker": "7"},
        {"result": "knock", "knocker": "0", "knocker_deadwood": "x"},
        {"result": "knock", "knocker": "0", "opponent_deadwood": "x"},
        {"result": "knock", "knocker_deadwood": "x"},
        {"result": "knock", "opponent_deadwood": "x"},
    ):
        with pytest.raises(RuleError) as caught:  # the reader's own error (pure rules side)
            gin_form.read(form, two, "round")
        said += [problem.message for problem in Refusal.from_rule(caught.value).problems]
    assert len(said) == 18
    for message in said:
        assert_marked(message)


# A refusal naming its own hand, in another language ---------------------------------------


def test_a_refusal_that_names_its_hand_gets_no_second_hand_in_any_language(bracketed):
    """In a language whose sentence does not start with "Hand " the app must still know the
    rules' message names its hand: no "Hand 1: Hand 1 ..." (the rules say so, not English)."""
    four = ("Ann", "Ben", "Cy", "Dee")
    spades = {"bids": dict.fromkeys(four, 3)}
    three = ("Ann", "Ben", "Cy")
    wizard = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}
    pitch = {"pitcher": "Ann", "bid": 2}
    for rules, players, entries in (
        (SPADES, four, [spades, spades]),
        (WIZARD, three, [wizard, {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}}]),
        (PITCH, three, [pitch, pitch]),
    ):
        setup = Setup(players, rules.resolve_options({}, len(players)), 0)
        with pytest.raises(RuleError) as caught:
            rules.play(setup, entries)
        error = caught.value
        assert error.hand == 1
        message = Refusal.from_rule(error, rules).message
        assert message == f"{error.message}", message  # the rules' sentence, as it is
        assert message.startswith("⟦") and message.count("1") == 1, message
    # A message that does not name its hand gets the game's whole sentence around it.
    other = RuleError("bid_out_of_range", i18n._("Enter a bid for Ann."), "bids.Ann", hand=2)
    assert Refusal.from_rule(other, WIZARD).message == "⟦Round 2: ⟦Enter a bid for Ann.⟧⟧"


def test_the_check_reads_every_game_folder():
    read = {module.split("/")[0] for module in MODULES}
    assert set(REGISTRY) <= read
    assert {"rules.py", "form.py"} <= {
        m.split("/")[-1] for m in MODULES if m.startswith("oh_hell/")
    }

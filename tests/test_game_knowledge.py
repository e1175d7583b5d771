"""A game describes everything about itself; the shared code asks the game and never names a
game's concept: no shared ``next`` keys of one game, whole sentences for its deals declared by
the game, its reminders and end-of-game lines on the shared view, its CSV bonus names, its
option help on the new-game form, its styles in its own folder."""

from __future__ import annotations

import csv
import inspect
import io
import re
from pathlib import Path

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games import i18n
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Setup
from scorekeeper.games.schema import NextBase
from scorekeeper.games.words import HANDS
from scorekeeper.games.words import ROUNDS
from scorekeeper.games.words import HandWords
from scorekeeper.games.words import sentence_names
from tests.openapi_check import document

ROOT = Path(__file__).resolve().parent.parent
GAMES_FOLDER = ROOT / "scorekeeper" / "games"
#: Words of one game's (or one family's) rules: only a game's own folder may say them.
GAME_CONCEPTS = re.compile(r"no_trump|forbidden_dealer|knock|pitcher|undercut|moon|bags|nil", re.I)
SHARED_ROOTS = ("scorekeeper", "templates", "static")
EXTENSIONS = {".py", ".html", ".js", ".css"}


def game_packages() -> set[str]:
    """The folders of scorekeeper/games/ that are a game or a family of games (a package)."""
    return {path.parent.name for path in GAMES_FOLDER.glob("*/__init__.py")}


def in_a_game_folder(relative: str, packages: set[str]) -> bool:
    parts = relative.split("/")
    return parts[:2] == ["scorekeeper", "games"] and len(parts) > 3 and parts[2] in packages


def game_concepts_outside_the_game_folders() -> list[str]:
    packages = game_packages()
    found = []
    for root in SHARED_ROOTS:
        for path in sorted((ROOT / root).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in EXTENSIONS or not path.is_file():
                continue
            if in_a_game_folder(relative, packages):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if GAME_CONCEPTS.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    return found


def test_no_game_concept_is_named_outside_the_game_folders():
    assert game_concepts_outside_the_game_folders() == []


def test_the_check_knows_a_game_folder_from_shared_code():
    packages = game_packages()
    assert {"oh_hell", "pitch", "oklahoma_gin"} <= packages
    assert in_a_game_folder("scorekeeper/games/pitch/static/game.css", packages)
    assert in_a_game_folder("scorekeeper/games/oh_hell/templates/_upcoming.html", packages)
    assert not in_a_game_folder("scorekeeper/games/schema.py", packages)
    assert not in_a_game_folder("scorekeeper/games/__pycache__/x.py", packages)
    assert not in_a_game_folder("templates/share/_now.html", packages)
    assert GAME_CONCEPTS.search("{% if upcoming.no_trump %}") and GAME_CONCEPTS.search("Knock")


def test_no_shared_code_picks_a_games_words_by_its_english():
    compared = re.compile(r"""hand_word\s*[!=]=|[!=]=\s*['"](Hand|Round)['"]""")
    found = []
    for root in ("scorekeeper", "templates"):
        for path in (ROOT / root).rglob("*"):
            if path.suffix in (".py", ".html") and compared.search(path.read_text()):
                found.append(path.relative_to(ROOT).as_posix())
    assert found == []


# next: what every game says, and what each game adds ------------------------------------


def a_new_game(rules: GameRules):
    players = tuple("ABCDEFG"[: max(rules.min_players, 4 if rules.plays_in_teams else 0)])
    options = rules.defaults(len(players))
    for spec in rules.option_specs(len(players)):
        if spec.kind == "text" and spec.default is None:
            options[spec.key] = "Yahtzee"  # a required name (a score pad's game)
    setup = Setup(players, rules.resolve_options(options, len(players)), 0)
    return rules.play(setup, [])


def test_every_game_shares_only_the_number_the_dealer_the_order_and_who_is_dealt_in():
    assert set(NextBase.model_fields) == {"number", "dealer", "order", "players"}


@pytest.mark.parametrize("key", GAMES.keys())
def test_next_holds_exactly_the_games_own_keys(key):
    plugin = GAMES[key]
    state = a_new_game(plugin.rules)
    fields = plugin.schema.Next.model_fields
    required = {name for name, field in fields.items() if field.is_required()}
    assert required <= set(state.next) <= set(fields)
    plugin.schema.Next.model_validate(state.next)  # closed: a key of another game is refused


def test_each_reminder_is_declared_by_the_games_that_have_it():
    owners = {
        field: {key for key in GAMES if field in GAMES[key].schema.Next.model_fields}
        for field in ("cards", "no_trump", "forbidden_dealer_bid", "knock_limit")
    }
    assert owners == {
        "cards": {"oh_hell", "wizard", "spades"},
        "no_trump": {"oh_hell", "wizard"},
        "forbidden_dealer_bid": {"oh_hell", "wizard"},
        "knock_limit": {"oklahoma_gin"},
    }


def test_the_api_document_gives_each_game_its_own_next(app):
    schemas = document(app)["components"]["schemas"]
    nexts = {name: schema for name, schema in schemas.items() if name.endswith("Next")}
    assert len(nexts) == len(GAMES)
    for name, schema in nexts.items():
        properties = set(schema["properties"])
        assert {"number", "dealer", "order"} <= properties, name
        assert ("no_trump" in properties) == (name in ("OhHellNext", "WizardNext")), name
        assert ("knock_limit" in properties) == (name == "OklahomaGinNext"), name
        assert schema.get("additionalProperties") is False, name


# The words of a game's deals -------------------------------------------------------------


def every_sentence(words: HandWords) -> list[str]:
    said = {
        "number": 3,
        "total": 7,
        "count": 2,
        "game": "G",
        "players": "P",
        "finals": "F",
        "last": 4,
        "average": "2.5",
        "problem": "X",
        "name": "N",
    }
    sentences = []
    for name in sentence_names():
        method = getattr(words, name)
        wanted = inspect.signature(method).parameters
        sentences.append(method(**{key: said[key] for key in wanted}))
    return sentences


def test_a_game_of_rounds_never_says_hand_and_one_of_hands_never_says_round():
    rounds = every_sentence(ROUNDS)
    hands = every_sentence(HANDS)
    assert len(rounds) == len(hands) == len(sentence_names()) >= 30
    assert not [sentence for sentence in rounds if re.search(r"\bhands?\b", sentence, re.I)]
    assert not [sentence for sentence in hands if re.search(r"\brounds?\b", sentence, re.I)]
    assert all(re.search(r"\brounds?\b", sentence, re.I) for sentence in rounds)
    assert all(re.search(r"\bhands?\b", sentence, re.I) for sentence in hands)
    assert ROUNDS.average(average="2.5") == "2.5 a round"
    assert HANDS.title_of(number=3, total=7) == "Hand 3 of 7"


@pytest.fixture
def bracketed():
    saved = (i18n._gettext, i18n._ngettext, i18n._pgettext)
    i18n.use(lambda message: f"⟦{message}⟧", lambda one, many, n: f"⟦{one if n == 1 else many}⟧")
    yield
    i18n._gettext, i18n._ngettext, i18n._pgettext = saved


def test_every_sentence_about_a_deal_is_translated(bracketed):
    for words in (HANDS, ROUNDS):
        for sentence in every_sentence(words):
            assert sentence.startswith("⟦") and sentence.endswith("⟧"), sentence


@pytest.mark.parametrize("key", GAMES.keys())
def test_each_game_declares_its_sentences(key):
    rules = GAMES[key].rules
    assert isinstance(rules.hand_words, HandWords)
    assert rules.phrase("undo", number=2) == rules.hand_words.undo(number=2)
    assert rules.hand_word == rules.hand_words.word()
    with pytest.raises(KeyError):
        rules.phrase("__init__")
    with pytest.raises(KeyError):
        rules.phrase("no such sentence")


def test_a_game_that_names_its_word_the_old_way_is_told_how_to_declare_it():
    with pytest.raises(TypeError, match="hand_words"):
        type("Old", (GameRules,), {"hand_word": "Round"})
    with pytest.raises(TypeError, match="_upcoming.html"):
        type("Older", (GameRules,), {"first_to_act": "rolls"})


def test_a_game_its_rules_will_not_close_is_refused_in_its_own_words(api, monkeypatch):
    from scorekeeper.games.base import RuleError

    state = api.post(
        "/games", {"game": "score_pad", "players": ["Ann", "Ben"], "options": {"name": "Skat"}}
    ).get_json()
    api.post(f"/games/{state['id']}/hands", {"number": 1, "points": {"Ann": 3, "Ben": 1}})

    def refuse(setup, state):
        raise RuleError("round_invalid", "That round cannot stand.", hand=1)

    monkeypatch.setattr(GAMES["score_pad"].rules, "close", refuse)
    refused = api.post(f"/games/{state['id']}/close")
    assert refused.status_code == 422, refused.text
    assert refused.get_json()["errors"][0]["message"] == "Round 1: That round cannot stand."


# The end-of-game lines ---------------------------------------------------------------------


def test_the_game_names_its_end_of_game_lines(bracketed):
    gin = GAMES["oklahoma_gin"].rules
    for kind in ("game", "box", "shutout"):
        assert gin.bonus_word(kind).startswith("⟦"), kind
        line = {"player": "Ann", "kind": kind, "points": 20}
        said = gin.bonus_phrase(line)
        assert said.startswith("⟦") and "Ann" in said and "20" in said, said
        assert f"⟦{kind}⟧" not in said
    plain = GAMES["hearts"].rules
    assert plain.bonus_word("extra") == "extra"


def test_the_shared_view_and_the_csv_say_the_games_bonus_words(app, api):
    options = {"target": 50, "game_bonus": 100, "box_bonus": 20, "shutout_double": True}
    state = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "options": options}
    ).get_json()
    entry = {"upcard": "K", "result": "gin", "knocker": "Ann", "opponent_deadwood": 30}
    answer = api.post(f"/games/{state['id']}/hands", {"number": 1, **entry})
    assert answer.status_code == 201 and answer.get_json()["next"] is None
    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    shared = app.test_client().get(url.removeprefix("http://localhost")).text
    assert "Ann: game bonus 100" in shared and "Ann: box bonus 20" in shared
    assert "Ann: shutout bonus 175" in shared
    rows = list(csv.reader(io.StringIO(api.get(f"/games/{state['id']}.csv").text.lstrip("\ufeff"))))
    assert [row[0] for row in rows[2:5]] == ["Game bonus", "Box bonus", "Shutout (doubled)"]


# The shared view's reminders of the hand to play next -------------------------------------


def shared_facts(app, api, game: str, players: list[str], **options) -> str:
    state = api.post("/games", {"game": game, "players": players, "options": options})
    assert state.status_code == 201, state.text
    url = api.post(f"/games/{state.get_json()['id']}/share").get_json()["url"]
    page = app.test_client().get(url.removeprefix("http://localhost")).text
    return re.search(r'<ul class="facts big-facts">(.*?)</ul>', page, re.S)[1]


FOUR = ["Ann", "Ben", "Cy", "Dee"]


def test_the_shared_view_says_what_each_game_reminds_of(app, api):
    oh_hell = shared_facts(app, api, "oh_hell", FOUR, sequence="down")
    assert "<li><strong>13</strong> cards</li>" in oh_hell
    assert "<li><strong>Ben</strong> bids first</li>" in oh_hell  # a name in bold, not "&lt;"
    assert "<li><strong>No trump</strong></li>" in oh_hell
    at_once = shared_facts(app, api, "oh_hell", FOUR, simultaneous=True)
    assert "Bids at once · Ben leads" in at_once and "bids first" not in at_once
    gin = shared_facts(app, api, "oklahoma_gin", FOUR[:2])
    assert "<li><strong>Ben</strong> plays first</li>" in gin and "card" not in gin
    spades = shared_facts(app, api, "spades", FOUR)
    assert "<strong>13</strong> cards" in spades and "No trump" not in spades
    for game, players in (("hearts", FOUR), ("score_pad", FOUR[:3])):
        facts = shared_facts(
            app, api, game, players, **({"name": "Skat"} if game == "score_pad" else {})
        )
        assert "Dealer <strong>Ann</strong>" in facts
        assert "first" not in facts and "card" not in facts, game  # nobody bids in these
    for facts in (oh_hell, gin, spades):
        assert "&lt;" not in facts


def test_each_game_says_which_of_its_forms_completes_a_hand():
    completing = {key: GAMES[key].completing for key in GAMES}
    assert completing == {
        "oh_hell": {"tricks"},
        "wizard": {"tricks"},
        "spades": {"tricks"},
        "pitch": {"points"},
        "oklahoma_gin": set(),
        "hearts": set(),
        "score_pad": set(),
    }


def test_a_second_tap_on_the_pitch_points_changes_nothing(table, app):
    from tests.pages import game_id
    from tests.pages import start_game

    game = game_id(start_game(table, app, "pitch", {"Ann": 1, "Ben": 2, "Cy": 3}))
    auction = {"number": "1", "phase": "auction", "quick": "1", "pitcher": "1", "bid": "2"}
    assert table.post(f"/games/{game}/hands", data=auction).status_code == 302
    points = {"phase": "points", "high": "1", "low": "1", "jack": "1", "game": "1"}
    assert table.post(f"/games/{game}/hands/1", data=points).status_code == 302
    again = table.post(f"/games/{game}/hands/1", data=points, follow_redirects=True)
    assert "Hand 1 is already complete" in again.text


# Option help and styles --------------------------------------------------------------------


def test_the_new_game_form_shows_the_help_the_game_declares_for_it(table):
    page = table.get("/games/new?game=oh_hell").text
    assert "Blank: by player count (3 → 15, 4 → 13, 5 → 10, 6 → 8, 7 → 7)." in page
    assert "may be lowered for a shorter game" not in page  # the help for a known table
    spec = next(s for s in GAMES["oh_hell"].rules.option_specs(4) if s.key == "max_cards")
    assert spec.form_help and spec.help != spec.form_help


def test_a_games_styles_are_in_its_own_stylesheet():
    shared = (ROOT / "static" / "css" / "app.css").read_text()
    for rule in (".pitch-line", ".quick summary", ".trump-pick", ".pill.notrump"):
        assert rule not in shared, rule
    assert ".pitch-line" in (GAMES_FOLDER / "pitch" / "static" / "game.css").read_text()
    for game in ("oh_hell", "wizard"):
        assert ".trump-pick" in (GAMES_FOLDER / game / "static" / "game.css").read_text()

"""Every number the app writes is in the reader's digits (issue 27, item 12): Bengali pages
of every game (its entry page with a hand under way, a correction, the Table panel, the shared
view, the game-over page, the history sheet) and the new-game page, scanned for 0-9 in what a
person reads, the text fields the app fills in among it.

What stays in 0-9: the values of number inputs (the browser's number inputs take 0-9 only),
what the table typed, names as typed, and the card ranks printed on the cards (Oklahoma Gin's
upcard chips and sheet: 2 to 10 beside J, Q, K). In a sentence a rank is a number like any
other ("the upcard ৭")."""

from __future__ import annotations

import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.conftest import signup
from tests.pages import game_id
from tests.pages import start_game
from tests.test_languages_flows import shown_text

THREE = ["Ann", "Ben", "Cy"]
FOUR = ["Ann", "Ben", "Cy", "Dee"]


def bids_and_tricks(bids: dict) -> dict:
    return {"bids": bids, "tricks": dict(bids)}


def wizard(number: int, names: list[str]) -> dict:
    first = names[number % len(names)]
    return bids_and_tricks({name: number if name == first else 0 for name in names})


#: Per game: its players, options, the first part of a hand (left open on the entry page, or
#: None) and each hand to the end of the game (by its number).
GAME_PLAY = {
    "oh_hell": (THREE, {"max_cards": 2, "sequence": "up"}, {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}},
                lambda number: bids_and_tricks({"Ann": number, "Ben": 0, "Cy": 0})),
    "wizard": (THREE, {}, {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}},
               lambda number: wizard(number, THREE)),
    "spades": (FOUR, {"target": 250}, {"bids": {"Ann": 4, "Ben": 2, "Cy": 4, "Dee": 3}},
               lambda number: bids_and_tricks({"Ann": 4, "Ben": 2, "Cy": 4, "Dee": 3})),
    "pitch": (THREE, {"target": 7}, {"pitcher": "Ann", "bid": 3},
              lambda number: {"pitcher": "Ann", "bid": 4, "high": "Ann", "low": "Ann",
                              "jack": "Ann", "game": "Ann"}),
    "oklahoma_gin": (["Ann", "Ben"], {"target": 50}, None,
                     lambda number: {"upcard": "7", "result": "gin", "knocker": "Ann",
                                     "opponent_deadwood": 10 + number}),
    "hearts": (THREE, {"target": 50}, None,
               lambda number: {"points": {"Ann": 13, "Ben": 5, "Cy": 8}}),
    "score_pad": (THREE, {"name": "Golf", "end": "target", "target": 20}, None,
                  lambda number: {"points": {"Ann": 5, "Ben": -3, "Cy": 12}}),
}  # fmt: skip


def hollywood_round(number: int) -> dict:
    """A gin for Ann two rounds in three, for Ben the third: every game opened and closed."""
    knocker = "Ann" if number % 3 else "Ben"
    return {"upcard": "7", "result": "gin", "knocker": knocker, "opponent_deadwood": 10 + number}


#: Hollywood: the three games of Oklahoma Gin at once, the final table and sheet.
HOLLYWOOD = (["Ann", "Ben"], {"target": 50, "hollywood": True}, None, hollywood_round)

#: Card ranks (as printed on the cards) where a page shows them: Gin's upcard chips, and its
#: sheet's upcard.
RANKS = r"(?:10|[2-9])"


def games_options(app, game_id: int) -> dict:
    with app.app_context():
        return db.session.get(Game, game_id).options


def play(app, account_id: int, kind: str, setup, finish: bool) -> int:
    names, options, first_part, hand = setup
    with app.app_context():
        account = db.session.get(Account, account_id)
        result = games.create_game(account, kind, names, options, names[0], None)
        number = result.game.id
        state = result.state
        hands = 0
        while state.next and hands < (200 if finish else 1):
            hands += 1
            state = games.record_hand(games.get_game(account, number), hand(hands)).state
        if finish:
            assert state.finished, kind
        elif first_part is not None:
            games.record_hand(games.get_game(account, number), first_part)
        return number


@pytest.fixture
def bengali(app):
    client = app.test_client()
    client.post("/language", data={"code": "bn", "next": "/signup"})
    assert signup(client).status_code == 302
    with app.app_context():
        account = db.session.scalars(db.select(Account)).one()
    return client, account.id


#: A card rank inside a sentence of the catalog: Pitch's game points count the 10s (the card).
CARD_WORDS = ["(10 = "]


def ascii_numbers(html: str) -> list[str]:
    """The 0-9 numbers a person reads on the page (its placeholders, and the text fields the
    app filled in), each with the words around it."""
    placeholders = " ".join(re.findall(r'placeholder="([^"]*)"', html))
    filled = " ".join(re.findall(r'<input type="text"[^>]*\bvalue="([^"]*)"', html))
    text = f"{shown_text(html)} {placeholders} {filled}"
    for words in CARD_WORDS:
        text = text.replace(words, "")
    for name in FOUR + ["Golf"]:
        text = text.replace(name, "")
    found = []
    for match in re.finditer(r"\S*[0-9]+\S*", text):
        found.append(text[max(0, match.start() - 25) : match.end() + 25])
    return found


def ranks_left_out(html: str) -> str:
    """Gin's upcard chips and the sheet's upcard: card faces, as the cards print them."""
    html = re.sub(
        rf'(<input type="radio" name="upcard" value="{RANKS}"[^>]*>\s*<span>){RANKS}<', r"\1<", html
    )
    return re.sub(rf'(<span class="card-face[^"]*">){RANKS}', r"\1", html)


@pytest.mark.parametrize("kind", sorted(GAME_PLAY) + ["hollywood"])
def test_a_bengali_game_writes_every_number_in_bengali_digits(app, bengali, kind):
    client, account_id = bengali
    setup = HOLLYWOOD if kind == "hollywood" else GAME_PLAY[kind]
    key = "oklahoma_gin" if kind == "hollywood" else kind
    under_way = play(app, account_id, key, setup, finish=False)
    over = play(app, account_id, key, setup, finish=True)
    pages = [f"/games/new?game={key}"]
    for game in (under_way, over):
        pages += [f"/games/{game}", f"/history/games/{game}", f"/games/{game}/hands/1/edit"]
        assert client.post(f"/games/{game}/share").status_code == 302
        pages.append(re.search(r"/view/[\w-]+", client.get(f"/games/{game}/share").text).group(0))
    if GAMES[key].rules.table_changes(games_options(app, under_way)):
        pages.append(f"/games/{under_way}/table/changes?kind=schedule")
    left = {}
    for path in pages:
        page = client.get(path)
        assert page.status_code == 200, path
        assert '<html lang="bn">' in page.text
        numbers = ascii_numbers(ranks_left_out(page.text))
        if numbers:
            left[path] = numbers
    assert not left, "\n".join(f"{path}: {n!r}" for path, numbers in left.items() for n in numbers)


def test_the_hand_sizes_are_typed_as_the_example_says_in_bengali_digits(app, bengali):
    """The new-game page's example is "৭, ৭, ৭": the form takes the sizes so typed; a size it
    refuses is said beside the field, the example in the reader's digits, what was typed kept."""
    client, account_id = bengali
    for name in THREE:
        assert client.post("/players/", data={"name": name}).status_code == 302
    form = client.get("/games/new?game=oh_hell").text
    assert re.search(r'placeholder="[^"]*৭, ৭, ৭"', form)
    seats = {"Ann": 1, "Ben": 2, "Cy": 3}
    ok = start_game(client, app, "oh_hell", seats, sequence="custom", custom_sizes="৩, ২; ১")
    with app.app_context():
        game = db.session.get(Game, game_id(ok))
        assert game.options["custom_sizes"] == [3, 2, 1]
    bad = start_game(client, app, "oh_hell", seats, sequence="custom", custom_sizes="৭, x")
    assert bad.status_code == 422
    assert "৭, ৭, ৭" in bad.text and 'value="৭, x"' in bad.text
    assert "7, 7, 7" not in shown_text(bad.text)


def test_a_number_in_a_template_follows_each_reader_not_the_first(app):
    """A constant through a filter (``{{ 0|num }}``) is written for the request that shows it,
    not worked out once when the template is compiled, in the first reader's language."""
    with app.test_request_context(headers={"Accept-Language": "en"}):
        template = app.jinja_env.from_string("{{ 0|num }} {{ -3|signed }} {{ 12|num }}")
        assert template.render() == "0 −3 12"
    with app.test_request_context(headers={"Accept-Language": "bn"}):
        assert template.render() == "০ −৩ ১২"


def test_the_numbers_the_app_fills_in_are_read_back_in_bengali_digits(app, bengali):
    """The new-game page filled in as the last Oh Hell game (its custom sizes) and the Table
    panel's hands still to play write the numbers in Bengali digits; sent back as they are,
    they start the game and save the hands."""
    client, account_id = bengali
    for name in THREE:
        assert client.post("/players/", data={"name": name}).status_code == 302
    seats = {"Ann": 1, "Ben": 2, "Cy": 3}
    first = start_game(client, app, "oh_hell", seats, sequence="custom", custom_sizes="3, 2, 1")
    game = game_id(first)
    form = client.get("/games/new?game=oh_hell").text
    assert re.search(r'name="opt-custom_sizes" value="৩, ২, ১"', form)
    again = start_game(client, app, "oh_hell", seats, sequence="custom", custom_sizes="৩, ২, ১")
    assert games_options(app, game_id(again))["custom_sizes"] == [3, 2, 1]
    panel = client.get(f"/games/{game}/table/changes?kind=schedule").text
    assert re.findall(r'name="size" [^>]*value="([^"]*)"', panel) == ["৩", "২", "১", ""]
    sent = {"kind": "schedule", "before_hand": "1", "size": ["৩", "২", "১", "৪"]}
    saved = client.post(f"/games/{game}/table/changes", data=sent)
    assert saved.status_code == 302, saved.text
    panel = client.get(f"/games/{game}/table/changes?kind=schedule").text
    assert re.findall(r'name="size" [^>]*value="([^"]*)"', panel) == ["৩", "২", "১", "৪", ""]
    points = {"kind": "adjust", "player": "Ben", "points": "−৫", "before_hand": "1"}
    assert client.post(f"/games/{game}/table/changes", data=points).status_code == 302
    with app.app_context():
        assert db.session.get(Game, game).changes[-1].body["points"] == -5

"""The main flows in Sundanese, Lao and Bengali through the pages, and the API's refusals in
Lao and Bengali: sign up, add players, start every installed game, enter a hand, a refusal,
history and statistics.

What a page should say is looked up in the compiled catalogs (``make translations`` builds
them from the ``.po`` files) with Babel's ``support.Translations``, never written here: the
test checks that the page shows the catalog's words, the names and numbers as typed, and the
totals in the language's digits (Bengali writes ০-৯).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations
from markupsafe import Markup

from scorekeeper.games import GAMES
from tests.conftest import PASSWORD
from tests.conftest import new_token
from tests.conftest import signup
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ["su", "lo", "bn"]

#: The digits each language writes numbers with (CLDR: Bengali has its own, Lao and
#: Sundanese write 0-9).
DIGITS = {"bn": "০১২৩৪৫৬৭৮৯"}
BENGALI_DIGITS = set(DIGITS["bn"])

#: Names as a table of each language types them (its script and a number kept as typed).
OWN_NAMES = {"su": "Asép 2", "lo": "ສົມໃຈ 2", "bn": "রহিম 2"}
PLAYERS = ("Ann", "Ben", "Cy", "Dee")


# What the catalog says ------------------------------------------------------------------


def catalog(language: str) -> Translations:
    translations = Translations.load(str(TRANSLATIONS), [language])
    assert isinstance(translations, Translations), f"no compiled catalog for {language}"
    return translations


def written(language: str, value) -> str:
    """A number as the language writes it (a real minus sign)."""
    text = str(value).replace("-", "−")
    digits = DIGITS.get(language)
    return text.translate(str.maketrans("0123456789", digits)) if digits else text


def fill(language: str, text: str, params: dict) -> str:
    shown = {
        key: written(language, value) if isinstance(value, int) else value
        for key, value in params.items()
    }
    return text % shown if params else text


def said(language: str, message: str, *, context: str | None = None, **params) -> str:
    """``message`` (in its ``context``, if it has one) as the catalog of ``language`` says
    it, filled in. The compiled catalog holds translated messages only, so the message must be
    in it (a game's name may be the same word in the language: it is still a translation)."""
    translations = catalog(language)
    key = f"{context}\x04{message}" if context else message
    assert key in translations._catalog, f"{message!r} is not translated into {language}"
    text = translations.upgettext(context, message) if context else translations.ugettext(message)
    return fill(language, text, params)


def title_in(language: str, key: str) -> str:
    """The title of the game ``key`` as the catalog of ``language`` says it (in its context)."""
    title = GAMES[key].title
    return said(language, title.message, context=getattr(title, "context", None))


def said_plural(language: str, one: str, many: str, count: int, **params) -> str:
    translations = catalog(language)
    assert (one, 0) in translations._catalog, f"{one!r} is not translated into {language}"
    return fill(language, translations.ungettext(one, many, count), {"num": count, **params})


@functools.cache
def untranslated(language: str) -> tuple[str, ...]:
    """The catalog's sentences still without a translation (placeholders and one-word
    messages aside: those cannot be told apart from names and numbers on a page)."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        po = read_po(handle)
    return tuple(
        message.id
        for message in po
        if isinstance(message.id, str)
        and not message.string
        and "%(" not in message.id
        and " " in message.id.strip()
    )


def english_left(text: str, language: str) -> list[str]:
    return [message for message in untranslated(language) if message in text]


# Reading a page -------------------------------------------------------------------------


def shown_text(html: str) -> str:
    """The page's text as a person reads it (tags, scripts and styles out, entities read)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return Markup(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).unescape()


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def totals(html: str) -> dict[str, str]:
    return {
        Markup(name).unescape(): Markup(value).unescape().strip()
        for name, value in re.findall(r'data-total="([^"]+)">([^<]+)<', html)
    }


def assert_page(response, language: str, *texts: str, status: int = 200, whole=True) -> str:
    """The page answered in ``language`` and shows each of ``texts`` (and, if ``whole``, no
    sentence of the catalog left in English); its text is returned."""
    assert response.status_code == status, response.text[:2000]
    assert html_lang(response.text) == language
    text = shown_text(response.text)
    for expected in texts:
        assert expected in text, f"{expected!r} not on {response.request.path}"
    if whole:
        left = english_left(text, language)
        assert not left, f"English left on {response.request.path}: {left}"
    return text


# The table ------------------------------------------------------------------------------


@pytest.fixture(params=LANGUAGES)
def language(request) -> str:
    return request.param


@pytest.fixture
def table(app, language):
    """A browser that chose ``language`` on the switch, signed up and added the players."""
    client = app.test_client()
    client.post("/language", data={"code": language, "next": "/signup"})
    page = client.get("/signup")
    assert_page(page, language, said(language, "Sign up"))
    assert signup(client).status_code == 302
    for name in (*PLAYERS, OWN_NAMES[language]):
        assert client.post("/players/", data={"name": name}).status_code == 302
    return client


def seats_for(key: str, language: str) -> dict[str, int]:
    rules = GAMES[key].rules
    count = min(max(rules.min_players, 3), rules.max_players)
    names = ("Ann", OWN_NAMES[language], "Cy", "Dee")[:count]
    return {name: seat for seat, name in enumerate(names, start=1)}


def new_game(client, app, key: str, language: str) -> int:
    options = {"name": "Catan 7"} if key == "score_pad" else {}
    return game_id(start_game(client, app, key, seats_for(key, language), **options))


# One hand of each game, as its page's form posts it -------------------------------------
# Each gives the form and the totals it makes, by seat (the first seat is Ann).


def oh_hell_hand(client, game):
    bids = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert client.post(f"/games/{game}/hands", data=bids).status_code == 302
    tricks = {"phase": "tricks", "trick-0": "1", "trick-1": "0", "trick-2": "0"}
    # Ann bid 1 and took it (10 + 1), the others bid 0 and took none (10).
    return client.post(f"/games/{game}/hands/1", data=tricks), [11, 10, 10]


def pitch_hand(client, game):
    # The second seat leads, the third bids 2 and Ann, the dealer, steals at 2.
    auction = {"phase": "auction", "number": "1", "order": "1,2,0"}
    auction.update({"call-1": "pass", "call-2": "2", "call-0": "2"})
    assert client.post(f"/games/{game}/hands", data=auction).status_code == 302
    won = {"phase": "points", "pitcher_seat": "0", "high": "0", "low": "1"}
    won.update({"jack": "none", "game": "0"})
    return client.post(f"/games/{game}/hands/1", data=won), [2, 1, 0]


def oklahoma_gin_hand(client, game):
    knock = {"phase": "round", "number": "1", "upcard": "7", "result": "knock"}
    knock.update({"knocker": "0", "knocker_deadwood": "3", "opponent_deadwood": "20"})
    return client.post(f"/games/{game}/hands", data=knock), [17, 0]


def hearts_hand(client, game):
    points = {"phase": "points", "number": "1", "point-0": "13", "point-1": "5", "point-2": "8"}
    return client.post(f"/games/{game}/hands", data=points), [13, 5, 8]


def score_pad_hand(client, game):
    points = {"phase": "points", "number": "1", "point-0": "5", "point-1": "-3", "point-2": "12"}
    return client.post(f"/games/{game}/hands", data=points), [5, -3, 12]


#: The label of the button that saves the first step of each game's first hand.
SAVE_LABELS = {
    "oh_hell": ("Save bids", {}),
    "pitch": ("Save the auction", {}),
    "oklahoma_gin": ("Save round %(number)s", {"number": 1}),
    "hearts": ("Save hand %(number)s", {"number": 1}),
    "score_pad": ("Save round %(number)s", {"number": 1}),
}

HANDS = {
    "oh_hell": oh_hell_hand,
    "pitch": pitch_hand,
    "oklahoma_gin": oklahoma_gin_hand,
    "hearts": hearts_hand,
    "score_pad": score_pad_hand,
}


# The pages ------------------------------------------------------------------------------


def test_sign_up_and_add_players(app, language):
    client = app.test_client()
    client.post("/language", data={"code": language, "next": "/signup"})
    assert_page(client.get("/signup"), language, said(language, "Sign up"))
    short = client.post(
        "/signup", data={"username": "friday-club", "password": "short", "confirm": "short"}
    )
    assert short.status_code == 422
    assert 'value="friday-club"' in short.text  # what was typed is kept
    assert html_lang(short.text) == language
    assert signup(client).status_code == 302
    roster = client.get("/players/")
    assert_page(roster, language, said(language, "Add player"))
    name = OWN_NAMES[language]
    added = client.post("/players/", data={"name": name}, follow_redirects=True)
    text = assert_page(added, language, name)
    # The name's digit stays as typed: a name is not a number (no ২ for 2 in Bengali).
    assert name.replace("2", written(language, 2)) not in text or language != "bn"
    # A name taken already is refused in the language, the typed name kept.
    taken = client.post("/players/", data={"name": name.upper()})
    expected = said(language, "There is already a player called %(name)s.", name=name)
    assert_page(taken, language, expected, status=422)
    assert f'value="{Markup.escape(name.upper())}"' in taken.text


@pytest.mark.parametrize("key", sorted(GAMES))
def test_start_each_game_and_enter_a_hand(app, table, language, key):
    chooser = table.get("/games/new")
    assert_page(chooser, language, *(title_in(language, k) for k in GAMES))
    form = table.get(f"/games/new?game={key}")
    assert_page(form, language, title_in(language, key))
    game = new_game(table, app, key, language)
    seats = seats_for(key, language)
    page = table.get(f"/games/{game}")
    title = title_in(language, key)
    text = assert_page(page, language, title, *seats, whole=False)
    pending = english_left(text, language)
    if key in SAVE_LABELS:
        label, params = SAVE_LABELS[key]
        if label in catalog(language)._catalog:
            assert said(language, label, **params) in text
        else:
            pending.append(label)
    if key not in HANDS:
        return  # a game added after this test: started and shown, its hand not known here
    saved, expected = HANDS[key](table, game)
    assert saved.status_code == 302, saved.text[:2000]
    page = table.get(f"/games/{game}")
    assert_page(page, language, *seats, whole=False)
    shown = totals(page.text)
    for name, total in zip(seats, expected, strict=False):
        assert shown[name] == written(language, total), (name, shown)
    if language == "bn":
        assert all(set(value) <= BENGALI_DIGITS | {"−"} for value in shown.values()), shown
    pending += english_left(shown_text(page.text), language)
    if pending:
        # Everything above holds; what is left is the catalog's to translate.
        pytest.xfail(f"not yet translated into {language}: {sorted(set(pending))[:8]}")


def test_an_oh_hell_hand_and_its_refusal(app, table, language):
    game = new_game(table, app, "oh_hell", language)
    seats = list(seats_for("oh_hell", language))
    page = table.get(f"/games/{game}")
    assert_page(page, language, said(language, "Save bids"))
    bids = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert table.post(f"/games/{game}/hands", data=bids).status_code == 302
    page = table.get(f"/games/{game}")
    assert_page(page, language, said(language, "Save tricks"))
    # Tricks adding up to 2 in a hand of 1 card: refused with the catalog's words.
    wrong = {"phase": "tricks", "trick-0": "1", "trick-1": "1", "trick-2": "0"}
    refused = table.post(f"/games/{game}/hands/1", data=wrong)
    problem = said_plural(
        language,
        "Tricks add up to %(taken)s but %(num)s card was dealt.",
        "Tricks add up to %(taken)s but %(num)s cards were dealt.",
        1,
        taken=2,
    )
    message = said(language, "Hand %(number)s: %(problem)s", number=1, problem=problem)
    assert_page(refused, language, message, *seats, status=422)
    # What was typed is kept: each trick as it was tapped.
    assert re.search(r'name="trick-1" value="1"\s*checked', refused.text)
    # Then the right tricks: Ann made her bid of 1.
    right = {**wrong, "trick-1": "0"}
    assert table.post(f"/games/{game}/hands/1", data=right).status_code == 302
    page = table.get(f"/games/{game}")
    assert totals(page.text)["Ann"] == written(language, 11)
    assert totals(page.text)[seats[1]] == written(language, 10)
    if language == "bn":
        assert totals(page.text)["Ann"] == "১১"


def test_history_and_statistics(app, table, language):
    # A game of one 1-card hand: it ends with the hand, so it counts in the statistics.
    seats = seats_for("oh_hell", language)
    started = start_game(table, app, "oh_hell", seats, sequence="custom", custom_sizes="1")
    game = game_id(started)
    bids = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "1", "bid-2": "0"}
    assert table.post(f"/games/{game}/hands", data=bids).status_code == 302
    tricks = {"phase": "tricks", "trick-0": "1", "trick-1": "0", "trick-2": "0"}
    over = table.post(f"/games/{game}/hands/1", data=tricks, follow_redirects=True)
    assert_page(over, language, said(language, "Game over"))
    name = OWN_NAMES[language]
    history = table.get("/nights/")
    assert_page(history, language, said(language, "History"), name)
    sheet = table.get(f"/history/games/{game}")
    text = assert_page(sheet, language, title_in(language, "oh_hell"), "Ann", name)
    # Ann made 1 (11), the second seat missed (0), Cy made 0 (10).
    assert totals(sheet.text) == {"Ann": written(language, 11), name: written(language, 0),
                                  "Cy": written(language, 10)}  # fmt: skip
    stats = table.get("/stats/")
    assert_page(stats, language, said(language, "Statistics"))
    board = table.get("/stats/oh_hell")
    text = assert_page(board, language, title_in(language, "oh_hell"), "Ann", name)
    assert written(language, 11) in text
    ann = roster_ids(app)["Ann"]
    assert_page(table.get(f"/stats/players/{ann}"), language, "Ann")
    if language == "bn":
        assert BENGALI_DIGITS & set(text)
        assert "11" not in text


# The API --------------------------------------------------------------------------------


@pytest.mark.parametrize("api_language", ["lo", "bn"])
def test_an_api_refusal_keeps_its_code_and_field_in_the_reader_s_language(
    app, account, api_language
):
    client = app.test_client()
    token = new_token(client, account.username, PASSWORD)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}
    created = client.post("/api/v1/games", json=body, headers=headers)
    assert created.status_code == 201, created.text
    number = created.get_json()["id"]
    hand = {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 1, "Cy": 0}}
    english = client.post(f"/api/v1/games/{number}/hands", json=hand, headers=headers)
    translated = client.post(
        f"/api/v1/games/{number}/hands",
        json=hand,
        headers={**headers, "Accept-Language": f"{api_language}, en;q=0.5"},
    )
    assert english.status_code == translated.status_code == 422
    before = english.get_json()["errors"][0]
    after = translated.get_json()["errors"][0]
    assert (before["code"], before["field"]) == ("tricks_sum_mismatch", "tricks")
    assert (after["code"], after["field"]) == (before["code"], before["field"])
    assert before["message"] == "Hand 1: Tricks add up to 2 but 1 card was dealt."
    problem = said_plural(
        api_language,
        "Tricks add up to %(taken)s but %(num)s card was dealt.",
        "Tricks add up to %(taken)s but %(num)s cards were dealt.",
        1,
        taken=2,
    )
    expected = said(api_language, "Hand %(number)s: %(problem)s", number=1, problem=problem)
    assert after["message"] == expected
    # Nothing was saved by either refusal.
    state = client.get(f"/api/v1/games/{number}", headers=headers).get_json()
    assert state["hands"] == []


@pytest.mark.parametrize("api_language", ["lo", "bn"])
def test_an_api_bid_refusal_names_the_player_as_typed(app, account, api_language):
    client = app.test_client()
    headers = {
        "Authorization": f"Bearer {new_token(client, account.username, PASSWORD)}",
        "Accept-Language": api_language,
    }
    name = OWN_NAMES[api_language]
    body = {"game": "oh_hell", "players": ["Ann", name, "Cy"]}
    number = client.post("/api/v1/games", json=body, headers=headers).get_json()["id"]
    hand = {"bids": {"Ann": 0, name: 2, "Cy": 0}}
    refused = client.post(f"/api/v1/games/{number}/hands", json=hand, headers=headers)
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("bid_out_of_range", f"bids.{name}")
    # The whole sentence is the catalog's, the name inside it as typed.
    problem = said(api_language, "%(name)s's bid must be from %(low)s to %(high)s.",
                   name=name, low=0, high=1)  # fmt: skip
    expected = said(api_language, "Hand %(number)s: %(problem)s", number=1, problem=problem)
    assert error["message"] == expected
    assert name in error["message"]


@pytest.mark.parametrize("language", ["bn"])
def test_a_bengali_game_page_writes_every_number_in_bengali_digits(app, table, language):
    """Numbers the app writes (hands, cards, totals, the rules' summary) are in ০-৯; only
    what the table typed (a name's 2) keeps its digits."""
    game = new_game(table, app, "oh_hell", language)
    oh_hell_hand(table, game)
    found = {}
    for path in (f"/games/{game}", f"/history/games/{game}", "/stats/", "/games/new?game=oh_hell"):
        text = shown_text(table.get(path).text).replace(OWN_NAMES[language], "")
        pattern = r"(\S+ )?(?<![\w.])([0-9]+)(?![\w.])( ?\S+)?"
        for before, digits, after in re.findall(pattern, text):
            found.setdefault((before + digits, digits + after), path)
    # No digit is left in 0-9: the example of what to type ("৭, ৭, ৭") too is in the
    # reader's digits (the form takes them as typed).
    assert not found, found

"""Every word a person sees is translatable, the catalogs are complete, the API's messages
follow Accept-Language, and Bengali pages write Bengali digits and month names.

The unmarked-text detector extracts the messages from the sources (as ``make messages`` does),
compiles a pseudo catalog for English in which every message is wrapped in ⟦…⟧, renders the
main pages with it and fails on any visible text outside the markers (names, numbers, dates and
the language switch aside). A game folder not yet marked is listed in ``NOT_YET_MARKED``: its
pages are expected to fail (xfail) until it is marked, then the key leaves the set.
"""

from __future__ import annotations

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.dates import get_day_names
from babel.dates import get_month_names
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper.games import GAMES
from scorekeeper.i18n import LANGUAGES
from tests.conftest import PASSWORD
from tests.conftest import login
from tests.conftest import make_account
from tests.conftest import new_token
from tests.pages import game_id
from tests.pages import start_game

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"

#: Game folders whose words are not marked yet (their pages are expected to fail). The lead
#: empties this set as each folder is marked.
NOT_YET_MARKED: set[str] = set()

OPEN, CLOSE = "⟦", "⟧"
PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve")
USERNAME = "friday-club"


# The pseudo catalog ----------------------------------------------------------------------


def extraction_keywords() -> list[str]:
    """The ``-k`` keywords of the Makefile's ``messages`` target (``make messages``)."""
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\nmessages:") :]
    command = target[: target.index("--no-location")].replace("\\\n", " ")
    return re.findall(r"-k (\S+)", command)


def extracted(pot: Path):
    """The catalog template of the sources, extracted as ``make messages`` does."""
    keywords = [part for keyword in extraction_keywords() for part in ("-k", keyword)]
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), *keywords,
         "--no-location", "-o", str(pot), str(ROOT)]
    )  # fmt: skip
    with pot.open("rb") as handle:
        return read_po(handle)


@pytest.fixture(scope="module")
def pseudo_translations(tmp_path_factory) -> Path:
    """A translations folder whose English catalog wraps every message in ⟦…⟧."""
    folder = tmp_path_factory.mktemp("pseudo")
    pot = folder / "messages.pot"
    template = extracted(pot)
    catalog = Catalog(locale="en")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            string = tuple(OPEN + form + CLOSE for form in message.id)
        else:
            string = OPEN + message.id + CLOSE
        catalog.add(message.id, string, flags=message.flags, context=message.context)
    target = folder / "en" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)
    return folder


@pytest.fixture
def pseudo_app(make_app, pseudo_translations):
    return make_app(BABEL_TRANSLATION_DIRECTORIES=str(pseudo_translations))


# Reading what a page shows ---------------------------------------------------------------

#: Attributes whose text a person sees or hears.
SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label", "data-confirm")


class Visible(HTMLParser):
    """The text of a page outside script and style (markers may span elements), and the
    shown attributes (each on its own)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.attributes: list[str] = []
        self.hidden = 0
        self.in_switch = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self.hidden += 1
        if tag == "form" and "languages" in (attrs.get("class") or ""):
            self.in_switch += 1
        for name in SHOWN_ATTRIBUTES:
            if attrs.get(name):
                self.attributes.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.attributes.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1
        if tag == "form" and self.in_switch:
            self.in_switch -= 1

    def handle_data(self, data):
        if not self.hidden and not self.in_switch:
            self.text.append(data)


def outside_markers(text: str) -> str:
    """What of ``text`` lies outside every ⟦…⟧ (markers nest)."""
    depth, kept = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(char)
        else:
            kept.append(" ")
    return "".join(kept)


def allowed_words(extra=()) -> set[str]:
    """Words a page may show untranslated: what the test typed, dates, other games' titles."""
    words = {*PLAYERS, *USERNAME.split("-"), *extra}
    for form in ("wide", "abbreviated"):
        words |= set(get_month_names(form, locale="en_GB").values())
        words |= set(get_day_names(form, locale="en_GB").values())
    for key in NOT_YET_MARKED & set(GAMES):
        words |= set(re.findall(r"[^\W\d_]+", str(GAMES[key].title)))
    return words


def unmarked(html: str, extra=()) -> list[str]:
    """Every piece of shown text with letters outside the markers."""
    page = Visible()
    page.feed(html)
    allowed = allowed_words(extra)
    found = []
    for piece in [outside_markers("\n".join(page.text)), *map(outside_markers, page.attributes)]:
        for chunk in re.split(r"\s{2,}|\n", piece):
            words = [w for w in re.findall(r"[^\W\d_]{2,}", chunk) if w not in allowed]
            if words:
                found.append(chunk.strip())
    return found


def assert_marked(response, status=200, extra=()):
    assert response.status_code == status, response.text[:2000]
    found = unmarked(response.text, extra)
    assert not found, f"unmarked text on {response.request.path}: {found}"


# The pages ------------------------------------------------------------------------------


def roster_id(app, name: str) -> int:
    from tests.pages import roster_ids

    return roster_ids(app)[name]


def logged_in_client(app):
    make_account(app, USERNAME)
    client = app.test_client()
    assert login(client, USERNAME, PASSWORD).status_code == 302
    for name in PLAYERS[:4]:
        assert client.post("/players/", data={"name": name}).status_code == 302
    return client


def oh_hell_with_hands(client, app) -> int:
    """An Oh Hell game with one scored hand and the second hand's bids in."""
    number = game_id(start_game(client, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    page = f"/games/{number}"
    bids = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert client.post(f"{page}/hands", data=bids).status_code == 302
    tricks = {"phase": "tricks", "trick-0": "1", "trick-1": "0", "trick-2": "0"}
    assert client.post(f"{page}/hands/1", data=tricks).status_code == 302
    bids = {"phase": "bids", "number": "2", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert client.post(f"{page}/hands", data=bids).status_code == 302
    return number


def test_the_logged_out_pages_are_marked(pseudo_app):
    client = pseudo_app.test_client()
    assert_marked(client.get("/login"))
    assert_marked(client.get("/signup"))
    refused = client.post("/signup", data={"username": "x", "password": "short", "confirm": "y"})
    assert_marked(refused, 422)
    assert_marked(client.get("/no-such-page"), 404)
    assert_marked(client.get("/players/", follow_redirects=True))  # "Log in to keep score."
    wrong = client.post("/login", data={"username": USERNAME, "password": "wrong password"})
    assert_marked(wrong, wrong.status_code)


def test_the_main_pages_are_marked(pseudo_app):
    client = logged_in_client(pseudo_app)
    number = oh_hell_with_hands(client, pseudo_app)
    night = client.post("/nights/new", data={"date": "2024-05-17", "name": "Cards", "place": "Hut"})
    assert night.status_code == 302
    night_page = night.headers["Location"]
    extra = ("Cards", "Hut")
    for path in (
        "/",
        "/players/",
        "/games/",
        "/games/new",
        f"/games/{number}",
        f"/games/{number}/hands/1/edit",
        f"/games/{number}/table",
        f"/games/{number}/hands/2/undo",
        f"/games/{number}/delete",
        f"/games/{number}/share",
        f"/history/games/{number}",
        "/nights/",
        "/nights/new",
        night_page,
        f"{night_page}/edit",
        "/stats/",
        "/stats/oh_hell",
        "/backup",
        "/games/999999",
    ):
        response = client.get(path)
        assert_marked(response, response.status_code, extra)
    # Refusals and flash messages of the roster, the new-game form, nights and hands.
    assert_marked(client.post("/players/", data={"name": "ann"}), 422)
    assert_marked(client.post("/players/", data={"name": "Eve"}, follow_redirects=True))
    one_seat = {"game": "oh_hell", f"seat-{roster_id(pseudo_app, 'Ann')}": "1"}
    assert_marked(client.post("/games/new?game=oh_hell", data=one_seat), 422)
    assert_marked(client.post("/nights/new", data={"date": "2024-13-45"}), 422)
    undone = client.post(f"/games/{number}/hands/2/undo", follow_redirects=True)
    assert_marked(undone, 200, extra)
    with pseudo_app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.models import Player

        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
    assert_marked(client.get(f"/stats/players/{ann.id}"))


def test_a_refusal_and_the_shared_view_are_marked(pseudo_app):
    client = logged_in_client(pseudo_app)
    number = oh_hell_with_hands(client, pseudo_app)
    # Tricks that do not add up to the cards: refused, with the rules' message.
    refused = client.post(
        f"/games/{number}/hands/2", data={"phase": "tricks", "trick-0": "2", "trick-1": "2"}
    )
    assert_marked(refused, 422)
    assert client.post(f"/games/{number}/share").status_code == 302
    manage = client.get(f"/games/{number}/share").text
    link = re.search(r'class="share-url"><a href="http://localhost([^"]+)"', manage).group(1)
    assert_marked(pseudo_app.test_client().get(link))


def test_a_finished_game_is_marked(pseudo_app):
    client = logged_in_client(pseudo_app)
    seats = {"Ann": 1, "Ben": 2, "Cy": 3}
    options = {"sequence": "custom", "custom_sizes": "1", "hook": True}
    number = game_id(start_game(client, pseudo_app, "oh_hell", seats, **options))
    page = f"/games/{number}"
    # Ann deals and bids last: her 0 would make the bids total the 1 card (the hook).
    bids = {"phase": "bids", "number": "1", "bid-0": "0", "bid-1": "1", "bid-2": "0"}
    assert_marked(client.post(f"{page}/hands", data=bids), 422)
    bids["bid-0"] = "1"
    assert client.post(f"{page}/hands", data=bids).status_code == 302
    tricks = {"phase": "tricks", "trick-0": "1", "trick-1": "0", "trick-2": "0"}
    finished = client.post(f"{page}/hands/1", data=tricks, follow_redirects=True)
    assert_marked(finished)
    assert "⟦Game over⟧" in finished.text
    assert "⟦Play again⟧" in finished.text
    assert_marked(client.get(f"/games/new?game=oh_hell&again={number}"))
    again = client.post(f"{page}/again")
    assert_marked(client.get(again.headers["Location"]))
    assert_marked(
        client.post(f"{again.headers['Location'].split('#')[0]}/again", follow_redirects=True)
    )
    assert_marked(client.post(f"{page}/close", follow_redirects=True))
    assert_marked(client.post(f"{page}/reopen", follow_redirects=True))
    assert_marked(client.get(f"/history/games/{number}"))
    assert_marked(client.get("/stats/oh_hell"))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_each_game_s_pages_are_marked(pseudo_app, key, request):
    if key in NOT_YET_MARKED:
        request.applymarker(pytest.mark.xfail(reason=f"{key}'s folder is not marked yet"))
    client = logged_in_client(pseudo_app)
    assert_marked(client.get(f"/games/new?game={key}"))
    rules = GAMES[key].rules
    seats = {name: seat for seat, name in enumerate(PLAYERS[: max(rules.min_players, 2)], 1)}
    # A game that needs a typed name (the score pad) gets one: typed text, not a word to mark.
    typed = {
        spec.key: "Catan"
        for spec in rules.option_specs(len(seats))
        if spec.kind == "text" and spec.default is None and (spec.minimum or 0) > 0
    }
    number = game_id(start_game(client, pseudo_app, key, seats, **typed))
    assert_marked(client.get(f"/games/{number}"), extra=typed.values())
    assert_marked(client.get(f"/stats/{key}"), extra=typed.values())


@pytest.mark.parametrize(
    ("key", "bids", "tricks", "refused"),
    [
        # Wizard, 3 players, round 1 (1 card): Ben and Cy bid 0, Ann (the dealer) 0 too.
        ("wizard", {0: 0, 1: 0, 2: 0}, {0: 1, 1: 0, 2: 0}, {0: 1, 1: 1, 2: 1}),
        # Spades, 4 players: Ben bids nil; the tricks add up to 13.
        ("spades", {0: 3, 1: 0, 2: 4, 3: 4}, {0: 4, 1: 1, 2: 4, 3: 4}, {0: 4, 1: 4, 2: 4, 3: 4}),
    ],
)
def test_a_bid_game_s_pages_mid_game_are_marked(pseudo_app, key, bids, tricks, refused):
    """Wizard's and Spades' pages once bids and tricks are in: the tricks form, the sheet, a
    correction, the shared view, the history and the refusals."""
    client = logged_in_client(pseudo_app)
    seats = {name: seat for seat, name in enumerate(PLAYERS[: len(bids)], 1)}
    number = game_id(start_game(client, pseudo_app, key, seats))
    page = f"/games/{number}"

    def form(phase, values, **extra):
        return {"phase": phase, **extra, **{f"{phase[:-1]}-{s}": str(v) for s, v in values.items()}}

    typo = client.post(f"{page}/hands", data=form("bids", {0: "x"}, number="1"))
    assert typo.status_code in (400, 422)
    assert_marked(typo, typo.status_code)
    assert client.post(f"{page}/hands", data=form("bids", bids, number="1")).status_code == 302
    tricks_page = client.get(page)
    assert "data-tricks-form" in tricks_page.text
    assert_marked(tricks_page)
    assert_marked(client.post(f"{page}/hands/1", data=form("tricks", refused)), 422)
    assert client.post(f"{page}/hands/1", data=form("tricks", tricks)).status_code == 302
    assert client.post(f"{page}/hands", data=form("bids", bids, number="2")).status_code == 302
    for path in (page, f"{page}/hands/1/edit", f"{page}/table", f"/history/games/{number}"):
        assert_marked(client.get(path))
    assert client.post(f"{page}/share").status_code == 302
    manage = client.get(f"{page}/share").text
    link = re.search(r'class="share-url"><a href="http://localhost([^"]+)"', manage).group(1)
    assert_marked(pseudo_app.test_client().get(link))
    assert_marked(client.get(f"/stats/{key}"))


def test_the_detector_finds_unmarked_text():
    """The detector itself: text outside the markers is found, inside it is not."""
    page = (
        "<p>⟦Save bids⟧ Ann</p><p>⟦New here? <a>⟦Create⟧</a> for you.⟧</p>"
        "<button>Log out</button><script>var never = 'shown';</script>"
        '<input type="text" placeholder="Type here">'
    )
    assert unmarked(page) == ["Log out", "Type here"]


# The catalogs ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["su", "lo", "bn"])
def test_every_message_is_translated(language, pseudo_translations):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    # Every word the sources mark today is in the catalog (`make messages` was run) ...
    with (pseudo_translations / "messages.pot").open("rb") as handle:
        marked = {(message.id, message.context) for message in read_po(handle) if message.id}
    # (a word with a context is its own message: ("suit", "Hearts") is not "Hearts")
    have = {(message.id, message.context) for message in catalog}
    missing = sorted(str(key) for key in marked - have)
    assert not missing, f"{len(missing)} marked words not in the {language} catalog: {missing[:5]}"
    # ... with its placeholders kept (Babel's python-format check).
    problems = [(message.id, errors) for message, errors in catalog.check()]
    assert not problems, problems[:3]
    untranslated = [
        message.id
        for message in catalog
        if message.id
        and (not message.string or (isinstance(message.string, tuple) and not all(message.string)))
    ]
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated in {language}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}"


# A translation may equal its English source only for these (reviewed) messages: proper names
# kept in every language, and the card-table terms a language's glossary keeps as names. A
# message of placeholders and signs only ("%(what)s: %(problem)s") needs no entry.
SAME_AS_ENGLISH = {
    "*": {
        "Scorekeeper",
        "game title|Oh Hell",
        "game title|Auction Pitch",
        "game title|Oklahoma Gin",
        "game title|Wizard",
        "Nomination Whist",
        "Wizard %(suit)s",
        "Hollywood",
    },
    # Hearts and Spades stay names as titles in the Latin-script glossaries (not as suits).
    "lo": {"game title|Hearts", "game title|Spades"},
    # su/GLOSSARY.md: Pitch's four points, the pitcher, smudge and gin stay names; "target" and
    # "total" are the words Sundanese players use.
    "su": {
        "game title|Hearts",
        "game title|Spades",
        "High",
        "Low",
        "Jack",
        "Game",
        "Pitcher",
        "Gin",
        "Smudge",
        "smudge ★",
        "Target",
        "total",
    },
}
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def translated(catalog):
    """Each message of a catalog: itself, its English (its forms) and its translation's."""
    for message in catalog:
        if message.id:
            sources = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            yield message, sources, strings


def left_in_english(catalog, language: str) -> list[str]:
    """The messages of a catalog whose translation is still its English source."""
    reviewed = SAME_AS_ENGLISH["*"] | SAME_AS_ENGLISH.get(language, set())
    left = []
    for message, sources, strings in translated(catalog):
        if not any(string in sources for string in strings):
            continue
        key = f"{message.context}|{sources[0]}" if message.context else sources[0]
        if key in reviewed or not re.search(r"[^\W\d_]", PLACEHOLDER.sub("", sources[0])):
            continue
        left.append(key)
    return left


def test_the_english_leftover_check_finds_one():
    catalog = Catalog(locale="su")
    catalog.add("Hook", "Hook")
    catalog.add("%(num)s bag", "%(num)s bag")
    catalog.add("%(what)s: %(problem)s", "%(what)s: %(problem)s")
    catalog.add("Oh Hell", "Oh Hell", context="game title")
    catalog.add("Gin", "Gin")
    catalog.add("Hearts", "Hearts", context="game title")
    catalog.add("Hearts", "Hearts", context="suit")
    assert sorted(left_in_english(catalog, "su")) == ["%(num)s bag", "Hook", "suit|Hearts"]
    assert sorted(left_in_english(catalog, "bn")) == [
        "%(num)s bag", "Gin", "Hook", "game title|Hearts", "suit|Hearts"
    ]  # fmt: skip


#: One word for a term and one register per language (issue 27, item 14; the glossaries in
#: scorekeeper/translations/<language>/GLOSSARY.md): per language, (the English a message's
#: source holds, or None for every message; what its translation must hold, or None; what it
#: must not hold). Placeholders are left out on both sides.
TERMS = {
    "su": [
        # Everyday polite Sundanese (loma) throughout, not the refined register (lemes).
        (
            None,
            None,
            r"\b(parantos|saatos|ngiring|uih|ngagentos|kapendak|tiasa|kantun|saterasna)\b",
        ),
        (None, None, r"\b([Ll]ebetkeun|[Ss]ebatkeun|meleset|total jalan|ya)\b"),
        # English left over after the review.
        (None, None, r"\b(custom|[Ss]hutout|preset|[Hh]ook|[Nn]il|TOTAL|bags?|knock|draw|pass)\b"),
        (r"(?i)starting total", r"(?i)total awal", None),
        (r"\b(sits? out|sat out)\b", "reureuh", None),
        (r"\bjoins?\b", "milu", None),
        (r"(?i)\bundo\b", "(?i)bolaykeun", None),
    ],
    "lo": [
        (r"separated by", "ຄັ່ນດ້ວຍ", "ຂັ້ນດ້ວຍ"),
        (r"play against", "ແຂ່ງກັບ", "ຫຼິ້ນກັບ"),
        (r"(?i)\bundo\b", "ຍ້ອນຄືນ", "ຍົກເລີກ"),
        (r"(?i)\bnote\b", "ໝາຍເຫດ", None),
    ],
    "bn": [
        (None, None, "পূর্ণসংখ্যা|লেখা হতে হবে"),
        (r"must be text(\.| \()", "টেক্সট হতে হবে", None),
        (r"(?i)\bundo\b", "ফিরিয়ে", "বাতিল"),
        (r"^Resume", None, "আবার শুরু"),
    ],
}


def off_the_glossary(catalog, language: str) -> list[str]:
    """The messages of a catalog whose translation says a term otherwise than its glossary."""
    found = []
    for _message, sources, strings in translated(catalog):
        source = PLACEHOLDER.sub("", sources[0])
        said = [PLACEHOLDER.sub("", string or "") for string in strings]
        if any(
            (wanted and not re.search(wanted, text)) or (unwanted and re.search(unwanted, text))
            for english, wanted, unwanted in TERMS[language]
            if not english or re.search(english, source)
            for text in said
        ):
            found.append(f"{sources[0]} = {strings[0]}")
    return found


@pytest.mark.parametrize("language", ["su", "lo", "bn"])
@pytest.mark.parametrize(
    "check", [left_in_english, off_the_glossary], ids=["left in English", "off the glossary"]
)
def test_each_catalog_is_translated_as_its_glossary_says(language, check):
    """No message left equal to its English source unless reviewed, and each term said one
    way, in one register."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    found = check(catalog, language)
    assert not found, f"{len(found)} {language} messages {check.__name__}: {found[:6]}"


def test_the_glossary_check_finds_a_stray_word():
    catalog = Catalog(locale="su")
    catalog.add("%(name)s joins, starting on %(score)s.", "%(name)s ngiring, mimiti ti %(score)s.")
    catalog.add("Starting total", "Jumlah awal")
    catalog.add("%(preset)s: the options are filled in.", "%(preset)s: pilihan geus dieusian.")
    assert off_the_glossary(catalog, "su") == [
        "%(name)s joins, starting on %(score)s. = %(name)s ngiring, mimiti ti %(score)s.",
        "Starting total = Jumlah awal",
    ]


def test_every_language_has_its_catalog():
    for language in set(LANGUAGES) - {"en"}:
        assert (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").is_file()


# The API in the reader's language -------------------------------------------------------

KNOWN = {"lo": "ປ້ອນຊື່.", "bn": "একটি নাম লিখুন।"}


@pytest.fixture
def known_translations(tmp_path) -> Path:
    """Catalogs with one known translation each: "Enter a name." in Lao and Bengali."""
    for language, text in KNOWN.items():
        catalog = Catalog(locale=language)
        catalog.add("Enter a name.", text)
        target = tmp_path / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        with (target / "messages.mo").open("wb") as handle:
            write_mo(handle, catalog)
    return tmp_path


@pytest.mark.parametrize("language", ["lo", "bn"])
def test_an_api_error_speaks_the_reader_s_language_and_keeps_its_code(
    make_app, known_translations, language
):
    app = make_app(BABEL_TRANSLATION_DIRECTORIES=str(known_translations))
    make_account(app, USERNAME)
    client = app.test_client()
    token = new_token(client, USERNAME)
    headers = {"Authorization": f"Bearer {token}"}
    english = client.post("/api/v1/players", json={"name": "  "}, headers=headers)
    translated = client.post(
        "/api/v1/players",
        json={"name": "  "},
        headers={**headers, "Accept-Language": f"{language}, en;q=0.5"},
    )
    assert english.status_code == translated.status_code == 422
    before, after = english.get_json()["errors"][0], translated.get_json()["errors"][0]
    assert before["message"] == "Enter a name."
    assert after["message"] == KNOWN[language]
    assert (
        (after["code"], after["field"])
        == (before["code"], before["field"])
        == (
            "name_invalid",
            "name",
        )
    )


# Bengali numbers and dates --------------------------------------------------------------

BENGALI_DIGITS = set("০১২৩৪৫৬৭৮৯")


def test_the_helpers_write_bengali_digits_and_month_names(app):
    from scorekeeper.i18n import day
    from scorekeeper.i18n import decimal
    from scorekeeper.i18n import number
    from scorekeeper.i18n import percent

    with app.test_request_context("/", headers={"Accept-Language": "bn"}):
        assert number(1234) == "১২৩৪"
        assert number(-7) == "−৭"
        assert percent(0.5) == "৫০%"
        assert decimal(12.345) == "১২.৩"
        assert day(date(2024, 5, 17)) == "শুক্রবার, ১৭ মে, ২০২৪"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert (number(1234), day(date(2024, 5, 17))) == ("1234", "Friday, 17 May 2024")


def test_a_bengali_page_shows_bengali_digits_and_month(app):
    client = logged_in_client(app)
    number = oh_hell_with_hands(client, app)
    night = client.post("/nights/new", data={"date": "2024-05-17", "name": "Cards"})
    client.post("/language", data={"code": "bn", "next": "/"})
    night_page = client.get(night.headers["Location"]).text
    assert "১৭ মে, ২০২৪" in night_page and "17 May" not in night_page
    game_page = client.get(f"/games/{number}").text
    # Ann bid 1 and took 1 in a 1-card hand: 11 points, her total in Bengali digits.
    assert 'data-total="Ann">১১' in game_page
    assert BENGALI_DIGITS & set(re.sub(r"<[^>]+>", "", game_page))


def test_a_bengali_bid_game_page_writes_bengali_digits_in_its_sheet_and_its_words(app):
    """Spades in Bengali: the sheet's contract/tricks, and the tricks form's sentences for the
    script (data-words, plain text: a team's "&" is not escaped twice)."""
    import html
    import json

    client = logged_in_client(app)
    seats = {name: seat for seat, name in enumerate(PLAYERS[:4], 1)}
    number = game_id(start_game(client, app, "spades", seats))
    page = f"/games/{number}"
    bids = {"phase": "bids", "number": "1", "bid-0": "3", "bid-1": "0", "bid-2": "4", "bid-3": "4"}
    assert client.post(f"{page}/hands", data=bids).status_code == 302
    client.post("/language", data={"code": "bn", "next": "/"})
    playing = client.get(page).text
    found = re.search(r'data-tricks-form[^>]*data-words="([^"]+)"', playing, re.S)
    words = json.loads(html.unescape(found.group(1)))
    assert "{taken}" in words["done"] and "&amp;" not in words["done"]
    assert "১৩" in words["done"]  # "of 13" in Bengali digits
    tricks = {"phase": "tricks", "trick-0": "4", "trick-1": "1", "trick-2": "4", "trick-3": "4"}
    assert client.post(f"{page}/hands/1", data=tricks).status_code == 302
    sheet = client.get(page).text
    assert re.search(r'<span class="bt"[^>]*>৭/৮</span>', sheet)


@pytest.mark.parametrize("language", ["su", "lo", "bn"])
def test_the_main_pages_answer_in_each_language(app, language):
    client = logged_in_client(app)
    number = oh_hell_with_hands(client, app)
    night = client.post("/nights/new", data={"date": "2024-05-17", "name": "Cards"})
    client.post("/language", data={"code": language, "next": "/"})
    for path in (
        "/",
        "/players/",
        "/games/new",
        "/games/new?game=oh_hell",
        f"/games/{number}",
        f"/games/{number}/hands/1/edit",
        f"/history/games/{number}",
        "/nights/",
        night.headers["Location"],
        "/stats/",
        "/stats/oh_hell",
        "/backup",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert f'<html lang="{language}">' in page.text


# The backup's refusals and a game's CSV ---------------------------------------------------


def test_a_game_s_csv_and_a_refused_restore_are_marked(pseudo_app):
    import csv
    import io

    from tests.conftest import Api
    from tests.test_api_history import play_oh_hell

    make_account(pseudo_app, USERNAME)
    api = Api(pseudo_app.test_client(), new_token(pseudo_app.test_client(), USERNAME))
    state = play_oh_hell(api)
    sheet = api.client.get(f"/api/v1/games/{state['id']}.csv", headers=api.headers())
    assert sheet.status_code == 200, sheet.text
    rows = list(csv.reader(io.StringIO(sheet.text.removeprefix("\ufeff"))))
    assert rows[0][0] == "⟦Hand⟧" and rows[-1][:2] == ["⟦Winner⟧", "Ann"]
    cells = [cell for row in rows for cell in row if cell not in PLAYERS]
    found = [cell for cell in cells if re.search(r"[^\W\d_]{2,}", outside_markers(cell))]
    assert not found, f"unmarked CSV cells: {found}"

    document = api.client.get("/api/v1/backup", headers=api.headers()).get_json()
    document["games"][0]["hands"][0]["input"]["tricks"]["Ann"] += 1
    make_account(pseudo_app, "other-table")
    other = Api(pseudo_app.test_client(), new_token(pseudo_app.test_client(), "other-table"))
    for body in (document, {**document, "players": None}):
        refused = other.client.post("/api/v1/restore", json=body, headers=other.headers())
        assert refused.status_code == 422, refused.text
        message = refused.get_json()["errors"][0]["message"]
        assert refused.get_json()["errors"][0]["code"] == "restore_refused"
        assert message.startswith("⟦") and "Nothing was restored" in message
        left = [w for w in re.findall(r"[^\W\d_]{2,}", outside_markers(message))]
        assert not left, f"unmarked words in {message!r}: {left}"

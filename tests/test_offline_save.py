"""A save made on the phone (``portable.save``: the game page's form read by the game's own
reader, checked and played by its rules) is the server's: a 7-player Oh Hell game with the
hook, played hand by hand through the pages and through the phone's call side by side, gives
the same state after every save and the same refusals (code and message) for the same forms,
a hook refusal, a correction and an undo included; and the standings card the phone draws
from the same save (``portable.standings``: order, stars, notes, each total's change) is the
one the server's page draws."""

from __future__ import annotations

import dataclasses
import html
import re

from scorekeeper.extensions import db
from scorekeeper.games import portable
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.pages import game_id
from tests.pages import start_game

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def server_state(app, game: int) -> dict:
    with app.app_context():
        found = db.session.get(Game, game)
        return portable.plain(dataclasses.asdict(games.played(found).state))


class Phone:
    """The phone's side: the record it keeps, saved through ``portable.save``."""

    def __init__(self, options: dict) -> None:
        self.request = {"game": "oh_hell", "players": SEVEN, "options": options, "entries": []}
        self.state: dict = {}

    def save(self, action: str, number: int | None, form: dict) -> dict:
        fields = {key: value for key, value in form.items() if key not in ("phase", "number")}
        answer = portable.save(
            {
                **self.request,
                "action": action,
                "number": number,
                "phase": form.get("phase"),
                "form": fields,
            }
        )
        if "state" in answer:
            self.request["entries"] = answer["entries"]
            self.state = answer["state"]
        return answer


def span(line: str, kind: str) -> str | None:
    found = re.search(rf'<span class="{kind}"[^>]*>(.*?)</span>', line, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else None


def drawn_standings(page: str) -> list[dict]:
    """The game page's standings card (``games/_macros.html``), line by line."""
    card = re.search(r'<ol class="standings"[^>]*id="totals"[^>]*>(.*?)</ol>', page, re.S)
    assert card, "no standings card"
    return [
        {
            "leader": "leader" in classes,
            "who": span(line, "who"),
            "note": span(line, "note"),
            "total": span(line, "total"),
        }
        for classes, line in re.findall(r'<li class="([^"]*)">(.*?)</li>', card.group(1), re.S)
    ]


def phone_standings(lines: list[dict]) -> list[dict]:
    """The card as the phone draws it from ``portable.standings`` (play_offline.js,
    ``drawStandings``), in English digits."""

    def shown(value: int) -> str:
        return str(value).replace("-", "−")

    def change(value: int | None) -> str:
        if value is None:
            return ""
        return f"+{shown(value)}" if value > 0 else shown(value) if value < 0 else "±0"

    def mark(line: dict) -> str:  # a no-break space, as the template's
        return "🏆\xa0" if line["winner"] else "★\xa0" if line["leader"] else ""

    return [
        {
            "leader": line["leader"],
            "who": mark(line) + line["side"],
            "note": line["note"],
            "total": shown(line["total"]) + change(line["change"]),
        }
        for line in lines
    ]


def bid_form(state: dict, number: int, hooked: bool = False) -> dict:
    """Bids for the next hand: everyone 0 but the dealer, who bids the forbidden bid when
    ``hooked`` (a refusal), or a bid the hook allows."""
    coming = state["next"]
    seats = {name: seat for seat, name in enumerate(SEVEN)}
    form = {"phase": "bids", "number": str(number)}
    for name in coming["order"]:
        form[f"bid-{seats[name]}"] = "0"
    forbidden = coming.get("forbidden_dealer_bid")
    dealer_bid = forbidden if hooked else (0 if forbidden != 0 else 1)
    form[f"bid-{seats[coming['dealer']]}"] = str(dealer_bid)
    return form


def trick_form(state: dict) -> dict:
    """The tricks of the open hand: all to the first in order."""
    hand = state["hands"][-1]
    seats = {name: seat for seat, name in enumerate(SEVEN)}
    form = {"phase": "tricks"}
    for name in hand["info"]["order"]:
        form[f"trick-{seats[name]}"] = "0"
    form[f"trick-{seats[hand['info']['order'][0]]}"] = str(hand["info"]["cards"])
    return form


def seven_at_the_table(table, app) -> int:
    """A 7-player Oh Hell game with the hook, started through the pages: its id."""
    for name in SEVEN[4:]:
        table.post("/players/", data={"name": name})
    response = start_game(
        table, app, "oh_hell", {name: i + 1 for i, name in enumerate(SEVEN)}, hook=True
    )
    return game_id(response)


def test_the_phones_saves_are_the_servers(table, app):
    game = seven_at_the_table(table, app)
    phone = Phone(server_state_options(app, game))
    phone.state = server_state(app, game)
    refusals = 0
    orders: set[tuple[str, ...]] = set()  # the standings' orders seen

    def both(action: str, number: int | None, form: dict, url: str) -> None:
        nonlocal refusals
        answer = phone.save(action, number, form)
        page = table.post(url, data=form)
        if "refused" in answer:
            refusals += 1
            assert page.status_code in (400, 409, 422), page.status_code
            for each in answer["refused"]:
                assert html.escape(each["message"], quote=False) in page.text or (
                    each["message"] in html.unescape(page.text)
                )
        else:
            assert page.status_code in (200, 302), page.text
            now = table.get(f"/games/{game}").text
            shown = drawn_standings(now)
            assert phone_standings(answer["standings"]) == shown
            # The game-over page's winner line: the phone's is the server's.
            winner = answer["winner"]
            assert (winner is not None) == ("data-winner" in now)
            assert not winner or f"data-winner>{html.escape(winner, quote=False)}</p>" in now
            orders.add(tuple(line["side"] for line in answer["standings"]))
        assert server_state(app, game) == phone.state

    for number in range(1, 8):
        if number in (2, 5):  # the dealer bids what the hook forbids
            both(
                "record", number, bid_form(phone.state, number, hooked=True), f"/games/{game}/hands"
            )
        both("record", number, bid_form(phone.state, number), f"/games/{game}/hands")
        both("update", number, trick_form(phone.state), f"/games/{game}/hands/{number}")
        if number == 3:  # a correction of hand 2 (bids and tricks), then undo hand 3 and again
            hand = phone.state["hands"][1]
            seats = {name: seat for seat, name in enumerate(SEVEN)}
            form = {"phase": "both"}
            for name in hand["info"]["order"]:
                form[f"bid-{seats[name]}"] = str(hand["input"]["bids"][name])
                form[f"trick-{seats[name]}"] = "0"
            form[f"trick-{seats[hand['info']['order'][-1]]}"] = str(hand["info"]["cards"])
            both("update", 2, form, f"/games/{game}/hands/2")
            both("undo", 3, {}, f"/games/{game}/hands/3/undo")
            both("record", 3, bid_form(phone.state, 3), f"/games/{game}/hands")
            both("update", 3, trick_form(phone.state), f"/games/{game}/hands/3")
    assert refusals == 2
    assert len(orders) > 1  # who leads changed along the way
    assert phone.state["finished"] is True
    assert len(phone.state["hands"]) == 7


def server_state_options(app, game: int) -> dict:
    with app.app_context():
        return dict(db.session.get(Game, game).options)


def test_a_save_made_offline_on_a_game_that_moved_since_is_refused(table, app):
    """A save that names the game's version it was made on (``based_on``: a phone playing
    offline) is applied on that version only: after another save meanwhile it is refused
    with a warning and nothing changes; on the version it names, it is applied."""
    game = seven_at_the_table(table, app)
    with app.app_context():
        version = db.session.get(Game, game).version
    form = bid_form(server_state(app, game), 1)
    before = server_state(app, game)
    moved = table.post(
        f"/games/{game}/hands", data={**form, "based_on": str(version - 1)}, follow_redirects=True
    )
    assert "changed on another phone while this one was offline" in html.unescape(moved.text)
    assert server_state(app, game) == before
    bad = table.post(f"/games/{game}/hands", data={**form, "based_on": "x"}, follow_redirects=True)
    assert "changed on another phone" in html.unescape(bad.text)
    table.post(f"/games/{game}/hands", data={**form, "based_on": str(version)})
    state = server_state(app, game)
    assert len(state["hands"]) == 1
    with app.app_context():
        assert db.session.get(Game, game).version == version + 1
    tricks = {**trick_form(state), "based_on": str(version + 1)}
    table.post(f"/games/{game}/hands/1", data=tricks)
    assert server_state(app, game)["hands"][0]["status"] == "scored"

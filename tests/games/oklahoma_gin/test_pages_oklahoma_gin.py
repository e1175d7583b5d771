"""Oklahoma Gin on the pages (Flask test client): set-up, rounds, refusals, sheet, corrections."""

from __future__ import annotations

import re

import pytest
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Game
from scorekeeper.views.static_files import SHRINK
from tests.pages import game_id
from tests.pages import pack
from tests.pages import roster_ids
from tests.pages import start_game


def start(client, app, seats, dealer=None, **options):
    return start_game(client, app, "oklahoma_gin", seats, dealer, **options)


def new_game(client, app, **options) -> int:
    return game_id(start(client, app, {"Ann": 1, "Ben": 2}, **options))


def round_(client, game: int, number: int | None, **fields):
    """Post a round as the page's form does: the knocker as a seat, numbers as text."""
    data = {"phase": "round", **{key: str(value) for key, value in fields.items()}}
    if number is not None:
        data["number"] = str(number)
    return client.post(f"/games/{game}/hands", data=data)


def knock(client, game, number, seat, mine, theirs, upcard="K", **extra):
    return round_(
        client,
        game,
        number,
        upcard=upcard,
        result="knock",
        knocker=seat,
        knocker_deadwood=mine,
        opponent_deadwood=theirs,
        **extra,
    )


def gin(client, game, number, seat, theirs, upcard="K", **extra):
    return round_(
        client,
        game,
        number,
        upcard=upcard,
        result="gin",
        knocker=seat,
        knocker_deadwood="",
        opponent_deadwood=theirs,
        **extra,
    )


def typed_round(upcard, result, knocker, mine, theirs) -> dict[str, str]:
    """The round form's fields as typed (the knocker is a seat number)."""
    return {
        "upcard": upcard,
        "result": result,
        "knocker": knocker,
        "knocker_deadwood": mine,
        "opponent_deadwood": theirs,
    }


def stored(app, game: int) -> Game:
    with app.app_context():
        found = db.session.get(Game, game, options=[selectinload(Game.seats)])
        db.session.expunge(found)
        return found


def checked(html: str, name: str, value: str) -> bool:
    return bool(re.search(rf'name="{name}" value="{re.escape(value)}"[^>]*\bchecked', html))


def sheet_row(html: str, number: int) -> str:
    match = re.search(rf'<tr class="[^"]*" data-round="{number}"[^>]*>(.*?)</tr>', html, re.S)
    assert match, f"no row for round {number}"
    return re.sub(r"\s+", " ", match.group(1))


def test_the_new_game_form_offers_gin_for_two_players(table):
    choose = table.get("/games/new")
    assert "Oklahoma Gin" in choose.text
    assert "/games/new?game=oklahoma_gin" in choose.text
    form = table.get("/games/new?game=oklahoma_gin")
    assert form.status_code == 200
    assert "New Oklahoma Gin" in form.text
    assert "(2 players)" in form.text
    for label in [
        "Game to",
        "Gin bonus",
        "Undercut bonus",
        "Spades double",
        "Ace needs gin",
        "Game bonus",
        "Box bonus",
        "Shutout doubles",
    ]:
        assert label in form.text


def test_options_seats_and_the_first_dealer_come_from_the_form(table, app):
    response = start(
        table,
        app,
        {"Ben": 1, "Ann": 2},
        dealer="Ann",
        target=150,
        gin_bonus=20,
        undercut_bonus=25,
        spade_double=True,
        game_bonus=100,
        box_bonus=25,
        shutout_double=True,
    )
    game = game_id(response)
    found = stored(app, game)
    assert found.kind == "oklahoma_gin"
    assert found.first_dealer == 1
    assert found.options == {
        "target": 150,
        "gin_bonus": 20,
        "undercut_bonus": 25,
        "spade_double": True,
        "ace_requires_gin": False,
        "game_bonus": 100,
        "box_bonus": 25,
        "shutout_double": True,
        "hollywood": False,
    }
    page = table.get(f"/games/{game}")
    assert page.status_code == 200
    assert "Oklahoma Gin" in page.text
    assert '<h1>Round 1 <span class="sub">to 150</span></h1>' in page.text
    assert '<span class="pill dealer">Ann deals</span>' in page.text
    assert '<span class="pill first">Ben plays first</span>' in page.text
    # The rules card says every option in plain words.
    assert "deadwood + 20. Undercut: 25 + the difference." in page.text
    assert "A spade upcard doubles every score of the round." in page.text
    assert "The winner of the game scores 100 more." in page.text
    assert "every round won scores 25 more" in page.text
    assert "If the loser of the game scored nothing, the winner" in page.text
    # Spades double: the suit chips are there; the knock-limit script and styles are loaded.
    assert 'name="upcard_suit" value="spades"' in page.text
    folder = GAMES["oklahoma_gin"].static_folder
    for extension, mimetype in (("js", "text/javascript"), ("css", "text/css")):
        own = SHRINK[mimetype]((folder / f"game.{extension}").read_text())
        assert own in pack(table, page.text, extension), extension
    assert "data-wake-lock" in page.text


def test_without_a_chosen_dealer_seat_one_deals_and_no_suit_is_asked(table, app):
    game = new_game(table, app)
    page = table.get(f"/games/{game}")
    assert '<span class="pill dealer">Ann deals</span>' in page.text
    assert 'name="upcard_suit"' not in page.text
    for rank in ["A", "2", "9", "10", "J", "Q", "K"]:
        assert f'name="upcard" value="{rank}"' in page.text
    assert 'inputmode="numeric"' in page.text


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        # One more than the seats: refused as the page's seat picker refuses the tap.
        (
            {"Ann": 1, "Ben": 2, "Cy": 3},
            "All 2 seats are taken: Oklahoma Gin is played by 2 players. Free a seat first.",
        ),
        ({"Ann": 1}, "This game needs exactly 2 players; 1 chosen."),
    ],
)
def test_a_table_of_other_than_two_is_refused_and_keeps_the_choices(table, app, seats, message):
    response = start(table, app, seats, box_bonus=25)
    assert response.status_code == 422
    assert message in response.text
    ids = roster_ids(app)
    assert re.search(
        rf'name="seat-{ids["Ann"]}"[^>]*>.*?<option value="1" selected', response.text, re.S
    )
    assert re.search(r'<option value="25" selected>[^<]*</option>', response.text)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_knock_undercut_gin_and_draw_are_recorded_and_shown(table, app):
    game = new_game(table, app)
    # Round 1: upcard 7, Ann knocks with 3 against 20: Ann 17, and she deals round 2.
    assert knock(table, game, 1, 0, 3, 20, upcard="7").status_code == 302
    page = table.get(f"/games/{game}").text
    assert "<h1>Round 2 " in page
    assert '<span class="pill dealer">Ann deals</span>' in page
    row = sheet_row(page, 1)
    assert "7" in row and "knock ≤ 7" in row
    assert '<span class="what">Ann knocked</span>' in row and "deadwood 3 v 20" in row
    assert "undercut" not in row
    assert '<td class="won"> <span class="pts">17</span> <span class="run">17</span>' in row

    # Round 2: upcard Q, Ben knocks with 9 against Ann's 5: undercut, Ann 10 + 4.
    assert knock(table, game, 2, 1, 9, 5, upcard="Q").status_code == 302
    page = table.get(f"/games/{game}").text
    row = sheet_row(page, 2)
    assert "knock ≤ 10" in row and "deadwood 9 v 5" in row
    assert '<span class="what">Ben knocked; Ann undercut</span>' in row
    assert '<span class="pts">14</span> <span class="run">31</span>' in row
    assert re.search(r'<tr class="knock undercut" data-round="2"[ >]', page)

    # Round 3: Ben goes gin against 30: 30 + 25; Ben deals round 4.
    assert gin(table, game, 3, 1, 30, upcard="3").status_code == 302
    page = table.get(f"/games/{game}").text
    row = sheet_row(page, 3)
    assert '<span class="what">Ben went gin</span>' in row and "knock ≤ 3" in row
    assert '<span class="pts">55</span> <span class="run">55</span>' in row
    assert '<span class="pill dealer">Ben deals</span>' in page

    # Round 4: a draw: nobody scores and Ben deals again.
    assert round_(table, game, 4, upcard="A", result="draw").status_code == 302
    page = table.get(f"/games/{game}").text
    row = sheet_row(page, 4)
    assert "Draw" in row and "knock ≤ 1" in row and "Ben deals again" in row
    assert "Round 4 was a draw: Ben deals again." in page
    assert '<span class="pill dealer">Ben deals</span>' in page
    assert "<h1>Round 5 " in page

    # Totals, rounds won and the leader.
    assert re.search(
        r'<li class="leader">\s*<span class="who">★\sBen</span>\s*'
        r'<span class="note">1 round won · 45 to go</span>\s*'
        r'<span class="total" data-total="Ben">55',
        page,
    )
    assert re.search(r'<span class="who">Ann</span>\s*<span class="note">2 rounds won', page)
    # The leader's column: starred, in seat 2's colour, the name under the seat's number.
    assert re.search(
        r'<th scope="col" class="seat-col s2 leader" data-seat-col="2">'
        r'<span class="seat-line">★<span class="seat-no s2" aria-hidden="true">2</span></span>'
        r'<span class="who">Ben</span></th>',
        page,
    )
    found = stored(app, game)
    assert found.totals_by_side == {"Ann": 31, "Ben": 55}
    assert found.hand_count == 4


def test_a_knock_with_no_deadwood_is_scored_as_gin(table, app):
    game = new_game(table, app)
    assert knock(table, game, 1, 0, 0, 10).status_code == 302
    row = sheet_row(table.get(f"/games/{game}").text, 1)
    assert '<span class="what">Ann went gin</span>' in row
    assert stored(app, game).totals_by_side == {"Ann": 35, "Ben": 0}


@pytest.mark.parametrize(
    ("options", "fields", "status", "field", "message"),
    [
        (
            {},
            typed_round("6", "knock", "0", "8", "20"),
            422,
            "knocker_deadwood",
            "Knock with 6 or less: Ann has 8.",
        ),
        (
            {"ace_requires_gin": True},
            typed_round("A", "knock", "1", "1", "9"),
            422,
            "knocker_deadwood",
            "An ace was turned up: only gin can end this round.",
        ),
        (
            {},
            typed_round("J", "gin", "1", "4", "9"),
            422,
            "knocker_deadwood",
            "Gin means no deadwood, but Ben has 4. Enter it as a knock instead.",
        ),
        (
            {},
            typed_round("9", "knock", "0", "2", "99"),
            422,
            "opponent_deadwood",
            "Ben&#39;s deadwood must be from 0 to 98.",
        ),
        (
            {},
            typed_round("9", "knock", "0", "-3", "20"),
            400,
            "knocker_deadwood",
            "Ann&#39;s deadwood must be a whole number.",
        ),
        (
            {},
            typed_round("9", "knock", "0", "2", ""),
            422,
            "opponent_deadwood",
            "Enter Ben&#39;s deadwood.",
        ),
        (
            {},
            typed_round("9", "knock", "", "2", "7"),
            422,
            "knocker",
            "Enter who ended the round.",
        ),
        (
            {},
            typed_round("", "knock", "0", "2", "7"),
            422,
            "upcard",
            "Enter the upcard that started the discard pile.",
        ),
        (
            {"spade_double": True},
            typed_round("4", "knock", "0", "2", "7"),
            422,
            "upcard_suit",
            "Spades double is on: enter the suit of the upcard.",
        ),
    ],
)
def test_refusals_show_the_message_by_the_field_and_keep_what_was_typed(
    table, app, options, fields, status, field, message
):
    game = new_game(table, app, **options)
    response = round_(table, game, 1, **fields)
    assert response.status_code == status
    html = response.text
    # The message sits in the field's own block (its .has-error wrapper).
    block = re.search(
        rf'class="(?:field|entry-row|row gin-row) has-error">(?:(?!</fieldset>|class="field).)*?'
        rf'name="{field}"(?:(?!</fieldset>).)*?<p class="error" role="alert">([^<]*)</p>',
        html,
        re.S,
    )
    assert block, f"no error shown beside {field}"
    assert message in block.group(1)
    # Everything typed comes back: chips checked, numbers in their inputs.
    for name in ("upcard", "result", "knocker"):
        if fields[name]:
            assert checked(html, name, fields[name]), name
    for name in ("knocker_deadwood", "opponent_deadwood"):
        assert re.search(rf'name="{name}" value="{re.escape(fields[name])}"', html), name
    if fields["upcard"] and fields["upcard"] != "A":
        limit = {"J": "10"}.get(fields["upcard"], fields["upcard"])
        assert f"Knock with {limit} or less</p>" in html
    assert stored(app, game).hand_count == 0


def test_a_typed_suit_comes_back_after_a_refusal(table, app):
    game = new_game(table, app, spade_double=True)
    response = knock(table, game, 1, 0, 8, 20, upcard="5", upcard_suit="spades")
    assert response.status_code == 422
    assert checked(response.text, "upcard_suit", "spades")
    assert "Knock with 5 or less · ♠ scores double" in response.text
    assert knock(table, game, 1, 0, 5, 20, upcard="5", upcard_suit="spades").status_code == 302
    assert stored(app, game).totals_by_side == {"Ann": 30, "Ben": 0}
    row = sheet_row(table.get(f"/games/{game}").text, 1)
    assert "5♠" in row and "×2" in row


def test_a_draw_ignores_what_the_form_still_holds(table, app):
    game = new_game(table, app)
    response = round_(table, game, 1, upcard="8", result="draw", knocker="1", knocker_deadwood="x")
    assert response.status_code == 302
    found = stored(app, game)
    assert found.hand_count == 1
    assert found.totals_by_side == {"Ann": 0, "Ben": 0}


def test_a_double_tap_records_the_round_once(table, app):
    game = new_game(table, app)
    assert knock(table, game, 1, 0, 2, 12).status_code == 302
    again = knock(table, game, 1, 0, 2, 12)
    assert again.status_code == 302
    page = table.get(f"/games/{game}").text
    assert "Round 1 is already recorded" in page
    assert stored(app, game).hand_count == 1


def test_correct_a_round_rescores_and_moves_the_deal(table, app):
    game = new_game(table, app)
    knock(table, game, 1, 0, 2, 12, upcard="9")
    knock(table, game, 2, 0, 3, 13)
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert edit.status_code == 200
    assert "Correct round 1" in edit.text
    assert checked(edit.text, "upcard", "9")
    assert checked(edit.text, "result", "knock")
    assert checked(edit.text, "knocker", "0")
    assert 'name="knocker_deadwood" value="2"' in edit.text
    assert 'name="opponent_deadwood" value="12"' in edit.text
    assert 'value="both"' in edit.text

    bad = table.post(
        f"/games/{game}/hands/1",
        data={
            "phase": "both",
            "upcard": "3",
            "result": "knock",
            "knocker": "1",
            "knocker_deadwood": "5",
            "opponent_deadwood": "12",
        },
    )
    assert bad.status_code == 422
    assert "Correct round 1" in bad.text
    assert "Knock with 3 or less: Ben has 5." in bad.text
    assert checked(bad.text, "upcard", "3") and checked(bad.text, "knocker", "1")
    assert 'name="knocker_deadwood" value="5"' in bad.text
    assert stored(app, game).totals_by_side == {"Ann": 20, "Ben": 0}

    # Round 1 was Ben's gin: he scores 12 + 25 and deals round 2 (Ann still wins round 2).
    fixed = table.post(
        f"/games/{game}/hands/1",
        data={
            "phase": "both",
            "upcard": "9",
            "result": "gin",
            "knocker": "1",
            "knocker_deadwood": "",
            "opponent_deadwood": "12",
        },
        follow_redirects=True,
    )
    assert "Round 1 corrected; later rounds re-scored." in fixed.text
    assert stored(app, game).totals_by_side == {"Ann": 10, "Ben": 37}
    assert "(Ben dealt)" in sheet_row(fixed.text, 2)
    assert '<span class="what">Ben went gin</span>' in sheet_row(fixed.text, 1)

    # A correction to a draw drops the knocker and the deadwood.
    drawn = table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "upcard": "9", "result": "draw", "knocker": "1"},
    )
    assert drawn.status_code == 302
    assert stored(app, game).totals_by_side == {"Ann": 10, "Ben": 0}
    page = table.get(f"/games/{game}").text
    assert "(Ann dealt)" in sheet_row(page, 2)


def test_undo_removes_the_last_round(table, app):
    game = new_game(table, app)
    knock(table, game, 1, 0, 2, 12)
    gin(table, game, 2, 1, 20)
    page = table.get(f"/games/{game}").text
    assert "Undo round 2" in page
    undone = table.post(f"/games/{game}/hands/2/undo", follow_redirects=True)
    assert "Round 2 removed." in undone.text
    assert "<h1>Round 2 " in undone.text
    assert stored(app, game).totals_by_side == {"Ann": 10, "Ben": 0}
    refused = table.post(f"/games/{game}/hands/0/undo", follow_redirects=True)
    assert "Only the last round (Round 1) can be undone." in refused.text
    assert stored(app, game).hand_count == 1


def test_a_finished_game_shows_the_winner_and_each_bonus_and_is_read_only(table, app):
    game = new_game(table, app, target=50, game_bonus=100, box_bonus=25, shutout_double=True)
    knock(table, game, 1, 0, 2, 12)  # Ann 10
    gin(table, game, 2, 0, 30)  # Ann 55: 65
    page = table.get(f"/games/{game}").text
    assert "Final score" in page
    # The winner is said once: the rules' sentence is the winner line (issue 27, item 22).
    assert '<p class="winner" data-winner>Ann wins the game with 430 points.</p>' in page
    assert page.count("Ann wins") == 1
    assert '<h1 id="final-title">Game over</h1>' in page
    final = re.search(r'<table class="bonus-lines".*?</table>', page, re.S).group(0)
    final = re.sub(r"\s+", " ", final)
    assert '<th scope="row">Rounds won</th><td>2</td><td>0</td>' in final
    assert '<th scope="row">Round points</th><td>65</td><td>0</td>' in final
    assert re.search(
        r"Game bonus <span[^>]*>to the winner</span></th> <td>\+100</td><td></td>", final
    )
    assert re.search(
        r"Box bonus <span[^>]*>2 rounds won × 25</span></th> <td>\+50</td><td></td>", final
    )
    assert re.search(r"Shutout <span[^>]*>Ann's total doubled</span></th> <td>\+215</td>", final)
    assert re.search(r'Total</th><td class="leader">430</td><td class="">0</td>', final)
    # The sheet repeats the bonus lines above its total.
    sheet = page.split('class="sheet gin-sheet"')[1]
    sheet = re.sub(r"\s+", " ", re.search(r"<tfoot>.*?</tfoot>", sheet, re.S).group(0))
    assert "Game bonus</th> <td>+100</td>" in sheet
    assert "Shutout (doubled)</th> <td>+215</td>" in sheet
    assert stored(app, game).totals_by_side == {"Ann": 430, "Ben": 0}

    # Read-only: no form, no correct links, a new round is refused.
    assert "data-gin-form" not in page
    assert "/hands/1/edit" not in page
    assert "Reopen to correct a round" in page
    refused = round_(table, game, 3, upcard="K", result="draw")
    assert refused.status_code == 422
    assert "This game is over." in refused.text
    assert stored(app, game).hand_count == 2

    reopened = table.post(f"/games/{game}/reopen", follow_redirects=True)
    assert "Game reopened" in reopened.text
    assert "/hands/1/edit" in reopened.text
    assert "Close the game" in reopened.text
    # Round 2 was Ann's knock with 4, not gin: 26 + 10 = 36 is short of 50: play goes on.
    table.post(
        f"/games/{game}/hands/2",
        data={
            "phase": "both",
            "upcard": "K",
            "result": "knock",
            "knocker": "0",
            "knocker_deadwood": "4",
            "opponent_deadwood": "30",
        },
    )
    page = table.get(f"/games/{game}").text
    assert "<h1>Round 3 " in page
    assert "Final score" not in page
    found = stored(app, game)
    assert found.status == "in_progress"
    assert found.totals_by_side == {"Ann": 36, "Ben": 0}


def test_another_account_gets_404_for_game_pages(table, app):
    from tests.conftest import signup

    game = new_game(table, app)
    knock(table, game, 1, 0, 2, 12)
    other = app.test_client()
    signup(other, "other-table")
    assert other.get(f"/games/{game}").status_code == 404
    assert knock(other, game, 2, 0, 2, 12).status_code == 404
    assert other.get(f"/games/{game}/hands/1/edit").status_code == 404
    assert other.post(f"/games/{game}/hands/1", data={"phase": "both"}).status_code == 404
    assert other.post(f"/games/{game}/hands/1/undo").status_code == 404
    assert other.post(f"/games/{game}/reopen").status_code == 404
    assert "Ann" not in other.get("/games/").text
    assert stored(app, game).hand_count == 1


# ---- One screen per round, in-place saves, Hollywood, long games ----------------------------


def test_a_save_in_place_answers_the_main_part_with_each_total_s_change(table, app):
    game = new_game(table, app)
    page = table.get(f"/games/{game}").text
    assert 'id="status" data-status data-round-score' in page
    assert "Tap the upcard, then how the round ended." in page
    data = {"phase": "round", "number": "1", "upcard": "7", "result": "knock", "knocker": "0"}
    data.update(knocker_deadwood="3", opponent_deadwood="20")
    saved = table.post(f"/games/{game}/hands", data=data, headers={"X-Fragment": "1"})
    assert saved.status_code == 200
    assert "<html" not in saved.text and "data-game-page" in saved.text
    strip = re.sub(
        r"\s+", " ", re.search(r'<ul class="score-strip".*?</ul>', saved.text, re.S).group(0)
    )
    assert 'data-total="Ann">17<span class="delta">+17</span>' in strip
    assert 'data-total="Ben">0<span class="delta zero">±0</span>' in strip
    assert '<span class="pill dealer">deals</span>' in strip  # Ann won: she deals round 2
    assert "<h1>Round 2 " in saved.text


def test_without_javascript_a_save_lands_on_the_round_now(table, app):
    game = new_game(table, app)
    response = knock(table, game, 1, 0, 3, 20, upcard="7")
    assert response.headers["Location"].endswith(f"/games/{game}#now")
    assert 'id="now"' in table.get(f"/games/{game}").text


def test_the_sheet_s_round_numbers_are_big_links(table, app):
    game = new_game(table, app)
    knock(table, game, 1, 0, 3, 20, upcard="7")
    page = table.get(f"/games/{game}").text
    assert f'<a class="hand-link" href="/games/{game}/hands/1/edit"' in page


HOLLYWOOD_ROUNDS = [
    # (seat that knocks, knocker's deadwood, opponent's deadwood): the round's winner and score
    (0, 2, 22),  # 1: Ann 20, opens game 1
    (1, None, 30),  # 2: Ben gin 55, opens game 1 and closes it: Ben wins game 1 (55 to 20)
    (0, 2, 12),  # 3: Ann 10, opens game 2 (game 1 is closed)
    (1, 1, 16),  # 4: Ben 15, opens game 2
    (1, 2, 22),  # 5: Ben 20, opens game 3: into games 2 (35) and 3 (20)
    (0, 1, 46),  # 6: Ann 45, opens game 3: game 2 55, closed (Ann wins it), game 3 45
    (0, 1, 6),  # 7: Ann 5: game 3 50, closed: Ann wins two games of three
]


def play_hollywood(table, game, rounds):
    for number, (seat, mine, theirs) in enumerate(rounds, start=1):
        if mine is None:
            response = gin(table, game, number, seat, theirs)
        else:
            response = knock(table, game, number, seat, mine, theirs)
        assert response.status_code == 302, response.text


def game_cells(row: str) -> dict[int, list[str]]:
    """Per game column, the cells of a sheet row (points and running total where it went)."""
    cells: dict[int, list[str]] = {}
    for number, body in re.findall(r'data-game="(\d)">(.*?)</td>', row):
        cells.setdefault(int(number), []).append(re.sub(r"<[^>]+>", " ", body).split())
    return cells


def test_hollywood_the_sheet_shows_the_three_games_side_by_side(table, app):
    game = new_game(table, app, target=50, hollywood=True)
    page = table.get(f"/games/{game}").text
    assert '<h1>Round 1 <span class="sub">Hollywood</span></h1>' in page
    play_hollywood(table, game, HOLLYWOOD_ROUNDS[:2])
    page = table.get(f"/games/{game}").text
    head = re.sub(r"\s+", " ", re.search(r"<thead>.*?</thead>", page, re.S).group(0))
    assert 'Game 1 <span class="small">Ben won</span>' in head
    assert "Game 2</th>" in head and "Game 3</th>" in head
    assert head.count('<span class="who">Ann</span></th>') == 3
    assert head.count('<span class="who">Ben</span></th>') == 3
    # Each round's score sits in the games it went into: Ann, Ben per game.
    assert game_cells(sheet_row(page, 1)) == {1: [["20", "20"], []], 2: [[], []], 3: [[], []]}
    assert game_cells(sheet_row(page, 2)) == {1: [[], ["55", "55"]], 2: [[], []], 3: [[], []]}
    notes = dict(
        re.findall(r'<span class="who">(?:★\s)?(\w+)</span>\s*<span class="note">([^<]+)<', page)
    )
    assert notes == {
        "Ben": "1 game won · game 2: 50 to go · game 3: 50 to go",
        "Ann": "0 games won · game 2: 50 to go · game 3: 50 to go",
    }
    play_hollywood_from(table, game, 3)
    page = table.get(f"/games/{game}").text
    assert game_cells(sheet_row(page, 5)) == {
        1: [[], []],
        2: [[], ["20", "35"]],
        3: [[], ["20", "20"]],
    }
    assert game_cells(sheet_row(page, 6)) == {
        1: [[], []],
        2: [["45", "55"], []],
        3: [["45", "45"], []],
    }
    assert game_cells(sheet_row(page, 7)) == {1: [[], []], 2: [[], []], 3: [["5", "50"], []]}
    totals = re.sub(
        r"\s+", " ", re.search(r'<tr class="game-totals">.*?</tr>', page, re.S).group(0)
    )
    assert re.findall(r'data-game="(\d)">(?:★ )?(\d+)</td>', totals) == [
        ("1", "20"), ("1", "55"), ("2", "55"), ("2", "35"), ("3", "50"), ("3", "20"),
    ]  # fmt: skip
    winner = "Ann wins 2 of the 3 games, with 125 points in all."
    assert f'<p class="winner" data-winner>{winner}</p>' in page
    assert page.count("Ann wins 2 of") == 1 and "Ann wins!" not in page
    final = re.sub(
        r"\s+", " ", re.search(r'<table class="bonus-lines".*?</table>', page, re.S).group(0)
    )
    assert 'Game 1</th> <td class="">20</td><td class="leader">★ 55</td>' in final
    assert 'Total</th><td class="leader">125</td><td class="">110</td>' in final
    assert stored(app, game).totals_by_side == {"Ann": 125, "Ben": 110}


def test_hollywood_a_total_s_change_counts_every_game_the_round_went_into(table, app):
    game = new_game(table, app, target=50, hollywood=True)
    play_hollywood(table, game, HOLLYWOOD_ROUNDS[:5])  # round 5: Ben's 20 in games 2 and 3
    page = table.get(f"/games/{game}").text
    strip = re.sub(r"\s+", " ", re.search(r'<ul class="score-strip".*?</ul>', page, re.S).group(0))
    assert 'data-total="Ben">110<span class="delta">+40</span>' in strip


def play_hollywood_from(table, game, first):
    for number, (seat, mine, theirs) in enumerate(HOLLYWOOD_ROUNDS[first - 1 :], start=first):
        if mine is None:
            assert gin(table, game, number, seat, theirs).status_code == 302
        else:
            assert knock(table, game, number, seat, mine, theirs).status_code == 302


def test_hollywood_bonuses_show_per_game(table, app):
    game = new_game(table, app, target=50, hollywood=True, game_bonus=100, box_bonus=25)
    play_hollywood(table, game, HOLLYWOOD_ROUNDS[:2])
    page = table.get(f"/games/{game}").text
    foot = re.sub(r"\s+", " ", re.search(r"<tfoot>.*?</tfoot>", page, re.S).group(0))
    # Game 1 closed: Ben's game bonus, each player's box bonus for the round won in it.
    assert re.search(r'Game bonus</th> <td class="game-start"></td> <td class="">\+100</td>', foot)
    assert re.search(
        r'Box bonus</th> <td class="game-start">\+25</td> <td class="">\+25</td>', foot
    )
    assert "1 game won" in page


def test_a_long_game_s_page_shows_the_latest_rounds_and_a_link_to_all(table, app):
    game = new_game(table, app)
    for number in range(1, 61):
        assert round_(table, game, number, upcard="5", result="draw").status_code == 302
    page = table.get(f"/games/{game}").text
    shown = [int(n) for n in re.findall(r'aria-label="Correct round (\d+) ', page)]
    assert shown == list(range(37, 61))
    assert "Show rounds 1 to 36 too" in page
    every = table.get(f"/games/{game}?sheet=all").text
    assert [int(n) for n in re.findall(r'aria-label="Correct round (\d+) ', every)] == list(
        range(1, 61)
    )
    assert len(page) < len(every) * 0.6


def test_a_long_hollywood_game_keeps_each_game_s_running_total(table, app):
    game = new_game(table, app, target=50, hollywood=True)
    for number in range(1, 31):
        assert round_(table, game, number, upcard="5", result="draw").status_code == 302
    play_hollywood(table, game, [])
    for number, (seat, mine, theirs) in enumerate(HOLLYWOOD_ROUNDS[:6], start=31):
        if mine is None:
            assert gin(table, game, number, seat, theirs).status_code == 302
        else:
            assert knock(table, game, number, seat, mine, theirs).status_code == 302
    page = table.get(f"/games/{game}").text
    assert "Show rounds 1 to 12 too" in page
    # Counted from round 1 even though the first rounds are not shown.
    assert game_cells(sheet_row(page, 35)) == {
        1: [[], []],
        2: [[], ["20", "35"]],
        3: [[], ["20", "20"]],
    }


def test_a_hollywood_game_s_sheet_in_history_and_on_a_shared_link(table, app, api):
    game = new_game(table, app, target=50, hollywood=True)
    play_hollywood(table, game, HOLLYWOOD_ROUNDS)
    table.post(f"/games/{game}/close")
    history = table.get(f"/history/games/{game}")
    assert history.status_code == 200
    assert "hollywood-sheet" in history.text and "/hands/1/edit" not in history.text
    shared = api.post(f"/games/{game}/share")
    assert shared.status_code == 201
    viewer = app.test_client().get(shared.get_json()["url"].removeprefix("http://localhost"))
    assert viewer.status_code == 200
    assert "hollywood-sheet" in viewer.text and "/hands/1/edit" not in viewer.text
    totals = re.sub(
        r"\s+", " ", re.search(r'<tr class="game-totals">.*?</tr>', viewer.text, re.S).group(0)
    )
    assert re.findall(r'data-game="\d">(?:★ )?(\d+)</td>', totals) == [
        "20",
        "55",
        "55",
        "35",
        "50",
        "20",
    ]


def test_a_refused_round_says_so_at_the_top_and_each_problem_once(table, app):
    game = new_game(table, app)
    refused = knock(table, game, 1, 1, 5, 20, upcard="3")
    assert refused.status_code == 422
    assert '<p class="status bad" id="status"' in refused.text
    assert "Not saved: put right what is marked below." in refused.text
    assert refused.text.count("Knock with 3 or less: Ben has 5.") == 1

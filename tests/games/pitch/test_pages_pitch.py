"""Auction Pitch on the pages: the auction, the points, set backs, partnerships, the win."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game


def start(client, app, names, **options):
    seats = {name: seat for seat, name in enumerate(names, start=1)}
    return game_id(start_game(client, app, "pitch", seats, **options))


def auction(client, game_id, number, calls: dict[int, str], order: list[int]):
    data = {"phase": "auction", "number": str(number), "order": ",".join(map(str, order))}
    data.update({f"call-{seat}": call for seat, call in calls.items()})
    return client.post(f"/games/{game_id}/hands", data=data)


def points(client, game_id, number, pitcher_seat, **won):
    data = {"phase": "points", "pitcher_seat": str(pitcher_seat)}
    data.update({key: str(value) for key, value in won.items()})
    return client.post(f"/games/{game_id}/hands/{number}", data=data)


def totals(app, game):
    with app.app_context():
        return db.session.get(Game, game).totals_by_side


def test_the_setup_form_offers_pitch_options(table):
    page = table.get("/games/new?game=pitch")
    for text in ["Points to win", "Partnerships", "Lowest bid", "Low goes to whoever played it"]:
        assert text in page.text


def test_auction_then_points_score_the_hand(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    page = table.get(f"/games/{game}")
    assert re.search(r"<h1>Hand 1 <span class=\"sub\">auction</span></h1>", page.text)
    assert '<span class="pill dealer">Ann deals</span>' in page.text
    # Ben (first), Cy, then Ann the dealer; Cy bids 2, Ann steals at 2.
    response = auction(table, game, 1, {1: "pass", 2: "2", 0: "2"}, [1, 2, 0])
    assert response.status_code == 302
    page = table.get(f"/games/{game}")
    assert '<span class="pill first">Ann stole at 2</span>' in page.text
    assert "Ann needs 2 of the 4 points" in page.text
    response = points(table, game, 1, 0, high=0, low=1, jack="none", game=0)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 2, "Ben": 1, "Cy": 0}
    page = table.get(f"/games/{game}")
    assert "made ✓" in page.text


def test_a_pitcher_who_falls_short_is_set_back_below_zero(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "3", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=2, jack=2, game="tie")
    assert totals(app, game) == {"Ann": 0, "Ben": -3, "Cy": 2}
    page = table.get(f"/games/{game}")
    assert "set ✗" in page.text
    assert "−3" in page.text


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        (
            {1: "pass", 2: "pass", 0: "pass"},
            "Everyone else passed, so Ann (the dealer) must bid at least 2.",
        ),
        ({1: "2", 2: "2", 0: "pass"}, "The high bid is 2: Cy must bid more than 2 or pass."),
        ({1: "4", 2: "pass", 0: "4"}, "Ann cannot steal a bid of 4; the dealer can only pass now."),
        ({1: "pass", 2: "pass"}, "Enter Ann’s call: pass or a bid."),
    ],
)
def test_illegal_auctions_are_refused_and_kept(table, app, calls, message):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    response = auction(table, game, 1, calls, [1, 2, 0])
    assert response.status_code == 422
    assert message in html.unescape(response.text)
    for seat, call in calls.items():
        assert re.search(rf'name="call-{seat}" value="{call}"\s*checked', response.text)
    with app.app_context():
        assert db.session.get(Game, game).hand_count == 0


def test_the_quick_form_records_pitcher_and_bid(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"], min_bid=2)
    data = {"phase": "auction", "quick": "1", "number": "1", "pitcher": "2", "bid": "1"}
    refused = table.post(f"/games/{game}/hands", data=data)
    assert refused.status_code == 422
    assert "Hand 1: Cy’s bid must be from 2 to 4." in refused.text
    data["bid"] = "3"
    assert table.post(f"/games/{game}/hands", data=data).status_code == 302
    assert "Cy pitched 3" in table.get(f"/games/{game}").text


def test_one_trump_shortcut_and_its_check(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    wrong = points(table, game, 1, 1, single_trump="y", high=2, low=2, jack="none", game=0)
    assert wrong.status_code == 422
    assert "Only one trump was played" in wrong.text
    ok = points(table, game, 1, 1, single_trump="y", jack=1, game=0)
    assert ok.status_code == 302
    assert totals(app, game) == {"Ann": 1, "Ben": 3, "Cy": 0}


def test_game_points_decide_game_and_impossible_counts_are_refused(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    data = {"high": 1, "low": 1, "jack": "none", "game-points": ""}
    over = points(
        table, game, 1, 1, **data, **{"game_points-0": 40, "game_points-1": 30, "game_points-2": 20}
    )
    assert over.status_code == 422
    assert "never sum to more than 80" in over.text
    assert 'name="game_points-0" value="40"' in over.text
    tie = points(
        table,
        game,
        1,
        1,
        high=1,
        low=1,
        jack="none",
        game=1,
        **{"game_points-0": 20, "game_points-1": 20},
    )
    assert tie.status_code == 422
    assert "tie for the most" in tie.text
    ok = points(
        table, game, 1, 1, high=1, low=1, jack="none", **{"game_points-0": 10, "game_points-1": 25}
    )
    assert ok.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 3, "Cy": 0}


def test_a_non_pitcher_above_the_target_must_pitch_to_win(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    # Ben takes all four points off Cy's pitch twice: 8, but Ben never pitched.
    for number, order in ((1, [1, 2, 0]), (2, [2, 0, 1])):
        calls = {seat: "pass" for seat in order}
        calls[2] = "2"
        auction(table, game, number, calls, order)
        points(table, game, number, 2, high=1, low=1, jack=1, game=1)
    page = table.get(f"/games/{game}")
    assert "Ben has 8 but must pitch to win." in page.text
    assert "Final standings" not in page.text
    # Hand 3: Ben deals... Ann first; Ben pitches 2 and makes it: Ben wins.
    auction(table, game, 3, {0: "pass", 1: "2", 2: "pass"}, [0, 1, 2])
    points(table, game, 3, 1, high=1, low=1, jack="none", game="tie")
    page = table.get(f"/games/{game}")
    assert "Ben wins!" in page.text
    assert "Reopen to correct a hand" in page.text


def test_partnerships_score_teams(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy", "Dee"], partnerships=True)
    page = table.get(f"/games/{game}")
    assert "Partnerships: seats 1 and 3 play against seats 2 and 4." in page.text
    # Each player's row shows the side's total.
    # (marked by the side: the scripts write the totals in by side)
    assert re.search(r'data-total="Ann &amp; Cy"><span class="label">total</span> 0', page.text)
    auction(table, game, 1, {1: "pass", 2: "3", 3: "pass", 0: "pass"}, [1, 2, 3, 0])
    points(table, game, 1, 2, high=0, low=2, jack=1, game=0)
    assert totals(app, game) == {"Ann & Cy": 3, "Ben & Dee": 1}


def test_partnerships_need_four(table, app):
    ids = roster_ids(app)
    data = {"game": "pitch", "opt-partnerships": "y"}
    for seat, name in enumerate(["Ann", "Ben", "Cy"], start=1):
        data[f"seat-{ids[name]}"] = str(seat)
    response = table.post("/games/new?game=pitch", data=data)
    assert response.status_code == 422
    assert "Partnerships need exactly 4 players; 3 chosen." in response.text


def test_correct_a_hand_from_the_edit_page(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=1, jack="none", game=0)
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert edit.status_code == 200
    assert re.search(r'name="call-1" value="2"\s*checked', edit.text)
    data = {
        "phase": "both",
        "order": "1,2,0",
        "call-1": "2",
        "call-2": "pass",
        "call-0": "pass",
        "pitcher_seat": "1",
        "high": "1",
        "low": "1",
        "jack": "1",
        "game": "1",
    }
    response = table.post(f"/games/{game}/hands/1", data=data)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 4, "Cy": 0}


def test_a_lone_trump_that_was_the_jack_gives_the_pitcher_three_points(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "3", 2: "pass", 0: "pass"}, [1, 2, 0])
    response = points(table, game, 1, 1, single_trump="y", lone_jack="y", game=2)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 3, "Cy": 1}


# ---- One screen per hand, in-place saves, the house rules on the page ----------------------


def test_a_save_in_place_answers_the_page_s_main_part_with_the_totals_changed(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    headers = {"X-Fragment": "1"}
    data = {"phase": "auction", "number": "1", "order": "1,2,0"}
    data.update({"call-1": "3", "call-2": "pass", "call-0": "pass"})
    step = table.post(f"/games/{game}/hands", data=data, headers=headers)
    assert step.status_code == 200
    assert "<html" not in step.text and "data-game-page" in step.text
    # The next step of the same hand: the points, with the status line on top.
    assert "data-points-form" in step.text
    assert 'id="status"' in step.text and "Ben needs 3 of the 4 points" in step.text
    data = {"phase": "points", "pitcher_seat": "1", "high": "1", "low": "1", "jack": "2"}
    data["game"] = "1"
    done = table.post(f"/games/{game}/hands/1", data=data, headers=headers)
    assert done.status_code == 200
    # Each row of the next auction: the running total and its change.
    ben = re.search(r'data-total="Ben">(.*?)</span>\s*</div>', done.text, re.S).group(1)
    assert "3" in ben and '<span class="delta">+3</span>' in ben
    cy = re.search(r'data-total="Cy">(.*?)</span>\s*</div>', done.text, re.S).group(1)
    assert '<span class="delta">+1</span>' in cy
    assert '<span class="pill dealer">deals</span>' in done.text  # Ben deals hand 2


def test_without_javascript_a_save_lands_on_the_hand_now(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    response = auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    assert response.headers["Location"].endswith(f"/games/{game}#now")
    response = points(table, game, 1, 1, high=1, low=1, jack="none", game="tie")
    assert response.headers["Location"].endswith(f"/games/{game}#now")
    assert 'id="now"' in table.get(f"/games/{game}").text


def test_the_standings_say_each_side_s_distance_to_the_target(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"], target=11)
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=2, jack="none", game=1)
    standings = re.search(r'<ol class="standings".*?</ol>', table.get(f"/games/{game}").text, re.S)
    notes = re.findall(
        r'<span class="who">(?:★\s)?(\w+)</span>\s*<span class="note">([^<]+)<', standings.group(0)
    )
    assert dict(notes) == {"Ben": "made 1 of 1 · 9 to go", "Cy": "10 to go", "Ann": "11 to go"}
    # Cy (1) pitches 3 and is set back to −2: made 0 of 1, 13 to go.
    auction(table, game, 2, {2: "3", 0: "pass", 1: "pass"}, [2, 0, 1])
    points(table, game, 2, 2, high=0, low=1, jack="none", game=1)
    standings = re.search(r'<ol class="standings".*?</ol>', table.get(f"/games/{game}").text, re.S)
    notes = re.findall(
        r'<span class="who">(?:★\s)?(\w+)</span>\s*<span class="note">([^<]+)<', standings.group(0)
    )
    assert dict(notes)["Cy"] == "made 0 of 1 · 13 to go"


def test_after_a_pitch_of_4_the_others_passes_are_filled_in(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    # Ben bids 4 first; Cy and Ann are left empty: they could only pass.
    response = auction(table, game, 1, {1: "4"}, [1, 2, 0])
    assert response.status_code == 302
    with app.app_context():
        stored = db.session.get(Game, game).hands[0].input["auction"]
    assert [call for _, call in stored] == [4, "pass", "pass"]
    # Before any 4, an empty call is still refused.
    other = start(table, app, ["Ann", "Ben", "Cy"])
    refused = auction(table, other, 1, {1: "3"}, [1, 2, 0])
    assert refused.status_code == 422


def test_smudge_the_page_says_who_won_at_once(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"], smudge=True)
    page = table.get(f"/games/{game}")
    assert "Smudge: a player who wins all four points" in page.text
    # Ben pitches 2, but Cy takes all four points: a smudge is a win pitcher or not.
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    assert 'data-smudge="on"' in table.get(f"/games/{game}").text
    points(table, game, 1, 1, high=2, low=2, jack=2, game=2)
    page = table.get(f"/games/{game}").text
    assert '<p class="winner" data-winner>Smudge! Cy wins!</p>' in page
    assert "smudge ★" in page  # on the score sheet
    assert "data-points-form" not in page and "Save the auction" not in page


def test_smudge_off_all_four_points_are_just_four_points(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    assert 'data-smudge="off"' in table.get(f"/games/{game}").text
    points(table, game, 1, 1, high=2, low=2, jack=2, game=2)
    page = table.get(f"/games/{game}").text
    assert "Smudge!" not in page and "Save the auction" in page


def test_the_dealer_may_steal_or_not_as_the_game_says(table, app):
    stealing = start(table, app, ["Ann", "Ben", "Cy"])
    page = table.get(f"/games/{stealing}").text
    assert 'data-steal="on"' in page
    assert '<span class="pill steal">may steal</span>' in page
    strict = start(table, app, ["Ann", "Ben", "Cy"], dealer_may_steal=False)
    page = table.get(f"/games/{strict}").text
    assert 'data-steal="off"' in page
    assert '<span class="pill nosteal">bids higher</span>' in page
    assert "The dealer may not steal: every bid must be higher than the last." in page
    refused = auction(table, strict, 1, {1: "2", 2: "pass", 0: "2"}, [1, 2, 0])
    assert refused.status_code == 422
    assert re.search(r'name="call-0" value="2"\s*checked', refused.text)  # kept as typed


def test_the_quick_form_saves_in_place_and_a_refusal_reopens_it(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    data = {"phase": "auction", "quick": "1", "number": "1", "pitcher": "2"}
    refused = table.post(f"/games/{game}/hands", data=data, headers={"X-Fragment": "1"})
    assert refused.status_code == 422
    assert '<details class="card quick" id="quick" data-quick data-step open>' in refused.text
    data["bid"] = "3"
    saved = table.post(f"/games/{game}/hands", data=data, headers={"X-Fragment": "1"})
    assert saved.status_code == 200 and "Cy pitched 3" in saved.text


def test_the_sheet_s_hand_numbers_are_big_links(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=1, jack="none", game="tie")
    page = table.get(f"/games/{game}").text
    assert f'<a class="hand-link" href="/games/{game}/hands/1/edit"' in page


def test_a_long_game_s_page_shows_the_latest_hands_and_a_link_to_all(table, app, api):
    state = api.post(
        "/games", {"game": "pitch", "players": ["Ann", "Ben", "Cy"], "options": {"target": 21}}
    ).get_json()
    # Ben pitches 2 every hand and is set; Ann takes Low: she passes 21 but never pitches.
    hand = {"pitcher": "Ben", "bid": 2, "high": "Ben", "low": "Ann", "jack": None, "game": None}
    for number in range(1, 31):
        answer = api.post(f"/games/{state['id']}/hands", {**hand, "number": number})
        assert answer.status_code == 201, answer.get_json()
    page = table.get(f"/games/{state['id']}").text
    shown = [int(n) for n in re.findall(r'aria-label="Correct hand (\d+) ', page)]
    assert shown == list(range(7, 31))
    assert "Show hands 1 to 6 too" in page
    every = table.get(f"/games/{state['id']}?sheet=all").text
    assert [int(n) for n in re.findall(r'aria-label="Correct hand (\d+) ', every)] == list(
        range(1, 31)
    )
    assert "Ann has 30 but must pitch to win." in page
    # A save made in place answers the same short sheet.
    data = {"phase": "auction", "quick": "1", "number": "31", "pitcher": "1", "bid": "2"}
    saved = table.post(f"/games/{state['id']}/hands", data=data, headers={"X-Fragment": "1"})
    shown = [int(n) for n in re.findall(r'aria-label="Correct hand (\d+) ', saved.text)]
    assert shown == list(range(8, 31)) and "Show hands 1 to 7 too" in saved.text
    assert len(saved.text) < len(every)


def test_a_refused_step_says_so_at_the_top_and_each_problem_once_beside_its_field(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    refused = auction(table, game, 1, {1: "2", 2: "2", 0: "pass"}, [1, 2, 0])
    assert refused.status_code == 422
    assert '<p class="status bad" id="status"' in refused.text
    assert "Not saved: put right what is marked below." in refused.text
    message = "The high bid is 2: Cy must bid more than 2 or pass."
    assert html.unescape(refused.text).count(message) == 1
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    refused = points(table, game, 1, 1, low=1, jack="none", game="tie")
    assert refused.status_code == 422
    assert '<p class="status bad" id="status"' in refused.text
    assert html.unescape(refused.text).count("Choose who took High.") == 1

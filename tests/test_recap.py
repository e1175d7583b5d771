"""The night's story (API.md, "Ratings and the night's story"), against a night worked out by
hand: the winners of each game, the best hand, a comeback, a run of made bids, a perfect game,
a shot moon; in the reader's language; and on the night's page."""

from __future__ import annotations

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def new_game(api, kind, players, night, **options) -> int:
    body = {"game": kind, "players": players, "options": options, "night_id": night}
    answer = api.post("/games", body)
    assert answer.status_code == 201, answer.text
    return answer.get_json()["id"]


def play(api, game, *hands):
    for number, hand in enumerate(hands, start=1):
        answer = api.post(f"/games/{game}/hands", {"number": number, **hand})
        assert answer.status_code == 201, answer.text
    return answer.get_json()


def oh_hell_hand(bids, tricks):
    return {
        "bids": dict(zip(FOUR, bids, strict=True)),
        "tricks": dict(zip(FOUR, tricks, strict=True)),
    }


def hearts_hand(points):
    return {"points": dict(zip(FOUR, points, strict=True))}


def test_a_hand_worked_night(api):
    night = api.post("/nights", {}).get_json()["id"]
    # Oh Hell, 3 hands of 1, 2, 3 cards (sequence up to 3). Scores (10 + bid when made):
    #   hand 1: Ann bids 1 takes 1 (11); Ben, Cy, Dee bid 0 take 0 (10 each).
    #   hand 2: Ann 0/0 (10); Ben 2/2 (12); Cy 1/0 (0); Dee 1/0 (0).  Totals 21 22 10 10.
    #   hand 3: Ann 0/0 (10); Ben 0/1 (0); Cy 3/2 (0); Dee 0/0 (10).  Totals 31 22 10 20.
    # Ann made every bid (3 in a row: a run and a perfect game) and won from behind after
    # hand 2 (21 against Ben's 22: 1 behind).
    oh_hell = new_game(api, "oh_hell", FOUR, night, sequence="up", max_cards=3)
    state = play(
        api,
        oh_hell,
        oh_hell_hand([1, 0, 0, 0], [1, 0, 0, 0]),
        oh_hell_hand([0, 2, 1, 1], [0, 2, 0, 0]),
        oh_hell_hand([0, 0, 3, 0], [0, 1, 2, 0]),
    )
    assert state["status"] == "finished" and state["totals"] == {
        "Ann": 31,
        "Ben": 22,
        "Cy": 10,
        "Dee": 20,
    }
    # Hearts to 50: Dee shoots the moon in hand 1 (the others 26 each), then 13 and 13.
    # (Its hands of 26 points are no "best hand": the lowest total wins Hearts.)
    hearts = new_game(api, "hearts", FOUR, night, target=50)
    state = play(
        api,
        hearts,
        hearts_hand([0, 0, 0, 26]),
        hearts_hand([0, 13, 13, 0]),
        hearts_hand([13, 13, 0, 0]),
    )
    assert state["status"] == "finished"
    assert state["totals"] == {"Ann": 39, "Ben": 52, "Cy": 39, "Dee": 0}

    recap = api.get(f"/nights/{night}/recap").get_json()
    assert recap["games"] == [
        {"game_id": oh_hell, "game": "oh_hell", "title": "Oh Hell", "winners": ["Ann"]},
        {"game_id": hearts, "game": "hearts", "title": "Hearts", "winners": ["Dee"]},
    ]
    found = {
        (h["kind"], h["player"], h["game_id"], h["hand"], h["value"]) for h in recap["highlights"]
    }
    assert ("best_hand", "Ben", oh_hell, 2, 12) in found  # 12: the most in one hand
    assert ("comeback", "Ann", oh_hell, 2, 1) in found
    assert ("made_run", "Ann", oh_hell, 3, 3) in found
    assert ("perfect_game", "Ann", oh_hell, None, 3) in found
    assert ("moon", "Dee", hearts, 1, 1) in found
    # Nobody else made every bid, nor 3 in a row; the Hearts winners led throughout.
    assert {kind for kind, *_ in found} == {
        "best_hand",
        "comeback",
        "made_run",
        "perfect_game",
        "moon",
    }
    assert [h for h in recap["highlights"] if h["kind"] == "comeback"] == [
        {"kind": "comeback", "player": "Ann", "game_id": oh_hell, "hand": 2, "value": 1}
    ]
    assert recap["sentences"][:2] == ["Ann won Oh Hell.", "Dee won Hearts."]
    assert "Dee shot the moon in hand 1 of Hearts." in recap["sentences"]
    assert "Ann made 3 bids in a row in Oh Hell." in recap["sentences"]

    bengali = api.get(f"/nights/{night}/recap", headers={"Accept-Language": "bn"}).get_json()
    assert bengali["highlights"] == recap["highlights"]  # facts do not change with the language
    assert any("৩" in line for line in bengali["sentences"])
    assert not any(line in recap["sentences"] for line in bengali["sentences"])


def test_the_night_page_tells_the_story(api, logged_in):
    night = api.post("/nights", {}).get_json()["id"]
    hearts = new_game(api, "hearts", FOUR, night, target=50)
    play(api, hearts, hearts_hand([0, 0, 0, 26]), hearts_hand([13, 13, 0, 0]))
    page = logged_in.get(f"/nights/{night}")
    assert page.status_code == 200
    assert "Dee shot the moon in hand 1 of Hearts." in page.text
    assert "Share this night" in page.text and 'id="recap-text"' in page.text
    empty = api.post("/nights", {}).get_json()["id"]
    assert "Share this night" not in logged_in.get(f"/nights/{empty}").text


def test_a_sentence_true_of_several_games_is_said_once_with_how_often(api):
    night = api.post("/nights", {}).get_json()["id"]
    for _ in range(2):  # Dee shoots the moon in hand 1 of two games of Hearts, and wins both
        hearts = new_game(api, "hearts", FOUR, night, target=50)
        hands = [
            hearts_hand([0, 0, 0, 26]),
            hearts_hand([0, 13, 13, 0]),
            hearts_hand([13, 13, 0, 0]),
        ]
        assert play(api, hearts, *hands)["winners"] == ["Dee"]
    recap = api.get(f"/nights/{night}/recap").get_json()
    assert [h["kind"] for h in recap["highlights"]].count("moon") == 2  # each game's fact
    assert recap["sentences"] == [
        "Dee won Hearts. (×2)",
        "Dee shot the moon in hand 1 of Hearts. (×2)",
    ]
    bengali = api.get(f"/nights/{night}/recap", headers={"Accept-Language": "bn"}).get_json()
    assert all(line.endswith("(×২)") for line in bengali["sentences"])


def test_another_account_s_night_has_no_recap(api, other_api):
    night = api.post("/nights", {}).get_json()["id"]
    assert other_api.get(f"/nights/{night}/recap").status_code == 404


def test_the_game_page_links_to_its_score_chart(api, logged_in):
    game = new_game(api, "hearts", FOUR, None, target=50)
    assert 'href="/history/games/' not in logged_in.get(f"/games/{game}").text  # no hand yet
    play(api, game, hearts_hand([0, 0, 0, 26]))
    page = logged_in.get(f"/games/{game}").text
    assert f'href="/history/games/{game}#chart-head"' in page
    chart = logged_in.get(f"/history/games/{game}")
    assert chart.status_code == 200 and 'id="chart-head"' in chart.text and "<svg" in chart.text

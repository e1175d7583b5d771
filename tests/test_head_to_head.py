"""Head to head between two players, and a player's rating with its chart (issue 23): the
figures against hand-worked games, bad choices answered clearly, the page in other languages."""

from __future__ import annotations

import re

import pytest

from scorekeeper.views.history.statistics import CHART_POINTS
from scorekeeper.views.history.statistics import rating_chart
from tests.pages import text
from tests.test_ratings import new_game
from tests.test_ratings import one_hand_oh_hell
from tests.test_ratings import spades_to_the_end


def ids_by_name(api) -> dict[str, int]:
    return {player["name"]: player["id"] for player in api.get("/players").get_json()["players"]}


def spades_won_by_ann_and_cy(api) -> int:
    """Ann & Cy (partners) make their bids every hand; Ben & Dee miss theirs."""
    bids = {"Ann": 6, "Ben": 2, "Cy": 5, "Dee": 2}
    return spades_to_the_end(api, bids, {"Ann": 6, "Ben": 1, "Cy": 5, "Dee": 1})


def rows(page) -> dict[str, list[str]]:
    """The versus table: game -> [games, first ahead, other ahead, level]."""
    found = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td><td>([^<]+)</td>'
        r"<td>([^<]+)</td><td>([^<]+)</td></tr>",
        page.text,
    )
    return {game: list(figures) for game, *figures in found}


@pytest.fixture
def history(api):
    """Worked by hand: (1) Oh Hell, Ann alone makes her bid, the other three miss alike;
    (2) Oh Hell, Ben takes the trick he bid, Ann makes her 0, Cy and Dee miss; (3) Spades,
    Ann & Cy beat Ben & Dee; and an Oh Hell game not finished (it does not count)."""
    one_hand_oh_hell(api, ["Ann"])
    one_hand_oh_hell(api, ["Ben", "Ann"])
    spades_won_by_ann_and_cy(api)
    new_game(api, "oh_hell", ["Ann", "Ben", "Cy"])
    assert api.post("/players", {"name": "Eve"}).status_code == 201
    return ids_by_name(api)


def test_head_to_head_counts_who_finished_ahead_in_every_game_both_finished(logged_in, history):
    ann, ben, cy = history["Ann"], history["Ben"], history["Cy"]
    page = logged_in.get(f"/stats/players/{ann}/versus?other={ben}")
    assert page.status_code == 200
    assert "Ann and Ben" in text(page.text)
    # Oh Hell: Ann ahead in (1), Ben in (2); Spades: Ann's side won.
    assert rows(page) == {"Oh Hell": ["2", "1", "1", "0"], "Spades": ["1", "1", "0", "0"]}
    assert "3 games together" in text(page.text)
    # Ben and Cy missed alike in (1): level; Ben ahead in (2); in Spades Cy's side won.
    page = logged_in.get(f"/stats/players/{ben}/versus?other={cy}")
    assert rows(page) == {"Oh Hell": ["2", "1", "0", "1"], "Spades": ["1", "0", "1", "0"]}
    # Partners are level: Ann and Cy in Spades.
    page = logged_in.get(f"/stats/players/{ann}/versus?other={cy}")
    assert rows(page) == {"Oh Hell": ["2", "2", "0", "0"], "Spades": ["1", "0", "0", "1"]}
    # Each side's rating over every card game, beside the figures.
    assert "Ann: rating" in text(page.text) and "Cy: rating" in text(page.text)


def test_head_to_head_with_nobody_or_oneself_asks_for_another_player(logged_in, history):
    ann = history["Ann"]
    for query in ("", "?other=", "?other=abc", f"?other={ann}", "?other=%F0%9F%98%80", "?other=-1"):
        page = logged_in.get(f"/stats/players/{ann}/versus{query}")
        assert page.status_code == 200, query
        assert "Choose another player to compare with." in page.text, query
        assert 'name="other"' in page.text  # the choice, with everyone else
        assert f'<option value="{ann}">' not in page.text
    assert logged_in.get(f"/stats/players/{ann}/versus?other=99999").status_code == 404
    assert logged_in.get(f"/stats/players/99999/versus?other={ann}").status_code == 404
    page = logged_in.get(f"/stats/players/{ann}/versus?other={history['Eve']}")
    assert "Ann and Eve have not finished a game together yet." in text(page.text)


def test_another_account_s_player_is_not_found(logged_in, history, other_api):
    stranger = other_api.post("/players", {"name": "Zed"}).get_json()["id"]
    answer = logged_in.get(f"/stats/players/{history['Ann']}/versus?other={stranger}")
    assert answer.status_code == 404


def test_the_player_page_shows_the_rating_after_each_game_as_a_chart_and_a_table(
    api, logged_in, history
):
    ratings = api.get("/ratings").get_json()["ratings"]
    ann = next(line for line in ratings if line["player"] == "Ann")
    page = logged_in.get(f"/stats/players/{history['Ann']}")
    assert page.status_code == 200
    shown = text(page.text)
    assert "Rating Every card game" in shown
    # The chart: one point a game after the newcomer's 0; its table says the same figures.
    chart = re.search(r'<figure class="chart rating-chart".*?</figure>', page.text, re.S)[0]
    points = re.search(r"<polyline points=\"([^\"]+)\"", chart)[1].split()
    assert len(points) == len(ann["history"]) + 1 == 4
    table = re.findall(r'<tr><th scope="row">(\d+)</th><td>([^<]+)</td></tr>', chart)
    assert table == [
        (str(number), f"{point['ordinal']:.1f}")
        for number, point in enumerate(ann["history"], start=1)
    ]
    # Each game's own rating, marked provisional while unsure; and the choice of a rival.
    assert shown.count("provisional") == 3  # every card game, Oh Hell, Spades
    assert f'action="/stats/players/{history["Ann"]}/versus"' in page.text
    lao = logged_in.get(f"/stats/players/{history['Ann']}", headers={"Accept-Language": "lo"})
    assert "ຄະແນນຈັດອັນດັບຫຼັງແຕ່ລະເກມ" in lao.text and "ຕົວຕໍ່ຕົວກັບ" in lao.text


def test_head_to_head_in_bengali_writes_its_figures_in_bengali_digits(logged_in, history):
    page = logged_in.get(
        f"/stats/players/{history['Ann']}/versus?other={history['Ben']}",
        headers={"Accept-Language": "bn"},
    )
    assert "Ann ও Ben" in text(page.text)
    assert rows(page)["স্পেডস"] == ["১", "১", "০", "০"]
    assert "৩ একসঙ্গে খেলা" in text(page.text) and "মুখোমুখি" in page.text


def test_a_long_career_is_drawn_every_few_games_and_its_table_lists_the_last_twenty(app):
    history = [index / 10 for index in range(1, 501)]
    with app.test_request_context():
        drawn = rating_chart("Ann", history)
    points = drawn["lines"][0]["points"].split()
    assert len(points) <= CHART_POINTS + 1
    assert drawn["xticks"][-1]["label"] == "500"  # the last game is always drawn
    assert drawn["lines"][0]["final"] == 50.0
    assert [number for number, _ in drawn["table"]] == list(range(481, 501))
    assert drawn["table"][-1] == (500, 50.0)

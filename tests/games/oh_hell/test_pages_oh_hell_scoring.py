"""Oh Hell's house scoring as free whole numbers (issue 25) through the API and the pages:
every value from 0 to 100 taken, anything else ``option_value`` with every other problem at
once, the steppers and the worked example of the new-game page (said by the server, also
without JavaScript, in the reader's digits), and statistics that never mix formulas."""

from __future__ import annotations

import re

import pytest

from tests.pages import game_id
from tests.pages import html_text
from tests.pages import roster_ids
from tests.pages import start_game

THREE = ["Ann", "Ben", "Cy"]
SCORING = ("made_bonus", "trick_value", "miss_penalty")
BENGALI = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def new_game(api, players=THREE, **options):
    return api.post("/games", {"game": "oh_hell", "players": players, "options": options})


# The API -------------------------------------------------------------------------------------


def test_the_api_takes_every_value_from_0_to_100(api):
    for value in range(101):
        options = {"made_bonus": value, "trick_value": 100 - value, "miss_penalty": value}
        answer = new_game(api, max_cards=1, **options)
        assert answer.status_code == 201, (value, answer.text)
        assert answer.get_json()["options"].items() >= options.items()
    # And the game scores with them: Ann made 1 (bonus + value), Ben missed by one.
    options = {"made_bonus": 37, "trick_value": 4, "miss_penalty": 9, "max_cards": 1}
    state = new_game(api, **options).get_json()
    said = {"bids": {"Ann": 1, "Ben": 1, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    scored = api.post(f"/games/{state['id']}/hands", said).get_json()
    assert scored["totals"] == {"Ann": 41, "Ben": -9, "Cy": 37}


@pytest.mark.parametrize("bad", [-1, 101, 2.5, True, "ten"])
def test_the_api_refuses_anything_else_for_all_three_at_once(api, bad):
    answer = new_game(api, **dict.fromkeys(SCORING, bad))
    assert answer.status_code == 422, answer.text
    errors = answer.get_json()["errors"]
    assert sorted((e["code"], e["field"]) for e in errors) == [
        ("option_value", f"options.{key}") for key in sorted(SCORING)
    ]
    for error in errors:
        assert error["message"].endswith(("must be a whole number.", "must be from 0 to 100."))


def test_the_api_reports_a_bad_value_with_every_other_problem_of_the_setup(api):
    answer = api.post(
        "/games",
        {
            "game": "oh_hell",
            "players": ["Ann", "Ben"],
            "options": {"made_bonus": -1, "trick_value": 2.5, "sequence": "sideways", "x": 1},
        },
    )
    assert answer.status_code == 422
    found = sorted((e["code"], e["field"]) for e in answer.get_json()["errors"])
    assert found == [
        ("option_value", "options.made_bonus"),
        ("option_value", "options.sequence"),
        ("option_value", "options.trick_value"),
        ("player_count", "players"),
        ("unknown_option", "options.x"),
    ]


def test_a_rule_set_keeps_any_values(api):
    options = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5, "miss_scoring": "per_trick"}
    saved = api.post("/rulesets", {"game": "oh_hell", "name": "Five", "options": options})
    assert saved.status_code == 201, saved.text
    assert api.get("/rulesets").get_json()["rule_sets"][0]["options"] == options
    refused = api.post(
        "/rulesets", {"game": "oh_hell", "name": "Bad", "options": {"made_bonus": 101}}
    )
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["code"] == "option_value"


# The new-game page ---------------------------------------------------------------------------


def field(html: str, key: str) -> str:
    found = re.search(rf'<input type="number"[^>]*name="opt-{key}"[^>]*>', html)
    assert found, key
    return found.group(0)


def example(html: str) -> str:
    found = re.search(r'<p class="example(?: error)?" id="worked-example"[^>]*>(.*?)</p>', html)
    assert found, "no worked example"
    parts = re.findall(r'<span class="part">([^<]*)</span>', found.group(1))
    assert re.sub(r"<[^>]+>", "", found.group(1)) == " · ".join(parts)
    return html_text(" · ".join(parts))


def test_the_new_game_page_has_the_three_values_with_steppers_and_the_example(table):
    page = table.get("/games/new?game=oh_hell").text
    for key, default in zip(SCORING, (10, 1, 0), strict=True):
        tag = field(page, key)
        assert f'value="{default}"' in tag and 'min="0"' in tag and 'max="100"' in tag
        assert re.search(rf'data-step="-1" aria-controls="opt-{key}"', page)
        assert re.search(rf'data-step="1" aria-controls="opt-{key}"', page)
    assert example(page) == (
        "bid 2, took 2: 12 points · bid 1, took 3: 0 points · bid 0, took 0: 10 points"
    )
    # The example comes right after the last of the values it depends on.
    assert page.index('name="opt-miss_penalty"') < page.index('id="worked-example"')
    assert page.index('id="worked-example"') < page.index('name="opt-must_trump"')
    # The default preset reads "Standard".
    assert ">Standard</button>" in page and "Seed rules" not in page


def alone(app, table, **typed: str):
    """The new-game form sent with Ann alone at the table (refused: the form comes back) and
    the options as typed."""
    form = {"game": "oh_hell", f"seat-{roster_ids(app)['Ann']}": "1"}
    form |= {f"opt-{key}": value for key, value in typed.items()}
    page = table.post("/games/new?game=oh_hell", data=form)
    assert page.status_code == 422
    return page


def test_without_javascript_a_submit_says_the_example_of_the_values_sent(app, table):
    five = {"trick_value": "1", "miss_penalty": "5", "miss_scoring": "zero"}
    page = alone(app, table, made_bonus="5", **five)
    assert 'value="5"' in field(page.text, "made_bonus")
    assert example(page.text) == (
        "bid 2, took 2: 7 points · bid 1, took 3: −10 points · bid 0, took 0: 5 points"
    )
    page = alone(app, table, made_bonus="101", **five)
    assert "Exact-bid bonus must be from 0 to 100." in html_text(page.text)
    assert 'value="101"' in field(page.text, "made_bonus")
    # In the example's place, what is wrong (as the page's script says it).
    assert example(page.text) == "Exact-bid bonus must be from 0 to 100."
    assert 'class="example error" id="worked-example"' in page.text


def test_a_submit_says_every_problem_at_once_and_keeps_what_was_typed(app, table):
    bad = {"made_bonus": "2.5", "trick_value": "-1", "miss_penalty": "ten"}
    page = alone(app, table, sequence="sideways", **bad)
    errors = [html_text(e) for e in re.findall(r'<p class="error">([^<]*)</p>', page.text)]
    for said in (
        "This game needs 3 to 7 players; 1 chosen.",
        "Exact-bid bonus must be a whole number.",
        "Points per trick must be from 0 to 100.",
        "Penalty per trick off must be a whole number.",
    ):
        assert said in errors, (said, errors)
    assert any(e.startswith("Cards per hand must be one of") for e in errors), errors
    # Each message beside its field, each field as typed.
    for key, typed in bad.items():
        assert f'value="{typed}"' in field(page.text, key)
        box = re.search(rf'<div class="field has-error">\s*<label for="opt-{key}">', page.text)
        assert box, key
    assert example(page.text) == (
        "Exact-bid bonus must be a whole number. Points per trick must be from 0 to 100. "
        "Penalty per trick off must be a whole number."
    )
    # The seat kept too.
    seat = f'name="seat-{roster_ids(app)["Ann"]}"'
    assert re.search(rf'{seat}[^>]*>.*?value="1" selected', page.text, re.S)


def test_a_rule_set_saved_on_the_page_keeps_any_values(app, table, api):
    form = {"game": "oh_hell", "opt-made_bonus": "7", "opt-trick_value": "3"}
    form |= {"opt-miss_penalty": "2", "opt-miss_scoring": "per_trick"}
    saved = table.post(
        "/games/new?game=oh_hell", data=form | {"rule_set_name": "Seven", "save_rule_set": "1"}
    )
    assert saved.status_code == 200
    kept = api.get("/rulesets").get_json()["rule_sets"][0]["options"]
    assert (kept["made_bonus"], kept["trick_value"], kept["miss_penalty"]) == (7, 3, 2)
    set_id = re.search(r'name="rule_set" value="(\d+)"', saved.text).group(1)
    page = table.get(f"/games/new?game=oh_hell&rule_set={set_id}").text
    for key, value in (("made_bonus", 7), ("trick_value", 3), ("miss_penalty", 2)):
        assert f'value="{value}"' in field(page, key)
    assert example(page) == (
        "bid 2, took 2: 13 points · bid 1, took 3: 5 points · bid 0, took 0: 7 points"
    )
    # Values the rules do not take are not saved, and all are said at once.
    bad = table.post(
        "/games/new?game=oh_hell",
        data={"game": "oh_hell", "opt-made_bonus": "2.5", "opt-miss_penalty": "101"}
        | {"rule_set_name": "Bad", "save_rule_set": "1"},
    )
    assert bad.status_code == 422
    said = html_text(bad.text)
    assert "Exact-bid bonus must be a whole number." in said
    assert "Penalty per trick off must be from 0 to 100." in said
    assert len(api.get("/rulesets").get_json()["rule_sets"]) == 1


def test_a_preset_fills_the_values_and_the_example(app, table):
    page = table.post(
        "/games/new?game=oh_hell", data={"game": "oh_hell", "preset": "wizard_scoring"}
    )
    assert page.status_code == 200
    assert 'value="20"' in field(page.text, "made_bonus")
    assert 'value="10"' in field(page.text, "trick_value")
    assert 'value="10"' in field(page.text, "miss_penalty")
    assert example(page.text) == (
        "bid 2, took 2: 40 points · bid 1, took 3: −20 points · bid 0, took 0: 20 points"
    )


def test_a_game_started_from_the_page_scores_with_the_values_typed(app, table, api):
    game = game_id(
        start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, max_cards=3,
                   sequence="down", made_bonus=5, trick_value=5, miss_penalty=5,
                   miss_scoring="per_trick")
    )  # fmt: skip
    state = api.get(f"/games/{game}").get_json()
    assert [state["options"][key] for key in SCORING] == [5, 5, 5]
    said = {"bids": {"Ann": 3, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 1, "Cy": 1}}
    assert api.post(f"/games/{game}/hands", said).get_json()["totals"] == {
        "Ann": -5, "Ben": 0, "Cy": 0,
    }  # fmt: skip
    page = table.get(f"/games/{game}").text
    assert "Exact bid: 5 + 5 per trick. Missed: 5 per trick taken, −5 per trick off." in page


def test_the_example_is_said_again_for_any_values(table):
    answer = table.get(
        "/games/new/example?game=oh_hell&opt-made_bonus=5&opt-trick_value=1&opt-miss_penalty=5"
        "&opt-miss_scoring=zero"
    )
    assert answer.status_code == 200
    assert answer.get_json() == {
        "example": "bid 2, took 2: 7 points · bid 1, took 3: −10 points · bid 0, took 0: 5 points",
        "problems": [],
        "summary": "Exact-bid bonus: 5 · Penalty per trick off: 5",
    }
    answer = table.get(
        "/games/new/example?game=oh_hell&opt-made_bonus=5&opt-trick_value=5&opt-miss_penalty=5"
        "&opt-miss_scoring=per_trick&opt-zero_bid_bonus=y"
    )
    assert answer.get_json()["example"] == (
        "bid 2, took 2: 15 points · bid 1, took 3: 5 points · "
        "bid 0, took 0 in a 5-card hand: 10 points"
    )
    bad = table.get("/games/new/example?game=oh_hell&opt-made_bonus=101&opt-miss_penalty=x")
    said = bad.get_json()
    assert said["example"] is None and said["problems"] == [
        "Exact-bid bonus must be from 0 to 100.",
        "Penalty per trick off must be a whole number.",
    ]
    assert said["summary"] == "Standard"  # the values refused play no part in it
    bad = table.get("/games/new/example?game=oh_hell&opt-made_bonus=101&opt-trick_value=-3")
    assert bad.get_json()["problems"] == [
        "Exact-bid bonus must be from 0 to 100.",
        "Points per trick must be from 0 to 100.",
    ]
    assert table.get("/games/new/example?game=chess").status_code == 404
    other = table.get("/games/new/example?game=pitch").get_json()
    assert (other["example"], other["problems"]) == (None, [])


def test_the_example_is_in_the_readers_digits(table):
    table.post("/language", data={"code": "bn", "next": "/"})
    page = table.get("/games/new?game=oh_hell").text
    said = example(page)
    assert "১২" in said and "১০" in said and "12" not in said
    answer = table.get(
        "/games/new/example?game=oh_hell&opt-made_bonus=5&opt-trick_value=1&opt-miss_penalty=5"
    ).get_json()["example"]
    assert "−১০" in answer and "৭" in answer and not re.search(r"[0-9]", answer)


def test_the_example_needs_a_login(client):
    assert client.get("/games/new/example?game=oh_hell").status_code in (302, 401)


# Statistics and leaderboards compare like with like ------------------------------------------


def test_five_five_five_games_are_never_averaged_with_standard_ones(app, api, logged_in):
    five = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5}
    said = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    for options in ({}, five, five, {"made_bonus": 6, "trick_value": 5, "miss_penalty": 5}):
        state = new_game(api, max_cards=1, **options).get_json()
        api.post(f"/games/{state['id']}/hands", said)
    board = api.get("/leaderboards/oh_hell?variant=custom:5/5/5").get_json()
    assert board["plays"] == 2
    ann = next(line for line in board["players"] if line["player"]["name"] == "Ann")
    assert (ann["played"], ann["average_score"]) == (2, 10)  # 5 + 5 x 1 each time
    standard = api.get("/leaderboards/oh_hell?variant=seed").get_json()
    ann = next(line for line in standard["players"] if line["player"]["name"] == "Ann")
    assert (ann["played"], ann["average_score"]) == (1, 11)
    labels = {v["variant"]: v["label"] for v in board["variants"]}
    assert labels == {
        "custom:5/5/5": "Scoring 5/5/5",
        "custom:6/5/5": "Scoring 6/5/5",
        "seed": "Standard",
    }
    page = logged_in.get("/stats/oh_hell?variant=custom:5/5/5").text
    assert "Scoring 5/5/5" in page
    player = next(line for line in board["players"] if line["player"]["name"] == "Ann")
    mine = logged_in.get(f"/stats/players/{player['player']['id']}").text
    assert "Scoring 5/5/5</a>: 2 games, 2 won" in mine

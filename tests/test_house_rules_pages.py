"""House rules on the pages and in the API: presets fill the options in one tap, saved rule
sets start games in one tap and never change a game already played, custom hand sizes, the
last hand without trump, how the game scores in plain words, leaderboards by preset."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game


def seats(app, *names) -> dict:
    ids = roster_ids(app)
    return {f"seat-{ids[name]}": str(seat) for seat, name in enumerate(names, start=1)}


def test_a_preset_fills_the_options_without_starting_the_game(app, table):
    form = {"game": "oh_hell", **seats(app, "Ann", "Ben", "Cy"), "preset": "wizard_scoring"}
    page = table.post("/games/new?game=oh_hell", data=form)
    assert page.status_code == 200
    assert "Wizard scoring: the options are filled in" in page.text
    assert re.search(r'name="opt-made_bonus"[^>]* value="20"', page.text)
    assert re.search(r'name="opt-miss_penalty"[^>]* value="10"', page.text)
    assert re.search(
        rf'name="seat-{roster_ids(app)["Ann"]}"[^>]*>.*?value="1" selected', page.text, re.S
    )
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0
    for label in ("Standard", "Nomination Whist", "Penalty", "Wizard scoring"):
        assert f">{label}</button>" in page.text


def test_a_game_says_how_it_scores(app, table, api):
    game = game_id(
        start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3},
                   made_bonus=20, trick_value=10, miss_penalty=10)
    )  # fmt: skip
    page = table.get(f"/games/{game}").text
    assert "Exact bid: 20 + 10 per trick. Missed: −10 per trick off." in page
    assert "The last hand is played without trump." in page
    sent = {"bids": {"Ann": 1, "Ben": 0, "Cy": 1}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    state = api.post(f"/games/{game}/hands", sent).get_json()
    assert state["totals"] == {"Ann": 30, "Ben": 20, "Cy": -10}


def test_the_last_hand_of_a_default_game_shows_no_trump(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, max_cards=2))
    said = {"Ann": 1, "Ben": 0, "Cy": 0}
    api.post(f"/games/{game}/hands", {"bids": said, "tricks": said})
    page = table.get(f"/games/{game}").text
    assert re.search(r"Hand 2 <span class=\"sub\">of 2</span>", page)
    assert '<span class="pill notrump">No trump</span>' in page
    assert 'name="trump"' not in page


def test_custom_hand_sizes_on_the_new_game_page(app, table, api):
    ok = start_game(
        table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, sequence="custom",
        custom_sizes="7, 7; 3",
    )  # fmt: skip
    state = api.get(f"/games/{game_id(ok)}").get_json()
    assert state["options"]["custom_sizes"] == [7, 7, 3] and state["next"]["cards"] == 7
    bad = start_game(
        table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, sequence="custom",
        custom_sizes="7, x",
    )  # fmt: skip
    assert bad.status_code == 422 and "like 7, 7, 7" in bad.text
    assert 'value="7, x"' in bad.text


def test_a_saved_rule_set_starts_games_and_never_changes_one_played(app, table, api):
    form = {
        "game": "oh_hell", "opt-hook": "y", "opt-miss_penalty": "5",
        "rule_set_name": "Friday rules", "save_rule_set": "1",
    }  # fmt: skip
    saved = table.post("/games/new?game=oh_hell", data=form)
    assert saved.status_code == 200 and "Rule set “Friday rules” saved" in saved.text
    choose = table.get("/games/new").text
    link = re.search(r'href="(/games/new\?game=oh_hell&amp;rule_set=(\d+))"', choose)
    assert link and "Oh Hell with <strong>Friday rules</strong>" in choose
    prefilled = table.get(link.group(1).replace("&amp;", "&")).text
    assert re.search(r'name="opt-hook" value="y" checked', prefilled)
    assert re.search(r'name="opt-miss_penalty"[^>]* value="5"', prefilled)
    game = game_id(
        start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, hook=True, miss_penalty=5)
    )
    rule_set_id = int(link.group(2))
    answer = api.post(
        "/rulesets", {"game": "oh_hell", "name": "friday RULES", "options": {"miss_penalty": 10}}
    )
    assert answer.status_code == 201 and answer.get_json()["id"] == rule_set_id  # replaced
    assert api.get(f"/games/{game}").get_json()["options"]["miss_penalty"] == 5  # unchanged
    listed = api.get("/rulesets").get_json()["rule_sets"]
    assert [(r["name"], r["options"]) for r in listed] == [("friday RULES", {"miss_penalty": 10})]
    refused = api.post("/rulesets", {"game": "oh_hell", "name": "x", "options": {"hook": 2}})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["code"] == "option_value"
    forget = table.post(
        "/games/new?game=oh_hell", data={"game": "oh_hell", "forget_rule_set": str(rule_set_id)}
    )
    assert "forgotten" in forget.text
    assert api.get("/rulesets").get_json()["rule_sets"] == []
    assert api.delete(f"/rulesets/{rule_set_id}").status_code == 404


def test_leaderboards_compare_like_with_like(app, api, logged_in):
    for options in ({}, {"miss_penalty": 5}, {"miss_penalty": 5}):
        state = api.post(
            "/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"],
                       "options": {"max_cards": 1, **options}},
        ).get_json()  # fmt: skip
        winner = "Ann" if options else "Ben"
        said = {name: int(name == winner) for name in ("Ann", "Ben", "Cy")}
        api.post(f"/games/{state['id']}/hands", {"bids": said, "tricks": said})
    everything = logged_in.get("/stats/oh_hell").text
    penalty = logged_in.get("/stats/oh_hell?variant=penalty").text
    seed = logged_in.get("/stats/oh_hell?variant=seed").text

    def board(text):
        return re.findall(r'<th scope="row"><a href="/stats/players/\d+">(\w+)</a>', text)

    assert len(board(everything)) == 3
    assert board(penalty)[0] == "Ann" and board(seed)[0] == "Ben"
    assert "<td>2</td>" in penalty and "<td>1</td>" in seed


def test_every_form_leaves_checking_to_the_app(app, table, api):
    """novalidate everywhere: the browser's own bubbles never replace the app's messages."""
    state = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    said = {"Ann": 1, "Ben": 0, "Cy": 0}
    api.post(f"/games/{state['id']}/hands", {"bids": said, "tricks": said})
    urls = ["/", "/players/", "/games/new?game=oh_hell", f"/games/{state['id']}",
            f"/games/{state['id']}/hands/1/edit", f"/games/{state['id']}/table",
            f"/games/{state['id']}/delete", f"/games/{state['id']}/share", "/nights/",
            "/nights/new", "/backup"]  # fmt: skip
    for url in urls:
        page = table.get(url)
        assert page.status_code == 200, url
        forms = re.findall(r"<form\b[^>]*>", page.text)
        assert forms, url
        assert all("novalidate" in form for form in forms), (url, forms)

"""The Table panel on the pages (issue 20): each change Oh Hell allows, made from its form,
goes back to the game saying it; Spades shows only what it allows; a refusal stays beside
its field with what was typed; the last change is undone from the panel; CSRF is checked."""

from __future__ import annotations

import re

import pytest

from tests.pages import csrf_token
from tests.pages import text
from tests.test_table_changes_service import FOUR
from tests.test_table_changes_service import OPENING


def opened(api, logged_in, kind="oh_hell", **options) -> int:
    """A game of FOUR (Oh Hell: three hands played), and Eve on the roster."""
    logged_in.post("/players/", data={"name": "Eve"}, follow_redirects=True)
    answer = api.post("/games", {"game": kind, "players": FOUR, "options": options})
    game = answer.get_json()["id"]
    if kind == "oh_hell":
        for number, entry in enumerate(OPENING, start=1):
            api.post(f"/games/{game}/hands", {**entry, "number": number})
    return game


def send(client, game: int, **form):
    return client.post(f"/games/{game}/table/changes", data={"before_hand": "", **form})


def flashed(client, answer) -> str:
    assert answer.status_code == 302, answer.text
    page = client.get(answer.headers["Location"])
    found = re.search(r'class="flash flash-success">([^<]*)<', page.text)
    return text(found.group(1)) if found else ""


def test_the_game_page_links_to_the_panel_with_only_what_the_game_allows(api, logged_in):
    game = opened(api, logged_in)
    page = logged_in.get(f"/games/{game}")
    assert f'href="/games/{game}/table/changes"' in page.text
    panel = logged_in.get(f"/games/{game}/table/changes")
    assert panel.status_code == 200
    for kind in ("join", "leave", "sit_out", "substitute", "adjust", "schedule"):
        assert f'id="change-{kind}"' in panel.text
    # The figures each starting total gives now (the last place 20, the average 29).
    words = text(panel.text)
    assert "Last place: starts on 20" in words
    assert "Zero: starts on 0" in words
    assert "The average: starts on 29" in words
    assert "Eve" in words


def test_spades_offers_only_a_substitute_and_points(api, logged_in, monkeypatch):
    from scorekeeper.games import GAMES

    game = opened(api, logged_in, kind="spades")
    allowed = GAMES["spades"].rules.table_changes(api.get(f"/games/{game}").get_json()["options"])
    panel = logged_in.get(f"/games/{game}/table/changes")
    if not allowed:  # Spades' rules not finished yet: no panel, and no link to one
        assert panel.status_code == 404
        assert "/table/changes" not in logged_in.get(f"/games/{game}").text
        rules = type(GAMES["spades"].rules)
        monkeypatch.setattr(rules, "table_changes", lambda self, o: ("substitute", "adjust"))
        panel = logged_in.get(f"/games/{game}/table/changes")
    assert panel.status_code == 200
    shown = re.findall(r'id="change-(\w+)"', panel.text)
    assert shown == ["substitute", "adjust"]
    assert "Ann &amp; Cy" in panel.text  # points for a team


def test_a_join_after_a_seat_with_a_typed_total(api, logged_in):
    game = opened(api, logged_in)
    answer = send(
        logged_in, game, kind="join", player="Eve", after="Ann", score="number", score_number="-5"
    )
    assert flashed(logged_in, answer) == "Eve joins after Ann, starting on −5."
    state = api.get(f"/games/{game}").get_json()
    assert state["players"] == ["Ann", "Eve", "Ben", "Cy", "Dee"]
    assert state["totals"]["Eve"] == -5


def test_a_new_name_typed_joins_and_the_default_is_last_place(api, logged_in):
    game = opened(api, logged_in)
    answer = send(logged_in, game, kind="join", new_player="Zoe", score="last", after="")
    assert flashed(logged_in, answer) == "Zoe joins, starting on 20."


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"kind": "leave", "player": "Dee"}, "Dee leaves the game."),
        ({"kind": "sit_out", "player": "Cy"}, "Cy sits out hand 4."),
        ({"kind": "substitute", "player": "Ben", "by": "Eve"}, "Eve takes over from Ben."),
        ({"kind": "substitute", "player": "Ben", "new_by": "Gus"}, "Gus takes over from Ben."),
        (
            {"kind": "adjust", "player": "Cy", "points": "-10", "note": "renege"},
            "Cy: −10 points (renege).",
        ),
        (
            {"kind": "schedule", "size": ["6", "7", "9", "2"], "drop": ["2"]},
            "3 hands still to play: 6, 7, 2 cards.",
        ),
        ({"kind": "schedule", "size": ["4", "5", ""], "end": "1"}, "The game ends here."),
    ],
)
def test_each_change_goes_back_to_the_game_saying_it(api, logged_in, form, said):
    game = opened(api, logged_in)
    assert flashed(logged_in, send(logged_in, game, **form)) == said


def test_the_staircase_shows_the_hands_still_to_play(api, logged_in):
    game = opened(api, logged_in)
    assert api.get(f"/games/{game}").get_json()["next"]["schedule"] == list(range(4, 14))
    panel = logged_in.get(f"/games/{game}/table/changes?kind=schedule")
    values = re.findall(
        r'name="size" inputmode="numeric" maxlength="2" class="short" value="(\d*)"', panel.text
    )
    assert values == [str(cards) for cards in range(4, 14)] + [""]


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "join", "new_player": "Ann"}, "Ann is already at the table."),
        (
            {"kind": "join", "player": "Eve", "score": "number", "score_number": "lots"},
            "The starting total must be a whole number.",
        ),
        (
            {"kind": "adjust", "player": "Cy", "points": "x7", "note": "renege"},
            "The points must be a whole number.",
        ),
        (
            {"kind": "adjust", "player": "Cy", "points": "5", "note": "n" * 201},
            "The note may be at most 200 characters.",
        ),
        (
            {"kind": "adjust", "player": "Cy", "points": "5", "note": "re\x07nege"},
            "The note holds an invisible or control character (U+0007 a control character): "
            "type it again without it.",
        ),
        ({"kind": "schedule", "size": ["4", "99", ""]}, "At most 40 hands, each of 1 to 13 cards."),
        ({"kind": "sit_out", "player": "Zed"}, "Zed is not at the table."),
        ({"kind": "leave", "player": ""}, "Name the player."),
    ],
)
def test_a_refusal_is_shown_beside_its_field_keeping_what_was_typed(api, logged_in, form, message):
    game = opened(api, logged_in)
    answer = send(logged_in, game, **form)
    assert answer.status_code in (400, 422)  # wrong_type, or the rules' refusal
    card = re.search(rf'id="change-{form["kind"]}" open>(.*?)</details>', answer.text, re.S)
    assert card, "the refused form is open"
    assert f'<p class="error" role="alert">{message}</p>' in card.group(1)
    for key, typed in form.items():
        if key in ("kind", "player") or not typed:
            continue
        for value in typed if isinstance(typed, list) else [typed]:
            if value:
                assert f'value="{value}"' in card.group(1), key
    if form.get("player") in FOUR:
        assert f'value="{form["player"]}"\n      checked' in card.group(1)
    assert api.get(f"/games/{game}").get_json()["changes"] == []


def test_a_change_while_a_hand_is_open_is_refused_and_the_panel_says_so(api, logged_in):
    game = opened(api, logged_in)
    api.post(f"/games/{game}/hands", {"number": 4, "bids": dict.fromkeys(FOUR, 1)})
    panel = logged_in.get(f"/games/{game}/table/changes")
    assert "Finish the hand being played before changing the table." in text(panel.text)
    answer = send(logged_in, game, kind="leave", player="Dee")
    assert answer.status_code == 422
    assert "Finish the hand being played before changing the table." in text(answer.text)


def test_the_last_change_is_undone_from_the_panel(api, logged_in):
    game = opened(api, logged_in)
    send(logged_in, game, kind="leave", player="Dee")
    state = api.get(f"/games/{game}").get_json()
    (change,) = state["changes"]
    panel = logged_in.get(f"/games/{game}/table/changes")
    assert "Undo this change" in panel.text
    answer = logged_in.post(f"/games/{game}/table/changes/{change['id']}/remove")
    assert flashed(logged_in, answer) == "Change undone: Dee leaves the game."
    assert api.get(f"/games/{game}").get_json()["changes"] == []
    gone = logged_in.post(f"/games/{game}/table/changes/{change['id']}/remove")
    assert gone.status_code == 404


def test_a_stale_panel_goes_back_to_the_panel_saying_why(api, logged_in):
    game = opened(api, logged_in)
    answer = send(logged_in, game, kind="leave", player="Dee", before_hand="2")
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/games/{game}/table/changes")


def test_a_game_that_allows_no_change_has_no_panel(api, logged_in, monkeypatch):
    from scorekeeper.games import GAMES

    game = opened(api, logged_in)
    monkeypatch.setattr(type(GAMES["oh_hell"].rules), "table_changes", lambda self, options: ())
    assert "/table/changes" not in logged_in.get(f"/games/{game}").text
    assert logged_in.get(f"/games/{game}/table/changes").status_code == 404


def guarded_game(make_app, players=FOUR):
    """With CSRF on as in production: a client logged in through the login form, the API,
    and a game of ``players``."""
    from tests.conftest import Api
    from tests.conftest import login
    from tests.conftest import new_token

    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    login(client, csrf_token=csrf_token(client.get("/login").text))
    api = Api(app.test_client(), new_token(app.test_client()))
    game = api.post("/games", {"game": "oh_hell", "players": players}).get_json()["id"]
    return client, api, game


def test_the_panel_forms_need_the_csrf_token(make_app, account):
    client, api, game = guarded_game(make_app)
    refused = client.post(f"/games/{game}/table/changes", data={"kind": "leave", "player": "Dee"})
    assert refused.status_code == 400
    token = csrf_token(client.get(f"/games/{game}/table/changes").text)
    done = client.post(
        f"/games/{game}/table/changes",
        data={"kind": "leave", "player": "Dee", "csrf_token": token},
    )
    assert done.status_code == 302


def test_the_game_page_is_shown_after_a_late_join(api, logged_in):
    """Eve, dealt into the next hand but not of the starting table, has her row to bid in
    (a seat number of her own) and her "made" note counts only her hands."""
    game = opened(api, logged_in)
    send(logged_in, game, kind="join", player="Eve")
    page = logged_in.get(f"/games/{game}")
    assert page.status_code == 200
    assert 'data-player="Eve"' in page.text


def test_a_score_pad_played_to_a_number_of_rounds_offers_its_rounds(api, logged_in, monkeypatch):
    """Shown when the score pad's rules allow the schedule (its end is "rounds")."""
    from scorekeeper.games import GAMES

    options = {"name": "Darts", "end": "rounds", "rounds": 3}
    game = opened(api, logged_in, kind="score_pad", **options)
    state = api.get(f"/games/{game}").get_json()
    rules = GAMES["score_pad"].rules
    if "schedule" not in rules.table_changes(state["options"]):
        # The score pad's rules are being finished: its own part of the panel, shown.
        monkeypatch.setattr(type(rules), "table_changes", lambda self, options: ("schedule",))
        panel = logged_in.get(f"/games/{game}/table/changes?kind=schedule")
        assert 'name="rounds"' in panel.text and 'value="3"' in panel.text
        pytest.skip("the score pad's rules allow no schedule change yet")
    panel = logged_in.get(f"/games/{game}/table/changes?kind=schedule")
    assert 'name="rounds"' in panel.text and 'value="3"' in panel.text
    answer = send(logged_in, game, kind="schedule", rounds="5")
    assert flashed(logged_in, answer) == "The game is now 5 rounds."
    refused = send(logged_in, game, kind="schedule", rounds="many")
    assert refused.status_code == 400
    assert 'value="many"' in refused.text

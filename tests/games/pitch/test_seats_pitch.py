"""Auction Pitch from the players' own phones (RULES.md, "Every game: each player on their own
phone"; API.md, "Each player on their own phone"): each seat makes its own call of the auction
in turn (``PUT /api/v1/seat/entry {"call": "pass" | int}``), refused with the codes and
messages the scorekeeper's auction gets, plus ``not_your_turn``; the last call opens the hand
exactly as the scorekeeper's auction would, and the scorekeeper enters the points."""

from __future__ import annotations

import html
import re

import pytest

from tests.test_seats import Seat
from tests.test_seats import link_token
from tests.test_seats import read_events
from tests.test_seats import seats_for

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: Ann deals the first hand: Ben calls first, then Cy, Dee, and Ann last.
ORDER = ["Ben", "Cy", "Dee", "Ann"]


def new_game(api, players=PLAYERS, **options) -> int:
    body = {"game": "pitch", "players": players, "options": options}
    response = api.post("/games", body)
    assert response.status_code == 201, response.text
    return response.get_json()["id"]


def call(phone: Seat, value, status=200) -> dict:
    response = phone.api.request("PUT", "/seat/entry", json={"call": value})
    assert response.status_code == status, response.text
    return response.get_json()


def refusal(answer: dict) -> tuple[str, str]:
    error = answer["errors"][0]
    return error["code"], error["message"]


def scorekeeper_refusal(api, calls: list, **options) -> tuple[str, str]:
    """What the scorekeeper's own auction gets for the same calls (a game of its own)."""
    game = new_game(api, **options)
    auction = [[name, value] for name, value in zip(ORDER, calls, strict=False)]
    auction += [[name, "pass"] for name in ORDER[len(calls) :]]
    response = api.post(f"/games/{game}/hands", {"auction": auction})
    assert response.status_code == 422, response.text
    return refusal(response.get_json())


def test_calls_in_turn_open_the_hand_as_the_scorekeeper_s_auction_would(app, api):
    game = new_game(api)
    assert api.get(f"/games/{game}").get_json()["next"]["order"] == ORDER
    phones = seats_for(app, api, game)
    ben, cy, dee, ann = (phones[name] for name in ORDER)

    early = call(cy, "pass", status=422)
    assert refusal(early) == ("not_your_turn", "It is Ben's turn to bid.")
    first = call(ben, 2)["draft"]
    assert first["entries"] == {"Ben": 2}
    assert first["turn"] == "Cy" and first["waiting"] == ["Cy", "Dee", "Ann"]
    assert first["choices"] == ["pass", 3, 4]  # a bid above the high bid of 2, or pass
    assert refusal(call(ben, 3, status=422))[0] == "not_your_turn"  # Ben has called

    # A call not above the high bid: the scorekeeper's code and message, nothing kept.
    low = call(cy, 2, status=422)
    said = "Hand 1: The high bid is 2: Cy must bid more than 2 or pass."
    assert refusal(low) == ("bid_not_higher", said)
    assert refusal(low) == scorekeeper_refusal(api, [2, 2])
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {"Ben": 2}

    assert call(cy, "pass")["draft"]["entries"] == {"Ben": 2, "Cy": "pass"}
    seen = call(dee, 3)["draft"]
    assert seen["turn"] == "Ann" and seen["choices"] == ["pass", 3, 4]  # the dealer may steal
    opened = call(ann, 3)
    assert opened["draft"] is None  # the hand is open: its points come next
    hand = opened["state"]["hands"][0]
    assert hand["status"] == "playing"
    assert (hand["pitcher"], hand["bid"], hand["stolen"]) == ("Ann", 3, True)
    auction = [["Ben", 2], ["Cy", "pass"], ["Dee", 3], ["Ann", 3]]
    assert hand["input"] == {"auction": auction}
    assert opened["state"]["next"]["pitcher"] == "Ann" and opened["state"]["next"]["bid"] == 3

    # Exactly as if the scorekeeper had entered the auction itself.
    same = new_game(api)
    entered = api.post(f"/games/{same}/hands", {"auction": auction})
    assert entered.status_code == 201, entered.text
    mine = api.get(f"/games/{game}").get_json()
    theirs = entered.get_json()
    assert mine["hands"] == theirs["hands"] and mine["next"] == theirs["next"]

    # Nothing more from the phones: the scorekeeper enters the points as today.
    after = call(ben, "pass", status=422)
    assert refusal(after)[0] == "not_your_turn"
    done = api.patch(
        f"/games/{game}/hands/1", {"high": "Ann", "low": "Dee", "jack": "Ann", "game": "Ann"}
    )
    assert done.status_code == 200, done.text
    scored = api.get(f"/games/{game}").get_json()
    assert scored["hands"][0]["status"] == "scored"
    assert scored["totals"] == {"Ann": 3, "Ben": 0, "Cy": 0, "Dee": 1}
    # Hand 2: Ben deals, Cy calls first.
    assert call(cy, "pass")["draft"]["turn"] == "Dee"


def test_a_pitch_of_four_leaves_the_others_only_a_pass_filled_in(app, api):
    game = new_game(api)
    phones = seats_for(app, api, game)
    opened = call(phones["Ben"], 4)
    assert opened["draft"] is None
    hand = opened["state"]["hands"][0]
    passes = [["Cy", "pass"], ["Dee", "pass"], ["Ann", "pass"]]
    assert hand["input"]["auction"] == [["Ben", 4], *passes]
    assert (hand["pitcher"], hand["bid"], hand["status"]) == ("Ben", 4, "playing")


def test_the_dealer_everyone_passed_to_must_bid_at_least_two(app, api):
    game = new_game(api)
    phones = seats_for(app, api, game)
    for name in ORDER[:3]:
        seen = call(phones[name], "pass")
    assert seen["draft"]["turn"] == "Ann" and seen["draft"]["choices"] == [2, 3, 4]
    passed = call(phones["Ann"], "pass", status=422)
    assert refusal(passed)[0] == "dealer_must_bid"
    assert refusal(passed) == scorekeeper_refusal(api, ["pass", "pass", "pass", "pass"])
    one = call(phones["Ann"], 1, status=422)
    assert refusal(one) == scorekeeper_refusal(api, ["pass", "pass", "pass", 1])
    assert refusal(one)[0] == "dealer_min_bid"
    hand = call(phones["Ann"], 2)["state"]["hands"][0]
    assert (hand["pitcher"], hand["bid"], hand["stolen"]) == ("Ann", 2, False)


def test_no_steal_and_the_lowest_bid_of_two_are_the_game_s_own(app, api):
    game = new_game(api, min_bid=2, dealer_may_steal=False)
    phones = seats_for(app, api, game)
    assert call(phones["Ben"], "pass")["draft"]["choices"] == ["pass", 2, 3, 4]
    one = call(phones["Cy"], 1, status=422)
    assert refusal(one)[0] == "bid_invalid"
    assert refusal(one) == scorekeeper_refusal(api, ["pass", 1], min_bid=2)
    seen = call(phones["Cy"], 2)
    call(phones["Dee"], "pass")
    seen = api.get(f"/games/{game}/draft").get_json()
    assert seen["turn"] == "Ann" and seen["choices"] == ["pass", 3, 4]  # no steal at 2
    refused = call(phones["Ann"], 2, status=422)
    assert refusal(refused)[0] == "bid_not_higher"
    assert "may not steal" in refusal(refused)[1]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"call": "fold"}, 400, None),
        ({"call": True}, 400, None),
        ({"call": None}, 400, "wrong_type"),
        ({"bid": 2}, 400, "wrong_type"),
        ({"call": 2, "points": 1}, 400, "wrong_type"),
        ({"call": 5}, 422, "bid_invalid"),
        ({"call": 0}, 422, "bid_invalid"),
    ],
)
def test_a_call_that_is_no_call_is_refused_and_nothing_is_kept(app, api, body, status, code):
    game = new_game(api)
    ben = seats_for(app, api, game, ["Ben"])["Ben"]
    response = ben.api.request("PUT", "/seat/entry", json=body)
    assert response.status_code == status, response.text
    if code is not None:
        assert response.get_json()["errors"][0]["code"] == code
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {}


def test_a_seat_token_of_a_pitch_game_can_only_make_its_own_call(app, api):
    game = new_game(api)
    ben = seats_for(app, api, game, ["Ben"])["Ben"]
    auction = [[name, "pass" if name != "Ann" else 2] for name in ORDER]
    for method, path, body in [
        ("GET", f"/games/{game}", None),
        ("POST", f"/games/{game}/hands", {"auction": auction}),
        ("PUT", f"/games/{game}/draft", {"player": "Cy", "value": "pass"}),
        ("DELETE", f"/games/{game}/draft", None),
        ("GET", f"/games/{game}/draft", None),
        ("PATCH", f"/games/{game}/hands/1", {"high": "Ben"}),
        ("POST", f"/games/{game}/seat-link", None),
        ("DELETE", f"/games/{game}/seats/Cy/claim", None),
    ]:
        response = ben.api.request(method, path, json=body)
        assert response.status_code == 401, (method, path, response.status_code)
    assert api.get(f"/games/{game}").get_json()["hands"] == []
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {}


def put(api, game: int, body: dict):
    return api.request("PUT", f"/games/{game}/draft", json=body)


def test_the_scorekeeper_and_the_phones_share_one_auction(app, api):
    """Mixed: phones and the scorekeeper's PUT .../draft call in the same turn order; a call
    the scorekeeper makes again drops the calls after it."""
    game = new_game(api)
    phones = seats_for(app, api, game, ["Ben", "Dee"])
    call(phones["Ben"], 2)
    sent = put(api, game, {"player": "Cy", "value": "pass"})
    assert sent.status_code == 200, sent.text
    ahead = put(api, game, {"player": "Ann", "value": 3})
    assert ahead.status_code == 422
    assert refusal(ahead.get_json()) == ("not_your_turn", "It is Dee's turn to bid.")
    call(phones["Dee"], 3)
    # The scorekeeper puts Ben's call right: Cy's and Dee's, made after it, are called again.
    again = put(api, game, {"player": "Ben", "value": 1})
    assert again.status_code == 200, again.text
    draft = api.get(f"/games/{game}/draft").get_json()
    assert draft["entries"] == {"Ben": 1} and draft["turn"] == "Cy"
    assert draft["choices"] == ["pass", 2, 3, 4]
    wrong = put(api, game, {"player": "Cy", "value": 1})
    assert refusal(wrong.get_json())[0] == "bid_not_higher"
    assert put(api, game, {"player": "Cy", "value": "pass"}).status_code == 200
    call(phones["Dee"], "pass")
    last = put(api, game, {"player": "Ann", "value": 1})
    assert last.status_code == 200, last.text
    hand = last.get_json()["hands"][0]
    assert hand["input"]["auction"] == [["Ben", 1], ["Cy", "pass"], ["Dee", "pass"], ["Ann", 1]]
    assert (hand["pitcher"], hand["bid"], hand["stolen"]) == ("Ann", 1, True)


def test_the_calls_survive_a_new_app_kept_by_seat(app, api, make_app):
    game = new_game(api)
    phones = seats_for(app, api, game, ["Ben", "Cy"])
    call(phones["Ben"], 2)
    call(phones["Cy"], "pass")
    again = make_app()
    with again.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.models import Game

        stored = db.session.get(Game, game).draft
    assert stored == {"number": 1, "entries": {"1": 2, "2": "pass"}}
    draft = api.get(f"/games/{game}/draft").get_json()
    assert draft["entries"] == {"Ben": 2, "Cy": "pass"} and draft["turn"] == "Dee"
    assert phones["Ben"].view()["draft"] == draft


def test_each_call_is_an_event_for_every_reader(app, api):
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api)
    phones = seats_for(app, api, game, ["Ben", "Cy"])
    response = phones["Cy"].api.client.get(
        f"/api/v1/games/{game}/events",
        headers={"Authorization": f"Bearer {phones['Cy'].api.token}"},
        buffered=False,
    )
    first = read_events(response, 1)[0]
    call(phones["Ben"], "pass")
    second = read_events(response, 1)[0]
    response.close()
    assert second["id"] > first["id"]
    draft = second["data"]["draft"]
    assert draft["entries"] == {"Ben": "pass"} and draft["turn"] == "Cy"
    assert draft["choices"] == ["pass", 1, 2, 3, 4]


# The pages ------------------------------------------------------------------------------


def seat_page(app, link: str, name: str):
    phone = app.test_client()
    taken = phone.post(f"/play/{link}", data={"player": name})
    assert taken.status_code == 302, taken.text
    return phone


def pad(text: str) -> tuple[list[str], list[str]]:
    """The calls a seat page offers, and those struck out."""
    form = re.search(r'<form[^>]*class="seat-pad call-pad".*?</form>', text, re.S)
    if form is None:
        return [], []
    offered = re.findall(r'name="value" value="([^"]+)"', form.group(0))
    struck = re.findall(r'class="chip struck" disabled aria-label="([^"]+)"', form.group(0))
    return offered, [html.unescape(label) for label in struck]


def test_the_seat_page_shows_whose_call_the_calls_so_far_and_the_pad(app, api):
    game = new_game(api)
    link = link_token(api, game)
    phones = {name: seat_page(app, link, name) for name in PLAYERS}
    cy = phones["Cy"].get(f"/play/{link}/seat").text
    assert "Waiting for Ben" in cy and pad(cy) == ([], [])
    ben = phones["Ben"].get(f"/play/{link}/seat").text
    assert "Your turn" in ben and "No bids yet" in ben
    assert pad(ben) == (["pass", "1", "2", "3", "4"], [])

    sent = phones["Ben"].post(f"/play/{link}/seat", data={"value": "2"})
    assert sent.status_code == 302, sent.text
    cy = phones["Cy"].get(f"/play/{link}/seat").text
    assert "Your turn" in cy and "High bid: Ben 2" in cy
    assert pad(cy) == (["pass", "3", "4"], ["1: not allowed now", "2: not allowed now"])
    # Out of turn through the page: the refusal is said, nothing kept.
    early = phones["Dee"].post(f"/play/{link}/seat", data={"value": "pass"})
    assert early.status_code == 422 and "It is Cy&#39;s turn to bid." in early.text
    struck = phones["Cy"].post(f"/play/{link}/seat", data={"value": "2"})
    assert struck.status_code == 422
    assert "The high bid is 2: Cy must bid more than 2 or pass." in struck.text
    assert phones["Cy"].post(f"/play/{link}/seat", data={"value": "Pass"}).status_code == 302
    dee = phones["Dee"].get(f"/play/{link}/seat").text
    row = re.search(r'<ol class="rows entered-so-far">.*?</ol>', dee, re.S).group(0)
    said = [html.unescape(re.sub(r"<[^>]+>", " ", li)).split() for li in row.split("</li>")[:-1]]
    assert said == [["Ben", "2"], ["Cy", "Pass"], ["Dee", "–"], ["Ann", "–"]]
    phones["Dee"].post(f"/play/{link}/seat", data={"value": "pass"})
    ann = phones["Ann"].get(f"/play/{link}/seat").text
    assert "You deal: you may steal the contract by bidding 2 too." in ann
    assert pad(ann) == (["pass", "2", "3", "4"], ["1: not allowed now"])
    assert phones["Ann"].post(f"/play/{link}/seat", data={"value": "2"}).status_code == 302
    opened = phones["Cy"].get(f"/play/{link}/seat").text
    assert "Ann pitched 2 (stolen)" in opened and "Nothing to enter from your phone now" in opened
    hand = api.get(f"/games/{game}").get_json()["hands"][0]
    assert hand["input"]["auction"] == [["Ben", 2], ["Cy", "pass"], ["Dee", "pass"], ["Ann", 2]]


def test_the_dealer_everyone_passed_to_is_told_to_bid(app, api):
    game = new_game(api)
    link = link_token(api, game)
    for name in ORDER[:3]:
        call(Seat(app, link, name), "pass")
    ann = seat_page(app, link, "Ann").get(f"/play/{link}/seat").text
    assert "You deal and everyone else passed: you must bid at least 2." in ann
    assert pad(ann) == (["2", "3", "4"], ["Pass: not allowed now", "1: not allowed now"])


def test_the_scorekeeper_sees_the_phones_calls_and_saves_the_rest(app, api, logged_in):
    game = new_game(api)
    phones = seats_for(app, api, game, ["Ben", "Cy"])
    call(phones["Ben"], 3)
    call(phones["Cy"], "pass")
    page = logged_in.get(f"/games/{game}").text
    draft = re.search(r"<section class=\"card draft\".*?</section>", page, re.S).group(0)
    assert "2 of 4 have entered" in draft
    assert re.search(r"Ben</span><span class=\"total\">3<", draft)
    assert re.search(r"Cy</span><span class=\"total\">Pass<", draft)
    # The auction form comes with the phones' calls chosen.
    assert re.search(r'name="call-1" value="3"\s+checked', page)
    assert re.search(r'name="call-2" value="pass"\s+checked', page)
    assert not re.search(r'name="call-3" value="[^"]+"\s+checked', page)
    form = {"phase": "auction", "number": "1", "order": "1,2,3,0"}
    form |= {"call-1": "3", "call-2": "pass", "call-3": "pass", "call-0": "pass"}
    saved = logged_in.post(f"/games/{game}/hands", data=form)
    assert saved.status_code == 302, saved.text
    hand = api.get(f"/games/{game}").get_json()["hands"][0]
    assert (hand["pitcher"], hand["bid"]) == ("Ben", 3)
    assert api.get(f"/games/{game}/draft").status_code == 404  # the hand is open


def test_the_shared_view_shows_the_calls_so_far(app, api):
    game = new_game(api)
    share = api.post(f"/games/{game}/share").get_json()["url"].replace("http://localhost", "")
    phones = seats_for(app, api, game, ["Ben", "Cy"])
    call(phones["Ben"], "pass")
    call(phones["Cy"], 1)
    page = app.test_client().get(share).text
    draft = re.search(r"<section class=\"card draft\".*?</section>", page, re.S).group(0)
    rows = re.findall(r'<span class="who">(\w+)</span><span class="total">([^<]+)<', draft)
    assert rows == [("Ben", "Pass"), ("Cy", "1"), ("Dee", "waiting"), ("Ann", "waiting")]
    assert "Clear what the phones entered" not in draft  # the scorekeeper's button only


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("su", ("Tawaran anjeun", "Can aya tawaran", ">Pas<", ">4<")),
        ("lo", ("ການເອີ້ນຂອງທ່ານ", "ຍັງບໍ່ມີການປະມູນ", ">ຜ່ານ<", ">4<")),
        ("bn", ("আপনার ডাক", "এখনো কোনো ডাক নেই", ">পাস<", ">৪<")),
    ],
)
def test_the_call_pad_is_in_the_reader_s_language(app, api, language, words):
    game = new_game(api)
    link = link_token(api, game)
    ben = seat_page(app, link, "Ben")
    ben.set_cookie("lang", language)
    page = ben.get(f"/play/{link}/seat").text
    for word in words:
        assert word in page, (language, word)
    assert "Your call" not in page and "No bids yet" not in page

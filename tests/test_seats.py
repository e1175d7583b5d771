"""Each player on their own phone, through the API (API.md, "Each player on their own phone";
RULES.md, "Every game: each player on their own phone"): the seat link and its claims, a seat
token's reach, bids in turn and in secret, the hook under simultaneous bidding, the draft and
the event streams."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import Api

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def new_game(api, game="oh_hell", players=PLAYERS, **options) -> int:
    body = {"game": game, "players": players}
    if options:
        body["options"] = options
    response = api.post("/games", body)
    assert response.status_code == 201, response.text
    return response.get_json()["id"]


def link_token(api, game: int) -> str:
    response = api.post(f"/games/{game}/seat-link")
    assert response.status_code == 201, response.text
    match = re.fullmatch(r"http://localhost/play/([\w-]+)", response.get_json()["url"])
    assert match, response.get_json()
    return match.group(1)


class Seat:
    """A player's phone: the seat token it got by claiming the seat."""

    def __init__(self, app, link: str, name: str) -> None:
        self.name = name
        self.api = Api(app.test_client())
        response = self.api.post(f"/seat-links/{link}/seats", {"player": name})
        assert response.status_code == 201, response.text
        self.api.token = response.get_json()["seat_token"]

    def bid(self, value, status=200):
        response = self.api.request("PUT", "/seat/entry", json={"bid": value})
        assert response.status_code == status, response.text
        return response.get_json()

    def view(self):
        response = self.api.get("/seat")
        assert response.status_code == 200, response.text
        return response.get_json()


def seats_for(app, api, game, names=PLAYERS) -> dict[str, Seat]:
    link = link_token(api, game)
    return {name: Seat(app, link, name) for name in names}


def test_a_phone_claims_a_seat_and_a_second_phone_is_refused_until_it_is_freed(app, api):
    game = new_game(api)
    link = link_token(api, game)
    assert link_token(api, game) == link  # the same link again until it is revoked
    ann = Seat(app, link, "Ann")
    assert ann.view()["seat"] == "Ann"
    other = Api(app.test_client())
    taken = other.post(f"/seat-links/{link}/seats", {"player": "Ann"})
    assert taken.status_code == 409, taken.text
    assert taken.get_json()["errors"][0]["code"] == "seat_taken"
    stranger = other.post(f"/seat-links/{link}/seats", {"player": "Zed"})
    assert stranger.status_code == 422
    assert stranger.get_json()["errors"][0]["code"] == "unknown_player"

    assert api.delete(f"/games/{game}/seats/Ann/claim").status_code == 204
    assert ann.api.get("/seat").status_code == 401  # the freed phone holds nothing now
    again = other.post(f"/seat-links/{link}/seats", {"player": "Ann"})
    assert again.status_code == 201


def test_revoking_the_link_ends_every_seat_token_and_the_link(app, api):
    game = new_game(api)
    link = link_token(api, game)
    phones = [Seat(app, link, name) for name in PLAYERS]
    assert api.delete(f"/games/{game}/seat-link").status_code == 204
    for phone in phones:
        response = phone.api.get("/seat")
        assert response.status_code == 401
        assert response.get_json()["errors"][0]["code"] == "unauthorized"
        assert phone.api.request("PUT", "/seat/entry", json={"bid": 1}).status_code == 401
    late = Api(app.test_client()).post(f"/seat-links/{link}/seats", {"player": "Ann"})
    assert late.status_code == 404
    assert link_token(api, game) != link  # a new link, not the old one back


def test_an_unknown_seat_token_is_401(app):
    phone = Api(app.test_client(), "not-a-seat-token")
    assert phone.get("/seat").status_code == 401


def test_a_seat_token_can_do_nothing_else(app, api):
    game = new_game(api)
    ann = seats_for(app, api, game, ["Ann"])["Ann"]
    for method, path, body in [
        ("GET", f"/games/{game}", None),
        ("GET", "/games", None),
        ("POST", f"/games/{game}/hands", {"bids": {"Ann": 1}}),
        ("PUT", f"/games/{game}/draft", {"player": "Ben", "value": 1}),
        ("GET", f"/games/{game}/draft", None),
        ("DELETE", f"/games/{game}/seats/Ben/claim", None),
        ("POST", f"/games/{game}/seat-link", None),
        ("DELETE", f"/games/{game}", None),
        ("GET", "/players", None),
    ]:
        response = ann.api.request(method, path, json=body)
        assert response.status_code == 401, (method, path, response.status_code)
    assert api.get(f"/games/{game}").get_json()["hands"] == []


def test_bids_in_turn_from_the_dealer_s_left_and_the_last_bid_opens_the_hand(app, api):
    game = new_game(api, hook=True)
    phones = seats_for(app, api, game)
    state = api.get(f"/games/{game}").get_json()
    order = state["next"]["order"]
    assert order[0] != state["next"]["dealer"] and order[-1] == state["next"]["dealer"]
    first, second, third, dealer = (phones[name] for name in order)

    refused = second.bid(0, status=422)
    assert refused["errors"][0]["code"] == "not_your_turn"
    assert first.name in refused["errors"][0]["message"]
    seen = first.bid(1)
    assert seen["draft"]["entries"] == {first.name: 1}
    assert seen["draft"]["waiting"] == order[1:]
    assert first.bid(0, status=422)["errors"][0]["code"] == "not_your_turn"  # in already
    second.bid(0)
    third.bid(0)
    # One card: the bids so far total 1, so the dealer may not bid 0 (1 - 1 = 0).
    forbidden = dealer.view()["state"]["next"]
    hook = dealer.bid(0, status=422)
    assert hook["errors"][0]["code"] == "hook_violation"
    assert dealer.view()["draft"]["entries"] == {first.name: 1, second.name: 0, third.name: 0}
    opened = dealer.bid(1)
    assert opened["draft"] is None  # the hand is open: its tricks come next
    hand = opened["state"]["hands"][0]
    assert hand["status"] == "playing"
    assert hand["input"]["bids"] == {first.name: 1, second.name: 0, third.name: 0, dealer.name: 1}
    assert forbidden["number"] == 1
    # The scorekeeper goes on as if it had entered the bids itself.
    tricks = {first.name: 1, second.name: 0, third.name: 0, dealer.name: 0}
    done = api.patch(f"/games/{game}/hands/1", {"tricks": tricks})
    assert done.status_code == 200, done.text
    assert api.get(f"/games/{game}").get_json()["hands"][0]["status"] == "scored"


def test_secret_bids_stay_hidden_from_every_other_reader_until_the_last(app, api):
    game = new_game(api, simultaneous=True, hook=True, hook_min_cards=1)
    api.post(f"/games/{game}/share")
    phones = seats_for(app, api, game)
    scorekeeper_before = api.get(f"/games/{game}").get_json()
    csv_before = api.get(f"/games/{game}.csv").text
    ann, ben, cy, dee = (phones[name] for name in PLAYERS)
    # Any order: no turn under simultaneous bidding.
    dee.bid(1)
    ben.bid(0)
    mine = ann.bid(0)["draft"]
    assert mine["entries"] == {"Ann": 0, "Ben": "secret", "Dee": "secret"}
    assert mine["waiting"] == ["Cy"]
    assert ben.view()["draft"]["entries"] == {"Ann": "secret", "Ben": 0, "Dee": "secret"}
    draft = api.get(f"/games/{game}/draft").get_json()
    assert set(draft["entries"].values()) == {"secret"}
    assert draft["entered"] == ["Ann", "Ben", "Dee"] and draft["waiting"] == ["Cy"]
    # Nothing of the values anywhere else the scorekeeper or the table can read.
    state = api.get(f"/games/{game}").get_json()
    assert state["hands"] == [] and state["next"] == scorekeeper_before["next"]
    assert api.get(f"/games/{game}.csv").text == csv_before
    # The one card of hand 1: 1 + 0 + 0 + 0 would equal it: the hook refuses the whole set.
    refused = cy.bid(0, status=422)
    assert refused["errors"][0]["code"] == "hook_violation"
    for phone in phones.values():
        assert phone.view()["draft"]["entries"] == {}  # every bid cleared: bid again
    for phone, bid in zip(phones.values(), [1, 1, 0, 0], strict=True):
        phone.bid(bid)
    state = api.get(f"/games/{game}").get_json()
    assert state["hands"][0]["input"]["bids"] == {"Ann": 1, "Ben": 1, "Cy": 0, "Dee": 0}
    assert state["hands"][0]["status"] == "playing"


def masked(html: str) -> str:
    """A page without what differs between two games anyway: tokens, ids, CSRF tokens."""
    html = re.sub(r'name="csrf_token" (type="hidden" )?value="[^"]*"', "csrf", html)
    return re.sub(r"/(view|games|play)/[\w-]+", "/<token>", html)


def test_no_answer_or_page_says_a_secret_value_or_its_size(app, api):
    """Two tables alike but for one secret bid (0 or 1): every reader but that seat gets
    byte-for-byte the same answers, ETags included."""
    answers = []
    for secret in (0, 1):
        game = new_game(api, simultaneous=True)
        share = api.post(f"/games/{game}/share").get_json()["url"].replace("http://localhost", "")
        phones = seats_for(app, api, game, ["Ann", "Cy", "Dee"])
        phones["Ann"].bid(secret)
        viewer = app.test_client()
        page = viewer.get(share)
        ben = app.test_client()  # Ben's phone, through the pages
        link = api.post(f"/games/{game}/seat-link").get_json()["url"].split("/play/")[1]
        ben.post(f"/play/{link}", data={"player": "Ben"})
        ben_page = ben.get(f"/play/{link}/seat")
        assert ben_page.status_code == 200 and "Your seat: Ben" in ben_page.text
        seen = [
            json.dumps(api.get(f"/games/{game}/draft").get_json(), sort_keys=True),
            json.dumps(phones["Cy"].view()["draft"], sort_keys=True),
            page.headers["ETag"] == viewer.get(share).headers["ETag"],
            masked(ben_page.text),
            masked(page.text),
        ]
        answers.append((seen, len(page.data), len(ben_page.data)))
    assert answers[0][0] == answers[1][0]
    assert answers[0][1:] == answers[1][1:]


def test_the_scorekeeper_enters_any_seat_and_clears_the_draft(app, api):
    game = new_game(api, game="hearts")
    phones = seats_for(app, api, game, ["Ann", "Ben"])
    entered = phones["Ann"].api.request("PUT", "/seat/entry", json={"points": 13})
    assert entered.status_code == 200, entered.text
    wrong = phones["Ben"].api.request("PUT", "/seat/entry", json={"bid": 3})
    assert wrong.status_code == 400
    too_many = phones["Ben"].api.request("PUT", "/seat/entry", json={"points": 27})
    assert too_many.status_code == 422
    assert too_many.get_json()["errors"][0]["code"] == "points_out_of_range"
    assert (
        api.request("PUT", f"/games/{game}/draft", json={"player": "Cy", "value": 0}).status_code
        == 200
    )
    draft = api.get(f"/games/{game}/draft").get_json()
    assert draft["entries"] == {"Ann": 13, "Cy": 0}
    # The hand is recorded when the scorekeeper saves it (points games).
    assert api.get(f"/games/{game}").get_json()["hands"] == []
    cleared = api.delete(f"/games/{game}/draft")
    assert cleared.status_code == 200
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {}


def test_the_draft_survives_a_new_app_and_is_kept_by_seat(app, api, make_app):
    game = new_game(api)
    phones = seats_for(app, api, game)
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    phones[order[0]].bid(1)
    # A restart: a new app on the same database.
    again = make_app()
    with again.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.models import Game

        stored = db.session.get(Game, game).draft
    members = PLAYERS
    assert stored == {"number": 1, "entries": {str(members.index(order[0])): 1}}
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {order[0]: 1}


def test_a_game_whose_phones_enter_nothing_says_so(app, api):
    game = new_game(api, game="oklahoma_gin", players=["Ann", "Ben"])
    ann = seats_for(app, api, game, ["Ann"])["Ann"]
    refused = ann.api.request("PUT", "/seat/entry", json={"bid": 1})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["code"] == "not_your_turn"


def read_events(response, count: int) -> list[dict]:
    """The first ``count`` events of a stream (their id and data)."""
    found = []
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: "):
            lines = dict(line.split(": ", 1) for line in text.strip().split("\n"))
            found.append({"id": int(lines["id"]), "data": json.loads(lines["data"])})
            if len(found) == count:
                return found
    return found


@pytest.mark.parametrize("reader", ["account", "seat"])
def test_the_event_stream_says_each_change_as_its_reader_may_see_it(app, api, reader):
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api, simultaneous=True)
    phones = seats_for(app, api, game)
    client = (api if reader == "account" else phones["Ben"].api).client
    token = api.token if reader == "account" else phones["Ben"].api.token
    response = client.get(
        f"/api/v1/games/{game}/events",
        headers={"Authorization": f"Bearer {token}"},
        buffered=False,
    )
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    first = read_events(response, 1)[0]
    phones["Ann"].bid(1)
    second = read_events(response, 1)[0]
    response.close()
    assert second["id"] > first["id"]
    assert second["data"]["draft"]["entries"] == {"Ann": "secret"}
    assert "1" not in json.dumps(second["data"]["draft"]["entries"])


def test_resuming_with_last_event_id_sends_only_what_changed(app, api):
    app.config.update(EVENTS_LIFETIME=1, EVENTS_KEEPALIVE=0.2)
    game = new_game(api)
    headers = {"Authorization": f"Bearer {api.token}"}
    first = api.client.get(f"/api/v1/games/{game}/events", headers=headers, buffered=False)
    seen = read_events(first, 1)[0]["id"]
    first.close()
    again = api.client.get(
        f"/api/v1/games/{game}/events",
        headers={**headers, "Last-Event-ID": str(seen)},
        buffered=False,
    )
    assert read_events(again, 1) == []  # nothing new: the stream ends with its lifetime


def test_a_spades_phone_bids_blind_nil_only_when_its_team_may(app, api):
    """Spades with blind nil: a phone bids it as {"bid": 0, "blind_nil": true} when its team
    is at least 100 behind (RULES.md, Spades), the other team's phone is refused with the
    rules' own code, and the hand opens with the blind nil in its entry."""
    game = new_game(api, game="spades", blind_nil=True)
    ours, theirs = {"Ann", "Cy"}, {"Ben", "Dee"}
    first = {
        "bids": {"Ann": 5, "Ben": 3, "Cy": 5, "Dee": 3},
        "tricks": {"Ann": 0, "Ben": 7, "Cy": 0, "Dee": 6},
    }
    assert api.post(f"/games/{game}/hands", first).status_code == 201  # Ann & Cy: -100 to 67
    phones = seats_for(app, api, game)
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    blind = next(name for name in order if name in ours)
    for name in order:
        phone = phones[name]
        if name in theirs:
            refused = phone.api.request("PUT", "/seat/entry", json={"bid": 0, "blind_nil": True})
            assert refused.status_code == 422, refused.text
            assert refused.get_json()["errors"][0]["code"] == "blind_nil_not_allowed"
            seen = phone.bid(3)
        elif name == blind:
            sent = phone.api.request("PUT", "/seat/entry", json={"bid": 0, "blind_nil": True})
            assert sent.status_code == 200, sent.text
            seen = sent.get_json()
            if seen["draft"] is not None:
                assert seen["draft"]["marks"] == {"blind_nil": [blind]}
        else:
            seen = phone.bid(4)
    opened = seen["state"]["hands"][1]
    assert opened["status"] == "playing"
    assert opened["input"]["blind_nil"] == [blind]
    assert opened["input"]["bids"][blind] == 0


def test_a_mark_the_game_does_not_take_is_refused(app, api):
    game = new_game(api, game="spades")  # blind nil off
    phones = seats_for(app, api, game)
    first = api.get(f"/games/{game}").get_json()["next"]["order"][0]
    sent = phones[first].api.request("PUT", "/seat/entry", json={"bid": 0, "blind_nil": True})
    assert sent.status_code == 400, sent.text
    assert sent.get_json()["errors"][0]["code"] == "wrong_type"
    assert api.get(f"/games/{game}/draft").get_json()["entries"] == {}


def test_the_seat_page_offers_blind_nil_to_the_team_behind_only(app, api):
    game = new_game(api, game="spades", blind_nil=True)
    first = {
        "bids": {"Ann": 5, "Ben": 3, "Cy": 5, "Dee": 3},
        "tricks": {"Ann": 0, "Ben": 7, "Cy": 0, "Dee": 6},
    }
    assert api.post(f"/games/{game}/hands", first).status_code == 201  # Ann & Cy: -100 to 67
    link = api.post(f"/games/{game}/seat-link").get_json()["url"].split("/play/")[1]
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    blind = next(name for name in order if name in ("Ann", "Cy"))
    for name in order:
        phone = app.test_client()
        phone.post(f"/play/{link}", data={"player": name})
        page = phone.get(f"/play/{link}/seat")
        assert page.status_code == 200
        assert ("Bid blind nil" in page.text) == (name in ("Ann", "Cy")), name
        sent = {"value": "0", "mark": "blind_nil"} if name == blind else {"value": "3"}
        answer = phone.post(f"/play/{link}/seat", data=sent)
        assert answer.status_code == 302, answer.text
    hand = api.get(f"/games/{game}").get_json()["hands"][1]
    assert hand["input"]["blind_nil"] == [blind]
    assert hand["input"]["bids"] == {name: 0 if name == blind else 3 for name in order}


def test_a_blind_nil_from_a_phone_stays_when_the_scorekeeper_saves_the_bids(app, api, logged_in):
    """The scorekeeper's bids form comes with the phone's blind nil ticked: saving the form
    (the other bids typed on it) keeps the blind nil, nothing the phone entered is lost."""
    game = new_game(api, game="spades", blind_nil=True)
    first = {
        "bids": {"Ann": 5, "Ben": 3, "Cy": 5, "Dee": 3},
        "tricks": {"Ann": 0, "Ben": 7, "Cy": 0, "Dee": 6},
    }
    assert api.post(f"/games/{game}/hands", first).status_code == 201  # Ann & Cy: -100 to 67
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    blind = next(name for name in order if name in ("Ann", "Cy"))
    for name in order[: order.index(blind)]:
        assert api.put(f"/games/{game}/draft", {"player": name, "value": 3}).status_code == 200
    phones = seats_for(app, api, game, [blind])
    sent = phones[blind].api.request("PUT", "/seat/entry", json={"bid": 0, "blind_nil": True})
    assert sent.status_code == 200, sent.text
    page = logged_in.get(f"/games/{game}").text
    seat = PLAYERS.index(blind)
    assert re.search(rf'name="blind-{seat}" value="y" checked', page), "the phone's blind nil"
    form = {"phase": "bids", "blind_shown": "1", f"blind-{seat}": "y"}
    form |= {f"bid-{PLAYERS.index(name)}": "0" if name == blind else "3" for name in order}
    form["seats"] = re.search(r'name="seats" type="hidden" value="([^"]*)"', page).group(1)
    saved = logged_in.post(f"/games/{game}/hands", data=form)
    assert saved.status_code == 302, saved.text
    hand = api.get(f"/games/{game}").get_json()["hands"][1]
    assert hand["input"]["blind_nil"] == [blind]

"""A change of the table made on the phone (``portable.change``: the "Table" panel's form read
by ``games.table_form``, its names matched as the server matches them, checked and played by
the game's rules) is the server's: for every registered game, in English and in Bengali, each
change it allows posted to the panel and run on what the phone holds (``/offline/play/<id>
.json``) gives the same record, seats and state, and its undo the same again; each form the
server refuses (a player not at the table or already there, numbers typed in the other
language's digits or no number at all, too few players, a hand being played, a game over, a
change the game does not allow, the hand sizes) is refused with the same codes, messages and
fields. A change made offline (``"id": null``) plays, is undone, and the hands saved after
it (``portable.save``, its seats read against the grown table) are the server's."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import portable
from scorekeeper.games.oh_hell.rules import RULES as OH_HELL
from scorekeeper.games.table import Change
from scorekeeper.games.table_form import typed_for
from scorekeeper.i18n import speak_to_the_rules
from scorekeeper.models import Game
from scorekeeper.services import games
from scorekeeper.services import table as table_service
from scorekeeper.views import table_panel
from tests.games.oh_hell.test_rules_oh_hell_table import ROSTER
from tests.games.oh_hell.test_rules_oh_hell_table import records
from tests.pages import game_id
from tests.pages import start_game
from tests.pages import text
from tests.test_offline_samples import NEW
from tests.test_offline_sheet import play_steps

#: Bengali digits: ৫ is 5.
BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


@pytest.fixture
def phone(table, tmp_path):
    """The phone's rules bundle unpacked (its languages); the server's words plugged in
    again after the test."""
    from scorekeeper.views import offline_rules

    with table.application.test_request_context():
        url = offline_rules.urls()["rules"]
    answer = table.get(url)
    assert answer.status_code == 200
    bundle = zipfile.ZipFile(io.BytesIO(answer.data))
    assert "scorekeeper/games/table_form.py" in bundle.namelist()  # the phone reads the panel
    bundle.extractall(tmp_path)
    yield tmp_path / "languages"
    speak_to_the_rules()


@pytest.fixture
def refused(monkeypatch) -> list[Refusal]:
    """The refusals the server's panel and sheet gave, as they gave them (every code,
    message and field), whether drawn beside the form or said above the page."""
    seen: list[Refusal] = []
    render = table_panel._render

    def spied_render(result, kind, refusal=None, *args, **kwargs):
        if refusal is not None:
            seen.append(refusal)
        return render(result, kind, refusal, *args, **kwargs)

    monkeypatch.setattr(table_panel, "_render", spied_render)
    for name in ("record_change", "remove_change"):
        monkeypatch.setattr(table_service, name, _spied(getattr(table_service, name), seen))
    return seen


def _spied(original, seen: list[Refusal]):
    def spied(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except Refusal as refusal:
            seen.append(refusal)
            raise

    return spied


def holds(client, game: int) -> dict:
    """What the phone holds of the game (the request of ``/offline/play/<id>.json``)."""
    answer = client.get(f"/offline/play/{game}.json")
    assert answer.status_code == 200
    return answer.get_json()["request"]


def on_phone(request: dict, folder) -> dict:
    """``portable.change`` as the phone calls it (JSON in and out, its language's words)."""
    try:
        return json.loads(portable.change_json(json.dumps(request), str(folder)))
    finally:
        speak_to_the_rules()


def played_on_phone(request: dict, folder) -> dict:
    try:
        return json.loads(portable.play_json(json.dumps(request), str(folder)))
    finally:
        speak_to_the_rules()


def without_ids(value):
    """A state or record with the ids of its changes left out (a change made offline has
    none until the server stores it)."""
    if isinstance(value, dict):
        return {key: without_ids(item) for key, item in value.items() if key != "id"}
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def said_on_page(client, answer, kind: str) -> str:
    """The sentence the page says after a redirect (its flash of ``kind``)."""
    assert answer.status_code == 302, answer.text
    page = client.get(answer.headers["Location"])
    found = re.findall(rf'class="flash flash-{kind}">([^<]*)<', page.text)
    assert len(found) == 1, found
    return text(found[0])


def problems(refusal: Refusal) -> list[tuple]:
    return [(each.code, each.message, each.field) for each in refusal.problems]


class Both:
    """One game seen by the server (through its pages) and by the phone (``portable``)."""

    def __init__(self, client, game: int, folder, refused: list[Refusal]) -> None:
        self.client, self.game, self.folder, self.refused = client, game, folder, refused
        self.codes: list[str] = []
        self.accepted = 0

    def record(self, form: dict) -> dict:
        """Post ``form`` to the panel and run it on the phone: the same answer."""
        before = holds(self.client, self.game)
        answer = on_phone({**before, "action": "record", "form": form}, self.folder)
        del self.refused[:]
        page = self.client.post(
            f"/games/{self.game}/table/changes", data={"before_hand": "", **form}
        )
        after = holds(self.client, self.game)
        if "refused" in answer:
            assert self.refused, (form, page.status_code, answer)
            phone = [(each["code"], each["message"], each["field"]) for each in answer["refused"]]
            assert phone == problems(self.refused[-1]), form
            assert after["entries"] == before["entries"]
            if page.status_code == 302:  # said above the panel
                assert said_on_page(self.client, page, "warning") == phone[0][1]
            else:
                assert page.status_code in (400, 409, 422)
            self.codes += [each[0] for each in phone]
            return answer
        assert not self.refused, (form, problems(self.refused[-1]))
        assert said_on_page(self.client, page, "success") == answer["said"]
        self.accepted += 1
        self.same(answer, after)
        # The change made on the phone (no id yet) undone on the phone: the record before.
        undone = on_phone({**before, **answer, "action": "remove"}, self.folder)
        assert undone["entries"] == before["entries"]
        assert undone["state"] == played_on_phone(before, self.folder)["state"]
        return answer

    def attempt(self, form: dict) -> dict:
        """``record``, and the change undone on both sides when it was taken."""
        answer = self.record(form)
        if "refused" not in answer:
            self.remove()
        return answer

    def remove(self) -> dict:
        """Undo the last change on the sheet and on the phone: the same answer."""
        before = holds(self.client, self.game)
        answer = on_phone({**before, "action": "remove"}, self.folder)
        change_id = before["entries"][-1]["id"]
        del self.refused[:]
        page = self.client.post(f"/games/{self.game}/changes/{change_id}/undo")
        after = holds(self.client, self.game)
        if "refused" in answer:
            phone = [(each["code"], each["message"], each["field"]) for each in answer["refused"]]
            assert phone == problems(self.refused[-1])
            assert said_on_page(self.client, page, "warning") == phone[0][1]
            self.codes += [each[0] for each in phone]
            return answer
        assert said_on_page(self.client, page, "success") == answer["said"]
        self.same(answer, after)
        return answer

    def same(self, answer: dict, after: dict) -> None:
        """The phone's record, seats and state are the server's after the same change."""
        assert without_ids(answer["entries"]) == without_ids(after["entries"])
        assert answer["members"] == after["members"]
        server = played_on_phone(after, self.folder)["state"]
        assert without_ids(answer["state"]) == without_ids(server)


def typed(value: str, language: str) -> str:
    return value.translate(BN) if language == "bn" else value


def accepted_forms(kind: str, sides: list[str], language: str) -> list[dict]:
    """A form of ``kind`` the game may take, names typed as people type them."""
    if kind == "join":
        return [
            {"kind": "join", "new_player": "eve", "score": "zero"},  # the roster's Eve
            {
                "kind": "join",
                "new_player": " Zoë ",
                "after": "Ann",
                "score": "number",
                "score_number": typed("-3", language),
            },
        ]
    if kind in ("leave", "sit_out"):
        return [{"kind": kind, "player": "cy"}]
    if kind == "substitute":
        return [{"kind": kind, "player": "Ann", "new_by": "EVE"}]
    if kind == "adjust":
        points = typed("-5", language)
        return [{"kind": kind, "player": sides[0], "points": points, "note": "A penalty"}]
    return [
        {"kind": kind, "size": ["2", typed("3", language), ""], "drop": ["0"]},
        {"kind": kind, "rounds": typed("9", language)},
    ]


def refused_forms(allowed: list[str], sides: list[str], language: str) -> list[dict]:
    """Forms the server refuses (or, in the other language's digits, reads)."""
    forms: list[dict] = [{"kind": "adjust", "player": sides[0], "points": "1", "before_hand": "9"}]
    other = "5" if language == "bn" else "৫"  # the digits of the other language
    named = [kind for kind in ("leave", "sit_out", "adjust", "substitute") if kind in allowed]
    for kind in named:
        forms.append({"kind": kind, "player": "Zed", "new_by": "Eve", "points": "1"})
    if "join" in allowed:
        forms += [
            {"kind": "join", "player": "ann"},  # at the table already
            {"kind": "join", "new_player": "Eve", "score": "number", "score_number": "1.5"},
            {"kind": "join", "new_player": "Eve", "score": "number", "score_number": ""},
            {"kind": "join", "new_player": "\u200bEve", "score": "zero"},
        ]
    if "adjust" in allowed:
        forms += [
            {"kind": "adjust", "player": sides[0], "points": other},
            {"kind": "adjust", "player": sides[0], "points": "x"},
            {"kind": "adjust", "player": sides[0], "points": "99999"},
        ]
    if "leave" in allowed:
        forms += [{"kind": "leave", "player": name} for name in ("Ann", "Ben")]
    if "schedule" in allowed:
        forms += [
            {"kind": "schedule", "size": ["x", "", "99"]},
            {"kind": "schedule", "size": ["99"]},
            {"kind": "schedule", "size": [other]},
            {"kind": "schedule", "rounds": "-1"},
        ]
    forms += [
        {"kind": kind, "player": sides[0]}
        for kind in ("join", "adjust", "schedule")
        if kind not in allowed
    ][:1]
    forms.append({"kind": "shuffle"})
    return forms


def opened(table, app, kind: str) -> tuple[int, list[str], list[str]]:
    """A game of ``kind`` with a hand played (and Eve on the roster): its id, the changes
    it allows and its sides."""
    table.post("/players/", data={"name": "Eve"})
    seats, options = NEW[kind]
    game = game_id(start_game(table, app, kind, seats, **options))
    two_steps = bool(GAMES[kind].completing)
    play_steps(table, game, kind, 2 if two_steps else 1)
    table.get(f"/games/{game}")  # what the pages said so far, shown
    with app.app_context():
        played = games.played(db.session.get(Game, game))
        allowed = list(played.rules.table_changes(played.game.options))
        sides = list(played.state.sides)
    return game, allowed, sides


@pytest.mark.parametrize("language", ["en", "bn"])
@pytest.mark.parametrize("kind", sorted(NEW))
def test_a_change_made_on_the_phone_is_the_servers(table, app, phone, refused, kind, language):
    game, allowed, sides = opened(table, app, kind)
    table.set_cookie("lang", language)
    both = Both(table, game, phone, refused)
    for form in refused_forms(allowed, sides, language):
        both.attempt(form)
    for change_kind in allowed:
        for form in accepted_forms(change_kind, sides, language):
            both.attempt(form)
    if allowed:
        assert both.accepted >= 1
        # A hand being played takes no change; a game abandoned takes none either.
        form = accepted_forms(allowed[-1], sides, language)[0]
        if GAMES[kind].completing:
            play_steps(table, game, kind, 1)
            both.record(form)
            assert "hand_in_progress" in both.codes
            play_steps(table, game, kind, 1)
        both.record(form)  # taken again
        if "schedule" in allowed:  # the game ended now: over (and locked)
            assert "refused" not in both.record({"kind": "schedule", "end": "1"})
        else:
            assert table.post(f"/games/{game}/abandon").status_code == 302
        both.record(form)
        both.remove()  # the last change: the game is over
        assert both.codes[-2:] == ["game_over", "game_over"]
    assert "not_next_hand" in both.codes
    assert {"not_seated", "change_not_allowed"} & set(both.codes) or not allowed


def test_every_refusal_the_brief_names_is_met(table, app, phone, refused):
    """Oh Hell, which allows every change, meets every refusal compared above."""
    game, allowed, sides = opened(table, app, "oh_hell")
    both = Both(table, game, phone, refused)
    for form in refused_forms(allowed, sides, "en"):
        both.attempt(form)
    play_steps(table, game, "oh_hell", 1)
    both.record({"kind": "adjust", "player": "Ann", "points": "1"})
    assert {
        "not_next_hand",
        "not_seated",
        "already_seated",
        "wrong_type",
        "required",
        "name_invalid",
        "player_count",
        "custom_sizes_invalid",
        "option_value",
        "hand_in_progress",
    } <= set(both.codes), both.codes


def test_a_newcomer_is_matched_to_the_roster_however_typed(table, app, phone, refused):
    game, _allowed, _sides = opened(table, app, "oh_hell")
    both = Both(table, game, phone, refused)
    answer = both.record({"kind": "join", "new_player": "ＥＶＥ", "score": "zero"})
    assert answer["members"][-1] == "Eve"
    assert answer["entries"][-1] == {
        "change": {"kind": "join", "player": "Eve", "score": "zero"},
        "id": None,
    }
    assert answer["said"] == "Eve joins, starting on 0."


def test_the_hands_saved_after_changes_made_offline_are_the_servers(table, app, phone, refused):
    """A join and a sit-out made on the phone (no ids), then a hand saved on the phone with
    its seats read against the grown table: the server's state after the same posts."""
    game, _allowed, _sides = opened(table, app, "oh_hell")
    request = holds(table, game)
    for form in (
        {"kind": "join", "new_player": "Eve", "score": "average"},
        {"kind": "sit_out", "player": "Ben"},
    ):
        answer = on_phone({**request, "action": "record", "form": form}, phone)
        assert "state" in answer, answer
        assert answer["entries"][-1]["id"] is None
        request = {**request, "entries": answer["entries"], "members": answer["members"]}
        page = table.post(f"/games/{game}/table/changes", data={"before_hand": "", **form})
        assert page.status_code == 302
    assert request["members"] == ["Ann", "Ben", "Cy", "Eve"]
    assert played_on_phone(request, phone)["state"]["players"] == ["Ann", "Ben", "Cy", "Eve"]
    for _step in range(2):  # the bids, then the tricks, of the hand Ben sits out
        with app.app_context():
            played = games.played(db.session.get(Game, game))
            members = list(played.game.members)
            phase, fields = played.plugin.form.sample(played.state, played.players)
            current = played.state.current
            number = current.number if current else played.state.next["number"]
            seats = ",".join(str(members.index(name)) for name in played.players)
        assert "Ben" not in played.players
        form = {**fields, "seats": seats}
        answer = portable.save(
            {
                **request,
                "action": "update" if current else "record",
                "number": number,
                "phase": phase,
                "form": form,
            }
        )
        assert "state" in answer, answer
        request = {**request, "entries": answer["entries"]}
        url = f"/games/{game}/hands/{number}" if current else f"/games/{game}/hands"
        page = table.post(url, data={**form, "phase": phase, "number": str(number)})
        assert page.status_code in (200, 302)
        server = holds(table, game)
        assert without_ids(answer["entries"]) == without_ids(server["entries"])
        assert without_ids(answer["state"]) == without_ids(portable.play(server)["state"])
    assert answer["state"]["hands"][-1]["status"] == "scored"


def test_only_the_last_entry_is_undone_and_only_when_a_change(table, app, phone):
    game, _allowed, _sides = opened(table, app, "oh_hell")
    answer = on_phone({**holds(table, game), "action": "remove"}, phone)
    assert answer == {
        "refused": [
            {
                "code": "not_found",
                "message": "That change was not found.",
                "field": None,
                "hand": None,
            }
        ]
    }


def form_of(change: Change) -> dict:
    """The panel's form that describes ``change`` (what ``typed_for`` writes), names typed
    in small letters."""
    body = change.body
    form = {"kind": body["kind"], **typed_for(body)}
    for key in ("player", "by"):
        if key in form:
            form[key] = form[key].lower()
    if "sizes" in body:
        form["size"] = [str(size) for size in body["sizes"]] or [""]
        if not body["sizes"]:
            form["end"] = "1"
    return form


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_any_change_through_the_phones_form_is_the_rules(drawn):
    """Any change the rules' own generator draws, typed into the panel's form and made on the
    phone, is what the rules make of the change itself: the same state, or the same refusal."""
    setup, record, extra = drawn
    if not isinstance(extra, Change):
        return
    members = list(setup.players)
    for entry in record:
        if isinstance(entry, Change):
            for key in ("player", "by"):
                name = entry.body.get(key)
                if isinstance(name, str) and name not in members:
                    members.append(name)
    raw = [
        {"change": dict(entry.body), "id": entry.id} if isinstance(entry, Change) else entry
        for entry in record
    ]
    request = {
        "game": "oh_hell",
        "players": list(setup.players),
        "options": dict(setup.options),
        "first_dealer": setup.first_dealer,
        "members": members,
        "roster": list(ROSTER),  # a newcomer typed in small letters is the roster's
        "entries": raw,
        "action": "record",
        "form": form_of(extra),
    }
    answer = portable.change(request)
    body = dict(extra.body)
    if body["kind"] == "join" and "score" not in body:
        body["score"] = "last"  # the form's choice when none is made
    expected = portable.play({**request, "entries": [*raw, {"change": body}]})
    if "refused" in expected:
        assert "refused" in answer
        assert [each["code"] for each in answer["refused"]] == [
            each["code"] for each in expected["refused"]
        ]
    else:
        assert "refused" not in answer, (body, answer)
        assert answer["state"] == expected["state"]
        assert OH_HELL.play(setup, portable.entries_of(answer["entries"])) is not None

"""The score sheet shows each change of the table where it happened (issue 20): a column for
everyone who has been at the table, a joiner's column from the join with the starting total on
the change's line, a leaver's column ending there and marked, a hand sat out marked in its
cell, an adjustment's points in its player's column with its note, a substitute's and a
schedule's lines; the shared view and history's review page show the same; the sheet's undo
offers the last entry, a change or a hand."""

from __future__ import annotations

import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Game
from scorekeeper.services import table as table_changes
from tests.pages import csrf_token
from tests.pages import html_text
from tests.pages import text
from tests.test_table_panel import guarded_game

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def bids(**said):
    return {
        "bids": {name: bid for name, (bid, _) in said.items()},
        "tricks": {name: tricks for name, (_, tricks) in said.items()},
    }


def change(api, game_id: int, **body) -> dict:
    answer = api.post(f"/games/{game_id}/changes", body)
    assert answer.status_code == 201, answer.text
    return answer.get_json()


def hand(api, game_id: int, number: int, **said) -> None:
    answer = api.post(f"/games/{game_id}/hands", {**bids(**said), "number": number})
    assert answer.status_code == 201, answer.text


@pytest.fixture
def oh_hell(app, api, table):
    """Oh Hell: hand 1; Eve joins after Ann, Ben sits out hand 2; hand 2; Cy is docked 5
    points (a note); Dee leaves; Zed takes over from Ann; two hands of 3 and 2 cards left."""
    game = api.post("/games", {"game": "oh_hell", "players": FOUR}).get_json()["id"]
    hand(api, game, 1, Ann=(0, 0), Ben=(1, 1), Cy=(0, 0), Dee=(0, 0))
    change(api, game, kind="join", player="Eve", after="Ann")
    change(api, game, kind="sit_out", player="Ben")
    hand(api, game, 2, Ann=(0, 0), Eve=(1, 1), Cy=(0, 1), Dee=(1, 0))
    change(api, game, kind="adjust", player="Cy", points=-5, note="reneged")
    change(api, game, kind="leave", player="Dee")
    change(api, game, kind="substitute", player="Ann", by="Zed")
    change(api, game, kind="schedule", sizes=[3, 2])
    return game


def sheet_of(html: str) -> str:
    found = re.search(r'id="sheet-title".*?<table class="sheet[^"]*">(.*?)</table>', html, re.S)
    assert found, "no score sheet"
    return found.group(1)


def heads(html: str) -> list[str]:
    return [html_text(name) for name in re.findall(r'<span class="who">([^<]*)</span></th>', html)]


def rows(sheet: str) -> list[str]:
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", sheet, re.S).group(1)
    return re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)


def cells(row: str) -> list[str]:
    """A row's cells after its head, as text ("" for an empty one)."""
    return [text(cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def change_lines(sheet: str) -> list[str]:
    return [
        text(found).strip()
        for found in re.findall(
            r'<tr class="change-line [a-z_]+" data-change="\d+"[^>]*>(.*?)</tr>', sheet, re.S
        )
    ]


def totals(sheet: str) -> dict[str, str]:
    foot = re.search(r"<tfoot>(.*?)</tfoot>", sheet, re.S).group(1)
    return {
        html_text(name): text(cell).strip()
        for name, cell in re.findall(r'<td class="[^"]*" data-col="([^"]+)">(.*?)</td>', foot, re.S)
    }


def test_the_sheet_has_a_column_for_everyone_and_each_change_where_it_happened(table, oh_hell):
    page = table.get(f"/games/{oh_hell}")
    assert page.status_code == 200
    sheet = sheet_of(page.text)
    # Everyone who has been at the table, in the order they came; a leaver's column and the
    # column of who handed the seat over are dimmed.
    assert heads(sheet) == ["Ann", "Ben", "Cy", "Dee", "Eve", "Zed"]
    assert re.search(r'class="seat-col s1 gone"[^>]*><span class="seat-line">.*?Ann', sheet)
    assert re.search(r'class="seat-col s4 gone"', sheet)
    lines = rows(sheet)
    kinds = [
        "hand" if 'class="scored"' in row else re.search(r'class="([^"]+)"', row).group(1)
        for row in lines
    ]
    assert kinds == [
        "hand",
        "change-line join",
        "change-line figures join",
        "change-line sit_out",
        "hand",
        "change-line adjust",
        "change-line figures adjust",
        "change-line leave",
        "change-line substitute",
        "change-line figures substitute",
        "change-line schedule",
        "undo-row",
    ]
    # Hand 1: the starting four; Eve and Zed not at the table yet.
    assert cells(lines[0]) == ["0/0 ✓ 10", "1/1 ✓ 11", "0/0 ✓ 10", "0/0 ✓ 10", "", ""]
    # Eve joins: the sentence, then her starting total in her column.
    assert change_lines(sheet) == [
        "Eve joins after Ann, starting on 10.",
        "Ben sits out hand 2.",
        "Cy: −5 points (reneged).",
        "Dee leaves the game.",
        "Zed takes over from Ann.",
        "2 hands still to play: 3, 2 cards.",
    ]
    assert cells(lines[2]) == ["", "", "", "", "10", ""]
    # Hand 2: Ben sat out ("–", read as "sat out hand 2"), Eve played.
    assert cells(lines[4]) == ["0/0 ✓ 10", "– sat out hand 2", "0/1 ✗ 0", "1/0 ✗ 0", "1/1 ✓ 11", ""]
    assert (
        '<td class="sat-out" title="sat out hand 2"><span aria-hidden="true">–</span>' in lines[4]
    )
    # The adjustment's points in Cy's column (its note in the sentence above).
    assert cells(lines[6]) == ["", "", "−5", "", "", ""]
    # Zed takes Ann's seat and its total: Ann's column ends, Zed's starts on 20.
    assert cells(lines[9])[0].endswith("Zed takes over from Ann.")
    assert cells(lines[9])[1:] == ["", "", "", "", "20"]
    # The totals: Dee's is kept, marked where she left; Ann's went with the seat to Zed.
    assert totals(sheet) == {
        "Ann": "",
        "Ben": "11",
        "Cy": "5",
        "Dee": "10 left after hand 2",
        "Eve": "21",
        "Zed": "20",
    }
    # The standings say who left.
    dee = re.search(r'<span class="who">Dee</span>(.*?)</li>', page.text, re.S).group(1)
    assert '<span class="note gone-note">left the game</span>' in dee


def test_the_next_hand_after_the_changes_fills_the_new_columns(api, table, oh_hell):
    hand(api, oh_hell, 3, Zed=(1, 1), Ben=(0, 0), Cy=(0, 1), Eve=(1, 1))
    sheet = sheet_of(table.get(f"/games/{oh_hell}").text)
    third = rows(sheet)[-2]
    assert 'class="scored"' in third
    # Ann (the seat handed over) and Dee (left) have no cell in hand 3.
    assert cells(third) == ["", "0/0 ✓ 10", "0/1 ✗ 0", "", "1/1 ✓ 11", "1/1 ✓ 11"]
    assert cells(third).count("") == 2 and third.count('<td class="away">') == 2
    # The last entry is a hand now: its undo is offered, no change's.
    assert "Undo hand 3" in rows(sheet)[-1]
    assert "Undo:" not in sheet


def test_the_undo_row_offers_the_last_change_and_undoes_it(app, table, oh_hell):
    sheet = sheet_of(table.get(f"/games/{oh_hell}").text)
    undo = rows(sheet)[-1]
    # The last entry is the schedule change: no hand's undo, the change's with its sentence.
    assert "Undo hand" not in undo
    assert "Undo: 2 hands still to play: 3, 2 cards." in text(undo)
    action = re.search(r'<form method="post" action="([^"]+)"', undo).group(1)
    with app.app_context():
        last = db.session.get(Game, oh_hell).changes[-1]
        assert action == f"/games/{oh_hell}/changes/{last.id}/undo"
    done = table.post(action, follow_redirects=True)
    assert done.status_code == 200
    assert "The change of the table was undone." in done.text
    sheet = sheet_of(done.text)
    assert change_lines(sheet)[-1] == "Zed takes over from Ann."
    assert "Undo: Zed takes over from Ann." in text(rows(sheet)[-1])
    # Undo again: Ann is back in her seat with her total.
    table.post(re.search(r'action="([^"]+/undo)"', rows(sheet)[-1]).group(1))
    sheet = sheet_of(table.get(f"/games/{oh_hell}").text)
    assert heads(sheet) == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    assert totals(sheet)["Ann"] == "20"


def test_undoing_a_change_needs_the_csrf_token(make_app, account):
    client, api, game = guarded_game(make_app, FOUR)
    change_id = change(api, game, kind="sit_out", player="Ben")["changes"][-1]["id"]
    refused = client.post(f"/games/{game}/changes/{change_id}/undo")
    assert refused.status_code == 400
    assert len(api.get(f"/games/{game}").get_json()["changes"]) == 1
    token = csrf_token(client.get(f"/games/{game}").text)
    done = client.post(f"/games/{game}/changes/{change_id}/undo", data={"csrf_token": token})
    assert done.status_code == 302
    assert api.get(f"/games/{game}").get_json()["changes"] == []


def test_another_account_cannot_undo_a_change(api, other_api, logged_in):
    """The other account's game is a 404 before anything else."""
    game = other_api.post("/games", {"game": "oh_hell", "players": FOUR}).get_json()["id"]
    change_id = change(other_api, game, kind="sit_out", player="Ben")["changes"][-1]["id"]
    assert logged_in.post(f"/games/{game}/changes/{change_id}/undo").status_code == 404
    assert len(other_api.get(f"/games/{game}").get_json()["changes"]) == 1


def test_a_change_that_is_not_there_is_a_404_and_a_refusal_is_said(app, api, table):
    game = api.post("/games", {"game": "oh_hell", "players": FOUR}).get_json()["id"]
    assert table.post(f"/games/{game}/changes/999/undo").status_code == 404
    change(api, game, kind="sit_out", player="Ben")
    hand(api, game, 1, Ann=(0, 0), Cy=(1, 1), Dee=(0, 0))
    # Ben's sit-out is no longer the last entry; removing it would deal him into hand 1,
    # whose bids do not name him: refused, said, nothing changed.
    with app.app_context():
        change_id = db.session.get(Game, game).changes[-1].id
    answer = table.post(f"/games/{game}/changes/{change_id}/undo", follow_redirects=True)
    assert answer.status_code == 200
    assert '<p class="flash flash-warning">Hand 1: Enter a bid for Ben.</p>' in answer.text
    assert len(api.get(f"/games/{game}").get_json()["changes"]) == 1


def test_changes_before_the_first_hand_show_the_sheet(api, table):
    game = api.post("/games", {"game": "oh_hell", "players": FOUR}).get_json()["id"]
    change(api, game, kind="sit_out", player="Dee")
    sheet = sheet_of(table.get(f"/games/{game}").text)
    assert change_lines(sheet) == ["Dee sits out hand 1."]
    assert "Undo: Dee sits out hand 1." in text(rows(sheet)[-1])


def share(api, game_id: int) -> str:
    return api.post(f"/games/{game_id}/share").get_json()["url"].removeprefix("http://localhost")


def test_the_shared_view_shows_who_is_seated_who_left_and_the_changes(client, api, oh_hell):
    view = client.get(share(api, oh_hell))
    assert view.status_code == 200
    assert "At the table: Zed, Eve, Ben and Cy" in html_text(view.text)
    assert "Left the game: Dee" in html_text(view.text)
    sheet = sheet_of(view.text)
    assert heads(sheet) == ["Ann", "Ben", "Cy", "Dee", "Eve", "Zed"]
    assert change_lines(sheet)[2] == "Cy: −5 points (reneged)."
    # Read-only: no undo, no correction link.
    assert "undo" not in sheet.lower()
    assert "/edit" not in sheet


def test_history_shows_the_sheet_the_same_way(table, oh_hell):
    page = table.get(f"/history/games/{oh_hell}")
    assert page.status_code == 200
    assert "Ann, Ben, Cy, Dee, Eve, Zed" in page.text
    sheet = sheet_of(page.text)
    assert change_lines(sheet)[0] == "Eve joins after Ann, starting on 10."
    assert totals(sheet)["Dee"] == "10 left after hand 2"


def test_the_sheet_speaks_bengali(table, oh_hell):
    table.post("/language", data={"code": "bn", "next": "/"})
    sheet = sheet_of(table.get(f"/games/{oh_hell}").text)
    lines = change_lines(sheet)
    assert lines and "Eve" in lines[0] and "joins" not in lines[0]
    assert "left after" not in sheet
    assert "দান ২-এ বসে ছিলেন" in sheet  # Ben sat out hand 2
    assert "দান ২-এর পরে চলে গেছেন" in sheet  # Dee left after hand 2


@pytest.mark.skipif(
    "substitute" not in GAMES["spades"].rules.table_changes({}),
    reason="Spades takes no substitute yet (its rules are being finished)",
)
def test_a_spades_substitute_renames_the_team_from_then_on(app, api, table):
    game = api.post("/games", {"game": "spades", "players": FOUR}).get_json()["id"]
    first = {"bids": {"Ann": 3, "Ben": 3, "Cy": 3, "Dee": 3}}
    answer = api.post(f"/games/{game}/hands", {**first, "number": 1})
    assert answer.status_code == 201, answer.text
    tricks = {"tricks": {"Ann": 3, "Ben": 3, "Cy": 4, "Dee": 3}}
    answer = api.patch(f"/games/{game}/hands/1", tricks)
    assert answer.status_code == 200, answer.text
    with app.app_context():
        table_changes.record_change(
            db.session.get(Game, game), {"kind": "substitute", "player": "Cy", "by": "Zed"}, 2
        )
    page = table.get(f"/history/games/{game}")
    assert page.status_code == 200
    sheet = sheet_of(page.text)
    # The team's column under its current name; hand 1's points (keyed by "Ann & Cy") in it.
    assert heads(sheet) == ["Ann & Zed", "Ben & Dee"]
    assert change_lines(sheet) == ["Zed takes over from Cy."]
    first_row = rows(sheet)[0]
    assert 'data-side="Ann &amp; Zed"' in first_row
    assert cells(first_row) == ["6/7 ✓ 61 61 bags +1 → 1", "6/6 ✓ 60 60 bags +0 → 0"]
    assert totals(sheet) == {"Ann & Zed": "61", "Ben & Dee": "60"}


@pytest.mark.skipif(
    "substitute" not in GAMES["pitch"].rules.table_changes({"partnerships": True}),
    reason="Pitch partnerships take no substitute yet (its rules are being finished)",
)
def test_a_pitch_partnership_substitute_renames_the_team_and_keeps_its_hands(api, table):
    from tests.games.pitch.test_api_pitch import hand as pitch_hand
    from tests.games.pitch.test_api_pitch import new_game

    state = new_game(api, FOUR, partnerships=True)
    state = pitch_hand(api, state, {"Ben": 3}, high="Dee", low="Ben", jack="Ben", game="Ann")
    game = state["id"]
    change(api, game, kind="substitute", player="Cy", by="Zed")
    change(api, game, kind="adjust", player="Ann & Zed", points=2, note="misdeal")
    page = table.get(f"/history/games/{game}")
    assert page.status_code == 200
    sheet = sheet_of(page.text)
    assert heads(sheet) == ["Ann & Zed", "Ben & Dee"]
    lines = rows(sheet)
    # Hand 1 (scored as "Ann & Cy") in the renamed team's column.
    assert cells(lines[0]) == ["G +1 1", "HLJ +3 3"]
    assert change_lines(sheet) == ["Zed takes over from Cy.", "Ann & Zed: +2 points (misdeal)."]
    assert cells(lines[-1]) == ["+2", ""]  # history: read-only, no undo row
    assert totals(sheet) == {"Ann & Zed": "3", "Ben & Dee": "3"}

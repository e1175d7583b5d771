"""History lists cost the same whatever the history holds: ``/nights/`` and the API's list
of nights read a page with the same few SQL statements whether a night holds 1 game or 9,
and the page shows only the first games of each night (the rest behind a link to it)."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import Night
from scorekeeper.services import nights
from tests.conftest import login
from tests.conftest import make_account
from tests.conftest import new_token
from tests.test_stats import build_history
from tests.test_stats import counting
from tests.test_stats import query_plan

SHOWN = 6


def _listed(app, name: str, nights_count: int, per_night: int) -> tuple[dict, list[int]]:
    account = make_account(app, name)
    made = build_history(app, account.id, seed=3, nights_count=nights_count, per_night=per_night)
    return made, [account.id]


URLS = ["/nights/", "/nights/?page=2", "/nights/?game=oh_hell", "/nights/?player=Ann"]


def test_the_history_page_and_the_api_list_cost_the_same_for_small_and_large_nights(app):
    """The same two histories (11 nights of 1 game, 11 nights of 8) for the page and the API's
    list of nights: building them is most of this test's time."""
    counts, sizes, api_counts = {}, {}, []
    for name, per_night in (("small-club", 1), ("large-club", 8)):
        _listed(app, name, 11, per_night)
        client = app.test_client()
        assert login(client, name).status_code == 302
        for url in URLS:
            client.get(url)
            with counting(app) as seen:
                response = client.get(url)
            assert response.status_code == 200, url
            counts.setdefault(url, []).append(len(seen))
            sizes.setdefault(url, []).append(response.text.count('class="night-game"'))
        bearer = {"Authorization": f"Bearer {new_token(client, name)}"}
        client.get("/api/v1/nights", headers=bearer)
        with counting(app) as seen:
            answer = client.get("/api/v1/nights?page=1", headers=bearer)
        assert answer.status_code == 200
        body = answer.get_json()
        assert body["total"] == 11 and body["pages"] == 2 and len(body["nights"]) == 10
        # The API's contract: each night with all its games (API.md).
        assert all(len(night["games"]) == per_night for night in body["nights"])
        assert all(night["game_count"] == per_night for night in body["nights"])
        api_counts.append(len(seen))
    for url in URLS:
        assert counts[url][0] == counts[url][1], (url, counts[url])
        assert counts[url][0] <= 9, (url, counts[url])
        # Ten nights a page; at most six games each, however many a night holds.
        assert sizes[url][1] <= 10 * SHOWN, (url, sizes[url])
    assert sizes["/nights/"] == [10, 10 * SHOWN]
    assert api_counts[0] == api_counts[1], api_counts


def test_a_night_with_more_games_than_shown_links_to_the_rest(app):
    made, _ = _listed(app, "busy-club", 2, 9)
    client = app.test_client()
    assert login(client, "busy-club").status_code == 302
    page = client.get("/nights/").text
    cards = re.findall(
        r'<li class="card night-card">(.*?)</li>\s*(?=<li class="card|</ol>)', page, re.S
    )
    assert len(cards) == 2
    for card, night in zip(cards, reversed(made["nights"]), strict=True):
        assert card.count('class="night-game"') == SHOWN
        assert "9 games" in card
        assert f'href="/nights/{night}">3 more games: see the night</a>' in card


def test_a_night_with_few_games_has_no_link_to_more(app):
    _listed(app, "quiet-club", 2, 3)
    client = app.test_client()
    assert login(client, "quiet-club").status_code == 302
    page = client.get("/nights/").text
    assert page.count('class="night-game"') == 6
    assert "more games: see the night" not in page
    assert "more game: see the night" not in page


def test_a_history_filtered_by_a_player_reads_their_games_once_from_the_index(app):
    """The nights of a player's games are found from the player's seats, in the index alone,
    each game then read by its key: the account's other games are not read (at 10,000 games
    the filtered page's reads of the nights took 7 ms each when they went through every game,
    then 4.5 ms each from the seats' rows). The page and the count of all the matching nights
    are one read, not two."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite's query plans")
    _listed(app, "seated-club", 11, 4)
    client = app.test_client()
    assert login(client, "seated-club").status_code == 302
    with counting(app, parameters=True) as seen:
        page = client.get("/nights/?game=oh_hell&player=Ann")
    assert page.status_code == 200 and "night-card" in page.text
    # The page of nights, with how many there are in all.
    reads = [
        (sql, args) for sql, args in seen if sql.startswith(("SELECT night.", "SELECT count(*)"))
    ]
    assert len(reads) == 1, [sql for sql, _args in seen]
    assert "OVER" in reads[0][0]
    plan = query_plan(app, *reads[0])
    games = [line for line in plan if line.split()[1:2] == ["game"]]
    assert games and all("PRIMARY KEY" in line for line in games), plan
    seats = [line for line in plan if line.split()[1:2] == ["seat"]]
    assert seats and all("COVERING INDEX ix_seat_player_game" in line for line in seats), plan


def test_the_count_of_filtered_nights_is_the_same_on_every_page_and_past_the_last(app):
    """The count read beside a page is of every matching night, whichever page is read; a page
    past the last one lists none and still says how many there are."""
    _listed(app, "paged-club", 23, 2)
    with app.app_context():
        account = db.session.scalar(sa.select(Account).where(Account.username == "paged-club"))
        for player, kind in ((None, None), ("Ann", None), (None, "oh_hell"), ("Ann", "oh_hell")):
            every = db.session.scalars(
                sa.select(Game.night_id).where(*nights._game_filter(account, player, kind))
            ).all()
            expected = len({night for night in every if night is not None})
            assert expected > 10, (player, kind, expected)
            shown, totals = [], set()
            for page in range(1, 5):
                found, total = nights._night_page(account, player, kind, page, 10)
                shown += [night.id for night in found]
                totals.add(total)
            assert totals == {expected}, (player, kind)
            assert len(shown) == len(set(shown)) == expected
            dates = [db.session.get(Night, night).date for night in shown]
            assert dates == sorted(dates, reverse=True)


def test_a_list_reads_each_game_from_its_stored_copies_as_the_game_itself_reads(
    app, api, monkeypatch
):
    """The history lists read their games as lines of stored copies and names
    (``nights.game_lines``), not as games with their seats: each line says what the game
    itself says of its table, sides, totals and winners: teams (Pitch in partnerships), the
    lowest score winning (a score pad), a table that changed (a joiner, a substitute, a
    leaver), a game still in play. The names come a few games at a time (here 3: two
    statements for the four games)."""
    monkeypatch.setattr(nights, "NAMES_AT_ONCE", 3)
    from tests.test_api_table_changes import opened
    from tests.test_play_again import finished_oh_hell
    from tests.test_play_again import finished_pitch
    from tests.test_play_again import finished_score_pad

    changed = opened(api)
    for change in (
        {"kind": "join", "player": "Eve", "after": "Ann", "score": "average"},
        {"kind": "substitute", "player": "Dee", "by": "Gus"},
        {"kind": "leave", "player": "Ann"},
    ):
        assert api.post(f"/games/{changed}/changes", change).status_code == 201, change
    ids = [
        finished_pitch(api)["id"],
        finished_score_pad(api)["id"],
        finished_oh_hell(api)["id"],
        changed,
    ]
    with app.app_context(), counting(app) as seen:
        lines = nights.game_lines(sa.select(*nights.BRIEF_COLUMNS).where(Game.id.in_(ids)))
        assert len(seen) == 3, seen  # the games, then their names in two statements
        assert sorted(line.id for line in lines) == sorted(ids)
        for line in lines:
            game = db.session.get(Game, line.id)
            assert line.members == game.members, line.kind
            assert line.players == game.players
            assert line.sides == game.sides
            assert line.totals_by_side == game.totals_by_side
            assert line.winner_names == game.winner_names
            assert nights.standings(line) == nights.standings(game)
            assert line.plugin is game.plugin
        by_kind = {line.kind: line for line in lines if line.id != changed}
        assert by_kind["pitch"].winner_names == ["Ann & Cy"]
        assert [each["side"] for each in nights.standings(by_kind["score_pad"])][0] == "Cy"
        (table,) = [line for line in lines if line.id == changed]
        assert table.members == ["Ann", "Ben", "Cy", "Dee", "Eve", "Gus"]
        assert table.status == "in_progress" and table.winner_names == []

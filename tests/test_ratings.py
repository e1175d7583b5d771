"""Ratings across nights (RULES.md, "Ratings across nights"), through the JSON API: every
figure is checked against the ``openskill`` package run directly on the same matches, which
the test builds itself from the games it played (the final totals, winners, leavers and teams
the API answers), in the order they finished: ties, teams, a leaver, a second game kind, a
correction of an old game (every later game re-rated) and a deleted game."""

from __future__ import annotations

import re

import pytest
from openskill.models import PlackettLuce

from tests.test_stats import counting
from tests.test_stats import query_plan

ONE_HAND = {"sequence": "up", "max_cards": 1}


def new_game(api, kind, players, **options) -> int:
    answer = api.post("/games", {"game": kind, "players": list(players), "options": options})
    assert answer.status_code == 201, answer.text
    return answer.get_json()["id"]


def one_hand_oh_hell(api, made: list[str], players=("Ann", "Ben", "Cy", "Dee")) -> int:
    """A one-card game of Oh Hell: the players in ``made`` make their bid of 0 but the first,
    who bids and takes the trick; the others bid 1 and miss."""
    game = new_game(api, "oh_hell", players, **ONE_HAND)
    taker = made[0]
    bids = {name: (1 if name == taker or name not in made else 0) for name in players}
    tricks = {name: int(name == taker) for name in players}
    answer = api.post(f"/games/{game}/hands", {"number": 1, "bids": bids, "tricks": tricks})
    assert answer.status_code == 201, answer.text
    assert answer.get_json()["status"] == "finished"
    return game


def expected_ratings(api, finished: list[int]) -> dict[str, tuple[float, float, int]]:
    """The ratings openskill gives for the games ``finished`` (in the order they finished),
    computed here from each game's final state as the API answers it."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    games: dict[str, int] = {}
    for game in finished:
        state = api.get(f"/games/{game}").get_json()
        assert state["status"] == "finished"
        totals, winners, left = state["totals"], state["winners"], set(state["left"])
        teams = {" & ".join(team): team for team in state["teams"] or []}
        sides = list(totals)
        low = state.get("low_wins", False)

        def key(side, low=low, totals=totals):
            return totals[side] if low else -totals[side]

        stayed = [side for side in sides if side not in winners and side not in left]
        gone = [side for side in sides if side in left and side not in winners]
        ranks = dict.fromkeys(winners, 1)
        start = len(winners) + 1
        for group in (stayed, gone):
            for side in group:
                ranks[side] = start + sum(key(other) < key(side) for other in group)
            start += len(group)
        members = [teams.get(side, [side]) for side in sides]
        rated = model.rate(
            [[ratings.get(name) or model.rating() for name in team] for team in members],
            ranks=[ranks[side] for side in sides],
        )
        for team, new in zip(members, rated, strict=True):
            for name, rating in zip(team, new, strict=True):
                ratings[name] = rating
                games[name] = games.get(name, 0) + 1
    return {name: (r.mu, r.sigma, games[name]) for name, r in ratings.items()}


def served(api, **query) -> dict[str, tuple[float, float, int]]:
    answer = api.get("/ratings", query_string=query)
    assert answer.status_code == 200, answer.text
    lines = answer.get_json()["ratings"]
    ordinals = [line["ordinal"] for line in lines]
    assert ordinals == sorted(ordinals, reverse=True)  # best first
    for line in lines:
        assert line["ordinal"] == pytest.approx(line["mu"] - 3 * line["sigma"])
        assert len(line["history"]) == line["games"]
        assert line["history"][-1]["ordinal"] == pytest.approx(line["ordinal"])
    return {line["player"]: (line["mu"], line["sigma"], line["games"]) for line in lines}


def same(found: dict, expected: dict) -> None:
    assert set(found) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert found[name][0] == pytest.approx(mu), name
        assert found[name][1] == pytest.approx(sigma), name
        assert found[name][2] == games, name


def test_ratings_are_openskill_s_over_the_games_in_the_order_they_finished(api):
    finished = [
        one_hand_oh_hell(api, ["Ann", "Ben"]),  # Ann 11, Ben 10: Cy and Dee missed (tie)
        one_hand_oh_hell(api, ["Dee", "Cy", "Ben"]),
        one_hand_oh_hell(api, ["Cy"], players=("Ann", "Cy", "Eve")),
    ]
    expected = expected_ratings(api, finished)
    same(served(api, game="oh_hell"), expected)
    same(served(api), expected)  # every card game: only Oh Hell so far
    # A newcomer who played once is provisional; the ordinal is shown, mu - 3 sigma.
    eve = next(
        line for line in api.get("/ratings").get_json()["ratings"] if line["player"] == "Eve"
    )
    assert eve["provisional"] is True and eve["games"] == 1


def test_equal_totals_share_a_rank(api):
    tie = one_hand_oh_hell(api, ["Ann", "Ben", "Cy"])  # Ben and Cy made 0: 10 each
    state = api.get(f"/games/{tie}").get_json()
    assert state["totals"]["Ben"] == state["totals"]["Cy"]
    found = served(api, game="oh_hell")
    assert found["Ben"][:2] == pytest.approx(found["Cy"][:2])
    same(found, expected_ratings(api, [tie]))


def spades_to_the_end(api, bids: dict[str, int], tricks: dict[str, int]) -> int:
    """A Spades game to 250 of Ann & Cy against Ben & Dee, the same hand every time, played
    until it ends."""
    game = new_game(api, "spades", ["Ann", "Ben", "Cy", "Dee"], target=250)
    for number in range(1, 10):
        answer = api.post(
            f"/games/{game}/hands", {"number": number, "bids": bids, "tricks": tricks}
        )
        assert answer.status_code == 201, answer.text
        if answer.get_json()["status"] == "finished":
            return game
    raise AssertionError("the Spades game did not end")


def test_teams_rate_as_teams_and_each_game_has_its_own_rating(api):
    oh_hell = one_hand_oh_hell(api, ["Ann"])
    made = {"Ann": 6, "Ben": 1, "Cy": 6, "Dee": 0}
    spades = spades_to_the_end(api, made, made)
    found = served(api, game="spades")
    same(found, expected_ratings(api, [spades]))
    assert found["Ann"][:2] == pytest.approx(found["Cy"][:2])  # partners move together
    same(served(api, game="oh_hell"), expected_ratings(api, [oh_hell]))
    same(served(api), expected_ratings(api, [oh_hell, spades]))


def test_a_player_who_left_ranks_below_everyone_who_finished(api):
    game = new_game(api, "oh_hell", ["Ann", "Ben", "Cy", "Dee"], sequence="up", max_cards=2)
    first = {"number": 1, "bids": {"Ann": 0, "Ben": 1, "Cy": 0, "Dee": 0},
             "tricks": {"Ann": 0, "Ben": 1, "Cy": 0, "Dee": 0}}  # fmt: skip
    assert api.post(f"/games/{game}/hands", first).status_code == 201
    # Ben leaves with the best total so far.
    left = api.post(f"/games/{game}/changes", {"kind": "leave", "player": "Ben"})
    assert left.status_code == 201, left.text
    second = {"number": 2, "bids": {"Ann": 0, "Cy": 1, "Dee": 0},
              "tricks": {"Ann": 1, "Cy": 1, "Dee": 0}}  # fmt: skip
    answer = api.post(f"/games/{game}/hands", second)
    assert answer.status_code == 201, answer.text
    state = answer.get_json()
    assert state["status"] == "finished" and state["left"] == ["Ben"]
    assert state["totals"]["Ben"] > min(state["totals"][n] for n in ("Ann", "Cy", "Dee"))
    found = served(api, game="oh_hell")
    same(found, expected_ratings(api, [game]))
    assert found["Ben"][0] < min(found[name][0] for name in ("Ann", "Cy", "Dee"))


def test_a_correction_of_an_old_game_re_rates_every_later_game(api):
    first = one_hand_oh_hell(api, ["Ann", "Ben"])
    second = one_hand_oh_hell(api, ["Ann", "Cy"])
    third = one_hand_oh_hell(api, ["Dee"])
    before = served(api, game="oh_hell")
    # The first game was scored wrong: Dee took the trick, not Ann.
    assert api.post(f"/games/{first}/reopen").status_code == 200
    corrected = api.patch(
        f"/games/{first}/hands/1",
        {
            "bids": {"Ann": 1, "Ben": 0, "Cy": 1, "Dee": 1},
            "tricks": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 1},
        },  # fmt: skip
    )
    assert corrected.status_code == 200, corrected.text
    assert corrected.get_json()["status"] == "finished"
    after = served(api, game="oh_hell")
    # It keeps its place in the order (when it first finished): the games after it are
    # rated again from the corrected result.
    same(after, expected_ratings(api, [first, second, third]))
    assert after["Ann"][0] != pytest.approx(before["Ann"][0])
    # A deleted game leaves the ratings as if it had never been played.
    assert api.delete(f"/games/{second}").status_code == 204
    same(served(api, game="oh_hell"), expected_ratings(api, [first, third]))


def test_a_player_s_statistics_carry_their_ratings(api):
    one_hand_oh_hell(api, ["Ann", "Ben"])
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    stats = api.get(f"/players/{ann['id']}/stats").get_json()
    board = served(api, game="oh_hell")
    assert set(stats["ratings"]) == {"oh_hell", "*"}
    assert stats["ratings"]["oh_hell"]["mu"] == pytest.approx(board["Ann"][0])
    assert stats["ratings"]["*"]["games"] == 1


def test_an_unknown_game_is_refused(api):
    answer = api.get("/ratings", query_string={"game": "chess"})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["code"] == "option_value"


def test_games_finished_before_the_ratings_existed_are_rated_when_first_read(app, api):
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.models import RatingStep

    finished = [one_hand_oh_hell(api, ["Ann", "Ben"]), one_hand_oh_hell(api, ["Cy"])]
    with app.app_context():  # as the migration leaves them: no standings, no ratings
        db.session.execute(sa.update(Game).values(standing=sa.null()))
        db.session.execute(sa.delete(RatingStep))
        db.session.commit()
    same(served(api, game="oh_hell"), expected_ratings(api, finished))


def test_the_first_read_replays_the_unrated_games_a_chunk_at_a_time(app, api, other_api):
    """The games without standings are read a chunk at a time, each chunk in the same few
    statements whatever it holds (two games or five); their standings are those their saves
    wrote, their versions stay, and a game the request holds already sees its standing."""
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.models import Account
    from scorekeeper.models import Game
    from scorekeeper.models import RatingStep
    from scorekeeper.services import games as game_service

    few = [one_hand_oh_hell(api, ["Ann", "Ben"]), one_hand_oh_hell(api, ["Cy"])]
    many = [one_hand_oh_hell(other_api, made) for made in (["Ann"], ["Ben"], ["Cy", "Dee"],
                                                           ["Dee"], ["Ann", "Cy"])]  # fmt: skip
    with app.app_context():
        saved = dict(db.session.execute(sa.select(Game.id, Game.standing)).all())
        versions = dict(db.session.execute(sa.select(Game.id, Game.version)).all())
        assert all(saved[game] for game in few + many)
        db.session.execute(sa.update(Game).values(standing=sa.null()))
        db.session.execute(sa.delete(RatingStep))
        db.session.commit()
    statements = []
    for games in (few, many):
        with app.app_context():
            held = db.session.get(Game, games[-1])
            assert held.standing is None
            owner = db.session.get(Account, held.account_id)
            with counting(app) as seen:
                game_service._rate_unrated(owner.id)
            statements.append(len(seen))
            assert held.standing == saved[held.id]
    assert statements[0] == statements[1]
    with app.app_context():
        assert dict(db.session.execute(sa.select(Game.id, Game.standing)).all()) == saved
        assert dict(db.session.execute(sa.select(Game.id, Game.version)).all()) == versions
    same(served(other_api, game="oh_hell"), expected_ratings(other_api, many))


def plan_of_read(app, api, path: str, marker: str) -> list[str]:
    """SQLite's plan of the one statement holding ``marker`` that ``GET path`` ran."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite's query plans")
    with counting(app, parameters=True) as seen:
        assert api.get(path).status_code == 200
    [(sql, args)] = [(sql, args) for sql, args in seen if marker in sql]
    return query_plan(app, sql, args)


def test_a_read_of_the_ratings_asks_for_unrated_games_on_their_own_index(app, api):
    """Every read of the ratings asks whether finished games lack their standings: on the
    partial index of those games (nearly always empty), not by reading the account's every
    game (bench/ratings.py, 10,000 games: 5.9 ms a read, 0.01 ms on the index)."""
    one_hand_oh_hell(api, ["Ann"])
    plan = plan_of_read(app, api, "/ratings", "standing IS NULL")
    assert len(plan) == 1 and plan[0].startswith("SEARCH game USING"), plan
    assert "INDEX ix_game_unrated (account_id=?)" in plan[0], plan


def test_a_player_s_ratings_are_read_from_their_own_steps(app, api):
    """A player's statistics read their rating in every scope from their own rating steps (by
    player, then scope), not from every step of the account."""
    one_hand_oh_hell(api, ["Ann"])
    player = next(p["id"] for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    plan = plan_of_read(app, api, f"/players/{player}/stats", "GROUP BY rating_step.scope")
    steps = [line for line in plan if line.startswith("SEARCH rating_step")]
    assert len(steps) == 2, plan
    assert all("ix_rating_step_player_scope (account_id=? AND player_id=?)" in line
               for line in steps), plan  # fmt: skip


def test_a_restored_backup_has_the_same_ratings(api, other_api):
    finished = [one_hand_oh_hell(api, ["Ann", "Ben"]), one_hand_oh_hell(api, ["Dee", "Cy"])]
    backup = api.get("/backup").get_json()
    assert other_api.post("/restore", backup).status_code == 201
    same(served(other_api, game="oh_hell"), served(api, game="oh_hell"))
    same(served(other_api), expected_ratings(api, finished))


def board_rows(page) -> list[str]:
    import re

    return re.findall(r'<th scope="row"><a href="/stats/players/\d+">([^<]+)</a>', page.text)


def test_the_ratings_page_lists_the_best_first_and_marks_provisional_ratings(api, logged_in):
    for _ in range(3):
        one_hand_oh_hell(api, ["Cy", "Ann"])
    one_hand_oh_hell(api, ["Cy"], players=("Cy", "Eve", "Fay"))
    expected = served(api)
    best_first = sorted(expected, key=lambda name: -(expected[name][0] - 3 * expected[name][1]))
    page = logged_in.get("/stats/ratings")
    assert page.status_code == 200
    assert board_rows(page) == best_first
    assert page.text.count(">provisional<") == sum(s > 6.0 for _, s, _ in expected.values())
    assert board_rows(logged_in.get("/stats/ratings?game=oh_hell")) == best_first
    assert logged_in.get("/stats/ratings?game=spades").status_code == 200
    assert logged_in.get("/stats/ratings?game=score_pad").status_code == 404
    assert logged_in.get("/stats/ratings?game=chess").status_code == 404
    assert "/stats/ratings" in logged_in.get("/stats/").text
    bengali = logged_in.get("/stats/ratings", headers={"Accept-Language": "bn"})
    assert "রেটিং" in bengali.text and "১" in bengali.text


def test_a_leaderboard_breaks_ties_by_its_own_figure_then_by_name(api, logged_in):
    # One game: Ann wins; Ben (10) beats Cy and Dee (-1 each with a missed bid of 1) on score.
    one_hand_oh_hell(api, ["Ann", "Ben"])
    rows = board_rows(logged_in.get("/stats/oh_hell"))
    assert rows == ["Ann", "Ben", "Cy", "Dee"]
    one_hand_oh_hell(api, ["Dee", "Cy"], players=("Dee", "Cy", "Eve"))
    # Dee now won 1 of 2; Ann 1 of 1; among the players with no win, the best average first.
    rows = board_rows(logged_in.get("/stats/oh_hell"))
    assert rows[:2] == ["Ann", "Dee"]
    assert rows[2:] == ["Ben", "Cy", "Eve"]


def all_steps(app) -> set[tuple]:
    """Every rating step: its scope, position, game, player, rating and the player's games of
    the scope by then, which must be their steps in the scope up to it (counted here)."""
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.models import RatingStep

    with app.app_context():
        rows = db.session.execute(
            sa.select(
                RatingStep.scope,
                RatingStep.position,
                RatingStep.game_id,
                RatingStep.player_id,
                RatingStep.mu,
                RatingStep.sigma,
                RatingStep.games,
            ).order_by(RatingStep.position)
        ).all()
    counted: dict[tuple, int] = {}
    for where, _, _, who, _, _, games in rows:
        counted[where, who] = counted.get((where, who), 0) + 1
        assert games == counted[where, who], (where, who)
    return {(s, p, g, who, round(mu, 9), round(sigma, 9), n) for s, p, g, who, mu, sigma, n in rows}


def test_a_game_that_ends_takes_its_place_after_the_game_before_it_in_each_scope(app, api):
    """A game that ends is rated after the game before it in each of its scopes (its own
    kind's and every card game's): its place is the place of that game's step plus one, or,
    where that game has no step (it has no standings yet), the number of the scope's games
    before it. Either way the steps are those a rating of the whole history from the first
    game writes (``ratings.rebuild``)."""
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.models import RatingStep
    from scorekeeper.services import ratings

    played = [one_hand_oh_hell(api, ["Ann", "Ben"])]
    # Spades counts among every card game, not among Oh Hell's: the next Oh Hell game comes
    # after it in one scope and after the first Oh Hell game in the other.
    played.append(spades_to_the_end(api, {"Ann": 4, "Ben": 3, "Cy": 3, "Dee": 3},
                                    {"Ann": 4, "Ben": 3, "Cy": 3, "Dee": 3}))  # fmt: skip
    played.append(one_hand_oh_hell(api, ["Cy"]))
    unrated = one_hand_oh_hell(api, ["Dee", "Ann"])
    with app.app_context():  # the last game as one kept from before the ratings
        db.session.execute(sa.update(Game).where(Game.id == unrated).values(standing=sa.null()))
        db.session.execute(sa.delete(RatingStep).where(RatingStep.game_id == unrated))
        db.session.commit()
    played.append(one_hand_oh_hell(api, ["Ben"], players=("Ann", "Ben", "Cy", "Eve")))
    appended = all_steps(app)
    with app.app_context():
        places = dict(
            db.session.execute(
                sa.select(RatingStep.scope, RatingStep.position).where(
                    RatingStep.game_id == played[-1]
                )
            ).all()
        )
        # Its place: after the 4 games of every card game, after Oh Hell's 3.
        assert places == {"oh_hell": 3, ratings.ALL: 4}
        account = db.session.scalar(sa.select(Game.account_id).where(Game.id == played[-1]))
        ratings.rebuild(account)
        db.session.commit()
    assert appended == all_steps(app)
    assert {game for _, _, game, *_ in appended} == set(played)
    # Corrections rate the scope again from the corrected game on, each after the game before
    # it: the third game (after a game with steps), then the last (after the one without).
    for game, players in ((played[2], ("Ann", "Ben", "Cy", "Dee")),
                          (played[-1], ("Ann", "Ben", "Cy", "Eve"))):  # fmt: skip
        assert api.post(f"/games/{game}/reopen").status_code == 200
        said = {name: int(name == "Ann") for name in players}
        corrected = api.patch(f"/games/{game}/hands/1", {"bids": said, "tricks": said})
        assert corrected.status_code == 200, corrected.text
        assert corrected.get_json()["status"] == "finished"
        rerated = all_steps(app)
        assert rerated != appended
        with app.app_context():
            ratings.rebuild(account)
            db.session.commit()
        assert rerated == all_steps(app)
        appended = rerated


#: A seek on a player's steps in a scope: either index of them (by scope or by player first)
#: with all three of the account, the player and the scope given.
_PLAYER_S_STEPS = re.compile(
    r"SEARCH rating_step USING (COVERING )?INDEX ix_rating_step_(player_scope|scope_player) "
    r"\((account_id|player_id|scope)=\? AND (account_id|player_id|scope)=\? "
    r"AND (account_id|player_id|scope)=\?\)$"
)


def seeks_a_player_s_steps(line: str) -> bool:
    return _PLAYER_S_STEPS.match(line) is not None


def test_a_game_that_ends_is_rated_on_indexes_whatever_the_history(app, api):
    """The statements that rate a game that has just ended read the games before and after
    it, and its players' last ratings, on their indexes: neither reads the account's every
    game or every rating step (bench: at 10,000 games, 8.6 and 10 ms of every game's end,
    while the save held SQLite's turn to write; now 0.2 ms together)."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite's query plans")
    one_hand_oh_hell(api, ["Ann", "Ben"])
    one_hand_oh_hell(api, ["Cy"])
    with counting(app, parameters=True) as seen:
        one_hand_oh_hell(api, ["Dee"])
    [around] = [(sql, args) for sql, args in seen if "ORDER BY game.finished_at DESC" in sql]
    plan = query_plan(app, *around)
    reads = [line for line in plan if line.startswith(("SCAN", "SEARCH"))]
    assert len(reads) == 9, plan  # the constant row, then 4 reads of games in each scope
    assert all(
        "USING INDEX ix_game_account_finished (account_id=? AND status=? AND finished_at" in line
        or "USING INDEX ix_rating_step_game_id (game_id=?)" in line
        for line in reads[1:]
    ), plan
    [last] = [(sql, args) for sql, args in seen if "UNION ALL" in sql and "rating_step" in sql]
    plan = query_plan(app, *last)
    reads = [line for line in plan if line.startswith(("SCAN rating_step", "SEARCH rating_step"))]
    assert len(reads) == 8, plan  # 4 players, 2 scopes
    assert all(seeks_a_player_s_steps(line) for line in reads), plan


def test_a_scope_s_ratings_read_each_player_s_last_step_on_its_index(app, api):
    """The ratings of a scope (``/stats/ratings``, ``/api/v1/ratings``) read each player's last
    step, their rating and games now, one seek each on their steps' index: never the scope's
    every step grouped by player (bench/ratings.py, ``/stats/ratings`` at 10,000 games: 21.9
    ms, 5.5 at 1,000)."""
    one_hand_oh_hell(api, ["Ann", "Ben"])
    one_hand_oh_hell(api, ["Cy"])
    plan = plan_of_read(app, api, "/ratings", "ORDER BY rating_step.position DESC")
    reads = [line for line in plan if line.startswith(("SCAN", "SEARCH"))]
    assert len(reads) == 3, plan  # the account's players, their last step, found by its id
    assert reads[0].startswith("SEARCH player USING"), plan
    assert "rating_step USING INTEGER PRIMARY KEY (rowid=?)" in reads[1], plan
    assert seeks_a_player_s_steps(reads[2]), plan


def test_the_migration_counts_the_games_of_the_steps_kept_before_it(empty_database, tmp_path):
    """The migration that gives each rating step its player's games counts them for the steps
    kept before it: after it, every step's count is what rating the history writes."""
    from flask_migrate import downgrade
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.services import accounts
    from scorekeeper.services import games
    from scorekeeper.services import ratings
    from tests.conftest import settings_for

    app = create_app(settings_for(empty_database, str(tmp_path)))
    with app.app_context():
        upgrade()
        account = accounts.create_account("club", "correct horse battery")
        for made in (["Ann", "Ben"], ["Cy"], ["Dee", "Ann"], ["Ben"]):
            game = games.create_game(account, "oh_hell", ["Ann", "Ben", "Cy", "Dee"], ONE_HAND)
            taker = made[0]
            hand = {
                "bids": {n: int(n == taker or n not in made) for n in ("Ann", "Ben", "Cy", "Dee")},
                "tricks": {n: int(n == taker) for n in ("Ann", "Ben", "Cy", "Dee")},
            }
            games.record_hand(games.get_game(account, game.game.id), hand)
        account_id = account.id
        db.session.commit()
        written = all_steps(app)
        assert {n for *_, n in written} == {1, 2, 3, 4}
        db.session.remove()
        downgrade(revision="b5d8e2f1a637")
        upgrade()
        db.session.remove()
        assert all_steps(app) == written
        ratings.rebuild(account_id)
        db.session.commit()
        assert all_steps(app) == written
        db.session.remove()
        db.engine.dispose()

"""Player statistics and leaderboards: every figure equals a slow recomputation that replays
each game through the rules; pages, query counts, another account's 404."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from contextlib import contextmanager
from datetime import date
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games.oh_hell.rules import forbidden_dealer_bid
from scorekeeper.games.oklahoma_gin import rules as gin_rules
from scorekeeper.games.pitch.rules import legal_calls
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import Player
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import players
from scorekeeper.services import stats
from scorekeeper.views.chart import chart
from scorekeeper.views.chart import nice_step
from tests.conftest import login
from tests.conftest import make_account

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
RANKS = gin_rules.RANKS


# A varied history, played through the services -------------------------------------------


def oh_hell_hand(rng: random.Random, state, options) -> dict:
    upcoming = state.next
    cards, dealer = upcoming["cards"], upcoming["dealer"]
    players_ = list(state.sides)
    bids = {name: rng.choice([0, 0, 1, rng.randint(0, cards)]) for name in players_}
    if options["hook"]:
        others = [bid for name, bid in bids.items() if name != dealer]
        if bids[dealer] == forbidden_dealer_bid(cards, others):
            bids[dealer] = 1 if bids[dealer] == 0 else 0
    tricks = dict.fromkeys(players_, 0)
    # Often give each their bid (so bids are made), otherwise deal the tricks at random.
    if sum(bids.values()) == cards and rng.random() < 0.7:
        tricks = dict(bids)
    else:
        for _ in range(cards):
            tricks[rng.choice(players_)] += 1
    return {"bids": bids, "tricks": tricks}


def pitch_hand(rng: random.Random, state, options) -> dict:
    upcoming = state.next
    order, dealer = upcoming["order"], upcoming["dealer"]
    names = [name for team in state.teams for name in team] if state.teams else state.sides
    if rng.random() < 0.5:
        auction: list = []
        while len(auction) < len(order):
            calls = legal_calls(auction, dealer, order, options)
            call = rng.choice(calls + ["pass"] if "pass" in calls else calls)
            auction.append([order[len(auction)], call])
        bidding = {"auction": auction}
    else:
        bidding = {"pitcher": rng.choice(names), "bid": rng.randint(options["min_bid"], 4)}
    return {
        **bidding,
        "high": rng.choice(names),
        "low": rng.choice(names),
        "jack": rng.choice([None, *names]),
        "game": rng.choice([None, *names]),
    }


def gin_hand(rng: random.Random, state, options) -> dict:
    players_ = list(state.sides)
    upcard = rng.choice(RANKS)
    suit = rng.choice(["clubs", "diamonds", "hearts", "spades"])
    limit = gin_rules.knock_limit(upcard)
    roll = rng.random()
    knocker = rng.choice(players_)
    entry = {"upcard": upcard, "upcard_suit": suit}
    if roll < 0.1:
        return {**entry, "result": "draw"}
    if roll < 0.3 or (upcard == "A" and options["ace_requires_gin"]):
        return {
            **entry,
            "result": "gin",
            "knocker": knocker,
            "opponent_deadwood": rng.randint(0, 40),
        }
    return {
        **entry,
        "result": "knock",
        "knocker": knocker,
        "knocker_deadwood": rng.randint(0, limit),
        "opponent_deadwood": rng.randint(0, 30),
    }


HANDS = {"oh_hell": oh_hell_hand, "pitch": pitch_hand, "oklahoma_gin": gin_hand}


def random_options(rng: random.Random, kind: str, count: int) -> dict:
    if kind == "oh_hell":
        return {
            "sequence": rng.choice(["up", "down", "up-down", "down-up"]),
            "max_cards": rng.randint(1, 4),
            "hook": rng.random() < 0.5,
            "miss_scoring": rng.choice(["zero", "per_trick"]),
            "zero_bid_bonus": rng.random() < 0.3,
        }
    if kind == "pitch":
        return {
            "target": 7,
            "partnerships": count == 4 and rng.random() < 0.5,
            "min_bid": rng.choice([1, 2]),
        }
    return {
        "target": 50,
        "spade_double": rng.random() < 0.3,
        "ace_requires_gin": rng.random() < 0.3,
        "game_bonus": rng.choice([0, 100]),
        "box_bonus": rng.choice([0, 25]),
        "shutout_double": rng.random() < 0.5,
    }


def play_game(account, rng, kind, names, night_id=None, finish=True) -> int:
    count = len(names)
    result = games.create_game(
        account, kind, names, random_options(rng, kind, count), rng.choice(names), night_id
    )
    game_id = result.game.id
    state = result.state
    limit = 40 if finish else rng.randint(1, 3)
    played = 0
    while state.next and played < limit:
        entry = HANDS[kind](rng, state, result.game.options)
        if kind == "oh_hell" and not finish and played == limit - 1 and rng.random() < 0.5:
            # Leave the last hand open: bids only (not scored yet).
            result = games.record_hand(games.get_game(account, game_id), {"bids": entry["bids"]})
        else:
            result = games.record_hand(games.get_game(account, game_id), entry)
        state = result.state
        played += 1
    return game_id


def build_history(app, account_id: int, seed: int = 1, nights_count: int = 3, per_night: int = 3):
    """Nights of games of every kind (some unfinished), a few games outside any night, a
    renamed player and an archived one. Returns {"nights": [ids], "games": [ids]}."""
    rng = random.Random(seed)
    made = {"nights": [], "games": []}
    with app.app_context():
        account = db.session.get(Account, account_id)
        kinds = ["oh_hell", "pitch", "oklahoma_gin"]
        start = date(2024, 1, 5)
        for index in range(nights_count):
            night = nights.create_night(
                account, start + timedelta(days=7 * index), f"Night {index + 1}", "Ann's"
            )
            made["nights"].append(night.id)
            for number in range(per_night):
                kind = kinds[(index + number) % 3]
                count = {
                    "oh_hell": rng.randint(3, 5),
                    "pitch": rng.choice([3, 4]),
                    "oklahoma_gin": 2,
                }
                names = rng.sample(NAMES[:5], count[kind])
                finish = rng.random() < 0.8
                made["games"].append(play_game(account, rng, kind, names, night.id, finish))
        for kind in kinds:
            names = rng.sample(NAMES, {"oh_hell": 3, "pitch": 4, "oklahoma_gin": 2}[kind])
            made["games"].append(play_game(account, rng, kind, names))
        roster = {p.name: p for p in players.roster(account)}
        if "Cy" in roster:
            players.update_player(account, roster["Cy"].id, name="Cyrus")
        if "Eve" in roster:
            players.update_player(account, roster["Eve"].id, archived=True)
        if "Dee" in roster:  # a name no JSON path can spell: accents, quotes, a backslash
            players.update_player(account, roster["Dee"].id, name='Dée "Ace" \\ 🃏')
    return made


# The slow recomputation: replay every game through the rules -----------------------------


def _empty(kind: str) -> dict:
    base = dict.fromkeys(
        ["played", "won", "in_progress", "score_total", "hands", "points_total"], 0
    )
    extra = {
        "oh_hell": ["bids", "bids_made", "zero_bids", "zero_bids_made"],
        "pitch": ["hands_pitched", "pitches_made", "pitches_set"],
        "oklahoma_gin": ["rounds_won", "gins", "undercuts", "undercut"],
    }.get(kind) or [fact.key for fact in GAMES[kind].rules.facts]  # games not in the history
    base.update(dict.fromkeys(extra, 0))
    if kind == "oklahoma_gin":
        base["head_to_head"] = {}
    return base


def slow_player_stats(account_id: int, player_id: int) -> dict:
    """Every figure of one player, recomputed from the hands by replaying each game."""
    figures = {kind: _empty(kind) for kind in GAMES}
    every = db.session.scalars(
        sa.select(Game)
        .where(Game.account_id == account_id)
        .options(selectinload(Game.seats), selectinload(Game.hands))
    ).all()
    for game in every:
        seat = next((s for s in game.seats if s.player_id == player_id), None)
        if seat is None:
            continue
        name = seat.player.name
        state = games.played(game).state
        side = next((" & ".join(t) for t in state.teams or [] if name in t), name)
        f = figures[game.kind]
        if state.finished:
            f["played"] += 1
            f["won"] += int(side in state.winners)
            f["score_total"] += state.totals[side]
        else:
            f["in_progress"] += 1
        for hand in state.hands:
            if hand.status != "scored":
                continue
            f["hands"] += 1
            f["points_total"] += hand.points[side]
            info = hand.info
            if game.kind == "oh_hell":
                bid = hand.input["bids"][name]
                f["bids"] += 1
                f["bids_made"] += int(info["made"][name])
                f["zero_bids"] += int(bid == 0)
                f["zero_bids_made"] += int(bid == 0 and info["made"][name])
            elif game.kind == "pitch" and info["pitcher"] == name:
                f["hands_pitched"] += 1
                f["pitches_made" if info["made"] else "pitches_set"] += 1
            elif game.kind == "oklahoma_gin":
                f["rounds_won"] += int(info["winner"] == name)
                f["gins"] += int(info["result"] == "gin" and hand.input["knocker"] == name)
                if info["undercut"]:
                    f["undercuts"] += int(info["winner"] == name)
                    f["undercut"] += int(hand.input["knocker"] == name)
        if game.kind == "oklahoma_gin" and state.finished:
            other = next(s for s in game.seats if s.player_id != player_id)
            record = f["head_to_head"].setdefault(
                other.player_id,
                {"opponent": {"id": other.player_id, "name": other.player.name}, "played": 0,
                 "won": 0, "lost": 0},
            )  # fmt: skip
            record["played"] += 1
            record["won" if name in state.winners else "lost"] += 1
    return figures


def fast_figures(account_id: int, player_id: int) -> dict:
    account = db.session.get(Account, account_id)
    found = stats.player_stats(account, player_id).answer().model_dump(mode="json")["games"]
    for data in found.values():
        for key in ("game", "title", "win_rate", "average_score", "points_per_hand", "best_score"):
            data.pop(key)
        data.update(data.pop("figures"))
        if "head_to_head" in data:
            data["head_to_head"] = {r["opponent"]["id"]: r for r in data["head_to_head"]}
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_player_figure_equals_a_replay_of_the_recorded_hands(app, account, seed):
    build_history(app, account.id, seed=seed, nights_count=4, per_night=3)
    with app.app_context():
        ids = db.session.scalars(sa.select(Player.id).where(Player.account_id == account.id))
        checked = 0
        for player_id in ids:
            slow = slow_player_stats(account.id, player_id)
            assert fast_figures(account.id, player_id) == slow, player_id
            checked += sum(f["hands"] for f in slow.values())
        assert checked > 50  # the history is not trivially small


def test_rates_and_averages_are_the_counts_divided(app, account):
    build_history(app, account.id, seed=4)
    with app.app_context():
        acct = db.session.get(Account, account.id)
        for player in players.roster(acct):
            found = stats.player_stats(acct, player.id)
            for figures in found.kinds.values():
                if figures.played:
                    assert figures.win_rate == figures.won / figures.played
                    assert figures.average_score == figures.score_total / figures.played
                else:
                    assert figures.win_rate is None and figures.average_score is None
                if figures.hands:
                    assert figures.points_per_hand == figures.points_total / figures.hands
            assert found.played == sum(k.played for k in found.kinds.values())


def test_leaderboards_equal_a_replay_of_every_finished_game(app, account):
    build_history(app, account.id, seed=5, nights_count=4, per_night=3)
    with app.app_context():
        acct = db.session.get(Account, account.id)
        every = db.session.scalars(
            sa.select(Game).options(selectinload(Game.seats), selectinload(Game.hands))
        ).all()
        for kind in GAMES:
            expected: dict[int, dict] = defaultdict(
                lambda: {"played": 0, "won": 0, "score_total": 0, "best": None}
            )
            for game in every:
                state = games.played(game).state
                if game.kind != kind or not state.finished:
                    continue
                for seat in game.seats:
                    name = seat.player.name
                    side = next((" & ".join(t) for t in state.teams or [] if name in t), name)
                    line = expected[seat.player_id]
                    line["played"] += 1
                    line["won"] += int(side in state.winners)
                    line["score_total"] += state.totals[side]
                    score = state.totals[side]
                    line["best"] = score if line["best"] is None else max(line["best"], score)
            board = stats.leaderboard(acct, kind)
            found = {
                s.player_id: {
                    "played": s.played, "won": s.won, "score_total": s.score_total, "best": s.best
                }
                for s in board
            }  # fmt: skip
            assert found == dict(expected)
            rates = [(s.win_rate, s.won) for s in board]
            assert rates == sorted(rates, key=lambda r: (-r[0], -r[1]))


def test_pitch_partners_share_their_team_result(app, account):
    with app.app_context():
        acct = db.session.get(Account, account.id)
        names = ["Ann", "Ben", "Cy", "Dee"]
        result = games.create_game(acct, "pitch", names, {"partnerships": True})
        game_id = result.game.id
        # Ann & Cy pitch and make it every hand: 4 points a hand, 7 to win.
        for pitcher in ["Ann", "Cy"]:
            entry = {"pitcher": pitcher, "bid": 2, "high": "Ann", "low": "Cy", "jack": "Cy",
                     "game": "Ann"}  # fmt: skip
            result = games.record_hand(games.get_game(acct, game_id), entry)
        assert result.state.winners == ["Ann & Cy"]
        ids = {p.name: p.id for p in players.roster(acct)}
        cy = stats.player_stats(acct, ids["Cy"]).kinds["pitch"]
        assert (
            cy.played,
            cy.won,
            cy.score_total,
            cy.figure("hands_pitched"),
            cy.figure("pitches_made"),
        ) == (1, 1, 8, 1, 1)
        ben = stats.player_stats(acct, ids["Ben"]).kinds["pitch"]
        pitched = ben.figure("hands_pitched")
        assert (ben.played, ben.won, ben.score_total, pitched, ben.points_total) == (1, 0, 0, 0, 0)


def test_gin_figures_for_a_known_game(app, account):
    with app.app_context():
        acct = db.session.get(Account, account.id)
        result = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], {"target": 50})
        game_id = result.game.id
        rounds = [
            {"upcard": "7", "result": "knock", "knocker": "Ann", "knocker_deadwood": 5,
             "opponent_deadwood": 3},  # Ben undercuts Ann: 10 + 2
            {"upcard": "K", "result": "draw"},
            {"upcard": "9", "result": "gin", "knocker": "Ben", "opponent_deadwood": 20},  # 45
        ]  # fmt: skip
        for entry in rounds:
            games.record_hand(games.get_game(acct, game_id), entry)
        ids = {p.name: p.id for p in players.roster(acct)}
        ben = (
            stats.player_stats(acct, ids["Ben"])
            .answer()
            .model_dump(mode="json")["games"]["oklahoma_gin"]
        )
        ann = (
            stats.player_stats(acct, ids["Ann"])
            .answer()
            .model_dump(mode="json")["games"]["oklahoma_gin"]
        )
        ben, ann = {**ben, **ben["figures"]}, {**ann, **ann["figures"]}
    assert {k: ben[k] for k in ("played", "won", "rounds_won", "gins", "undercuts", "hands")} == {
        "played": 1, "won": 1, "rounds_won": 2, "gins": 1, "undercuts": 1, "hands": 3,
    }  # fmt: skip
    assert ben["average_score"] == 57.0
    assert ben["head_to_head"] == [
        {"opponent": {"id": ids["Ann"], "name": "Ann"}, "played": 1, "won": 1, "lost": 0}
    ]
    assert (ann["undercut"], ann["rounds_won"], ann["win_rate"]) == (1, 0, 0.0)
    assert ann["head_to_head"][0]["lost"] == 1


def test_oh_hell_bids_and_zero_bids(app, account):
    with app.app_context():
        acct = db.session.get(Account, account.id)
        result = games.create_game(
            acct, "oh_hell", ["Ann", "Ben", "Cy"], {"sequence": "down", "max_cards": 2}
        )
        game_id = result.game.id
        games.record_hand(
            games.get_game(acct, game_id),
            {"bids": {"Ann": 0, "Ben": 1, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 1, "Cy": 1}},
        )
        games.record_hand(
            games.get_game(acct, game_id),
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
        )
        ann_id = next(p.id for p in players.roster(acct) if p.name == "Ann")
        ann = stats.player_stats(acct, ann_id).kinds["oh_hell"]
    figures = [ann.figure(key) for key in ("bids", "bids_made", "zero_bids", "zero_bids_made")]
    assert figures == [2, 1, 2, 1]
    assert (ann.hands, ann.points_total, ann.points_per_hand) == (2, 10, 5.0)
    assert (ann.played, ann.won) == (1, 0)  # Ben: 11 + 10 = 21 beats Ann's 10


# The chart ---------------------------------------------------------------------------------


def test_progression_starts_at_zero_and_ends_at_the_totals(app, account):
    build_history(app, account.id, seed=6, nights_count=2, per_night=3)
    with app.app_context():
        for game in db.session.scalars(
            sa.select(Game).options(selectinload(Game.seats), selectinload(Game.hands))
        ):
            result = games.played(game)
            series = stats.progression(result.state)
            assert all(values[0] == 0 for values in series.series.values())
            assert series.finals == result.state.totals
            assert len(series.labels) == len(next(iter(series.series.values())))
            drawn = chart(series)
            if len(series.labels) > 1:
                assert len(drawn["lines"]) == len(result.state.sides)
                labels = [tick["label"] for tick in drawn["yticks"]]
                assert min(labels) <= min(min(v) for v in series.series.values())
                assert max(labels) >= max(max(v) for v in series.series.values())
            else:
                assert drawn is None


def test_gridlines_use_round_steps():
    assert [nice_step(span) for span in (4, 10, 40, 90, 130, 700)] == [1, 5, 10, 25, 50, 200]


# Pages ------------------------------------------------------------------------------------


def player_ids(app, account_id) -> dict[str, int]:
    with app.app_context():
        return dict(
            db.session.execute(
                sa.select(Player.name, Player.id).where(Player.account_id == account_id)
            ).all()
        )


def test_player_page_shows_the_figures(app, account, logged_in):
    with app.app_context():
        acct = db.session.get(Account, account.id)
        result = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], {"target": 50})
        games.record_hand(
            games.get_game(acct, result.game.id),
            {
                "upcard": "9",
                "result": "gin",
                "knocker": "Ann",
                "opponent_deadwood": 30,
            },  # fmt: skip
        )
    ids = player_ids(app, account.id)
    page = logged_in.get(f"/stats/players/{ids['Ann']}")
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.text)
    assert "<h1>Ann</h1>" in text
    assert "<dt>Gins</dt><dd>1</dd>" in text
    assert "<dt>Win rate</dt><dd>100%</dd>" in text
    assert "<dt>Average final score</dt><dd>55.0</dd>" in text
    assert "No Oh Hell game yet." in text
    assert re.search(r"Ben</a></th><td>1</td><td>1</td><td>0</td>", text)


def test_leaderboard_page_ranks_the_players(app, account, logged_in):
    with app.app_context():
        acct = db.session.get(Account, account.id)
        for winner in ("Ann", "Ann", "Ben"):
            result = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], {"target": 50})
            games.record_hand(
                games.get_game(acct, result.game.id),
                {
                    "upcard": "9",
                    "result": "gin",
                    "knocker": winner,
                    "opponent_deadwood": 30,
                },  # fmt: skip
            )
    page = logged_in.get("/stats/oklahoma_gin")
    assert page.status_code == 200
    rows = re.findall(r'<th scope="row"><a href="/stats/players/\d+">(\w+)</a>', page.text)
    assert rows == ["Ann", "Ben"]
    assert "67%" in page.text and "33%" in page.text
    assert logged_in.get("/stats/chess").status_code == 404
    index = logged_in.get("/stats/")
    assert "2 games" not in index.text and "3 games" in index.text


def test_another_account_gets_404_for_stats(app, account, logged_in):
    build_history(app, account.id, seed=7, nights_count=1, per_night=2)
    ids = player_ids(app, account.id)
    make_account(app, "other-table")
    other = app.test_client()
    assert login(other, "other-table").status_code == 302
    for player_id in ids.values():
        assert other.get(f"/stats/players/{player_id}").status_code == 404
        assert logged_in.get(f"/stats/players/{player_id}").status_code == 200
    board = other.get("/stats/oh_hell")
    assert board.status_code == 200 and "No finished Oh Hell game yet." in board.text


def test_stats_pages_need_a_login(client):
    for url in ("/stats/", "/stats/players/1", "/stats/pitch"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"]


# A fixed number of queries, whatever the history's size -----------------------------------


@contextmanager
def counting(app, parameters: bool = False):
    """The SQL statements run meanwhile (with ``parameters``: each with its parameters)."""
    with app.app_context():
        engine = db.engine
    seen: list = []

    def hit(conn, cursor, statement, given, *args):
        seen.append((statement, given) if parameters else statement)

    event.listen(engine, "before_cursor_execute", hit)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", hit)


def query_plan(app, sql: str, args) -> list[str]:
    """SQLite's plan of a statement ``counting(app, parameters=True)`` saw, a line a step."""
    with app.app_context():
        connection = db.session.connection()
        return [row[-1] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", args)]


def queries_for(app, client, url: str) -> int:
    client.get(url)  # warm up (first-request work is not the page's)
    with counting(app) as seen:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(seen)


def busiest_player(app, account_id: int) -> int:
    """The player of the account who sat in the most games."""
    from scorekeeper.models import Seat

    with app.app_context():
        return db.session.execute(
            sa.select(Seat.player_id, sa.func.count())
            .join(Player, Player.id == Seat.player_id)
            .where(Player.account_id == account_id)
            .group_by(Seat.player_id)
            .order_by(sa.func.count().desc(), Seat.player_id)
        ).first()[0]


def test_stats_pages_make_the_same_queries_for_a_small_and_a_larger_history(app):
    counts = []
    for name, size in (("small-club", (1, 3)), ("big-club", (6, 4))):
        acct = make_account(app, name)
        build_history(app, acct.id, seed=8, nights_count=size[0], per_night=size[1])
        client = app.test_client()
        assert login(client, name).status_code == 302
        busiest = busiest_player(app, acct.id)
        urls = [f"/stats/players/{busiest}", "/stats/", *(f"/stats/{k}" for k in GAMES)]
        counts.append([queries_for(app, client, url) for url in urls])
    assert counts[0] == counts[1]
    assert max(counts[0]) <= 8, counts[0]


def test_a_save_upserts_the_statistics_in_one_order_whatever_the_game_s_stage(monkeypatch):
    """On PostgreSQL each upserted row is locked in the order sent: two saves of games with the
    same players, one finishing (played, won ... then hands) and one going on (hands,
    points ...), deadlocked when each sent its rows in its tally's own order (the crash
    drill's burst found it: 409 to one of them). Rows go by player, then key."""
    from scorekeeper.services import results

    sent = []
    monkeypatch.setattr(
        results.bulk, "insert_values", lambda head, width, rows, tail="": sent.append(rows)
    )
    old = [{"in_progress": 1, "hands": 2, "points": 7}, {"in_progress": 1, "hands": 2}]
    new = [{"won": 1, "played": 1, "hands": 3, "points": 9, "best": 9}, {"played": 1, "hands": 3}]
    results.apply_tally("oh_hell", "", [8, 3], old, [8, 3], new)
    assert len(sent) == 1  # one statement
    rows = [(player, key) for player, _kind, _variant, key, _value in sent[0]]
    assert rows == sorted(rows) and {player for player, _ in rows} == {3, 8}


def test_a_game_s_statistics_count_its_finished_games_in_an_index_alone(app):
    """How many games of one game (and variant) the account finished is counted on the index
    of its games by game, status and variant, never by reading each finished game's row
    (bench: /stats/oh_hell at 10,000 games, 4.8 ms of its 10; 0.4 now)."""
    acct = make_account(app, "count-club")
    made = build_history(app, acct.id, seed=4, nights_count=2, per_night=3)
    with app.app_context():
        account = db.session.get(Account, acct.id)
        expected = {
            (kind, variant): count
            for kind, variant, count in db.session.execute(
                sa.select(Game.kind, Game.variant, sa.func.count())
                .where(Game.id.in_(made["games"]), Game.status == "finished")
                .group_by(Game.kind, Game.variant)
            )
        }
        sqlite = db.engine.dialect.name == "sqlite"
    assert expected
    for (kind, variant), count in expected.items():
        with counting(app, parameters=True) as seen, app.app_context():
            account = db.session.get(Account, acct.id)
            assert stats.finished_games(account, kind, variant) == count
            whole = sum(n for (k, _v), n in expected.items() if k == kind)
            assert stats.finished_games(account, kind) == whole
        if sqlite:
            for sql, given in [(sql, given) for sql, given in seen if "count(game.id)" in sql]:
                plan = query_plan(app, sql, given)
                assert len(plan) == 1, plan
                assert (
                    "USING COVERING INDEX ix_game_account_kind (account_id=? AND kind=?"
                    in (plan[0])
                ), plan

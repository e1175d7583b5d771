"""Backup and restore: a whole account as JSON, restored into an empty account with nothing
lost (also from SQLite to PostgreSQL); a damaged, foreign or misplaced backup is refused with a
clear message and changes nothing."""

from __future__ import annotations

import copy
import gzip
import io
import json
import os
import random
import tempfile
import uuid

import pytest
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.config import database_uri
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.services import accounts
from scorekeeper.services import backup
from scorekeeper.services import games as game_service
from scorekeeper.services import rule_sets as rule_set_service
from scorekeeper.services import stats
from scorekeeper.services.backup import restore as restore_writer
from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import empty_tables
from tests.conftest import login
from tests.conftest import make_account
from tests.conftest import new_token
from tests.conftest import settings_for
from tests.pages import csrf_token
from tests.test_stats import HANDS
from tests.test_stats import NAMES
from tests.test_stats import build_history

PG_ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def export(app, account_id: int) -> dict:
    with app.app_context():
        return backup.export_account(db.session.get(Account, account_id))


def restore(app, account_id: int, document) -> dict:
    with app.app_context():
        return backup.restore_account(db.session.get(Account, account_id), document)


def comparable(document: dict) -> dict:
    """The document without what differs between two accounts by design."""
    document = copy.deepcopy(document)
    document.pop("exported_at")
    document.pop("account")
    return document


def derived(app, account_id: int) -> list:
    """Every derived copy of the account's games, in creation order."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(
                Game.status, Game.totals, Game.winners, Game.hand_count, Game.locked, Game.tally
            )
            .where(Game.account_id == account_id)
            .order_by(Game.id)
        ).all()
        results = db.session.execute(
            sa.select(HandResult.number, HandResult.seat, HandResult.key, HandResult.value)
            .join(Game, Game.id == HandResult.game_id)
            .where(Game.account_id == account_id)
            .order_by(Game.id, HandResult.number, HandResult.seat, HandResult.key)
        ).all()
        return [tuple(row) for row in rows] + [tuple(row) for row in results]


def all_stats(app, account_id: int) -> dict:
    with app.app_context():
        account = db.session.get(Account, account_id)
        found = {}
        for player in db.session.scalars(
            sa.select(Player).where(Player.account_id == account_id).order_by(Player.id)
        ):
            figures = stats.player_stats(account, player.id).answer().model_dump(mode="json")
            figures.pop("player")
            for kind in figures["games"].values():
                for record in kind.get("head_to_head", []):
                    record["opponent"].pop("id")
            found[player.name] = figures
        return found


def counts(app, account_id: int) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(sa.select(sa.func.count()).where(model.account_id == account_id))
            for model in (Player, Night, Game)
        )


def table_counts(app) -> dict[str, int]:
    """How many rows every table holds."""
    with app.app_context():
        return {
            table.name: db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
        }


@pytest.fixture
def built_history(app, account):
    """``account`` with a varied history entered hand by hand through the services; returns
    its backup document. For the tests that compare a restore with what the services made."""
    build_history(app, account.id, seed=11, nights_count=3, per_night=3)
    return export(app, account.id)


@pytest.fixture
def history(app, account, history_document):
    """``account`` with the same varied history, restored from the backup of it made once per
    worker (entering it hand by hand costs seconds a test); returns its backup document."""
    restore(app, account.id, history_document)
    document = export(app, account.id)
    assert comparable(document) == comparable(history_document)
    return document


def test_a_backup_holds_what_was_entered(built_history):
    history = built_history
    assert history["format"] == "scorekeeper-backup" and history["version"] == 2
    assert history["account"] == {"username": "friday-club"}
    assert [p["id"] for p in history["players"]] == list(range(1, len(history["players"]) + 1))
    assert any(p["archived"] for p in history["players"])
    assert {p["name"] for p in history["players"]} >= {"Cyrus"}
    assert len(history["nights"]) == 3 and history["nights"][0]["place"] == "Ann's"
    assert len(history["games"]) == 12
    assert sum(game["night"] is None for game in history["games"]) == 3
    game = history["games"][0]
    assert set(game) == {
        "id", "game", "options", "first_dealer", "players", "night", "locked", "abandoned",
        "created_at", "updated_at", "finished_at", "hands", "joined", "changes",
    }  # fmt: skip
    assert set(game["hands"][0]) == {"number", "input", "created_at", "updated_at"}
    assert "points" not in json.dumps(history)  # derived copies are recomputed on restore


def test_restore_into_an_empty_account_loses_nothing(app, account, built_history):
    history = built_history
    original_stats = all_stats(app, account.id)
    target = make_account(app, "new-club")
    restored = restore(app, target.id, history)
    assert restored["games"] == 12 and restored["nights"] == 3
    assert restored["hands"] == sum(len(game["hands"]) for game in history["games"])
    assert comparable(export(app, target.id)) == comparable(history)
    assert derived(app, target.id) == derived(app, account.id)
    assert all_stats(app, target.id) == original_stats


def test_a_restore_numbers_its_games_after_the_greatest_id(app, account, built_history):
    """On SQLite a restore sets its games' ids after the first one's (restore.py): they
    follow it, whatever the database held, here once its last game was deleted (SQLite
    then gives a new row that game's id again), and every row of a game is its own."""
    original = derived(app, account.id)
    with app.app_context():
        last = db.session.scalar(sa.select(sa.func.max(Game.id)))
        game_service.delete_game(db.session.get(Game, last))
        greatest = db.session.scalar(sa.select(sa.func.max(Game.id)))
    target = make_account(app, "new-club")
    restore(app, target.id, built_history)
    with app.app_context():
        ids = db.session.scalars(
            sa.select(Game.id).where(Game.account_id == target.id).order_by(Game.id)
        ).all()
        sqlite = db.engine.dialect.name == "sqlite"
    assert len(ids) == len(built_history["games"]) and greatest < ids[0]
    if sqlite:
        assert ids == list(range(greatest + 1, greatest + 1 + len(ids)))
    # Seats, hands and their results went to their own games.
    assert comparable(export(app, target.id)) == comparable(built_history)
    assert derived(app, target.id) == original


def test_the_pages_download_and_restore_a_backup(app, account, history, logged_in):
    download = logged_in.get("/backup/download")
    assert download.status_code == 200
    assert download.mimetype == "application/gzip"
    assert download.is_streamed
    disposition = download.headers["Content-Disposition"]
    assert 'filename="scorekeeper-friday-club-' in disposition and disposition.endswith('.json.gz"')
    assert comparable(json.loads(gzip.decompress(download.data))) == comparable(history)
    page = logged_in.get("/backup")
    assert "this one has some" in page.text and 'type="file"' not in page.text

    make_account(app, "new-club")
    fresh = app.test_client()
    assert login(fresh, "new-club").status_code == 302
    assert 'type="file"' in fresh.get("/backup").text
    upload = {"backup": (io.BytesIO(download.data), "backup.json")}
    response = fresh.post("/backup", data=upload, content_type="multipart/form-data")
    assert response.status_code == 302
    listing = fresh.get(response.headers["Location"])
    players = len(history["players"])
    assert f"Backup restored: {players} players, 3 nights, 12 games." in listing.text
    assert "Night 3" in listing.text


def test_a_page_restore_refusal_says_why_and_restores_nothing(app, account, logged_in):
    response = logged_in.post(
        "/backup",
        data={"backup": (io.BytesIO(b"name,score\nAnn,3\n"), "scores.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "This file is not a Scorekeeper backup: it is not JSON. Nothing was restored." in (
        response.text
    )
    assert 'aria-invalid="true"' in response.text
    missing = logged_in.post("/backup", data={}, content_type="multipart/form-data")
    assert missing.status_code == 422 and "Choose the backup file to restore." in missing.text
    assert counts(app, account.id) == (0, 0, 0)


def test_restore_is_refused_into_an_account_with_data(app, account, history):
    before = export(app, account.id)
    with pytest.raises(Refusal) as refused:
        restore(app, account.id, history)
    assert refused.value.code == "restore_refused"
    assert "only be restored into an account with no players, nights or games" in (
        refused.value.message
    )
    assert refused.value.message.endswith("Nothing was restored.")
    assert comparable(export(app, account.id)) == comparable(before)
    # A roster alone is data too.
    other = make_account(app, "roster-only")
    with app.app_context():
        db.session.add(Player(account_id=other.id, name="Zed", name_key="zed"))
        db.session.commit()
    with pytest.raises(Refusal):
        restore(app, other.id, history)
    assert counts(app, other.id) == (1, 0, 0)


@pytest.fixture(scope="module")
def history_document(database):
    """The backup of a varied history, built once for every damaged copy made of it."""
    app = create_app(settings_for(database["uri"], database["instance"]))
    account_id = make_account(app, "friday-club").id
    build_history(app, account_id, seed=11, nights_count=3, per_night=3)
    document = export(app, account_id)
    with app.app_context():
        empty_tables()
        db.engine.dispose()
    return document


def damage(document: dict, how: str) -> dict:
    """The document with one thing broken."""
    doc = copy.deepcopy(document)
    games = doc["games"]
    oh_hell = next(g for g in games if g["game"] == "oh_hell" and len(g["hands"]) >= 1)
    if how == "unknown game":
        games[-1]["game"] = "canasta"
    elif how == "seat of nobody":
        games[0]["players"][0] = 999
    elif how == "seated twice":
        games[0]["players"][1] = games[0]["players"][0]
    elif how == "too few players":
        oh_hell["players"] = oh_hell["players"][:2]
    elif how == "same name twice":
        doc["players"][1]["name"] = doc["players"][0]["name"].upper()
    elif how == "blank name":
        doc["players"][0]["name"] = ""
    elif how == "tricks do not add up":
        hand = oh_hell["hands"][0]["input"]
        first = next(iter(hand["tricks"]))
        hand["tricks"][first] += 1
    elif how == "hand numbers skip":
        oh_hell["hands"][0]["number"] = 2
    elif how == "hand is not an object":
        oh_hell["hands"][0] = "bids"
    elif how == "missing time":
        del games[2]["created_at"]
    elif how == "time without zone":
        doc["nights"][0]["created_at"] = "2024-01-05T20:00:00"
    elif how == "night not in the backup":
        games[0]["night"] = 42
    elif how == "bad option":
        games[0]["options"]["surprise"] = True
    elif how == "first dealer off the table":
        games[0]["first_dealer"] = 9
    elif how == "locked but not over":
        finished = next(g for g in games if g["locked"] and len(g["hands"]) > 1)
        finished["hands"].pop()
        finished["finished_at"] = None
    elif how == "abandoned but over":
        next(g for g in games if g["locked"])["abandoned"] = True
    elif how == "bad date":
        doc["nights"][0]["date"] = "Friday"
    elif how == "players not a list":
        doc["players"] = {"1": "Ann"}
    elif how == "duplicate ids":
        doc["nights"][1]["id"] = doc["nights"][0]["id"]
    elif how == "wrong type":
        doc["players"][0]["archived"] = "no"
    elif how == "duplicate game ids":
        games[1]["id"] = games[0]["id"]
    elif how == "hand number not a number":
        long = next(g for g in games if len(g["hands"]) >= 2)
        long["hands"][1]["number"] = "2"
    elif how == "hand time missing":
        del oh_hell["hands"][0]["updated_at"]
    elif how == "night not an object":
        doc["nights"][1] = "Friday"
    elif how == "night name too long":
        doc["nights"][0]["name"] = "x" * 81
    elif how == "seat not a number":
        games[0]["players"][1] = "Ann"
    elif how == "night not a number":
        games[0]["night"] = "1"
    elif how == "dealer not a number":
        games[0]["first_dealer"] = 0.0
    elif how == "hands not a list":
        games[0]["hands"] = {}
    elif how == "account not valid":
        doc["account"] = {"username": 5}
    return doc


DAMAGES = [
    ("unknown game", "is of an unknown game “canasta”"),
    ("seat of nobody", "seat 1 names no player of the backup (999)"),
    ("seated twice", "a player sits at the table twice"),
    ("too few players", "This game needs 3 to 7 players; 2 chosen."),
    ("same name twice", "two players are called"),
    ("blank name", "Enter a name."),
    ("tricks do not add up", "(Oh Hell), Hand 1: Tricks add up to"),
    ("hand numbers skip", "the hands are not numbered 1, 2, 3"),
    ("hand is not an object", "hand 1 is not an object"),
    ("missing time", "has no valid “created_at”"),
    ("time without zone", "has no time zone"),
    ("night not in the backup", "belongs to a night not in the backup"),
    ("bad option", "There is no option called “surprise”."),
    ("first dealer off the table", "the first dealer is not a seat"),
    ("locked but not over", "is marked finished but is not over"),
    ("abandoned but over", "is marked abandoned but is over"),
    ("bad date", "“Friday” is not a date"),
    ("players not a list", "the list of players is missing"),
    ("duplicate ids", "two nights have the id 1"),
    ("wrong type", "“archived” is not true or false"),
    ("duplicate game ids", "two games have the id 1."),
    ("hand number not a number", ", hand 2: “number” is not a whole number."),
    ("hand time missing", ", hand 1 has no valid “updated_at” (a date and time)."),
    ("night not an object", "entry 2 of “nights” is not an object."),
    ("night name too long", "Night 1: the name is longer than 80 characters."),
    ("seat not a number", "Game 1: seat 2 names no player of the backup ('Ann')."),
    ("night not a number", "Game 1 belongs to a night not in the backup."),
    ("dealer not a number", "Game 1: “first_dealer” is not a whole number."),
    ("hands not a list", "Game 1: “hands” is not a list."),
    ("account not valid", "“account.username” is not valid."),
]
#: Where the refusal says the problem is (its ``field``), for some of the damages.
PLACES = {
    "duplicate game ids": "games[1].id",
    "hand time missing": ".hands[0].updated_at",
    "night not an object": "nights[1]",
    "seat not a number": "games[0].players[1]",
    "wrong type": "players[0].archived",
    "tricks do not add up": ".hands[0]",
}


@pytest.mark.parametrize(("how", "message"), DAMAGES, ids=[d[0] for d in DAMAGES])
def test_a_damaged_backup_is_refused_and_nothing_is_restored(app, history_document, how, message):
    target = make_account(app, "new-club")
    with pytest.raises(Refusal) as refused:
        restore(app, target.id, damage(history_document, how))
    assert refused.value.code == "restore_refused"
    assert refused.value.message.startswith("This backup is damaged: ")
    assert message in refused.value.message
    assert refused.value.message.endswith("Nothing was restored.")
    assert refused.value.field.endswith(PLACES.get(how, ""))
    assert counts(app, target.id) == (0, 0, 0)
    # The undamaged backup still restores afterwards.
    restore(app, target.id, history_document)
    assert counts(app, target.id)[2] == 12


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([1, 2, 3], "This file is not a Scorekeeper backup."),
        ({"format": "other-app", "version": 1}, "This file is not a Scorekeeper backup."),
        ({"players": []}, "This file is not a Scorekeeper backup."),
        (
            {"format": "scorekeeper-backup", "version": 3},
            "This backup is in format version 3; this app reads version 2.",
        ),
    ],
)
def test_a_foreign_file_is_refused(app, account, document, message):
    with pytest.raises(Refusal) as refused:
        restore(app, account.id, document)
    assert refused.value.code == "restore_refused"
    assert refused.value.message == f"{message} Nothing was restored."
    assert counts(app, account.id) == (0, 0, 0)


@pytest.mark.parametrize(
    "failure",
    [sa.exc.IntegrityError("INSERT", {}, Exception("simulated")), RuntimeError("simulated")],
    ids=["constraint", "crash"],
)
def test_a_failure_in_the_middle_of_a_restore_changes_nothing(
    app, account, history, monkeypatch, failure
):
    """The games are written a batch at a time: a failure after some batches are in leaves
    the account as empty as it was (a constraint is a refusal, anything else an error)."""
    target = make_account(app, "new-club")
    real = restore_writer._insert_results
    calls = {"n": 0}

    def failing(rows):
        calls["n"] += 1
        real(rows)
        if calls["n"] == 3:  # players, nights, rule sets and two batches of games are in
            raise failure

    monkeypatch.setattr(restore_writer, "BATCH", 4)
    monkeypatch.setattr(restore_writer, "_insert_results", failing)
    before = table_counts(app)
    with app.app_context():
        account_row = db.session.get(Account, target.id)
        if isinstance(failure, sa.exc.IntegrityError):
            with pytest.raises(Refusal) as refused:
                backup.restore_account(account_row, history)
            assert refused.value.code == "restore_refused"
        else:
            with pytest.raises(RuntimeError):
                backup.restore_account(account_row, history)
    assert calls["n"] == 3
    assert counts(app, target.id) == (0, 0, 0)
    assert table_counts(app) == before


# From SQLite to PostgreSQL -----------------------------------------------------------------


def _postgres_database():
    """A throw-away PostgreSQL database (its URL), or a skip saying why there is none."""
    try:
        import psycopg

        connection = psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:  # noqa: BLE001 - any failure means "no PostgreSQL here"
        pytest.skip(
            f"SQLite to PostgreSQL restore skipped: no PostgreSQL answered at {PG_ADMIN_URL} "
            f"({error.__class__.__name__})"
        )
    name = f"scorekeeper_test_{uuid.uuid4().hex[:10]}"
    with connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return connection, name, PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def _fresh_app(uri: str, folder: str):
    from flask_migrate import upgrade

    app = create_app(settings_for(uri, folder))
    with app.app_context():
        upgrade()
    return app


def test_a_sqlite_backup_restores_into_postgresql_with_nothing_lost(app, account, tmp_path):
    on_postgres = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    cleanup = None
    if on_postgres:
        # The suite runs on PostgreSQL: the source is a temporary SQLite database.
        source = _fresh_app(f"sqlite:///{tmp_path}/source.db", str(tmp_path))
        with source.app_context():
            source_id = accounts.create_account("sqlite-club", PASSWORD).id
        target, target_id = app, account.id
    else:
        # The suite runs on SQLite: the target is a temporary PostgreSQL database.
        admin, name, url = _postgres_database()
        source, source_id = app, account.id
        target = _fresh_app(database_uri(url, str(tmp_path)), tempfile.mkdtemp())
        with target.app_context():
            target_id = accounts.create_account("pg-club", PASSWORD).id

        def cleanup():
            with target.app_context():
                db.session.remove()
                db.engine.dispose()
            import psycopg

            with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.close()

    try:
        assert source.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
        assert target.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
        build_history(source, source_id, seed=12, nights_count=3, per_night=3)
        document = json.loads(json.dumps(export(source, source_id)))  # as a file would
        restored = restore(target, target_id, document)
        assert restored["games"] == 12
        assert comparable(export(target, target_id)) == comparable(document)
        assert derived(target, target_id) == derived(source, source_id)
        assert all_stats(target, target_id) == all_stats(source, source_id)
    finally:
        if cleanup:
            cleanup()
        if on_postgres:
            with source.app_context():
                db.engine.dispose()


# The page's upload: its own size limit, and the CSRF check kept ------------------------------


def test_the_restore_page_still_checks_the_csrf_token(make_app, history):
    secure = make_app(WTF_CSRF_ENABLED=True)
    make_account(secure, "new-club")
    client = secure.test_client()
    token = csrf_token(client.get("/login").text)
    data = {"username": "new-club", "password": PASSWORD, "csrf_token": token}
    assert client.post("/login", data=data).status_code == 302
    body = json.dumps(history).encode()
    forged = client.post(
        "/backup",
        data={"backup": (io.BytesIO(body), "backup.json")},
        content_type="multipart/form-data",
    )
    assert forged.status_code == 400
    assert "This form was out of date" in forged.text
    with secure.app_context():
        target = db.session.scalar(sa.select(Account.id).where(Account.username == "new-club"))
    assert counts(secure, target) == (0, 0, 0)
    token = csrf_token(client.get("/backup").text)
    sent = client.post(
        "/backup",
        data={"backup": (io.BytesIO(body), "backup.json"), "csrf_token": token},
        content_type="multipart/form-data",
    )
    assert sent.status_code == 302
    assert counts(secure, target) == (len(history["players"]), 3, 12)


def test_a_backup_file_above_the_limit_is_refused_on_the_page(make_app):
    small = make_app(RESTORE_MAX_CONTENT_LENGTH=2000)
    make_account(small, "new-club")
    client = small.test_client()
    assert login(client, "new-club").status_code == 302
    big = b'{"format": "scorekeeper-backup", "padding": "' + b"x" * 4000 + b'"}'
    response = client.post(
        "/backup",
        data={"backup": (io.BytesIO(big), "backup.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    assert "That file is larger than the 0.0019" in response.text
    assert "Nothing was restored." in response.text


def test_a_backup_may_be_larger_than_any_other_request(make_app, history):
    tight = make_app(MAX_CONTENT_LENGTH=1000)
    body = json.dumps(history).encode()
    assert len(body) > 10 * 1000
    make_account(tight, "new-club")
    client = tight.test_client()
    assert login(client, "new-club").status_code == 302
    response = client.post(
        "/backup",
        data={"backup": (io.BytesIO(body), "backup.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    with tight.app_context():
        target = db.session.scalar(sa.select(Account.id).where(Account.username == "new-club"))
    assert counts(tight, target)[2] == 12
    # Any other form still stops at the general limit.
    refused = client.post("/nights/new", data={"notes": "x" * 2000})
    assert refused.status_code == 413


# Every installed game, saved rule sets, streaming -------------------------------------------


def needed_options(rules) -> dict:
    """What a game cannot start without: a name for any text option that has no default."""
    return {
        spec.key: "Catan"
        for spec in rules.option_specs(rules.min_players)
        if spec.kind == "text" and spec.default is None and (spec.minimum or 0) > 0
    }


def every_game_history(app, account_id: int) -> None:
    """A game of every registered game (played a few hands where the tests know how), at
    its smallest table, and a saved rule set of every game with one of its options changed."""
    rng = random.Random(5)
    with app.app_context():
        account = db.session.get(Account, account_id)
        for kind, plugin in GAMES.items():
            rules = plugin.rules
            names = NAMES[: rules.min_players]
            needed = needed_options(rules)
            result = game_service.create_game(account, kind, names, needed, names[-1])
            for _ in range(3 if kind in HANDS else 0):
                if not result.state.next:
                    break
                entry = HANDS[kind](rng, result.state, result.game.options)
                result = game_service.record_hand(
                    game_service.get_game(account, result.game.id), entry
                )
            changed = dict(needed)
            for spec in rules.option_specs(rules.min_players):
                if spec.kind == "bool":
                    changed[spec.key] = not spec.default
                    break
            rule_set_service.save_rule_set(account, kind, f"House {kind}", changed)
            rule_set_service.save_rule_set(account, kind, "Plain", needed)


def test_every_installed_game_and_rule_set_round_trips(app, account):
    build_history(app, account.id, seed=13, nights_count=2, per_night=3)
    every_game_history(app, account.id)
    with app.app_context():
        owner = db.session.get(Account, account.id)
        open_game = db.session.scalar(
            sa.select(Game).where(Game.account_id == owner.id, Game.status == "in_progress")
        )
        game_service.abandon(game_service.get_game(owner, open_game.id))
    document = export(app, account.id)
    assert sum(game["abandoned"] for game in document["games"]) == 1
    assert {game["game"] for game in document["games"]} == set(GAMES)
    assert {rule_set["game"] for rule_set in document["rule_sets"]} == set(GAMES)
    assert len(document["rule_sets"]) == 2 * len(GAMES)
    assert set(document["rule_sets"][0]) == {"id", "game", "name", "options", "created_at"}
    target = make_account(app, "new-club")
    restored = restore(app, target.id, json.loads(json.dumps(document)))
    assert restored["rule_sets"] == 2 * len(GAMES)
    assert restored["games"] == len(document["games"])
    assert comparable(export(app, target.id)) == comparable(document)
    assert derived(app, target.id) == derived(app, account.id)
    assert all_stats(app, target.id) == all_stats(app, account.id)
    with app.app_context():
        restored_sets = rule_set_service.rule_sets(db.session.get(Account, target.id))
        original_sets = rule_set_service.rule_sets(db.session.get(Account, account.id))
        assert [rule_set_service.answer(s).model_dump() | {"id": 0} for s in restored_sets] == [
            rule_set_service.answer(s).model_dump() | {"id": 0} for s in original_sets
        ]


def test_the_written_document_is_the_model_s_shape(app, account):
    """The writer streams its own dicts; they are exactly the versioned model's shape: every
    document written validates and dumps back to itself (no key more, none less, each moment
    and day written as the model writes it)."""
    build_history(app, account.id, seed=13, nights_count=2, per_night=3)
    every_game_history(app, account.id)
    document = export(app, account.id)
    assert document["nights"] and document["rule_sets"] and document["players"]
    assert any(game["finished_at"] for game in document["games"])
    assert any(game["night"] is None for game in document["games"])
    assert backup.BackupV2.model_validate(document).model_dump(mode="json") == document
    assert set(backup.BackupV2.model_json_schema()["properties"]) == set(document)


def test_a_game_id_twice_is_refused_where_it_would_have_made_the_game_twice(app, history):
    doc = copy.deepcopy(history)
    doc["games"].append(copy.deepcopy(doc["games"][4]))
    target = make_account(app, "new-club")
    with pytest.raises(Refusal) as refused:
        restore(app, target.id, doc)
    assert refused.value.message == (
        "This backup is damaged: two games have the id 5. Nothing was restored."
    )
    assert refused.value.field == "games[12].id"
    assert counts(app, target.id) == (0, 0, 0)


def test_a_backup_made_before_rule_sets_restores(app, account, history):
    assert history["rule_sets"] == []
    older = {key: value for key, value in history.items() if key != "rule_sets"}
    older["games"] = [
        {key: value for key, value in game.items() if key != "abandoned"}
        for game in history["games"]
    ]
    target = make_account(app, "new-club")
    assert restore(app, target.id, older)["rule_sets"] == 0
    assert counts(app, target.id) == (len(history["players"]), 3, 12)


def test_the_backup_is_read_a_batch_at_a_time(app, account, history, monkeypatch):
    """However small the batches, the pieces make the same document; a backup reads a
    batch of games with four statements (games, seats, hands, the table's changes)."""
    every_game_history(app, account.id)
    whole = comparable(export(app, account.id))
    statements = []

    def count(*args):
        statements.append(1)

    with app.app_context():
        engine = db.engine
        sa.event.listen(engine, "before_cursor_execute", count)
        pieces = list(backup.document_chunks(db.session.get(Account, account.id), batch=2))
        sa.event.remove(engine, "before_cursor_execute", count)
    games = len(whole["games"])
    assert len(pieces) >= games // 2
    assert comparable(json.loads("".join(pieces))) == whole
    batches = -(-games // 2)
    # players, nights, rule sets, then per batch 4, and the empty batch that ends it
    assert len(statements) <= 3 + 4 * batches + 1 + 2


def test_the_api_backup_is_streamed_and_compressed_when_the_client_accepts_it(
    app, account, api, other_api
):
    build_history(app, account.id, seed=21, nights_count=2, per_night=3)
    plain = api.get("/backup")
    assert plain.headers.get("Content-Encoding") is None
    packed = api.client.get(
        "/api/v1/backup", headers={**api.headers(), "Accept-Encoding": "gzip, br"}
    )
    assert packed.status_code == 200 and packed.is_streamed
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.mimetype == "application/json"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) * 4 < len(plain.data)
    document = json.loads(gzip.decompress(packed.data))
    assert comparable(document) == comparable(plain.get_json())
    # The compressed file restores as it is.
    restored = other_api.client.post(
        "/api/v1/restore",
        data=packed.data,
        headers={**other_api.headers(), "Content-Type": "application/gzip"},
    )
    assert restored.status_code == 201, restored.text
    assert restored.get_json()["restored"]["games"] == 9
    again = other_api.get("/backup").get_json()
    assert comparable(again) == comparable(document)


# Refusals: what no backup holds, and nothing changes ----------------------------------------


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth - 1):
        value = [value]
    return value


def bad_body(document: dict, how: str) -> bytes:
    """The document, as the bytes of an uploaded file, with something no backup holds."""
    doc = copy.deepcopy(document)
    marker = "@@marker@@"
    text = None
    if how == "nested 40 deep":
        doc["games"][0]["hands"][0]["input"]["junk"] = nested(40)
    elif how == "nested 100000 deep":
        text = '{"format": "scorekeeper-backup", "version": 1, "players": ' + "[" * 100_000
        text += "]" * 100_000 + "}"
    elif how == "lone surrogate in a name":
        doc["players"][0]["name"] = marker
    elif how == "lone surrogate in notes":
        doc["nights"][0]["notes"] = marker
    elif how == "NUL in notes":
        doc["nights"][0]["notes"] = "first\x00second"
    elif how == "NUL in a hand":
        doc["games"][0]["hands"][0]["input"]["note"] = "\x00"
    elif how == "control character in a place":
        doc["nights"][0]["place"] = "Ann\x07s"
    elif how == "raw C1 control in a name":
        doc["players"][0]["name"] = "Ann\x85"
    elif how == "escaped C1 control in a key":
        doc["games"][0]["options"]["\x9b"] = 1
    if text is None:
        text = json.dumps(doc, ensure_ascii=how.startswith("escaped"))
    text = text.replace(marker, "Sur\\ud800")
    body = text.encode("utf-8")
    return gzip.compress(body) if how in {"NUL in a hand", "lone surrogate in notes"} else body


REFUSED = [
    ("nested 40 deep", "nested too deeply"),
    ("nested 100000 deep", "nested too deeply"),
    ("lone surrogate in a name", "a lone surrogate (U+D800)"),
    ("lone surrogate in notes", "“notes” holds a lone surrogate (U+D800)"),
    ("NUL in notes", "“notes” holds a NUL character (U+0000)"),
    ("NUL in a hand", "“note” holds a NUL character (U+0000)"),
    ("control character in a place", "“place” holds a control character (U+0007)"),
    ("raw C1 control in a name", "“name” holds a control character (U+0085)"),
    ("escaped C1 control in a key", "it holds a control character (U+009B)"),
]


@pytest.mark.parametrize(("how", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_what_no_backup_holds_is_refused_and_changes_nothing(
    app, account, history, other_api, how, message
):
    body = bad_body(history, how)
    before = table_counts(app)
    response = other_api.client.post(
        "/api/v1/restore",
        data=body,
        headers={**other_api.headers(), "Content-Type": "application/json"},
    )
    assert response.status_code == 422, response.text
    problem = response.get_json()["errors"][0]
    assert problem["code"] == "restore_refused"
    assert message in problem["message"] and problem["message"].endswith("Nothing was restored.")
    assert table_counts(app) == before


def test_a_page_upload_with_a_nul_is_refused_and_changes_nothing(app, account, history):
    make_account(app, "new-club")
    client = app.test_client()
    assert login(client, "new-club").status_code == 302
    before = table_counts(app)
    upload = {"backup": (io.BytesIO(bad_body(history, "NUL in a hand")), "backup.json.gz")}
    response = client.post("/backup", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "holds a NUL character (U+0000)" in response.text
    assert "Nothing was restored." in response.text
    assert table_counts(app) == before


def test_a_compressed_file_that_unpacks_too_far_or_is_broken_is_refused(make_app):
    app = make_app(RESTORE_MAX_UNPACKED=50_000)
    make_account(app, "new-club")
    client = app.test_client()
    api = Api(client, new_token(client, "new-club"))
    before = table_counts(app)
    bomb = gzip.compress(b'{"format": "scorekeeper-backup", "pad": "' + b"0" * 10**6 + b'"}')
    assert len(bomb) < 5000  # small on the wire, a megabyte unpacked
    whole = gzip.compress(b'{"format": "scorekeeper-backup", "version": 1}')
    cases = [
        (bomb, "unpacks to more than the 0.0477 MB"),
        (whole[: len(whole) // 2], "cut short"),
        (b"\x1f\x8b" + b"not gzip at all", "not a readable gzip file"),
    ]
    for body, message in cases:
        response = client.post(
            "/api/v1/restore",
            data=body,
            headers={**api.headers(), "Content-Type": "application/gzip"},
        )
        assert response.status_code == 422, response.text
        found = response.get_json()["errors"][0]
        assert found["code"] == "restore_refused" and message in found["message"], found
    assert table_counts(app) == before

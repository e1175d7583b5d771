"""The streamed restore (``backup.restore_file``): an uploaded file read, checked and written
a batch of games at a time gives every answer the whole-document restore gives (the same
refusal, sentence and place, for every damage; the same rows when it restores), across
pieces cut anywhere, and a refusal near the end of a long backup changes nothing."""

from __future__ import annotations

import copy
import gc
import gzip
import itertools
import json
import subprocess
import sys

import pytest
import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import backup
from scorekeeper.services.backup import restore as restore_writer
from scorekeeper.services.backup import stream
from tests.conftest import make_account
from tests.test_backup import DAMAGES
from tests.test_backup import REFUSED
from tests.test_backup import bad_body
from tests.test_backup import comparable
from tests.test_backup import counts
from tests.test_backup import damage
from tests.test_backup import export
from tests.test_backup import history_document  # noqa: F401 - a fixture
from tests.test_backup import table_counts


def outcome(app, account_id: int, body: bytes, streamed: bool, processes: int = 1):
    """What a restore of ``body`` answers: the counts, or the refusal's code, words, place
    (the streamed restore's games checked in ``processes`` processes)."""
    with app.test_request_context():
        account = db.session.get(Account, account_id)
        try:
            if streamed:
                return backup.restore_file(account, body, processes=processes)
            return backup.restore_account(account, backup.read_document(body))
        except Refusal as refusal:
            db.session.rollback()
            return (refusal.code, refusal.message, refusal.field)


@pytest.fixture
def document(history_document):  # noqa: F811 - the fixture imported above
    """The backup of a varied history (12 games), made once per module."""
    return history_document


@pytest.fixture(autouse=True)
def processes_whatever_the_size(monkeypatch):
    """The checking processes this module asks for check its small files too (a restore
    checks a file under ``stream.PROCESSES_FROM`` in its own process: tested below)."""
    monkeypatch.setattr(stream, "PROCESSES_FROM", 0)


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of 7 bytes (and characters): every value of the file is cut somewhere."""
    monkeypatch.setattr(stream, "PIECE", 7)


@pytest.fixture(params=[1, 2], ids=["checked-here", "checked-in-2-processes"])
def processes(request, monkeypatch):
    """How many processes check the games; with two, batches of 3 games (the 12 games of the
    history go to both, several batches each)."""
    if request.param > 1:
        monkeypatch.setattr(stream, "BATCH", 3)
    return request.param


NUMBERS = itertools.count(1)


def same_answer(app, body: bytes, processes: int = 1):
    """The streamed restore's answer to ``body``, once shown to be the whole restore's (each
    into an empty account of its own)."""
    number = next(NUMBERS)
    whole_account = make_account(app, f"whole-club-{number}")
    streamed_account = make_account(app, f"new-club-{number}")
    before = table_counts(app)
    whole = outcome(app, whole_account.id, body, streamed=False)
    streamed = outcome(app, streamed_account.id, body, streamed=True, processes=processes)
    assert streamed == whole
    if isinstance(whole, tuple):
        assert table_counts(app) == before
    return streamed


def same_refusal(app, body: bytes, processes: int = 1) -> tuple:
    refused = same_answer(app, body, processes)
    assert isinstance(refused, tuple) and refused[0] == "restore_refused", refused
    return refused


@pytest.mark.parametrize(
    ("packed", "processes"),
    # Two checking processes (fresh interpreters: about a second to start) for the plain file
    # only: how it is packed is read before any game is checked.
    [(False, 1), (True, 1), (False, 2)],
    ids=["plain", "gzip", "plain-checked-in-2-processes"],
    indirect=["processes"],
)
@pytest.mark.parametrize(("how", "message"), DAMAGES, ids=[d[0] for d in DAMAGES])
def test_each_damage_is_refused_as_the_whole_document_restore_refuses_it(
    app, document, small_pieces, how, message, packed, processes
):
    body = json.dumps(damage(document, how)).encode()
    refused = same_refusal(app, gzip.compress(body, mtime=0) if packed else body, processes)
    assert message in refused[1]


@pytest.mark.parametrize(("how", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_what_no_backup_holds_is_refused_as_before(app, document, small_pieces, how, message):
    assert message in same_refusal(app, bad_body(document, how))[1]


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"   ",
        b"[1, 2, 3]",
        b'"text"',
        b"{}",
        b'{"format": "other-app", "version": 1}',
        b'{"players": []}',
        b'{"format": "scorekeeper-backup", "version": 3, "players": [], "nights": [], "games": []}',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], "games": [}',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], '
        b'"games": []} trailing',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], '
        b'"games": [{"id": 1}, {"id": 2},]}',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], '
        b'"games": [{"id": 1}]',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], "games": 5}',
        b'{"format": "scorekeeper-backup", "version": 2, "players": [], "nights": [], '
        b'"games": [{"id": 1}], "games": []}',
        b'\xff{"format": "scorekeeper-backup"}',
        b'{"format": "scorekeeper-backup", "version": 1' + b"0" * 20 + b"}",
        b"\x1f\x8bnot gzip at all",
        gzip.compress(b'{"format": "scorekeeper-backup", "version": 2}', mtime=0)[:20],
    ],
)
def test_a_foreign_or_broken_file_is_answered_as_before(app, small_pieces, body):
    same_answer(app, body)


def test_a_file_problem_after_a_damaged_game_is_told_first(app, document, small_pieces, processes):
    """The whole-document restore read the whole file before checking any game: a broken
    file is told as such even when a game before the break is damaged too."""
    broken = damage(document, "tricks do not add up")
    text = json.dumps(broken)[:-3]  # cut short: no longer JSON
    refused = same_refusal(app, text.encode(), processes)
    assert refused[1].startswith("This file is not a Scorekeeper")
    broken["games"][-1]["note"] = "\x00"
    refused = same_refusal(app, json.dumps(broken).encode(), processes)
    assert "holds a NUL character" in refused[1]


def test_the_head_after_the_games_restores_the_whole_document(app, document, small_pieces):
    head = copy.deepcopy(document)
    games = head.pop("games")
    reordered = {"games": games, **head}
    target = make_account(app, "new-club")
    restored = outcome(app, target.id, json.dumps(reordered).encode(), streamed=True)
    assert restored["games"] == len(games)
    assert comparable(export(app, target.id)) == comparable(document)


def test_a_streamed_restore_loses_nothing(app, document, small_pieces, processes):
    target = make_account(app, "new-club")
    body = gzip.compress(json.dumps(document, ensure_ascii=False).encode(), mtime=0)
    restored = outcome(app, target.id, body, streamed=True, processes=processes)
    assert restored == {
        "players": 5,
        "nights": 3,
        "rule_sets": 0,
        "games": 12,
        "hands": restored["hands"],
    }
    assert comparable(export(app, target.id)) == comparable(document)


@pytest.mark.parametrize("processes", [1, 2])
def test_a_refusal_near_the_end_of_a_long_backup_changes_nothing(
    app, document, monkeypatch, processes
):
    """The games are checked a batch at a time and kept aside: the last one refused, nothing
    was written; undamaged, every batch is written in the one transaction."""
    original = document
    document = copy.deepcopy(original)
    games = document["games"]
    for copy_number in range(1, 4):
        for game in original["games"]:
            games.append({**copy.deepcopy(game), "id": game["id"] + 1000 * copy_number})
    long = next(game for game in original["games"] if len(game["hands"]) >= 2)
    games[-1] = copy.deepcopy(long) | {"id": 99_999}
    games[-1]["hands"][1]["number"] = 3
    assert len(games) == 48
    monkeypatch.setattr(stream, "BATCH", 5)
    written = []
    real = restore_writer.Writer.games
    monkeypatch.setattr(
        restore_writer.Writer,
        "games",
        lambda self, batch, keys=None: written.append(len(batch)) or real(self, batch, keys),
    )
    refused = same_refusal(app, gzip.compress(json.dumps(document).encode(), mtime=0), processes)
    assert "the hands are not numbered 1, 2, 3" in refused[1]
    assert refused[2] == "games[47].hands[1].number"
    assert written == []  # 45 games checked and kept aside, none written
    # And the same file, undamaged, restores whole, a batch at a time.
    games[-1]["hands"][1]["number"] = 2
    target = make_account(app, "other-club")
    restored = outcome(app, target.id, json.dumps(document).encode(), True, processes)
    assert restored["games"] == 48
    assert written == [5] * 9 + [3]
    assert counts(app, target.id)[2] == 48


@pytest.mark.parametrize("started_frozen", [False, True], ids=["process", "worker"])
@pytest.mark.parametrize("fails", [False, True], ids=["written", "failed"])
def test_the_collector_leaves_the_older_objects_alone_while_the_rows_are_written(
    app, document, monkeypatch, request, fails, started_frozen
):
    """While the rows are written, what the process held before is out of the collector's
    way (``gc.freeze``); given back at the end, the restore written or failed, but in a
    worker that left its own objects out from its start (gunicorn.conf.py): they stay out.

    Told by an object made before the restore (after the worker's own freeze): whether the
    collector's generations hold it. Not by the frozen count alone, which also falls when
    frozen objects are freed meanwhile (a cache emptied while the restore runs)."""
    if started_frozen:
        gc.freeze()
        request.addfinalizer(gc.unfreeze)
    held_before = [object()]  # a container: tracked by the collector

    def collected(thing) -> bool:
        return any(found is thing for found in gc.get_objects())

    assert collected(held_before)
    seen = []
    real = restore_writer.Writer.games

    def games(self, batch, keys=None):
        seen.append((collected(held_before), gc.get_freeze_count()))
        if fails:
            raise sa.exc.IntegrityError("INSERT", {}, Exception("simulated"))
        return real(self, batch, keys)

    monkeypatch.setattr(restore_writer.Writer, "games", games)
    target = make_account(app, "new-club")
    answer = outcome(app, target.id, json.dumps(document).encode(), streamed=True)
    # Frozen meanwhile: the object and the rest (the app, the test run: over 10,000 objects).
    assert seen and all(not held and count > 10_000 for held, count in seen)
    if started_frozen:
        assert not collected(held_before) and gc.get_freeze_count() > 10_000
    else:
        assert collected(held_before) and gc.get_freeze_count() == 0
    if fails:
        assert answer[0] == "restore_refused" and counts(app, target.id) == (0, 0, 0)
    else:
        assert answer["games"] == 12
        assert comparable(export(app, target.id)) == comparable(document)


def test_a_constraint_broken_between_batches_is_a_refusal_that_changes_nothing(
    app, document, monkeypatch
):
    """Another phone's data breaking a constraint while the games are written: refused, and
    the batches written before are undone."""
    real = restore_writer._insert_results
    calls = {"n": 0}

    def failing(rows):
        calls["n"] += 1
        real(rows)
        if calls["n"] == 2:
            raise sa.exc.IntegrityError("INSERT", {}, Exception("simulated"))

    monkeypatch.setattr(stream, "BATCH", 4)
    monkeypatch.setattr(restore_writer, "_insert_results", failing)
    target = make_account(app, "new-club")
    before = table_counts(app)
    refused = outcome(app, target.id, json.dumps(document).encode(), streamed=True)
    assert refused[0] == "restore_refused" and "received other data" in refused[1]
    assert calls["n"] == 2
    assert table_counts(app) == before


def test_games_checked_in_other_processes_are_refused_in_the_readers_language(
    app, document, monkeypatch
):
    """A checking process words nothing: the game it did not pass is checked again in the
    restore's own process, in the reader's language (Bengali here), with the same words and
    place as the restore that checks every game itself."""
    from flask_babel import force_locale

    from scorekeeper.services.backup import checking

    sent = []
    real_submit = checking.ProcessPoolExecutor.submit

    def submit(self, *args, **kwargs):
        sent.append(args[1])  # the batch's first game
        return real_submit(self, *args, **kwargs)

    monkeypatch.setattr(checking.ProcessPoolExecutor, "submit", submit)
    monkeypatch.setattr(stream, "BATCH", 3)
    damaged = damage(document, "tricks do not add up")
    damaged["games"] = damaged["games"][1:] + damaged["games"][:1]  # the damaged game last
    body = json.dumps(damaged).encode()
    answers = []
    for processes in (1, 2):
        target = make_account(app, f"bn-club-{processes}")
        with app.test_request_context(), force_locale("bn"):
            account = db.session.get(Account, target.id)
            with pytest.raises(Refusal) as refused:
                backup.restore_file(account, body, processes=processes)
            db.session.rollback()
        answers.append((refused.value.message, refused.value.field))
    assert sent == [0, 3, 6, 9]  # every batch went to the checking processes
    assert answers[0] == answers[1]
    message, field = answers[1]
    assert field == "games[11].hands[0]"
    assert message.startswith("এই ব্যাকআপটি নষ্ট: ") and "(ওহ হেল), দান ১:" in message


def rating_steps(app, account_id: int) -> list[tuple]:
    """The account's ratings, told by the games' order and the players' names."""
    from scorekeeper.models import Game
    from scorekeeper.models import Player
    from scorekeeper.models import RatingStep

    with app.app_context():
        games = list(
            db.session.scalars(
                sa.select(Game.id).where(Game.account_id == account_id).order_by(Game.id)
            )
        )
        names = dict(
            db.session.execute(
                sa.select(Player.id, Player.name).where(Player.account_id == account_id)
            ).all()
        )
        steps = db.session.execute(
            sa.select(RatingStep).where(RatingStep.account_id == account_id)
        ).scalars()
        return sorted(
            (step.scope, step.position, games.index(step.game_id), names[step.player_id],
             step.mu, step.sigma)
            for step in steps
        )  # fmt: skip


def test_the_ratings_worked_out_beside_the_writing_are_those_read_back(app, document, monkeypatch):
    """With checking processes, a restore's ratings are worked out in one of them from the
    checked games while the rows are written (``ratings.history``); they equal the ratings
    worked out from the database once written (``ratings.rebuild``)."""
    from scorekeeper.services import ratings

    rebuilt = []
    real = ratings.rebuild
    monkeypatch.setattr(
        ratings, "rebuild", lambda account_id: rebuilt.append(1) or real(account_id)
    )
    monkeypatch.setattr(stream, "BATCH", 3)
    body = json.dumps(document).encode()
    steps = []
    for processes in (1, 2):
        target = make_account(app, f"rated-club-{processes}")
        assert outcome(app, target.id, body, True, processes)["games"] == 12
        steps.append(rating_steps(app, target.id))
    assert rebuilt == [1]  # the restore checked here only
    assert steps[0] == steps[1]
    scopes = {step[0] for step in steps[0]}
    assert "*" in scopes and len(scopes) >= 3, scopes


def test_a_checker_that_disagrees_fails_the_restore_and_keeps_nothing(app, document, monkeypatch):
    """A game a checker did not pass that passes when checked again is a bug, never a
    refusal: the restore fails (a job says so), and nothing of it is kept."""
    from scorekeeper.services.backup import checking

    real = checking.Batch.outcome

    def outcome_without_the_first(self):
        found = real(self)
        return found._replace(ids=[], rows=None) if self.start == 0 else found

    monkeypatch.setattr(checking.Batch, "outcome", outcome_without_the_first)
    target = make_account(app, "disagreed-club")
    before = table_counts(app)
    with app.test_request_context():
        account = db.session.get(Account, target.id)
        with pytest.raises(checking.Disagreed) as failed:
            backup.restore_file(account, json.dumps(document).encode())
        db.session.rollback()
    assert failed.value.args == (0,)
    assert table_counts(app) == before


def test_a_checking_process_starts_without_the_migrations_or_the_compressors():
    """A restore's checking process is a fresh interpreter that imports the checking module
    first: Alembic (Flask-Migrate) and Flask-Compress, which only the app's making uses, are
    not imported with it (they were 0.2 s of each process's start)."""
    left_out = ("alembic", "flask_migrate", "flask_compress", "brotli", "zstandard")
    code = (
        "import sys; import scorekeeper.services.backup.checking; "
        f"print(','.join(name for name in {left_out!r} if name in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found == ""
    # The app still has both: its answers are compressed, its migrations run.
    from scorekeeper import create_app

    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert "migrate" in app.extensions
    page = app.test_client().get("/login", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"<form" in gzip.decompress(page.data)


@pytest.mark.parametrize("text", ["", "{}", '{"games": ["Ánh", "ລາວ", "বাংলা"]}' * 500])
def test_the_size_of_a_files_text_is_read_from_a_gzip_files_end(text):
    raw = text.encode()
    assert stream.text_size(raw) == len(raw)
    assert stream.text_size(text) == len(text)
    assert stream.text_size(gzip.compress(raw, mtime=0)) == len(raw)


def test_a_file_under_the_size_for_processes_is_checked_in_the_worker(app, document, monkeypatch):
    """Checking processes take about a second each to start: a file whose text is under
    ``PROCESSES_FROM`` is checked in the restore's own process whatever it is asked, one at
    that size or more in the processes asked for; both restore the same rows."""
    from scorekeeper.services.backup import checking

    pools = []

    class Counted(checking.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(checking, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(stream, "BATCH", 3)
    body = gzip.compress(json.dumps(document).encode(), mtime=0)
    restored = []
    for size_for_processes in (stream.text_size(body) + 1, stream.text_size(body)):
        monkeypatch.setattr(stream, "PROCESSES_FROM", size_for_processes)
        target = make_account(app, f"sized-club-{size_for_processes}")
        assert outcome(app, target.id, body, True, processes=2)["games"] == 12
        restored.append(comparable(export(app, target.id)))
        if size_for_processes > stream.text_size(body):
            assert pools == []  # checked here
    assert pools == [2]
    assert restored[0] == restored[1] == comparable(document)

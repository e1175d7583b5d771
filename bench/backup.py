"""Benchmark: backup and restore of a whole account at scale.

Fills an account with a realistic history (``bench/run.py``'s filler: 10,000 games by
default, and two saved rule sets), then, each in a child process of its own as a worker
would run it:

- ``GET /api/v1/backup`` with ``Accept-Encoding: gzip``: the time to the last byte, the
  size compressed and uncompressed, and the child's peak memory (RSS);
- ``POST /api/v1/restore`` of that compressed file into a new, empty account: the time to
  the answer (202 for a large backup, restored in the background) and to the restore's end
  (its status asked every 0.5 s, as a page would, and as the job's own row says: from its
  start to its last change), the worker's CPU and the child's peak memory,
  and those of the processes that checked the games (``RESTORE_PROCESSES``: by default one per
  core; ``RESTORE_PROCESSES=1`` checks them in the worker, as before).

``--plain`` sends the file unpacked (as the API's backup is to a client that asks for no
compression): a file over 512 KB as sent is restored in the background, and a file whose
text is under 4 MiB is checked in the worker (``stream.PROCESSES_FROM``).

SQLite in a temporary folder by default; ``DATABASE_URL=postgresql://...`` for PostgreSQL.

    .venv/bin/python bench/backup.py [--games 10000] [--seed 7] [--from-db FILE] [--plain]

``--from-db`` starts from a copy of a SQLite file already filled (``bench/nights.py --keep``
keeps one: filling 10,000 games takes minutes), so two checkouts restore the very same backup.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.config import database_uri  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Account  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.models import HandEntry  # noqa: E402
from scorekeeper.models import HandResult  # noqa: E402
from scorekeeper.models import RestoreJob  # noqa: E402
from scorekeeper.models import RuleSet  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from scorekeeper.services import rule_sets  # noqa: E402

PASSWORD = "bench password"
#: gunicorn's default worker timeout: a request running longer is killed (answered 502/500).
WORKER_TIMEOUT = 30


def make_app(uri: str):
    return create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            "RESTORE_PROCESSES": int(os.environ.get("RESTORE_PROCESSES") or 0) or None,
        }
    )


def _status_mib(field: str) -> float | None:
    """A memory figure of this process from /proc (Linux), in MiB."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_mib() -> float:
    """The process's peak RSS: VmHWM where there is /proc (getrusage's maximum would also
    count the parent's memory at the fork, which Linux keeps across exec)."""
    found = _status_mib("VmHWM")
    return found if found is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_now_mib() -> float:
    """The RSS now; the peak is reset to it where Linux allows (so that the peak read after a
    request is the request's own)."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        pass
    found = _status_mib("VmRSS")
    return found if found is not None else peak_mib()


def token_for(client, username: str) -> dict:
    basic = base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
    answer = client.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.get_json()['token']}"}


def child_backup(uri: str, out: str) -> dict:
    """One backup through the API, as a worker answers it; the file written to ``out``."""
    app = make_app(uri)
    client = app.test_client()
    headers = token_for(client, "bench-club")
    before = rss_now_mib()
    started, cpu = time.perf_counter(), time.process_time()
    response = client.get(
        "/api/v1/backup", headers={**headers, "Accept-Encoding": "gzip"}, buffered=False
    )
    assert response.status_code == 200, response.status_code
    assert response.headers["Content-Encoding"] == "gzip"
    with open(out, "wb") as file:
        for piece in response.response:
            file.write(piece)
    response.close()
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "cpu_seconds": time.process_time() - cpu,
        "rss_before_mib": before,
        "peak_rss_mib": peak_mib(),
    }


def child_restore(uri: str, path: str) -> dict:
    """One restore of the file (compressed, or as it unpacks when it ends with .json)
    through the API into a new, empty account."""
    app = make_app(uri)
    with app.app_context():
        accounts.create_account("restored-club", PASSWORD)
    client = app.test_client()
    headers = token_for(client, "restored-club")
    body = Path(path).read_bytes()
    before = rss_now_mib()
    started, cpu = time.perf_counter(), time.process_time()
    response = client.post(
        "/api/v1/restore",
        data=body,
        headers={
            **headers,
            "Content-Type": "application/json" if path.endswith(".json") else "application/gzip",
        },
    )
    answered = time.perf_counter() - started
    job_seconds = None
    if response.status_code == 202:  # a large backup: restored in the background
        accepted = response.get_json()
        job_id, status_url = accepted["id"], accepted["status_url"]
        while response.get_json()["state"] in ("checking", "writing"):
            time.sleep(0.5)
            response = client.get(status_url, headers=headers)
        assert response.get_json()["state"] == "done", response.text[:500]
        with app.app_context():
            job = db.session.get(RestoreJob, job_id)
            job_seconds = (job.updated_at - job.created_at).total_seconds()
    else:
        assert response.status_code == 201, response.text[:500]
    seconds = time.perf_counter() - started
    # The processes that checked the games (services/backup/checking.py): this process's
    # children, ended with the restore.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "seconds": seconds,
        "job_seconds": job_seconds,
        "answered_seconds": answered,
        "checkers_cpu_seconds": children.ru_utime + children.ru_stime,
        "checkers_peak_rss_mib": children.ru_maxrss / 1024,
        "cpu_seconds": time.process_time() - cpu,
        "restored": response.get_json()["restored"],
        "rss_before_mib": before,
        "peak_rss_mib": peak_mib(),
    }


def run_child(kind: str, uri: str, path: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--uri", uri, "--path", path],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"the {kind} child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def unpacked_size(path: str) -> int:
    unpacker = zlib.decompressobj(31)
    size = 0
    with open(path, "rb") as file:
        while piece := file.read(1 << 20):
            size += len(unpacker.decompress(piece))
    return size + len(unpacker.flush())


def account_rows(username: str) -> dict[str, int]:
    account = db.session.scalar(sa.select(Account).where(Account.username == username))
    games = sa.select(Game.id).where(Game.account_id == account.id)
    return {
        "games": db.session.scalar(sa.select(sa.func.count()).select_from(games.subquery())),
        "hands": db.session.scalar(sa.select(sa.func.count()).where(HandEntry.game_id.in_(games))),
        "hand results": db.session.scalar(
            sa.select(sa.func.count()).where(HandResult.game_id.in_(games))
        ),
        "rule sets": db.session.scalar(
            sa.select(sa.func.count()).where(RuleSet.account_id == account.id)
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--nights", type=int, default=200)
    parser.add_argument("--from-db", help="a filled SQLite file of bench-club to start from")
    parser.add_argument("--plain", action="store_true", help="restore the file unpacked")
    parser.add_argument("--child", choices=["backup", "restore"], help=argparse.SUPPRESS)
    parser.add_argument("--uri", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        work = child_backup if args.child == "backup" else child_restore
        print(json.dumps(work(args.uri, args.path)))
        return

    import run as filler  # bench/run.py: the realistic history

    folder = tempfile.mkdtemp(prefix="scorekeeper-backup-bench-")
    if args.from_db:
        shutil.copyfile(args.from_db, Path(folder) / "scorekeeper.db")
        uri = f"sqlite:///{Path(folder) / 'scorekeeper.db'}"
    else:
        uri = database_uri(os.environ.get("DATABASE_URL"), folder)
    app = make_app(uri)
    with app.app_context():
        if uri.startswith("postgresql"):
            db.session.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
            db.session.commit()
        upgrade()
        started = time.perf_counter()
        if not args.from_db:
            account = accounts.create_account("bench-club", PASSWORD)
            filler.fill(account.id, args.games, random.Random(args.seed), args.nights)
            rule_sets.save_rule_set(account, "oh_hell", "Friday rules", {"hook": True})
            rule_sets.save_rule_set(account, "pitch", "Ten-point pitch", {})
        filled = time.perf_counter() - started
        if uri.startswith("postgresql"):
            db.session.execute(sa.text("ANALYZE"))
            db.session.commit()
        engine = db.engine.dialect.name
        source = account_rows("bench-club")
        db.session.remove()
        db.engine.dispose()

    path = str(Path(folder) / "backup.json.gz")
    made = run_child("backup", uri, path)
    packed = Path(path).stat().st_size
    unpacked = unpacked_size(path)
    if args.plain:
        sent = str(Path(folder) / "backup.json")
        Path(sent).write_bytes(gzip.decompress(Path(path).read_bytes()))
    restored = run_child("restore", uri, sent if args.plain else path)
    with app.app_context():
        copy = account_rows("restored-club")
        db.engine.dispose()
    assert copy == source, (copy, source)

    games = source["games"]
    print(f"Scorekeeper backup bench: {engine}, {games} games (filled in {filled:.0f} s)")
    print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  rows: {source}")
    print(
        f"backup  GET /api/v1/backup (gzip, streamed): {made['seconds']:.2f} s "
        f"({made['cpu_seconds']:.2f} s of the worker's CPU)"
    )
    print(f"        size {packed / 1e6:.2f} MB compressed, {unpacked / 1e6:.2f} MB uncompressed")
    print(
        f"        worker peak RSS {made['peak_rss_mib']:.0f} MiB "
        f"({made['rss_before_mib']:.0f} MiB before the request)"
    )
    own = restored["job_seconds"]
    print(
        f"restore POST /api/v1/restore (that file{', unpacked' if args.plain else ''}): "
        f"{restored['seconds']:.2f} s to the end"
        + (f" ({own:.2f} s by the job's own row)" if own is not None else "")
        + f", {restored['cpu_seconds']:.2f} s of the worker's CPU, answered in "
        f"{restored['answered_seconds']:.2f} s"
    )
    print(
        f"        worker peak RSS {restored['peak_rss_mib']:.0f} MiB "
        f"({restored['rss_before_mib']:.0f} MiB before the request)"
    )
    print(
        f"        the processes checking the games: {restored['checkers_cpu_seconds']:.2f} s "
        f"of CPU, the largest's peak RSS {restored['checkers_peak_rss_mib']:.0f} MiB"
    )
    print(f"        restored {restored['restored']}; every row count equals the original")
    verdict = "within" if restored["answered_seconds"] < WORKER_TIMEOUT else "PAST"
    print(f"        the request {verdict} gunicorn's {WORKER_TIMEOUT} s worker timeout")


if __name__ == "__main__":
    main()

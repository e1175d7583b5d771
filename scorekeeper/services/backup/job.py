"""A restore in the background: a large backup is checked and written by a thread of the
worker that took it, while the page (or an API client) asks how it goes; the state is kept in
a ``restore_job`` row, so any worker can answer.

The restore itself is ``stream.restore_file``'s, all of it or nothing: a refused or failed
job changes nothing but its own row. A job whose worker stopped (restarted, killed) says so
once it has not moved for ``STALE``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app
from flask_babel import force_locale

from scorekeeper import config as settings
from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.i18n import locale_code
from scorekeeper.models import Account
from scorekeeper.models import RestoreJob
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow
from scorekeeper.services.backup.check import refuse
from scorekeeper.services.backup.restore import is_empty
from scorekeeper.services.backup.stream import restore_file

log = logging.getLogger(__name__)

#: A backup file larger than this (bytes, as sent) is restored in the background: 10,000
#: games take about 2.3 MB compressed and a quarter of a minute of a worker's time.
BACKGROUND_BYTES = 512 * 1024
#: The states of a job still under way, and how long one may go without a word.
RUNNING = ("checking", "writing")
STALE = timedelta(minutes=10)
#: The threads of this worker's jobs, by job id (a test waits for one).
THREADS: dict[int, threading.Thread] = {}


def in_background(raw: bytes | str) -> bool:
    """Whether a backup file of this size is restored in the background."""
    limit = current_app.config.get("RESTORE_BACKGROUND_BYTES", BACKGROUND_BYTES)
    return len(raw) > limit


def start(
    account: Account,
    raw: bytes,
    unpacked_limit: int,
    whole: Callable[[object], object] = lambda document: document,
) -> RestoreJob:
    """Start restoring ``raw`` into ``account`` in the background; the job (committed).

    Refused at once (nothing started) when the account holds data already or a restore into
    it is under way."""
    if any(job.state in RUNNING and not _stale(job) for job in _jobs(account.id)):
        raise refuse(_("A restore into this account is under way already."))
    if not is_empty(account):
        raise refuse(
            _(
                "A backup can only be restored into an account with no players, nights or games "
                "yet; this one already has some. Sign up for a new account and restore there."
            )
        )
    job = RestoreJob(account_id=account.id, state="checking", games_read=0)
    db.session.add(job)
    db.session.commit()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    thread = threading.Thread(
        target=_run,
        args=(app, job.id, account.id, raw, unpacked_limit, whole, locale_code()),
        name=f"restore-{job.id}",
        daemon=True,
    )
    THREADS[job.id] = thread
    thread.start()
    return job


def get(account: Account, job_id: int) -> RestoreJob:
    """The account's job of that id (``NotFound``: no such job of this account)."""
    job = db.session.get(RestoreJob, job_id)
    if job is None or job.account_id != account.id:
        raise NotFound(_("That restore was not found."))
    return job


def answer(job: RestoreJob) -> dict:
    """How the job goes, as the API says it (``schemas.RestoreJob`` but its address)."""
    state = state_of(job)
    found = job.answer or {}
    return {
        "id": job.id,
        "state": state,
        "games_read": job.games_read,
        "restored": found.get("restored") if state == "done" else None,
        "error": found if state == "refused" else None,
    }


def state_of(job: RestoreJob) -> str:
    """The job's state, ``stopped`` for one whose worker stopped mid-way."""
    return "stopped" if job.state in RUNNING and _stale(job) else job.state


def wait(job_id: int, timeout: float | None = None) -> None:
    """Wait for a job of this worker to end (tests, scripts)."""
    thread = THREADS.get(job_id)
    if thread is not None:
        thread.join(timeout)


def _jobs(account_id: int) -> list[RestoreJob]:
    return list(
        db.session.scalars(sa.select(RestoreJob).where(RestoreJob.account_id == account_id))
    )


def _stale(job: RestoreJob) -> bool:
    return as_utc(job.updated_at) < utcnow() - STALE


def _update(job_id: int, **values) -> None:
    """Write the job's row through a connection of its own, committed at once (the restore's
    transaction stays open meanwhile)."""
    with db.engine.begin() as connection:
        connection.execute(
            sa.update(RestoreJob)
            .where(RestoreJob.id == job_id)
            .values(updated_at=utcnow(), **values)
        )


def _run(app, job_id, account_id, raw, unpacked_limit, whole, locale) -> None:
    with app.app_context(), force_locale(locale):
        try:
            account = db.session.get(Account, account_id)

            def progress(games: int | None) -> None:
                if games is None:
                    _update(job_id, state="writing")
                else:
                    _update(job_id, games_read=games)

            processes = app.config.get("RESTORE_PROCESSES") or settings.cores()
            counts = restore_file(account, raw, unpacked_limit, whole, progress, processes)
        except Refusal as refusal:
            db.session.rollback()
            problem = {"code": refusal.code, "message": str(refusal.message)}
            _update(job_id, state="refused", answer={**problem, "field": refusal.field})
        except Exception:
            log.exception("restore job %s failed", job_id)
            db.session.rollback()
            _update(job_id, state="failed")
        else:
            _update(job_id, state="done", games_read=counts["games"], answer={"restored": counts})
        finally:
            db.session.remove()
            THREADS.pop(job_id, None)

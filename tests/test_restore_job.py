"""A large backup restored in the background (``services/backup/job.py``): the API answers
202 with the job, whose status says how it goes and then the counts or why nothing was
restored; the page follows it to the history. The rows are those of a restore at once, and a
refused job leaves nothing but its own row."""

from __future__ import annotations

import gzip
import io
import json
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import RestoreJob
from scorekeeper.models import utcnow
from scorekeeper.services.backup import job as restore_job
from scorekeeper.services.backup import stream
from tests.conftest import Api
from tests.conftest import login
from tests.conftest import make_account
from tests.conftest import new_token
from tests.test_backup import comparable
from tests.test_backup import derived
from tests.test_backup import export
from tests.test_backup import history_document  # noqa: F401 - a fixture
from tests.test_backup import table_counts


@pytest.fixture
def document(history_document):  # noqa: F811 - the fixture imported above
    """A varied history's backup (12 games)."""
    return history_document


@pytest.fixture
def background(make_app, monkeypatch):
    """An app that restores every backup in the background, its games checked in processes
    however small the file (as a large one's are: ``stream.PROCESSES_FROM``)."""
    monkeypatch.setattr(stream, "PROCESSES_FROM", 0)
    return make_app(RESTORE_BACKGROUND_BYTES=0)


def api_for(app, username: str) -> Api:
    make_account(app, username)
    client = app.test_client()
    return Api(client, new_token(client, username))


def restore_in_background(api: Api, body: bytes) -> dict:
    """POST the backup, wait for its job; the job's last answer."""
    started = api.post("/restore", data=body, headers={"Content-Type": "application/gzip"})
    assert started.status_code == 202, started.text
    job = started.get_json()
    assert started.headers["Location"] == job["status_url"] == f"/api/v1/restore/{job['id']}"
    assert job["state"] in ("checking", "writing", "done", "refused")
    restore_job.wait(job["id"], 60)
    answer = api.get(f"/restore/{job['id']}")
    assert answer.status_code == 200
    return answer.get_json()


def test_a_background_restore_writes_what_a_restore_at_once_writes(background, document):
    body = gzip.compress(json.dumps(document).encode())
    done = restore_in_background(api_for(background, "later-club"), body)
    assert done["state"] == "done" and done["error"] is None
    assert done["games_read"] == len(document["games"]) == done["restored"]["games"]
    at_once = api_for(background, "now-club")
    background.config["RESTORE_BACKGROUND_BYTES"] = len(body)
    answer = at_once.post("/restore", data=body, headers={"Content-Type": "application/gzip"})
    assert answer.status_code == 201 and answer.get_json()["restored"] == done["restored"]
    with background.app_context():
        later, now = (
            db.session.scalar(sa.text("SELECT id FROM account WHERE username = :u"), {"u": name})
            for name in ("later-club", "now-club")
        )
    assert comparable(export(background, later)) == comparable(document)
    assert derived(background, later) == derived(background, now)


def test_a_refused_background_restore_leaves_nothing_but_says_why(background, document):
    api = api_for(background, "later-club")
    broken = json.loads(json.dumps(document))
    broken["games"][-1]["players"] = [999]
    before = table_counts(background)
    body = gzip.compress(json.dumps(broken).encode())
    refused = restore_in_background(api, body)
    assert refused["state"] == "refused" and refused["restored"] is None
    assert refused["error"]["code"] == "restore_refused"
    assert refused["error"]["message"].endswith("Nothing was restored.")
    after = table_counts(background)
    assert after.pop("restore_job") == before.pop("restore_job") + 1
    assert after == before


def test_one_restore_at_a_time_and_a_job_whose_worker_stopped(background):
    api = api_for(background, "later-club")
    with background.app_context():
        account_id = db.session.scalar(
            sa.text("SELECT id FROM account WHERE username = 'later-club'")
        )
        job = RestoreJob(account_id=account_id, state="checking", games_read=1500)
        db.session.add(job)
        db.session.commit()
        job_id = job.id
    second = api.post("/restore", data=b"{}", headers={"Content-Type": "application/json"})
    assert second.status_code == 422
    assert "A restore into this account is under way already." in second.text
    assert api.get(f"/restore/{job_id}").get_json()["games_read"] == 1500
    with background.app_context():
        db.session.get(RestoreJob, job_id).updated_at = utcnow() - timedelta(hours=1)
        db.session.commit()
    assert api.get(f"/restore/{job_id}").get_json()["state"] == "stopped"
    other = api_for(background, "other-club")
    assert other.get(f"/restore/{job_id}").status_code == 404


def test_the_page_shows_the_progress_then_the_history(background, document):
    make_account(background, "later-club")
    client = background.test_client()
    assert login(client, "later-club").status_code == 302
    body = gzip.compress(json.dumps(document).encode())
    upload = {"backup": (io.BytesIO(body), "backup.json.gz")}
    started = client.post("/backup", data=upload, content_type="multipart/form-data")
    assert started.status_code == 303
    progress = started.headers["Location"]
    job_id = int(progress.rsplit("/", 1)[1])
    restore_job.wait(job_id, 60)
    done = client.get(progress)
    assert done.status_code == 302
    listing = client.get(done.headers["Location"])
    assert "Backup restored:" in listing.text and "12 games." in listing.text
    with background.app_context():
        job = db.session.get(RestoreJob, job_id)
        job.state, job.games_read = "checking", 1500
        db.session.commit()
    page = client.get(progress)
    assert page.status_code == 200
    assert "Restoring the backup: 1500 games checked so far …" in page.text
    assert '<meta http-equiv="refresh" content="2">' in page.text
    with background.app_context():
        job = db.session.get(RestoreJob, job_id)
        job.state, job.answer = (
            "refused",
            {"code": "restore_refused", "message": "Broken.", "field": None},
        )
        db.session.commit()
    refused = client.get(progress)
    assert "Broken." in refused.text and "http-equiv" not in refused.text

"""Backup pages: download the whole account, restore a backup into an empty account."""

from __future__ import annotations

import re

from flask import Response
from flask import abort
from flask import current_app
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.forms import RestoreForm
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.services import backup
from scorekeeper.services import nights
from scorekeeper.services.backup import job as restore_job
from scorekeeper.views.history.blueprint import bp

#: A backup file may be larger than any other request (MAX_CONTENT_LENGTH).
RESTORE_MAX_CONTENT_LENGTH = 16 * 1024 * 1024


def _backup_page(form: RestoreForm, status: int = 200, running: str | None = None):
    return (
        render_template(
            "history/backup.html",
            form=form,
            empty=backup.is_empty(current_user),
            limit_mb=restore_limit() / 1024 / 1024,
            running=running,
        ),
        status,
    )


@bp.get("/backup")
def backup_page():
    """Download a backup of the account; restore one into an empty account."""
    return _backup_page(RestoreForm(formdata=None))


@bp.get("/backup/download")
def backup_download():
    """The whole account as one gzip-compressed JSON file, written as it is read."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", current_user.username).strip("-") or "account"
    day = nights.today().isoformat()
    response = Response(
        backup.gzipped(backup.document_chunks(current_user)), mimetype="application/gzip"
    )
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-{name}-{day}.json.gz"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def restore_limit() -> int:
    """The largest backup accepted (bytes): more than other requests may send."""
    return current_app.config.get("RESTORE_MAX_CONTENT_LENGTH", RESTORE_MAX_CONTENT_LENGTH)


def unpacked_limit() -> int:
    """How far a compressed backup may unpack (bytes)."""
    return current_app.config.get("RESTORE_MAX_UNPACKED", backup.MAX_UNPACKED)


@bp.post("/backup")
@csrf.exempt  # checked below, once the larger limit for a backup file is in place
def restore():
    """Restore an uploaded backup into this (empty) account: all of it or nothing."""
    request.max_content_length = restore_limit()
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = RestoreForm()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        form = RestoreForm(formdata=None)
        form.backup.errors = [
            _(
                "That file is larger than the %(size)s MB this server accepts. "
                "Nothing was restored.",
                size=restore_limit() / 1024 / 1024,
            )
        ]
        return _backup_page(form, 413)
    if not valid:
        abort(400)
    upload = form.backup.data
    if upload is None or not getattr(upload, "filename", ""):
        form.backup.errors = [_("Choose the backup file to restore.")]
        return _backup_page(form, 422)
    raw = upload.read()
    try:
        if restore_job.in_background(raw):
            job = restore_job.start(current_user, raw, unpacked_limit())
            return redirect(url_for("history.restore_progress", job_id=job.id), 303)
        counts = backup.restore_file(current_user, raw, unpacked_limit())
    except Refusal as refusal:
        form.backup.errors = [refusal.message]
        return _backup_page(form, 422)
    return _restored(counts)


@bp.get("/backup/restore/<int:job_id>")
def restore_progress(job_id: int):
    """A restore in the background: how it goes (the page asks again every two seconds),
    then the history once done, or the backup page saying why nothing was restored."""
    job = restore_job.get(current_user, job_id)
    answer = restore_job.answer(job)
    state = answer["state"]
    if state == "done":
        return _restored(answer["restored"])
    form = RestoreForm(formdata=None)
    if state == "checking":
        running = ngettext(
            "Restoring the backup: %(num)s game checked so far …",
            "Restoring the backup: %(num)s games checked so far …",
            answer["games_read"],
        )
        return _backup_page(form, running=running)
    if state == "writing":
        return _backup_page(form, running=_("Restoring the backup: writing the games …"))
    if state == "refused":
        form.backup.errors = [answer["error"]["message"]]
    elif state == "stopped":
        form.backup.errors = [
            _("The restore stopped before it ended (the server restarted?). Nothing was restored.")
        ]
    else:
        form.backup.errors = [_("The restore failed. Nothing was restored.")]
    return _backup_page(form)


def _restored(counts: dict[str, int]):
    """To the history, saying what the restore brought in."""
    flash(
        _(
            "Backup restored: %(players)s, %(nights)s, %(games)s.",
            players=ngettext("%(num)s player", "%(num)s players", counts["players"]),
            nights=ngettext("%(num)s night", "%(num)s nights", counts["nights"]),
            games=ngettext("%(num)s game", "%(num)s games", counts["games"]),
        ),
        "success",
    )
    return redirect(url_for("history.index"))

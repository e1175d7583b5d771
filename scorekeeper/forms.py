"""WTForms (Flask-WTF, with CSRF). Forms parse; the services validate and word the messages."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField
from wtforms import PasswordField
from wtforms import StringField
from wtforms import SubmitField
from wtforms import TextAreaField
from wtforms.validators import ValidationError

from scorekeeper.errors import Refusal


class SignupForm(FlaskForm):
    username = StringField(
        "Username", render_kw={"autocomplete": "username", "autocapitalize": "none"}
    )
    password = PasswordField("Password", render_kw={"autocomplete": "new-password"})
    confirm = PasswordField("Password again", render_kw={"autocomplete": "new-password"})
    submit = SubmitField("Sign up")

    def validate_confirm(self, field) -> None:
        if field.data != self.password.data:
            raise ValidationError("The two passwords differ.")


class LoginForm(FlaskForm):
    username = StringField(
        "Username", render_kw={"autocomplete": "username", "autocapitalize": "none"}
    )
    password = PasswordField("Password", render_kw={"autocomplete": "current-password"})
    remember = BooleanField("Stay logged in on this phone", default=True)
    submit = SubmitField("Log in")


class PlayerForm(FlaskForm):
    name = StringField("Name", render_kw={"autocomplete": "off", "maxlength": 40})
    submit = SubmitField("Add player")


class RenameForm(FlaskForm):
    name = StringField("New name", render_kw={"autocomplete": "off", "maxlength": 40})
    submit = SubmitField("Rename")


class ActionForm(FlaskForm):
    """A button that changes something: only the CSRF token travels."""


def show_refusal(form: FlaskForm, refusal: Refusal) -> None:
    """Put each of a service's messages under the field it concerns (or on the whole form)."""
    for problem in refusal.problems:
        field = getattr(form, problem.field, None) if problem.field else None
        if field is not None and hasattr(field, "errors"):
            field.errors = [*field.errors, problem.message]
        else:
            form.form_errors.append(problem.message)


# Game nights and backups (history) ---------------------------------------------------------
# (Appended with their own imports; the lead may move these two up to the others.)


class NightForm(FlaskForm):
    """A game night. The date is read as typed; the nights service checks and words it."""

    date = StringField("Date", render_kw={"type": "date"})
    name = StringField(
        "Name (optional)", render_kw={"maxlength": 80, "placeholder": "Friday cards"}
    )
    place = StringField("Place (optional)", render_kw={"maxlength": 80, "placeholder": "At Ann's"})
    notes = TextAreaField("Notes (optional)", render_kw={"rows": 3, "maxlength": 2000})
    submit = SubmitField("Start the night")


class RestoreForm(FlaskForm):
    """Upload a backup file; the backup service reads and checks it."""

    backup = FileField(
        "Backup file", render_kw={"accept": ".json,.gz,application/json,application/gzip"}
    )
    submit = SubmitField("Restore this backup")

"""WTForms (Flask-WTF, with CSRF). Forms parse; the services validate and word the messages."""

from __future__ import annotations

import functools
import secrets

from babel import support
from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup
from wtforms import BooleanField
from wtforms import HiddenField
from wtforms import PasswordField
from wtforms import StringField
from wtforms import SubmitField
from wtforms import TextAreaField
from wtforms.i18n import messages_path
from wtforms.validators import ValidationError

from scorekeeper.errors import Refusal
from scorekeeper.i18n import locale_code


@functools.cache
def _wtforms_catalog(code: str) -> support.Translations:
    """WTForms' own messages in language ``code``, read from its folder once per process."""
    return support.Translations.load(messages_path(), [code], domain="wtforms")


class Form(FlaskForm):
    """The app's forms: Flask-WTF's, with WTForms' own catalog read once per language and
    process (Flask-WTF reads it from disk again on every request that makes a form)."""

    class Meta(FlaskForm.Meta):
        def get_translations(self, form):
            if not current_app.config.get("WTF_I18N_ENABLED", True):
                return super().get_translations(form)
            return _wtforms_catalog(locale_code())


class SignupForm(Form):
    username = StringField(
        lazy_gettext("Username"), render_kw={"autocomplete": "username", "autocapitalize": "none"}
    )
    password = PasswordField(lazy_gettext("Password"), render_kw={"autocomplete": "new-password"})
    confirm = PasswordField(
        lazy_gettext("Password again"), render_kw={"autocomplete": "new-password"}
    )
    submit = SubmitField(lazy_gettext("Sign up"))

    def validate_confirm(self, field) -> None:
        if field.data != self.password.data:
            raise ValidationError(_("The two passwords differ."))


class LoginForm(Form):
    username = StringField(
        lazy_gettext("Username"), render_kw={"autocomplete": "username", "autocapitalize": "none"}
    )
    password = PasswordField(
        lazy_gettext("Password"), render_kw={"autocomplete": "current-password"}
    )
    remember = BooleanField(lazy_gettext("Stay logged in on this phone"), default=True)
    submit = SubmitField(lazy_gettext("Log in"))


class PasswordForm(Form):
    """A new password: the current one, the new one twice. None of them is ever shown again
    (a refused form comes back with the three fields empty)."""

    current = PasswordField(
        lazy_gettext("Current password"), render_kw={"autocomplete": "current-password"}
    )
    password = PasswordField(
        lazy_gettext("New password"), render_kw={"autocomplete": "new-password"}
    )
    confirm = PasswordField(
        lazy_gettext("New password again"), render_kw={"autocomplete": "new-password"}
    )
    submit = SubmitField(lazy_gettext("Change password"))


class PlayerForm(Form):
    name = StringField(lazy_gettext("Name"), render_kw={"autocomplete": "off", "maxlength": 40})
    submit = SubmitField(lazy_gettext("Add player"))


class RenameForm(Form):
    name = StringField(lazy_gettext("New name"), render_kw={"autocomplete": "off", "maxlength": 40})
    submit = SubmitField(lazy_gettext("Rename"))


class ActionForm(Form):
    """A button that changes something: only the CSRF token travels."""


class HandForm(ActionForm):
    """A game page's forms: the CSRF token, and the seats of the players the form's rows
    are for, in the order they are numbered (the table of the hand it enters or corrects:
    ``seats-2`` is the third of them), so the form is read for the table it was made for."""

    seats = HiddenField()

    def hidden_tag(self, *fields) -> Markup:
        """The hidden fields, and a fresh idempotency key for the one form they are put in
        (scorekeeper/views/idempotency.py): the form sent twice (a double tap, a resend after
        a lost answer) is saved once, and answered the same both times."""
        key = secrets.token_urlsafe(16)
        hidden = self.hidden_fields(*fields)
        return Markup(f'{hidden}<input type="hidden" name="idempotency_key" value="{key}">')

    def hidden_fields(self, *fields) -> Markup:
        """The hidden fields but the idempotency key: the same for every form of one page
        (the CSRF token and the seats), rendered once by the widgets."""
        shown = self.__dict__.setdefault("_hidden_shown", {})
        hidden = shown.get(fields)
        if hidden is None:
            hidden = shown[fields] = super().hidden_tag(*fields)
        return hidden


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


class NightForm(Form):
    """A game night. The date is read as typed; the nights service checks and words it."""

    date = StringField(lazy_gettext("Date"), render_kw={"type": "date"})
    name = StringField(
        lazy_gettext("Name (optional)"),
        render_kw={"maxlength": 80, "placeholder": lazy_gettext("Friday cards")},
    )
    place = StringField(
        lazy_gettext("Place (optional)"),
        render_kw={"maxlength": 80, "placeholder": lazy_gettext("At Ann's")},
    )
    notes = TextAreaField(
        lazy_gettext("Notes (optional)"), render_kw={"rows": 3, "maxlength": 2000}
    )
    submit = SubmitField(lazy_gettext("Start the night"))


class RestoreForm(Form):
    """Upload a backup file; the backup service reads and checks it."""

    backup = FileField(
        lazy_gettext("Backup file"),
        render_kw={"accept": ".json,.gz,application/json,application/gzip"},
    )
    submit = SubmitField(lazy_gettext("Restore this backup"))

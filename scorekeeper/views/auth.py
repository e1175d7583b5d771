"""Sign up, log in, log out; the account page (devices, log out elsewhere, password)."""

from __future__ import annotations

from flask import Blueprint
from flask import current_app
from flask import flash
from flask import make_response
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required
from flask_login import login_user
from flask_login import logout_user

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.forms import LoginForm
from scorekeeper.forms import PasswordForm
from scorekeeper.forms import SignupForm
from scorekeeper.forms import show_refusal
from scorekeeper.games.i18n import _
from scorekeeper.services import accounts
from scorekeeper.services import sessions
from scorekeeper.views.common import safe_next

bp = Blueprint("auth", __name__)

#: The signed cookie that makes this browser a known device for the username it logged in as.
KNOWN_DEVICE_COOKIE = "known_device"


def _remember_device(response, account, previous: str | None):
    """Leave (or renew) the known-device cookie: only the login page ever reads it."""
    response.set_cookie(
        KNOWN_DEVICE_COOKIE,
        accounts.known_device_token(account, previous),
        max_age=current_app.config["KNOWN_DEVICE_DAYS"] * 24 * 3600,
        path=url_for("auth.login"),
        httponly=True,
        samesite="Lax",
        secure=current_app.config["SESSION_COOKIE_SECURE"],
    )
    return response


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    """Create an account for a group of players."""
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    enabled = current_app.config["SIGNUP_ENABLED"]
    form = SignupForm()
    if enabled and form.validate_on_submit():
        try:
            account = accounts.create_account(form.username.data, form.password.data)
        except Refusal as refusal:
            show_refusal(form, refusal)
        else:
            sessions.start(account, request.user_agent.string)
            login_user(account, remember=True)
            flash(
                _("Welcome, %(name)s! Add the people you play with.", name=account.username),
                "success",
            )
            return _remember_device(redirect(url_for("players.index")), account, None)
    status = 422 if form.errors or form.form_errors else 200
    return render_template("auth/signup.html", form=form, enabled=enabled), status


def known_device_login() -> bool:
    """The address limit does not apply to a known device logging in to its own username
    (see ``scorekeeper.throttle``)."""
    if request.endpoint != "auth.login":
        return False
    return accounts.is_known_device(
        request.cookies.get(KNOWN_DEVICE_COOKIE), request.form.get("username")
    )


def address_refused_page(message: str):
    """A login page from an address over its limit: the form again (the username stays
    typed), with the message, status 429."""
    form = LoginForm()  # as posted
    form.form_errors.append(message)
    return make_response(render_template("auth/login.html", form=form), 429)


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Log in; a phone stays logged in unless told otherwise."""
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    form = LoginForm()
    status = 200
    headers = {}
    if form.validate_on_submit():
        device = request.cookies.get(KNOWN_DEVICE_COOKIE)
        try:
            account = accounts.authenticate(
                form.username.data, form.password.data, known_device=device
            )
        except Refusal as refusal:
            form.form_errors.append(refusal.message)  # the username stays typed
            status = refusal.status
            if getattr(refusal, "retry_after", None) is not None:
                headers["Retry-After"] = str(refusal.retry_after)
        else:
            sessions.start(account, request.user_agent.string)
            login_user(account, remember=form.remember.data)
            return _remember_device(redirect(safe_next(request.args.get("next"))), account, device)
    elif form.errors:
        status = 400
    return render_template("auth/login.html", form=form), status, headers


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    """Log out on this phone, for good: its login ends, so no copy of its cookies logs in."""
    form = ActionForm()
    if form.validate_on_submit():
        sessions.end(current_user._get_current_object())
        logout_user()
        flash(_("Logged out."), "info")
    return redirect(url_for("auth.login"))


def _account_page(form: PasswordForm, status: int = 200, headers: dict | None = None):
    account = current_user._get_current_object()
    page = render_template(
        "auth/account.html",
        form=form,
        action_form=ActionForm(),
        logins=sessions.logins(account),
        this_login=account.login,
        api_tokens=sessions.api_token_count(account),
    )
    return page, status, headers or {}


@bp.route("/account")
@login_required
def account():
    """Who is logged in where, log out (here, on one device, on every other), a new
    password."""
    return _account_page(PasswordForm())


@bp.route("/account/password", methods=["POST"])
@login_required
def change_password():
    """A new password: every other device is logged out, this phone stays (with a new token,
    so a copy of its cookies taken before is worthless too)."""
    form = PasswordForm()
    form.validate_on_submit()  # the CSRF token; the service checks the passwords
    account = current_user._get_current_object()
    try:
        accounts.change_password(account, form.current.data, form.password.data, form.confirm.data)
    except Refusal as refusal:
        show_refusal(form, refusal)  # the password fields come back empty
        headers = {}
        if getattr(refusal, "retry_after", None) is not None:
            headers["Retry-After"] = str(refusal.retry_after)
        return _account_page(form, refusal.status, headers)
    sessions.renew(account)
    remembered = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
    login_user(account, remember=remembered in request.cookies)
    flash(_("Password changed. Every other device is logged out."), "success")
    # The known-device mark follows the password: this browser stays a known device.
    return _remember_device(redirect(url_for("auth.account")), account, None)


@bp.route("/account/logout-others", methods=["POST"])
@login_required
def logout_others():
    """Log out every other device (and revoke the API tokens); this phone stays."""
    if ActionForm().validate_on_submit():
        sessions.end_others(current_user._get_current_object())
        flash(_("Every other device is logged out."), "success")
    return redirect(url_for("auth.account"))


@bp.route("/account/logout-everywhere", methods=["POST"])
@login_required
def logout_everywhere():
    """Log out every device, this phone too (and revoke the API tokens)."""
    if not ActionForm().validate_on_submit():
        return redirect(url_for("auth.account"))
    sessions.end_everywhere(current_user._get_current_object())
    logout_user()
    flash(_("Logged out everywhere."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/account/devices/<int:login_id>/logout", methods=["POST"])
@login_required
def logout_device(login_id: int):
    """Log out one other device (this phone logs out with the Log out button)."""
    if ActionForm().validate_on_submit():
        account = current_user._get_current_object()
        if login_id == account.login.id:
            pass  # not from the page: it offers no such button for this phone
        elif sessions.end_one(account, login_id):
            flash(_("That device is logged out."), "success")
        else:
            flash(_("That device is no longer logged in."), "info")
    return redirect(url_for("auth.account"))

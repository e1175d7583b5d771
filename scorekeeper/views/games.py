"""Game pages: set up a game, enter each hand, correct, undo, reopen; the score sheet.

Each view loads the game once, reads the form with the game's own reader, calls the games
service once and renders the game's own template (``games/<key>/...``).
"""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import flash
from flask import g
from flask import make_response
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required
from werkzeug.datastructures import MultiDict

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.forms import ActionForm
from scorekeeper.forms import HandForm
from scorekeeper.games import GAMES
from scorekeeper.games import Setup
from scorekeeper.games import entry_form
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import number
from scorekeeper.games.page_context import fragment_of
from scorekeeper.games.readers import join_names
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import players as roster
from scorekeeper.services import rule_sets
from scorekeeper.services import table as table_changes
from scorekeeper.services.games import Played
from scorekeeper.views.common import SHEET_ROWS_HEADER
from scorekeeper.views.common import check_action
from scorekeeper.views.common import never_kept
from scorekeeper.views.common import wants_fragment
from scorekeeper.views.helpers import SHEET_FROM
from scorekeeper.views.idempotency import keyed
from scorekeeper.views.setup_form import NEW_PLAYER_ROWS
from scorekeeper.views.setup_form import follows_the_table
from scorekeeper.views.setup_form import options_need_a_look
from scorekeeper.views.setup_form import options_summary
from scorekeeper.views.setup_form import read_options
from scorekeeper.views.setup_form import read_setup
from scorekeeper.views.setup_form import seat_words
from scorekeeper.views.setup_form import seated_count
from scorekeeper.views.setup_form import worked_example

bp = Blueprint("games", __name__, url_prefix="/games")
bp.after_request(never_kept)


@bp.before_request
@login_required
def require_login():
    """Every game page needs a logged-in account."""


def titles() -> dict[str, str]:
    return {key: plugin.title for key, plugin in GAMES.items()}


def owned_action(game_id: int):
    """The account's game (404 for anyone else's, before anything else), then the form's
    CSRF check."""
    game = games.get_game(current_user, game_id)
    check_action()
    return game


@bp.get("/")
def index():
    """Games in progress first, then finished ones, newest first."""
    page = games.list_games(current_user, per_page=50)
    return render_template(
        "games/index.html",
        in_progress=[g for g in page.items if g.status == "in_progress"],
        finished=[g for g in page.items if g.status != "in_progress"],
        total=page.total,
        titles=titles(),
    )


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Choose a game, its players in seat order, the first dealer and the options."""
    kind = request.values.get("game")
    night_arg = request.values.get("night", "")
    night = None
    if night_arg.isascii() and night_arg.isdigit() and int(night_arg) < 2**31:
        night = nights.get_night(current_user, int(night_arg), False)
    if kind not in GAMES:
        saved: dict[str, list] = {}
        for rule_set in rule_sets.rule_sets(current_user):
            saved.setdefault(rule_set.kind, []).append(rule_set)
        return render_template(
            "games/choose.html",
            choices=[plugin.rules for plugin in GAMES.values()],
            night=night_arg if night else "",
            saved=saved,
        )
    game_rules = GAMES[kind].rules
    active = [p for p in roster.roster(current_user) if not p.archived]
    refusal = None
    form = request.form
    wanted_set = request.args.get("rule_set", "")
    last_used = False
    wanted_again = request.args.get("again", "")
    if request.method == "GET" and wanted_set.isascii() and wanted_set.isdigit():
        chosen = rule_sets.get_rule_set(current_user, int(wanted_set))
        form = with_options(MultiDict(), game_rules, chosen.options)
    elif request.method == "GET" and wanted_again:
        form = _again_form(game_rules, _whole_id(wanted_again), active)
    elif request.method == "GET":
        last = games.last_options(current_user, kind)
        if last:
            form = with_options(MultiDict(), game_rules, last)
            last_used = True
    if request.method == "POST":
        check_action()
        try:
            form = _option_action(form, game_rules, kind)
        except Refusal as error:
            refusal = error
        if form is request.form and refusal is None:
            try:
                names, first_dealer, options = read_setup(request.form, active, game_rules)
                result = games.create_game(
                    current_user, kind, names, options, first_dealer, night.id if night else None
                )
            except Refusal as error:
                refusal = error
            else:
                players = ", ".join(result.players)
                if request.form.get("first_dealer") == "random":
                    message = _(
                        "%(game)s started: %(players)s. %(dealer)s deals first (picked at random).",
                        game=game_rules.title,
                        players=players,
                        dealer=result.state.next["dealer"],
                    )
                else:
                    message = _(
                        "%(game)s started: %(players)s.", game=game_rules.title, players=players
                    )
                flash(message, "success")
                return redirect(url_for("games.show", game_id=result.game.id))
    example, example_problems = worked_example(form, game_rules)
    specs = game_rules.option_specs(game_rules.max_players)
    errors = entry_form.field_errors(refusal)
    return (
        render_template(
            "games/new.html",
            example=example,
            example_problems=example_problems,
            summary=options_summary(form, game_rules),
            last_used=last_used,
            # Unfolded after a preset or rule set was filled in without the script, or where
            # an option needs a look.
            options_open=(request.method == "POST" and form is not request.form)
            or options_need_a_look(form, specs, errors),
            seat_words=seat_words(game_rules),
            seated=seated_count(form),
            rules=game_rules,
            kind=kind,
            night=night,
            roster=active,
            specs=specs,
            new_rows=range(1, NEW_PLAYER_ROWS + 1),
            form=form,
            rule_sets=rule_sets.rule_sets(current_user, kind),
            refusal=refusal,
            errors=errors,
            action_form=ActionForm(formdata=None),
        ),
        refusal.status if refusal else 200,
    )


@bp.get("/new/example")
def example():
    """The worked example for the options of the new-game form (its fields as the query), so
    the page says it again as the values change: ``{"example": words | null, "problems":
    [words], "summary": the options in one line}``, computed by the rules."""
    kind = request.args.get("game")
    if kind not in GAMES:
        abort(404)
    text, problems = worked_example(request.args, GAMES[kind].rules)
    return {
        "example": text,
        "problems": problems,
        "summary": options_summary(request.args, GAMES[kind].rules),
    }


def with_options(form: MultiDict, rules, options) -> MultiDict:
    """The new-game form with its option fields set to ``options`` (players kept)."""
    filled = MultiDict(
        (key, value) for key, value in form.items(multi=True) if not key.startswith("opt-")
    )
    by_table = follows_the_table(rules)
    for spec in rules.option_specs(rules.min_players):
        if spec.key not in options and spec.key in by_table:
            continue  # its default follows the player count: left blank, it still does
        value = options.get(spec.key, spec.default)
        if spec.kind == "bool":
            if value:
                filled[f"opt-{spec.key}"] = "y"
        elif isinstance(value, list):
            # A text field: the numbers in the reader's digits, as the form reads them back.
            filled[f"opt-{spec.key}"] = ", ".join(number(size) for size in value)
        elif value is not None:
            filled[f"opt-{spec.key}"] = str(value)
    filled.setdefault("game", rules.key)
    return filled


def _whole_id(raw: str) -> int:
    """An id from a form button or the address (a rule set's, a game's); 0 (found by nobody)
    for anything that is not one: "²" and "①" pass ``isdigit`` but are no number."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0


def _again_form(rules, game_id: int, active) -> MultiDict:
    """The new-game form filled in for "Change seats first": a finished game's table once
    more (``games.next_game``), every player in their seat, the options as stored, the first
    dealer one seat to the left. A player archived since leaves their seat free, and the page
    says so; a game that is not finished (or of another game) fills nothing in."""
    filled = MultiDict()
    try:
        again = games.next_game(games.get_game(current_user, game_id))
    except Refusal as refusal:
        flash(refusal.message, "warning")
        return filled
    if again.kind != rules.key:
        return filled
    seatable = {player.id for player in active}
    for seat, player in enumerate(again.seated, start=1):
        if player.id in seatable:
            filled[f"seat-{player.id}"] = str(seat)
    if again.dealer.id in seatable:
        filled["first_dealer"] = str(again.dealer.id)
    if again.archived:
        flash(
            ngettext(
                "%(names)s is no longer on the roster (archived): the seat is free. Seat "
                "someone else, or restore them under Players first.",
                "%(names)s are no longer on the roster (archived): their seats are free. Seat "
                "someone else, or restore them under Players first.",
                len(again.archived),
                names=join_names(again.archived),
            ),
            "warning",
        )
    return with_options(filled, rules, again.options)


def _option_action(form, rules, kind: str):
    """A tap on a preset or a saved rule set fills the options in (the game is not started
    yet); "Save" names the options as a rule set. Anything else: the form as it is."""
    if form.get("preset"):
        preset = next((p for p in rules.presets if p.key == form["preset"]), None)
        if preset is None:
            raise Refusal("option_value", _("There is no such preset."), "preset")
        flash(
            _(
                "%(preset)s: the options are filled in. Change any of them, then start.",
                preset=preset.label,
            ),
            "info",
        )
        return with_options(form, rules, preset.options)
    if form.get("rule_set"):
        raw = form["rule_set"]
        chosen = rule_sets.get_rule_set(current_user, _whole_id(raw))
        flash(_("%(name)s: the options are filled in.", name=chosen.name), "info")
        return with_options(form, rules, chosen.options)
    if form.get("forget_rule_set"):
        raw = form["forget_rule_set"]
        gone = rule_sets.get_rule_set(current_user, _whole_id(raw))
        rule_sets.delete_rule_set(current_user, gone.id)
        flash(
            _(
                "Rule set “%(name)s” forgotten. Games played with it keep their rules.",
                name=gone.name,
            ),
            "info",
        )
        return MultiDict(form)
    if form.get("save_rule_set"):
        options = read_options(form, rules.option_specs(rules.min_players))
        saved_set = rule_sets.save_rule_set(current_user, kind, form.get("rule_set_name"), options)
        flash(
            _(
                "Rule set “%(name)s” saved: start a %(game)s game with it in one tap.",
                name=saved_set.name,
                game=rules.title,
            ),
            "success",
        )
        return MultiDict(form)
    return form


def game_page(result: Played, template: str, status: int = 200, **context):
    """A page of one game: its own template (or a shared one, named with its folder) with
    the state and what every game page uses.
    A form saved in place (``X-Fragment``) gets the page's main part only."""
    html = page_html(result, template, **context)
    return (fragment_of(html) if wants_fragment() else html), status


def page_html(result: Played, template: str, **context) -> str:
    """The whole page of ``game_page``, rendered (also for a state the game may reach: the
    forms of the steps ahead, for a phone that plays offline)."""
    hand = context.get("hand")
    players = hand.players if hand is not None and hand.players else result.players
    setup = result.setup
    if list(players) != list(setup.players):  # the table changed: the hand's own table
        setup = Setup(tuple(players), setup.options, setup.first_dealer)
    return render_template(
        template if "/" in template else result.plugin.template(template),
        **result.rules.page_context(setup),
        played=result,
        state=result.state,
        game=result.game,
        action_form=HandForm(formdata=None, seats=_seats(result, context.get("hand"))),
        **context,
    )


def page_hidden(result: Played) -> str:
    """The hidden fields of the game page's forms but their idempotency key (the CSRF token,
    the seats): those of the sheet's undo as the phone draws it (``games.pages``)."""
    return str(HandForm(formdata=None, seats=_seats(result)).hidden_fields())


def _seats(result: Played, hand=None) -> str:
    """The seat positions of the players a page's forms are for: the hand being corrected's,
    or the hand to enter's."""
    players = hand.players if hand is not None and hand.players else result.players
    members = result.game.members
    return ",".join(str(members.index(name)) for name in players)


def form_players(game) -> list[str]:
    """The players a posted hand form was made for, by the seats it carries (``HandForm``);
    the starting table for a form without them. Seats that name no one are ignored: the
    rules refuse what is then missing."""
    members = game.members
    raw = request.form.get("seats", "")
    seats = [part.strip() for part in raw.split(",") if part.strip().isascii()]
    seats = [part for part in seats if part.isdigit()]
    chosen = [members[int(seat)] for seat in seats if int(seat) < len(members)]
    if not chosen or len(set(chosen)) != len(chosen):
        return game.players
    return chosen


def saved(result: Played, number: int | None = None, version: int | None = None):
    """After a change: the game again. A form saved in place gets the updated main part at
    once (one request); a plain form is redirected to the game's page, at the hand now.

    A save of hand ``number`` made in place by the page's script, from the game as it was at
    ``version`` (``X-Sheet-Rows: <version>``, the page's ``data-version``), gets the sheet's
    lines from that hand on only: the script keeps the lines before it, which it shows
    already (static/js/app.js). A page drawn from another version gets the whole sheet."""
    if wants_fragment():
        if number is not None and request.headers.get(SHEET_ROWS_HEADER) == str(version):
            setattr(g, SHEET_FROM, number)
        response = make_response(_render_game(result))
        if version is not None:
            # The version the save was made on (the page's is the one it made): a phone
            # keeping the game tells its own changes from another phone's (play_offline.js).
            response.headers["X-Version-From"] = str(version)
        return response
    return redirect(url_for("games.show", game_id=result.game.id, _anchor="now"))


def ahead_page(result: Played) -> str:
    """The game's page for ``result``, a state the game may reach (no refusal, nothing typed):
    the steps ahead of a phone playing offline (``ahead``: a game's page may draw there what
    the phone shows or hides as its own rules say)."""
    return page_html(
        result, "show.html", refusal=None, errors={}, entered=None, phase=None, ahead=True
    )


def edit_page(result: Played, number: int) -> str:
    """The correction page of hand ``number`` of ``result`` (a state the game may reach),
    nothing typed: the correction forms of a phone playing offline."""
    hand = result.state.hands[number - 1]
    return page_html(result, "edit.html", hand=hand, refusal=None, errors={}, entered=None)


def _render_game(result: Played, refusal=None, entered=None, phase=None):
    return game_page(
        result,
        "show.html",
        refusal.status if refusal else 200,
        refusal=refusal,
        errors=entry_form.field_errors(refusal),
        entered=entered,
        phase=phase,
    )


@bp.get("/<int:game_id>")
def show(game_id: int):
    """The game: what to enter next, the reminder of bids, totals and the score sheet."""
    return _render_game(games.load(current_user, game_id))


def _hand_number() -> int | None:
    with as_refusal():
        return entry_form.whole_or_none(
            request.form.get("number"), _("The hand number must be a whole number."), "number"
        )


def _unmoved(game) -> None:
    """A save made offline names the game's version it was made on (``based_on``: the phone
    counts its own saves since it last saw the game, play_offline.js). When the game moved
    since (another phone saved a hand, a seat phone bid), it is refused, not applied over a
    game the phone did not see: the phone keeps it, beside the server's, for the scorekeeper
    to choose."""
    based_on = request.form.get("based_on")
    if based_on is None:
        return
    if not (based_on.isascii() and based_on.isdigit()) or int(based_on) != game.version:
        raise Refusal(
            "conflict",
            _(
                "This game changed on another phone while this one was offline: this save"
                " was not applied. Compare it with the game, then keep this phone’s version or"
                " discard it."
            ),
        )


def _read_hand(game, phase: str) -> dict:
    """The game's form reader on this request's form; what it refuses, refused as the app
    refuses (the same codes, messages and fields)."""
    with as_refusal():
        return game.plugin.read_hand(request.form, form_players(game), phase)


@bp.post("/<int:game_id>/hands")
@keyed
def record(game_id: int):
    """Record the next hand (a form always carries the hand number it was made for)."""
    game = owned_action(game_id)
    version = game.version
    phase = request.form.get("phase", "")
    try:
        _unmoved(game)
        entry = _read_hand(game, phase)
        result = games.record_hand(game, entry, number=_hand_number())
    except Refusal as refusal:
        return _refused(game, refusal, phase)
    return saved(result, len(result.state.hands), version)


@bp.post("/<int:game_id>/hands/<int:number>")
@keyed
def update(game_id: int, number: int):
    """Complete a hand (its tricks) or correct it (bids and tricks)."""
    game = owned_action(game_id)
    version = game.version
    phase = request.form.get("phase", "")
    correcting = phase == "both"
    rules = game.plugin.rules
    try:
        _unmoved(game)
        entry = _read_hand(game, phase)
        complete = phase in game.plugin.completing
        result = games.update_hand(game, number, entry, complete=complete, replace=correcting)
    except Refusal as refusal:
        if correcting and refusal.code not in ("not_next_hand", "conflict"):
            return _render_edit(games.as_it_stands(game, refusal), number, refusal)
        return _refused(game, refusal, phase)
    if correcting:
        flash(rules.phrase("corrected", number=number), "success")
    elif request.form.get("change") == "1":  # the bids of the hand in play, changed
        flash(rules.phrase("bids_changed", number=number), "success")
    return saved(result, number, version)


def _refused(game, refusal: Refusal, phase: str):
    """Show the game again with the message and everything that was typed.

    A refusal by the rules or the form reader changed nothing: the game loaded for the save
    is shown as it stands, without reading it again, in the state the refused attempt derived
    on its way (one replay in all). Only after a concurrent change (another phone got there
    first) is the game read again."""
    if refusal.code in ("not_next_hand", "conflict", "not_found"):
        flash(refusal.message, "warning")
        if wants_fragment():
            return _render_game(games.load(current_user, game.id))
        return redirect(url_for("games.show", game_id=game.id, _anchor="now"))
    result = games.as_it_stands(game, refusal)
    entered = result.plugin.typed(request.form, form_players(result.game))
    return _render_game(result, refusal, entered, phase)


@bp.get("/<int:game_id>/hands/<int:number>/edit")
def edit(game_id: int, number: int):
    """Correct a hand: what was entered for it, prefilled."""
    return _render_edit(games.load(current_user, game_id), number)


def _render_edit(result: Played, number: int, refusal=None):
    if not 1 <= number <= len(result.state.hands):
        abort(404)
    entered = result.plugin.typed(request.form, form_players(result.game)) if refusal else None
    return game_page(
        result,
        "edit.html",
        refusal.status if refusal else 200,
        hand=result.state.hands[number - 1],
        refusal=refusal,
        errors=entry_form.field_errors(refusal),
        entered=entered,
    )


@bp.post("/<int:game_id>/hands/<int:number>/undo")
@keyed
def undo(game_id: int, number: int):
    """Undo the last hand."""
    game = owned_action(game_id)
    rules = game.plugin.rules
    try:
        _unmoved(game)
        games.undo_last_hand(game, number)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash(rules.phrase("removed", number=number), "success")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/changes/<int:change_id>/undo")
@keyed
def undo_change(game_id: int, change_id: int):
    """Undo a change of the table (the sheet offers the last entry of the record)."""
    game = owned_action(game_id)
    try:
        table_changes.remove_change(game, change_id)
    except NotFound:
        abort(404)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash(_("The change of the table was undone."), "success")
    return redirect(url_for("games.show", game_id=game_id, _anchor="sheet-title"))


@bp.post("/<int:game_id>/reopen")
@keyed
def reopen(game_id: int):
    """Reopen a finished game to correct a mistake."""
    game = owned_action(game_id)
    try:
        games.reopen(game)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash(_("Game reopened: correct what needs correcting, then close it again."), "info")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/again")
@keyed
def play_again(game_id: int):
    """A finished game's table again in one tap: a new game with the same seats, options and
    night, the first dealer one seat to the left."""
    game = owned_action(game_id)
    try:
        result = games.play_again(current_user, game)
    except Refusal as refusal:
        for problem in refusal.problems:
            flash(problem.message, "warning")
        return redirect(url_for("games.show", game_id=game_id))
    flash(
        _(
            "%(game)s started again: %(players)s. %(dealer)s deals first.",
            game=result.rules.title,
            players=", ".join(result.players),
            dealer=result.state.next["dealer"],
        ),
        "success",
    )
    return redirect(url_for("games.show", game_id=result.game.id, _anchor="now"))


@bp.app_template_global()
def next_game(game) -> games.NextGame | None:
    """What "Play again" would start from this game: for a finished, read-only game (None for
    any other)."""
    return games.next_game(game) if game.locked and game.status == "finished" else None


@bp.post("/<int:game_id>/close")
@keyed
def close(game_id: int):
    """Close a reopened game again."""
    game = owned_action(game_id)
    try:
        games.close(game)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    return redirect(url_for("games.show", game_id=game_id))


@bp.route("/<int:game_id>/table", methods=["GET", "POST"])
@keyed
def table(game_id: int):
    """Correct the table after the start: who sat in each seat, who dealt first."""
    game = games.get_game(current_user, game_id)
    # Who may sit: the active players, and whoever sits in the game now (archived since).
    seated = {seat.player_id for seat in game.seats}
    roster_now = [
        player
        for player in roster.roster(current_user)
        if not player.archived or player.id in seated
    ]
    refusal = None
    if request.method == "POST":
        check_action()
        by_id = {str(player.id): player.name for player in roster_now}
        names = [
            by_id.get(request.form.get(f"seat-{seat}", ""), "") for seat in range(len(game.seats))
        ]
        raw_dealer = request.form.get("first_dealer", "")
        dealer = None
        if raw_dealer.isascii() and raw_dealer.isdigit() and int(raw_dealer) < len(names):
            dealer = names[int(raw_dealer)]
        try:
            if not all(names):
                raise Refusal("unknown_player", _("Choose a player for every seat."), "players")
            games.correct_table(game, names, dealer)
        except Refusal as error:
            refusal = error
        else:
            flash(_("Table corrected: every hand was scored again."), "success")
            return redirect(url_for("games.show", game_id=game_id, _anchor="now"))
    result = games.played(game) if refusal is None else games.load(current_user, game_id)
    return game_page(
        result,
        "games/table.html",
        refusal.status if refusal else 200,
        roster=roster_now,
        form=request.form,
        refusal=refusal,
    )


def _confirm(result: Played, **words):
    return render_template(
        "games/confirm.html",
        game=result.game,
        played=result,
        action_form=ActionForm(formdata=None),
        **words,
    )


@bp.get("/<int:game_id>/hands/<int:number>/undo")
def confirm_undo(game_id: int, number: int):
    """Undo asks first on its own page (without JavaScript; the script asks in a dialog)."""
    result = games.load(current_user, game_id)
    rules = result.rules
    return _confirm(
        result,
        heading=rules.phrase("undo_heading", number=number),
        question=rules.phrase("undo_question", number=number),
        action=url_for("games.undo", game_id=game_id, number=number),
        button=rules.phrase("undo", number=number),
        danger=True,
    )


@bp.route("/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int):
    """Delete a game, after asking: it cannot be undone."""
    if request.method == "POST":
        game = owned_action(game_id)
        title = game.plugin.title
        games.delete_game(game)
        flash(_("%(game)s deleted, with every hand and its statistics.", game=title), "success")
        return redirect(url_for("games.index"))
    result = games.load(current_user, game_id)
    return _confirm(
        result,
        heading=_("Delete this %(game)s game?", game=result.rules.title),
        question=result.rules.phrase(
            "delete_question", count=len(result.state.hands), players=", ".join(result.players)
        ),
        warning=_(
            "Deleting cannot be undone: the game, every hand and its part in the "
            "statistics are gone for good. (To keep it in history, abandon it instead.)"
        ),
        action=url_for("games.delete", game_id=game_id),
        button=_("Delete the game for good"),
        danger=True,
    )


@bp.post("/<int:game_id>/abandon")
@keyed
def abandon(game_id: int):
    """Leave an unfinished game: it stays in history, marked as not finished."""
    game = owned_action(game_id)
    try:
        games.abandon(game)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash(_("Game abandoned: it stays in history as not finished. Resume it any time."), "info")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/resume")
@keyed
def resume(game_id: int):
    """Take an abandoned game up again."""
    game = owned_action(game_id)
    try:
        games.resume(game)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    return redirect(url_for("games.show", game_id=game_id, _anchor="now"))

"""The JSON API (v1): accounts, tokens, the roster and games, on the same services and with
the same messages as the pages. Each operation is declared once (``declare``): its body,
query and answers are pydantic models that check it and write the OpenAPI document.

Bearer tokens only (no cookies), so the API needs no CSRF token.
"""

from __future__ import annotations

from flask import Blueprint
from flask import current_app
from flask import g
from flask import jsonify
from flask import request
from pydantic import ValidationError

from scorekeeper.api import schemas as s
from scorekeeper.api.schemas import game_models
from scorekeeper.api.spec import BASIC
from scorekeeper.api.spec import answers
from scorekeeper.api.spec import declare
from scorekeeper.api.spec import document
from scorekeeper.api.spec import problems_of
from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.services import accounts
from scorekeeper.services import games
from scorekeeper.services import players
from scorekeeper.services import rule_sets
from scorekeeper.services import sharing
from scorekeeper.services import table
from scorekeeper.views.api_history import NOT_A_NAME
from scorekeeper.views.common import absolute_url
from scorekeeper.views.common import bearer_token
from scorekeeper.views.common import no_store
from scorekeeper.views.common import page_number
from scorekeeper.views.common import token_required
from scorekeeper.views.idempotency import keyed

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.after_request(no_store)


def body() -> dict:
    """The checked request body, as sent (fields left out stay out)."""
    return request.context.json.model_dump(exclude_unset=True)


def game_write(**declared):
    """``declare`` for a write of a game: it also takes an ``Idempotency-Key`` (API.md,
    "Idempotency keys"), declared in the document and kept by ``keyed`` (outside: a repeat
    is answered as it was, without the view nor spectree)."""

    def wrap(view):
        return keyed(declare(keyed=True, **declared)(view))

    return wrap


def state(result, status: int = 200):
    """The game state, as the game's own model (spectree writes it out)."""
    return games.state_answer(result), status


#: What the state of a game or the roster may answer to a request the document allows.
NAME_TAKEN = (422, "The name is taken already (name_taken, ignoring case and width).")
CHANGED = (409, "Changed at the same moment by another request (conflict): read it again.")
LOCKED = (409, "The game is finished and locked, or was changed at the same moment (conflict).")
HAND_ANSWERS = (
    (
        409,
        "Not the hand that comes next (not_next_hand: another phone got there first), a "
        "finished game (locked), or a hand of another game's kind (conflict).",
    ),
    (
        422,
        "Against the rules or the game so far: a player not seated, a bid or count the "
        "rules refuse, a hand already complete, the game over (game_over).",
    ),
)


@bp.get("/openapi.json")
@declare(resp=answers(HTTP_200=s.OpenApi), security=None)
def openapi():
    """This document: every operation of the API with its bodies and answers."""
    return jsonify(document())


# Accounts and tokens ----------------------------------------------------------------------


@bp.post("/accounts")
@declare(
    json=s.Credentials,
    resp=answers(
        400,
        403,
        (422, "The username is taken (name_taken, ignoring case and width)."),
        HTTP_201=s.AccountOut,
    ),
    security=None,
)
def create_account():
    """Sign up (unless sign-up is switched off)."""
    sent = body()
    account = accounts.create_account(sent["username"], sent["password"])
    return s.AccountOut(id=account.id, username=account.username), 201


@bp.post("/tokens")
@declare(resp=answers(401, 429, HTTP_201=s.Token), security=BASIC)
def create_token():
    """Exchange HTTP Basic credentials for a bearer token. It lasts until it is revoked, the
    account's password is changed, or "Log out all other devices" is used on the account
    page (then 401)."""
    auth = request.authorization
    if auth is None or auth.type != "basic":
        raise Refusal("unauthorized", _("Send your username and password with HTTP Basic auth."))
    account = accounts.authenticate(auth.username, auth.password)
    return s.Token(token=accounts.issue_token(account)), 201


@bp.delete("/tokens")
@token_required
@declare(resp=answers(401, HTTP_204=None))
def revoke_token():
    """Revoke the token this request was sent with."""
    accounts.revoke_token(bearer_token())
    return "", 204


# Players ----------------------------------------------------------------------------------


@bp.get("/players")
@token_required
@declare(resp=answers(401, HTTP_200=s.PlayerList))
def list_players():
    """The roster, archived players last."""
    return s.PlayerList(players=[players.answer(p) for p in players.roster(g.account)])


@bp.post("/players")
@token_required
@declare(json=s.NewPlayer, resp=answers(400, 401, NAME_TAKEN, HTTP_201=s.PlayerOut))
def add_player():
    """Add a player to the roster."""
    return players.answer(players.add_player(g.account, body()["name"])), 201


@bp.patch("/players/<int:player_id>")
@token_required
@declare(json=s.PlayerChange, resp=answers(400, 401, 404, NAME_TAKEN, HTTP_200=s.PlayerOut))
def update_player(player_id: int):
    """Rename, archive or restore a player."""
    sent = body()
    player = players.update_player(
        g.account, player_id, name=sent.get("name"), archived=sent.get("archived")
    )
    return players.answer(player)


# Rule sets --------------------------------------------------------------------------------


@bp.get("/rulesets")
@token_required
@declare(resp=answers(401, HTTP_200=s.RuleSetList))
def list_rule_sets():
    """The account's saved rule sets, every game's, by name."""
    return s.RuleSetList(rule_sets=[rule_sets.answer(r) for r in rule_sets.rule_sets(g.account)])


@bp.post("/rulesets")
@token_required
@declare(
    json=s.NewRuleSet,
    resp=answers(
        400,
        401,
        (422, "Options the game's rules refuse together (option_value)."),
        HTTP_201=s.RuleSetOut,
    ),
)
def save_rule_set():
    """Name a set of options for a game (a set of the same name is replaced)."""
    sent = body()
    s.refuse_option_texts(sent["game"], sent["options"])
    saved = rule_sets.save_rule_set(g.account, sent["game"], sent["name"], sent["options"])
    return rule_sets.answer(saved), 201


@bp.delete("/rulesets/<int:rule_set_id>")
@token_required
@declare(resp=answers(401, 404, HTTP_204=None))
def delete_rule_set(rule_set_id: int):
    """Forget a rule set (games played with it keep their rules)."""
    rule_sets.delete_rule_set(g.account, rule_set_id)
    return "", 204


# Games ------------------------------------------------------------------------------------


@bp.post("/games")
@token_required
@game_write(
    json=s.NewGame,
    resp=answers(
        400,
        401,
        (404, "No such night (night_id) in this account."),
        (409, "The roster changed at the same moment, again and again (conflict): send it again."),
        (
            422,
            "Against the rules or the roster: a name twice, an archived player, a first "
            "dealer who is not seated, options the rules refuse together or for this many "
            "players.",
        ),
        HTTP_201=s.GameState,
    ),
)
def create_game():
    """Create a game: players in seat order, options, first dealer, night."""
    sent = body()
    s.refuse_option_texts(sent["game"], sent.get("options"))
    result = games.create_game(
        g.account,
        sent["game"],
        sent["players"],
        sent.get("options"),
        sent.get("first_dealer"),
        sent.get("night_id"),
    )
    return state(result, 201)


@bp.get("/games")
@token_required
@declare(query=s.ListQuery, resp=answers(400, 401, NOT_A_NAME, HTTP_200=s.GameList))
def list_games():
    """A page of the account's games, newest first (by a player, by game)."""
    page = page_number()
    per_page = current_app.config["GAMES_PER_PAGE"]
    found = games.list_games(
        g.account,
        player=request.args.get("player") or None,
        kind=request.args.get("game") or None,
        page=page,
        per_page=per_page,
    )
    return s.GameList(
        games=[games.summary_answer(game) for game in found.items],
        page=page,
        per_page=per_page,
        total=found.total,
    )


@bp.get("/games/<int:game_id>")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.GameState))
def get_game(game_id: int):
    """The game state."""
    return state(games.load(g.account, game_id))


@bp.patch("/games/<int:game_id>")
@token_required
@game_write(
    json=s.TableChange,
    resp=answers(
        400,
        401,
        404,
        LOCKED,
        (
            422,
            "A table the rules refuse (other players than the game's, a name twice, a "
            "first dealer not seated, a hand the change would make illegal).",
        ),
        HTTP_200=s.GameState,
    ),
)
def correct_table(game_id: int):
    """Correct the table after the start (a seat's player, the first dealer); every hand is
    derived again, and a change the rules refuse is refused whole."""
    game = games.get_game(g.account, game_id)
    sent = body()
    names = sent.get("players") or game.players
    return state(games.correct_table(game, names, sent.get("first_dealer")))


@bp.delete("/games/<int:game_id>")
@token_required
@game_write(resp=answers(401, 404, CHANGED, HTTP_204=None))
def delete_game(game_id: int):
    """Delete a game for good (its hands, results and statistics)."""
    games.delete_game(games.get_game(g.account, game_id))
    return "", 204


@bp.post("/games/<int:game_id>/abandon")
@token_required
@game_write(
    resp=answers(
        401,
        404,
        CHANGED,
        (422, "The game is finished or abandoned already (game_over)."),
        HTTP_200=s.GameState,
    )
)
def abandon_game(game_id: int):
    """Abandon an unfinished game: it stays in history, marked as not finished."""
    return state(games.abandon(games.get_game(g.account, game_id)))


@bp.post("/games/<int:game_id>/resume")
@token_required
@game_write(
    resp=answers(401, 404, CHANGED, (422, "The game is not abandoned."), HTTP_200=s.GameState)
)
def resume_game(game_id: int):
    """Take an abandoned game up again."""
    return state(games.resume(games.get_game(g.account, game_id)))


def hand_of(game, sent: dict) -> dict:
    """The body checked against the game's own hand model (known once the game is).

    A field the model does not know is refused here. A value of the wrong kind is left to
    the rules, which refuse it with the same code and the message the pages give ("Ben's
    deadwood must be a whole number.")."""
    try:
        checked = game_models(game.plugin)["hand_body"].model_validate(sent)
    except ValidationError as error:
        unknown = [e for e in error.errors() if e["type"] in ("extra_forbidden", "missing")]
        if unknown:
            raise _other_games_hand(game, sent) or Refusal.of(problems_of(unknown)) from None
        return dict(sent)
    return checked.model_dump(exclude_unset=True)


def _other_games_hand(game, sent: dict) -> Refusal | None:
    """A hand of another game (the document's hand body is any registered game's): 409, as
    the game it is sent to is of another kind."""
    strange = sorted(set(sent) - set(game_models(game.plugin)["hand_body"].model_fields))
    for plugin in GAMES.values():
        fields = game_models(plugin)["hand_body"].model_fields
        if strange and plugin is not game.plugin and set(sent) <= set(fields):
            field = strange[0]
            return Refusal(
                "conflict",
                _(
                    "This is a game of %(title)s: its hands have no “%(field)s”.",
                    title=game.plugin.title,
                    field=field,
                ),
                field,
            )
    return None


@bp.post("/games/<int:game_id>/hands")
@token_required
@game_write(json=s.HandBody, resp=answers(400, 401, 404, *HAND_ANSWERS, HTTP_201=s.GameState))
def record_hand(game_id: int):
    """Start or record the next hand; ``number`` guards against double submission."""
    game = games.get_game(g.account, game_id)
    entry = hand_of(game, body())
    number = entry.pop("number", None)
    return state(games.record_hand(game, entry, number=number), 201)


@bp.patch("/games/<int:game_id>/hands/<int:number>")
@token_required
@game_write(json=s.HandBody, resp=answers(400, 401, 404, *HAND_ANSWERS, HTTP_200=s.GameState))
def update_hand(game_id: int, number: int):
    """Complete or correct a hand; later hands are re-scored."""
    game = games.get_game(g.account, game_id)
    entry = hand_of(game, body())
    entry.pop("number", None)
    return state(games.update_hand(game, number, entry))


@bp.delete("/games/<int:game_id>/hands/<int:number>")
@token_required
@game_write(
    resp=answers(
        401,
        404,
        LOCKED,
        (422, "Not the last hand, or no hand to undo."),
        HTTP_200=s.GameState,
    )
)
def undo_hand(game_id: int, number: int):
    """Undo the last hand."""
    return state(games.undo_last_hand(games.get_game(g.account, game_id), number))


CHANGE_ANSWERS = (
    (
        409,
        "Not before the hand that comes next (not_next_hand: another phone got there first), "
        "a finished game (locked), or changed at the same moment (conflict).",
    ),
    (
        422,
        "Against the rules or the table as it is: a hand being played (hand_in_progress), a "
        "change the game does not allow (change_not_allowed), a player not at the table "
        "(not_seated) or at it already (already_seated), too many or too few players "
        "(player_count), no hand left (no_hands_left), the game over (game_over), or a later "
        "hand or change it would make impossible.",
    ),
)


@bp.post("/games/<int:game_id>/changes")
@token_required
@game_write(json=s.ChangeBody, resp=answers(400, 401, 404, *CHANGE_ANSWERS, HTTP_201=s.GameState))
def record_change(game_id: int):
    """Record one change of the table before the next hand (a join, a leave, a sit-out, a
    substitute, an adjustment, the schedule); ``before_hand`` guards against a resend."""
    change = body()
    before_hand = change.pop("before_hand", None)
    game, known = table.game_for(g.account, game_id, change)
    return state(table.record_change(game, change, before_hand, known), 201)


@bp.patch("/games/<int:game_id>/changes/<int:change_id>")
@token_required
@game_write(json=s.ChangeBody, resp=answers(400, 401, 404, *CHANGE_ANSWERS, HTTP_200=s.GameState))
def correct_change(game_id: int, change_id: int):
    """Correct a change (the same body as recording it); every later entry is derived again."""
    change = body()
    change.pop("before_hand", None)
    game, known = table.game_for(g.account, game_id, change)
    return state(table.correct_change(game, change_id, change, known))


@bp.delete("/games/<int:game_id>/changes/<int:change_id>")
@token_required
@game_write(resp=answers(401, 404, *CHANGE_ANSWERS, HTTP_200=s.GameState))
def remove_change(game_id: int, change_id: int):
    """Remove a change (the undo of the last entry, or one further back); every later entry
    is derived again."""
    return state(table.remove_change(games.get_game(g.account, game_id), change_id))


@bp.post("/games/<int:game_id>/reopen")
@token_required
@game_write(
    resp=answers(
        401, 404, CHANGED, (422, "The game is not finished (not_finished)."), HTTP_200=s.GameState
    )
)
def reopen_game(game_id: int):
    """Unlock a finished game to correct a hand."""
    return state(games.reopen(games.get_game(g.account, game_id)))


@bp.post("/games/<int:game_id>/close")
@token_required
@game_write(
    resp=answers(
        401,
        404,
        CHANGED,
        (422, "The game is not finished, or not open-ended (not_finished)."),
        HTTP_200=s.GameState,
    )
)
def close_game(game_id: int):
    """Lock a finished game again (or end an open-ended one)."""
    return state(games.close(games.get_game(g.account, game_id)))


@bp.post("/games/<int:game_id>/again")
@token_required
@game_write(
    resp=answers(
        401,
        404,
        (409, "The roster changed at the same moment, again and again (conflict): send it again."),
        (
            422,
            "The game is not finished (not_finished), a player is archived since "
            "(unknown_player), or the rules refuse its table or options now.",
        ),
        HTTP_201=s.GameState,
    )
)
def play_again(game_id: int):
    """Play a finished game again: a new game with the same players in the same seats, the
    same options and night, the first dealer one seat to the left. Sent again while that
    game has no hand yet, it answers that game (no second one is made)."""
    return state(games.play_again(g.account, games.get_game(g.account, game_id)), 201)


@bp.post("/games/<int:game_id>/share")
@token_required
@game_write(resp=answers(401, 404, CHANGED, HTTP_201=s.ShareLink))
def share_game(game_id: int):
    """The absolute link of the game's read-only view (made on first call)."""
    game = sharing.share(games.get_game(g.account, game_id))
    return s.ShareLink(url=absolute_url("share.view", token=game.share_token)), 201


@bp.delete("/games/<int:game_id>/share")
@token_required
@game_write(resp=answers(401, 404, CHANGED, HTTP_204=None))
def unshare_game(game_id: int):
    """Revoke the read-only link: it answers 404 from now on."""
    sharing.revoke(games.get_game(g.account, game_id))
    return "", 204

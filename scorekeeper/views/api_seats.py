"""The JSON API for each player's own phone (API.md, "Each player on their own phone"): the
seat link and its claims, the seat's own view and entry, the hand being entered (the draft)
and the live event streams."""

from __future__ import annotations

from flask import Blueprint
from flask import g

from scorekeeper.api import schemas as s
from scorekeeper.api.spec import answers
from scorekeeper.api.spec import declare
from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.games.i18n import _
from scorekeeper.services import accounts
from scorekeeper.services import games
from scorekeeper.services import live
from scorekeeper.services import seats
from scorekeeper.views.api import body
from scorekeeper.views.api import game_write
from scorekeeper.views.common import absolute_url
from scorekeeper.views.common import bearer_token
from scorekeeper.views.common import no_store
from scorekeeper.views.common import token_required
from scorekeeper.views.events import stream

bp = Blueprint("api_seats", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.after_request(no_store)

SEAT_TOKEN = (401, "An unknown seat token, or one freed or revoked (unauthorized).")
TAKEN = (409, "Another phone holds that seat (seat_taken) until the scorekeeper frees it.")
NOT_AT_TABLE = (422, "No such player at the table (unknown_player).")
ENTRY = (
    422,
    "Against the rules, not this seat's turn (not_your_turn), nothing to enter from the phones "
    "now, or the game over (game_over).",
)


def link_answer(game) -> s.SeatLink:
    return s.SeatLink(url=absolute_url("seats.pick", link=game.seat_link))


def draft_answer(played, reader: str | None = None) -> s.Draft | None:
    draft = seats.draft_of(played)
    return None if draft is None else s.Draft(**draft.answer(reader))


# The scorekeeper: the link, the seats, the draft -------------------------------------------


@bp.post("/games/<int:game_id>/seat-link")
@token_required
@game_write(resp=answers(401, 404, HTTP_201=s.SeatLink))
def make_seat_link(game_id: int):
    """The link the players open on their own phones to take their seats (the same one
    again until it is revoked)."""
    return link_answer(seats.make_link(games.get_game(g.account, game_id))), 201


@bp.delete("/games/<int:game_id>/seat-link")
@token_required
@game_write(resp=answers(401, 404, HTTP_204=None))
def revoke_seat_link(game_id: int):
    """Revoke the seat link and every seat claimed through it (their tokens answer 401)."""
    seats.revoke_link(games.get_game(g.account, game_id))
    return "", 204


@bp.delete("/games/<int:game_id>/seats/<name>/claim")
@token_required
@game_write(resp=answers(401, 404, HTTP_204=None))
def free_seat(game_id: int, name: str):
    """Free a player's seat: the phone holding it answers 401 from now on."""
    seats.free(games.get_game(g.account, game_id), name)
    return "", 204


@bp.get("/games/<int:game_id>/draft")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.Draft))
def get_draft(game_id: int):
    """The hand being entered from the phones (secret values read "secret")."""
    answer = draft_answer(games.load(g.account, game_id))
    if answer is None:
        raise Refusal("not_found", _("No hand is being entered from the phones now."))
    return answer


@bp.put("/games/<int:game_id>/draft")
@token_required
@game_write(json=s.DraftEntry, resp=answers(400, 401, 404, ENTRY, HTTP_200=s.GameState))
def put_draft(game_id: int):
    """Enter any seat's value (in any order, but the calls of an auction in turn: a call
    entered again drops the calls after it); the last bid or call opens the hand."""
    sent = body()
    played = games.load(g.account, game_id)
    return games.state_answer(seats.enter(played, sent["player"], sent["value"], by_seat=False))


@bp.delete("/games/<int:game_id>/draft")
@token_required
@game_write(resp=answers(401, 404, ENTRY, HTTP_200=s.GameState))
def clear_draft(game_id: int):
    """Clear every value entered for the hand (the table enters it again)."""
    return games.state_answer(seats.clear(games.load(g.account, game_id)))


# A seat's phone ----------------------------------------------------------------------------


@bp.post("/seat-links/<link>/seats")
@declare(
    json=s.SeatClaim,
    resp=answers(
        400,
        404,
        TAKEN,
        (422, "No such player at the table (unknown_player)."),
        HTTP_201=s.SeatToken,
    ),
    security=None,
)
def claim_seat(link: str):
    """Take a seat through the seat link: a seat token for this phone."""
    game = seats.game_for_link(link)
    return s.SeatToken(seat_token=seats.claim(game, body()["player"])), 201


def seat_holder() -> seats.SeatHolder:
    return seats.seat_for_token(bearer_token())


@bp.get("/seat")
@declare(resp=answers(SEAT_TOKEN, HTTP_200=s.SeatView))
def get_seat():
    """The game as this seat may see it, and the hand being entered."""
    holder = seat_holder()
    played = games.played(holder.game)
    return s.SeatView(
        seat=holder.name,
        draft=draft_answer(played, holder.name),
        state=games.state_answer(played).model_dump(mode="json"),
    )


@bp.put("/seat/entry")
@declare(json=s.SeatEntryBody, resp=answers(400, SEAT_TOKEN, ENTRY, HTTP_200=s.SeatView))
def seat_entry():
    """This seat's own value for the hand being entered: ``bid``, ``call`` ("pass" or a bid,
    in turn) or ``points``, as the game says; the last bid or call opens the hand."""
    holder = seat_holder()
    played = games.played(holder.game)
    spec = played.rules.seat_entry(holder.game.options)
    sent = {key: value for key, value in body().items() if value is not None}
    field = spec.field if spec is not None else None
    if field is None or field not in sent or not set(sent) <= {field, *spec.marks}:
        raise Refusal(
            "not_your_turn" if spec is None else "wrong_type",
            _("Nothing to enter from the phones in this game.")
            if spec is None
            else _("Send this seat's %(field)s only.", field=field),
            field,
        )
    marks = {mark: sent[mark] for mark in spec.marks if mark in sent}
    played = seats.enter(played, holder.name, sent[field], marks=marks)
    return s.SeatView(
        seat=holder.name,
        draft=draft_answer(played, holder.name),
        state=games.state_answer(played).model_dump(mode="json"),
    )


# Live updates ------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/events")
@declare(resp=answers(401, 404, HTTP_200=None), raw="text/event-stream", streamed=True)
def game_events(game_id: int):
    """The game's changes as server-sent events (the account's token, or a seat token of
    this game): each event's ``id`` is the game's version, its data the state and the hand
    being entered as this reader may see them; ``Last-Event-ID`` resumes."""
    token = bearer_token()
    account = accounts.account_for_token(token) if token else None
    if account is not None:
        games.get_game(account, game_id)
        reader = None
    else:
        holder = seat_holder()
        if holder.game.id != game_id:
            raise Refusal("unauthorized", _("This seat token is for another game."))
        reader = holder.name

    def data(version: int, created, load) -> tuple[int, str] | None:
        found = live.STATES.get(
            live.key(game_id, version, created),
            lambda: live.derived(load),
            keep_as=lambda found: None if found is None else live.key(game_id, *found[:2]),
        )
        if found is None:
            return None
        version, created, state, draft = found
        seen = None if draft is None else draft.seen_by(reader)
        # Written once per version and what the reader may see, for every stream of the game
        # in this process; a reader who may see otherwise (a secret bid) gets their own.
        return version, live.PAYLOADS.get(
            (game_id, version, created, seen),
            lambda: live.event_text(version, state, draft, reader),
        )

    return stream(game_id, data)

"""Games: create, record and correct hands, undo, reopen; the state as the rules derive it.

What is stored is what was entered (normalised by the rules). Every change replays the whole
game through the rules layer, so a correction re-scores every later hand, and a change the
rules refuse leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import GameRules
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from scorekeeper.games import State
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow
from scorekeeper.services import players as roster

CONFLICT = "Someone changed this game at the same moment. Reload it and try again."


@dataclass
class Played:
    """A game with the state its rules derive from the hands entered so far."""

    game: Game
    rules: GameRules
    setup: Setup
    state: State

    @property
    def players(self) -> list[str]:
        return list(self.setup.players)

    @property
    def editable(self) -> bool:
        return not self.game.locked

    @property
    def entries(self) -> list[dict]:
        return [hand.input for hand in self.game.hands]


def rules_for(game: Game) -> GameRules:
    return GAMES[game.kind].rules


def setup_for(game: Game) -> Setup:
    names = tuple(seat.player.name for seat in game.seats)
    return Setup(players=names, options=game.options, first_dealer=game.first_dealer)


def _replay(game: Game, entries: Sequence[Mapping[str, Any]]) -> State:
    game_rules = rules_for(game)
    try:
        return game_rules.play(setup_for(game), entries)
    except RuleError as error:
        raise Refusal.from_rule(error, game_rules.hand_word) from None


def played(game: Game) -> Played:
    """The derived state of a stored game."""
    state = _replay(game, [hand.input for hand in game.hands])
    return Played(game, rules_for(game), setup_for(game), state)


# Reading ----------------------------------------------------------------------------------


def get_game(account: Account, game_id: int) -> Game:
    """The account's game (with seats and hands), or 404 for anyone else's."""
    game = db.session.scalar(
        sa.select(Game)
        .where(Game.id == game_id, Game.account_id == account.id)
        .options(selectinload(Game.seats), selectinload(Game.hands))
    )
    if game is None:
        raise NotFound("That game")
    return game


def load(account: Account, game_id: int) -> Played:
    return played(get_game(account, game_id))


def list_games(
    account: Account,
    player: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = 20,
) -> tuple[list[Game], int]:
    """A page of the account's games, newest first, and how many there are in all."""
    query = sa.select(Game).where(Game.account_id == account.id)
    if kind:
        query = query.where(Game.kind == kind)
    if player:
        query = query.where(
            Game.id.in_(
                sa.select(Seat.game_id)
                .join(Player, Player.id == Seat.player_id)
                .where(Player.account_id == account.id, Player.name_key == player.casefold())
            )
        )
    total = db.session.scalar(sa.select(sa.func.count()).select_from(query.subquery()))
    games = db.session.scalars(
        query.options(selectinload(Game.seats))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(per_page)
        .offset((max(page, 1) - 1) * per_page)
    ).all()
    return list(games), total


# Creating ---------------------------------------------------------------------------------


def create_game(
    account: Account,
    kind: object,
    names: object,
    options: object = None,
    first_dealer: object = None,
    night_id: object = None,
) -> Played:
    """A new game: players in seat order (new names join the roster), options, first dealer,
    and optionally the game night it belongs to."""
    if not isinstance(kind, str):
        raise Refusal("wrong_type", "Choose a game.", "game")
    try:
        game_rules = GAMES.get(kind).rules
    except RuleError as error:
        raise Refusal.from_rule(error) from None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise Refusal("wrong_type", "Players must be a list of names in seat order.", "players")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise Refusal("wrong_type", "Options must be an object of option values.", "options")
    cleaned = [roster.clean_name(name) for name in names]
    keys = [name.casefold() for name in cleaned]
    if len(set(keys)) != len(keys):
        raise Refusal("player_count", "Each player can sit at the table only once.", "players")
    try:
        resolved = game_rules.resolve_options(options, len(cleaned))
        game_rules.check_players(cleaned, resolved)
    except RuleError as error:
        raise Refusal.from_rule(error) from None
    dealer_seat = 0
    if first_dealer is not None:
        if not isinstance(first_dealer, str) or first_dealer.strip().casefold() not in keys:
            raise Refusal(
                "unknown_player", "The first dealer must be one of the players.", "first_dealer"
            )
        dealer_seat = keys.index(first_dealer.strip().casefold())

    night = None
    if night_id is not None:
        if isinstance(night_id, bool) or not isinstance(night_id, int):
            raise Refusal("wrong_type", "night_id must be a whole number.", "night_id")
        night = db.session.get(Night, night_id)
        if night is None or night.account_id != account.id:
            raise Refusal("not_found", "That night was not found.", "night_id")

    seated = [_find_or_new_player(account, name) for name in cleaned]
    game = Game(
        account_id=account.id,
        night=night,
        kind=game_rules.key,
        options=resolved,
        first_dealer=dealer_seat,
        seats=[Seat(position=i, player=player) for i, player in enumerate(seated)],
    )
    result = Played(game, game_rules, setup_for(game), _replay(game, []))
    _copy_derived(game, result.state)
    db.session.add(game)
    _commit()
    return result


def _find_or_new_player(account: Account, name: str) -> Player:
    player = db.session.scalar(
        sa.select(Player).where(Player.account_id == account.id, Player.name_key == name.casefold())
    )
    if player is None:
        player = Player(account_id=account.id, name=name, name_key=name.casefold())
        db.session.add(player)
    return player


# Changing ---------------------------------------------------------------------------------


def _check_open(game: Game) -> None:
    if game.locked:
        raise Refusal("game_over", "This game is over. Reopen it first to correct a hand.", None)


def record_hand(account: Account, game_id: int, entry: object, number: object = None) -> Played:
    """Start or record the next hand. ``number`` is the hand the client thinks comes next."""
    game = get_game(account, game_id)
    if not isinstance(entry, Mapping):
        raise Refusal("wrong_type", "A hand must be an object.", None)
    expected = len(game.hands) + 1
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal("wrong_type", "The hand number must be a whole number.", "number")
        if number != expected:
            raise _not_next(game, number)
    _check_open(game)
    entries = [hand.input for hand in game.hands] + [dict(entry)]
    state = _replay(game, entries)
    hand = state.hands[-1]
    game.hands.append(HandEntry(number=expected, input=hand.input, points=hand.points))
    # Two phones sending the same hand: the second finds the game changed under it.
    return _save(game, state, conflict=_not_next(game, expected, recorded=expected))


def _not_next(game: Game, number: int, recorded: int | None = None) -> Refusal:
    word = rules_for(game).hand_word
    recorded = len(game.hands) if recorded is None else recorded
    if number <= recorded:
        message = (
            f"{word} {number} is already recorded (a second tap, or another phone got there "
            "first). Nothing was changed."
        )
    else:
        message = f"{word} {number} is not next: {recorded} recorded so far. Nothing was changed."
    return Refusal("not_next_hand", message, "number")


def update_hand(
    account: Account,
    game_id: int,
    number: int,
    change: object,
    *,
    complete: bool = False,
    replace: bool = False,
) -> Played:
    """Complete or correct hand ``number``; every later hand is re-scored.

    With ``complete`` (the page's "save tricks" button) the hand must still be unfinished,
    so a second tap gets a clear answer instead of a silent re-save. With ``replace`` the
    change is the whole hand (a correction form), not a completion merged into it.
    """
    game = get_game(account, game_id)
    if not isinstance(change, Mapping):
        raise Refusal("wrong_type", "A hand must be an object.", None)
    row = _hand_row(game, number)
    if complete and row.points is not None:
        word = rules_for(game).hand_word
        raise Refusal(
            "not_next_hand",
            f"{word} {number} is already complete (a second tap, or another phone got "
            "there first). Nothing was changed.",
            "number",
        )
    _check_open(game)
    game_rules = rules_for(game)
    entries = [hand.input for hand in game.hands]
    entries[number - 1] = dict(change) if replace else game_rules.merge(row.input, change)
    state = _replay(game, entries)
    return _save(game, state)


def undo_last_hand(account: Account, game_id: int, number: int | None = None) -> Played:
    """Remove the last hand (only the last one can be undone)."""
    game = get_game(account, game_id)
    word = rules_for(game).hand_word
    if not game.hands:
        raise Refusal("not_found", f"There is no {word.lower()} to undo.")
    last = game.hands[-1]
    if number is not None and number != last.number:
        raise Refusal(
            "not_next_hand" if number < last.number else "not_found",
            f"Only the last {word.lower()} ({word} {last.number}) can be undone.",
            "number",
        )
    _check_open(game)
    game.hands.remove(last)
    state = _replay(game, [hand.input for hand in game.hands])
    return _save(game, state)


def reopen(account: Account, game_id: int) -> Played:
    """Unlock a finished game so that a hand can be corrected."""
    game = get_game(account, game_id)
    if game.status != "finished":
        raise Refusal("not_finished", "This game is still in progress; it is open already.")
    game.locked = False
    return _save(game, played(game).state)


def close(account: Account, game_id: int) -> Played:
    """Lock a finished game again after corrections."""
    game = get_game(account, game_id)
    result = played(game)
    if not result.state.finished:
        raise Refusal("not_finished", "This game is not finished yet.")
    game.locked = True
    return _save(game, result.state)


def _hand_row(game: Game, number: object) -> HandEntry:
    if isinstance(number, int) and 1 <= number <= len(game.hands):
        return game.hands[number - 1]
    raise NotFound(f"{rules_for(game).hand_word} {number}")


def _copy_derived(game: Game, state: State) -> None:
    """Refresh the stored copies of what the rules derive."""
    was_finished = game.status == "finished"
    game.status = "finished" if state.finished else "in_progress"
    game.totals = dict(state.totals)
    game.winners = list(state.winners)
    game.hand_count = len(state.hands)
    game.updated_at = utcnow()
    if state.finished and not was_finished:
        game.finished_at = game.updated_at
        game.locked = True
    elif not state.finished:
        game.finished_at = None
        game.locked = False


def _store(game: Game, state: State) -> None:
    """Put the normalised entries and every derived copy into the game's rows (no commit)."""
    for row, hand in zip(game.hands, state.hands, strict=True):
        if row.input != hand.input:
            row.input = hand.input
            row.updated_at = utcnow()
        if row.points != hand.points:
            row.points = hand.points
    _copy_derived(game, state)


def _save(game: Game, state: State, conflict: Refusal | None = None) -> Played:
    _store(game, state)
    _commit(conflict)
    return Played(game, rules_for(game), setup_for(game), state)


def _commit(conflict: Refusal | None = None) -> None:
    try:
        db.session.commit()
    except (StaleDataError, sa.exc.IntegrityError):
        db.session.rollback()
        raise (conflict or Refusal("conflict", CONFLICT)) from None


def rename_in_games(player: Player, old: str, new: str) -> None:
    """After a roster rename: rewrite the name in the entries of every game it sits in."""
    games = db.session.scalars(
        sa.select(Game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.player_id == player.id)
        .options(selectinload(Game.hands), selectinload(Game.seats))
    ).all()
    for game in games:
        game_rules = rules_for(game)
        now = [seat.player.name for seat in game.seats]
        before = [old if name == new else name for name in now]
        for row in game.hands:
            row.input = game_rules.from_seats(game_rules.to_seats(row.input, before), now)
        _store(game, played(game).state)


# The state as JSON (the API's "game state") -----------------------------------------------


def state_json(result: Played) -> dict:
    game = result.game
    state = result.state
    return {
        "id": game.id,
        "game": game.kind,
        "night_id": game.night_id,
        "options": dict(game.options),
        "players": result.players,
        "teams": state.teams,
        "status": "finished" if state.finished else "in_progress",
        "locked": game.locked,
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "status": hand.status,
                **hand.info,
                "input": hand.input,
                "points": hand.points,
            }
            for hand in state.hands
        ],
        "totals": state.totals,
        "winners": state.winners,
        "bonuses": state.bonuses,
        "notices": state.notices,
        "next": state.next,
    }


def summary_json(game: Game) -> dict:
    """A game in a list: no replay, only the stored copies."""
    return {
        "id": game.id,
        "game": game.kind,
        "players": [seat.player.name for seat in game.seats],
        "status": game.status,
        "hands": game.hand_count,
        "totals": game.totals,
        "winners": game.winners,
        "night_id": game.night_id,
        "created_at": as_utc(game.created_at).isoformat(),
    }

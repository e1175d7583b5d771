"""A whole account as one JSON document, and its restore into an account with no data.

The document holds what was entered, nothing derived::

    {"format": "scorekeeper-backup", "version": 1, "exported_at": ..., "account": {...},
     "players": [{"id", "name", "archived", "created_at"}],
     "nights":  [{"id", "date", "name", "place", "notes", "created_at"}],
     "games":   [{"id", "game", "options", "first_dealer", "players": [player ids by seat],
                  "night": night id | null, "locked", "created_at", "updated_at",
                  "finished_at", "hands": [{"number", "input", "created_at", "updated_at"}]}]}

Ids are the document's own (1, 2, 3 ... in the order rows were made), so a restored account
exports to the same document. Share links are not carried: they are live secrets of the
account they were made in. A restore checks the whole document first, replaying every game
through the rules, and writes it in one transaction: all of it, or nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from contextlib import suppress
from datetime import UTC
from datetime import date
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper import web
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow
from scorekeeper.services import nights as night_service
from scorekeeper.services import players as roster
from scorekeeper.services import results
from scorekeeper.services.games import Played

FORMAT = "scorekeeper-backup"
VERSION = 1
CODE = "restore_refused"


def _moment(value: datetime | None) -> str | None:
    """A stored moment in UTC, ISO 8601 (SQLite hands it back without its zone)."""
    moment = as_utc(value)
    return moment.astimezone(UTC).isoformat() if moment is not None else None


# Export ------------------------------------------------------------------------------------


def export_account(account: Account) -> dict:
    """The account's players, nights and games with every hand as entered."""
    players = db.session.scalars(
        sa.select(Player).where(Player.account_id == account.id).order_by(Player.id)
    ).all()
    nights = db.session.scalars(
        sa.select(Night).where(Night.account_id == account.id).order_by(Night.id)
    ).all()
    games = db.session.scalars(
        sa.select(Game)
        .where(Game.account_id == account.id)
        .options(selectinload(Game.seats), selectinload(Game.hands))
        .order_by(Game.id)
    ).all()
    player_ref = {player.id: index for index, player in enumerate(players, start=1)}
    night_ref = {night.id: index for index, night in enumerate(nights, start=1)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": utcnow().isoformat(),
        "account": {"username": account.username},
        "players": [
            {
                "id": player_ref[player.id],
                "name": player.name,
                "archived": player.archived,
                "created_at": _moment(player.created_at),
            }
            for player in players
        ],
        "nights": [
            {
                "id": night_ref[night.id],
                "date": night.date.isoformat(),
                "name": night.name,
                "place": night.place,
                "notes": night.notes,
                "created_at": _moment(night.created_at),
            }
            for night in nights
        ],
        "games": [
            {
                "id": index,
                "game": game.kind,
                "options": dict(game.options),
                "first_dealer": game.first_dealer,
                "players": [player_ref[seat.player_id] for seat in game.seats],
                "night": night_ref.get(game.night_id),
                "locked": game.locked,
                "created_at": _moment(game.created_at),
                "updated_at": _moment(game.updated_at),
                "finished_at": _moment(game.finished_at),
                "hands": [
                    {
                        "number": hand.number,
                        "input": game.plugin.rules.from_seats(hand.input, game.players),
                        "created_at": _moment(hand.created_at),
                        "updated_at": _moment(hand.updated_at),
                    }
                    for hand in game.hands
                ],
            }
            for index, game in enumerate(games, start=1)
        ],
    }


# Restore -----------------------------------------------------------------------------------


class Damaged(Exception):
    """Something in the document is missing, of the wrong kind or against the rules."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def refuse(message: str, field: str | None = None) -> Refusal:
    return Refusal(CODE, f"{message} Nothing was restored.", field)


def is_empty(account: Account) -> bool:
    """True when the account has no players, nights or games (so it may be restored into)."""
    counts = [
        sa.select(sa.func.count()).where(model.account_id == account.id)
        for model in (Player, Night, Game)
    ]
    return all(db.session.scalar(count) == 0 for count in counts)


def read_document(raw: bytes | str) -> object:
    """The JSON document in an uploaded file (refused when it is not JSON)."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = json.loads(text)
    except (UnicodeDecodeError, ValueError):
        raise refuse("This file is not a Scorekeeper backup: it is not JSON.") from None
    except RecursionError:
        raise refuse(f"This file is not a Scorekeeper backup: {web.TOO_DEEP}") from None
    try:  # nested too deeply, or text with lone surrogates (which nothing can store)
        web.check_json(document)
    except Refusal as refusal:
        raise refuse(f"This file is not a Scorekeeper backup: {refusal.message}") from None
    return document


def restore_account(account: Account, document: object) -> dict[str, int]:
    """Load a backup into an empty account; how many players, nights, games and hands.

    Refused (``restore_refused``, nothing changed) when the account already holds data, when
    the document is not a Scorekeeper backup of a version this app reads, or when anything in
    it is damaged: a missing or ill-typed field, an unknown game, a bad seat, or a hand the
    rules refuse.
    """
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise refuse("This file is not a Scorekeeper backup.", "format")
    version = document.get("version")
    if version != VERSION:
        raise refuse(
            f"This backup is in format version {version!r}; this app reads version {VERSION}.",
            "version",
        )
    if not is_empty(account):
        raise refuse(
            "A backup can only be restored into an account with no players, nights or games "
            "yet; this one already has some. Sign up for a new account and restore there."
        )
    try:
        plan = _Plan(document)
    except Damaged as damage:
        raise refuse(f"This backup is damaged: {damage.message}", damage.where) from None
    try:
        counts = plan.write(account)
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise refuse(
            "The account received other data while restoring (from another phone?)."
        ) from None
    except Exception:
        db.session.rollback()
        raise
    return counts


def _need(container: Mapping[str, Any], key: str, kind: type | tuple, where: str, what: str):
    if key not in container:
        raise Damaged(f"{where}.{key}", f"{what} has no “{key}”.")
    value = container[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise Damaged(f"{where}.{key}", f"{what}: “{key}” is not {_kind_word(kinds)}.")
    return value


def _kind_word(kinds: tuple) -> str:
    words = {
        str: "text",
        int: "a whole number",
        bool: "true or false",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }
    return " or ".join(words.get(kind, kind.__name__) for kind in kinds)


def _list(document: Mapping[str, Any], key: str) -> list:
    value = document.get(key)
    if not isinstance(value, list):
        raise Damaged(key, f"the list of {key} is missing.")
    for index, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise Damaged(f"{key}[{index}]", f"entry {index + 1} of {key} is not an object.")
    return value


def _time(container: Mapping[str, Any], key: str, where: str, what: str, optional=False):
    value = container.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise Damaged(f"{where}.{key}", f"{what} has no valid “{key}” (a date and time).")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise Damaged(f"{where}.{key}", f"{what}: “{value}” is not a date and time.") from None
    if moment.tzinfo is None:
        raise Damaged(f"{where}.{key}", f"{what}: “{value}” has no time zone.")
    return moment.astimezone(UTC)


def _unique_ids(items: list, where: str, what: str) -> dict[int, Mapping]:
    found: dict[int, Mapping] = {}
    for index, item in enumerate(items):
        ref = _need(item, "id", int, f"{where}[{index}]", f"{what} {index + 1}")
        if ref in found:
            raise Damaged(f"{where}[{index}].id", f"two {where} have the id {ref}.")
        found[ref] = item
    return found


class _Plan:
    """The document checked, and the rows it will become."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.players = self._players(_list(document, "players"))
        self.nights = self._nights(_list(document, "nights"))
        self.games = [
            self._game(index, item) for index, item in enumerate(_list(document, "games"))
        ]

    def _players(self, items: list) -> dict[int, dict]:
        by_id = _unique_ids(items, "players", "Player")
        keys: dict[str, str] = {}
        players = {}
        for index, (ref, item) in enumerate(by_id.items()):
            where, what = f"players[{index}]", f"player {ref}"
            raw = _need(item, "name", str, where, what.capitalize())
            try:
                name = roster.clean_name(raw)
            except Refusal as refusal:
                raise Damaged(f"{where}.name", f"{what}: {refusal.message}") from None
            if name != raw:
                raise Damaged(f"{where}.name", f"{what}: “{raw}” has extra spaces.")
            if roster.name_key(name) in keys:
                raise Damaged(
                    f"{where}.name", f"two players are called {keys[roster.name_key(name)]}."
                )
            keys[roster.name_key(name)] = name
            players[ref] = {
                "name": name,
                "archived": _need(item, "archived", bool, where, what.capitalize()),
                "created_at": _time(item, "created_at", where, what.capitalize()),
            }
        return players

    def _nights(self, items: list) -> dict[int, dict]:
        by_id = _unique_ids(items, "nights", "Night")
        nights = {}
        for index, (ref, item) in enumerate(by_id.items()):
            where, what = f"nights[{index}]", f"Night {ref}"
            raw_date = _need(item, "date", str, where, what)
            try:
                day = date.fromisoformat(raw_date)
            except ValueError:
                raise Damaged(f"{where}.date", f"{what}: “{raw_date}” is not a date.") from None
            values = {"date": day}
            limits = {
                "name": night_service.NAME_MAX,
                "place": night_service.PLACE_MAX,
                "notes": night_service.NOTES_MAX,
            }
            for key, limit in limits.items():
                text = _need(item, key, str, where, what)
                if len(text) > limit:
                    raise Damaged(
                        f"{where}.{key}", f"{what}: the {key} is longer than {limit} characters."
                    )
                try:  # what the nights service stores (no NUL, nothing invisible)
                    night_service.clean_text(text, key, limit, key == "notes")
                except Refusal as refusal:
                    raise Damaged(f"{where}.{key}", f"{what}: {refusal.message}") from None
                values[key] = text
            values["created_at"] = _time(item, "created_at", where, what)
            nights[ref] = values
        return nights

    def _game(self, index: int, item: Mapping[str, Any]) -> dict:
        where = f"games[{index}]"
        ref = _need(item, "id", int, where, f"Game {index + 1}")
        what = f"Game {ref}"
        kind = _need(item, "game", str, where, what)
        if kind not in GAMES:
            known = ", ".join(GAMES)
            raise Damaged(f"{where}.game", f"{what} is of an unknown game “{kind}” ({known}).")
        plugin = GAMES[kind]
        game_rules = plugin.rules
        seat_refs = _need(item, "players", list, where, what)
        for seat, player_ref in enumerate(seat_refs):
            if isinstance(player_ref, bool) or player_ref not in self.players:
                raise Damaged(
                    f"{where}.players[{seat}]",
                    f"{what}: seat {seat + 1} names no player of the backup ({player_ref!r}).",
                )
        if len(set(seat_refs)) != len(seat_refs):
            raise Damaged(f"{where}.players", f"{what}: a player sits at the table twice.")
        names = [self.players[player_ref]["name"] for player_ref in seat_refs]
        options = _need(item, "options", dict, where, what)
        first_dealer = _need(item, "first_dealer", int, where, what)
        try:
            resolved = game_rules.resolve_options(options, len(names))
            game_rules.check_players(names, resolved)
        except RuleError as error:
            raise Damaged(
                f"{where}.{error.field or 'options'}", f"{what}: {error.message}"
            ) from None
        except ValueError:
            raise Damaged(f"{where}.players", f"{what}: wrong number of players.") from None
        if not 0 <= first_dealer < len(names):
            raise Damaged(f"{where}.first_dealer", f"{what}: the first dealer is not a seat.")
        night_ref = item.get("night")
        if night_ref is not None and (isinstance(night_ref, bool) or night_ref not in self.nights):
            raise Damaged(f"{where}.night", f"{what} belongs to a night not in the backup.")
        locked = _need(item, "locked", bool, where, what)

        hands = _need(item, "hands", list, where, what)
        entries = []
        for number, hand in enumerate(hands, start=1):
            hand_where = f"{where}.hands[{number - 1}]"
            if not isinstance(hand, Mapping):
                raise Damaged(hand_where, f"{what}: hand {number} is not an object.")
            if _need(hand, "number", int, hand_where, f"{what}, hand {number}") != number:
                raise Damaged(
                    f"{hand_where}.number", f"{what}: the hands are not numbered 1, 2, 3 …"
                )
            entries.append(_need(hand, "input", dict, hand_where, f"{what}, hand {number}"))
        setup = Setup(players=tuple(names), options=resolved, first_dealer=first_dealer)
        try:
            state = game_rules.play(setup, entries)
        except RuleError as error:
            word = game_rules.hand_word.lower()
            at = f"{word} {error.hand}: " if error.hand else ""
            raise Damaged(
                f"{where}.hands[{(error.hand or 1) - 1}]",
                f"{what} ({game_rules.title}), {at}{error.message}",
            ) from None
        finished_at = _time(item, "finished_at", where, what, optional=True)
        if finished_at is not None and not state.finished:
            # A game the table ended (an open-ended score pad) is ended again by its rules.
            with suppress(RuleError):
                state = game_rules.close(setup, state)
        if locked and not state.finished:
            raise Damaged(f"{where}.locked", f"{what} is marked finished but is not over.")
        if finished_at is not None and not state.finished:
            raise Damaged(f"{where}.finished_at", f"{what} has an end time but is not over.")
        return {
            "kind": kind,
            "plugin": plugin,
            "setup": setup,
            "options": resolved,
            "first_dealer": first_dealer,
            "seats": seat_refs,
            "night": night_ref,
            "locked": locked,
            "created_at": _time(item, "created_at", where, what),
            "updated_at": _time(item, "updated_at", where, what),
            "finished_at": finished_at,
            "state": state,
            "hand_times": [
                (
                    _time(hand, "created_at", f"{where}.hands[{i}]", f"{what}, hand {i + 1}"),
                    _time(hand, "updated_at", f"{where}.hands[{i}]", f"{what}, hand {i + 1}"),
                )
                for i, hand in enumerate(hands)
            ],
        }

    def write(self, account: Account) -> dict[str, int]:
        """Add every row to the session (the caller commits)."""
        players = {}
        for ref, values in self.players.items():
            player = Player(
                account_id=account.id, name_key=roster.name_key(values["name"]), **values
            )
            db.session.add(player)
            players[ref] = player
        nights = {}
        for ref, values in self.nights.items():
            night = Night(account_id=account.id, **values)
            db.session.add(night)
            nights[ref] = night
        db.session.flush()
        hand_count = 0
        made = []
        for values in self.games:
            state, plugin, setup = values["state"], values["plugin"], values["setup"]
            status = results.status_of(state)
            derived = results.derive(plugin, setup, state, status)
            game = Game(
                account_id=account.id,
                kind=values["kind"],
                options=values["options"],
                first_dealer=values["first_dealer"],
                variant=plugin.rules.variant_of(values["options"]),
                night=nights.get(values["night"]),
                locked=values["locked"],
                status=status,
                totals=derived.totals,
                winners=derived.winners,
                tally=derived.tally,
                hand_count=len(state.hands),
                created_at=values["created_at"],
                updated_at=values["updated_at"],
                finished_at=values["finished_at"],
                seats=[
                    Seat(position=seat, player=players[ref])
                    for seat, ref in enumerate(values["seats"])
                ],
                hands=[
                    HandEntry(
                        number=hand.number,
                        input=plugin.rules.to_seats(hand.input, setup.players),
                        created_at=created,
                        updated_at=updated,
                    )
                    for hand, (created, updated) in zip(
                        state.hands, values["hand_times"], strict=True
                    )
                ],
            )
            db.session.add(game)
            made.append((game, derived))
            hand_count += len(state.hands)
        # Rows are inserted in the order they were added: ids (and so a later export) keep
        # the document's order.
        db.session.flush()
        results.write_many(made)
        return {
            "players": len(players),
            "nights": len(nights),
            "games": len(self.games),
            "hands": hand_count,
        }


# One game's score sheet as CSV -------------------------------------------------------------

#: A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell: numbers as they are, text defused so that no name runs as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def game_csv(result: Played) -> str:
    """The score sheet: a row per hand (what was entered, as the game's own columns, what it
    scored, the running totals), end-of-game bonus lines, then the totals. It starts with a
    UTF-8 byte-order mark, so spreadsheet apps read accented names right."""
    state = result.state
    rules = result.rules
    setup = result.setup
    sides = list(state.sides)
    header = [rules.hand_word, "Dealer", *rules.csv_columns(setup)]
    for side in sides:
        header += [f"{side} points", f"{side} total"]
    width = len(header)
    rows = [header]
    for hand in state.hands:
        row: list[object] = [hand.number, hand.dealer, *rules.csv_cells(setup, hand)]
        for side in sides:
            if hand.points is None:
                row += [None, None]
            else:
                row += [hand.points[side], hand.totals[side]]
        rows.append(row)
    titles = {"game": "Game bonus", "box": "Box bonus", "shutout": "Shutout (doubled)"}
    for line in state.bonuses:
        row = [titles.get(line["kind"], line["kind"])] + [None] * (width - 1 - 2 * len(sides))
        for side in sides:
            row += [line["points"] if side == line["player"] else None, None]
        rows.append(row)
    total = ["Total"] + [None] * (width - 1 - 2 * len(sides))
    for side in sides:
        total += [None, state.totals[side]]
    rows.append(total)
    if state.winners:
        rows.append(
            [
                "Winner",
                (
                    ", ".join(state.winners[:-1]) + " and " + state.winners[-1]
                    if len(state.winners) > 1
                    else state.winners[0]
                ),
            ]
            + [None] * (width - 2)
        )
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()

"""Auction Pitch: the auction (or just pitcher and bid), then who took each point.

Phases: "auction" (a new hand's bidding), "points" (completing the hand in progress) and
"both" (a correction from the edit page). Players are chosen by seat number on the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.errors import Refusal
from scorekeeper.games.entry_form import whole_or_none

POINT_WORDS = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game"}


def _seat(form: Mapping[str, str], field: str, players: list[str], what: str) -> str | None:
    raw = (form.get(field) or "").strip()
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= len(players):
        raise Refusal("unknown_player", f"{what} must be one of the players.", field)
    return players[int(raw)]


def read_bidding(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    if form.get("quick"):
        pitcher = _seat(form, "pitcher", players, "The pitcher")
        if pitcher is None:
            raise Refusal("required", "Choose who pitched (the high bidder).", "pitcher")
        bid = whole_or_none(form.get("bid"), "The bid", "bid")
        if bid is None:
            raise Refusal("required", f"Choose what {pitcher} bid.", "bid")
        return {"pitcher": pitcher, "bid": bid}
    order = [
        int(seat)
        for seat in (form.get("order") or "").split(",")
        if seat.isascii() and seat.isdigit() and len(seat) < 4
    ]
    if sorted(order) != list(range(len(players))):
        order = list(range(len(players)))
    auction: list[list[Any]] = []
    for turn, seat in enumerate(order):
        raw = (form.get(f"call-{seat}") or "").strip()
        where = f"auction.{turn}"
        # A call left empty goes to the rules as None: they refuse it (missing_bid) with
        # every other problem of the hand.
        call = "pass" if raw == "pass" else whole_or_none(raw, f"{players[seat]}'s bid", where)
        auction.append([players[seat], call])
    return {"auction": auction}


def read_points(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    single = bool(form.get("single_trump"))
    pitcher = _seat(form, "pitcher_seat", players, "The pitcher")
    for key in ("high", "low"):
        entry[key] = _seat(form, key, players, POINT_WORDS[key])
        if entry[key] is None and single and pitcher:
            entry[key] = pitcher
        if entry[key] is None:
            raise Refusal("required", f"Choose who took {POINT_WORDS[key]}.", key)
    jack = (form.get("jack") or "").strip()
    if single and form.get("lone_jack") and jack == "" and pitcher:
        entry["jack"] = pitcher  # the lone trump was the jack: High, Low and Jack
    else:
        entry["jack"] = None if jack in ("", "none") else _seat(form, "jack", players, "Jack")
    points: dict[str, int] = {}
    for seat, name in enumerate(players):
        value = whole_or_none(
            form.get(f"game_points-{seat}"), f"{name}'s game points", f"game_points.{name}"
        )
        if value is not None:
            points[name] = value
    game = (form.get("game") or "").strip()
    if game == "":
        if not points:
            raise Refusal("required", "Choose who took Game, or Tie.", "game")
        entry["game"] = None
    else:
        entry["game"] = None if game == "tie" else _seat(form, "game", players, "Game")
    if points:
        entry["game_points"] = points
    if single:
        entry["single_trump"] = True
    return entry


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if phase in ("auction", "both"):
        entry.update(read_bidding(form, players))
    if phase in ("points", "both"):
        entry.update(read_points(form, players))
    return entry

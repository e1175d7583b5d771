"""Auction Pitch: the auction (or just pitcher and bid), then who took each point.

Phases: "auction" (a new hand's bidding), "points" (completing the hand in progress) and
"both" (a correction from the edit page). Players are chosen by seat number on the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import whole_or_none
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.pitch.rules import DEALER_MIN_BID
from scorekeeper.games.pitch.rules import TOP_BID

#: What the form says when a point names no player, or is left empty.
#: The phase whose form completes a hand in progress: who took each point.
COMPLETING = frozenset({"points"})

NOT_A_PLAYER = {
    "high": N_("High must be one of the players."),
    "low": N_("Low must be one of the players."),
    "jack": N_("Jack must be one of the players."),
    "game": N_("Game must be one of the players."),
}
NOT_CHOSEN = {"high": N_("Choose who took High."), "low": N_("Choose who took Low.")}


def _seat(form: Mapping[str, str], field: str, players: list[str], not_a_player: str) -> str | None:
    raw = (form.get(field) or "").strip()
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= len(players):
        raise RuleError("unknown_player", str(not_a_player), field)
    return players[int(raw)]


def _whole(raw: str | None, field: str, not_whole: str) -> int | None:
    """A form value as a whole number (blank is None), else refused with ``not_whole``."""
    return whole_or_none(raw, not_whole, field)


def read_bidding(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    if form.get("quick"):
        pitcher = _seat(form, "pitcher", players, _("The pitcher must be one of the players."))
        if pitcher is None:
            raise RuleError("required", _("Choose who pitched (the high bidder)."), "pitcher")
        bid = _whole(form.get("bid"), "bid", _("The bid must be a whole number."))
        if bid is None:
            raise RuleError("required", _("Choose what %(name)s bid.", name=pitcher), "bid")
        return {"pitcher": pitcher, "bid": bid}
    order = [
        int(seat)
        for seat in (form.get("order") or "").split(",")
        if seat.isascii() and seat.isdigit() and len(seat) < 4
    ]
    if sorted(order) != list(range(len(players))):
        order = list(range(len(players)))
    auction: list[list[Any]] = []
    pitched_top = False
    for turn, seat in enumerate(order):
        raw = (form.get(f"call-{seat}") or "").strip()
        if raw == "" and pitched_top:
            raw = "pass"  # after a pitch of 4 the others can only pass: left empty, they did
        where = f"auction.{turn}"
        # A call left empty goes to the rules as None: they refuse it (missing_bid) with
        # every other problem of the hand.
        if raw == "pass":
            call: Any = "pass"
        else:
            not_whole = _("%(name)s's bid must be a whole number.", name=players[seat])
            call = _whole(raw, where, not_whole)
        auction.append([players[seat], call])
        pitched_top = pitched_top or call == TOP_BID
    return {"auction": auction}


def read_points(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    single = bool(form.get("single_trump"))
    pitcher = _seat(form, "pitcher_seat", players, _("The pitcher must be one of the players."))
    for key in ("high", "low"):
        entry[key] = _seat(form, key, players, NOT_A_PLAYER[key])
        if entry[key] is None and single and pitcher:
            entry[key] = pitcher
        if entry[key] is None:
            raise RuleError("required", str(NOT_CHOSEN[key]), key)
    jack = (form.get("jack") or "").strip()
    if single and form.get("lone_jack") and jack == "" and pitcher:
        entry["jack"] = pitcher  # the lone trump was the jack: High, Low and Jack
    else:
        entry["jack"] = (
            None if jack in ("", "none") else _seat(form, "jack", players, NOT_A_PLAYER["jack"])
        )
    points: dict[str, int] = {}
    for seat, name in enumerate(players):
        value = _whole(
            form.get(f"game_points-{seat}"),
            f"game_points.{name}",
            _("%(name)s's game points must be a whole number.", name=name),
        )
        if value is not None:
            points[name] = value
    game = (form.get("game") or "").strip()
    if game == "":
        if not points:
            raise RuleError("required", _("Choose who took Game, or Tie."), "game")
        entry["game"] = None
    else:
        entry["game"] = (
            None if game == "tie" else _seat(form, "game", players, NOT_A_PLAYER["game"])
        )
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


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the step the game waits for (its phase and fields), any the rules
    take: the server renders the forms of the steps after it from it, ahead, for a phone that
    plays offline (the phone writes what was really entered into them). It keeps the game
    going: everyone passes to the dealer, who bids 2; High and Low go to the first
    player of another side, the pitcher is set back (no side reaches the target as
    pitcher).
    None: nothing to enter."""
    seat = {name: index for index, name in enumerate(players)}
    current = state.current
    if current is not None:
        pitcher = current.info["pitcher"]
        order = current.info.get("order") or players
        side = state.side_of(pitcher)
        other = next((name for name in order if state.side_of(name) != side), pitcher)
        return "points", {
            "pitcher_seat": str(seat[pitcher]),
            "high": str(seat[other]),
            "low": str(seat[other]),
            "jack": "none",
            "game": "tie",
        }
    coming = state.next
    if not coming:
        return None
    order = coming.get("order") or players
    fields = {"order": ",".join(str(seat[name]) for name in order)}
    fields.update({f"call-{seat[name]}": "pass" for name in order})
    fields[f"call-{seat[order[-1]]}"] = str(DEALER_MIN_BID)
    return "auction", fields

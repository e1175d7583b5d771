"""Spades: bids (phase "bids", with the blind nil boxes), tricks ("tricks") or both ("both", a
correction). A blind nil box ticked (``blind-<seat>``) bids blind nil: the bid is 0."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.bidding import form as bidding
from scorekeeper.games.spades.rules import CARDS

#: The phase whose form completes a hand in progress: its tricks.
COMPLETING = frozenset({"tricks"})

#: A hidden field on the forms that show the blind nil boxes (so that none ticked means none).
BLIND_SHOWN = "blind_shown"


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    entry = bidding.read(form, players, phase)
    if phase in ("bids", "both") and form.get(BLIND_SHOWN):
        entry["blind_nil"] = [
            name for seat, name in enumerate(players) if form.get(f"blind-{seat}")
        ]
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    found = bidding.typed(form, players)
    found["blind"] = {name: bool(form.get(f"blind-{seat}")) for seat, name in enumerate(players)}
    return found


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the step the game waits for (its phase and fields), any the rules
    take: the server renders the forms of the steps after it from it, ahead, for a phone that
    plays offline (the phone writes what was really entered into them). It keeps the game
    going (no team reaches the target or is set out): bids of 3, the team behind adding 1;
    tricks as bid, but the team ahead one short (set) and the team behind one over.
    None: nothing to enter."""
    seat = {name: index for index, name in enumerate(players)}
    current = state.current
    if current is not None:
        return "tricks", {f"trick-{seat[name]}": str(count) for name, count in _tricks(
            state, current.input["bids"], current.info.get("order") or players
        ).items()}  # fmt: skip
    coming = state.next
    if not coming:
        return None
    order = coming.get("order") or players
    behind = _behind(state)
    fields = {f"bid-{seat[name]}": "3" for name in order}
    extra = next((name for name in order if state.side_of(name) == behind), order[0])
    fields[f"bid-{seat[extra]}"] = "4"
    return "bids", fields


def _behind(state: Any) -> str:
    """The team with the lower total (the first on a tie)."""
    return min(state.sides, key=lambda side: state.totals.get(side, 0))


def _tricks(state: Any, bids: dict[str, int], order: list[str]) -> dict[str, int]:
    """13 tricks: each bid taken (a nil none), the rest to the team behind; then one moved
    from the team ahead to the team behind."""
    tricks = dict.fromkeys(order, 0)
    left = CARDS
    for name in order:
        tricks[name] = min(bids.get(name, 0), left)
        left -= tricks[name]
    behind = _behind(state)
    ours = [name for name in order if state.side_of(name) == behind] or list(order)
    taker = next((name for name in ours if bids.get(name, 0) > 0), ours[0])
    tricks[taker] += left
    giver = next((name for name in order if name not in ours and tricks[name] > 0), None)
    if giver is not None:
        tricks[giver] -= 1
        tricks[taker] += 1
    return tricks

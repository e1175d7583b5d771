"""The night's story: who won each game, and the moments worth telling, computed from the
stored copies of the night's games (``hand_result``: each hand's points, running totals and
facts per seat), one query for all of them.

Every game has two highlights of its own: the best hand of the night (the most points in one
hand, in a game where the highest total wins) and the biggest comeback (the largest deficit a
winner overcame). Each game declares its other moments (``GameRules.highlights``); they are
read from its facts the same way for every game, and said in its own whole sentences.
"""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games.base import Highlight
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import names
from scorekeeper.i18n import number as written
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from scorekeeper.models import Night
from scorekeeper.services.nights import get_night

BEST_HAND = N_("%(name)s scored %(value)s in one hand of %(game)s, the best hand of the night.")
COMEBACK = N_("%(name)s came back from %(value)s behind to win %(game)s.")
WON = N_("%(names)s won %(game)s.")


@dataclass
class Moment:
    kind: str
    player: str
    game_id: int
    hand: int | None
    value: int
    sentence: str


@dataclass
class Recap:
    games: list[dict] = field(default_factory=list)
    highlights: list[Moment] = field(default_factory=list)

    @property
    def sentences(self) -> list[str]:
        """The story: who won what, then the highlights; a sentence true of several games
        (Ann won two games of Oh Hell) is said once, with how often: "... (×2)"."""
        won = [
            _(WON, names=names(game["winners"]), game=game["title"])
            for game in self.games
            if game["winners"]
        ]
        said = Counter(won + [moment.sentence for moment in self.highlights])
        return [
            line if times == 1 else f"{line} (×{written(times)})" for line, times in said.items()
        ]


def _side_seats(game: Game) -> list[list[int]]:
    if game.side_seats is not None:
        return game.side_seats
    count = len(game.players)
    teams = game.plugin.rules.team_seats(game.options, count)
    return teams if teams is not None else [[seat] for seat in range(count)]


def night_recap(account: Account, night_id: int) -> Recap:
    """The story of one night: its games' winners, then its highlights."""
    return story(get_night(account, night_id))


def story(night: Night) -> Recap:
    """The story of a night read already (its games loaded)."""
    games = [game for game in night.games if game.kind in GAMES]
    rows: dict[int, dict[str, dict[tuple[int, int], int]]] = {
        g.id: defaultdict(dict) for g in games
    }
    if games:
        found = db.session.execute(
            sa.select(
                HandResult.game_id,
                HandResult.number,
                HandResult.seat,
                HandResult.key,
                HandResult.value,
            ).where(  # fmt: skip
                HandResult.game_id.in_([game.id for game in games]), HandResult.number > 0
            )
        )
        for game_id, number, seat, key, value in found:
            rows[game_id][key][(number, seat)] = value
    recap = Recap()
    best: tuple[int, str, int, int, str] | None = None  # value, player, game, hand, title
    for game in games:
        title = str(game.plugin.title)
        recap.games.append(
            {"game_id": game.id, "game": game.kind, "title": title, "winners": game.winner_names}
        )
        members = game.members
        facts = rows[game.id]
        low = game.plugin.rules.low_wins(game.options)
        for (number, seat), value in sorted(facts.get("points", {}).items()):
            if low:  # the most points is the worst hand there
                break
            if best is None or value > best[0]:
                best = (value, members[seat], game.id, number, title)
        comeback = _comeback(game, facts.get("total", {}))
        if comeback is not None:
            recap.highlights.append(comeback)
        for highlight in game.plugin.rules.highlights:
            recap.highlights += _moments(game, highlight, facts, title)
    if best is not None and best[0] > 0:
        value, player, game_id, number, title = best
        sentence = _(BEST_HAND, name=player, value=value, game=title)
        recap.highlights.insert(0, Moment("best_hand", player, game_id, number, value, sentence))
    return recap


def _comeback(game: Game, totals: dict[tuple[int, int], int]) -> Moment | None:
    """The largest deficit a winner of ``game`` overcame (None: the winner always led)."""
    if game.status != "finished" or not game.winners or not totals:
        return None
    sides = _side_seats(game)
    sign = 1 if game.plugin.rules.low_wins(game.options) else -1
    by_hand: dict[int, dict[int, int]] = defaultdict(dict)
    for (number, seat), value in totals.items():
        by_hand[number][seat] = value
    found: Moment | None = None
    names_of = game.sides
    for winner in game.winners:
        seats = sides[winner]
        for number, at_hand in by_hand.items():
            mine = next((at_hand[seat] for seat in seats if seat in at_hand), None)
            others = [
                at_hand[side[0]]
                for index, side in enumerate(sides)
                if index != winner and side and side[0] in at_hand
            ]
            if mine is None or not others:
                continue
            leader = min(others, key=lambda total: sign * total)
            behind = (mine - leader) * sign
            if behind > 0 and (found is None or behind > found.value):
                found = Moment("comeback", names_of[winner], game.id, number, behind, "")
    if found is not None:
        found.sentence = _(COMEBACK, name=found.player, value=found.value, game=game.plugin.title)
    return found


def _moments(game: Game, highlight: Highlight, facts: dict, title: str) -> list[Moment]:
    """The moments of one declared highlight in one game."""
    happened = facts.get(highlight.fact, {})
    members = game.members
    found: list[Moment] = []

    def said(seat: int, hand: int | None, value: int) -> Moment:
        return Moment(
            highlight.kind,
            members[seat],
            game.id,
            hand,
            value,
            _(highlight.sentence, name=members[seat], game=title, hand=hand or 0, value=value),
        )

    if highlight.shape == "each":
        for (number, seat), value in sorted(happened.items()):
            if value:
                found.append(said(seat, number, value))
        return found
    played: dict[int, list[int]] = defaultdict(list)
    for number, seat in sorted(facts.get("points", {}), key=lambda key: key[0]):
        played[seat].append(number)
    for seat, hands in sorted(played.items()):
        if highlight.shape == "run":
            run = longest = 0
            end = None
            for number in hands:
                run = run + 1 if happened.get((number, seat)) else 0
                if run > longest:
                    longest, end = run, number
            if longest >= highlight.least:
                found.append(said(seat, end, longest))
        elif highlight.shape == "every" and game.status == "finished":
            chances = sum(facts.get(highlight.of or highlight.fact, {}).get((n, seat), 0)
                          for n in hands)  # fmt: skip
            made = sum(happened.get((n, seat), 0) for n in hands)
            if chances and made == chances:
                found.append(said(seat, None, made))
    return found

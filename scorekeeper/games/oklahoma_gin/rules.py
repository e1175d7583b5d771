"""Oklahoma Gin: two players, the upcard sets the knock limit, the round's winner deals next.

An entry is one round as the scorekeeper enters it::

    {"upcard": "7", "upcard_suit": "hearts" | None, "result": "knock" | "gin" | "draw",
     "knocker": "Ann", "knocker_deadwood": 4, "opponent_deadwood": 20}

``knocker`` and both deadwood counts are left out (or None) for a draw; ``knocker_deadwood``
may be left out for gin. A knock with no deadwood is recorded and scored as gin. Every round is
complete when entered (status "scored").

With ``hollywood`` three games are played on one sheet, one column each (see
``_Hollywood``): the state carries ``columns`` and each round's info the column numbers its
score went into.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import SUITS
from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Highlight
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_ngettext
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.words import ROUNDS

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RESULTS = ("knock", "gin", "draw")
#: Games (columns) on a Hollywood sheet, and how many of them a player must win.
HOLLYWOOD_GAMES = 3
HOLLYWOOD_WINS = 2
#: Ten unmatched cards count at most 98 (K, K, Q, Q, J, J, 10, 10, 9, 9 without melds).
MAX_DEADWOOD = 98
ENTRY_KEYS = (
    "upcard",
    "upcard_suit",
    "result",
    "knocker",
    "knocker_deadwood",
    "opponent_deadwood",
)
#: What the rules say of a deadwood count when the player is not known, by role.
DEADWOOD_MISSING = {
    "knocker": N_("Enter the knocker's deadwood."),
    "opponent": N_("Enter the opponent's deadwood."),
}
DEADWOOD_NOT_WHOLE = {
    "knocker": N_("The knocker's deadwood must be a whole number."),
    "opponent": N_("The opponent's deadwood must be a whole number."),
}
DEADWOOD_OUT_OF_RANGE = {
    "knocker": N_(
        "The knocker's deadwood must be from %(low)s to %(high)s.", low=0, high=MAX_DEADWOOD
    ),
    "opponent": N_(
        "The opponent's deadwood must be from %(low)s to %(high)s.", low=0, high=MAX_DEADWOOD
    ),
}


def _points(points: int) -> str:
    """A choice label: "100 points"."""
    return lazy_ngettext("%(num)s point", "%(num)s points", points)


def knock_limit(upcard: str) -> int:
    """The most deadwood a player may knock with when ``upcard`` starts the discard pile."""
    if upcard not in RANKS:
        raise ValueError(f"not a rank: {upcard!r}")
    if upcard == "A":
        return 1
    if upcard in ("10", "J", "Q", "K"):
        return 10
    return int(upcard)


class OklahomaGin(GameRules):
    key = "oklahoma_gin"
    title = lazy_pgettext("game title", "Oklahoma Gin")
    min_players = 2
    max_players = 2
    hand_words = ROUNDS
    name_fields = ("knocker",)
    head_to_head = True
    facts = (
        Fact("rounds_won", N_("Rounds won")),
        Fact("gins", N_("Gins")),
        Fact("undercuts", N_("Undercuts made")),
        Fact("undercut", N_("Undercut")),
    )
    highlights = (
        Highlight("gin", "gins", "each", N_("%(name)s went gin in round %(hand)s of %(game)s.")),
    )
    stats = (
        Stat(N_("Rounds won"), "rounds_won", out_of="hands"),
        Stat(N_("Gins"), "gins"),
        Stat(N_("Undercuts made"), "undercuts"),
        Stat(N_("Undercut as the knocker"), "undercut"),
    )

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        info, knocker = hand.info, hand.input.get("knocker")
        return [
            {
                "rounds_won": int(info["winner"] == name),
                "gins": int(info["result"] == "gin" and knocker == name),
                "undercuts": int(info["undercut"] and info["winner"] == name),
                "undercut": int(info["undercut"] and knocker == name),
            }
            # Seat by seat, the names of the players who played this round (a substitute).
            for name in hand.players or setup.players
        ]

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = [
            _("Upcard"),
            _("Knock limit"),
            _("Result"),
            _("Knocker"),
            _("Knocker deadwood"),
            _("Opponent deadwood"),
            _("Winner"),
        ]
        if setup.options.get("hollywood"):
            columns.append(_("Games"))
        return columns

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        entry, info = hand.input, hand.info
        result = "undercut" if info["result"] == "knock" and info["undercut"] else info["result"]
        cells = [entry["upcard"], info["knock_limit"], result, entry.get("knocker")] + [
            entry.get("knocker_deadwood"),
            entry.get("opponent_deadwood"),
            info["winner"],
        ]
        if setup.options.get("hollywood"):
            cells.append(" ".join(str(number) for number in info.get("columns", [])))
        return cells

    def bonus_word(self, kind: str) -> str:
        """The end-of-game lines (``_bonuses``) as the CSV names them."""
        words = {
            "game": lambda: _("Game bonus"),
            "box": lambda: _("Box bonus"),
            "shutout": lambda: _("Shutout (doubled)"),
        }
        return words[kind]() if kind in words else kind

    def bonus_phrase(self, line: Mapping[str, Any]) -> str:
        """An end-of-game line as the shared view says it."""
        said = {"name": line["player"], "points": line["points"]}
        sentences = {
            "game": lambda: _("%(name)s: game bonus %(points)s", **said),
            "box": lambda: _("%(name)s: box bonus %(points)s", **said),
            "shutout": lambda: _("%(name)s: shutout bonus %(points)s", **said),
        }
        if line["kind"] in sentences:
            return sentences[line["kind"]]()
        return super().bonus_phrase(line)

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                N_("Game to"),
                "int",
                100,
                choices=(50, 100, 150, 200, 250),
                minimum=50,
                maximum=1000,
                help=N_(
                    "The first player whose total reaches this score wins (in each game, "
                    "with Hollywood scoring)."
                ),
                choice_labels={points: _points(points) for points in (50, 100, 150, 200, 250)},
            ),
            Option(
                "gin_bonus",
                N_("Gin bonus"),
                "choice",
                25,
                choices=(20, 25),
                help=N_("Added to the opponent's deadwood when a player goes gin."),
                choice_labels={points: _points(points) for points in (20, 25)},
            ),
            Option(
                "undercut_bonus",
                N_("Undercut bonus"),
                "choice",
                10,
                choices=(10, 20, 25),
                help=N_("Added to the difference when the knocker is undercut."),
                choice_labels={points: _points(points) for points in (10, 20, 25)},
            ),
            Option(
                "spade_double",
                N_("Spades double"),
                "bool",
                False,
                help=N_(
                    "A spade upcard doubles every score of that round (enter the upcard's suit)."
                ),
            ),
            Option(
                "ace_requires_gin",
                N_("Ace needs gin"),
                "bool",
                False,
                help=N_("When an ace is turned up, only gin can end the round."),
            ),
            Option(
                "game_bonus",
                N_("Game bonus"),
                "choice",
                0,
                choices=(0, 100),
                help=N_("Added to the winner's total when the game ends."),
                choice_labels={0: N_("None"), 100: _points(100)},
            ),
            Option(
                "box_bonus",
                N_("Box bonus"),
                "choice",
                0,
                choices=(0, 20, 25),
                help=N_("Added at game end to each player for every round they won."),
                choice_labels={
                    0: N_("None"),
                    **{points: N_("%(points)s a round won", points=points) for points in (20, 25)},
                },
            ),
            Option(
                "shutout_double",
                N_("Shutout doubles"),
                "bool",
                False,
                help=N_("If the loser scored nothing, the winner's whole total is doubled."),
            ),
            Option(
                "hollywood",
                N_("Hollywood (three games at once)"),
                "bool",
                False,
                help=N_(
                    "Three games on one sheet: your first win counts in game %(first)s, the "
                    "second in games %(first)s and %(second)s, every later one in all three. "
                    "Each game ends, with its own bonuses, when someone reaches the target in "
                    "it; two games of three win.",
                    first=1,
                    second=2,
                ),
            ),
        ]

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        """How this game scores and plays, in plain sentences."""
        options = {**{spec.key: spec.default for spec in self.option_specs(2)}, **options}
        target = options["target"]
        hollywood = options["hollywood"]
        if hollywood:
            sentences = [
                _(
                    "Hollywood: three games on one sheet, each to %(target)s. A player's first "
                    "win counts in game %(first)s, the second in games %(first)s and %(second)s, "
                    "every later one in all three (games already over are skipped); two games "
                    "of three win.",
                    target=target,
                    first=1,
                    second=2,
                ),
            ]
        else:
            sentences = [_("Game to %(target)s: the first to reach it wins.", target=target)]
        sentences.append(
            _(
                "Knock with deadwood up to the upcard's value (%(ten)s for a %(ten)s or a face "
                "card, %(one)s for an ace).",
                ten=10,
                one=1,
            )
        )
        if options["ace_requires_gin"]:
            sentences.append(_("An ace upcard means only gin can end the round."))
        sentences.append(
            _(
                "Knock: the difference in deadwood. Gin: the opponent's deadwood + %(gin)s. "
                "Undercut: %(undercut)s + the difference.",
                gin=options["gin_bonus"],
                undercut=options["undercut_bonus"],
            )
        )
        if options["spade_double"]:
            sentences.append(_("A spade upcard doubles every score of the round."))
        game_bonus, box_bonus = options["game_bonus"], options["box_bonus"]
        if game_bonus and hollywood:
            sentences.append(
                _("The winner of each game scores %(points)s more.", points=game_bonus)
            )
        elif game_bonus:
            sentences.append(_("The winner of the game scores %(points)s more.", points=game_bonus))
        if box_bonus and hollywood:
            sentences.append(
                _(
                    "At the end of each game, every round won that counted in it scores "
                    "%(points)s more.",
                    points=box_bonus,
                )
            )
        elif box_bonus:
            sentences.append(
                _(
                    "At the end of the game, every round won scores %(points)s more.",
                    points=box_bonus,
                )
            )
        if options["shutout_double"] and hollywood:
            sentences.append(
                _("If the loser of each game scored nothing in it, the winner's total is doubled.")
            )
        elif options["shutout_double"]:
            sentences.append(
                _("If the loser of the game scored nothing, the winner's total is doubled.")
            )
        return sentences

    def page_context(self, setup: Setup) -> dict[str, Any]:
        # The options with their defaults (a game stored before an option existed).
        return {"rules_options": {**self.defaults(len(setup.players)), **setup.options}}

    def winner_line(self, state: State) -> str:
        """The rules' last notice of a finished game: who won and how."""
        return state.notices[-1]

    def page_notices(self, state: State) -> list[str]:
        """All but the last of a finished game (who won and how: the head's winner line)."""
        return list(state.notices[:-1] if state.finished else state.notices)

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """Rounds won and how far the player is from the target ("2 rounds won · 15 to go");
        with Hollywood scoring the games won and the distance in each game still open."""
        if options is None:
            return None
        target = {**self.defaults(2), **options}["target"]
        if state.columns is not None:
            won = sum(1 for column in state.columns if column["winner"] == side)
            note = ngettext("%(num)s game won", "%(num)s games won", won)
            if state.finished:
                return note
            open_games = [
                _(
                    "game %(number)s: %(short)s to go",
                    number=column["number"],
                    short=max(target - column["totals"][side], 0),
                )
                for column in state.columns
                if not column["closed"]
            ]
            return " · ".join([note, *open_games])
        rounds = sum(1 for hand in state.hands if hand.info.get("winner") == side)
        note = ngettext("%(num)s round won", "%(num)s rounds won", rounds)
        if state.finished:
            return note
        short = max(target - state.totals[side], 0)
        return _("%(rounds)s · %(short)s to go", rounds=note, short=short)

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        self.check_players(players, setup.options)
        # Options stored before an option existed get its default.
        defaults = {spec.key: spec.default for spec in self.option_specs(len(players))}
        options = {**defaults, **setup.options}
        return Tally(
            Setup(players, options, setup.first_dealer),
            players,
            hollywood=_Hollywood(players, options) if options["hollywood"] else None,
            dealer_seat=setup.first_dealer % len(players),
            rounds_won=dict.fromkeys(players, 0),
            closed_last=[],
        )

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        if tally.hollywood is not None:
            tally.hollywood.step(tally, number, entry)
            return
        players = tally.deal.players
        hand = _score_round(
            number, players[tally.dealer_seat], players, tally.options, entry, tally.deal.members
        )
        tally.hands.append(hand)
        add_points(tally.totals, hand.points)
        winner = hand.info["winner"]
        if winner is not None:
            tally.rounds_won[winner] += 1
            tally.dealer_seat = players.index(winner)
            if tally.totals[winner] >= tally.options["target"]:
                tally.finished = True
                tally.winners = [winner]

    def end(self, tally: Tally) -> State:
        if tally.hollywood is not None:
            return tally.hollywood.end(tally)
        players = tuple(tally.seated)
        hands = list(tally.hands)
        totals = dict(tally.totals)
        winners = list(tally.winners)
        notices: list[str] = []
        bonuses: list[dict[str, Any]] = []
        if tally.finished:
            bonuses = _bonuses(winners[0], players, totals, tally.rounds_won, tally.options)
            for line in bonuses:
                totals[line["player"]] += line["points"]
            notices.append(
                ngettext(
                    "%(name)s wins the game with %(num)s point.",
                    "%(name)s wins the game with %(num)s points.",
                    totals[winners[0]],
                    name=winners[0],
                )
            )
        elif hands and hands[-1].info["result"] == "draw":
            notices.append(_draw(hands[-1].number, players[tally.dealer_seat]))

        next_round = (
            None if tally.finished else _next_round(len(hands) + 1, tally.dealer_seat, players)
        )
        return State(
            sides=list(tally.sides),
            teams=None,
            hands=hands,
            totals=totals,
            finished=tally.finished,
            winners=winners,
            bonuses=bonuses,
            next=next_round,
            notices=notices,
        )

    # The table's changes: only a substitute (two players; no adjustment) ------------------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ("substitute",)

    def rename_side(self, tally: Tally, old: str, new: str) -> None:
        """The newcomer takes over the seat: its total, its deal (the round's winner deals,
        by seat), the rounds it won and, with Hollywood scoring, its columns."""
        super().rename_side(tally, old, new)
        tally.rounds_won = {
            (new if name == old else name): won for name, won in tally.rounds_won.items()
        }
        if tally.hollywood is not None:
            tally.hollywood.rename(old, new)


def _score_round(
    number: int,
    dealer: str,
    players: tuple[str, ...],
    options: Mapping[str, Any],
    entry: Mapping[str, Any],
    members: Sequence[str] = (),
) -> Hand:
    """Check one round and work out who scores what (``members``: everyone who has been at
    the table; one of them who no longer is, named as the knocker, is ``not_seated``)."""
    if not isinstance(entry, Mapping):
        raise RuleError("wrong_type", _("A round must be given as a set of named values."))
    # Every independent problem is reported at once; the knock limit waits for a valid
    # upcard and deadwood, the knocker's and opponent's deadwood for a result.
    problems = Problems()
    upcard = suit = result = None
    with problems.check():
        upcard = _upcard(entry.get("upcard"))
    with problems.check():
        suit = _suit(entry.get("upcard_suit"), options["spade_double"])
    with problems.check():
        result = _result(entry.get("result"))
    knocker = opponent = None
    knocker_deadwood = opponent_deadwood = None
    if result in ("knock", "gin"):
        with problems.check():
            knocker = _knocker(entry.get("knocker"), players, members)
        if knocker is not None:
            opponent = players[1 - players.index(knocker)]
        raw_knocker_deadwood = entry.get("knocker_deadwood")
        if raw_knocker_deadwood is None and result == "gin":
            raw_knocker_deadwood = 0
        with problems.check():
            knocker_deadwood = _deadwood(
                raw_knocker_deadwood, knocker, "knocker_deadwood", "knocker"
            )
        with problems.check():
            opponent_deadwood = _deadwood(
                entry.get("opponent_deadwood"), opponent, "opponent_deadwood", "opponent"
            )
        if upcard is not None and knocker_deadwood is not None:
            with problems.check():
                _check_knock(result, upcard, knocker, knocker_deadwood, options)
    problems.raise_any()
    assert upcard is not None and result is not None
    limit = knock_limit(upcard)
    points = {name: 0 for name in players}
    normalised: dict[str, Any] = {
        "upcard": upcard,
        "upcard_suit": suit,
        "result": result,
        "knocker": None,
        "knocker_deadwood": None,
        "opponent_deadwood": None,
    }
    info: dict[str, Any] = {
        "knock_limit": limit,
        "result": result,
        "winner": None,
        "undercut": False,
        "doubled": False,
        "upcard": upcard,
    }
    if result == "draw":
        # Whatever else a form sent along with a draw is not part of it.
        return Hand(number, dealer, "scored", normalised, points, info)
    assert knocker is not None and opponent is not None
    assert knocker_deadwood is not None and opponent_deadwood is not None

    if knocker_deadwood == 0:
        result = "gin"
    if result == "gin":
        winner = knocker
        score = opponent_deadwood + options["gin_bonus"]
    elif knocker_deadwood < opponent_deadwood:
        winner = knocker
        score = opponent_deadwood - knocker_deadwood
    else:
        winner = opponent
        score = options["undercut_bonus"] + knocker_deadwood - opponent_deadwood
        info["undercut"] = True
    doubled = bool(options["spade_double"]) and suit == "spades"
    if doubled:
        score *= 2
    points[winner] = score

    normalised.update(
        result=result,
        knocker=knocker,
        knocker_deadwood=knocker_deadwood,
        opponent_deadwood=opponent_deadwood,
    )
    info.update(result=result, winner=winner, doubled=doubled)
    return Hand(number, dealer, "scored", normalised, points, info)


def _check_knock(
    result: str, upcard: str, knocker: str | None, deadwood: int, options: Mapping[str, Any]
) -> None:
    """Refuse gin with deadwood, and a knock above the limit (or with an ace under
    ``ace_requires_gin``). A knock with no deadwood is gin. ``knocker`` is None when the
    knocker is not known (then the messages say "the knocker")."""
    if result == "gin" and deadwood > 0:
        if knocker:
            message = _(
                "Gin means no deadwood, but %(name)s has %(deadwood)s. Enter it as a knock "
                "instead.",
                name=knocker,
                deadwood=deadwood,
            )
        else:
            message = _(
                "Gin means no deadwood, but the knocker has %(deadwood)s. Enter it as a knock "
                "instead.",
                deadwood=deadwood,
            )
        raise RuleError("gin_with_deadwood", message, "knocker_deadwood")
    if result != "knock" or deadwood == 0:
        return
    if upcard == "A" and options["ace_requires_gin"]:
        raise RuleError(
            "knock_above_limit",
            _("An ace was turned up: only gin can end this round."),
            "knocker_deadwood",
        )
    limit = knock_limit(upcard)
    if deadwood > limit:
        if knocker:
            message = _(
                "Knock with %(limit)s or less: %(name)s has %(deadwood)s.",
                limit=limit,
                name=knocker,
                deadwood=deadwood,
            )
        else:
            message = _(
                "Knock with %(limit)s or less: the knocker has %(deadwood)s.",
                limit=limit,
                deadwood=deadwood,
            )
        raise RuleError("knock_above_limit", message, "knocker_deadwood")


def _upcard(value: Any) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RuleError("required", _("Enter the upcard that started the discard pile."), "upcard")
    if not isinstance(value, str):
        raise RuleError("wrong_type", _("The upcard must be a rank such as A, 7 or K."), "upcard")
    rank = value.strip().upper()
    if rank not in RANKS:
        raise RuleError(
            "upcard_invalid",
            _("“%(value)s” is not a card rank: the upcard is A, 2 to 10, J, Q or K.", value=value),
            "upcard",
        )
    return rank


def _suit(value: Any, required: bool) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise RuleError(
                "upcard_invalid",
                _("Spades double is on: enter the suit of the upcard."),
                "upcard_suit",
            )
        return None
    if not isinstance(value, str):
        raise RuleError(
            "wrong_type",
            _("The upcard's suit must be clubs, diamonds, hearts or spades."),
            "upcard_suit",
        )
    suit = value.strip().lower()
    if suit not in SUITS:
        raise RuleError(
            "upcard_invalid",
            _("“%(value)s” is not a suit: choose clubs, diamonds, hearts or spades.", value=value),
            "upcard_suit",
        )
    return suit


def _result(value: Any) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RuleError("required", _("Enter how the round ended: knock, gin or draw."), "result")
    if not isinstance(value, str) or value.strip().lower() not in RESULTS:
        raise RuleError(
            "wrong_type",
            _("“%(value)s” is not a result: enter knock, gin or draw.", value=value),
            "result",
        )
    return value.strip().lower()


def _knocker(value: Any, players: tuple[str, ...], members: Sequence[str]) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RuleError("required", _("Enter who ended the round."), "knocker")
    if not isinstance(value, str):
        raise RuleError("wrong_type", _("The knocker must be given by name."), "knocker")
    if value in members and value not in players:
        raise RuleError(
            "not_seated", _("%(name)s is not dealt into this round.", name=value), "knocker"
        )
    if value not in players:
        raise RuleError(
            "unknown_player", _("%(name)s is not playing in this game.", name=value), "knocker"
        )
    return value


def _deadwood(value: Any, player: str | None, where: str, role: str) -> int:
    """A deadwood count; ``player`` is None when the knocker is not known (then the
    messages name the ``role``)."""
    if value is None:
        if player:
            raise RuleError("required", _("Enter %(name)s's deadwood.", name=player), where)
        raise RuleError("required", str(DEADWOOD_MISSING[role]), where)
    if isinstance(value, bool) or not isinstance(value, int):
        if player:
            message = _("%(name)s's deadwood must be a whole number.", name=player)
        else:
            message = str(DEADWOOD_NOT_WHOLE[role])
        raise RuleError("wrong_type", message, where)
    if not 0 <= value <= MAX_DEADWOOD:
        if player:
            message = _(
                "%(name)s's deadwood must be from %(low)s to %(high)s.",
                name=player,
                low=0,
                high=MAX_DEADWOOD,
            )
        else:
            message = str(DEADWOOD_OUT_OF_RANGE[role])
        raise RuleError("deadwood_invalid", message, where)
    return value


def _bonuses(
    winner: str,
    players: tuple[str, ...],
    totals: Mapping[str, int],
    rounds_won: Mapping[str, int],
    options: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """End-of-game lines: game bonus, then box bonuses, then the shutout doubling."""
    lines: list[dict[str, Any]] = []
    if options["game_bonus"]:
        lines.append({"player": winner, "kind": "game", "points": options["game_bonus"]})
    for name in players:
        box = options["box_bonus"] * rounds_won[name]
        if box:
            lines.append({"player": name, "kind": "box", "points": box})
    loser = next(name for name in players if name != winner)
    if options["shutout_double"] and totals[loser] == 0:
        before = totals[winner] + sum(line["points"] for line in lines if line["player"] == winner)
        lines.append({"player": winner, "kind": "shutout", "points": before})
    return lines


class _Hollywood:
    """Hollywood scoring: three games (columns) on one sheet, RULES.md "hollywood".

    Each round a player wins first opens, for that player, the first column they have not
    opened that is still open; then the round's score goes into every column that player has
    opened and that is still open. A column closes at the end of the round in which the
    player's total in it reaches the target: that player wins it and its bonuses are worked
    out for it alone (game, box for the rounds that counted in it, shutout). The game ends
    when all three are closed; two columns won win it; totals add up the three columns.
    """

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = options
        self.columns: list[dict[str, Any]] = [
            {
                "number": number,
                "totals": {name: 0 for name in players},
                "closed": False,
                "winner": None,
                "bonuses": [],
            }
            for number in range(1, HOLLYWOOD_GAMES + 1)
        ]
        self.opened: dict[str, list[int]] = {name: [] for name in players}
        #: Per column, the rounds each player won that counted in it (for the box bonus).
        self.rounds_won = [{name: 0 for name in players} for _ in self.columns]

    def totals(self) -> dict[str, int]:
        return {
            name: sum(column["totals"][name] for column in self.columns) for name in self.players
        }

    def finished(self) -> bool:
        return all(column["closed"] for column in self.columns)

    def record(self, winner: str, score: int) -> tuple[list[int], list[dict[str, Any]]]:
        """Count one won round: the columns its score went into, and those it closed."""
        target = self.options["target"]
        fresh = next(
            (
                column
                for column in self.columns
                if not column["closed"] and column["number"] not in self.opened[winner]
            ),
            None,
        )
        if fresh is not None:
            self.opened[winner].append(fresh["number"])
        counted: list[int] = []
        closed: list[dict[str, Any]] = []
        for index, column in enumerate(self.columns):
            if column["closed"] or column["number"] not in self.opened[winner]:
                continue
            column["totals"][winner] += score
            self.rounds_won[index][winner] += 1
            counted.append(column["number"])
            if column["totals"][winner] >= target:
                self.close(index, winner)
                closed.append(column)
        return counted, closed

    def close(self, index: int, winner: str) -> None:
        column = self.columns[index]
        lines = _bonuses(
            winner, self.players, column["totals"], self.rounds_won[index], self.options
        )
        for line in lines:
            column["totals"][line["player"]] += line["points"]
        column.update(closed=True, winner=winner, bonuses=lines)

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any]) -> None:
        """Fold one round in (``tally``: the game's, whose dealer, hands and running totals
        per round this keeps)."""
        players = self.players
        hand = _score_round(
            number, players[tally.dealer_seat], players, self.options, entry, tally.deal.members
        )
        # Accepted: nothing above changed the columns.
        winner = hand.info["winner"]
        counted: list[int] = []
        tally.closed_last = []
        if winner is not None:
            tally.dealer_seat = players.index(winner)
            counted, tally.closed_last = self.record(winner, hand.points[winner])
        hand.info["columns"] = counted
        tally.hands.append(hand)
        # A round's running totals are the sums over the columns (bonuses of the columns it
        # closed included); its points are the round's score once.
        tally.totals = self.totals()
        tally.finished = self.finished()

    def rename(self, old: str, new: str) -> None:
        """A substitute: the seat's columns, opened columns, rounds won and games won go to
        ``new``."""

        def renamed(counts: dict[str, Any]) -> dict[str, Any]:
            return {(new if name == old else name): value for name, value in counts.items()}

        self.players = tuple(new if name == old else name for name in self.players)
        self.opened = renamed(self.opened)
        self.rounds_won = [renamed(counts) for counts in self.rounds_won]
        for column in self.columns:
            column["totals"] = renamed(column["totals"])
            if column["winner"] == old:
                column["winner"] = new
            for line in column["bonuses"]:
                if line["player"] == old:
                    line["player"] = new

    def end(self, tally: Tally) -> State:
        players = self.players
        hands = list(tally.hands)
        finished = self.finished()
        winners: list[str] = []
        notices = [
            ngettext(
                "%(name)s wins game %(game)s with %(num)s point.",
                "%(name)s wins game %(game)s with %(num)s points.",
                column["totals"][column["winner"]],
                name=column["winner"],
                game=column["number"],
            )
            for column in tally.closed_last
        ]
        totals = self.totals()
        if finished:
            won = {name: 0 for name in players}
            for column in self.columns:
                won[column["winner"]] += 1
            winners = [name for name in players if won[name] >= HOLLYWOOD_WINS]
            notices.append(
                ngettext(
                    "%(name)s wins %(won)s of the %(games)s games, with %(num)s point in all.",
                    "%(name)s wins %(won)s of the %(games)s games, with %(num)s points in all.",
                    totals[winners[0]],
                    name=winners[0],
                    won=won[winners[0]],
                    games=HOLLYWOOD_GAMES,
                )
            )
        elif hands and hands[-1].info["result"] == "draw":
            notices.append(_draw(hands[-1].number, players[tally.dealer_seat]))
        state = State(
            sides=list(players),
            teams=None,
            hands=hands,
            totals=totals,
            finished=finished,
            winners=winners,
            next=None if finished else _next_round(len(hands) + 1, tally.dealer_seat, players),
            notices=notices,
            # A copy: later rounds folded into the tally change the columns it keeps.
            columns=copy.deepcopy(self.columns),
        )
        return state


def _draw(number: int, dealer: str) -> str:
    """The notice after a drawn round."""
    return _("Round %(number)s was a draw: %(name)s deals again.", number=number, name=dealer)


def _next_round(number: int, dealer_seat: int, players: tuple[str, ...]) -> dict[str, Any]:
    return {
        "number": number,
        "dealer": players[dealer_seat],
        "order": order_from_left_of(dealer_seat, players),
        "knock_limit": None,  # set by the upcard, once the round is dealt
    }


RULES = OklahomaGin()

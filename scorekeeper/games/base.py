"""Shared types for the rules of every game.

Pure Python: no Flask, no database. A game module takes the setup (players in seat order,
options, first dealer) and every hand as it was entered, validates each one, and derives all
the rest: dealer, bidding order, points, totals, winners and what the next hand needs.

Contract for a game module (see ``GameRules``):
- ``option_specs(player_count)`` lists the options with defaults and allowed values.
- ``check_players(players, options)`` refuses a wrong table (count, partnerships).
- ``check_setup(players, raw_options)`` does both at once, reporting every problem together.
- ``begin(setup)``, ``step(tally, number, entry, last)`` and ``end(tally)`` fold the
  entered hands in one at a time: ``play(setup, entries)`` replays every entered hand in order
  and returns a ``State``, ``replay`` does the same for a changed record and, when the changed
  entry is refused, also derives the record as it stands in the same pass. An entry the rules
  refuse raises ``RuleError`` naming the hand it concerns.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import NamedTuple

from scorekeeper.games.errors import Problems
from scorekeeper.games.errors import RuleError
from scorekeeper.games.errors import RuleErrors  # noqa: F401 - the rules import it from here
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import pgettext
from scorekeeper.games.table import Change
from scorekeeper.games.table import Deal
from scorekeeper.games.table import Place
from scorekeeper.games.table import Seating
from scorekeeper.games.table import check_change
from scorekeeper.games.table import check_counts
from scorekeeper.games.table import starting_total
from scorekeeper.games.text import normalize_line
from scorekeeper.games.words import HANDS
from scorekeeper.games.words import HandWords
from scorekeeper.games.words import sentence_names

SUITS = ("clubs", "diamonds", "hearts", "spades")
#: One entry of a game's record: a hand as entered, or a change of the table between hands.
Entry = Mapping[str, Any] | Change


def suit_word(suit: str | None) -> str | None:
    """A trump suit as a score sheet (CSV) writes it, in the reader's language ("none": no
    trump)."""
    words = {
        "clubs": lambda: pgettext("suit", "Clubs"),
        "diamonds": lambda: pgettext("suit", "Diamonds"),
        "hearts": lambda: pgettext("suit", "Hearts"),
        "spades": lambda: pgettext("suit", "Spades"),
        "none": lambda: _("No trump"),
    }
    return words[suit]() if suit in words else suit


@dataclass(frozen=True)
class Option:
    """One variant a game may be created with.

    ``kind`` is "bool", "choice" (value must be one of ``choices``), "int" (whole number
    from ``minimum`` to ``maximum``; ``choices`` may list the suggested values), "text" (a
    string, trimmed, ``minimum`` to ``maximum`` characters long; a ``None`` default makes it
    required) or "list" (a list of whole numbers, each from ``minimum`` to ``maximum``;
    ``None`` when not given).
    """

    key: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    #: The help the new-game form shows, where the table is not chosen yet (``help`` when
    #: empty): for a help that depends on the player count.
    form_help: str = ""
    #: How each choice reads on the new-game form ({value: words}); the value itself if absent.
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    #: An "int" set on the new-game form with − and + buttons beside its field (always
    #: filled in, with its default at first).
    stepper: bool = False


class Preset(NamedTuple):
    """A named set of option values the new-game page can fill in with one tap (they stay
    editable). ``options`` names only the options the preset decides."""

    key: str
    label: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Fact:
    """A per-hand, per-seat figure a game counts for its statistics (``Bids made``).

    ``GameRules.hand_facts`` gives each seat's value for one scored hand (1 when it happened,
    or a count); the statistics add them up over every hand a player played.
    """

    key: str
    label: str


@dataclass(frozen=True)
class Highlight:
    """A moment of a game worth telling in the night's story (``services/recap.py``), read from
    one of the game's facts (``Fact``) of each seat and hand:

    - ``each``: every hand in which the fact happened ("Ann did it in hand 5");
    - ``run``: the longest run of hands in a row with it, when ``least`` or more ("Ann made
      5 bids in a row");
    - ``every``: a finished game in which it happened in every hand the seat counted in ``of``
      ("Ann made every bid of Oh Hell").

    ``sentence`` is the whole sentence, with ``%(name)s``, ``%(game)s`` and ``%(hand)s`` or
    ``%(value)s``; ``kind`` is its stable code in the API."""

    kind: str
    fact: str
    shape: str
    sentence: str
    of: str | None = None
    least: int = 3


@dataclass(frozen=True)
class Stat:
    """A line of a player's statistics for one game, built from summed figures.

    ``count`` and ``out_of`` name a fact's key, or one of the figures every game has:
    ``hands`` (scored hands), ``points`` (points scored in them), ``played`` and ``won``
    (finished games). With ``out_of`` the line reads "9 of 11 (82%)"; with ``per`` it is an
    average ("2.4 per game").
    """

    label: str
    count: str
    out_of: str | None = None
    per: str | None = None


@dataclass(frozen=True)
class SeatEntry:
    """What a player's own phone enters for the hand being entered (RULES.md, "Every game:
    each player on their own phone"): one value per player, kept in the hand's entry under
    ``key`` (``{name: value}``) and sent by the phone as ``field`` (``{"bid": 3}``).

    ``in_turn``: one player after another, in the hand's order (``next["order"]``).
    ``secret``: a value is hidden from every other reader until every player's is in.
    ``opens``: the last value records the hand (its bids); otherwise the scorekeeper saves it.
    ``incomplete``: the rules' codes for a set still missing values (not a problem until
    the last value is in).
    ``marks``: the entry's lists of names a seat may put itself on beside its value, sent as
    ``{"<mark>": true}`` beside the value (``{"bid": 0, "<mark>": true}``); the rules check
    the marked entry like any other.
    ``turns``: the entry holds the values as a list of turns in the hand's order, ``[[name,
    value], ...]``, not a map; a seat still to enter holds None there (its code is one of
    ``incomplete``). Every value is entered in turn, the scorekeeper's too; a value changed
    by the scorekeeper drops the turns after it (they were made after it).
    ``choices``: every value a seat may ever send, in the order its pad shows them (empty:
    a whole number); which of them the seat whose turn it is may send now is
    ``GameRules.seat_choices``. A seat left with a single choice has it entered for it.
    ``words``: the values that are words, not numbers, each with what a person reads for it
    (``(word, label)``); a seat sends the word.
    """

    key: str
    field: str
    in_turn: bool = False
    secret: bool = False
    opens: bool = True
    incomplete: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    turns: bool = False
    choices: tuple[Any, ...] = ()
    words: tuple[tuple[str, Any], ...] = ()

    def word(self, value: Any) -> str | None:
        """``value`` as one of the entry's words (spaces and capitals aside), or None."""
        if not isinstance(value, str):
            return None
        said = value.strip().lower()
        return next((word for word, _label in self.words if word == said), None)

    def label(self, value: Any) -> Any:
        """What a person reads for one of the entry's words (None for a number)."""
        return next((label for word, label in self.words if word == value), None)


@dataclass(frozen=True)
class Setup:
    """What a game is created with. ``options`` holds every option's effective value."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    first_dealer: int = 0


@dataclass
class Hand:
    """One hand (round) as derived by the rules.

    ``status`` is "bidding", "playing" or "scored". ``points`` are keyed by side (player,
    or team name in partnerships) and are ``None`` until the hand is scored. ``info`` holds what
    the rules derived for this game (the cards dealt, who won the auction ...: each game's
    ``schema.Info`` lists its keys).
    """

    number: int
    dealer: str
    status: str
    input: dict[str, Any]
    points: dict[str, int] | None
    info: dict[str, Any] = field(default_factory=dict)
    #: Each side's running total after this hand (set by ``State``; None until scored).
    totals: dict[str, int] | None = None
    #: Who was dealt into this hand, in seat order (set by the fold).
    players: tuple[str, ...] | None = None


@dataclass
class State:
    """Everything derived from the setup and the entered hands."""

    sides: list[str]
    teams: list[list[str]] | None
    hands: list[Hand]
    totals: dict[str, int]
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    bonuses: list[dict[str, Any]] = field(default_factory=list)
    next: dict[str, Any] | None = None
    notices: list[str] = field(default_factory=list)
    #: Whether the lowest total leads (Hearts); the highest otherwise.
    low_wins: bool = False
    #: Games played as several games on one sheet (Oklahoma Gin's Hollywood scoring): one dict
    #: per game column, ``{"number", "totals", "closed", "winner", "bonuses"}``; None otherwise.
    columns: list[dict[str, Any]] | None = None
    #: The players seated now, in seat order (joiners where they sit); who left the game;
    #: the table's changes in order with the hands (set by the fold; see ``table``).
    players: list[str] | None = None
    left: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Each scored hand carries the running totals after it (one place for the sheet,
        the chart, the CSV and the statistics): kept by the fold as it goes (starting totals
        and adjustments included), or summed here from the hands' points."""
        if all(hand.totals is not None for hand in self.hands if hand.points is not None):
            return
        running = dict.fromkeys(self.sides, 0)
        for hand in self.hands:
            if hand.points is None:
                continue
            for side, value in hand.points.items():
                running[side] += value
            hand.totals = dict(running)

    @property
    def current(self) -> Hand | None:
        """The hand in progress (entered but not scored), if any."""
        if self.hands and self.hands[-1].status != "scored":
            return self.hands[-1]
        return None

    def side_of(self, name: str) -> str:
        """The side ``name`` scores for now: its team's name, or its own when alone."""
        for side, team in zip(self.sides, self.teams or [], strict=False):
            if name in team:
                return side
        return name

    def ranked(self) -> list[tuple[str, int]]:
        """Sides with their totals, the leader first (seat order among equals): the standings'
        order, on the server's pages and on a phone playing offline (``portable.standings``)."""
        sign = 1 if self.low_wins else -1
        return sorted(((side, self.totals[side]) for side in self.sides), key=lambda p: sign * p[1])

    def last_points(self) -> dict[str, int]:
        """How each side's total changed with the latest scored hand (its points; in a game
        played as several games on one sheet a round's score counts in several of them, so the
        change of the running totals it carries)."""
        scored = [hand for hand in self.hands if hand.points is not None]
        if not scored:
            return {}
        latest = scored[-1]
        if latest.totals is None:
            return dict(latest.points)
        before = scored[-2].totals if len(scored) > 1 and scored[-2].totals else {}
        return {side: total - before.get(side, 0) for side, total in latest.totals.items()}

    def leaders(self) -> list[str]:
        """Sides still at the table with the best total (several on a tie; none before any
        score): a player who left cannot win."""
        if not self.hands:
            return []
        at_table = [side for side in self.sides if side not in self.left]
        best = (min if self.low_wins else max)(self.totals[side] for side in at_table)
        return [side for side in at_table if self.totals[side] == best]


class Tally:
    """A game's record folded in so far (``GameRules.begin``, ``step``, ``end``): the setup
    with every option's value, the hands derived so far, each side's total, and whether the
    game is over. A game keeps whatever else it counts as attributes of its own (the cards
    of each hand, the dealer's seat, whatever carries from one hand to the next).
    """

    def __init__(self, setup: Setup, sides: Sequence[str], **counts: Any) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.options: Mapping[str, Any] = setup.options
        self.sides = list(sides)
        self.hands: list[Hand] = []
        self.totals: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.finished = False
        self.winners: list[str] = []
        #: The circle of places and who is dealt in (``table.Seating``); the deal of the hand
        #: being folded (or last folded); the table's changes so far, as the state shows them.
        self.seating = Seating(self.players, setup.first_dealer)
        self.deal: Deal | None = None
        self.changes: list[dict[str, Any]] = []
        self.__dict__.update(counts)

    @property
    def seated(self) -> list[str]:
        """The players at the table now, in seat order."""
        return self.seating.seated

    @property
    def open_hand(self) -> Hand | None:
        """The last hand, while it is not scored yet."""
        if self.hands and self.hands[-1].status != "scored":
            return self.hands[-1]
        return None

    def next_deal(self) -> Deal:
        """The deal of the hand to enter next: the open hand's, or the next one's."""
        if self.open_hand is not None and self.deal is not None:
            return self.deal
        return self.seating.deal(len(self.hands) + 1, self.options)

    def copy(self) -> Tally:
        """A tally to fold on that shares nothing mutable with this one, whatever the length
        of the record: the hands already folded are shared (a fold never changes a hand once
        it is in ``hands``), everything else is copied (the seating, the totals, what the
        game counts from hand to hand). The setup and options are shared (never changed)."""
        memo: dict[int, Any] = {id(hand): hand for hand in self.hands}
        memo[id(self.hands)] = list(self.hands)
        memo[id(self.setup)] = self.setup
        memo[id(self.options)] = self.options
        return copy.deepcopy(self, memo)


class GameRules:
    """The small common interface every game module implements."""

    key: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 7
    #: The shared pages' sentences about one deal ("Undo hand 3"): ``words.HANDS``, or
    #: ``words.ROUNDS`` (or a ``HandWords`` of the game's own) for a game whose deals are not
    #: called hands.
    hand_words: HandWords = HANDS
    #: Entry keys whose value is a player's name, keys whose value maps names to numbers and
    #: keys whose value is a list of names: what is stored is keyed by seat instead.
    name_fields: tuple[str, ...] = ()
    name_maps: tuple[str, ...] = ()
    name_lists: tuple[str, ...] = ()
    #: What the game counts per hand and seat, and the statistics built from it.
    facts: tuple[Fact, ...] = ()
    stats: tuple[Stat, ...] = ()
    #: The moments of a game the night's story tells (besides the best hand and a comeback).
    highlights: tuple[Highlight, ...] = ()
    #: Show each player's record against each opponent (two-player games).
    head_to_head: bool = False
    #: Whether the game can be played in partnerships (see ``team_seats``).
    plays_in_teams: bool = False
    #: Ratings (services/ratings.py): whether a game counts towards the rating over every card
    #: game, and whether each variant is rated on its own (a score pad: each game's name).
    rated_together: bool = True
    rated_by_variant: bool = False
    #: Named sets of option values offered on the new-game page, in the order shown.
    presets: Sequence[Preset] = ()
    #: The options ``worked_example`` depends on (the new-game page shows the example after
    #: the last of them and says it again when one changes).
    example_options: tuple[str, ...] = ()
    #: Every mark a seat's phone of this game may send under some options (``SeatEntry.marks``;
    #: the API document lists them).
    seat_marks: tuple[str, ...] = ()
    #: Every word a seat's phone of this game may send instead of a number under some options
    #: (``SeatEntry.words``; the API document lists them).
    seat_words: tuple[str, ...] = ()

    def option_specs(self, player_count: int) -> list[Option]:
        raise NotImplementedError

    def seat_entry(self, options: Mapping[str, Any]) -> SeatEntry | None:
        """What each player's own phone may enter under ``options``; None: the scorekeeper
        enters the whole hand (the players' phones follow the game)."""
        return None

    def seat_choices(
        self,
        options: Mapping[str, Any],
        upcoming: Mapping[str, Any],
        entered: Sequence[tuple[str, Any]],
    ) -> list[Any] | None:
        """Which of ``SeatEntry.choices`` the seat whose turn it is may send now, given the hand
        to enter (``State.next``) and the values entered so far in the hand's order; None:
        any whole number (the rules refuse what they refuse)."""
        return None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for old in ("hand_word", "first_to_act"):
            if old in vars(cls):
                raise TypeError(
                    f"{cls.__name__}.{old}: a game declares its words as whole sentences "
                    "(hand_words = words.ROUNDS or a HandWords of its own; who acts first is "
                    "said by its templates/_upcoming.html)"
                )

    @property
    def hand_word(self) -> str:
        """The game's word for one deal ("Hand", "Round"), in the reader's language."""
        return self.hand_words.word()

    def phrase(self, key: str, **params: Any) -> str:
        """A sentence of the shared pages about this game's deals (a ``HandWords`` method), in
        the reader's language: ``rules.phrase("undo", number=3)`` is "Undo round 3" in a game
        whose ``hand_words`` are ``ROUNDS``."""
        if key.startswith("_") or key not in sentence_names():
            raise KeyError(f"no sentence called {key!r}")
        return getattr(self.hand_words, key)(**params)

    def bonus_word(self, kind: str) -> str:
        """How an end-of-game line of ``kind`` (``State.bonuses``) is called on a score sheet
        and in the CSV; a game whose state has such lines names each kind."""
        return kind

    def bonus_phrase(self, line: Mapping[str, Any]) -> str:
        """An end-of-game line (``{"player", "kind", "points"}``) as a sentence of the shared
        view; a game whose state has such lines says each kind as a whole sentence."""
        return _(
            "%(name)s: %(bonus)s %(points)s",
            name=line["player"],
            bonus=self.bonus_word(line["kind"]),
            points=line["points"],
        )

    def resolve_options(self, raw: Mapping[str, Any] | None, player_count: int) -> dict[str, Any]:
        """Every option with its effective value; refuses unknown keys and bad values."""
        return resolve_options(self.option_specs(player_count), raw or {})

    def defaults(self, player_count: int) -> dict[str, Any]:
        """Every option at its default."""
        return {spec.key: spec.default for spec in self.option_specs(player_count)}

    def low_wins(self, options: Mapping[str, Any]) -> bool:
        """Whether the lowest total wins (Hearts); the highest otherwise."""
        return False

    def variant_of(self, options: Mapping[str, Any]) -> str:
        """Which rule set ``options`` amount to, so statistics can compare like with like
        (a preset's key, a score pad's game name); "" for a game without variants."""
        return ""

    def check_players(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        """Refuse a table the game cannot be played with."""
        check_player_count(players, self.min_players, self.max_players)

    def check_setup(
        self, players: Sequence[str], raw_options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """The resolved options of a new game, after checking the table and the options
        together: every problem of both (``player_count`` and ``option_value``, say) is
        reported at once in one ``RuleErrors``."""
        problems = Problems()
        resolved: dict[str, Any] | None = None
        if raw_options is not None and not isinstance(raw_options, Mapping):
            problems.add(
                RuleError("wrong_type", _("Options must be an object of option values."), "options")
            )
            raw_options = None
        with problems.check():
            resolved = self.resolve_options(raw_options, len(players))
        with problems.check():
            self.check_players(players, resolved or self._usable_options(raw_options, players))
        problems.raise_any()
        assert resolved is not None
        return resolved

    def _usable_options(
        self, raw: Mapping[str, Any] | None, players: Sequence[str]
    ) -> dict[str, Any]:
        """Defaults, with every raw value that is valid on its own (to check the table by
        when the options as a whole are refused)."""
        usable: dict[str, Any] = {}
        for spec in self.option_specs(len(players)):
            usable[spec.key] = spec.default
            value = (raw or {}).get(spec.key)
            if value is None:
                continue
            with suppress(RuleError):
                usable[spec.key] = check_option_value(spec, value)
        return usable

    def game_title(self, options: Mapping[str, Any]) -> str:
        """How one game of this kind is named in lists and on its page ("Catan (score pad)"
        for a score pad); the game's title unless it names its games itself."""
        return self.title

    def variant_label(self, variant: str) -> str:
        """How a variant (``variant_of``) reads in a leaderboard's filter."""
        for preset in self.presets:
            if preset.key == variant:
                return preset.label
        if variant == "custom":
            return _("House rules")
        return variant or _("Standard")

    def preset_of(self, options: Mapping[str, Any]) -> str | None:
        """The key of the preset whose values ``options`` all have (options left out count
        as their defaults), or None when they match no preset."""
        defaults = {spec.key: spec.default for spec in self.option_specs(self.min_players)}
        for preset in self.presets:
            if all(
                _same_value(options.get(key, defaults.get(key)), value)
                for key, value in preset.options.items()
            ):
                return preset.key
        return None

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        """Plain sentences saying how this game is scored and played with ``options`` (the
        rules card of a game page)."""
        return []

    def worked_example(self, options: Mapping[str, Any]) -> str | None:
        """A few hands scored with ``options`` (valid values of ``example_options``), in the
        reader's words, for the new-game page; None for a game without one."""
        return None

    def schedule(self, setup: Setup) -> list[int] | None:
        """The cards dealt in every hand, in order, for a game played to a fixed schedule."""
        return None

    def reminders(self, options: Mapping[str, Any]) -> list[str]:
        """How a trick is played, shown while a hand is played (trick-taking games)."""
        return []

    def winner_line(self, state: State) -> str:
        """What the game-over page says of who won ("Ann wins!"), for a finished game."""
        if len(state.winners) != 1:
            return _("%(names)s share the win!", names=names(state.winners))
        if state.teams:
            return _("%(team)s win!", team=state.winners[0])
        return _("%(name)s wins!", name=state.winners[0])

    def page_notices(self, state: State) -> list[str]:
        """The notices the game's page shows in its notices box (outside the entry's own
        parts): the rules' notices unless the game shows some of them elsewhere, or none."""
        return list(state.notices)

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """A few words beside a side's total in the standings ("made 9 of 11", "3 to go");
        ``options``: the game's options, when the note depends on them (a target)."""
        return None

    # Folding the record: begin, one step per entry, end ------------------------------------

    def begin(self, setup: Setup) -> Tally:
        """The tally of a game before its first hand (the table and options checked)."""
        raise NotImplementedError

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        """Fold hand ``number`` into ``tally``, or refuse it (``RuleError``) before changing
        anything. ``last``: no later entry follows (the last hand may be unfinished)."""
        raise NotImplementedError

    def end(self, tally: Tally) -> State:
        """The state the tally amounts to: totals, winners, the next hand's reminder and the
        notices. Changes nothing in the tally (it can be folded on afterwards)."""
        raise NotImplementedError

    def play(self, setup: Setup, entries: Sequence[Entry]) -> State:
        """Replay every entry of the record in order (hands, and the table's changes between
        them) and derive the state of the game."""
        tally = self.begin(setup)
        last = _last_hand(entries)
        for index, entry in enumerate(entries):
            self._fold(tally, entry, last=index == last)
        return self._state(tally)

    def fold(self, setup: Setup, entries: Sequence[Entry]) -> tuple[Tally, Tally | None]:
        """``play`` without the ``end``: the tally of the whole record, and a copy of the
        tally before its last entry (None for an empty record). What a server keeps to go on
        from (``fold_on``: the next hand, or the last one completed or corrected again) and
        what an undo of the last entry goes back to, without replaying the record."""
        tally = self.begin(setup)
        last = _last_hand(entries)
        before = None
        for index, entry in enumerate(entries):
            if index == len(entries) - 1:
                before = tally.copy()
            self._fold(tally, entry, last=index == last)
        return tally, before

    def fold_on(self, tally: Tally, entry: Entry) -> Tally:
        """A copy of ``tally`` with ``entry`` (a hand or a change) folded in as the last entry
        of the record; ``tally`` itself is not changed. The same as ``fold`` of the record
        with ``entry`` added, provided no unfinished hand is in ``tally`` (an unfinished hand
        may only be the last: ``fold`` of the whole record refuses it). ``RuleError`` when the
        rules refuse ``entry``."""
        folded = tally.copy()
        self._fold(folded, entry, last=not isinstance(entry, Change))
        return folded

    def state_of(self, tally: Tally) -> State:
        """The state of a folded tally (``fold``, ``fold_on``); changes nothing in it."""
        return self._state(tally)

    def replay(
        self,
        setup: Setup,
        entries: Sequence[Entry],
        kept: Sequence[Entry],
        changed: int,
    ) -> State:
        """``play(setup, entries)`` for a record that is ``kept`` (the record as it stands)
        with the entries from index ``changed`` on new or changed, in one pass either way.

        If the rules refuse the changed entry itself (or an unchanged one before it, such as
        an unfinished hand that is no longer the last), the ``RuleError`` carries in
        ``kept_state`` the state of the ``kept`` record, folded on from the same tally (what a
        refused save shows: no second replay). A refusal of a later entry (a correction that
        breaks a hand after it) leaves ``kept_state`` None: the tally has gone past the kept
        record.
        """
        tally = self.begin(setup)
        last = _last_hand(entries)
        for index, entry in enumerate(entries):
            try:
                self._fold(tally, entry, last=index == last)
            except RuleError as error:
                if index <= changed:  # the tally holds the kept record's first ``index``
                    error.kept_state = self._fold_on(tally, kept, index)
                raise
        return self._state(tally)

    def _fold_on(self, tally: Tally, entries: Sequence[Entry], start: int) -> State | None:
        """The state of ``entries``, the first ``start`` of them already in ``tally``."""
        last = _last_hand(entries)
        try:
            for index in range(start, len(entries)):
                self._fold(tally, entries[index], last=index == last)
        except RuleError:  # the kept record itself no longer replays: nothing to show
            return None
        return self._state(tally)

    def _fold(self, tally: Tally, entry: Entry, last: bool) -> None:
        """Fold one entry of the record in: a change of the table, or the next hand."""
        if isinstance(entry, Change):
            self._change(tally, entry)
            return
        number = len(tally.hands) + 1
        if tally.finished:
            raise RuleError("game_over", _("This game is over."), hand=number)
        kept, deal = tally.deal, tally.seating.deal(number, tally.options)
        tally.deal = deal  # what ``step`` reads; the last accepted hand's again if refused
        try:
            self.step(tally, number, entry, last)
        except RuleError as error:
            tally.deal = kept
            raise error.for_hand(number) from None
        hand = tally.hands[-1]
        hand.players = deal.players
        if hand.points is not None:
            hand.totals = dict(tally.totals)
        tally.seating.dealt(deal)

    def _state(self, tally: Tally) -> State:
        """The game's ``end``, with the table as it stands: who is seated, who left, the
        changes, and who will be dealt into the next hand."""
        state = self.end(tally)
        state.players = list(tally.seated)
        state.left = list(tally.seating.left)
        state.changes = [dict(change) for change in tally.changes]
        if state.next is not None:
            state.next["players"] = list(tally.next_deal().players)
        return state

    # The table's changes between two hands (``table``) --------------------------------------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The changes this game allows with ``options`` (``table.KINDS``)."""
        return ()

    def sides_now(self, tally: Tally) -> list[str]:
        """Who an adjustment may name: the players at the table (a team game: its teams)."""
        return list(tally.seated)

    def check_seats(self, tally: Tally, seated: Sequence[str]) -> None:
        """Refuse a table of ``seated`` players the game cannot go on with (Oh Hell: no hand
        left to play with that many; ``no_hands_left``). Changes nothing."""

    def seats_changed(self, tally: Tally) -> None:
        """The seated players changed: adapt what depends on their number (hand sizes)."""

    def reschedule(self, tally: Tally, change: Change, apply: bool) -> dict[str, Any]:
        """A ``schedule`` change checked (and with ``apply``, made): the change normalised."""
        raise RuleError(
            "change_not_allowed", _("This game does not allow that change."), change.where
        )

    def rename_side(self, tally: Tally, old: str, new: str) -> None:
        """A seat handed over from ``old`` to ``new``: the seat's total goes with it (a team
        game renames the team instead)."""
        tally.sides = [new if side == old else side for side in tally.sides]
        tally.totals = {(new if side == old else side): v for side, v in tally.totals.items()}

    def _change(self, tally: Tally, change: Change) -> None:
        """Check one change in RULES.md's order, then make it (nothing changes if refused)."""
        if tally.finished:
            raise RuleError("game_over", _("This game is over."), change.where)
        if tally.open_hand is not None:
            raise RuleError(
                "hand_in_progress",
                _("Finish the hand being played before changing the table."),
                change.where,
            )
        normal = check_change(
            change, tally.seating, self.table_changes(tally.options), self.sides_now(tally)
        )
        kind = normal["kind"]
        if kind == "schedule":
            normal = self.reschedule(tally, change, apply=False)
        seating = tally.seating
        seated = list(seating.seated)
        out = list(seating.out_next)
        if kind == "join":
            seated.append(normal["player"])
        elif kind == "leave":
            seated.remove(normal["player"])
            out = [name for name in out if name != normal["player"]]
        elif kind == "sit_out":
            out.append(normal["player"])
        if kind in ("join", "leave", "sit_out"):
            check_counts(
                len(seated),
                len([name for name in seated if name not in out]),
                self.min_players,
                self.max_players,
                change.field("player"),
            )
            self.check_seats(tally, seated)
        self._make(tally, change, normal)

    def _make(self, tally: Tally, change: Change, normal: dict[str, Any]) -> None:
        seating = tally.seating
        kind = normal["kind"]
        player = normal.get("player")
        shown = {"id": change.id, "before_hand": len(tally.hands) + 1, **normal}
        if kind == "join":
            returning = player in seating.left
            if returning:
                # Their old place stays empty (it may be the last dealer's, from which the
                # next dealer is found); they take a new one.
                seating.left.remove(player)
            else:
                start = starting_total(
                    normal["score"],
                    tally.totals,
                    seating.seated,
                    self.low_wins(tally.options),
                )
                tally.totals[player] = start
                tally.sides.append(player)
                shown["score"] = start
            if player not in seating.members:
                seating.members.append(player)
            place = Place(player)
            after = normal.get("after")
            if after is None:
                seating.places.append(place)
            else:
                seating.places.insert(seating.places.index(seating.place_of(after)) + 1, place)
            if returning:
                shown["score"] = tally.totals[player]
            self.seats_changed(tally)
        elif kind == "leave":
            seating.place_of(player).gone = True
            seating.left.append(player)
            seating.out_next = [name for name in seating.out_next if name != player]
            self.seats_changed(tally)
        elif kind == "sit_out":
            seating.out_next.append(player)
        elif kind == "substitute":
            by = normal["by"]
            seating.place_of(player).player = by
            seating.out_next = [by if name == player else name for name in seating.out_next]
            if by not in seating.members:
                seating.members.append(by)
            self.rename_side(tally, player, by)
        elif kind == "adjust":
            tally.totals[player] += normal["points"]
        elif kind == "schedule":
            shown.update(self.reschedule(tally, change, apply=True))
        tally.changes.append(shown)

    def close(self, setup: Setup, state: State) -> State:
        """The state once the scorekeeper ends the game (``POST /games/<id>/close``).

        A game that ends by its own rules returns ``state`` unchanged, so an unfinished game
        stays unfinished (and the service refuses with ``not_finished``). A game that only
        ends when the table says so (an open-ended score pad) returns a finished state with
        its winners. Pure: ``play`` does not know about it, so a service that closed such a
        game applies ``close`` again after every replay.
        """
        return state

    def page_context(self, setup: Setup) -> dict[str, Any]:
        """Extra values the game's own templates need (beyond the state)."""
        return {}

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """Combine what a hand already holds with a completion or correction."""
        merged = dict(entered)
        merged.update(change)
        return merged

    # Storage: what was entered, keyed by seat (a roster rename changes no stored entry) --

    def to_seats(self, entry: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """A normalised entry with every player name replaced by the player's seat: a name
        field becomes the seat number, a ``{name: value}`` map a list by seat (None where
        empty), a list of names a list of seats."""
        seat = {name: index for index, name in enumerate(players)}
        stored = dict(entry)
        for key in self.name_fields:
            if stored.get(key) is not None:
                stored[key] = seat[stored[key]]
        for key in self.name_maps:
            if isinstance(stored.get(key), Mapping):
                stored[key] = [stored[key].get(name) for name in players]
        for key in self.name_lists:
            if isinstance(stored.get(key), list):
                stored[key] = [seat[name] for name in stored[key]]
        return stored

    def from_seats(self, stored: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """The entry ``to_seats`` stored, with the names of the players now in each seat."""
        entry = dict(stored)
        for key in self.name_fields:
            if entry.get(key) is not None:
                entry[key] = players[entry[key]]
        for key in self.name_maps:
            if isinstance(entry.get(key), list):
                # A hand stored before someone joined holds no place for them (the places of
                # who came later are at the end).
                values = entry[key]
                if len(values) > len(players):
                    raise ValueError(f"{key}: {len(values)} places for {len(players)} players")
                entry[key] = {
                    name: value
                    for name, value in zip(players, values, strict=False)
                    if value is not None
                }
        for key in self.name_lists:
            if isinstance(entry.get(key), list):
                entry[key] = [players[index] for index in entry[key]]
        return entry

    # What the rest of the app asks the game -----------------------------------------------

    def team_seats(self, options: Mapping[str, Any], count: int) -> list[list[int]] | None:
        """The seats of each team in a partnership game; None when everyone plays alone."""
        return None

    def sides(self, players: Sequence[str], options: Mapping[str, Any]) -> list[str]:
        """Who scores: the players, or each team by its players' names (``"Ann & Cy"``)."""
        teams = self.team_seats(options, len(players))
        if teams is None:
            return list(players)
        return [team_name([players[seat] for seat in team]) for team in teams]

    def side_of_seat(self, options: Mapping[str, Any], count: int) -> list[int]:
        """For each seat, the index of the side it scores for."""
        teams = self.team_seats(options, count)
        if teams is None:
            return list(range(count))
        return [next(i for i, team in enumerate(teams) if seat in team) for seat in range(count)]

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        """Each seat's facts (``facts`` keys, values other than 0) for one scored hand."""
        return [{} for _ in setup.players]

    def csv_columns(self, setup: Setup) -> list[str]:
        """Headers of the game's own CSV columns, between "Dealer" and the points."""
        return []

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        """One hand's cells under ``csv_columns``."""
        return []


def _last_hand(entries: Sequence[Entry]) -> int:
    """The index of the record's last hand (-1 if none): the one hand that may be open (a
    change after it is refused as such: ``hand_in_progress``)."""
    for index in range(len(entries) - 1, -1, -1):
        if not isinstance(entries[index], Change):
            return index
    return -1


def team_name(players: Sequence[str]) -> str:
    """The name of a partnership: ``"Ann & Cy"``."""
    return " & ".join(players)


def check_player_count(players: Sequence[str], low: int, high: int) -> None:
    if len(set(players)) != len(players):
        raise RuleError("player_count", _("Each player can sit at the table only once."), "players")
    if not low <= len(players) <= high:
        if low == high:
            message = ngettext(
                "This game needs exactly %(num)s player; %(chosen)s chosen.",
                "This game needs exactly %(num)s players; %(chosen)s chosen.",
                low,
                chosen=len(players),
            )
        else:
            message = _(
                "This game needs %(low)s to %(high)s players; %(chosen)s chosen.",
                low=low,
                high=high,
                chosen=len(players),
            )
        raise RuleError("player_count", message, "players")


def resolve_options(specs: Sequence[Option], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``raw`` against ``specs`` and fill in defaults; every problem is reported."""
    problems = Problems()
    resolved = collect_options(specs, raw, problems)
    problems.raise_any()
    return resolved


def collect_options(
    specs: Sequence[Option], raw: Mapping[str, Any], problems: Problems
) -> dict[str, Any]:
    """The options of ``specs`` whose values are valid (defaults filled in); an unknown key or
    a bad value is added to ``problems`` and its option left out. For games whose options
    depend on each other, to go on checking with the values that are good."""
    by_key = {spec.key: spec for spec in specs}
    for key in raw:
        if key not in by_key:
            problems.add(
                RuleError(
                    "unknown_option",
                    _("There is no option called “%(key)s”.", key=key),
                    f"options.{key}",
                )
            )
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = raw.get(spec.key, spec.default)
        if value is None:
            value = spec.default
        if value is None and spec.kind == "list":  # a list may stay unset
            resolved[spec.key] = None
            continue
        with problems.check():
            resolved[spec.key] = check_option_value(spec, value)
    return resolved


def _same_value(a: Any, b: Any) -> bool:
    """Equal and of the same type (True is not 1, 2.0 is not 2)."""
    return type(a) is type(b) and a == b


def check_option_value(spec: Option, value: Any) -> Any:
    where = f"options.{spec.key}"
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise RuleError(
                "option_value", _("%(option)s must be on or off.", option=spec.label), where
            )
        return value
    if spec.kind == "choice":
        # 2.0 == 2 in Python, but an option given as 2.0 is not the choice 2.
        if not any(type(value) is type(choice) and value == choice for choice in spec.choices):
            allowed = ", ".join(str(choice) for choice in spec.choices)
            raise RuleError(
                "option_value",
                _("%(option)s must be one of: %(allowed)s.", option=spec.label, allowed=allowed),
                where,
            )
        return value
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(
                "option_value", _("%(option)s must be a whole number.", option=spec.label), where
            )
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            raise RuleError(
                "option_value",
                _(
                    "%(option)s must be from %(low)s to %(high)s.",
                    option=spec.label,
                    low=spec.minimum,
                    high=spec.maximum,
                ),
                where,
            )
        return value
    if spec.kind == "text":
        return _check_text_option(spec, value, where)
    if spec.kind == "list":
        numbers = isinstance(value, list) and all(
            type(item) is int
            and (spec.minimum is None or item >= spec.minimum)
            and (spec.maximum is None or item <= spec.maximum)
            for item in value
        )
        if not numbers:
            raise RuleError(
                "option_value",
                _(
                    "%(option)s must be a list of whole numbers from %(low)s to %(high)s.",
                    option=spec.label,
                    low=spec.minimum,
                    high=spec.maximum,
                ),
                where,
            )
        return list(value)
    raise ValueError(f"unknown option kind {spec.kind!r}")


def _check_text_option(spec: Option, value: Any, where: str) -> str:
    low = spec.minimum if spec.minimum is not None else 0
    high = spec.maximum
    said = {"option": spec.label, "low": low, "high": high}
    lower = {**said, "option": str(spec.label).lower()}
    if value is not None and not isinstance(value, str):
        if high is not None:
            message = _("%(option)s must be text (%(low)s to %(high)s characters).", **said)
        else:
            message = _("%(option)s must be text (at least %(low)s characters).", **said)
        raise RuleError("option_value", message, where)
    try:  # NFKC, spaces collapsed; control (NUL) and invisible characters refused
        text = normalize_line(value or "", spec.label, where, "option_value")
    except RuleError as refused:
        raise RuleError("option_value", refused.message, where) from None
    if not text and low > 0:
        if high is not None:
            message = _("Enter the %(option)s (%(low)s to %(high)s characters).", **lower)
        else:
            message = _("Enter the %(option)s (at least %(low)s characters).", **lower)
        raise RuleError("option_value", message, where)
    if len(text) < low or (high is not None and len(text) > high):
        if high is not None:
            message = _(
                "%(option)s must be %(low)s to %(high)s characters long; it has %(given)s.",
                given=len(text),
                **said,
            )
        else:
            message = _(
                "%(option)s must be at least %(low)s characters long; it has %(given)s.",
                given=len(text),
                **said,
            )
        raise RuleError("option_value", message, where)
    return text


# Helpers the game modules share for checking what was entered ---------------------------


def whole_number(
    value: Any,
    where: str,
    code: str,
    low: int = 0,
    high: int | None = None,
    *,
    not_whole: str,
    out_of_range: str,
) -> int:
    """``value`` as a whole number from ``low`` to ``high``; else a RuleError saying the whole
    sentence ``not_whole`` (code "wrong_type") or ``out_of_range`` (``code``). A game says
    its own sentences ("Ann's roll must be from 0 to 6."); ``readers.whole_of`` takes them
    from a ``NumberWords``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("wrong_type", not_whole, where)
    if value < low or (high is not None and value > high):
        raise RuleError(code, out_of_range, where)
    return value


def each_player(
    entry: Mapping[str, Any],
    key: str,
    players: Sequence[str],
    missing_code: str,
    words: Any,
    read: Callable[[str, Any], Any],
    partial: bool = False,
    members: Sequence[str] = (),
    deals: HandWords = HANDS,
) -> dict[str, Any]:
    """The ``{player: value}`` mapping ``entry[key]``, each value passed through ``read(name,
    value)``, in seat order. Every problem is reported at once: each stranger, each missing
    player (unless ``partial``) and each value ``read`` refuses. ``words`` holds the whole
    sentences (``every()``, ``per_player()``, ``enter(name)``: a ``readers.NumberWords`` such
    as ``readers.BIDS``). A name of ``members`` (someone at the table who is not dealt into
    this hand: a sitter, a player who left) is ``not_seated``, said in the game's ``deals``
    words (hand or round)."""
    values = entry.get(key)
    if values is None or (
        isinstance(values, Mapping) and all(value is None for value in values.values())
    ):
        raise RuleError(missing_code, words.every(), key)
    if not isinstance(values, Mapping):
        raise RuleError("wrong_type", words.per_player(), key)
    problems = Problems()
    for name in values:
        if name in members and name not in players:
            problems.add(
                RuleError(
                    "not_seated",
                    deals.not_dealt(name=name),
                    f"{key}.{name}",
                )
            )
        elif name not in players:
            problems.add(
                RuleError(
                    "unknown_player",
                    _("%(name)s is not playing in this game.", name=name),
                    f"{key}.{name}",
                )
            )
    result: dict[str, Any] = {}
    for name in players:
        value = values.get(name)
        if value is None:
            if not partial:
                problems.add(
                    RuleError(
                        missing_code,
                        words.enter(name),
                        f"{key}.{name}",
                    )
                )
            continue
        with problems.check():
            result[name] = read(name, value)
    problems.raise_any()
    return result


def seat_after(seat: int, count: int, steps: int = 1) -> int:
    """The seat ``steps`` places to the left (clockwise) of ``seat``."""
    return (seat + steps) % count


def order_from_left_of(dealer_seat: int, players: Sequence[str]) -> list[str]:
    """Players clockwise from the dealer's left, dealer last."""
    count = len(players)
    return [players[seat_after(dealer_seat, count, step)] for step in range(1, count + 1)]


def add_points(totals: dict[str, int], points: Mapping[str, int]) -> None:
    for side, value in points.items():
        totals[side] += value

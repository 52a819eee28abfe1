"""Compiled rules: the typed values a rules file becomes, and the state they play on.

Cards are whole numbers (an index into the `CardTable`, which holds every field
of every component the zones hold), so a pile is a list of ints: copied in one
slice, compared and sorted as numbers. Expressions and steps are compiled once
to closures of (state, seat, env): `seat` is the player the rules call `my`,
`env` the values of the names a rule binds (the chosen card, a `for` name).

What the language does not say yet goes in beside, without reshaping this: a
board is a zone whose piles are cells (a `shape` on `Zone`, its cells' piles
numbered as a seat's are). Turn structure (an order by a value, turns of up to N
actions, passing, the last round) is the model's `TurnPlan`, played by turns.py
from the engine's `apply`. Dice are a zone (`Zone.dice`) the `roll` step fills
through `state.chance` by name, as shuffles are drawn (rules/data/dice.py);
tracks are per-seat numbers in `DataState.tracks`, kept as pools are
(rules/data/tracks.py); wilds and trades are a `Payment` (rules/data/payment.py).
What an action chooses beyond its card and cell (a trade, a way to pay, dice to roll
again) is an `Offer` (rules/data/offers.py); a tile turned onto a grid is a card of
its own in the `CardTable` (`turned`, rules/data/grid.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from protopress.rules.chance import Chance
from protopress.rules.options import Option

HOLE = -1  # a slot emptied during an action: refilled, or closed when the action ends


@dataclass(slots=True)
class DataState:
    """A game of data rules in play: piles of cards, pools of resources, whose turn."""

    chance: Chance
    options: dict[str, Any]
    piles: list[list[int]]  # the shared zones, then each zone of each seat (Model.pile)
    pools: list[list[int]]  # per seat, per resource (Model.resources order)
    players: int
    seat: int = 0
    turns: int = 0  # completed turns, all seats
    tracks: list[list[int]] = field(default_factory=list)  # per seat, per track (none: [])
    acted: int = 0  # actions taken in this turn (a turn of up to N actions)
    order: tuple[int, ...] = ()  # this round's seats in turn order (empty: clockwise)
    last_round: bool = False  # the last round was triggered: the game ends with the round
    used: list[frozenset[int]] = field(default_factory=list)  # per seat: cards its zones held
    rerolls: dict[str, int] = field(default_factory=dict)  # dice zone -> rerolls since its roll
    asked: Asked | None = None  # a choice open inside an action (rules/data/choices.py)
    later: tuple[Later, ...] = ()  # the steps waiting on it, the next to run last
    final: int = -1  # turns still to play once `last_turns` held (-1: not triggered)

    def copy(self) -> DataState:
        new = DataState(
            self.chance.share(),
            self.options,
            [pile[:] for pile in self.piles],
            [pool[:] for pool in self.pools],
            self.players,
            self.seat,
            self.turns,
            [track[:] for track in self.tracks],
            self.acted,
            self.order,
            self.last_round,
            self.used[:],
            dict(self.rerolls),
            self.asked,
            self.later,
            self.final,
        )
        if self.asked is not None or self.later:
            new._own_names()
        return new

    def _own_names(self) -> None:
        """The env lists of the open choice and of the steps waiting on it, copied once
        each and shared among them as before (a copy's choices bind names of its own)."""
        envs: dict[int, list[Any]] = {}
        asked = self.asked
        if asked is not None:
            self.asked = asked._replace(env=envs.setdefault(id(asked.env), asked.env[:]))
        self.later = tuple(
            wait._replace(env=envs.setdefault(id(wait.env), wait.env[:])) for wait in self.later
        )


Compiled = Callable[[DataState, int, list[Any]], Any]  # an expression: (state, my seat, env)
Step = Callable[[DataState, int, list[Any]], None]  # steps, run in order


class Asked(NamedTuple):
    """A `choose` step waiting for its player (rules/data/choices.py): its options,
    the player the rules call `my`, who chooses, the names bound so far, and where in
    `later` the steps interrupted by it go (inner ones nearer the end, run first)."""

    choice: Choice
    seat: int
    chooser: int
    env: list[Any]
    base: int


class Later(NamedTuple):
    """Steps to run once the open choice is made: the rest of a list, of a `for`, of an
    `each_player`, with their player and names."""

    steps: Step
    seat: int
    env: list[Any]


class Seen(Enum):
    EVERYONE = "everyone"
    OWNER = "owner"
    NOBODY = "nobody"


@dataclass(frozen=True)
class GridSpec:
    """A board grid's shape (square or hex) and size: a whole number, or the name of a
    whole option. Its pile holds one place per cell, row by row (HOLE: a free cell)."""

    shape: str
    width: int | str
    height: int | str


@dataclass(frozen=True)
class Zone:
    """A zone of the rules file. Its piles: `first` (shared), or `first + seat` (each)."""

    name: str
    kind: str
    seen: Seen
    each: bool
    first: int
    slots: int | None = None
    refill: str | None = None
    setup_all: bool = False
    shuffle: bool = False
    grid: GridSpec | None = None
    dice: int | None = None  # a pool of this many dice (rules/data/dice.py)
    faces: tuple[str, ...] = ()  # each die's faces: ids of components of its kind
    bag: bool = False  # drawn from at random (rules/data/bags.py)
    piles: int = 1  # a row of this many piles: a player's spires (rules/data/rows.py)

    def pile(self, seat: int, place: int = 0) -> int:
        """The index in `DataState.piles` of seat's pile at place in the row (a shared
        zone's piles are seat 0's)."""
        return self.first + (seat * self.piles if self.each else 0) + place

    @property
    def gaps(self) -> bool:
        """Whether its pile has empty places (HOLE): a row of slots, a grid's free cells."""
        return self.slots is not None or self.grid is not None


class Kind(Enum):
    """The kinds of value an expression has (checked when the rules are compiled)."""

    NUMBER = "a number"
    FLAG = "true or false"
    TEXT = "text"
    LIST = "a list"
    CARD = "a card"
    ZONE = "a zone"
    POOL = "a pool of resources"
    PLAYER = "a player"
    ZONES = "a row of zones"
    PLAYERS = "a list of players"
    OPTIONS = "the options"
    ANY = "a value"


@dataclass(frozen=True)
class Ty:
    """A value's kind; of: the kind of component a card or zone holds, a zone's name."""

    kind: Kind
    of: str = ""
    zone: Zone | None = None

    def __str__(self) -> str:
        if self.kind is Kind.CARD and self.of:
            return f"a {self.of}"
        return self.kind.value


@dataclass(frozen=True)
class CardTable:
    """Every component the zones hold, numbered: its id, kind and each field's value."""

    ids: tuple[str, ...]
    kinds: tuple[str, ...]
    fields: dict[str, tuple[Any, ...]]  # field -> value of each card (its empty value if left out)
    field_kinds: dict[str, Kind]
    kind_fields: dict[str, frozenset[str]]  # kind -> the fields its components have
    first: dict[str, int]  # kind -> its first card (cards of one kind are consecutive)
    counts: dict[int, int]  # card -> copies in the box
    turned: dict[int, int] = field(default_factory=dict)  # a tile turned on a grid -> its card


@dataclass(frozen=True)
class ChoiceSource:
    """Where an action's choice comes from: the resources, or a zone (the seat's own
    zone when `mine`)."""

    zone: Zone | None  # None: the resources
    mine: bool = False

    def pile(self, state: DataState, seat: int) -> list[int]:
        assert self.zone is not None
        return state.piles[self.zone.first + (seat if self.mine else 0)]


@dataclass(frozen=True)
class ActionRule:
    """One action of `turn.choose`: its verb, what is chosen and where from, when it is
    offered, and its steps. `kind` is its typed action class (rules/actions.py)."""

    verb: str
    param: str | None
    source: ChoiceSource | None
    distinct: bool
    condition: Compiled | None
    steps: Step
    slot: int  # the env slot of the chosen value
    place: int  # the env slot of a chosen card's place in its zone
    kind: type
    by_slot: bool  # logged by position in its zone (a slotted row), else by card id
    grid: GridChoice | None = None  # a cell of a grid is chosen too (rules/data/grid.py)
    ends_turn: bool = False  # the action `done` of a turn of up to N actions (turns.py)
    offer: Offer | None = None  # a trade, a way to pay, dice to reroll: chosen too (offers.py)
    option: ChoiceOption | None = None  # from rows of zones, players, two things (choices.py)


class Offer(Protocol):
    """What an action chooses beyond its card and cell (rules/data/offers.py): each choice
    is a tuple of logged values, one per name of `fields`, the action's last fields."""

    @property
    def fields(self) -> tuple[str, ...]: ...

    def choices(self, state: DataState, seat: int, env: list[Any]) -> Iterator[tuple[Any, ...]]:
        """The choices on offer now (env holds the action's card and cell)."""
        ...

    def bind(self, state: DataState, seat: int, chosen: tuple[Any, ...], env: list[Any]) -> bool:
        """Put a choice in env for the action's steps; False when it is not on offer."""
        ...


@dataclass(frozen=True)
class ChoiceOption:
    """One option of a `choose` step (or an action choosing from a row of zones, a
    list, or two things at once): its verb, the env slots of the names it binds,
    what each goes through and how each chosen value is logged (a pile by its place
    in its row, a player by seat), when it is offered, its steps, its typed action."""

    verb: str
    slots: tuple[int, ...]
    sources: tuple[Compiled, ...]
    encoders: tuple[Callable[[Any], Any], ...]
    condition: Compiled | None
    steps: Step
    kind: type


@dataclass(frozen=True)
class Choice:
    """A `choose` step: its options in order; `optional`: `skip` is offered after them
    when any is; `by`: who chooses (None: the player the rules call `my`)."""

    options: tuple[ChoiceOption, ...]
    skip: type | None
    by: Compiled | None


@dataclass(frozen=True)
class GridChoice:
    """The free cell an action chooses on a grid, beside its card: the grid's zone, the
    env slots of the cell and of the names `match` reads, and the adjacency rules."""

    zone: Zone
    mine: bool  # the seat's own grid (my.board)
    cell: int  # env slot of the chosen cell
    neighbour: int  # env slots of the names `match` reads: neighbour, side, facing
    side: int
    facing: int
    touch: bool  # the cell must touch a placed tile (unless the grid is empty)
    match: Compiled | None  # must hold for every placed neighbour
    turns: Turns | None = None  # the tile may be turned as it is placed (rotate: true)

    def pile(self, state: DataState, seat: int) -> list[int]:
        return state.piles[self.zone.first + (seat if self.mine else 0)]


@dataclass(frozen=True)
class Turns:
    """How a tile may be turned as it is placed (rules/data/grid.py): per card, each
    distinct turn (clockwise steps of a side, 0 first) and the card it makes, whose side
    fields are turned; `slot` is the env slot `match` reads the turned tile from."""

    slot: int
    of: dict[int, tuple[tuple[int, int], ...]]  # card -> ((turns, turned card), ...)


@dataclass(frozen=True)
class TurnPlan:
    """How turns follow each other (rules/data/turns.py): up to `actions` actions a turn
    (the action `done` ends one sooner); the seats of each round ordered by a value
    (`order`, lowest first unless `highest`), else clockwise; at a round's end each
    player's `passed` zone goes to the next player (`step` +1: left, -1: right) and the
    `after_round` steps run; `last_round` conditions, checked after a player's turn for
    that player, make the round under way the last. With `phases`, a round is each
    phase in turn, every seat taking a turn in it with the actions it names."""

    actions: int = 1
    order: Compiled | None = None
    highest: bool = False
    passed: Zone | None = None
    step: int = 1
    after_round: Step | None = None
    last_round: tuple[Compiled, ...] = ()
    phases: tuple[frozenset[str], ...] = ()  # the verbs of each phase of a round
    last_turns: tuple[Compiled, ...] = ()  # when one holds, every other player's last turn

    @property
    def turns_a_round(self) -> int:
        """Turns of each seat in a round: one in each phase."""
        return len(self.phases) or 1


@dataclass(frozen=True)
class ScoreLine:
    name: str
    value: Compiled


@dataclass(frozen=True)
class Track:
    """A track each player has a marker on: its place in `DataState.tracks`, its range,
    where markers start, the position that ends the game, and its points by position."""

    name: str
    place: int
    low: int
    high: int
    start: int
    ends_at: int | None
    points: tuple[int, ...]  # points at low, low + 1, ... (past the end: the last)

    def points_at(self, position: int) -> int:
        """The points of a marker at position (0 on a track without points)."""
        if not self.points:
            return 0
        return self.points[min(position - self.low, len(self.points) - 1)]


@dataclass(frozen=True)
class Model:
    """A rules file compiled against a catalog: everything an engine needs."""

    path: Path
    name: str
    game: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    resources: tuple[str, ...]
    zones: tuple[Zone, ...]
    piles: int  # piles in a state (shared zones, then max_players per zone of each seat)
    cards: CardTable
    setup: Step
    start: Step
    actions: tuple[ActionRule, ...]
    end: tuple[Compiled, ...]
    score: tuple[ScoreLine, ...]
    value: Compiled | None  # None: the score
    env_size: int
    tracks: tuple[Track, ...] = ()  # each player's tracks (rules/data/tracks.py)
    turn: TurnPlan = TurnPlan()

    def zone(self, name: str) -> Zone:
        return next(zone for zone in self.zones if zone.name == name)

"""DragonStone Mine's step interpreter: colour rules and card effects run as data.

A colour rule or a card effect is a list of catalog steps (mine, move_own,
swap_tops, steal, return, draw, discard, extra_turn). A state keeps a stack of
pending frames; `run` executes frames until one needs a player's decision,
which it opens as `state.decision`. The turn structure (dragonstone_mine)
registers its own frames and decisions in the same tables.

Frames (`Work`) and decisions (`Decision`) are small typed values, each with a
kind (the table entry that runs it) and a seat (the seat acting for a frame,
the seat choosing for a decision); the actions are actions.py's.

What a tower allows and how it changes is towers.py's; the watched towers and
piles that apply_watching and apply_watching_cards run the frames on, watch.py's.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, TypeVar

from protopress.games.dragonstone_mine.actions import (
    DO,
    LOOSE,
    SKIP,
    Choose,
    DiscardCard,
    DragonstoneAction,
    MoveGem,
    Stack,
    SwapTops,
    choose_action,
    discard_action,
    stack_action,
)
from protopress.games.dragonstone_mine.towers import (
    TOWER_DECISIONS,
    can_move,
    can_swap,
    change_tower,
    moves,
    open_spires,
    returnable,
    stack_gem,
    stealable,
    swaps,
)
from protopress.games.dragonstone_mine.watch import PileWatch, Question, TowerWatch, ask
from protopress.rules.chance import TapeChance
from protopress.rules.core import IllegalAction


class Step(NamedTuple):
    op: str
    # a field named count shadows tuple.count; it is the catalog's name for it
    count: int = 1  # type: ignore[assignment]
    colour: str | None = None
    target: str = "self"
    follow: bool = False  # mined gems follow their colour rules
    optional: bool = False  # the whole step may be skipped before it starts
    # return: the owner gives from a capped spire when they have no other gem to give
    from_capped: bool = False

    @classmethod
    def of(cls, data: Mapping[str, Any], card: bool = False) -> Step:
        """A catalog step; card: it is printed on an action card (not a colour rule).

        The General Rules let players "be forced to unstack gems from their own capped
        spires to pay costs of cards or as a result of a card played by another
        player": a card's return step that targets other players reaches capped
        spires (when forced), a colour rule's never does, and neither does a card
        making its own player give gems back.
        """
        op, target = data["op"], data.get("target", "self")
        return cls(
            op,
            data.get("count", 1),
            data.get("colour"),
            target,
            data.get("follow_rule", False),
            data.get("optional", False),
            from_capped=card and op == "return" and target != "self",
        )


def steps_of(data: Sequence[Mapping[str, Any]], card: bool = False) -> tuple[Step, ...]:
    """A colour rule's steps, or (card) an action card's effect."""
    return tuple(Step.of(step, card) for step in data)


class Card(NamedTuple):
    id: str
    cost: tuple[str, ...]
    effect: tuple[Step, ...]


class Rules(NamedTuple):
    """What a game reads from its catalog; shared, never copied, by every state."""

    level: str  # "smiley", "1" or "2"
    colours: tuple[str, ...]
    colour_rules: dict[str, tuple[Step, ...]]
    capacities: tuple[int, ...]
    cards: dict[str, Card]  # the level's cards by id
    points: dict[str, int]  # the level's scoring table
    turn_limit: int


# --- frames and decisions -----------------------------------------------------


TurnFrame = Literal["start", "end", "action_phase", "draw_phase"]


class SeatWork(NamedTuple):
    """A frame of the turn that needs only its seat."""

    kind: TurnFrame
    seat: int


# The turn's frames, each built once and kept (every turn of every look-ahead trial
# queues them). Decisions are never kept so: `legal` knows a decision by identity.
seat_work: Callable[[TurnFrame, int], SeatWork] = functools.cache(SeatWork)


class StepWork(NamedTuple):
    """A step under way: seat does `left` more units of `step` (kind: the step's op)."""

    kind: str
    seat: int
    left: int
    step: Step

    def one_done(self) -> StepWork:
        """What is left of the step after one unit of it."""
        return StepWork(self.kind, self.seat, self.left - 1, self.step)


class VictimStep(NamedTuple):
    """A steal or return step aimed at one player, the victim: kind steal_from or
    return_from."""

    kind: str
    seat: int
    left: int
    step: Step
    victim: int

    def one_done(self) -> VictimStep:
        """What is left of the step after one unit of it."""
        return VictimStep(self.kind, self.seat, self.left - 1, self.step, self.victim)


class Payment(NamedTuple):
    """The gems of a card's cost still to pay: a frame, and then the decision of the
    spire that pays the next one."""

    seat: int
    cost: tuple[str, ...]
    kind: Literal["pay"] = "pay"


class Spent(NamedTuple):
    """A played card, laid on the discards once its effect has run."""

    seat: int
    card: str
    kind: Literal["spent"] = "spent"


Work = SeatWork | StepWork | VictimStep | Payment | Spent


class SeatDecision(NamedTuple):
    """A decision of the turn itself: turn (mine; at the smiley level, or move a gem),
    action (level 1 and 2: play, discard or draw a card) or draw."""

    kind: Literal["turn", "action", "draw"]
    seat: int


class StackHeld(NamedTuple):
    """Where seat stacks the gem it holds; follow: then its colour rule runs."""

    seat: int
    follow: bool
    kind: Literal["stack"] = "stack"


class StepDecision(NamedTuple):
    """A choice inside a step: may (do it or skip it), move_own, swap_tops, discard,
    steal (which spire) or return (the owner picks the spire)."""

    kind: str
    seat: int
    work: StepWork | VictimStep


class TargetDecision(NamedTuple):
    """Which of `victims` a steal or return step takes from."""

    seat: int
    work: StepWork
    victims: tuple[int, ...]
    kind: Literal["target"] = "target"


Decision = SeatDecision | Payment | StackHeld | StepDecision | TargetDecision


class State:
    """A game in progress. Towers are lists of spires, each a list of colour ids,
    bottom first; the bag is a count per colour in catalog order.

    Copies are cheap: towers are shared with the copy until one of them changes a
    tower (`tower(seat)` gives it its own first), and chance is one tape of the
    generator's words that each reads from its own place (rules/chance.TapeChance:
    nearly every look-ahead trial draws, and no clone of the generator is made).
    Each tower's score is cached in a one-item list that the states
    holding the same tower and loose gems share (a change gives the changed state
    a fresh one), so a look-ahead copy scores only the towers that changed."""

    __slots__ = (
        "chance", "rules", "turns", "seat", "spires", "owned", "tower_points",
        "loose", "bag", "bag_total", "hands", "deck", "discards", "face_up", "pending",
        "decision", "held", "used", "paid", "final", "extra", "over", "ended_by", "legal",
    )  # fmt: skip

    def __init__(self, rules: Rules, players: int, rng: random.Random, bag: dict[str, int]):
        self.chance = TapeChance(rng)  # the gems drawn are public, the deck's order hidden
        self.rules = rules
        self.turns = self.seat = self.paid = 0
        self.spires: list[list[list[str]]] = [
            [[] for _ in rules.capacities] for _ in range(players)
        ]
        # bit s set: seat s's tower is this state's own; clear: its lists are shared with a copy
        self.owned = (1 << players) - 1
        self.tower_points: list[list[tuple[int, int] | None]] = [[None] for _ in range(players)]
        self.loose = [0] * players
        self.bag, self.bag_total = bag, sum(bag.values())
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.deck: list[str] = []
        self.discards: list[str] = []
        self.face_up: list[str] = []
        self.pending: list[Work] = []
        self.decision: Decision | None = None
        self.held: str | None = None  # a gem mined or taken, waiting to be placed
        # the cards each seat played, in order (statistics; tuples: copies share them)
        self.used: tuple[tuple[str, ...], ...] = ((),) * players
        self.final: tuple[int, ...] | None = None  # seats still to take their last turn
        self.extra = self.over = False
        self.ended_by: str | None = None
        # legal_actions(): (decision, actions)
        self.legal: tuple[Decision, list[DragonstoneAction]] | None = None

    def tower(self, seat: int) -> list[list[str]]:
        """seat's tower, to change in place: its own copy first if it is shared, and
        its cached score forgotten. Every change to a tower goes through here."""
        if not self.owned >> seat & 1:
            self.spires[seat] = [list(spire) for spire in self.spires[seat]]
            self.owned |= 1 << seat
        self.tower_points[seat] = [None]
        return self.spires[seat]

    def add_loose(self, seat: int) -> None:
        """A gem kept beside the tower (it scores as a gem)."""
        self.loose[seat] += 1
        self.tower_points[seat] = [None]

    def copy(self) -> State:
        new = object.__new__(type(self))
        new.rules, new.turns, new.seat, new.paid = self.rules, self.turns, self.seat, self.paid
        new.chance = self.chance.share()
        new.spires = list(self.spires)
        self.owned = new.owned = 0  # every tower shared now
        new.tower_points = list(self.tower_points)
        new.loose, new.bag, new.bag_total = list(self.loose), dict(self.bag), self.bag_total
        new.hands = list(map(list, self.hands))
        new.deck, new.discards, new.face_up = (
            list(self.deck),
            list(self.discards),
            list(self.face_up),
        )
        new.pending, new.decision, new.held = list(self.pending), self.decision, self.held
        new.used, new.final, new.extra = self.used, self.final, self.extra
        new.over, new.ended_by, new.legal = self.over, self.ended_by, None
        return new

    @property
    def players(self) -> int:
        return len(self.spires)

    def others(self, seat: int) -> list[int]:
        """The other seats, in turn order from seat's left."""
        n = len(self.spires)
        return [(seat + k) % n for k in range(1, n)]

    def take_gem(self, colour: str | None = None) -> str | None:
        """A gem from the bag: at random, or one of colour (None when there is none)."""
        if colour is None:
            if not self.bag_total:
                return None
            colour = self.chance.draw("gem", self.bag, self.bag_total)
        elif not self.bag.get(colour):
            return None
        self.bag[colour] -= 1
        self.bag_total -= 1
        return colour

    def put_back(self, gem: str) -> None:
        self.bag[gem] += 1
        self.bag_total += 1

    def draw_card(self) -> str | None:
        """The deck's top card; an empty deck is reshuffled from the discards first."""
        if not self.deck and self.discards:
            self.deck, self.discards = self.discards, []
            self.chance.shuffle("deck", self.deck)
        return self.deck.pop() if self.deck else None


# --- the interpreter ----------------------------------------------------------

Legal = Callable[[State, Any], list[DragonstoneAction]]  # the decision's actions
Apply = Callable[[State, Any, DragonstoneAction], None]  # apply one of them
FrameHandler = Callable[[State, Any], None]
FRAMES: dict[str, FrameHandler] = {}
DECISIONS: dict[str, tuple[Legal, Apply]] = {}  # kind -> (legal, apply)
_W = TypeVar("_W")  # a frame's or decision's type


def frame(kind: str) -> Callable[[Callable[[State, _W], None]], Callable[[State, _W], None]]:
    def register(handler: Callable[[State, _W], None]) -> Callable[[State, _W], None]:
        FRAMES[kind] = handler
        return handler

    return register


def decision(
    kind: str, legal: Callable[[State, _W], list[DragonstoneAction]]
) -> Callable[
    [Callable[[State, _W, DragonstoneAction], None]], Callable[[State, _W, DragonstoneAction], None]
]:
    def register(
        apply: Callable[[State, _W, DragonstoneAction], None],
    ) -> Callable[[State, _W, DragonstoneAction], None]:
        DECISIONS[kind] = (legal, apply)
        return apply

    return register


def run(state: State) -> None:
    """Execute pending frames until a decision is open or the game is over."""
    while state.decision is None and not state.over:
        work = state.pending.pop()
        FRAMES[work.kind](state, work)


def legal(state: State) -> list[DragonstoneAction]:
    """The open decision's actions, listed once per decision: a position in play
    changes only by `apply`, which opens a new decision (a new value) when it
    stops. A copy lists its own."""
    opened = state.decision
    if opened is None:
        return []
    known = state.legal
    if known is None or known[0] is not opened:
        known = state.legal = (opened, DECISIONS[opened.kind][0](state, opened))
    return list(known[1])


def apply(state: State, action: DragonstoneAction) -> None:
    opened, state.decision = state.decision, None
    if opened is None:
        raise IllegalAction("no decision is open: the game is over")
    DECISIONS[opened.kind][1](state, opened, action)
    run(state)


# --- decisions whose actions differ only in the chooser's tower ---------------


def apply_watching(state: State, action: DragonstoneAction) -> TowerWatch:
    """apply(state, action), watching the chooser's tower while the frames after the
    decision run. When they did not read it, another action of the same kind
    (`tower_after` is not None for both) whose tower gives the same answers to
    the questions they asked runs the same frames with the same draws: the two
    states differ only in that tower."""
    opened = state.decision
    if opened is None:
        raise IllegalAction("no decision is open: the game is over")
    state.decision = None
    DECISIONS[opened.kind][1](state, opened, action)
    watch = TowerWatch(state.spires, opened.seat)
    state.spires = watch
    run(state)
    state.spires = list.copy(watch)
    return watch


# --- decisions whose actions differ only in which cards lie where -------------


def apply_watching_cards(
    state: State, action: DragonstoneAction, judge: Callable[[State], float]
) -> tuple[float, bool]:
    """apply(state, action) and judge(state); whether the frames run after the
    decision, or the judge, looked at which cards lie in the chooser's hand, the
    deck, the discards or the face-up row. When they did not, another action of
    the same group (the game's, each reaching a position that differs only in
    which cards lie where, not in how many) gets the same judgement."""
    opened = state.decision
    if opened is None:
        raise IllegalAction("no decision is open: the game is over")
    state.decision = None
    DECISIONS[opened.kind][1](state, opened, action)
    seen, seat = [False], opened.seat
    state.hands[seat] = PileWatch(state.hands[seat], seen)
    state.deck = PileWatch(state.deck, seen)
    state.discards = PileWatch(state.discards, seen)
    state.face_up = PileWatch(state.face_up, seen)
    run(state)
    value = judge(state)
    state.hands[seat] = list.copy(state.hands[seat])
    state.deck, state.discards = list.copy(state.deck), list.copy(state.discards)
    state.face_up = list.copy(state.face_up)
    return value, seen[0]


# --- the steps ----------------------------------------------------------------


def push_steps(state: State, seat: int, steps: tuple[Step, ...]) -> None:
    """Queue steps to run in order."""
    for step in reversed(steps):
        state.pending.append(StepWork(step.op, seat, step.count, step))


def _fresh(work: StepWork | VictimStep) -> bool:
    """An optional step that has not started yet: it may still be skipped."""
    return work.step.optional and work.left == work.step.count


def _offer(state: State, work: StepWork) -> bool:
    """For steps without a choice of their own: open a may-skip decision first."""
    if _fresh(work):
        state.decision = StepDecision("may", work.seat, work)
        return True
    return False


def _again(state: State, work: StepWork | VictimStep) -> None:
    """Queue what is left of a step after one unit of it is done."""
    if work.left > 1:
        state.pending.append(work.one_done())


@decision("may", lambda state, d: [DO, SKIP])
def _may(state: State, d: StepDecision, action: DragonstoneAction) -> None:
    if action == DO:
        work = d.work
        state.pending.append(work._replace(step=work.step._replace(optional=False)))


@frame("mine")
def _mine(state: State, work: StepWork) -> None:
    if _offer(state, work):
        return
    _again(state, work)
    gem = state.take_gem(work.step.colour)
    if gem is not None:
        state.held = gem
        state.decision = StackHeld(work.seat, work.step.follow)


def _stack_legal(state: State, d: StackHeld) -> list[DragonstoneAction]:
    spires = open_spires(state, d.seat)
    return [stack_action(i) for i in spires] if spires else [LOOSE]


@decision("stack", _stack_legal)
def _stack(state: State, d: StackHeld, action: DragonstoneAction) -> None:
    seat = d.seat
    gem, state.held = state.held, None
    assert gem is not None  # a stack decision holds a gem
    if type(action) is Stack:
        stack_gem(state.tower(seat), action.spire, gem)
    else:  # LOOSE
        state.add_loose(seat)
    if d.follow:
        push_steps(state, seat, state.rules.colour_rules[gem])


Options = Callable[[State, int], Sequence[DragonstoneAction]]


def _own_choice(
    options: Options, exists: Question | None = None
) -> tuple[
    Callable[[State, StepWork], None], Callable[[State, StepDecision], list[DragonstoneAction]]
]:
    """A frame that opens a decision among options(state, seat), skippable when fresh;
    exists: whether there are options, asked of the seat's tower (`ask`)."""

    def handler(state: State, work: StepWork) -> None:
        if ask(state, work.seat, exists) if exists else options(state, work.seat):
            state.decision = StepDecision(work.kind, work.seat, work)

    def legal_of(state: State, d: StepDecision) -> list[DragonstoneAction]:
        return [*options(state, d.seat), *([SKIP] if _fresh(d.work) else [])]

    return handler, legal_of


def _register_own(kind: str, options: Options, exists: Question) -> None:
    handler, legal_of = _own_choice(options, exists)
    frame(kind)(handler)
    TOWER_DECISIONS.add(kind)

    @decision(kind, legal_of)
    def _apply(state: State, d: StepDecision, action: DragonstoneAction) -> None:
        if type(action) is MoveGem or type(action) is SwapTops:
            change_tower(state.tower(d.seat), action)
            _again(state, d.work)


_register_own("move_own", moves, can_move)
_register_own("swap_tops", swaps, can_swap)


def _hand_cards(state: State, seat: int) -> list[DragonstoneAction]:
    return [discard_action(card) for card in dict.fromkeys(state.hands[seat])]


discard_frame, _discard_legal = _own_choice(_hand_cards)
frame("discard")(discard_frame)


@decision("discard", _discard_legal)
def _discard(state: State, d: StepDecision, action: DragonstoneAction) -> None:
    if type(action) is DiscardCard:
        state.hands[d.seat].remove(action.card)
        state.discards.append(action.card)
        _again(state, d.work)


@frame("draw")
def _draw(state: State, work: StepWork) -> None:
    if _offer(state, work):
        return
    for _ in range(work.left):
        card = state.draw_card()
        if card is not None:
            state.hands[work.seat].append(card)


@frame("extra_turn")
def _extra_turn(state: State, work: StepWork) -> None:
    if not _offer(state, work):
        state.extra = True


# steal and return: pick the players, then take from (or give up) one gem at a time


def _takeable(state: State, step: Step, victim: int) -> list[int]:
    """The spires step may take a gem from (steal) or have victim give one from (return)."""
    if step.op == "steal":
        return stealable(state, victim)
    return returnable(state, victim, step.from_capped)


def _victims(state: State, work: StepWork) -> list[int]:
    step, seat = work.step, work.seat
    if work.kind == "return" and step.target == "self":
        return [seat] if _takeable(state, step, seat) else []
    return [p for p in state.others(seat) if _takeable(state, step, p)]


def _targets(state: State, work: StepWork) -> None:
    op, seat, step = work.kind, work.seat, work.step
    victims = _victims(state, work)
    if not victims:
        return
    if step.target == "each-other-player" or (op == "return" and step.target == "self"):
        if _offer(state, work):
            return
        for victim in reversed(victims):
            state.pending.append(VictimStep(op + "_from", seat, step.count, step, victim))
    else:  # a chosen player (steal with target "self" also takes from a chosen player)
        state.decision = TargetDecision(seat, work, tuple(victims))


frame("steal")(_targets)
frame("return")(_targets)


def _target_legal(state: State, d: TargetDecision) -> list[DragonstoneAction]:
    return [*map(choose_action, d.victims), *([SKIP] if _fresh(d.work) else [])]


@decision("target", _target_legal)
def _target(state: State, d: TargetDecision, action: DragonstoneAction) -> None:
    if type(action) is Choose:
        work = d.work
        step = work.step
        state.pending.append(
            VictimStep(work.kind + "_from", work.seat, step.count, step, action.number)
        )


@frame("steal_from")
def _steal_from(state: State, work: VictimStep) -> None:
    if stealable(state, work.victim):
        state.decision = StepDecision("steal", work.seat, work)


def _steal_legal(state: State, d: StepDecision) -> list[DragonstoneAction]:
    assert type(d.work) is VictimStep
    return [choose_action(i) for i in stealable(state, d.work.victim)]


@decision("steal", _steal_legal)
def _steal(state: State, d: StepDecision, action: DragonstoneAction) -> None:
    work = d.work
    assert type(work) is VictimStep and type(action) is Choose
    _again(state, work)
    state.held = state.tower(work.victim)[action.number].pop()
    state.decision = StackHeld(work.seat, False)


@frame("return_from")
def _return_from(state: State, work: VictimStep) -> None:
    if returnable(state, work.victim, work.step.from_capped):
        state.decision = StepDecision("return", work.victim, work)  # the owner chooses


def _return_legal(state: State, d: StepDecision) -> list[DragonstoneAction]:
    return [choose_action(i) for i in returnable(state, d.seat, d.work.step.from_capped)]


@decision("return", _return_legal)
def _return(state: State, d: StepDecision, action: DragonstoneAction) -> None:
    assert type(action) is Choose
    _again(state, d.work)
    state.put_back(state.tower(d.seat)[action.number].pop())

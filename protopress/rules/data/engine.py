"""The engine of a rules file: the contract (rules/core.Game) played from a compiled Model.

`DataGame` is subclassed once per rules file (rules/data/spec.py) with the
file, its layout, its action codec and its seat view as class attributes; it
compiles the rules against each catalog it is set up with (once per catalog).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from protopress.rules.actions import ActionCodec
from protopress.rules.chance import SharedChance
from protopress.rules.core import IllegalAction, RulesFault, top_seats
from protopress.rules.data.bags import row_of
from protopress.rules.data.build import compile_model
from protopress.rules.data.call import Functions
from protopress.rules.data.choices import answer, asked_actions, bind, listed
from protopress.rules.data.grid import empty_grid, free_cells, geometry_of
from protopress.rules.data.layout import Layout
from protopress.rules.data.load import RulesProblems, RulesSource
from protopress.rules.data.model import HOLE, ActionRule, DataState, GridChoice, Model, Seen
from protopress.rules.data.turns import begin, end_action, in_phase, last_round_over
from protopress.rules.data.view import table_view
from protopress.rules.information import FaceDown, FaceDownEach, Hidden, Private, SeatView
from protopress.rules.options import parse_options

# What an expression can raise on a value it cannot take (a field left empty in an
# addition, a division by zero): a fault of the rules, never an internal error.
SLIPS = (TypeError, ValueError, ZeroDivisionError, KeyError, IndexError, AttributeError,
         OverflowError, MemoryError)  # fmt: skip


class DataGame:
    """The engine of one rules file (class attributes set by `engine_class`)."""

    source: ClassVar[RulesSource]
    layout: ClassVar[Layout]
    actions: ClassVar[ActionCodec]
    seat_view: ClassVar[SeatView[DataState] | None]
    functions: ClassVar[Functions | None] = None  # of --rules-code, for `call` steps

    def __init__(self) -> None:
        self._compiled: tuple[Any, Model] | None = None

    def model(self, catalog: Any) -> Model:
        """The rules compiled against catalog (kept for the next game with the same one);
        InvalidInput locating each mistake in the rules file."""
        if self._compiled is not None and self._compiled[0] is catalog:
            return self._compiled[1]
        try:
            model = compile_model(self.source, self.layout, catalog, self.functions)
        except RulesProblems as problems:
            raise self.source.invalid(problems.findings) from None
        self._compiled = (catalog, model)
        self._by_kind = {rule.kind: rule for rule in model.actions}
        # each seat's own piles: base + seat * stride (a row's piles each one apart)
        self._own_piles = tuple((zone.first + place, zone.piles)
                                for zone in model.zones if zone.each
                                for place in range(zone.piles))  # fmt: skip
        return model

    @property
    def _model(self) -> Model:
        if self._compiled is None:
            raise RulesFault(f"{self.source.name}: the rules are used before a game is set up")
        return self._compiled[1]

    def setup(
        self, catalog: Any, players: int, rng: random.Random, options: Mapping[str, Any] | None
    ) -> DataState:
        model = self.model(catalog)
        chance = SharedChance(rng)
        piles: list[list[int]] = [[] for _ in range(model.piles)]
        for zone in model.zones:
            if zone.setup_all:
                pile = piles[zone.first]
                for card, kind in enumerate(model.cards.kinds):
                    if kind == zone.kind:
                        pile.extend([card] * model.cards.counts[card])
            if zone.shuffle:
                for seat in range(players if zone.each else 1):
                    chance.shuffle(zone.name, piles[zone.first + seat])
        chosen = parse_options(model.options, options or {})
        for zone in model.zones:
            if zone.grid is not None:
                for seat in range(players if zone.each else 1):
                    piles[zone.first + seat] = empty_grid(zone.grid, chosen)
        state = DataState(
            chance,
            chosen,
            piles,
            [[0] * len(model.resources) for _ in range(players)],
            players,
            used=[frozenset()] * players,
        )
        env = [None] * model.env_size
        try:
            model.setup(state, 0, env)
            self._close_slots(state)
            begin(model.turn, state, env)
            if not self.is_over(state):
                model.start(state, 0, env)
            self._note_used(state)
        except SLIPS as error:
            raise self._fault("setup", error) from error
        return state

    def _fault(self, method: str, error: Exception) -> RulesFault:
        """A rules file whose rules failed in play (an expression on a value it cannot
        take): the designer's to mend, named by file and method."""
        what = f"{type(error).__name__}: {error}"
        return RulesFault(f"{self.source.name}: the rules failed in {method}: {what}")

    def to_move(self, state: DataState) -> int | None:
        if state.asked is not None:  # a choice inside an action: its chooser's
            return state.asked.chooser
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state: DataState) -> list[Any]:
        if self.is_over(state):
            return []
        try:
            return self._legal(state)
        except SLIPS as error:
            raise self._fault("legal_actions", error) from error

    def _legal(self, state: DataState) -> list[Any]:
        if state.asked is not None:
            return asked_actions(state)
        model, seat = self._model, state.seat
        env: list[Any] = [None] * model.env_size
        found: list[Any] = []
        phased = bool(model.turn.phases)
        for rule in model.actions:
            condition, kind, slot = rule.condition, rule.kind, rule.slot
            if phased and not rule.ends_turn and not in_phase(model.turn, state, rule.verb):
                continue
            if rule.ends_turn:  # done: after an action, or when there is nothing else
                if state.acted or not found:
                    found.append(kind())
                continue
            if rule.option is not None:
                found.extend(listed(rule.option, state, seat, env))
                continue
            offer = rule.offer
            if rule.param is None:
                if condition is None or condition(state, seat, env):
                    if offer is None:
                        found.append(kind())
                    else:
                        found.extend(kind(*more) for more in offer.choices(state, seat, env))
            elif rule.source is None:
                for name in model.resources:
                    env[slot] = name
                    if condition is None or condition(state, seat, env):
                        if offer is None:
                            found.append(kind(name))
                        else:
                            found.extend(kind(name, *more) for more in offer.choices(state, seat, env))  # fmt: skip
            else:
                seen: set[int] = set()
                ids = model.cards.ids
                for place, card in enumerate(rule.source.pile(state, seat)):
                    if card == HOLE or (rule.distinct and card in seen):
                        continue
                    env[slot] = card
                    if condition is None or condition(state, seat, env):
                        seen.add(card)
                        chosen = place if rule.by_slot else ids[card]
                        if rule.grid is None:
                            if offer is None:
                                found.append(kind(chosen))
                            else:
                                found.extend(kind(chosen, *more) for more in offer.choices(state, seat, env))  # fmt: skip
                            continue
                        self._placements(rule, state, seat, env, chosen, found)
        return found

    def _placements(
        self, rule: ActionRule, state: DataState, seat: int, env: list[Any], chosen: Any,
        found: list[Any],
    ) -> None:  # fmt: skip
        """The actions placing the chosen card onto each cell it may go on (and each of
        its turns, turned as `match` reads it)."""
        grid, kind, offer = rule.grid, rule.kind, rule.offer
        assert grid is not None and grid.zone.grid is not None
        labels = geometry_of(grid.zone.grid, state.options).labels
        turns = grid.turns
        for turn, turned in ((0, 0),) if turns is None else turns.of[env[rule.slot]]:
            if turns is not None:
                env[turns.slot] = turned
            for cell in free_cells(grid, state, seat, env):
                where = (labels[cell],) if turns is None else (labels[cell], turn)
                if offer is None:
                    found.append(kind(chosen, *where))
                else:
                    env[grid.cell] = cell
                    found.extend(kind(chosen, *where, *more) for more in offer.choices(state, seat, env))  # fmt: skip

    def apply(self, state: DataState, action: Any) -> None:
        if state.asked is not None:
            try:
                answer(state, action)
            except SLIPS as error:
                raise self._fault("apply", error) from error
            self._after_action(state, False, [None] * self._model.env_size)
            return
        rule = self._by_kind.get(type(action)) if self._compiled is not None else None
        if rule is None or self.is_over(state):
            raise IllegalAction(f"unknown action {action!r}")
        model, seat = self._model, state.seat
        env: list[Any] = [None] * model.env_size
        if not rule.ends_turn and not in_phase(model.turn, state, rule.verb):
            raise IllegalAction(f"{action!r}: not an action of this phase")
        self._choose(rule, state, seat, action, env)
        try:
            if rule.condition is not None and not rule.condition(state, seat, env):
                raise IllegalAction(f"{action!r} is not allowed now")
            if rule.ends_turn and action not in self._legal(state):
                raise IllegalAction(f"{action!r}: a turn ends after an action")
            rule.steps(state, seat, env)
        except IllegalAction:
            raise
        except SLIPS as error:
            raise self._fault("apply", error) from error
        self._after_action(state, rule.ends_turn, env)

    def _after_action(self, state: DataState, done: bool, env: list[Any]) -> None:
        """Once an action's steps (and the choices inside it) are over: the turn goes on,
        or ends (done: the action `done`) and the next one starts."""
        if state.asked is not None:
            return  # a choice inside the action is open
        model, seat = self._model, state.seat
        try:
            self._close_slots(state)
            if not end_action(model.turn, state, seat, done, env):
                return  # the turn goes on: up to N actions
            if not self.is_over(state):
                model.start(state, state.seat, env)
            self._note_used(state)
        except IllegalAction:
            raise
        except SLIPS as error:
            raise self._fault("apply", error) from error

    def _choose(
        self, rule: ActionRule, state: DataState, seat: int, action: Any, env: list[Any]
    ) -> None:
        """Put the action's choice (and the place of a chosen card) in env; IllegalAction
        when there is no such choice."""
        if rule.option is not None:
            try:
                chosen = bind(rule.option, state, seat, env, action)
            except SLIPS as error:
                raise self._fault("apply", error) from error
            if not chosen:
                raise IllegalAction(f"{action!r} is not allowed now")
            return
        if rule.param is None:
            self._choose_offer(rule, state, seat, action, env)
            return
        value = action[0]
        if rule.source is None:
            if value not in self._model.resources:
                raise IllegalAction(f"{action!r}: no such resource")
            env[rule.slot] = value
            self._choose_offer(rule, state, seat, action, env)
            return
        pile = rule.source.pile(state, seat)
        if rule.by_slot:
            if not (isinstance(value, int) and 0 <= value < len(pile)) or pile[value] == HOLE:
                raise IllegalAction(f"{action!r}: no card in that slot")
            place = value
        else:
            ids = self._model.cards.ids
            place = next((i for i, card in enumerate(pile) if ids[card] == value), -1)
            if place < 0:
                raise IllegalAction(f"{action!r}: no such card there")
        env[rule.slot] = pile[place]
        env[rule.place] = place
        if rule.grid is not None:
            self._choose_cell(rule.grid, state, seat, action, env, rule.slot)
        self._choose_offer(rule, state, seat, action, env)

    def _choose_offer(
        self, rule: ActionRule, state: DataState, seat: int, action: Any, env: list[Any]
    ) -> None:
        """Put the action's offered choice (its last fields) in env; IllegalAction when
        it is not on offer."""
        offer = rule.offer
        if offer is None:
            return
        chosen = tuple(action[len(action) - 1 - len(offer.fields) : -1])
        try:
            on_offer = offer.bind(state, seat, chosen, env)
        except SLIPS as error:
            raise self._fault("apply", error) from error
        if not on_offer:
            raise IllegalAction(f"{action!r}: not on offer now")

    def _choose_cell(
        self, grid: GridChoice, state: DataState, seat: int, action: Any, env: list[Any],
        card: int,
    ) -> None:  # fmt: skip
        """Put the action's cell (and the card as turned) in env; IllegalAction when the
        card may not go there; card: the env slot of the chosen card."""
        assert grid.zone.grid is not None
        cell = geometry_of(grid.zone.grid, state.options).cells.get(action[1])
        if grid.turns is not None:
            turned = dict(grid.turns.of[env[card]]).get(action[2])
            if turned is None:
                raise IllegalAction(f"{action!r}: the card has no such turn")
            env[grid.turns.slot] = turned
        try:
            allowed = cell is not None and any(
                True for _ in free_cells(grid, state, seat, env, cell)
            )
        except SLIPS as error:
            raise self._fault("apply", error) from error
        if not allowed:
            raise IllegalAction(f"{action!r}: the card may not be placed on that cell")
        env[grid.cell] = cell

    def _close_slots(self, state: DataState) -> None:
        """A slot emptied and not refilled closes: the row is one card shorter."""
        for zone in self._model.zones:
            if zone.slots is not None:
                pile = state.piles[zone.first]
                if HOLE in pile:
                    pile[:] = [card for card in pile if card != HOLE]

    def _note_used(self, state: DataState) -> None:
        """Add to each seat's used cards those its own zones hold now (after setup and
        after each turn): the balance lab's per-component record."""
        piles, used = state.piles, state.used
        for seat in range(state.players):
            held = used[seat]
            for base, stride in self._own_piles:
                pile = piles[base + seat * stride]
                if not held.issuperset(pile):  # HOLE may join: the record leaves it out
                    used[seat] = held = held.union(pile)

    def is_over(self, state: DataState) -> bool:
        if state.asked is not None:  # the end is checked between turns
            return False
        model = self._model
        env: list[Any] = [None] * model.env_size
        try:
            return last_round_over(model.turn, state) or any(
                end(state, state.seat, env) for end in model.end
            )
        except SLIPS as error:
            raise self._fault("is_over", error) from error

    def scores(self, state: DataState) -> list[int]:
        return [self._score(state, seat) for seat in range(state.players)]

    def _score(self, state: DataState, seat: int) -> int:
        model = self._model
        env: list[Any] = [None] * model.env_size
        total = 0
        for line in model.score:
            try:
                value = line.value(state, seat, env)
            except SLIPS as error:
                raise self._fault(f"score line {line.name!r}", error) from error
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesFault(
                    f"{model.name}: score line {line.name!r} gave {value!r}, not a whole number"
                )
            total += value
        return total

    def observation(self, state: DataState, seat: int) -> dict[str, Any]:
        """What the playtest table draws for seat: zones by name with card ids, hidden
        ones as counts (rules/data/view.py)."""
        return table_view(self._model, state, seat)

    def score_lines(self, state: DataState, seat: int) -> list[tuple[str, int]]:
        """Each named line of the score of seat (as `protopress score` shows them)."""
        env: list[Any] = [None] * self._model.env_size
        return [(line.name, line.value(state, seat, env)) for line in self._model.score]

    def winners(self, state: DataState) -> list[int]:
        return top_seats(self.scores(state))

    def heuristic(self, state: DataState, seat: int) -> float:
        model = self._model
        if model.value is None:
            return float(self._score(state, seat))
        try:
            return float(model.value(state, seat, [None] * model.env_size))
        except SLIPS as error:
            raise self._fault("the bots' value", error) from error

    def record(self, state: DataState) -> dict[str, Any]:
        """The cards in each zone of each player at the end, by id, and `used`: per seat,
        every card its zones held at the end of setup or of a turn (sorted ids), from
        which the balance lab reports each component's effect."""
        model = self._model
        ids = model.cards.ids

        def named(pile: int) -> list[str | None]:
            return [ids[card] if card != HOLE else None for card in state.piles[pile]]

        zones = {
            zone.name: [named(zone.pile(seat)) if zone.piles == 1
                        else [named(pile) for pile in row_of(zone, seat)]
                        for seat in range(state.players)]
            for zone in model.zones
            if zone.each
        }  # fmt: skip
        used = [sorted({ids[card] for card in cards if card != HOLE}) for cards in state.used]
        return {**zones, "used": used}


def seat_view_of(layout: Layout) -> SeatView[DataState] | None:
    """What each seat cannot see, from each zone's `seen`: a face-down pile's order
    (FaceDown), the cards in the other players' zones seen by their owner (Private,
    pooled with the face-down pile of the same kind when there is exactly one; the
    zones pooled with one pile, a hand and a face-down pick, hidden as one)."""
    hidden: list[Hidden[DataState]] = []
    piles = {zone.kind: [] for zone in layout.zones}  # type: dict[str, list[FaceDown[DataState]]]
    pooled: dict[str, int] = {}  # a pool's name -> the place of its Private in hidden
    for zone in layout.zones:
        if zone.seen is Seen.NOBODY and not zone.each and not zone.bag:  # a bag has no order
            piles[zone.kind].append(FaceDown(zone.name, _pile_at(zone.first)))
    for zone in layout.zones:
        if zone.seen is Seen.OWNER and zone.each:
            pools = piles[zone.kind]
            pool = pools[0] if len(pools) == 1 else None
            if pool is None:
                hidden.append(Private(zone.name, _piles_of(zone.first)))
            elif pool.name in pooled:
                place = pooled[pool.name]
                first = hidden[place]
                assert isinstance(first, Private)
                hidden[place] = replace(first, also=(*first.also, _piles_of(zone.first)))
            else:
                pooled[pool.name] = len(hidden)
                hidden.append(Private(zone.name, _piles_of(zone.first), pool))
        elif zone.seen is Seen.NOBODY and zone.each:
            hidden.append(FaceDownEach(zone.name, _each_pile(zone.first)))
    hidden[:0] = [p for kind in piles.values() for p in kind if p.name not in pooled]
    return SeatView(tuple(hidden)) if hidden else None


def _pile_at(first: int) -> Any:
    def pile(state: DataState) -> list[int]:
        return state.piles[first]

    return pile


def _piles_of(first: int) -> Any:
    def zones(state: DataState) -> Sequence[list[int]]:
        return state.piles[first : first + state.players]

    return zones


def _each_pile(first: int) -> Any:
    def piles(state: DataState) -> dict[str, list[int]]:
        return {str(seat): state.piles[first + seat] for seat in range(state.players)}

    return piles

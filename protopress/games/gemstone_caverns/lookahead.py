"""Gemstone Caverns' bot support: the greedy look-ahead without copies and the
search's playout policy, declared as SUPPORT (rules/bot_support.py).

A greedy bot judges ~350 placements and ~114 arrangements a decision. Copying
the state, placing and flood-filling the grid for each is what made the game
slow; the functions below give the same heuristic values from one analysis of
the seat's grid (tests/games/gemstone_caverns/test_fast.py checks that they
agree with apply + heuristic on thousands of random positions).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, TypeGuard, cast

from protopress.games.gemstone_caverns.actions import (
    ACTIONS,
    PASS,
    Arrange,
    CavernsAction,
    Place,
)
from protopress.games.gemstone_caverns.fit import (
    FIT_BONUS,
    NEAR_BONUS,
    _Fits,
    _roll_summed,
    _Summed,
    _summed,
)
from protopress.games.gemstone_caverns.grid import (
    Cells,
    GridValue,
    Placements,
    Scoring,
    _arrangements,
    _cached,
    _judge,
    _kin,
    _neighbours,
    _place_actions,
    _placements,
)
from protopress.games.gemstone_caverns.rules import GemstoneCaverns, GemstoneState
from protopress.rules.bot_support import ActionValues, BestActions, BotSupport
from protopress.rules.bots import greedy_action, reference_values
from protopress.rules.core import Action, IllegalAction


class _Spot(NamedTuple):
    """One placement of an arrangement: what it covers and the groups its dice form
    among themselves. Dice are named by the first die of their symbol (`kin`), so
    that arrangements alike but for which symbols they show share one table."""

    mask: int  # boxes covered
    joins: int  # per kin k, the boxes of its dice, shifted by k * the grid's boxes
    parts: tuple[tuple[int, tuple[int, ...]], ...]  # (kin, boxes) per group of the dice alone
    kind: int  # index of the parts' sizes among the table's (placements joining no group)


class _Spots(NamedTuple):
    by_action: dict[CavernsAction, _Spot]  # every placement action, and the pass
    sizes: tuple[tuple[int, ...], ...]  # the parts' sizes of each kind of spot
    in_order: tuple[_Spot, ...]  # the placements' spots in _place_actions' order (bit i:
    # the i-th, as in grid.Placements)
    of_kind: tuple[int, ...]  # per kind: the bits of the placements of that kind


@lru_cache(maxsize=256)
def _spots(cells: Cells, kin: tuple[int, ...], rows: int, cols: int) -> _Spots:
    """Every placement action of an arrangement of the shape cells whose dice show
    symbols alike as kin says, with its _Spot."""
    neighbours = _neighbours(rows, cols)
    boxes = rows * cols
    kinds: dict[tuple[int, ...], int] = {(): 0}  # the pass covers nothing
    table: dict[CavernsAction, _Spot] = {PASS: _Spot(0, 0, (), 0)}
    in_order = []
    for (mask, action), (_, inside) in zip(
        (pair for turn in _place_actions(cells, rows, cols) for pair in turn),
        (spot for turn in _placements(cells, rows, cols) for spot in turn.values()),
        strict=True,
    ):
        kin_of = {box: kin[k] for k, box in inside}
        joins = 0
        for box, same in kin_of.items():
            joins |= 1 << (box + same * boxes)
        parts, seen = [], set()
        for box, same in kin_of.items():
            if box in seen:
                continue
            seen.add(box)
            part = [box]
            for b in part:
                for other in neighbours[b]:
                    if kin_of.get(other) == same and other not in seen:
                        seen.add(other)
                        part.append(other)
            parts.append((same, tuple(part)))
        sizes = tuple(sorted(len(part) for _, part in parts))
        kind = kinds.setdefault(sizes, len(kinds))
        table[action] = _Spot(mask, joins, tuple(parts), kind)
        in_order.append(table[action])
    of_kind = [0] * len(kinds)
    for bit, spot in enumerate(in_order):
        of_kind[spot.kind] |= 1 << bit
    return _Spots(table, tuple(kinds), tuple(in_order), tuple(of_kind))


@lru_cache(maxsize=64)
def _die_at(cells: Cells, rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per die k, per byte of a grid's mask: per value, the bits (as in
    grid.Placements) of the placements that put die k on one of those boxes."""
    boxes = rows * cols
    at = [[0] * boxes for _ in cells]  # per die, per box: the placements putting it there
    spots = (spot for turn in _placements(cells, rows, cols) for spot in turn.values())
    for bit, (_, inside) in enumerate(spots):
        for k, box in inside:
            at[k][box] |= 1 << bit
    tables = []
    for per_box in at:
        chunks = []
        for first in range(0, boxes, 8):
            eight = per_box[first : first + 8] + [0] * max(0, first + 8 - boxes)
            values = [0] * 256
            for value in range(1, 256):  # a value's bits: its lowest box's and the rest's
                values[value] = (
                    values[value & (value - 1)] | eight[(value & -value).bit_length() - 1]
                )
            chunks.append(tuple(values))
        tables.append(tuple(chunks))
    return tuple(tables)


@lru_cache(maxsize=8)
def _worth(scoring: Scoring, boxes: int) -> tuple[GridValue, ...]:
    """What a group of each size 0..boxes adds, as _value_of counts them."""
    low = scoring.min_group
    return tuple(
        GridValue(scoring.per_group + size * scoring.per_box, 0)
        if size >= low
        else GridValue(0, size if size >= low - 2 else 0)
        for size in range(boxes + 1)
    )


class _Placing:
    """What judging the placements of one decision shares: the seat's grid labelled
    into groups, the empty boxes beside each group, and the value of a placement
    that joins none, per kind of spot."""

    def __init__(self, state: GemstoneState, seat: int):
        t = state.table
        if state.arrangement is None:
            raise ValueError("the dice are not arranged yet")
        grid, neighbours = state.grids[seat], t.neighbours
        judged = _judge(state, seat)
        labels, self.groups = judged.labels, judged.groups
        self.score, self.near = score, near = judged.value
        others = [_cached(state, s).score for s in range(t.players) if s != seat]
        self.rival = max(others) if others else None
        self.worth = worth = _worth(t.scoring, len(grid))
        self.stride = stride = len(t.symbols) + 1
        self.codes = codes = state.codes
        wanted = set(codes)  # only groups of the arrangement's symbols can be joined
        near_of: dict[int, int] = {}  # by box * stride + code: the groups of code beside box,
        # bit g for the g-th group
        beside = [0] * stride  # per code: empty boxes beside a group of it
        for box, code in enumerate(grid):
            if code in wanted:
                group = 1 << labels[box]
                for other in neighbours[box]:
                    if not grid[other]:
                        beside[code] |= 1 << other
                        key = other * stride + code
                        near_of[key] = near_of.get(key, 0) | group
        self.near_of, self.beside = near_of, beside
        kin = _kin(codes)
        self.cells, self.rows, self.cols = state.arrangement.cells, t.rows, t.cols
        self.spots = spots = _spots(self.cells, kin, t.rows, t.cols)
        # the boxes beside each kin's groups, laid out as _Spot.joins: one AND tells
        # whether a placement joins any group
        self.beside_kin = sum(beside[codes[k]] << k * len(grid) for k in set(kin))
        self.quick = []  # the value of a placement joining no group, per kind of spot
        for sizes in spots.sizes:
            s, n = score, near
            for size in sizes:
                s, n = s + worth[size].score, n + worth[size].near
            self.quick.append(self._less_rival(s + NEAR_BONUS * n))  # the heuristic's sum

    def _less_rival(self, value: float) -> float:
        return value if self.rival is None else value - self.rival

    def joined(self, spot: _Spot) -> float:
        """The value of a placement whose dice join groups of the grid: (score, near)
        once the dice's parts join the groups beside them (two parts beside one
        group become one group). Groups are bits of an integer (bit g the grid's
        g-th group), so joining them is an OR."""
        score, near, worth, near_of = self.score, self.near, self.worth, self.near_of
        codes, stride = self.codes, self.stride
        merged: list[tuple[int, int]] = []  # (dice, groups joined) per new group
        for kin, part in spot.parts:
            code = codes[kin]
            joined = 0
            for box in part:
                joined |= near_of.get(box * stride + code, 0)
            dice = len(part)
            if not joined:  # a part alone: no other part shares a group with it
                gain = worth[dice]
                score, near = score + gain.score, near + gain.near
                continue
            kept = []
            for other_dice, other_groups in merged:
                if other_groups & joined:
                    dice += other_dice
                    joined |= other_groups
                else:
                    kept.append((other_dice, other_groups))
            kept.append((dice, joined))
            merged = kept
        groups = self.groups
        for dice, joined in merged:
            size = dice
            while joined:
                low = joined & -joined
                joined ^= low
                _, old_size = groups[low.bit_length() - 1]
                old = worth[old_size]
                score, near = score - old.score, near - old.near
                size += old_size
            gain = worth[size]
            score, near = score + gain.score, near + gain.near
        value = score + NEAR_BONUS * near  # the heuristic's own sum, so ties stay ties
        return value if self.rival is None else value - self.rival

    def value(self, spot: _Spot) -> float:
        return self.joined(spot) if spot.joins & self.beside_kin else self.quick[spot.kind]

    def joining(self) -> int:
        """The bits (as in grid.Placements) of the placements whose dice join a group:
        a table look-up per die and byte of the boxes beside its symbol's groups."""
        bits = 0
        for k, tables in enumerate(_die_at(self.cells, self.rows, self.cols)):
            beside = self.beside[self.codes[k]]
            for chunk, values in enumerate(tables):
                bits |= values[beside >> 8 * chunk & 0xFF]
        return bits


def placement_values(
    state: GemstoneState, seat: int, actions: Sequence[CavernsAction]
) -> list[float]:
    """heuristic(seat) after each of seat's placement actions (or the pass), as copying
    the state, applying the action and scoring would give it, without copying: one
    labelling of the grid, then per placement only the groups its dice join."""
    placing = _Placing(state, seat)
    by_action = placing.spots.by_action
    try:
        chosen = [by_action[action] for action in actions]
    except KeyError as error:
        raise IllegalAction(
            f"{ACTIONS.words(error.args[0])} is no placement of the arrangement"
        ) from None
    value = placing.value
    return [value(spot) for spot in chosen]


def placement_best(state: GemstoneState, seat: int, actions: Placements) -> list[Place]:
    """The placements of the highest placement_values, in order, judged by kind: the
    placements joining no group are valued per kind of spot (a bit mask each), so
    only the dozen or so that join a group are judged one by one."""
    placing = _Placing(state, seat)
    joining = placing.joining() & actions.clear
    alone = actions.clear & ~joining
    values: dict[float, int] = {}  # value: the bits of the placements that have it
    for kind, bits in enumerate(placing.spots.of_kind):
        bits &= alone
        if bits:
            value = placing.quick[kind]
            values[value] = values.get(value, 0) | bits
    in_order = placing.spots.in_order
    while joining:
        low = joining & -joining
        joining ^= low
        value = placing.joined(in_order[low.bit_length() - 1])
        values[value] = values.get(value, 0) | low
    return list(Placements(actions.actions, values[max(values)]))


def arrangement_values(state: GemstoneState, seat: int, actions: Sequence[Arrange]) -> list[float]:
    """heuristic(seat) after each Arrange action of the active seat, as apply +
    heuristic on a copy would give it: the grid's value is the same for all, only
    the best fit differs, and _Fits judges every placement of a shape at once."""
    t = state.table
    score, near = _cached(state, seat)
    others = [_cached(state, s).score for s in range(t.players) if s != seat]
    base = score + NEAR_BONUS * near
    rival = max(others) if others else 0
    values = [
        base + FIT_BONUS * fit  # the heuristic's own order of additions
        for fit in _Fits(state, seat).best(_with_facts(state, actions))
    ]
    return [value - rival for value in values] if others else values


def arrangement_best(state: GemstoneState, seat: int, actions: Sequence[Arrange]) -> list[Arrange]:
    """The arrangements of the highest arrangement_values, in order: the grid's
    value and the rival's are the same for all, and the value rises with the best
    fit (by FIT_BONUS, far above a float's rounding), so they are those of the
    largest fit."""
    tied = _Fits(state, seat).tied(_with_facts(state, actions))
    return [actions[index] for index in tied]


def _with_facts(state: GemstoneState, actions: Sequence[Arrange]) -> Sequence[_Summed]:
    """_summed of each Arrange action."""
    t = state.table
    rolled = tuple(sorted(state.rolled))
    if actions == list(_arrangements(rolled)):  # all of them, as the greedy bot asks
        return _roll_summed(rolled, t.symbols, t.rows, t.cols, len(t.dice))
    return [
        _summed(arrangement.cells, arrangement.symbols, t.symbols, t.rows, t.cols, len(t.dice))
        for arrangement in actions
    ]


def _arrangements_only(actions: Sequence[CavernsAction]) -> TypeGuard[Sequence[Arrange]]:
    """True: every action is an arrangement, as every legal one is before the dice are
    arranged; any other action is refused (IllegalAction naming it), never valued."""
    for action in actions:
        if not isinstance(action, Arrange):
            raise IllegalAction(f"{ACTIONS.words(action)} is no arrangement of the roll")
    return True


def action_values(
    game: GemstoneCaverns, state: GemstoneState, seat: int, actions: Sequence[CavernsAction]
) -> list[float]:
    """heuristic(seat) after each of the actions of the seat to move, as applying
    each to a copy would give it (the greedy bot's look-ahead, without the copies)."""
    if seat == game.to_move(state):
        if state.arrangement is None and _arrangements_only(actions):
            return arrangement_values(state, seat, actions)
        return placement_values(state, seat, actions)
    return reference_values(game, state, seat, actions)


def best_actions(
    game: GemstoneCaverns, state: GemstoneState, seat: int, actions: Sequence[CavernsAction]
) -> Sequence[CavernsAction]:
    """The actions of the highest action_values, in their order (the greedy bot's
    ties), found without valuing each: arrangements by their best fits alone,
    placements joining no group by their kind."""
    if seat == game.to_move(state) and len(actions) > 1:
        if state.arrangement is None and _arrangements_only(actions):
            return arrangement_best(state, seat, actions)
        shown = state.place_table.shown if state.place_table else ()
        if isinstance(actions, Placements) and actions.actions is shown[state.turns_shown]:
            return placement_best(state, seat, actions)
    values = action_values(game, state, seat, actions)
    best = max(values)
    return [action for action, value in zip(actions, values, strict=True) if value == best]


def playout_policy(game: GemstoneCaverns, state: GemstoneState, rng: random.Random) -> Action:
    """The search bot's playout move: the greedy bot's (by the fast action_values).
    Played to the end of the turn, it judges an arrangement by how both players
    then place it, not by the roller's fit alone (docs/balance.md)."""
    return greedy_action(game, state, rng)


# BotSupport's callables take any game's actions (plain tuples too): these take this
# game's alone, which mypy cannot see from the signatures, hence the casts
SUPPORT = BotSupport(
    action_values=cast(ActionValues, action_values),
    best_actions=cast(BestActions, best_actions),
    playout_policy=playout_policy,
)

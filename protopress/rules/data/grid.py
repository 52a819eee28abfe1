"""Board grids: square and hex cells, their neighbours, free cells a tile may be placed
on, and the grid scores (largest connected group, adjacent pairs, rows and columns).

A grid's pile holds one place per cell, row by row from the top left (`HOLE`: a free
cell). A cell is named in logs as on a chess board: its column's letter and its row's
number from 1 (`a1` is the top left, `c2` the third cell of the second row).

Square cells touch on 4 sides (n, e, s, w). Hex cells are pointy-topped in rows, every
second row (the 2nd, 4th, ...) shifted half a cell right, and touch on 6 sides (ne, e,
se, sw, w, nw). Two cells are neighbours when they share a side: a group is connected
through sides, never corners.

A tile an action may turn (`rotate: true`) is, turned, a card of its own: the same id
and fields, its side fields turned clockwise (`with_turns`), so `match`, `edge` and the
grid scores read a placed tile as it lies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.load import Finding
from protopress.rules.data.model import (
    HOLE,
    CardTable,
    Compiled,
    DataState,
    GridChoice,
    GridSpec,
    Seen,
    Zone,
)
from protopress.rules.options import Option, OptionType

SHAPES = ("square", "hex")
MAX_SIDE = 16  # cells along a grid's width or height
SIDES: dict[str, tuple[str, ...]] = {
    "square": ("n", "e", "s", "w"),
    "hex": ("ne", "e", "se", "sw", "w", "nw"),
}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e", "ne": "sw", "sw": "ne", "se": "nw", "nw": "se"}
# (column step, row step) of each side; a hex row's steps depend on whether it is shifted
_SQUARE = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
_HEX_EVEN = {"ne": (0, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
_HEX_ODD = {"ne": (1, -1), "e": (1, 0), "se": (1, 1), "sw": (0, 1), "w": (-1, 0), "nw": (0, -1)}


@dataclass(frozen=True)
class Touch:
    """A neighbour of a cell: the side it lies on, the side it faces back, its cell."""

    side: str
    facing: str
    cell: int


@dataclass(frozen=True)
class Geometry:
    """The cells of a grid of one shape and size, and each cell's neighbours."""

    shape: str
    width: int
    height: int
    touching: tuple[tuple[Touch, ...], ...]  # per cell, in side order
    labels: tuple[str, ...]  # per cell: a1, b1, ...
    cells: Mapping[str, int]  # label -> cell

    @property
    def size(self) -> int:
        return self.width * self.height

    def rows(self) -> Iterator[range]:
        for row in range(self.height):
            yield range(row * self.width, (row + 1) * self.width)

    def columns(self) -> Iterator[range]:
        for column in range(self.width):
            yield range(column, self.size, self.width)


@cache
def geometry(shape: str, width: int, height: int) -> Geometry:
    """The geometry of a grid (made once per shape and size)."""
    touching = []
    for row in range(height):
        steps = _SQUARE if shape == "square" else _HEX_ODD if row % 2 else _HEX_EVEN
        for column in range(width):
            near = []
            for side in SIDES[shape]:
                dx, dy = steps[side]
                x, y = column + dx, row + dy
                if 0 <= x < width and 0 <= y < height:
                    near.append(Touch(side, OPPOSITE[side], y * width + x))
            touching.append(tuple(near))
    labels = tuple(f"{chr(ord('a') + c)}{r + 1}" for r in range(height) for c in range(width))
    return Geometry(shape, width, height, tuple(touching), labels,
                    {label: i for i, label in enumerate(labels)})  # fmt: skip


def size_of(value: int | str, options: Mapping[str, Any]) -> int:
    """A grid's width or height: a number, or the value of the whole option it names."""
    size = value if isinstance(value, int) else options.get(value)
    if not isinstance(size, int) or not 1 <= size <= MAX_SIDE:
        raise RulesFault(f"a grid's side is 1 to {MAX_SIDE} cells, not {size!r}")
    return size


_MADE: dict[tuple[str, Any, Any], Geometry] = {}  # (shape, width, height) -> checked geometry


def geometry_of(spec: GridSpec, options: Mapping[str, Any]) -> Geometry:
    """The geometry of a grid in a game with these options (read on every move: the
    sizes are looked up, and checked only the first time)."""
    width = spec.width if isinstance(spec.width, int) else options.get(spec.width)
    height = spec.height if isinstance(spec.height, int) else options.get(spec.height)
    made = _MADE.get((spec.shape, width, height))
    if made is None:
        made = geometry(spec.shape, size_of(spec.width, options), size_of(spec.height, options))
        _MADE[(spec.shape, width, height)] = made
    return made


def empty_grid(spec: GridSpec, options: Mapping[str, Any]) -> list[int]:
    """A grid's pile at setup: every cell free."""
    return [HOLE] * geometry_of(spec, options).size


def free_cells(
    choice: GridChoice, state: DataState, seat: int, env: list[Any], only: int | None = None
) -> Iterator[int]:
    """The cells where the card in env may be placed (of them, `only` when given): free;
    touching a placed tile when the rules say `touch` and the grid holds one; `match`
    true for every placed neighbour."""
    assert choice.zone.grid is not None
    board = choice.pile(state, seat)
    shape = geometry_of(choice.zone.grid, state.options)
    match, touch = choice.match, choice.touch and any(card != HOLE for card in board)
    for cell in range(shape.size) if only is None else (only,):
        if board[cell] != HOLE:
            continue
        touched, allowed = False, True
        for other in shape.touching[cell]:
            card = board[other.cell]
            if card == HOLE:
                continue
            touched = True
            if match is not None:
                env[choice.neighbour], env[choice.side], env[choice.facing] = (
                    card, other.side, other.facing,
                )  # fmt: skip
                if not match(state, seat, env):
                    allowed = False
                    break
        if allowed and (touched or not touch):
            yield cell


# --- scores: each a closure of (state, seat, env), as compiled expressions are ---


def largest_group(spec: GridSpec, board: Compiled, slot: int, test: Compiled | None) -> Compiled:
    """The size of the largest group of side-connected cells whose card passes test."""

    def largest(state: DataState, seat: int, env: list[Any]) -> int:
        pile = board(state, seat, env)
        shape = geometry_of(spec, state.options)
        member = [False] * len(pile)
        for cell, card in enumerate(pile):
            if card != HOLE:
                env[slot] = card
                member[cell] = test is None or bool(test(state, seat, env))
        best = 0
        for start in range(len(pile)):
            if not member[start]:
                continue
            member[start], todo, size = False, [start], 0
            while todo:
                cell = todo.pop()
                size += 1
                for other in shape.touching[cell]:
                    if member[other.cell]:
                        member[other.cell] = False
                        todo.append(other.cell)
            best = max(best, size)
        return best

    return largest


def adjacent_pairs(spec: GridSpec, board: Compiled, first: int, second: int, test: Compiled) -> Compiled:  # fmt: skip
    """How many pairs of placed cards sharing a side pass test (each pair once, the
    card nearer the top left first)."""

    def pairs(state: DataState, seat: int, env: list[Any]) -> int:
        pile = board(state, seat, env)
        shape = geometry_of(spec, state.options)
        found = 0
        for cell, card in enumerate(pile):
            if card == HOLE:
                continue
            for other in shape.touching[cell]:
                if other.cell > cell and pile[other.cell] != HOLE:
                    env[first], env[second] = card, pile[other.cell]
                    if test(state, seat, env):
                        found += 1
        return found

    return pairs


def lines(spec: GridSpec, board: Compiled, slot: int, value: Compiled, by_row: bool) -> Compiled:
    """The sum of value over the grid's rows (or columns), each as the list of its
    placed cards."""
    cut: Callable[[Geometry], Iterator[range]] = Geometry.rows if by_row else Geometry.columns

    def total(state: DataState, seat: int, env: list[Any]) -> int:
        pile = board(state, seat, env)
        result = 0
        for line in cut(geometry_of(spec, state.options)):
            env[slot] = [pile[cell] for cell in line if pile[cell] != HOLE]
            result += value(state, seat, env)
        return result

    return total


# --- checks of the rules file alone ---


def grid_spec(given: Mapping[str, Any] | None) -> GridSpec | None:
    """The grid a zone's `grid` declares (its schema is checked already)."""
    if given is None:
        return None
    return GridSpec(given["shape"], given["width"], given["height"])


def grid_findings(zones: Iterable[Zone], options: Iterable[Option]) -> Iterator[Finding]:
    """A grid sized by an option that is not a whole option from 1 to MAX_SIDE; a grid
    that is also a row of slots, starts full, or is not seen by everyone (the bots'
    imagined deals know nothing of free cells)."""
    known = {option.name: option for option in options}
    for zone in zones:
        if zone.grid is None:
            continue
        at = pointer_of(["zones", zone.name])
        if zone.slots is not None or zone.setup_all or zone.shuffle:
            yield Finding(at + "/grid", "a grid starts empty: no slots, setup or shuffle")
        if zone.seen is not Seen.EVERYONE:
            yield Finding(at + "/seen", "a grid is seen by everyone: write seen: everyone")
        for side in ("width", "height"):
            value = getattr(zone.grid, side)
            if isinstance(value, int):
                continue
            option = known.get(value)
            if option is None:
                hint = did_you_mean(value, known)
                yield Finding(f"{at}/grid/{side}", f"{value!r} is not an option of these rules{hint}")  # fmt: skip
            elif option.type is not OptionType.WHOLE or not (
                option.minimum is not None and option.minimum >= 1
                and option.maximum is not None and option.maximum <= MAX_SIDE
            ):  # fmt: skip
                message = f"a grid's {side} is a whole option with min >= 1 and max <= {MAX_SIDE}"
                yield Finding(f"{at}/grid/{side}", message)


# --- tiles turned as they are placed ---

TurnsOf = dict[int, tuple[tuple[int, int], ...]]  # card -> ((turns, turned card), ...)


def turned_kinds(choose: Mapping[str, Any], zones: Mapping[str, Zone]) -> set[tuple[str, str]]:
    """(kind, grid shape) of each tile an action may turn (`rotate: true` onto a grid)."""
    wanted = set()
    for given in choose.values():
        onto = given.get("onto")
        zone = zones.get(onto.removeprefix("my.")) if isinstance(onto, str) else None
        if given.get("rotate") is True and zone is not None and zone.grid is not None:
            wanted.add((zone.kind, zone.grid.shape))
    return wanted


def with_turns(
    cards: CardTable, wanted: Iterable[tuple[str, str]]
) -> tuple[CardTable, dict[tuple[str, str], TurnsOf]]:
    """The card table with a card for each distinct turn of each tile of these kinds on
    grids of these shapes (after every card of the catalog: the same id and fields, its
    side fields turned clockwise), and each tile's turns. A tile whose sides are alike
    turned has that turn once (a tile of four alike sides: no turn)."""
    ids, kinds = list(cards.ids), list(cards.kinds)
    fields = {name: list(values) for name, values in cards.fields.items()}
    counts, turned = dict(cards.counts), dict(cards.turned)
    found: dict[tuple[str, str], TurnsOf] = {}
    for kind, shape in sorted(wanted):
        sides = SIDES[shape]
        if not cards.kind_fields.get(kind, frozenset()).issuperset(sides):
            continue  # found where the action turns it
        of: TurnsOf = {}
        for card in range(len(cards.ids)):
            if cards.kinds[card] != kind or card in cards.turned:
                continue
            edges = tuple(cards.fields[side][card] for side in sides)
            seen, turns = {edges}, [(0, card)]
            for step in range(1, len(sides)):
                turned_edges = edges[-step:] + edges[:-step]  # side i shows side i - step
                if turned_edges in seen:
                    continue
                seen.add(turned_edges)
                made = len(ids)
                ids.append(cards.ids[card])
                kinds.append(kind)
                for values in fields.values():
                    values.append(values[card])
                for side, value in zip(sides, turned_edges, strict=True):
                    fields[side][made] = value
                counts[made], turned[made] = 0, card
                turns.append((step, made))
            of[card] = tuple(turns)
        found[(kind, shape)] = of
    table = CardTable(tuple(ids), tuple(kinds), {n: tuple(v) for n, v in fields.items()},
                      cards.field_kinds, cards.kind_fields, cards.first, counts, turned)  # fmt: skip
    return table, found

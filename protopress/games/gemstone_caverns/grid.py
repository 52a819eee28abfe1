"""Gemstone Caverns' shapes, their placements on a grid and a grid's groups: the
geometry both the rules (rules.py) and the look-ahead (lookahead.py) stand on.

A grid is a flat bytearray (0 an empty box, i + 1 the catalog's i-th symbol)
with an integer bitmask of filled boxes beside it, so that a placement's
legality is one AND.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from itertools import compress, permutations
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from protopress.games.gemstone_caverns.actions import Arrange, Cell, Place
from protopress.games.gemstone_caverns.checks import polyominoes, rotations, shape_name

if TYPE_CHECKING:
    from protopress.games.gemstone_caverns.rules import GemstoneState

Cells = tuple[Cell, ...]  # a shape's cells, in its canonical orientation
Symmetries = tuple[tuple[int, ...], ...]  # per quarter turn mapping a shape onto itself: the
# permutation sending cell k to cells[perm[k]]
Inside = tuple[tuple[int, int], ...]  # (cell, box) of each cell of a placement on the grid
Spots = dict[tuple[int, int], tuple[int, Inside]]  # per (row, column): (mask, inside)
Places = dict[Place, tuple[int, Inside]]  # per Place action: (mask, inside)


class Scoring(NamedTuple):
    min_group: int
    per_group: int
    per_box: int


def _scoring(scoring: Scoring | dict[str, Any]) -> Scoring:
    if isinstance(scoring, Scoring):
        return scoring
    return Scoring(scoring["min_group"], scoring["per_group"], scoring["per_box"])


# --- geometry --------------------------------------------------------------


def _turn(cells: Collection[Cell], times: int) -> Cells:
    """Cells turned clockwise `times` quarter turns, in the same order, top-left at (0, 0)."""
    for _ in range(times):
        cells = [(c, -r) for r, c in cells]
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple((r - top, c - left) for r, c in cells)


@lru_cache(maxsize=8)
def _shapes(dice: int) -> tuple[tuple[Cells, str, Symmetries], ...]:
    """(cells, name, symmetries) per one-sided polyomino of `dice` cells.

    cells are sorted in the canonical orientation of gemstone_checks; each
    symmetry is a quarter turn mapping the shape onto itself, as the
    permutation sending cell k to cells[perm[k]].
    """
    shapes = []
    for shape in polyominoes(dice):
        cells = tuple(sorted(shape))
        step = len(rotations(shape))  # the turns that map a shape onto itself: multiples of step
        symmetries = tuple(
            tuple(cells.index(cell) for cell in _turn(cells, times)) for times in range(0, 4, step)
        )
        shapes.append((cells, shape_name(shape), symmetries))
    return tuple(shapes)


def _relabel(labels: tuple[Any, ...], perm: tuple[int, ...]) -> tuple[Any, ...]:
    turned: list[Any] = [None] * len(labels)
    for k, target in enumerate(perm):
        turned[target] = labels[k]
    return tuple(turned)


@lru_cache(maxsize=512)
def _arrangements(rolled: tuple[str, ...]) -> tuple[Arrange, ...]:
    """Every distinct arrangement of the rolled faces (sorted), one per class of rotations."""
    actions = []
    for cells, _, symmetries in _shapes(len(rolled)):
        for labels in sorted(set(permutations(rolled))):
            # keep the least labelling among those the shape's symmetries give
            if all(_relabel(labels, perm) >= labels for perm in symmetries):
                actions.append(Arrange(cells, labels))
    return tuple(actions)


@lru_cache(maxsize=8)
def _by_cells(dice: int) -> dict[Cells, tuple[str, Symmetries]]:
    """{cells: (name, symmetries)} of the shapes of `dice` cells."""
    return {cells: (name, symmetries) for cells, name, symmetries in _shapes(dice)}


@lru_cache(maxsize=4096)
def _distinct_turns(cells: Cells, labels: tuple[Any, ...]) -> int:
    """How many quarter turns (0, 1, ...) give different labelled placements (labels
    may be symbols, codes or kin: only which dice are alike counts)."""
    _, symmetries = _by_cells(len(cells))[cells]
    return 4 // sum(_relabel(labels, perm) == labels for perm in symmetries)


@lru_cache(maxsize=64)
def _placements(cells: Cells, rows: int, cols: int) -> tuple[Spots, ...]:
    """Per quarter turn: {(row, col): (mask, ((cell, box), ...))} for each offset with a box inside."""
    turns = []
    for times in range(4):
        turned = _turn(cells, times)
        height = max(r for r, _ in turned) + 1
        width = max(c for _, c in turned) + 1
        spots: Spots = {}
        for row in range(1 - height, rows):
            for col in range(1 - width, cols):
                inside = tuple(
                    (k, (r + row) * cols + c + col)
                    for k, (r, c) in enumerate(turned)
                    if 0 <= r + row < rows and 0 <= c + col < cols
                )
                if inside:
                    spots[row, col] = (sum(1 << box for _, box in inside), inside)
        turns.append(spots)
    return tuple(turns)


@lru_cache(maxsize=64)
def _place_actions(cells: Cells, rows: int, cols: int) -> tuple[tuple[tuple[int, Place], ...], ...]:
    """Per quarter turn: (mask, the Place action) of each offset, built once per shape."""
    return tuple(
        tuple((mask, Place(times, row, col)) for (row, col), (mask, _) in spots.items())
        for times, spots in enumerate(_placements(cells, rows, cols))
    )


@lru_cache(maxsize=64)
def _places(cells: Cells, rows: int, cols: int) -> Places:
    """Every Place of the shape, in all four quarter turns (those shown or not), with
    what it covers: applying a placement is one look-up of the action itself."""
    turns = zip(_place_actions(cells, rows, cols), _placements(cells, rows, cols), strict=True)
    return {
        action: spot
        for actions, spots in turns
        for (_, action), spot in zip(actions, spots.values(), strict=True)
    }


class _PlaceTable(NamedTuple):
    """An arrangement's placements with what each covers, laid out so that the
    placements clear of a seat's filled boxes are found for all of them at once:
    bit i of an integer stands for the i-th placement."""

    shown: tuple[tuple[Place, ...], ...]  # per number of quarter turns shown: their placements
    covers: tuple[tuple[int, ...], ...]  # per byte of the grid's mask: per value, the bits of
    # the placements covering one of those boxes
    top: int  # the bit just above the last placement's


_DIGITS = bytes.maketrans(b"01", b"\x00\x01")  # a binary numeral's digits as selectors


@lru_cache(maxsize=64)
def _place_table(cells: Cells, rows: int, cols: int) -> _PlaceTable:
    placements = [pair for turn in _place_actions(cells, rows, cols) for pair in turn]
    by_box = [0] * (rows * cols)  # per box: the bits of the placements covering it
    for bit, (mask, _) in enumerate(placements):
        for box in range(mask.bit_length()):
            if mask >> box & 1:
                by_box[box] |= 1 << bit
    covers = []
    for first in range(0, rows * cols, 8):
        boxes = by_box[first : first + 8] + [0] * max(0, first + 8 - rows * cols)
        values = [0] * 256
        for value in range(1, 256):  # a value's covers: its lowest box's and the rest's
            low = (value & -value).bit_length() - 1
            values[value] = values[value & (value - 1)] | boxes[low]
        covers.append(tuple(values))
    ends = [0]
    for turn in _place_actions(cells, rows, cols):
        ends.append(ends[-1] + len(turn))
    actions = tuple(action for _, action in placements)
    return _PlaceTable(tuple(actions[:end] for end in ends), tuple(covers), 1 << len(actions))


def _free_placements(cells: Cells, rows: int, cols: int, turns: int, filled: int) -> list[Place]:
    """The placements of the first `turns` quarter turns that cover no box of filled,
    in _place_actions' order (the reference: _clear_placements is tested equal to it)."""
    return [
        action
        for times in range(turns)
        for mask, action in _place_actions(cells, rows, cols)[times]
        if not mask & filled
    ]


def _clear_placements(cells: Cells, rows: int, cols: int, turns: int, filled: int) -> Placements:
    """_free_placements for all placements at once: the bits of the placements that
    cover a filled box, a table look-up per byte of filled; the others are the
    clear ones, handed out as a Placements sequence (no list is built)."""
    return _clear_in(_place_table(cells, rows, cols), turns, filled)


def _clear_in(table: _PlaceTable, turns: int, filled: int) -> Placements:
    """_clear_placements from the shape's _place_table."""
    covered = 0
    for values, byte in zip(
        table.covers, filled.to_bytes(len(table.covers), "little"), strict=True
    ):
        covered |= values[byte]
    shown = table.shown[turns]
    return Placements(shown, ~covered & ((1 << len(shown)) - 1))


class Placements(Sequence[Place]):
    """The placements clear of a seat's filled boxes, in _place_actions' order, as
    the bits of an integer: bit i set when actions[i] is clear. A random player
    needs only how many there are and the k-th, so the list of ~120 out of ~350
    is never built: len is a bit count, the k-th is found by halving (the same
    actions at the same places as the list, so the same random choices)."""

    __slots__ = ("actions", "clear", "size")

    def __init__(self, actions: tuple[Place, ...], clear: int):
        self.actions = actions  # every placement of the turns shown
        self.clear = clear  # bit i: actions[i] covers no filled box
        self.size = clear.bit_count()

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> Place: ...

    @overload
    def __getitem__(self, index: slice) -> list[Place]: ...

    def __getitem__(self, index: int | slice) -> Place | list[Place]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError("placement index out of range")
        return self.actions[_nth_bit(self.clear, index)]

    def __iter__(self) -> Iterator[Place]:
        selectors = format(self.clear | 1 << len(self.actions), "b").encode()[:0:-1]
        return compress(self.actions, selectors.translate(_DIGITS))

    def __contains__(self, action: object) -> bool:
        try:
            bit = self.actions.index(action)
        except ValueError:
            return False
        return bool(self.clear >> bit & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self.clear == other.clear and self.actions == other.actions
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return repr(list(self))


def _nth_bit(bits: int, n: int) -> int:
    """The position of the n-th (from 0) set bit of bits: the 32-bit word holding it
    found by counting, then the lower set bits of that word cleared one by one."""
    base, word = 0, bits & _WORD
    count = word.bit_count()
    while n >= count:
        n, bits, base = n - count, bits >> 32, base + 32
        word = bits & _WORD
        count = word.bit_count()
    for _ in range(n):
        word &= word - 1
    return base + (word & -word).bit_length() - 1


_WORD = (1 << 32) - 1


@lru_cache(maxsize=64)
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Edge neighbours of each box of a flat grid (never across corners)."""
    return tuple(
        tuple(
            (r + dr) * cols + c + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        for r in range(rows)
        for c in range(cols)
    )


def _label(
    cells: Sequence[int], neighbours: Sequence[Sequence[int]]
) -> tuple[list[int], list[tuple[int, int]]]:
    """Each box's group number (-1 for an empty box) and (symbol, size) of every group
    of one symbol joined along edges; 0 is an empty box."""
    labels = [-1] * len(cells)
    groups: list[tuple[int, int]] = []
    for start, symbol in enumerate(cells):
        if not symbol or labels[start] >= 0:
            continue
        number = len(groups)
        labels[start] = number
        group = [start]
        for box in group:  # breadth first: the list grows while it is read
            for other in neighbours[box]:
                if cells[other] == symbol and labels[other] < 0:
                    labels[other] = number
                    group.append(other)
        groups.append((symbol, len(group)))
    return labels, groups


def _groups(cells: Sequence[int], neighbours: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """(symbol, size) of every group of one symbol joined along edges; 0 is an empty box."""
    _, groups = _label(cells, neighbours)
    return groups


class GridValue(NamedTuple):
    """What a grid's groups are worth to the heuristic (or what one group adds)."""

    score: int
    near: int  # boxes in groups one or two boxes short of scoring


def _value_of(groups: list[tuple[int, int]], scoring: Scoring) -> GridValue:
    """The score and near boxes of a grid's groups."""
    score = near = 0
    for _, size in groups:
        if size >= scoring.min_group:
            score += scoring.per_group + size * scoring.per_box
        elif size >= scoring.min_group - 2:
            near += size
    return GridValue(score, near)


def _kin(codes: tuple[int, ...]) -> tuple[int, ...]:
    """For each die, the first die showing its symbol: (2, 5, 2, 2) gives (0, 1, 0, 0)."""
    return tuple(codes.index(code) for code in codes)


class _Arranged(NamedTuple):
    """What placing and judging an arrangement need, found once per arrangement."""

    codes: tuple[int, ...]  # grid codes of its dice
    turns: int  # distinct quarter turns
    inner: int  # edges between its own dice of one symbol


@lru_cache(maxsize=16384)  # every arrangement of every roll of the built-in dice: about 8,000
def _arranged(cells: Cells, labels: tuple[str, ...], symbols: tuple[str, ...]) -> _Arranged:
    codes = tuple(symbols.index(symbol) + 1 for symbol in labels)
    kin = _kin(codes)  # alike as labels are: turns and inner edges depend on no more
    return _Arranged(codes, _distinct_turns(cells, kin), _inner_edges(cells, kin))


class _Chosen(NamedTuple):
    """What applying an arrangement keeps on the state, found once per arrangement."""

    codes: tuple[int, ...]  # as _Arranged
    turns: int
    places: Places  # _places of its shape
    table: _PlaceTable  # _place_table of its shape
    name: str  # its shape's name


@lru_cache(maxsize=16384)  # as _arranged
def _chosen(
    cells: Cells, labels: tuple[str, ...], symbols: tuple[str, ...], rows: int, cols: int
) -> _Chosen:
    arranged = _arranged(cells, labels, symbols)
    places, table = _places(cells, rows, cols), _place_table(cells, rows, cols)
    name, _ = _by_cells(len(cells))[cells]
    return _Chosen(arranged.codes, arranged.turns, places, table, name)


@lru_cache(maxsize=1024)
def _inner_edges(cells: Cells, codes: tuple[Any, ...]) -> int:
    """Edges between the arrangement's own dice of one symbol (codes, symbols or kin:
    only which dice are alike counts)."""
    return sum(
        codes[i] == codes[j] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        for i, a in enumerate(cells)
        for j, b in enumerate(cells)
        if i < j
    )


class _Judged:
    """A seat's grid labelled into groups and valued (_value_of), when first asked."""

    __slots__ = ("done", "labels", "groups", "value")

    def __init__(self) -> None:
        self.done = False
        self.labels: list[int] = []  # as _label gives them
        self.groups: list[tuple[int, int]] = []
        self.value = GridValue(0, 0)


def _judge(state: GemstoneState, seat: int) -> _Judged:
    judged = state.values[seat]
    if not judged.done:
        t = state.table
        judged.labels, judged.groups = _label(state.grids[seat], t.neighbours)
        judged.value = _value_of(judged.groups, t.scoring)
        judged.done = True
    return judged


def _cached(state: GemstoneState, seat: int) -> GridValue:
    """_value_of the seat's grid."""
    return _judge(state, seat).value

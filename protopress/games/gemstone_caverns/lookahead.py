"""Gemstone Caverns' greedy look-ahead without copies.

A greedy bot judges ~350 placements and ~114 arrangements a decision. Copying
the state, placing and flood-filling the grid for each is what made the game
slow; the functions below give the same heuristic values from one analysis of
the seat's grid (tests/games/gemstone_caverns/test_fast.py checks that they
agree with apply + heuristic on thousands of random positions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from protopress.games.gemstone_caverns.grid import (
    PASS,
    Placements,
    Scoring,
    _arranged,
    _arrangements,
    _cached,
    _judge,
    _kin,
    _neighbours,
    _place_actions,
    _placements,
    _turn,
)
from protopress.rules.core import Action, IllegalAction

if TYPE_CHECKING:
    from protopress.games.gemstone_caverns.rules import GemstoneState

FIT_BONUS = 0.05  # per edge an arrangement could join: a tie-break between arrangements
NEAR_BONUS = 0.3  # heuristic: per box in a group one or two boxes short of scoring


class _Spot(NamedTuple):
    """One placement of an arrangement: what it covers and the groups its dice form
    among themselves. Dice are named by the first die of their symbol (`kin`), so
    that arrangements alike but for which symbols they show share one table."""

    mask: int  # boxes covered
    joins: int  # per kin k, the boxes of its dice, shifted by k * the grid's boxes
    parts: tuple[tuple[int, tuple[int, ...]], ...]  # (kin, boxes) per group of the dice alone
    kind: int  # index of the parts' sizes among the table's (placements joining no group)


class _Spots(NamedTuple):
    by_action: dict[Action, _Spot]  # every placement action, and the pass
    sizes: tuple[tuple[int, ...], ...]  # the parts' sizes of each kind of spot
    in_order: tuple[_Spot, ...]  # the placements' spots in _place_actions' order (bit i:
    # the i-th, as in grid.Placements)
    of_kind: tuple[int, ...]  # per kind: the bits of the placements of that kind


@lru_cache(maxsize=256)
def _spots(cells, kin: tuple[int, ...], rows: int, cols: int) -> _Spots:
    """Every placement action of an arrangement of the shape cells whose dice show
    symbols alike as kin says, with its _Spot."""
    neighbours = _neighbours(rows, cols)
    boxes = rows * cols
    kinds: dict[tuple[int, ...], int] = {(): 0}  # the pass covers nothing
    table = {PASS: _Spot(0, 0, (), 0)}
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
def _die_at(cells, rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
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
def _worth(scoring: Scoring, boxes: int) -> tuple[tuple[int, int], ...]:
    """(score, near boxes) a group of each size 0..boxes adds, as _value_of counts them."""
    low = scoring.min_group
    return tuple(
        (scoring.per_group + size * scoring.per_box, 0)
        if size >= low
        else (0, size if size >= low - 2 else 0)
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
        others = [_cached(state, s)[0] for s in range(t.players) if s != seat]
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
        self.cells, self.rows, self.cols = state.arrangement[0], t.rows, t.cols
        self.spots = spots = _spots(self.cells, kin, t.rows, t.cols)
        # the boxes beside each kin's groups, laid out as _Spot.joins: one AND tells
        # whether a placement joins any group
        self.beside_kin = sum(beside[codes[k]] << k * len(grid) for k in set(kin))
        self.quick = []  # the value of a placement joining no group, per kind of spot
        for sizes in spots.sizes:
            s, n = score, near
            for size in sizes:
                s, n = s + worth[size][0], n + worth[size][1]
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
                score, near = score + gain[0], near + gain[1]
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
                old_size = groups[low.bit_length() - 1][1]
                old = worth[old_size]
                score, near = score - old[0], near - old[1]
                size += old_size
            gain = worth[size]
            score, near = score + gain[0], near + gain[1]
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


def placement_values(state: GemstoneState, seat: int, actions: Sequence[Action]) -> list[float]:
    """heuristic(seat) after each of seat's placement actions (or the pass), as copying
    the state, applying the action and scoring would give it, without copying: one
    labelling of the grid, then per placement only the groups its dice join."""
    placing = _Placing(state, seat)
    try:
        chosen = [placing.spots.by_action[action] for action in actions]
    except KeyError as error:
        raise IllegalAction(f"{error.args[0]} is no placement of the arrangement") from None
    value = placing.value
    return [value(spot) for spot in chosen]


def placement_best(state: GemstoneState, seat: int, actions: Placements) -> list[Action]:
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


# Best fit, all placements at once: the grid is written into an integer with a
# byte per box of a board padded by the shape's reach on every side (the east
# and west sides share theirs, the rows wrapping through it), each byte
# holding what a die of one code would count there (1 for the box, +1 per
# same-code neighbour; OVERLAP for a filled box). Shifting that integer by each
# die's offset and adding gives, in every byte at once, the fit of the placement
# anchored there. The integer holds the board four times, turned a quarter
# more each time: a shape placed on the board turned back t quarters is the
# shape turned t quarters placed on the board, so one offset per die serves
# all four turns. Overlapping placements are cleared, and the largest byte is
# found by threshold tests (is any byte >= t?). A turn beyond an arrangement's
# distinct ones repeats their placements, so counting all four gives its fit.

OVERLAP = 32  # above any fit (at most 5 a die: six dice at most); 6 * OVERLAP fits a byte
TURNS = 4


class _Board(NamedTuple):
    pad: int
    width: int  # of a padded board (as wide as the longer side and the padding)
    stride: int  # bytes from one turned board to the next
    lanes: tuple[tuple[int, ...], ...]  # per box: its byte in each turned board
    ones: int  # 0x01 in every byte of the turned boards
    carry: int  # 0x20 in every byte: set once a byte reaches OVERLAP
    below: tuple[int, ...]  # per t: (OVERLAP - t) in every byte, to test for bytes >= t
    spread: tuple[tuple[int, ...], ...]  # per byte of a grid's bit mask: per value, 0x01
    # in each turned board's bytes of its boxes
    inside: int  # 0x01 in the bytes of every box


@lru_cache(maxsize=8)
def _board(rows: int, cols: int, dice: int) -> _Board:
    pad = dice - 1  # how far a shape of that many cells reaches past an edge
    longer = max(rows, cols)
    width = longer + pad  # a row's padding on the east is the next row's on the west
    stride = width * (longer + pad)  # every anchor lies above the bottom padding
    lanes = []
    for box in range(rows * cols):
        r, c, high, wide = box // cols, box % cols, rows, cols
        per_turn = []
        for times in range(TURNS):
            per_turn.append(times * stride + (r + pad) * width + c + pad)
            r, c, high, wide = wide - 1 - c, r, wide, high  # the board a quarter back
        lanes.append(tuple(per_turn))
    ones = int.from_bytes(b"\x01" * (stride * TURNS + width * pad), "little")
    below = tuple((OVERLAP - t) * ones for t in range(OVERLAP))
    spread = []
    for first in range(0, rows * cols, 8):
        boxes = range(first, min(first + 8, rows * cols))  # the last byte may hold fewer
        planes = [sum(1 << 8 * lane for lane in lanes[box]) for box in boxes]
        planes += [0] * (8 - len(planes))
        values = [0] * 256
        for value in range(1, 256):  # a value's plane: its lowest box's and the rest's
            values[value] = values[value & (value - 1)] + planes[(value & -value).bit_length() - 1]
        spread.append(tuple(values))
    inside = sum(1 << 8 * lane for per_turn in lanes for lane in per_turn)
    return _Board(
        pad, width, stride, tuple(lanes), ones, ones * OVERLAP, below, tuple(spread), inside
    )


@lru_cache(maxsize=64)
def _fit_geometry(cells, rows: int, cols: int, dice: int) -> tuple[tuple[int, ...], int]:
    """(each cell's bit offset from the anchor, the anchors' byte mask in all the
    turned boards: every anchor of the shape with a cell on the board)."""
    board = _board(rows, cols, dice)
    cells = _turn(cells, 0)
    height = max(r for r, _ in cells) + 1
    breadth = max(c for _, c in cells) + 1
    offsets = tuple(8 * (r * board.width + c) for r, c in cells)
    anchors = 0
    for times in range(TURNS):
        high, wide = (rows, cols) if times % 2 == 0 else (cols, rows)
        first = times * board.stride + board.pad * (board.width + 1)
        for row in range(1 - height, high):
            for col in range(1 - breadth, wide):
                if any(0 <= row + r < high and 0 <= col + c < wide for r, c in cells):
                    anchors |= 0xFF << 8 * (first + row * board.width + col)
    return offsets, anchors


def _spread(board: _Board, mask: int) -> int:
    """0x01 in each turned board's byte of every box in mask (a grid's bit mask)."""
    plane = 0
    for values, byte in zip(board.spread, mask.to_bytes(len(board.spread), "little"), strict=True):
        plane += values[byte]
    return plane


def _fast_best_fit(state: GemstoneState, seat: int) -> int:
    """_best_fit, computed for all the placements at once (see above)."""
    if state.arrangement is None:
        raise ValueError("the dice are not arranged yet")
    cells, labels = state.arrangement
    t = state.table
    return _Fits(state, seat).best(
        [_summed(cells, labels, t.symbols, t.rows, t.cols, len(t.dice))]
    )[0]


class _Summed(NamedTuple):
    """An arrangement as _Fits adds up its dice."""

    cells: tuple  # its shape
    dice: tuple[int, ...]  # per die: its code and its bit offset from the anchor, as the
    # key of the die's shifted boards in _Fits.moved (offset << 8 | code)
    inner: int  # edges between its own dice of one symbol


@lru_cache(maxsize=16384)  # as grid._arranged
def _summed(
    cells, labels: tuple[str, ...], symbols: tuple[str, ...], rows: int, cols: int, dice: int
) -> _Summed:
    """The arrangement of labels on the shape cells, as _Fits adds up its dice."""
    arranged = _arranged(cells, labels, symbols)
    offsets = _fit_geometry(cells, rows, cols, dice)[0]
    keys = tuple(offset << 8 | code for offset, code in zip(offsets, arranged.codes, strict=True))
    return _Summed(cells, keys, arranged.inner)


@lru_cache(maxsize=512)
def _roll_summed(
    rolled: tuple[str, ...], symbols: tuple[str, ...], rows: int, cols: int, dice: int
) -> tuple[_Summed, ...]:
    """_summed of each of _arrangements(rolled), in that order."""
    return tuple(
        _summed(cells, labels, symbols, rows, cols, dice)
        for _, cells, labels in _arrangements(rolled)
    )


class _Made(dict):
    """A dict that makes a value when first asked for its key (make(key))."""

    def __init__(self, make: Callable[[Any], int]):
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> int:
        value = self[key] = self.make(key)
        return value


class _Fits:
    """Best fits of arrangements on one seat's grid. A code's turned boards
    shifted by a die's offset (`moved`) serve every die at that offset showing
    that code, in every shape: each is made once. An arrangement's fits are the
    sum of its dice's (a byte never carries: six dice count at most
    6 * OVERLAP), kept only at the anchors where its shape is free (`free`,
    made once per shape)."""

    def __init__(self, state: GemstoneState, seat: int):
        t = state.table
        self.rows, self.cols, self.dice = t.rows, t.cols, len(t.dice)
        self.board = board = _board(t.rows, t.cols, len(t.dice))
        self.grid = state.grids[seat]
        filled = _spread(board, state.filled[seat])
        self.empty = (board.inside - filled) * 0xFF  # 0xFF in the bytes of empty boxes
        self.base = board.inside + (OVERLAP - 1) * filled  # 1 a box, OVERLAP if filled
        self.lanes = _Made(self._lanes)  # per code: the boards as a die counts them
        self.lanes[0] = self.base  # no code's neighbours counted: what _free adds up
        self.moved = _Made(self._moved)  # by offset << 8 | code: the code's shifted boards
        self.free = _Made(self._free)  # by shape cells: the bytes of its free anchors

    def best(self, arranged: Iterable[_Summed]) -> list[int]:
        """_best_fit of each arrangement given, in order."""
        return [self._largest(fits, dice) + 2 * inner for fits, inner, dice in self._sums(arranged)]

    def tied(self, arranged: Iterable[_Summed]) -> list[int]:
        """The indices of the arrangements given whose best fit is the largest, in
        order (the greedy bot's choice): once a fit is known, an arrangement that
        has no byte reaching it is passed over after one threshold test."""
        below, carry = self.board.below, self.board.carry
        best, tied = 0, list[int]()
        for index, (fits, inner, dice) in enumerate(self._sums(arranged)):
            if tied:
                need = best - 2 * inner  # the byte that would tie
                if need > 5 * dice or need > 0 and not (fits + below[need]) & carry:
                    continue
            fit = self._largest(fits, dice) + 2 * inner
            if not tied or fit > best:
                best, tied = fit, [index]
            elif fit == best:
                tied.append(index)
        return tied

    def _sums(self, arranged: Iterable[_Summed]) -> Iterator[tuple[int, int, int]]:
        """Per arrangement: (the fits of its placements, a byte each: its dice's sum,
        its inner edges, its number of dice)."""
        moved, free = self.moved.__getitem__, self.free
        for cells, dice, inner in arranged:
            yield sum(map(moved, dice)) & free[cells], inner, len(dice)

    def _largest(self, fits: int, dice: int) -> int:
        """The largest byte of fits (-1 for none: no placement is free)."""
        below, carry = self.board.below, self.board.carry
        low, high = 0, 5 * dice  # at most 1 + 4 neighbours a die
        # most best fits are every die on the grid and an edge or two: from there up
        # one at a time, else halving below it
        guess = min(dice + 1, high)
        if (fits + below[guess]) & carry:
            low = guess
            while low < high and (fits + below[low + 1]) & carry:
                low += 1
        else:
            high = guess - 1
            while low < high:
                mid = (low + high + 1) // 2
                if (fits + below[mid]) & carry:
                    low = mid
                else:
                    high = mid - 1
        return low or -1

    def _free(self, cells) -> int:
        """The bytes of the anchors where the shape cells covers no filled box."""
        offsets, anchors = _fit_geometry(cells, self.rows, self.cols, self.dice)
        covered = 0
        for offset in offsets:
            covered += self.moved[offset << 8]  # OVERLAP on filled boxes, whatever the code
        ones = self.board.ones
        overlap = (covered >> 5) & (7 * ones)  # the bytes at OVERLAP or more
        overlap = (overlap | overlap >> 1 | overlap >> 2) & ones
        return anchors & ~(overlap * 0xFF)

    def _moved(self, key: int) -> int:
        """The turned boards of the key's code shifted by its offset."""
        return self.lanes[key & 0xFF] >> (key >> 8)

    def _lanes(self, code: int) -> int:
        """The turned boards as a die of code counts them: 1 an empty box and 1 more
        per neighbour of that code (the code's boxes shifted a box each way: the
        padding keeps rows and boards apart), OVERLAP a filled box."""
        board = self.board
        mine = int(self.grid.translate(_ONE_OF[code])[::-1], 2)
        plane = _spread(board, mine)
        row = 8 * board.width
        near = (plane << 8) + (plane >> 8) + (plane << row) + (plane >> row)
        return self.base + (near & self.empty)


# per code: a table turning a grid's bytes into binary digits, 1 for that code
_ONE_OF = tuple(bytes(ord("1" if v == code else "0") for v in range(256)) for code in range(256))


def arrangement_values(state: GemstoneState, seat: int, actions: Sequence[Action]) -> list[float]:
    """heuristic(seat) after each "arrange" action of the active seat, as apply +
    heuristic on a copy would give it: the grid's value is the same for all, only
    the best fit differs, and _Fits judges every placement of a shape at once."""
    t = state.table
    score, near = _cached(state, seat)
    others = [_cached(state, s)[0] for s in range(t.players) if s != seat]
    base = score + NEAR_BONUS * near
    rival = max(others) if others else 0
    values = [
        base + FIT_BONUS * fit  # the heuristic's own order of additions
        for fit in _Fits(state, seat).best(_with_facts(state, actions))
    ]
    return [value - rival for value in values] if others else values


def arrangement_best(state: GemstoneState, seat: int, actions: Sequence[Action]) -> list[Action]:
    """The arrangements of the highest arrangement_values, in order: the grid's
    value and the rival's are the same for all, and the value rises with the best
    fit (by FIT_BONUS, far above a float's rounding), so they are those of the
    largest fit."""
    tied = _Fits(state, seat).tied(_with_facts(state, actions))
    return [actions[index] for index in tied]


def _with_facts(state: GemstoneState, actions: Sequence[Action]) -> Sequence[_Summed]:
    """_summed of each "arrange" action."""
    t = state.table
    rolled = tuple(sorted(state.rolled))
    if actions == list(_arrangements(rolled)):  # all of them, as the greedy bot asks
        return _roll_summed(rolled, t.symbols, t.rows, t.cols, len(t.dice))
    return [
        _summed(cells, labels, t.symbols, t.rows, t.cols, len(t.dice))
        for _, cells, labels in actions
    ]

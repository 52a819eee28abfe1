"""Gemstone Caverns' best fit: the most same-symbol edges a placement of the
chosen arrangement could make with a seat's filled boxes, found for every
placement at once. The heuristic adds it (FIT_BONUS a edge) to a grid's score and
its groups near scoring (NEAR_BONUS a box); rules.py's _best_fit, one placement
at a time, is the reference tests/games/gemstone_caverns/test_fast.py holds it to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from protopress.games.gemstone_caverns.grid import (
    Cells,
    _arranged,
    _arrangements,
    _turn,
)

if TYPE_CHECKING:
    from protopress.games.gemstone_caverns.rules import GemstoneState

FIT_BONUS = 0.05  # per edge an arrangement could join: a tie-break between arrangements
NEAR_BONUS = 0.3  # heuristic: per box in a group one or two boxes short of scoring


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
def _fit_geometry(cells: Cells, rows: int, cols: int, dice: int) -> tuple[tuple[int, ...], int]:
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
    arrangement, t = state.arrangement, state.table
    return _Fits(state, seat).best(
        [_summed(arrangement.cells, arrangement.symbols, t.symbols, t.rows, t.cols, len(t.dice))]
    )[0]


class _Summed(NamedTuple):
    """An arrangement as _Fits adds up its dice."""

    cells: Cells  # its shape
    dice: tuple[int, ...]  # per die: its code and its bit offset from the anchor, as the
    # key of the die's shifted boards in _Fits.moved (offset << 8 | code)
    inner: int  # edges between its own dice of one symbol


@lru_cache(maxsize=16384)  # as grid._arranged
def _summed(
    cells: Cells, labels: tuple[str, ...], symbols: tuple[str, ...], rows: int, cols: int, dice: int
) -> _Summed:
    """The arrangement of labels on the shape cells, as _Fits adds up its dice."""
    arranged = _arranged(cells, labels, symbols)
    offsets, _ = _fit_geometry(cells, rows, cols, dice)
    keys = tuple(offset << 8 | code for offset, code in zip(offsets, arranged.codes, strict=True))
    return _Summed(cells, keys, arranged.inner)


@lru_cache(maxsize=512)
def _roll_summed(
    rolled: tuple[str, ...], symbols: tuple[str, ...], rows: int, cols: int, dice: int
) -> tuple[_Summed, ...]:
    """_summed of each of _arrangements(rolled), in that order."""
    return tuple(
        _summed(arrangement.cells, arrangement.symbols, symbols, rows, cols, dice)
        for arrangement in _arrangements(rolled)
    )


class _Made(dict[Any, int]):
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

    def _free(self, cells: Cells) -> int:
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

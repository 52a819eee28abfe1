"""Tiling: a board or mat larger than the paper, cut into page-sized tiles that
overlap by a stated amount, and the marks that let the pages be lined up.

Pure geometry, in points, with the origin at the TOP-LEFT and y growing DOWN
(as in imposition.py). Two coordinate systems meet here: BOARD coordinates
(the component's bleed box, from its top-left corner) and PAGE coordinates.

* Each page shows a window of the board (the paper less TILE_MARGIN at every
  edge). Tile (column c, row r) shows the board from (c * step_x, r * step_y),
  where step = window - overlap: neighbouring pages show exactly ``overlap``
  of the same board in common. The last column and row may show less.
* Alignment crosses sit in the middle of every overlap strip, at fixed board
  positions; every page draws every cross that falls in its window, so the
  strip two neighbours share is the same drawing on both pages.
* The margin between the window and the 5 mm edge band carries ticks at both
  edges of each overlap strip, the neighbours' labels ("B1") and the board's
  crop marks; nothing comes nearer the paper edge than the edge band.
* Portrait and landscape are both tried: the fewer pages win, ties stay portrait.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from protopress.generators.imposition import PRINTABLE_INSET, Line, Rect
from protopress.generators.units import MM

TILE_MARGIN = 12 * MM  # paper edge to the window: room for ticks, labels and crop marks
DEFAULT_OVERLAP = 10 * MM
MAX_OVERLAP = 50 * MM
CROSS_ARM = 3 * MM  # half the width of an alignment cross
TICK_GAP = 1 * MM  # between the window edge and a tick or crop mark
TICK_LENGTH = 4 * MM  # ticks and crop marks: 1 to 5 mm outside the window
_EPS = 1e-6


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: the part of the board it shows (board coordinates)."""

    column: int
    row: int
    region: Rect

    @property
    def label(self) -> str:
        """Column letter and row number, as on a map: "B2" is column B, row 2."""
        return column_letters(self.column) + str(self.row + 1)


@dataclass(frozen=True)
class TilePlan:
    """How a board of board_width x board_height (its bleed box) goes on pages."""

    paper: tuple[float, float]  # as the pages are oriented
    board_width: float
    board_height: float
    bleed: float
    overlap: float
    window: Rect  # where a tile's region is drawn on its page
    columns: int
    rows: int
    tiles: tuple[Tile, ...]  # in reading order: row by row

    @property
    def step(self) -> tuple[float, float]:
        return self.window.width - self.overlap, self.window.height - self.overlap

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]

    def tile(self, column: int, row: int) -> Tile:
        return self.tiles[row * self.columns + column]

    def to_page(self, tile: Tile, x: float, y: float) -> tuple[float, float]:
        """Where the board point (x, y) lands on tile's page."""
        return self.window.x + x - tile.region.x, self.window.y + y - tile.region.y

    def drawn(self, tile: Tile) -> Rect:
        """The part of the page that tile's region covers (the window, less what
        lies past the board's edge on the last column and row)."""
        x, y = self.to_page(tile, tile.region.x, tile.region.y)
        return Rect(x, y, tile.region.width, tile.region.height)

    def crosses(self) -> tuple[tuple[float, float], ...]:
        """Centres of the alignment crosses, in board coordinates: in the middle of
        each vertical overlap strip at a quarter and three quarters of each row's
        own part (what no other row shows), and likewise across the horizontal ones."""
        step_x, step_y = self.step
        centres = []
        for column in range(self.columns - 1):
            x = (column + 1) * step_x + self.overlap / 2
            for low, high in _own_parts(self.rows, step_y, self.overlap, self.board_height):
                centres += [(x, low + (high - low) / 4), (x, low + 3 * (high - low) / 4)]
        for row in range(self.rows - 1):
            y = (row + 1) * step_y + self.overlap / 2
            for low, high in _own_parts(self.columns, step_x, self.overlap, self.board_width):
                centres += [(low + (high - low) / 4, y), (low + 3 * (high - low) / 4, y)]
        return tuple(centres)

    def neighbours(self, tile: Tile) -> dict[str, Tile]:
        """The tiles beside this one, by side ("left", "right", "top", "bottom")."""
        found = {}
        for side, dc, dr in (("left", -1, 0), ("right", 1, 0), ("top", 0, -1), ("bottom", 0, 1)):
            column, row = tile.column + dc, tile.row + dr
            if 0 <= column < self.columns and 0 <= row < self.rows:
                found[side] = self.tile(column, row)
        return found

    def ticks(self, tile: Tile) -> tuple[Line, ...]:
        """Short lines in the margin at both edges of each overlap strip this page
        shares with a neighbour: the neighbour's edge goes on the inner tick."""
        window, drawn = self.window, self.drawn(tile)
        step_x, step_y = self.step
        near = self.neighbours(tile)
        xs = []
        if "left" in near:
            xs += [window.x, window.x + self.overlap]
        if "right" in near:
            xs += [window.x + step_x, window.right]
        ys = []
        if "top" in near:
            ys += [window.y, window.y + self.overlap]
        if "bottom" in near:
            ys += [window.y + step_y, window.bottom]
        above, below = drawn.y - TICK_GAP, drawn.bottom + TICK_GAP
        left, right = drawn.x - TICK_GAP, drawn.right + TICK_GAP
        lines = []
        for x in xs:
            lines += [
                Line(x, above, x, above - TICK_LENGTH),
                Line(x, below, x, below + TICK_LENGTH),
            ]
        for y in ys:
            lines += [Line(left, y, left - TICK_LENGTH, y), Line(right, y, right + TICK_LENGTH, y)]
        return tuple(lines)

    def crop_marks(self, tile: Tile) -> tuple[Line, ...]:
        """The board's trim corners marked as on sheets (1 mm beyond the bleed,
        4 mm long), in page coordinates: only the marks that land in the
        printable part of this page."""
        b, w, h = self.bleed, self.board_width, self.board_height
        if b <= 0:
            return ()
        board = []
        for x in (b, w - b):
            board += [Line(x, -TICK_GAP, x, -TICK_GAP - TICK_LENGTH),
                      Line(x, h + TICK_GAP, x, h + TICK_GAP + TICK_LENGTH)]  # fmt: skip
        for y in (b, h - b):
            board += [Line(-TICK_GAP, y, -TICK_GAP - TICK_LENGTH, y),
                      Line(w + TICK_GAP, y, w + TICK_GAP + TICK_LENGTH, y)]  # fmt: skip
        printable = self.printable
        drawn = self.drawn(tile)
        marks = []
        for line in board:
            x1, y1 = self.to_page(tile, line.x1, line.y1)
            x2, y2 = self.to_page(tile, line.x2, line.y2)
            mark = Line(x1, y1, x2, y2)
            if _inside(mark, printable) and not _crosses(mark, drawn):
                marks.append(mark)
        return tuple(marks)

    @property
    def printable(self) -> Rect:
        """The page less the 5 mm edge band."""
        width, height = self.paper
        inset = PRINTABLE_INSET
        return Rect(inset, inset, width - 2 * inset, height - 2 * inset)


def plan_tiles(
    board_width: float,
    board_height: float,
    bleed: float,
    paper: tuple[float, float],
    overlap: float = DEFAULT_OVERLAP,
    margin: float = TILE_MARGIN,
) -> TilePlan:
    """Tile a board whose bleed box is board_width x board_height (trim plus
    bleed) over pages of paper, portrait or landscape, whichever needs fewer."""
    if not (board_width > 0 and board_height > 0):
        raise ValueError("a board's size must be positive")
    if not 0 <= overlap <= MAX_OVERLAP + _EPS:
        raise ValueError(f"overlap must be 0 to {MAX_OVERLAP / MM:g} mm, got {overlap / MM:g} mm")
    best = None
    portrait = (min(paper), max(paper))
    for width, height in (portrait, portrait[::-1]):  # portrait first: it wins ties
        window = Rect(margin, margin, width - 2 * margin, height - 2 * margin)
        if window.width <= overlap or window.height <= overlap:
            raise ValueError(f"an overlap of {overlap / MM:g} mm leaves no room on the page")
        columns = _count(board_width, window.width, overlap)
        rows = _count(board_height, window.height, overlap)
        if best is None or columns * rows < best[0] * best[1]:
            best = (columns, rows, (width, height), window)
    assert best is not None
    columns, rows, oriented, window = best
    step_x, step_y = window.width - overlap, window.height - overlap
    tiles = []
    for row in range(rows):
        for column in range(columns):
            x, y = column * step_x, row * step_y
            region = Rect(
                x, y, min(window.width, board_width - x), min(window.height, board_height - y)
            )
            tiles.append(Tile(column, row, region))
    return TilePlan(
        paper=oriented,
        board_width=board_width,
        board_height=board_height,
        bleed=bleed,
        overlap=overlap,
        window=window,
        columns=columns,
        rows=rows,
        tiles=tuple(tiles),
    )


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: spreadsheet column names."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _count(length: float, window: float, overlap: float) -> int:
    """Tiles of window, overlap apart, that cover length: (n - 1) * step + window >= length."""
    if length <= window + _EPS:
        return 1
    return 1 + math.ceil((length - window) / (window - overlap) - _EPS)


def _own_parts(count: int, step: float, overlap: float, length: float):
    """For each of count tiles along one axis: the part only it shows."""
    for index in range(count):
        low = index * step + (overlap if index > 0 else 0.0)
        high = (index + 1) * step if index < count - 1 else length
        yield low, high


def _inside(line: Line, rect: Rect) -> bool:
    return all(
        rect.x - _EPS <= x <= rect.right + _EPS and rect.y - _EPS <= y <= rect.bottom + _EPS
        for x, y in ((line.x1, line.y1), (line.x2, line.y2))
    )


def _crosses(line: Line, rect: Rect) -> bool:
    """Whether any part of the line lies strictly inside rect (over the drawn board)."""
    low_x, high_x = sorted((line.x1, line.x2))
    low_y, high_y = sorted((line.y1, line.y2))
    return (
        high_x > rect.x + _EPS
        and low_x < rect.right - _EPS
        and high_y > rect.y + _EPS
        and low_y < rect.bottom - _EPS
    )

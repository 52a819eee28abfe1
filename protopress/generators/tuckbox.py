"""Tuck boxes: the die-line of a one-piece box for a deck, sized from the card
size plus clearance and the deck's thickness (cards x thickness of a card).

Pure geometry, in points, origin at the die's top-left corner, y down. The
die is a row of four body panels, side | front | side | back, with a glue
flap on the back's free edge (it goes inside the first side). Above the back:
the lid and its tuck flap (which slides in behind the front); below the
front: the bottom and its tuck flap (behind the back); above and below each
side: a dust flap. Every piece is a polygon; an edge two pieces share is a
FOLD, every other edge is a CUT.

    W = card width + clearance     H = card height + clearance     D = cards x thickness

The flaps: tuck flaps TUCK deep (at most a quarter of H), dust flaps as wide
as the side and DUST deep (at most half of W), a glue flap GLUE wide (at most
a quarter of W); each with its outer corners cut at 45 degrees, so it slides in.
The front's open top edge has a half-round thumb notch (NOTCH, at most W/6).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from protopress.generators.imposition import Line, Rect
from protopress.generators.units import MM

DEFAULT_THICKNESS = 0.3 * MM  # a card, unsleeved; sleeved cards are about 0.5 mm
DEFAULT_CLEARANCE = 2 * MM  # added to the card's width and height (1 mm each side)
MIN_DEPTH = 3 * MM  # a thinner box cannot be folded by hand
TUCK = 15 * MM
DUST = 15 * MM
GLUE = 10 * MM
NOTCH = 8 * MM  # the radius of the thumb notch in the front's top edge
NOTCH_STEPS = 16
_EPS = 1e-6


class Piece(enum.Enum):
    FRONT = "front"
    BACK = "back"
    SIDE = "side"
    LID = "lid"
    BOTTOM = "bottom"
    TUCK = "tuck flap"
    DUST = "dust flap"
    GLUE = "glue flap"


@dataclass(frozen=True)
class Panel:
    piece: Piece
    points: tuple[tuple[float, float], ...]  # clockwise on the page

    @property
    def box(self) -> Rect:
        xs, ys = [x for x, _ in self.points], [y for _, y in self.points]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True)
class DieLine:
    width: float  # W: the box's front, inside
    height: float  # H
    depth: float  # D
    panels: tuple[Panel, ...]
    cuts: tuple[Line, ...]
    folds: tuple[Line, ...]

    @property
    def extent(self) -> Rect:
        """The die's bounding box (from the origin)."""
        right = max(x for panel in self.panels for x, _ in panel.points)
        bottom = max(y for panel in self.panels for _, y in panel.points)
        return Rect(0.0, 0.0, right, bottom)

    def panel(self, piece: Piece) -> Panel:
        return next(panel for panel in self.panels if panel.piece is piece)


@dataclass(frozen=True)
class Deck:
    """What a box holds: the card size (points) and how many cards."""

    card_width: float
    card_height: float
    cards: int
    thickness: float = DEFAULT_THICKNESS
    clearance: float = DEFAULT_CLEARANCE

    @property
    def depth(self) -> float:
        return max(self.cards * self.thickness, MIN_DEPTH)


def die_line(deck: Deck) -> DieLine:
    """The die-line of a tuck box for deck (see the module docstring)."""
    if not (deck.card_width > 0 and deck.card_height > 0 and deck.cards > 0):
        raise ValueError("a tuck box needs a card size and at least one card")
    if deck.thickness <= 0 or deck.clearance < 0:
        raise ValueError("a card's thickness must be positive and the clearance not negative")
    w, h, d = deck.card_width + deck.clearance, deck.card_height + deck.clearance, deck.depth
    tuck, dust, glue = min(TUCK, h / 4), min(DUST, w / 2), min(GLUE, w / 4)
    top = tuck + d  # the body's top edge: the lid and its tuck flap stand above the back
    bottom = top + h
    xs = (0.0, d, d + w, 2 * d + w, 2 * d + 2 * w)  # side | front | side | back
    pieces = [
        _rect(Piece.SIDE, xs[0], top, d, h),
        _rect(Piece.FRONT, xs[1], top, w, h),
        _rect(Piece.SIDE, xs[2], top, d, h),
        _rect(Piece.BACK, xs[3], top, w, h),
        _flap(Piece.GLUE, (xs[4], top), (xs[4], bottom), glue),
        _rect(Piece.LID, xs[3], top - d, w, d),
        _flap(Piece.TUCK, (xs[3], top - d), (xs[3] + w, top - d), tuck),
        _rect(Piece.BOTTOM, xs[1], bottom, w, d),
        _flap(Piece.TUCK, (xs[1] + w, bottom + d), (xs[1], bottom + d), tuck),
    ]
    for x in (xs[0], xs[2]):
        pieces.append(_flap(Piece.DUST, (x, top), (x + d, top), min(dust, top)))
        pieces.append(_flap(Piece.DUST, (x + d, bottom), (x, bottom), min(dust, top)))
    cuts, folds = _edges(pieces)
    cuts = _with_thumb_notch(cuts, (xs[1], top), (xs[1] + w, top), min(NOTCH, w / 6))
    return DieLine(w, h, d, tuple(pieces), cuts, folds)


def _with_thumb_notch(cuts, start, end, radius: float) -> tuple[Line, ...]:
    """The front's open top edge (start to end) cut with a half-round notch in its
    middle, to pull the lid's tuck flap out by; drawn as NOTCH_STEPS straight cuts."""
    (x1, y), (x2, _) = start, end
    middle = (x1 + x2) / 2
    result = []
    for line in cuts:
        if {(line.x1, line.y1), (line.x2, line.y2)} != {(x1, y), (x2, y)}:
            result.append(line)
            continue
        result.append(Line(x1, y, middle - radius, y))
        points = [
            (middle - radius * math.cos(math.pi * k / NOTCH_STEPS),
             y + radius * math.sin(math.pi * k / NOTCH_STEPS))
            for k in range(NOTCH_STEPS + 1)
        ]  # fmt: skip
        result += [Line(*a, *b) for a, b in zip(points, points[1:], strict=False)]
        result.append(Line(middle + radius, y, x2, y))
    return tuple(result)


def _rect(piece: Piece, x: float, y: float, w: float, h: float) -> Panel:
    return Panel(piece, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _flap(piece: Piece, start, end, depth: float) -> Panel:
    """A flap on the edge start -> end, standing out to the edge's left (seen
    from start to end: outward for an edge walked anticlockwise round the
    body), its two outer corners cut at 45 degrees."""
    (x1, y1), (x2, y2) = start, end
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = uy, -ux  # the left of the edge in y-down page coordinates
    cut = min(depth, length / 3)
    out = (nx * depth, ny * depth)
    return Panel(
        piece,
        (
            (x1, y1),
            (x1 + out[0] + ux * cut, y1 + out[1] + uy * cut),
            (x2 + out[0] - ux * cut, y2 + out[1] - uy * cut),
            (x2, y2),
        ),
    )


def _key(point) -> tuple[float, float]:
    return round(point[0], 4), round(point[1], 4)


def _edges(pieces) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Edges two pieces share (folds) and the rest (cuts), each once, in order."""
    seen: dict[frozenset, int] = {}
    order = []
    for panel in pieces:
        points = panel.points
        for a, b in zip(points, points[1:] + points[:1], strict=True):
            key = frozenset((_key(a), _key(b)))
            if key not in seen:
                order.append((a, b, key))
            seen[key] = seen.get(key, 0) + 1
    cuts: list[Line] = []
    folds: list[Line] = []
    for a, b, key in order:
        (folds if seen[key] > 1 else cuts).append(Line(a[0], a[1], b[0], b[1]))
    return tuple(cuts), tuple(folds)

"""One side of one component as drawing operations, ready for any surface.

A face is built once from a layout and a component (face_builder.py), in points,
with its origin at the top-left corner of the bleed box and y growing down. The
PDF and PNG surfaces draw the same operations, so their output matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from protopress.components.problems import Problem
from protopress.generators.colours import BLACK, Colour, Gradient
from protopress.generators.fonts import Font
from protopress.generators.rich import RichTextOp
from protopress.generators.scripts import ShapedTextOp
from protopress.generators.vector_art import VectorArt

Contour = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0
    radius: float = 0.0


@dataclass(frozen=True)
class LineOp:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = BLACK
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()
    cap: str = "butt"  # the ends: butt (at the end point), round or square (past it)


@dataclass(frozen=True)
class EllipseOp:
    """The ellipse inscribed in the box x, y, w, h."""

    x: float
    y: float
    w: float
    h: float
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True)
class PolygonOp:
    contours: tuple[Contour, ...]  # even-odd fill
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True)
class TextOp:
    runs: tuple[tuple[float, float, str], ...]  # (x, baseline y, text) per line
    font: Font
    size: float
    colour: Colour = BLACK


@dataclass(frozen=True)
class ImageOp:
    path: Path
    x: float  # where the picture is drawn (it may reach past the box with cover)
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None  # the box, when cropped
    # an SVG's drawing (the path names it: faces with the same ops share a form)
    art: VectorArt | None = field(default=None, compare=False)
    mask: RectOp | EllipseOp | PolygonOp | None = None  # the shape the picture is cut to


@dataclass(frozen=True)
class FaceOp:
    """Another face drawn inside this one, clipped to this face's box, scaled by
    scale; (x, y) is the top-left corner of the box it then covers. turn is 0,
    90 (a quarter clockwise: its top edge runs down the right side) or -90
    (anticlockwise), as in PdfFaces.place. A print service's product of another
    size takes a layout's face this way."""

    face: Face
    x: float
    y: float
    scale: float = 1.0
    turn: int = 0


@dataclass(frozen=True)
class GroupOp:
    """One element's drawing seen through its `opacity` and turned by its `rotate`:
    turn degrees clockwise about (cx, cy), face points."""

    ops: tuple[Op, ...]
    opacity: float = 1.0
    turn: float = 0.0
    cx: float = 0.0
    cy: float = 0.0


Op = (
    RectOp | LineOp | EllipseOp | PolygonOp | TextOp | RichTextOp | ShapedTextOp | ImageOp | FaceOp
    | GroupOp
)  # fmt: skip


@dataclass(frozen=True)
class Face:
    name: str  # e.g. "room-tile/eddy/front"
    width: float  # bleed box, points
    height: float
    bleed: float
    ops: tuple[Op, ...]
    warnings: tuple[str, ...] = field(default=(), compare=False)
    # images and icons drawn as placeholders (FaceBuilder with placeholders=True)
    problems: tuple[Problem, ...] = field(default=(), compare=False)

    @property
    def trim(self) -> tuple[float, float]:
        return self.width - 2 * self.bleed, self.height - 2 * self.bleed

    @property
    def drawing(self) -> tuple:
        """What the face draws, without the names of it and of the faces inside
        it: faces equal by this look alike (every card's back on a product)."""
        ops = tuple(
            (op.face.drawing, op.x, op.y, op.scale, op.turn) if isinstance(op, FaceOp) else op
            for op in self.ops
        )
        return self.width, self.height, self.bleed, ops

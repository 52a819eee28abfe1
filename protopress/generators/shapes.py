"""Icon shapes as polygons, so that gems, symbols and elements differ by shape
as well as colour (colour-blind players, greyscale print).

Every outline lives in a unit box (0..1 both ways, origin top-left, y down)
and is filled with the even-odd rule: the first contour is the outer
boundary, any further contours are holes. Curves are approximated by
polygons fine enough to look smooth at 20 mm. The shape names are the
`shape` enum of common.schema.json, read from the schema itself.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources

Point = tuple[float, float]
Contour = tuple[Point, ...]

CIRCLE_STEPS = 72  # points per full turn of a curve


@dataclass(frozen=True)
class Outline:
    """Closed polygons in the unit box; the first is the boundary, the rest holes."""

    contours: tuple[Contour, ...]
    fill_rule: str = "evenodd"


def _schema_shapes() -> tuple[str, ...]:
    schema = resources.files("protopress.components") / "schemas" / "common.schema.json"
    return tuple(json.loads(schema.read_text(encoding="utf-8"))["$defs"]["shape"]["enum"])


SHAPES: tuple[str, ...] = _schema_shapes()


# Builders draw in any units (y down, centred near the origin); _fit scales them
# uniformly so that the larger bounding-box side is `span` and centres them.


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int) -> list[Point]:
    """Points on a circle from angle start to end (radians, clockwise on screen), ends included."""
    return [
        (cx + r * math.cos(a), cy + r * math.sin(a))
        for a in (start + (end - start) * i / steps for i in range(steps + 1))
    ]


def _steps(angle: float) -> int:
    return max(4, round(CIRCLE_STEPS * abs(angle) / (2 * math.pi)))


def _regular(n: int, r: float = 1.0, turn: float = 0.0) -> list[Point]:
    """A regular n-gon with a vertex at the top, turned clockwise by `turn` of a side."""
    angles = (2 * math.pi * (i + turn) / n for i in range(n))
    return [(r * math.sin(a), -r * math.cos(a)) for a in angles]


def _star(points: int, inner: float) -> list[Point]:
    """A star with its first point at the top; `inner` is the inner radius (outer is 1)."""
    outer = _regular(2 * points)
    return [(x * inner, y * inner) if i % 2 else (x, y) for i, (x, y) in enumerate(outer)]


def _drop(cx: float = 0.0, tip: float = 1.8) -> list[Point]:
    """A drop: unit circle at (cx, 0) with straight tangents up to a tip `tip` above its centre."""
    spread = math.acos(1 / tip)
    start, end = -math.pi / 2 + spread, 3 * math.pi / 2 - spread
    return [(cx, -tip), *_arc(cx, 0.0, 1.0, start, end, _steps(end - start))]


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 16) -> list[Point]:
    """Points on a cubic Bézier, both ends included."""

    def at(t: float, a: float, b: float, c: float, d: float) -> float:
        return (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t**2 * c + t**3 * d

    return [
        (at(t, p0[0], p1[0], p2[0], p3[0]), at(t, p0[1], p1[1], p2[1], p3[1]))
        for t in (i / steps for i in range(steps + 1))
    ]


def _cross(arm: float = 1 / 3) -> list[Point]:
    """A plus sign 2 wide whose arms are 2 * arm thick: one arm, turned four times."""
    arm_points = [(-arm, -1.0), (arm, -1.0), (arm, -arm)]
    quarters = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # cos, sin of each quarter turn
    return [(x * c - y * s, x * s + y * c) for c, s in quarters for x, y in arm_points]


def _heart() -> list[Point]:
    """The classic parametric heart, notch at the top, point at the bottom."""
    ts = (2 * math.pi * i / CIRCLE_STEPS for i in range(CIRCLE_STEPS))
    return [
        (
            16 * math.sin(t) ** 3,
            -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)),
        )
        for t in ts
    ]


def _crescent(offset: float = 0.45, bite: float = 0.85) -> list[Point]:
    """A unit disc minus a disc of radius `bite` shifted right: horns point right."""
    x = (1 - bite**2 + offset**2) / (2 * offset)  # where the two circles cross
    y = math.sqrt(1 - x * x)
    outer = math.atan2(y, x)
    inner = math.atan2(y, x - offset)
    return [
        *_arc(0, 0, 1, outer, 2 * math.pi - outer, _steps(2 * math.pi - 2 * outer)),
        *_arc(offset, 0, bite, 2 * math.pi - inner, inner, _steps(2 * math.pi - 2 * inner))[1:-1],
    ]


def _shield() -> list[Point]:
    """Flat top, straight sides, curving in to a point at the bottom."""
    right = _cubic((1.0, 0.0), (1.0, 0.75), (0.6, 1.1), (0.0, 1.5))
    left = [(-x, y) for x, y in reversed(right[:-1])]
    return [(-1.0, -1.0), (1.0, -1.0), *right, *left]


def _spiral(turns: float = 2.25, band: float = 0.55, start: float = 0.35) -> list[Point]:
    """A thick Archimedean band (pitch 1) as one polygon: outer edge out, inner edge back."""
    steps = _steps(2 * math.pi * turns)
    angles = [2 * math.pi * (start + turns * i / steps) for i in range(steps + 1)]

    def edge(shift: float) -> list[Point]:
        radii = (a / (2 * math.pi) + shift for a in angles)
        return [(r * math.cos(a), r * math.sin(a)) for r, a in zip(radii, angles, strict=True)]

    return edge(band / 2) + edge(-band / 2)[::-1]


_BOLT: list[Point] = [(4, 0), (9, 0), (6, 4), (9, 4), (2, 10), (4, 5.5), (1, 5.5)]
_KITE: list[Point] = [(0, -1), (0.75, -0.35), (0, 1.6), (-0.75, -0.35)]
_TRAPEZOID: list[Point] = [(-0.5, -0.75), (0.5, -0.75), (1, 0.75), (-1, 0.75)]

Builder = Callable[[], Iterable[list[Point]]]

# name -> (contours builder, larger side of the bounding box in the unit box)
_BUILDERS: dict[str, tuple[Builder, float]] = {
    "circle": (lambda: [_regular(CIRCLE_STEPS)], 1.0),
    "square": (lambda: [_regular(4, turn=0.5)], 0.88),
    "diamond": (lambda: [_regular(4)], 1.0),
    "triangle": (lambda: [_regular(3)], 1.0),
    "triangle-down": (lambda: [_regular(3, turn=0.5)], 1.0),
    "pentagon": (lambda: [_regular(5)], 1.0),
    "hexagon": (lambda: [_regular(6)], 1.0),
    # Smaller and turned so it does not read as the circle or the hexagon.
    "octagon": (lambda: [_regular(8)], 0.86),
    "star": (lambda: [_star(5, 0.45)], 1.0),
    "cross": (lambda: [_cross()], 1.0),
    "heart": (lambda: [_heart()], 1.0),
    "crescent": (lambda: [_crescent()], 1.0),
    "drop": (lambda: [_drop()], 1.0),
    "kite": (lambda: [_KITE], 1.0),
    "shield": (lambda: [_shield()], 1.0),
    "trapezoid": (lambda: [_TRAPEZOID], 1.0),
    "ring": (lambda: [_regular(CIRCLE_STEPS), _regular(CIRCLE_STEPS, 0.55)[::-1]], 1.0),
    "bolt": (lambda: [_BOLT], 1.0),
    "spiral": (lambda: [_spiral()], 1.0),
    "teardrop-pair": (lambda: [_drop(-1.15), _drop(1.15)], 1.0),
}


def _fit(contours: Iterable[list[Point]], span: float) -> tuple[Contour, ...]:
    """Scale uniformly so the larger bounding-box side is `span`, centred in the unit box."""
    contours = [list(c) for c in contours]
    xs = [x for c in contours for x, _ in c]
    ys = [y for c in contours for _, y in c]
    scale = span / max(max(xs) - min(xs), max(ys) - min(ys))
    dx = 0.5 - scale * (min(xs) + max(xs)) / 2
    dy = 0.5 - scale * (min(ys) + max(ys)) / 2

    def place(v: float, d: float) -> float:
        return min(1.0, max(0.0, round(v * scale + d, 6)))

    return tuple(tuple((place(x, dx), place(y, dy)) for x, y in c) for c in contours)


@functools.cache
def outline(shape: str) -> Outline:
    """The outline of a schema shape; KeyError names the known shapes."""
    if shape not in SHAPES or shape not in _BUILDERS:
        known = [name for name in SHAPES if name in _BUILDERS]
        raise KeyError(f"unknown shape {shape!r}; known shapes: {', '.join(known)}")
    build, span = _BUILDERS[shape]
    return Outline(_fit(build(), span))


def scaled(shape_outline: Outline, x: float, y: float, size: float) -> list[list[Point]]:
    """The contours in absolute coordinates: the unit box mapped onto the square
    with top-left corner (x, y) and side `size` (y grows with the unit box's y)."""
    return [[(x + px * size, y + py * size) for px, py in c] for c in shape_outline.contours]


Box = tuple[float, float, float, float]  # x, y (top-left corner), w, h; y down


def _in_box(points: Iterable[Point], box: Box) -> Contour:
    """Points around the origin (radius 1 reaching the unit circle) stretched onto
    the ellipse inscribed in box."""
    x, y, w, h = box
    return tuple((x + w / 2 * (1 + px), y + h / 2 * (1 + py)) for px, py in points)


def regular_polygon(sides: int, box: Box) -> Contour:
    """A regular polygon's corners on the ellipse inscribed in box, the first at the
    top middle, clockwise (a box that is not square stretches it)."""
    return _in_box(_regular(sides), box)


def star_outline(points: int, inner: float, box: Box) -> Contour:
    """A star of `points` points on the ellipse inscribed in box, the first at the
    top middle, its inner corners `inner` of the way out from the centre."""
    return _in_box(_star(points, inner), box)

"""Ellipses, regular polygons and stars inscribed in their boxes, and line caps;
corners worked by hand and read back from the PDF (points, y up, on an 80 mm
tall page) or from the pixels (10 per mm)."""

from __future__ import annotations

import json
import math

import pytest
from face_drawing import MM, at, face, operations, pixels

from protopress.components.problems import InvalidInput
from protopress.generators.layout import load_layout

HEIGHT = 80  # mm
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
PAPER = {"type": "rect", "bleed": True, "fill": "white"}


def corners_mm(drawn) -> list[list[tuple[float, float]]]:
    """Each path's corners (m and l operators) in mm from the top-left corner."""
    paths: list[list[tuple[float, float]]] = []
    for operands, op in operations(drawn):
        if op in (b"m", b"l"):
            x, y = (float(v) for v in operands)
            point = (round(x / MM, 2), round(HEIGHT - y / MM, 2))
            if op == b"m":
                paths.append([point])
            else:
                paths[-1].append(point)
    return paths


def test_a_hexagon_has_its_corners_on_the_circle_in_its_box(tmp_path):
    drawn = face(tmp_path, [{"type": "polygon", "x": 35, "y": 5, "w": 20, "h": 20, "sides": 6,
                             "fill": "teal"}])  # fmt: skip
    # centre (45, 15), radius 10; the first corner at the top, then clockwise every 60 degrees
    s = round(10 * math.sin(math.radians(60)), 2)  # 8.66
    assert corners_mm(drawn) == [[(45, 5), (45 + s, 10), (45 + s, 20), (45, 25),
                                  (45 - s, 20), (45 - s, 10)]]  # fmt: skip


def test_a_stretched_triangle_fills_the_ellipse_of_its_box(tmp_path):
    drawn = face(tmp_path, [{"type": "polygon", "x": 0, "y": 0, "w": 40, "h": 20, "sides": 3,
                             "fill": "teal"}])  # fmt: skip
    # radius 20 across and 10 down: corners at 0, 120 and 240 degrees from the top
    dx, dy = 20 * math.sin(math.radians(120)), 10 * 0.5
    (path,) = corners_mm(drawn)
    expected = [(20, 0), (20 + dx, 10 + dy), (20 - dx, 10 + dy)]
    for found, corner in zip(path, expected, strict=True):
        assert found == pytest.approx(corner, abs=0.01)


def test_a_star_alternates_its_points_and_inner_corners(tmp_path):
    drawn = face(tmp_path, [{"type": "star", "x": 5, "y": 30, "w": 25, "h": 25, "points": 5,
                             "inner": 0.4, "fill": "crimson"}])  # fmt: skip
    (path,) = corners_mm(drawn)
    assert len(path) == 10
    # centre (17.5, 42.5); points reach 12.5 mm, inner corners 0.4 of that = 5 mm
    assert path[0] == (17.5, 30)
    assert path[1] == pytest.approx((17.5 + 5 * math.sin(math.radians(36)),
                                     42.5 - 5 * math.cos(math.radians(36))), abs=0.01)  # fmt: skip
    assert path[2] == pytest.approx((17.5 + 12.5 * math.sin(math.radians(72)),
                                     42.5 - 12.5 * math.cos(math.radians(72))), abs=0.01)  # fmt: skip
    assert path[5] == pytest.approx((17.5, 42.5 + 5), abs=0.01)  # the inner corner below


def test_an_ellipse_fills_its_box_and_no_more(tmp_path):
    drawn = face(tmp_path, [PAPER, {"type": "ellipse", "x": 5, "y": 5, "w": 30, "h": 20,
                                    "fill": "black"}])  # fmt: skip
    image = pixels(drawn)
    # (x-20)^2/15^2 + (y-15)^2/10^2 <= 1 inside
    for x, y in ((20, 15), (5.5, 15), (34.5, 15), (20, 5.5), (20, 24.5), (30, 21)):
        assert at(image, x, y) == BLACK, (x, y)
    for x, y in ((5.5, 6), (34.5, 24), (4.5, 15), (20, 25.5), (32, 22)):
        assert at(image, x, y) == WHITE, (x, y)


@pytest.mark.parametrize(("cap", "operator", "reach"), [("round", 1, 4), ("square", 2, 4)])
def test_a_capped_line_reaches_half_its_width_past_its_ends(tmp_path, cap, operator, reach):
    line = {"type": "line", "x": 10, "y": 40, "x2": 50, "y2": 40, "stroke": "black",
            "stroke_width": 8, "cap": cap}  # fmt: skip
    drawn = face(tmp_path, [PAPER, line])
    assert [operands for operands, op in operations(drawn) if op == b"J"] == [[operator]]
    image = pixels(drawn)
    past = reach / MM  # half of 8 pt, in mm: 1.41
    assert at(image, 10 - past + 0.3, 40) == BLACK
    assert at(image, 50 + past - 0.3, 40) == BLACK
    assert at(image, 10 - past - 0.3, 40) == WHITE


def test_a_butt_line_ends_at_its_end_points(tmp_path):
    drawn = face(tmp_path, [PAPER, {"type": "line", "x": 10, "y": 40, "x2": 50, "y2": 40,
                                    "stroke": "black", "stroke_width": 8}])  # fmt: skip
    assert b"J" not in {op for _, op in operations(drawn)}  # as every line before caps
    image = pixels(drawn)
    assert at(image, 10.3, 40) == BLACK and at(image, 9.7, 40) == WHITE


def test_a_polygon_needs_its_sides(tmp_path):
    layout = {"kind": "card", "size": "poker",
              "front": [{"type": "polygon", "x": 0, "y": 0, "w": 5, "h": 5, "sides": 2}]}  # fmt: skip
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    assert [(p.pointer, p.message) for p in error.value.problems] == [
        ("/front/0/sides", "expected at least 3, found 2")
    ]

"""Linear and radial gradients as fills: colours read back at points whose share
of the way along the gradient is worked by hand (10 pixels per mm)."""

from __future__ import annotations

import json

import pytest
from face_drawing import at, close, face, operations, pixels

from protopress.components.problems import InvalidInput
from protopress.generators.layout import load_layout

PAPER = {"type": "rect", "bleed": True, "fill": "white"}


def test_a_linear_gradient_runs_left_to_right_across_the_box(tmp_path):
    drawn = face(tmp_path, [PAPER, {"type": "rect", "x": 5, "y": 5, "w": 40, "h": 20,
                                    "fill": {"linear": ["red", "blue"]}}])  # fmt: skip
    image = pixels(drawn)
    # x 5..45: a quarter of the way (x = 15) is 3/4 red and 1/4 blue
    assert close(at(image, 15, 15), (191, 0, 64))
    assert close(at(image, 25, 10), (128, 0, 128))
    assert close(at(image, 35, 20), (64, 0, 191))
    assert at(image, 50, 15) == (255, 255, 255)  # nothing outside the box
    assert b"sh" in {op for _, op in operations(drawn)}


def test_an_angle_of_90_runs_top_to_bottom(tmp_path):
    drawn = face(tmp_path, [{"type": "rect", "x": 5, "y": 30, "w": 20, "h": 40,
                             "fill": {"linear": ["white", "black"], "angle": 90}}])  # fmt: skip
    image = pixels(drawn)
    assert close(at(image, 15, 40), (191, 191, 191))  # y 30..70: a quarter down
    assert close(at(image, 8, 60), (64, 64, 64))  # three quarters, anywhere across


def test_a_diagonal_runs_corner_to_corner(tmp_path):
    drawn = face(tmp_path, [{"type": "rect", "x": 10, "y": 10, "w": 40, "h": 40,
                             "fill": {"linear": ["black", "white"], "angle": 45}}])  # fmt: skip
    image = pixels(drawn)
    # along (cos 45, sin 45) from the centre (30, 30); the corners reach 40 cos 45 = 28.28 mm
    # each way: the top middle (30, 10.5) lies 19.5 sin 45 = 13.79 back, 0.5 - 13.79/56.57
    assert close(at(image, 30, 10.5), (round(255 * (0.5 - 13.79 / 56.57)),) * 3, 2)
    assert close(at(image, 30, 30), (128, 128, 128), 2)


def test_a_radial_gradient_spreads_from_the_middle_through_its_stops(tmp_path):
    drawn = face(tmp_path, [{"type": "ellipse", "x": 30, "y": 30, "w": 25, "h": 25,
                             "fill": {"radial": ["yellow", "orange", "darkred"],
                                      "stops": [0, 0.5, 1]}}])  # fmt: skip
    image = pixels(drawn)
    assert close(at(image, 42.5, 42.5), (255, 255, 0), 4)  # the middle
    assert close(at(image, 42.5 + 6.25, 42.5), (255, 165, 0), 4)  # half the radius: orange
    assert close(at(image, 42.5, 42.5 - 6.25), (255, 165, 0), 4)
    # three quarters out, halfway from orange to dark red (#8b0000)
    assert close(at(image, 42.5 - 9.375, 42.5), (round((255 + 139) / 2), round(165 / 2), 0), 4)


def test_a_gradient_fills_only_its_shape_and_keeps_its_outline(tmp_path):
    drawn = face(tmp_path, [PAPER, {"type": "polygon", "x": 10, "y": 10, "w": 40, "h": 40,
                                    "sides": 4, "stroke": "black", "stroke_width": 2,
                                    "fill": {"linear": ["red", "red"]}}])  # fmt: skip
    image = pixels(drawn)
    assert at(image, 30, 30) == (255, 0, 0)
    assert at(image, 14, 14) == (255, 255, 255)  # outside the diamond, inside its box
    assert at(image, 30, 10.2) == (0, 0, 0)  # the outline over the top corner


def _problems(tmp_path, element) -> list[tuple[str, str]]:
    layout = {"kind": "card", "size": "poker", "front": [element]}
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    return [(p.pointer, p.message) for p in error.value.problems]


def test_stops_are_one_per_colour_and_in_order(tmp_path):
    box = {"type": "rect", "x": 0, "y": 0, "w": 5, "h": 5}
    assert _problems(tmp_path, {**box, "fill": {"linear": ["red", "blue"], "stops": [0, 0.5, 1]}}) == [
        ("/front/0/fill/stops", "3 stops for 2 colours; give one stop per colour")
    ]  # fmt: skip
    assert _problems(tmp_path, {**box, "fill": {"radial": ["red", "blue"], "stops": [1, 0]}}) == [
        ("/front/0/fill/stops", "stops [1, 0] go backwards; each is at or after the one before")
    ]  # fmt: skip


def test_an_icon_takes_no_gradient(tmp_path):
    element = {"type": "icon", "x": 0, "y": 0, "icon_size": 5, "shape": "star",
               "fill": {"linear": ["red", "blue"]}}  # fmt: skip
    ((pointer, _),) = _problems(tmp_path, element)
    assert pointer == "/front/0/fill"

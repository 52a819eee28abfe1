"""An image cut to a shape inscribed in its box: read back as pixels (10 per mm)."""

from __future__ import annotations

import json

import pytest
from face_drawing import at, face, operations, pixels
from PIL import Image

from protopress.components.problems import InvalidInput
from protopress.generators.layout import load_layout

RED, WHITE = (255, 0, 0), (255, 255, 255)
PAPER = {"type": "rect", "bleed": True, "fill": "white"}
ART = {"type": "image", "x": 10, "y": 10, "w": 40, "h": 40, "path": "red.png"}


@pytest.fixture
def art(tmp_path):
    Image.new("RGB", (500, 500), "red").save(tmp_path / "red.png")  # 317 dpi at 40 mm
    return tmp_path


def drawn(folder, **clip):
    return face(folder, [PAPER, {**ART, **clip}])


def test_an_image_cut_to_an_ellipse_shows_only_the_circle(art):
    image = pixels(drawn(art, clip="ellipse"))
    # the circle of radius 20 about (30, 30)
    for x, y in ((30, 30), (30, 10.5), (49.5, 30), (30 + 13.9, 30 + 13.9)):
        assert at(image, x, y) == RED, (x, y)
    for x, y in ((11, 11), (49, 49), (30 + 14.6, 30 + 14.6), (9.5, 30)):
        assert at(image, x, y) == WHITE, (x, y)


def test_an_image_cut_to_a_hexagon_and_a_star(art):
    hexagon = pixels(drawn(art, clip="polygon", sides=6))
    # corners at the top (30, 10) and bottom (30, 50); the sides at x = 30 -+ 17.32
    assert at(hexagon, 30, 11) == RED and at(hexagon, 12.9, 30) == RED
    assert at(hexagon, 12.4, 30) == WHITE and at(hexagon, 14, 12) == WHITE
    star = pixels(drawn(art, clip="star", points=4, inner=0.2))
    # a four-pointed star: points at the middles of the sides, inner corners 4 mm out
    assert at(star, 30, 11) == RED and at(star, 11, 30) == RED and at(star, 30, 30) == RED
    assert at(star, 20, 20) == WHITE and at(star, 40, 40) == WHITE


def test_a_rounded_rect_clip_rounds_the_corners(art):
    image = pixels(drawn(art, clip="rect", radius=8))
    assert (
        at(image, 10.5, 10.5) == WHITE and at(image, 13, 13) == RED and at(image, 30, 10.5) == RED
    )
    assert b"W*" in {op for _, op in operations(drawn(art, clip="rect", radius=8))}


def test_a_polygon_clip_needs_its_sides(tmp_path):
    layout = {"kind": "card", "size": "poker", "front": [{**ART, "clip": "polygon"}]}
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    assert [(p.pointer, p.message) for p in error.value.problems] == [
        ("/front/0", "missing required property 'sides'")
    ]

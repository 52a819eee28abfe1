"""Any element turned about its centre (`rotate`, degrees clockwise) and seen
through its `opacity`; worked by hand on a 60 x 80 mm card at 10 pixels per mm."""

from __future__ import annotations

import io
import json

import pytest
from face_drawing import MM, at, close, face, operations, pixels
from pypdf import PdfReader

from protopress.components.problems import InvalidInput
from protopress.generators.face import GroupOp
from protopress.generators.layout import load_layout
from protopress.generators.png_surface import face_pdf

WHITE, NAVY, RED = (255, 255, 255), (0, 0, 128), (255, 0, 0)
PAPER = {"type": "rect", "bleed": True, "fill": "white"}


def test_a_rect_turned_a_quarter_stands_on_its_centre(tmp_path):
    # 40 x 10 mm at (10, 30): centre (30, 35); turned, it covers x 25..35, y 15..55
    drawn = face(tmp_path, [PAPER, {"type": "rect", "x": 10, "y": 30, "w": 40, "h": 10,
                                    "fill": "navy", "rotate": 90}])  # fmt: skip
    image = pixels(drawn)
    for x, y in ((30, 16), (30, 54), (25.5, 35), (34.5, 35)):
        assert at(image, x, y) == NAVY, (x, y)
    for x, y in ((12, 35), (48, 35), (30, 14), (30, 56), (24.5, 20)):
        assert at(image, x, y) == WHITE, (x, y)


def test_the_turn_is_clockwise(tmp_path):
    # a 40 x 4 mm bar centred on (30, 40) turned 45 degrees clockwise (y down):
    # its right end goes down to (30 + 20 cos 45, 40 + 20 sin 45) = (44.1, 54.1)
    drawn = face(tmp_path, [PAPER, {"type": "rect", "x": 10, "y": 38, "w": 40, "h": 4,
                                    "fill": "navy", "rotate": 45}])  # fmt: skip
    image = pixels(drawn)
    assert at(image, 43, 53) == NAVY and at(image, 17, 27) == NAVY
    assert at(image, 43, 27) == WHITE and at(image, 17, 53) == WHITE


def test_the_page_turns_about_the_centre_with_one_matrix(tmp_path):
    drawn = face(tmp_path, [{"type": "rect", "x": 10, "y": 30, "w": 40, "h": 10,
                             "fill": "navy", "rotate": 30}])  # fmt: skip
    matrices = [[float(v) for v in operands] for operands, op in operations(drawn) if op == b"cm"]
    combined = [1.0, 0, 0, 1.0, 0, 0]
    for m in matrices:
        a, b, c, d, e, f = combined
        combined = [m[0] * a + m[1] * c, m[0] * b + m[1] * d, m[2] * a + m[3] * c,
                    m[2] * b + m[3] * d, m[4] * a + m[5] * c + e, m[4] * b + m[5] * d + f]  # fmt: skip
    cos, sin = 3**0.5 / 2, 0.5
    assert combined[:4] == pytest.approx([cos, -sin, sin, cos], abs=1e-4)
    cx, cy = 30 * MM, (80 - 35) * MM  # the centre, in the page's y-up points, stays put
    moved = (combined[0] * cx + combined[2] * cy + combined[4],
             combined[1] * cx + combined[3] * cy + combined[5])  # fmt: skip
    assert moved == pytest.approx((cx, cy), abs=1e-3)


def test_half_opacity_lets_half_the_paper_through(tmp_path):
    drawn = face(tmp_path, [PAPER, {"type": "rect", "x": 0, "y": 0, "w": 30, "h": 20,
                                    "fill": "red", "opacity": 0.5},
                            {"type": "text", "x": 0, "y": 40, "w": 60, "h": 30, "text": "I",
                             "size": 200, "colour": "navy", "opacity": 0.25}])  # fmt: skip
    image = pixels(drawn)
    assert close(at(image, 15, 10), (255, 128, 128), 2)  # red over white, half each
    assert at(image, 45, 10) == WHITE
    states = PdfReader(io.BytesIO(face_pdf(drawn))).pages[0]["/Resources"]["/ExtGState"]
    alphas = {(key, float(state[key])) for state in states.values() for key in state
              if key in ("/ca", "/CA")}  # fmt: skip
    assert alphas == {("/ca", 0.5), ("/CA", 0.5), ("/ca", 0.25), ("/CA", 0.25)}


def test_without_opacity_or_rotate_nothing_is_grouped(tmp_path):
    drawn = face(tmp_path, [PAPER])
    assert b"gs" not in {op for _, op in operations(drawn)}
    assert not any(isinstance(op, GroupOp) for op in drawn.ops)


def test_a_fragment_takes_neither(tmp_path):
    layout = {"kind": "card", "size": "poker", "fragments": {"f": []},
              "front": [{"type": "fragment", "use": "f", "rotate": 90}]}  # fmt: skip
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    assert [p.pointer for p in error.value.problems] == ["/front/0/rotate"]
    assert "'rotate' is not allowed here" in error.value.problems[0].message


def test_an_icon_row_turns_about_the_middle_of_its_icons(tmp_path):
    catalog = {"game": "t", "title": "T", "version": "1",
               "symbols": [{"id": "s", "name": "S", "shape": "square", "colour": "#000080"}]}  # fmt: skip
    # two squares of 8.8 mm (the square shape spans 0.88 of its 10 mm box), centred on
    # (15, 35) and (27, 35): their middle is (21, 35); a quarter turn clockwise moves
    # the first to (21, 29) and the second to (21, 41)
    row = {"type": "icons", "x": 10, "y": 30, "icon_size": 10, "gap": 2, "items": "{i}",
           "from": "symbols", "rotate": 90}  # fmt: skip
    image = pixels(face(tmp_path, [PAPER, row], {"i": ["s", "s"]}, catalog))
    assert at(image, 21, 29) == NAVY and at(image, 21, 41) == NAVY  # the two, stacked
    assert at(image, 15, 35) == WHITE and at(image, 27, 35) == WHITE  # none left in the row


def test_a_gradient_in_a_fragment_binds_its_colours(tmp_path):
    drawn = face(tmp_path, [{"type": "fragment", "use": "f", "with": {"top": "navy"}}],
                 fragments={"f": [{"type": "rect", "x": 0, "y": 0, "w": 60, "h": 80,
                                   "fill": {"linear": ["{top}", "{top}"]}}]})  # fmt: skip
    assert at(pixels(drawn), 30, 40) == NAVY

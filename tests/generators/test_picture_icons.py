"""Icons from image and SVG files: a component whose `icon` names a picture is
drawn as that picture wherever its icon is, in text (:id:) and in icon rows,
contained and centred in the icon's square (10 pixels per mm)."""

from __future__ import annotations

import pytest
from face_drawing import MM, face, pixels
from PIL import Image

from protopress.generators.face import ImageOp
from protopress.generators.face_builder import FaceProblem

RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)
PAPER = {"type": "rect", "bleed": True, "fill": "white"}
FIRE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">
<rect width="20" height="10" fill="#0000ff"/></svg>"""


@pytest.fixture
def catalog(tmp_path) -> dict:
    Image.new("RGB", (400, 400), "red").save(tmp_path / "gold.png")
    (tmp_path / "fire.svg").write_text(FIRE_SVG)
    return {"game": "t", "title": "T", "version": "1",
            "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "icon": "gold.png"},
                        {"id": "fire", "name": "Fire", "shape": "drop", "icon": "fire.svg"}]}  # fmt: skip


def _bbox(image, colour) -> tuple[float, float, float, float]:
    """The mm box (left, top, right, bottom) of the pixels of one colour."""
    box = image.convert("RGB")
    found = [(x, y) for x in range(0, box.width) for y in range(0, box.height, 2)
             if box.getpixel((x, y)) == colour]  # fmt: skip
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return min(xs) / 10, min(ys) / 10, (max(xs) + 1) / 10, (max(ys) + 1) / 10


def test_an_icon_row_draws_each_picture_in_its_square(tmp_path, catalog):
    drawn = face(tmp_path, [PAPER, {"type": "icons", "x": 10, "y": 30, "icon_size": 10,
                                    "gap": 2, "items": "{gems}", "from": "symbols"}],
                 {"gems": ["gold", "fire"]}, catalog)  # fmt: skip
    assert [type(op) for op in drawn.ops[1:]] == [ImageOp, ImageOp]
    image = pixels(drawn)
    assert _bbox(image, RED) == pytest.approx((10, 30, 20, 40), abs=0.15)  # the square
    # the 2:1 SVG contained in the next square, 12 mm on: 10 x 5 mm, centred down
    assert _bbox(image, BLUE) == pytest.approx((22, 32.5, 32, 37.5), abs=0.15)


def test_an_icon_in_text_is_its_picture_as_tall_as_the_text(tmp_path, catalog):
    text = {
        "type": "text",
        "x": 5,
        "y": 5,
        "w": 50,
        "h": 20,
        "size": 20,
        "text": ":gold: and :fire:",
    }
    image = pixels(face(tmp_path, [PAPER, text], {}, catalog))
    left, top, right, bottom = _bbox(image, RED)
    side = 20 / MM  # 20 pt: 7.06 mm
    assert left == pytest.approx(5, abs=0.15) and right - left == pytest.approx(side, abs=0.15)
    assert bottom - top == pytest.approx(side, abs=0.15)
    left, top, right, bottom = _bbox(image, BLUE)
    assert right - left == pytest.approx(side, abs=0.15)
    assert bottom - top == pytest.approx(side / 2, abs=0.15)


def test_a_component_of_any_collection_lends_its_own_art(tmp_path, catalog):
    Image.new("RGB", (300, 300), "red").save(tmp_path / "dragon.png")
    catalog["cards"] = [{"id": "c1", "title": "C"},
                        {"id": "dragon", "title": "Dragon", "icon": "dragon.png"}]  # fmt: skip
    text = {"type": "text", "x": 5, "y": 5, "w": 50, "h": 20, "size": 20,
            "text": "Beware :dragon:", "icons": "cards"}  # fmt: skip
    image = pixels(face(tmp_path, [PAPER, text], None, catalog))
    left, top, right, bottom = _bbox(image, RED)
    assert right - left == pytest.approx(20 / MM, abs=0.15) and left > 15


def test_a_missing_icon_file_is_a_problem_at_the_element(tmp_path, catalog):
    catalog["symbols"][0]["icon"] = "gld.png"
    with pytest.raises(FaceProblem) as error:
        face(tmp_path, [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 20, "text": ":gold:"}],
             {}, catalog)  # fmt: skip
    (problem,) = error.value.problems
    assert problem.pointer == "/front/0/text"
    assert "the icon of symbols 'gold': image 'gld.png' not found" in problem.message

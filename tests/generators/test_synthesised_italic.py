"""<i> in a font without an italic: the upright letters drawn sheared 12 degrees
about the baseline (a synthesised italic), in the PDF's text matrix and so in
the PNG; measuring and wrapping are the upright's."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from face_drawing import face, operations, pixels
from fontTools.ttLib import TTFont

from protopress.generators.fonts import BUILTIN_FONTS
from protopress.generators.rich import RichTextOp

FONTS = Path(__file__).parents[1] / "data" / "fonts"
TEXT = {"type": "text", "x": 5, "y": 5, "w": 50, "h": 40, "size": 10, "font": "body"}
TAN_12 = 0.2125565616700221  # tan(12 degrees), worked out by hand: sin 12 / cos 12


def _advance(font_file: Path, text: str, size: float) -> float:
    """The advance of text in points, summed from the font's own hmtx table."""
    font = TTFont(font_file)
    cmap, hmtx = font.getBestCmap(), font["hmtx"]
    units = sum(hmtx[cmap[ord(char)]][0] for char in text)
    return units * size / font["head"].unitsPerEm


def _body(tmp_path: Path, **variants: str) -> dict[str, str]:
    """A font 'body' (Vera, upright) and the variants named, copied into tmp_path."""
    fonts = {"body": "Body.ttf", **{f"body-{v}": f"Body-{v}.ttf" for v in variants}}
    shutil.copy(BUILTIN_FONTS["sans"], tmp_path / "Body.ttf")
    for variant, builtin in variants.items():
        shutil.copy(BUILTIN_FONTS[builtin], tmp_path / f"Body-{variant}.ttf")
    return fonts


def _shown(drawn) -> list[tuple[tuple[float, ...], str, str]]:
    """(text matrix, font resource, text) of each text showing operator, in order."""
    found, matrix, font = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), ""
    for operands, op in operations(drawn):
        if op == b"BT":
            matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        elif op == b"Tm":
            matrix = tuple(float(v) for v in operands)
        elif op == b"Tf":
            font = str(operands[0])
        elif op == b"Tj":
            found.append((matrix, font, str(operands[0])))
    return found


def test_the_slant_is_twelve_degrees():
    assert math.tan(math.radians(12)) == pytest.approx(TAN_12)


def test_italic_without_an_italic_font_is_sheared_about_the_baseline(tmp_path):
    drawn = face(tmp_path, [{**TEXT, "text": "a <i>bb</i> c"}], fonts=_body(tmp_path))
    runs = _shown(drawn)
    (upright,) = [run for run in runs if run[2].startswith("a ")]
    (slanted,) = [run for run in runs if run[2] == "bb"]
    a, b, c, d, e, f = slanted[0]
    assert (a, b, c, d) == pytest.approx((1, 0, TAN_12, 1), abs=1e-4)  # x += tan(12) y
    # it starts where "a " ends, on the same baseline: the skew does not move it
    assert e == pytest.approx(upright[0][4] + _advance(tmp_path / "Body.ttf", "a ", 10), abs=0.01)
    assert f == pytest.approx(upright[0][5], abs=1e-6)
    assert upright[0][:4] == (1, 0, 0, 1)  # the rest stays upright
    assert slanted[1] == upright[1]  # in the upright font itself
    assert drawn.warnings == (
        "c1: <i> is drawn slanted: the layout has no italic of the font 'body' (add one as "
        "body-italic under fonts)",
    )


def test_a_real_italic_is_used_and_nothing_is_sheared(tmp_path):
    fonts = _body(tmp_path, italic="sans-italic")
    drawn = face(tmp_path, [{**TEXT, "text": "a <i>bb</i> c"}], fonts=fonts)
    runs = _shown(drawn)
    assert all(matrix[2] == 0 for matrix, _, _ in runs)
    assert len({font for _, font, _ in runs}) == 2  # body and body-italic
    assert drawn.warnings == ()


def test_bold_italic_without_one_is_the_bold_sheared(tmp_path):
    fonts = _body(tmp_path, bold="sans-bold")
    drawn = face(tmp_path, [{**TEXT, "text": "a <b>b</b> <b><i>bi</i></b>"}], fonts=fonts)
    runs = _shown(drawn)
    (bold,) = [run for run in runs if run[2] == "b"]
    (bold_slanted,) = [run for run in runs if run[2] == "bi"]
    assert bold_slanted[0][2] == pytest.approx(TAN_12, abs=1e-4)
    assert bold_slanted[1] == bold[1]  # the bold, not the regular


def test_italic_inside_text_set_in_an_italic_is_not_slanted_again(tmp_path):
    fonts = _body(tmp_path, italic="sans-italic")
    drawn = face(tmp_path, [{**TEXT, "font": "body-italic", "text": "a <i>b</i>"}], fonts=fonts)
    assert all(matrix[2] == 0 for matrix, _, _ in _shown(drawn))
    assert drawn.warnings == ()


def test_shearing_does_not_change_the_size_text_fits_at(tmp_path):
    fonts = _body(tmp_path)
    long = "word " * 30

    def fitted(text: str) -> float:
        drawn = face(tmp_path, [{**TEXT, "h": 12, "text": text}], fonts=fonts)
        (op,) = [op for op in drawn.ops if isinstance(op, RichTextOp)]
        return op.size

    assert fitted(f"<b>x</b> {long}") < 10  # shrunk to fit
    assert fitted(f"<i>x {long}</i>") == fitted(f"<b>x</b> {long}")  # body has no bold either


def test_right_to_left_italic_is_sheared_too(tmp_path):
    shutil.copy(FONTS / "DejaVuSans-scripts.ttf", tmp_path / "Scripts.ttf")
    text = {**TEXT, "text": "<i>שלום</i> עולם"}
    drawn = face(tmp_path, [text], fonts={"body": "Scripts.ttf"})
    shears = [matrix[2] for matrix, _, _ in _shown(drawn)]
    assert shears and max(shears) == pytest.approx(TAN_12, abs=1e-4)
    assert min(shears) == 0  # the upright word
    assert "<i> is drawn slanted" in drawn.warnings[0]


def _lean(image, box: tuple[int, int, int, int]) -> float:
    """How far right the ink's middle is at the top of box against its bottom,
    in pixels, over rows a quarter of the way in from each end of the ink."""
    left, top, right, bottom = box
    rows = [y for y in range(top, bottom) if any(_inked(image, x, y) for x in range(left, right))]
    high, low = rows[len(rows) // 4], rows[3 * len(rows) // 4]

    def middle(y: int) -> float:
        inked = [x for x in range(left, right) if _inked(image, x, y)]
        return (min(inked) + max(inked)) / 2

    return (middle(high) - middle(low)) / (low - high)


def _inked(image, x: int, y: int) -> bool:
    return sum(image.getpixel((x, y))[:3]) < 3 * 128


def test_the_png_leans_as_the_pdf(tmp_path):
    # an "l" 60 pt tall is a vertical stem: upright its middle stays over itself,
    # slanted it moves right by tan(12 degrees) per pixel it rises
    fonts = _body(tmp_path)
    box = (0, 0, 600, 400)  # the top 40 mm of the card, 10 pixels per millimetre
    element = {**TEXT, "x": 5, "y": 5, "w": 50, "h": 30, "size": 60}
    upright = pixels(face(tmp_path, [{**element, "text": "<b>l</b>"}], fonts=fonts))
    slanted = pixels(face(tmp_path, [{**element, "text": "<i>l</i>"}], fonts=fonts))
    assert _lean(upright, box) == pytest.approx(0, abs=0.02)
    assert _lean(slanted, box) == pytest.approx(TAN_12, abs=0.03)

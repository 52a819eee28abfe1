"""The duplex calibration page, checked as a user would use it: rasterise both
sides, look at the back through the front (mirrored as the flip mirrors it),
measure how far the back targets sit from the front ones, and follow the
page's own instruction: the offset it gives must undo the error."""

import io
import re

import pytest
from pypdf import PdfReader

from protopress.generators.alignment import alignment_pdf, instructions, text_box
from protopress.generators.imposition import Line, SheetSpec, alignment_test
from protopress.generators.units import MM, PAPER

pdfium = pytest.importorskip("pypdfium2")

DPI = 150


def pages(data: bytes):
    document = pdfium.PdfDocument(data)
    try:
        return [
            page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L") for page in document
        ]
    finally:
        document.close()


def centre_crosshair(image) -> tuple[float, float]:
    """(x, y) in mm from the top left of the centre target's cross-hairs: the
    darkest column and row within 30 mm of the page centre (the 40 mm hairs are
    the longest lines there), refined to a fraction of a pixel by the ink's
    centroid across the hairline."""
    px = DPI / 25.4
    width, height = image.size
    left, top = int(width / 2 - 30 * px), int(height / 2 - 30 * px)
    window = image.crop((left, top, left + int(60 * px), top + int(60 * px)))
    w, h = window.size
    data = window.load()
    columns = [sum(255 - data[x, y] for y in range(h)) for x in range(w)]
    rows = [sum(255 - data[x, y] for x in range(w)) for y in range(h)]
    return (left + _peak(columns)) / px, (top + _peak(rows)) / px


def _peak(profile: list[int]) -> float:
    """The ink-weighted centre (in pixels, pixel centres at +0.5) around the maximum."""
    at = profile.index(max(profile))
    near = range(max(at - 2, 0), min(at + 3, len(profile)))
    floor = sorted(profile)[len(profile) // 2]  # the background: short lines and paper
    weights = [max(profile[i] - floor, 0) for i in near]
    return sum((i + 0.5) * wt for i, wt in zip(near, weights, strict=True)) / sum(weights)


def seen_through_the_front(data: bytes, paper: str, duplex: str) -> tuple[float, float]:
    """How far (mm, right and down) the back's centre target appears from the
    front's when the printed sheet is held to the light, front facing you."""
    front, back = pages(data)
    width, height = (v / MM for v in PAPER[paper])
    fx, fy = centre_crosshair(front)
    bx, by = centre_crosshair(back)
    if duplex == "long":  # the sheet turns over its long (vertical) edge
        bx = width - bx
    else:  # over its short (horizontal) edge
        by = height - by
    return bx - fx, by - fy


def follow_the_instruction(data: bytes, seen: tuple[float, float]) -> tuple[float, float]:
    """The --back-offset the page's own text asks for, given what was seen."""
    text = " ".join(PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    formula = re.search(r"--back-offset (-?X),(-?Y)", text)
    assert formula, text
    x, y = seen
    return (-x if formula[1] == "-X" else x), (-y if formula[2] == "-Y" else y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_page_s_correction_undoes_a_measured_printer_error(paper, duplex):
    # A printer that shifts every back page 2 mm right and 1 mm down (as seen
    # from the back) prints what --back-offset 2,1 prints on a perfect printer.
    error = (2.0, 1.0)
    data = alignment_pdf(paper, duplex, (error[0] * MM, error[1] * MM))
    seen = seen_through_the_front(data, paper, duplex)
    # Through the front a long-edge flip mirrors left-right: the back targets
    # appear 2 mm LEFT and 1 mm down; a short-edge flip mirrors up-down.
    expected = (-2.0, 1.0) if duplex == "long" else (2.0, -1.0)
    assert seen == (pytest.approx(expected[0], abs=0.25), pytest.approx(expected[1], abs=0.25))
    correction = follow_the_instruction(data, seen)
    assert correction == (pytest.approx(-error[0], abs=0.25), pytest.approx(-error[1], abs=0.25))
    # Printed again with that correction, the same printer lines the targets up.
    fixed = alignment_pdf(paper, duplex, ((error[0] + correction[0]) * MM,
                                          (error[1] + correction[1]) * MM))  # fmt: skip
    assert seen_through_the_front(fixed, paper, duplex) == (
        pytest.approx(0, abs=0.25),
        pytest.approx(0, abs=0.25),
    )


def test_a_perfect_printer_lines_the_targets_up():
    seen = seen_through_the_front(alignment_pdf("a4", "long", (0, 0)), "a4", "long")
    assert seen == (pytest.approx(0, abs=0.25), pytest.approx(0, abs=0.25))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_instructions_are_whole_and_clear_of_the_targets(paper):
    spec = SheetSpec(PAPER[paper], back_offset=(1.5 * MM, 0))
    data = alignment_pdf(paper, "long", spec.back_offset)
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    # Every word whole: the lines, joined, are the instructions word for word.
    body = text.split("\n")[1:]
    assert " ".join(" ".join(body).split()) == " ".join(instructions(spec).split())
    assert "(1.5,0)" in text
    # The text box misses every target shape and keeps 5 mm from the paper edge.
    box = text_box(spec)
    width, height = spec.paper
    assert box.x >= 5 * MM and box.y >= 5 * MM
    assert box.right <= width - 5 * MM and box.bottom <= height - 5 * MM
    for shape in alignment_test(spec).front:
        if isinstance(shape, Line):
            x0, x1 = sorted((shape.x1, shape.x2))
            y0, y1 = sorted((shape.y1, shape.y2))
        else:
            x0, y0, x1, y1 = shape.x, shape.y, shape.right, shape.bottom
        assert x1 < box.x or x0 > box.right or y1 < box.y or y0 > box.bottom, shape

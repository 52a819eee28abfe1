"""A two-sided calibration page for home duplex printers: print it duplex, hold
it to the light, and read how far the back targets sit from the front ones;
then render with --back-offset to correct it."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from protopress.atomic import write_atomic
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.imposition import Line, Rect, SheetSpec, alignment_test
from protopress.generators.units import MM, PAPER

INSTRUCTIONS = (
    "Print both pages duplex at 100% scale ({duplex}-edge flip). Hold the sheet to the light: "
    "if the back targets sit X mm right and Y mm down of the front ones, render with "
    "--back-offset -X,-Y."
)


def alignment_pdf(paper: str, duplex: str, back_offset: tuple[float, float]) -> bytes:
    size = PAPER[paper]
    spec = SheetSpec(paper=size, duplex=duplex if duplex != "none" else "long",
                     back_offset=back_offset)  # fmt: skip
    page = alignment_test(spec)
    buffer = io.BytesIO()
    base = font(DEFAULT_FONT)
    canvas = Canvas(buffer, pagesize=size, invariant=1, initialFontName=base.name)
    canvas.setTitle("protopress duplex alignment test")
    for side, shapes in (("front", page.front), ("back", page.back)):
        canvas.setLineWidth(0.3)
        for shape in shapes:
            _draw(canvas, shape, size[1])
        canvas.setFont(base.name, 8)
        canvas.drawString(15 * MM, 12 * MM, f"{side} page")
        if side == "front":
            canvas.setFont(base.name, 7)
            canvas.drawString(15 * MM, 8 * MM, INSTRUCTIONS.format(duplex=spec.duplex)[:150])
            canvas.drawString(15 * MM, 5 * MM, INSTRUCTIONS.format(duplex=spec.duplex)[150:])
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw(canvas: Canvas, shape: Line | Rect, height: float) -> None:
    if isinstance(shape, Line):
        canvas.line(shape.x1, height - shape.y1, shape.x2, height - shape.y2)
    else:
        canvas.rect(shape.x, height - shape.y - shape.height, shape.width, shape.height)


def write_alignment_test(folder: Path, paper: str, duplex: str, back_offset) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "alignment-test.pdf"
    write_atomic(path, alignment_pdf(paper, duplex, back_offset))
    return path

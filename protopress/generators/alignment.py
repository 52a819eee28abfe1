"""A two-sided calibration page for home duplex printers: print it duplex, hold
it to the light, and read how far the back targets sit from the front ones;
then render with --back-offset to correct it.

The sign of the correction follows from the flip. --back-offset X,Y moves the
back page's content X mm right and Y mm down *on the back page*, as seen from
the back. Under a long-edge flip (portrait paper) the back is mirrored left to
right when seen through the front, so a back target seen X mm right of its
front target was printed X mm too far left on the back and is corrected by
+X; up and down are not mirrored, so Y mm down is corrected by -Y. Under a
short-edge flip it is the other way round: -X and +Y.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from protopress.atomic import write_atomic
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.imposition import (
    TARGET_REACH,
    Line,
    Rect,
    SheetSpec,
    alignment_test,
    flips_x,
)
from protopress.generators.text import wrap
from protopress.generators.units import MM, PAPER, to_mm

TEXT_SIZE = 7.5  # points
TITLE_SIZE = 9
TEXT_GAP = 3 * MM  # between the text block and the corner targets' cross-hairs


def correction_formula(spec: SheetSpec) -> str:
    """The --back-offset that undoes back targets seen X mm right and Y mm down."""
    return "X,-Y" if flips_x(spec) else "-X,Y"


def instructions(spec: SheetSpec) -> str:
    dx, dy = (f"{to_mm(v):g}" for v in spec.back_offset)
    return (
        f"Print both pages duplex at 100% scale, {spec.duplex}-edge flip. Hold the sheet "
        "to the light with this side facing you. If the back targets sit X mm right and "
        "Y mm down of the front ones (negative for left or up; read them on the scales "
        "under and beside the centre target), render with "
        f"--back-offset {correction_formula(spec)} added to the offset this page was "
        f"printed with ({dx},{dy})."
    )


def text_box(spec: SheetSpec) -> Rect:
    """Where the text goes: between the two top targets' cross-hairs, below the
    edge band, down to the bottom of those targets."""
    width, _ = spec.paper
    page = alignment_test(spec)
    (left_x, top_y), (right_x, _) = page.centres[1], page.centres[2]
    x0, x1 = left_x + TARGET_REACH + TEXT_GAP, right_x - TARGET_REACH - TEXT_GAP
    y0 = max(spec.inset, top_y - TARGET_REACH)
    return Rect(x0, y0, x1 - x0, top_y + TARGET_REACH - y0)


def alignment_pdf(paper: str, duplex: str, back_offset: tuple[float, float]) -> bytes:
    size = PAPER[paper]
    spec = SheetSpec(paper=size, duplex=duplex if duplex != "none" else "long",
                     back_offset=back_offset)  # fmt: skip
    page = alignment_test(spec)
    box = text_box(spec)
    base = font(DEFAULT_FONT)
    lines, fits = wrap(instructions(spec), base, TEXT_SIZE, box.width)
    leading = TEXT_SIZE * 1.25
    if not fits or base.ascent(TITLE_SIZE) + 4 + len(lines) * leading > box.height:
        raise ValueError("the alignment page's instructions do not fit between its targets")
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=size, invariant=1, initialFontName=base.name)
    canvas.setTitle("protopress duplex alignment test")
    for side, shapes in (("front", page.front), ("back", page.back)):
        canvas.setLineWidth(0.3)
        for shape in shapes:
            _draw(canvas, shape, size[1])
        title = size[1] - box.y - base.ascent(TITLE_SIZE)
        canvas.setFont(base.name, TITLE_SIZE)
        canvas.drawString(box.x, title, f"{side} page")
        if side == "front":
            canvas.setFont(base.name, TEXT_SIZE)
            for number, line in enumerate(lines, 1):
                canvas.drawString(box.x, title - 4 - number * leading, line)
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

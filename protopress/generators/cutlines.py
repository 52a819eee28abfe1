"""Drawing the cut paths of components whose cut is not straight (see
imposition.SheetPlan.cut_outlines): rounded corners, hexes and circles."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from protopress.generators.imposition import Outline


def draw_outline(canvas: Canvas, outline: Outline, height: float) -> None:
    """Stroke one closed cut path on a page height points tall (y measured down)."""
    if outline.points:
        path = canvas.beginPath()
        (x, y), *rest = outline.points
        path.moveTo(x, height - y)
        for x, y in rest:
            path.lineTo(x, height - y)
        path.close()
        canvas.drawPath(path, stroke=1, fill=0)
        return
    rect = outline.rect
    canvas.roundRect(
        rect.x, height - rect.bottom, rect.width, rect.height, outline.radius, stroke=1, fill=0
    )

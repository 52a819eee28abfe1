"""Draw faces on a reportlab canvas. Each face becomes a PDF form, drawn once
and placed wherever the component appears (copies, sheets, backs)."""

from __future__ import annotations

import re

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from protopress.generators.colours import Colour
from protopress.generators.face import Face, ImageOp, LineOp, PolygonOp, RectOp, TextOp
from protopress.generators.rich import InlineIcon, RichTextOp, icon_contours
from protopress.generators.rich import draw as draw_rich


class FaceCanvas(Canvas):
    """A canvas that draws the icons inside rich text as vectors: Paragraph hands
    them to drawImage as it places its inline images."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cmyk = kwargs.get("enforceColorSpace") == "cmyk"

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):  # noqa: N802
        if not isinstance(image, InlineIcon):
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        self.saveState()
        if self.cmyk:
            self.setFillColorCMYK(*image.colour.cmyk())
        else:
            self.setFillColorRGB(image.colour.r, image.colour.g, image.colour.b)
        path = self.beginPath()
        for contour in icon_contours(image, x, y, width):
            path.moveTo(*contour[0])
            for point in contour[1:]:
                path.lineTo(*point)
            path.close()
        self.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
        self.restoreState()
        return (width, height)


class PdfFaces:
    def __init__(self, canvas: Canvas, cmyk: bool = False):
        self.canvas = canvas
        self.cmyk = cmyk
        self._forms: dict[tuple, str] = {}  # drawing -> form name

    def set_fill(self, colour: Colour) -> None:
        if self.cmyk:
            self.canvas.setFillColorCMYK(*colour.cmyk())
        else:
            self.canvas.setFillColorRGB(colour.r, colour.g, colour.b)

    def set_stroke(self, colour: Colour) -> None:
        if self.cmyk:
            self.canvas.setStrokeColorCMYK(*colour.cmyk())
        else:
            self.canvas.setStrokeColorRGB(colour.r, colour.g, colour.b)

    def place(
        self,
        face: Face,
        x: float,
        y: float,
        page_height: float,
        turn: int = 0,
        clip=None,
        reuse: bool = False,
    ) -> None:
        """Put a face in the slot whose top-left corner is (x, y) from the page's top-left.

        turn is 0, 90 (a quarter turn clockwise) or -90 (anticlockwise); a turned
        face occupies a slot face.height wide and face.width tall. clip (a rect
        with x, y, width, height from the page's top-left) keeps the face's bleed
        off a neighbour that shares its cut. A face placed more than once (reuse)
        becomes a form, drawn once; faces with the same drawing share one form.
        """
        canvas = self.canvas
        canvas.saveState()
        if clip is not None:
            path = canvas.beginPath()
            path.rect(clip.x, page_height - clip.y - clip.height, clip.width, clip.height)
            canvas.clipPath(path, stroke=0, fill=0)
        if turn == 90:  # the face's top edge runs down the slot's right side
            canvas.translate(x, page_height - y)
            canvas.rotate(-90)
        elif turn == -90:  # the face's top edge runs up the slot's left side
            canvas.translate(x + face.height, page_height - y - face.width)
            canvas.rotate(90)
        else:
            canvas.translate(x, page_height - y - face.height)
        if reuse:
            canvas.doForm(self.form(face))
        else:
            self.draw(face)
        canvas.restoreState()

    def form(self, face: Face) -> str:
        """The name of the PDF form that draws face (made on first use)."""
        key = (face.width, face.height, face.ops)
        if key not in self._forms:
            name = re.sub(r"[^A-Za-z0-9]", "_", face.name)
            self.canvas.beginForm(name, 0, 0, face.width, face.height)
            self.draw(face)
            self.canvas.endForm()
            self._forms[key] = name
        return self._forms[key]

    def draw(self, face: Face) -> None:
        """Draw a face's operations with its bottom-left corner at the origin."""
        height = face.height
        canvas = self.canvas
        for op in face.ops:
            if isinstance(op, RectOp):
                self._paint(op.fill, op.stroke, op.stroke_width)
                canvas.roundRect(op.x, height - op.y - op.h, op.w, op.h, op.radius,
                                 stroke=int(op.stroke is not None), fill=int(op.fill is not None))  # fmt: skip
            elif isinstance(op, LineOp):
                self._paint(None, op.stroke, op.stroke_width)
                canvas.setDash(list(op.dash) if op.dash else [])
                canvas.line(op.x1, height - op.y1, op.x2, height - op.y2)
            elif isinstance(op, PolygonOp):
                self._paint(op.fill, op.stroke, op.stroke_width)
                path = canvas.beginPath()
                for contour in op.contours:
                    path.moveTo(contour[0][0], height - contour[0][1])
                    for px, py in contour[1:]:
                        path.lineTo(px, height - py)
                    path.close()
                canvas.drawPath(path, stroke=int(op.stroke is not None),
                                fill=int(op.fill is not None), fillMode=FILL_EVEN_ODD)  # fmt: skip
            elif isinstance(op, TextOp):
                self.set_fill(op.colour)
                canvas.setFont(op.font.name, op.size)
                for x, baseline, text in op.runs:
                    canvas.drawString(x, height - baseline, text)
            elif isinstance(op, RichTextOp):
                draw_rich(op, canvas, height, self.cmyk)
            elif isinstance(op, ImageOp):
                canvas.saveState()
                if op.clip is not None:
                    cx, cy, cw, ch = op.clip
                    path = canvas.beginPath()
                    path.rect(cx, height - cy - ch, cw, ch)
                    canvas.clipPath(path, stroke=0, fill=0)
                canvas.drawImage(str(op.path), op.x, height - op.y - op.h, op.w, op.h)
                canvas.restoreState()

    def _paint(self, fill: Colour | None, stroke: Colour | None, width: float) -> None:
        if fill is not None:
            self.set_fill(fill)
        if stroke is not None:
            self.set_stroke(stroke)
            self.canvas.setLineWidth(width)
            self.canvas.setDash([])  # solid unless a dashed line sets its own pattern

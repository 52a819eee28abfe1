"""Draw faces on a reportlab canvas. Each face becomes a PDF form, drawn once
and placed wherever the component appears (copies, sheets, backs)."""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path
from typing import Protocol

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from protopress.generators.colours import Colour, Gradient
from protopress.generators.face import (
    EllipseOp,
    Face,
    FaceOp,
    GroupOp,
    ImageOp,
    LineOp,
    Op,
    PolygonOp,
    RectOp,
    TextOp,
)
from protopress.generators.rich import SLANT, Glued, InlineIcon, RichTextOp, icon_contours
from protopress.generators.rich import draw as draw_rich
from protopress.generators.scripts import PlacedIcon, ShapedTextOp
from protopress.generators.separation import SeparatedImage, Separation
from protopress.generators.vector_art import VectorArt, cmyk_drawing

LINE_CAPS = {"butt": 0, "round": 1, "square": 2}  # PDF's line cap styles


class FaceCanvas(Canvas):
    """A canvas that draws the icons inside rich text as vectors: Paragraph hands
    them to drawImage as it places its inline images. With a separation every
    colour is CMYK, and reportlab refuses any RGB colour that slips through."""

    def __init__(self, *args, separation: Separation | None = None, **kwargs):
        if separation is not None:
            kwargs["enforceColorSpace"] = "cmyk"
        super().__init__(*args, **kwargs)
        self.separation = separation

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):  # noqa: N802
        if isinstance(image, InlineIcon):
            fill_icon(self, image, x, y, width, self.separation)
        elif isinstance(image, Glued):
            self._draw_glued(image, x, y)
        else:
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        return (width, height)

    def _draw_glued(self, glued: Glued, x: float, y: float) -> None:
        """The icons and letters of a glued word, left to right from x, on baseline y."""
        for part in glued.parts:
            if isinstance(part, InlineIcon):
                fill_icon(self, part, x, y, glued.size, self.separation)
                x += glued.size
                continue
            self.saveState()
            if part.slanted:  # a synthesised italic: the text matrix shears it about the baseline
                self.setFillColor(part.colour)
                letters = self.beginText()
                letters.setTextTransform(1, 0, SLANT, 1, x, y)
                letters.setFont(part.font, part.size)
                letters.textOut(part.text)
                self.drawText(letters)
            else:
                self.setFont(part.font, part.size)
                self.setFillColor(part.colour)
                self.drawString(x, y, part.text)
            self.restoreState()
            x += part.width


def fill_icon(canvas: Canvas, icon: InlineIcon, x: float, y: float, size: float,
              separation: Separation | None) -> None:  # fmt: skip
    """An inline icon as a vector shape, or its picture contained and centred, in a
    y-up box whose bottom-left corner is (x, y)."""
    if icon.image is not None:
        _icon_picture(canvas, icon, x, y, size, separation)
        return
    canvas.saveState()
    if separation is not None:
        canvas.setFillColorCMYK(*separation.colour(icon.colour))
    else:
        canvas.setFillColorRGB(icon.colour.r, icon.colour.g, icon.colour.b)
    path = canvas.beginPath()
    for contour in icon_contours(icon, x, y, size):
        path.moveTo(*contour[0])
        for point in contour[1:]:
            path.lineTo(*point)
        path.close()
    canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
    canvas.restoreState()


def _draw_vectors(drawing, canvas: Canvas) -> None:
    """An SVG's drawing at the canvas's origin; reportlab's graphics are slow to
    import, so only a catalog with SVG art loads them."""
    from reportlab.graphics import renderPDF

    renderPDF.draw(drawing, canvas, 0, 0)


def _icon_picture(canvas: Canvas, icon: InlineIcon, x: float, y: float, size: float,
                  separation: Separation | None) -> None:  # fmt: skip
    """An icon's own picture (raster or SVG), contained in the square of side size."""
    assert icon.image is not None
    width, height = icon.image_size
    scale = size / max(width, height)
    w, h = width * scale, height * scale
    left, bottom = x + (size - w) / 2, y + (size - h) / 2
    if icon.art is None:
        art = str(icon.image) if separation is None else _SeparatedArt(separation.image(icon.image))
        canvas.drawImage(art, left, bottom, w, h, mask="auto")
        return
    drawing = icon.art.drawing if separation is None else cmyk_drawing(icon.art, separation)
    canvas.saveState()
    canvas.translate(left, bottom)
    canvas.scale(w / icon.art.width, h / icon.art.height)
    _draw_vectors(drawing, canvas)
    canvas.restoreState()


def draw_shaped(
    canvas: Canvas, op: ShapedTextOp, height: float, separation: Separation | None
) -> None:
    """Shaped lines, glyphs in visual order: those that follow on at their font's
    advance share one string, the others (marks, kerned pairs) are placed."""
    text = canvas.beginText()
    icons = []
    for x, baseline, line in op.lines:
        for part in line.parts:
            if isinstance(part, PlacedIcon):
                icons.append((part.icon, x + part.x, height - baseline))
                continue
            text.setFont(part.font.name, op.size)
            # a synthesised italic: each placed piece starts under a sheared text matrix
            place = (functools.partial(text.setTextTransform, 1, 0, SLANT, 1) if part.slanted
                     else text.setTextOrigin)  # fmt: skip
            pending, after = "", None
            for glyph in part.glyphs:
                at = (x + glyph.x, height - baseline + glyph.rise)
                if after is None or abs(at[0] - after[0]) > 1e-3 or abs(at[1] - after[1]) > 1e-6:
                    if pending:
                        text.textOut(pending)
                    place(*at)
                    pending = ""
                pending += glyph.char
                after = (at[0] + stringWidth(glyph.char, part.font.name, op.size), at[1])
            if pending:
                text.textOut(pending)
    canvas.drawText(text)
    for icon, x, y in icons:
        fill_icon(canvas, icon, x, y, op.size, separation)


class _SeparatedArt(ImageReader):
    """CMYK art for reportlab, its alpha handed over as the soft mask that
    reportlab otherwise makes only from RGBA and LA images."""

    def __init__(self, art: SeparatedImage):
        super().__init__(art.cmyk)
        self._alpha = art.alpha

    def getRGBData(self):  # noqa: N802 - reportlab's name
        data = super().getRGBData()
        if self._alpha is not None:
            self._dataA = ImageReader(self._alpha)
        return data


class FacePreparer(Protocol):
    """What a surface applies to every face before drawing it, and the
    separated pictures it made for them (the flattening of a PDF/X-1a file)."""

    def face(self, face: Face) -> Face: ...

    def art(self, path: Path) -> SeparatedImage | None: ...


class PdfFaces:
    """Faces drawn on one canvas; prepare (a FacePreparer), when given, is
    applied to every face before it is drawn."""

    def __init__(
        self,
        canvas: Canvas,
        separation: Separation | None = None,
        prepare: FacePreparer | None = None,
    ):
        self.canvas = canvas
        self.separation = separation
        self.prepare = prepare
        self._forms: dict[tuple, str] = {}  # drawing -> form name
        self._cmyk_art: dict[int, tuple[VectorArt, object]] = {}  # SVG art separated to CMYK

    def set_fill(self, colour: Colour) -> None:
        if self.separation is not None:
            self.canvas.setFillColorCMYK(*self.separation.colour(colour))
        else:
            self.canvas.setFillColorRGB(colour.r, colour.g, colour.b)

    def set_stroke(self, colour: Colour) -> None:
        if self.separation is not None:
            self.canvas.setStrokeColorCMYK(*self.separation.colour(colour))
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
        face = self.prepare.face(face) if self.prepare is not None else face
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
        face = self.prepare.face(face) if self.prepare is not None else face
        key = face.drawing  # faces that draw alike share one form, whatever their names
        if key not in self._forms:
            name = re.sub(r"[^A-Za-z0-9]", "_", face.name)
            self.canvas.beginForm(name, 0, 0, face.width, face.height)
            self.draw(face)
            self.canvas.endForm()
            self._forms[key] = name
        return self._forms[key]

    def draw(self, face: Face) -> None:
        """Draw a face's operations with its bottom-left corner at the origin."""
        for op in face.ops:
            self._op(op, face)

    def _op(self, op: Op, face: Face) -> None:
        height = face.height
        canvas = self.canvas
        if isinstance(op, (RectOp, EllipseOp, PolygonOp)) and isinstance(op.fill, Gradient):
            self._gradient(op, op.fill, height)
        elif isinstance(op, RectOp):
            self._paint(op.fill, op.stroke, op.stroke_width)
            canvas.roundRect(op.x, height - op.y - op.h, op.w, op.h, op.radius,
                             stroke=int(op.stroke is not None), fill=int(op.fill is not None))  # fmt: skip
        elif isinstance(op, LineOp):
            self._paint(None, op.stroke, op.stroke_width)
            canvas.setDash(list(op.dash) if op.dash else [])
            if op.cap != "butt":  # the cap stays the line's own
                canvas.saveState()
                canvas.setLineCap(LINE_CAPS[op.cap])
            canvas.line(op.x1, height - op.y1, op.x2, height - op.y2)
            if op.cap != "butt":
                canvas.restoreState()
        elif isinstance(op, EllipseOp):
            self._paint(op.fill, op.stroke, op.stroke_width)
            canvas.ellipse(op.x, height - op.y - op.h, op.x + op.w, height - op.y,
                           stroke=int(op.stroke is not None), fill=int(op.fill is not None))  # fmt: skip
        elif isinstance(op, PolygonOp):
            self._paint(op.fill, op.stroke, op.stroke_width)
            canvas.drawPath(self._outline(op, height), stroke=int(op.stroke is not None),
                            fill=int(op.fill is not None), fillMode=FILL_EVEN_ODD)  # fmt: skip
        elif isinstance(op, TextOp):
            self.set_fill(op.colour)
            canvas.setFont(op.font.name, op.size)
            for x, baseline, text in op.runs:
                canvas.drawString(x, height - baseline, text)
        elif isinstance(op, RichTextOp):
            draw_rich(op, canvas, height, self.separation)
        elif isinstance(op, ShapedTextOp):
            self.set_fill(op.colour)
            draw_shaped(canvas, op, height, self.separation)
        elif isinstance(op, ImageOp):
            canvas.saveState()
            if op.clip is not None:
                cx, cy, cw, ch = op.clip
                path = canvas.beginPath()
                path.rect(cx, height - cy - ch, cw, ch)
                canvas.clipPath(path, stroke=0, fill=0)
            if op.mask is not None:
                canvas.clipPath(self._outline(op.mask, height), stroke=0, fill=0,
                                fillMode=FILL_EVEN_ODD)  # fmt: skip
            if op.art is None:
                canvas.drawImage(self._art(op), op.x, height - op.y - op.h, op.w, op.h,
                                 mask="auto")  # fmt: skip
            else:  # vectors: the SVG's own size scaled to where it is placed
                canvas.translate(op.x, height - op.y - op.h)
                canvas.scale(op.w / op.art.width, op.h / op.art.height)
                _draw_vectors(self._drawing(op.art), canvas)
            canvas.restoreState()
        elif isinstance(op, FaceOp):
            self._inner(op, face)
        elif isinstance(op, GroupOp):
            self._group(op, face)

    def _outline(self, op: RectOp | EllipseOp | PolygonOp, height: float):
        """The shape's path, in the page's y-up points."""
        path = self.canvas.beginPath()
        if isinstance(op, RectOp):
            path.roundRect(op.x, height - op.y - op.h, op.w, op.h, op.radius)
        elif isinstance(op, EllipseOp):
            path.ellipse(op.x, height - op.y - op.h, op.w, op.h)
        else:
            for contour in op.contours:
                path.moveTo(contour[0][0], height - contour[0][1])
                for px, py in contour[1:]:
                    path.lineTo(px, height - py)
                path.close()
        return path

    def _gradient(self, op: RectOp | EllipseOp | PolygonOp, gradient: Gradient,
                  height: float) -> None:  # fmt: skip
        """A shape filled with a gradient across its box, then its outline stroked."""
        canvas = self.canvas
        x, y, w, h = _bounds(op)
        colours = [self._colour(c) for c in gradient.colours]
        stops = list(gradient.stops) if gradient.stops is not None else None
        canvas.saveState()
        canvas.clipPath(self._outline(op, height), stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
        cx, cy = x + w / 2, height - (y + h / 2)
        if gradient.kind == "linear":
            turn = math.radians(gradient.angle)  # clockwise on the face: y runs down there
            dx, dy = math.cos(turn), -math.sin(turn)
            reach = (w * abs(dx) + h * abs(dy)) / 2  # the box's corners take the end colours
            canvas.linearGradient(cx - reach * dx, cy - reach * dy, cx + reach * dx,
                                  cy + reach * dy, colours, stops)  # fmt: skip
        else:
            canvas.radialGradient(cx, cy, max(w, h) / 2, colours, stops)
        canvas.restoreState()
        if op.stroke is not None:
            self._paint(None, op.stroke, op.stroke_width)
            canvas.drawPath(self._outline(op, height), stroke=1, fill=0)

    def _colour(self, colour: Colour) -> Color:
        if self.separation is not None:
            return CMYKColor(*self.separation.colour(colour))
        return Color(colour.r, colour.g, colour.b)

    def _group(self, op: GroupOp, face: Face) -> None:
        """An element's ops through its opacity, turned clockwise about its centre."""
        canvas = self.canvas
        canvas.saveState()
        if op.opacity < 1:
            canvas.setFillAlpha(op.opacity)
            canvas.setStrokeAlpha(op.opacity)
        if op.turn:
            canvas.translate(op.cx, face.height - op.cy)
            canvas.rotate(-op.turn)  # the page's y runs up: clockwise is negative
            canvas.translate(-op.cx, op.cy - face.height)
        for inner in op.ops:
            self._op(inner, face)
        canvas.restoreState()

    def _inner(self, op: FaceOp, face: Face) -> None:
        """A face inside a face (FaceOp), clipped to the outer face's box."""
        canvas = self.canvas
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(0, 0, face.width, face.height)
        canvas.clipPath(path, stroke=0, fill=0)
        inner, scale = op.face, op.scale
        if op.turn == 90:  # as place: the inner face's top edge runs down the right side
            canvas.translate(op.x, face.height - op.y)
            canvas.rotate(-90)
        elif op.turn == -90:  # its top edge runs up the left side
            canvas.translate(op.x + scale * inner.height, face.height - op.y - scale * inner.width)
            canvas.rotate(90)
        else:
            canvas.translate(op.x, face.height - op.y - scale * inner.height)
        canvas.scale(scale, scale)
        self.draw(inner)
        canvas.restoreState()

    def _art(self, op: ImageOp):
        """The art as drawn: the file itself, or its separation to CMYK."""
        if self.separation is None:
            return str(op.path)
        prepared = self.prepare.art(op.path) if self.prepare is not None else None
        return _SeparatedArt(prepared or self.separation.image(op.path))

    def _drawing(self, art: VectorArt):
        if self.separation is None:
            return art.drawing
        if id(art) not in self._cmyk_art:
            self._cmyk_art[id(art)] = (
                art,
                cmyk_drawing(art, self.separation),
            )  # art kept: its id stays its own
        return self._cmyk_art[id(art)][1]

    def _paint(self, fill: Colour | Gradient | None, stroke: Colour | None, width: float) -> None:
        if isinstance(fill, Colour):
            self.set_fill(fill)
        if stroke is not None:
            self.set_stroke(stroke)
            self.canvas.setLineWidth(width)
            self.canvas.setDash([])  # solid unless a dashed line sets its own pattern


def _bounds(op: RectOp | EllipseOp | PolygonOp) -> tuple[float, float, float, float]:
    """The box a shape fills (face points, y down): a gradient spans it."""
    if isinstance(op, PolygonOp):
        xs = [x for contour in op.contours for x, _ in contour]
        ys = [y for contour in op.contours for _, y in contour]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    return op.x, op.y, op.w, op.h

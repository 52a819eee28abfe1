"""Rich text laid out by reportlab's Paragraph: styled spans and inline icons.

The markup is parsed by :mod:`protopress.generators.markup`; its pieces become
Paragraph fragments directly (no markup string is ever handed to reportlab's
own parser, which would open files named in ``<img src>``). An icon is an
image fragment as wide and tall as the text's size, sitting on the baseline:
Paragraph wraps it with the words, and the face canvas draws it as vectors.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from reportlab.lib.abag import ABag
from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.paragraph import Paragraph
from reportlab.platypus.paraparser import ParaFrag

from protopress.generators.colours import Colour
from protopress.generators.fonts import Font
from protopress.generators.markup import Icon, Piece
from protopress.generators.shapes import outline, scaled

if TYPE_CHECKING:
    from protopress.generators.separation import Separation

ALIGNMENTS = {"left": 0, "center": 1, "right": 2}
SHRINK_STEP = 0.5  # points, as for plain text


@dataclass(frozen=True)
class Family:
    """The fonts of a text: regular, bold, italic and bold italic."""

    regular: Font
    bold: Font
    italic: Font
    bold_italic: Font

    def pick(self, bold: bool, italic: bool) -> Font:
        if bold:
            return self.bold_italic if italic else self.bold
        return self.italic if italic else self.regular


@dataclass(frozen=True)
class InlineIcon:
    """An icon inside text: a shape in a colour, drawn into the box reportlab gives it."""

    shape: str
    colour: Colour


@dataclass(frozen=True)
class RichTextOp:
    """A rich text box (face points, y down): pieces laid out at size in the box."""

    x: float
    y: float
    w: float
    h: float
    pieces: tuple[Piece, ...]
    icons: tuple[tuple[str, InlineIcon], ...]  # id -> icon, for the ids in pieces
    family: Family
    size: float
    leading: float  # a multiple of size
    align: str = "left"
    valign: str = "top"
    colour: Colour = Colour(0, 0, 0)
    shaping: bool = False  # shape with HarfBuzz (combining marks, joining scripts)


@dataclass(frozen=True)
class Laid:
    paragraph: Paragraph
    height: float
    fits: bool


def _reportlab_colour(colour: Colour, separation: Separation | None) -> Color:
    if separation is None:
        return Color(colour.r, colour.g, colour.b)
    return CMYKColor(*separation.colour(colour))


def _fragments(op: RichTextOp, separation: Separation | None) -> list[ParaFrag]:
    icons = dict(op.icons)
    text_colour = _reportlab_colour(op.colour, separation)
    frags = []
    for piece in op.pieces:
        frag = ParaFrag()
        frag.fontName = op.family.pick(piece.bold, piece.italic).name
        frag.fontSize = op.size
        frag.textColor = text_colour
        frag.rise = 0
        frag.greek = 0
        frag.link = []
        frag.us_lines = []
        frag.bold = int(piece.bold)
        frag.italic = int(piece.italic)
        if isinstance(piece, Icon):
            frag.text = ""
            frag.cbDefn = ABag(kind="img", image=icons[piece.id], width=op.size,
                               height=op.size, valign="baseline")  # fmt: skip
        else:
            frag.text = piece.text
        frags.append(frag)
    return frags


@functools.lru_cache(maxsize=512)
def laid_out(op: RichTextOp, separation: Separation | None = None) -> Laid:
    """The op's paragraph wrapped to its box: built once for measuring and drawing."""
    style = ParagraphStyle(
        "protopress",
        fontName=op.family.regular.name,
        fontSize=op.size,
        leading=op.size * op.leading,
        alignment=ALIGNMENTS[op.align],
        textColor=_reportlab_colour(op.colour, separation),
        shaping=int(op.shaping),
        splitLongWords=0,
    )
    paragraph = Paragraph("", style, frags=_fragments(op, separation))
    _, height = paragraph.wrap(op.w, op.h)
    lines = paragraph.blPara.lines
    widest_fits = all(_extra_space(line) >= -1e-6 for line in lines)
    return Laid(paragraph, height, widest_fits and height <= op.h + 1e-6)


def _extra_space(line) -> float:
    return line[0] if isinstance(line, tuple) else line.extraSpace


def fit(op: RichTextOp, min_size: float) -> tuple[RichTextOp, Laid]:
    """The op at the largest size from its own down to min_size at which it fits."""
    current = op
    while True:
        laid = laid_out(current)
        if laid.fits or current.size - SHRINK_STEP < min_size - 1e-9:
            return current, laid
        current = replace(current, size=current.size - SHRINK_STEP)


def draw(op: RichTextOp, canvas, face_height: float, separation: Separation | None = None) -> None:
    """Draw the op on a face canvas whose origin is the face's bottom-left corner;
    with a separation its colours are CMYK."""
    laid = laid_out(op, separation)
    top = op.y + {"top": 0, "middle": (op.h - laid.height) / 2,
                  "bottom": op.h - laid.height}[op.valign]  # fmt: skip
    laid.paragraph.drawOn(canvas, op.x, face_height - top - laid.height)


def icon_contours(icon: InlineIcon, x: float, y: float, size: float) -> list[list[tuple]]:
    """The icon's polygons in a y-up box whose bottom-left corner is (x, y)."""
    return [
        [(x + px, y + size - py) for px, py in contour]
        for contour in scaled(outline(icon.shape), 0, 0, size)
    ]

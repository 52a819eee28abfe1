"""Rich text laid out by reportlab's Paragraph: styled spans and inline icons.

The markup is parsed by :mod:`protopress.generators.markup`; its pieces become
Paragraph fragments directly (no markup string is ever handed to reportlab's
own parser, which would open files named in ``<img src>``). An icon is an
image fragment as wide and tall as the text's size, sitting on the baseline:
Paragraph wraps it with the words, and the face canvas draws it as vectors.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.abag import ABag
from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth

from protopress.generators.colours import Colour
from protopress.generators.fonts import Font
from protopress.generators.markup import Icon, Piece, Span
from protopress.generators.shapes import outline, scaled

if TYPE_CHECKING:
    from reportlab.platypus.paragraph import Paragraph
    from reportlab.platypus.paraparser import ParaFrag

    from protopress.generators.separation import Separation
    from protopress.generators.svg import VectorArt

ALIGNMENTS = {"left": 0, "center": 1, "right": 2}
SHRINK_STEP = 0.5  # points, as for plain text
SLANT = math.tan(math.radians(12))
"""The shear of a synthesised italic: x moves right by SLANT per point above the
baseline (12 degrees, as oblique faces commonly lean). Advance widths are the
upright's, so a slanted run measures and wraps as the upright one does."""


@dataclass(frozen=True)
class Family:
    """The fonts of a text: regular, bold, italic and bold italic."""

    regular: Font
    bold: Font
    italic: Font
    bold_italic: Font
    leaning: bool = False  # the text's own font is an italic (NAME-italic): <i> keeps it

    def pick(self, bold: bool, italic: bool) -> Font:
        if bold:
            return self.bold_italic if italic else self.bold
        return self.italic if italic else self.regular

    def slanted(self, bold: bool, italic: bool) -> bool:
        """Whether italic text is synthesised: the family has no italic of its weight
        (its italic is the regular font or the upright of that weight)."""
        if not italic or self.leaning:
            return False
        return self.pick(bold, True) in (self.regular, self.pick(bold, False))

    def drawn(self, bold: bool, italic: bool) -> Font:
        """The font text is drawn in: a synthesised italic is its weight's upright, slanted."""
        return self.pick(bold, False) if self.slanted(bold, italic) else self.pick(bold, italic)


@dataclass(frozen=True)
class InlineIcon:
    """An icon inside text: a shape in a colour, or a picture (an image or SVG file,
    checked), drawn into the box reportlab gives it."""

    shape: str
    colour: Colour
    image: Path | None = None
    image_size: tuple[float, float] = (1.0, 1.0)  # pixels, or an SVG's points
    art: VectorArt | None = field(default=None, compare=False)  # an SVG's drawing


@dataclass(frozen=True)
class GluedText:
    """Letters of a glued word, in their own font and colour."""

    text: str
    font: str
    size: float
    colour: Color
    width: float
    slanted: bool = False  # a synthesised italic: drawn sheared by SLANT


@dataclass(frozen=True)
class Glued:
    """An inline icon with the letters and icons touching it ("(:gold:).",
    ":fire::water:"), given to Paragraph as one image so that no line breaks
    inside it: Paragraph would otherwise wrap an image as a word of its own and
    could leave the full stop after it alone at the start of the next line. A
    word with slanted letters (a synthesised italic) is glued too: the face
    canvas draws them sheared, which Paragraph's own text cannot be."""

    parts: tuple[InlineIcon | GluedText, ...]
    size: float  # of each icon

    @property
    def height(self) -> float:
        """As tall as its icons and its largest letters."""
        return max(self.size if isinstance(p, InlineIcon) else p.size for p in self.parts)


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
    fonts: tuple[tuple[str, Family], ...] = ()  # the families <span font=...> names
    written_size: float | None = None  # the element's size, when spans set sizes of their own

    def family_of(self, piece: Piece) -> Family:
        """The fonts a piece is set in: its span's font, else the text's."""
        if isinstance(piece, Span) and piece.font is not None:
            return dict(self.fonts)[piece.font]
        return self.family

    def slanted(self, piece: Piece) -> bool:
        """Whether a piece is italic in a family without an italic (drawn slanted)."""
        return isinstance(piece, Span) and self.family_of(piece).slanted(piece.bold, piece.italic)

    def size_of(self, piece: Piece) -> float:
        """A piece's size: its span's, shrunk as the text shrinks to fit, else the text's."""
        if isinstance(piece, Span) and piece.size is not None:
            return piece.size * self.size / (self.written_size or self.size)
        return self.size


@dataclass(frozen=True)
class Laid:
    paragraph: Paragraph
    height: float
    fits: bool


def _reportlab_colour(colour: Colour, separation: Separation | None) -> Color:
    if separation is None:
        return Color(colour.r, colour.g, colour.b)
    return CMYKColor(*separation.colour(colour))


WORD_EDGE = re.compile(r"(\s+)")


def _glued(
    pieces: tuple[Piece, ...], slanted: Callable[[Piece], bool]
) -> list[Piece | tuple[Piece, ...]]:
    """The pieces with every run of icons and letters that no space separates
    and that holds an icon or slanted letters gathered into a tuple (one
    unbreakable word, drawn by the face canvas); text apart from such runs
    stays in its spans, as given."""
    atoms: list[Piece] = []
    for piece in pieces:
        if isinstance(piece, Icon):
            atoms.append(piece)
        else:
            atoms.extend(replace(piece, text=part) for part in WORD_EDGE.split(piece.text) if part)
    out: list[Piece | tuple[Piece, ...]] = []
    word: list[Piece] = []

    def end_word() -> None:
        icon = len(word) > 1 and any(isinstance(atom, Icon) for atom in word)
        if icon or any(slanted(atom) for atom in word):
            out.append(tuple(word))
        else:
            out.extend(word)
        word.clear()

    for atom in atoms:
        if isinstance(atom, Span) and atom.text.isspace():
            end_word()
            out.append(atom)
        else:
            word.append(atom)
    end_word()
    merged: list[Piece | tuple[Piece, ...]] = []  # neighbouring spans of one style rejoined
    for item in out:
        last = merged[-1] if merged else None
        if (isinstance(item, Span) and isinstance(last, Span)
                and replace(last, text="") == replace(item, text="")):  # fmt: skip
            merged[-1] = replace(item, text=last.text + item.text)
        else:
            merged.append(item)
    return merged


def _fragments(op: RichTextOp, separation: Separation | None) -> list[ParaFrag]:
    from reportlab.platypus.paraparser import ParaFrag  # loaded with Paragraph (laid_out)

    icons = dict(op.icons)
    text_colour = _reportlab_colour(op.colour, separation)
    frags = []
    # shaped text (combining marks, joining scripts) is left to Paragraph whole
    items = list(op.pieces) if op.shaping else _glued(op.pieces, op.slanted)
    for item in items:
        style = item[0] if isinstance(item, tuple) else item
        frag = ParaFrag()
        frag.fontName = op.family_of(style).drawn(style.bold, style.italic).name
        frag.fontSize = op.size_of(style)
        frag.textColor = _span_colour(style, separation) or text_colour
        frag.rise = 0
        frag.greek = 0
        frag.link = []
        frag.us_lines = []
        frag.bold = int(style.bold)
        frag.italic = int(style.italic)
        if isinstance(item, Span):
            frag.text = item.text
            frags.append(frag)
            continue
        frag.text = ""
        image: InlineIcon | Glued
        if isinstance(item, Icon):
            image, width = icons[item.id], op.size
        else:
            parts = tuple(_glued_part(atom, op, icons, text_colour, separation) for atom in item)
            image = Glued(parts, op.size)
            width = sum(op.size if isinstance(part, InlineIcon) else part.width for part in parts)
        height = image.height if isinstance(image, Glued) else op.size
        frag.cbDefn = ABag(kind="img", image=image, width=width, height=height,
                           valign="baseline")  # fmt: skip
        frags.append(frag)
    return frags


def _glued_part(atom: Piece, op: RichTextOp, icons: dict[str, InlineIcon], colour: Color,
                separation: Separation | None) -> InlineIcon | GluedText:  # fmt: skip
    if isinstance(atom, Icon):
        return icons[atom.id]
    name, size = op.family_of(atom).drawn(atom.bold, atom.italic).name, op.size_of(atom)
    colour = _span_colour(atom, separation) or colour
    width = stringWidth(atom.text, name, size)
    return GluedText(atom.text, name, size, colour, width, op.slanted(atom))


def _span_colour(piece: Piece, separation: Separation | None) -> Color | None:
    """The colour a <span color=...> gives its text (checked when the face was built)."""
    if isinstance(piece, Span) and piece.colour is not None:
        return _reportlab_colour(Colour.parse(piece.colour), separation)
    return None


@functools.lru_cache(maxsize=512)
def laid_out(op: RichTextOp, separation: Separation | None = None) -> Laid:
    """The op's paragraph wrapped to its box: built once for measuring and drawing."""
    # reportlab.platypus takes longer to import than many faces take to draw: it is
    # loaded here, by the first rich text, so that a deck of plain text never loads it
    from reportlab.platypus.paragraph import Paragraph

    style = ParagraphStyle(
        "protopress",
        fontName=op.family.regular.name,
        fontSize=op.size,
        leading=op.size * op.leading,
        alignment=ALIGNMENTS[op.align],
        textColor=_reportlab_colour(op.colour, separation),
        shaping=int(op.shaping),
        splitLongWords=0,
        **({"autoLeading": "max"} if op.written_size is not None else {}),  # lines fit spans
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

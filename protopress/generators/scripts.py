"""Text in any script: right-to-left lines in visual order, shaped glyphs.

Text that holds right-to-left letters (Arabic, Hebrew) or combining marks is
laid out here; plain left-to-right text keeps the simpler path of
:mod:`protopress.generators.text`, drawn exactly as before.

- The Unicode bidi algorithm (python-bidi's implementation) gives every
  character of a paragraph its embedding level; the words are wrapped in
  logical order, and each line's runs are put in visual order (rule L2).
- HarfBuzz (uharfbuzz, through reportlab's TrueType font, which maps every
  glyph it produces to a character of the embedded subset) shapes each run:
  Arabic letters join, marks sit on their base letters, RTL runs come out
  right to left.
- The glyphs are written in visual order, as PDF producers do and text
  extractors expect: pypdf and poppler turn right-to-left runs back into
  logical order when they read the text.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

import uharfbuzz  # reportlab's TrueType fonts import it too
from reportlab.pdfbase import pdfmetrics

from protopress.generators.colours import Colour
from protopress.generators.fonts import Font
from protopress.generators.rich import InlineIcon

SHRINK_STEP = 0.5  # points, as for plain text
RTL_CLASSES = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI", "FSI"})
OBJECT = "\ufffc"  # an inline icon's place in the text: a neutral for the bidi algorithm
FEATURES = {"kern": True, "liga": True}


@functools.cache
def _complex(char: str) -> bool:
    return unicodedata.bidirectional(char) in RTL_CLASSES or unicodedata.category(char) in (
        "Mn", "Mc", "Me",
    )  # fmt: skip


def needs_shaping(text: str) -> bool:
    """Whether text holds right-to-left letters or combining marks (cheap for ASCII)."""
    return not text.isascii() and any(_complex(char) for char in text)


# ---- input ----------------------------------------------------------------


@dataclass(frozen=True)
class Styled:
    """Text in one font; slanted: a synthesised italic (the font's upright, sheared)."""

    text: str
    font: Font
    slanted: bool = False


@dataclass(frozen=True)
class IconItem:
    """An inline icon as wide and tall as the text's size."""

    icon: InlineIcon


Item = Styled | IconItem


# ---- output ---------------------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    char: str  # the character reportlab's subset gives the glyph (private use if it has none)
    x: float  # from the line's left end, points
    rise: float  # up from the baseline, points


@dataclass(frozen=True)
class GlyphRun:
    font: Font
    glyphs: tuple[Glyph, ...]  # in visual order
    slanted: bool = False  # drawn sheared by rich.SLANT


@dataclass(frozen=True)
class PlacedIcon:
    icon: InlineIcon
    x: float


@dataclass(frozen=True)
class Line:
    width: float
    parts: tuple[GlyphRun | PlacedIcon, ...]  # in visual order, left to right


@dataclass(frozen=True)
class ShapedTextOp:
    """Shaped lines in a box (face points, y down): each line at (x, baseline)."""

    lines: tuple[tuple[float, float, Line], ...]
    size: float
    colour: Colour


@dataclass(frozen=True)
class Shaped:
    lines: tuple[Line, ...]
    size: float
    fits: bool


# ---- the bidi algorithm -----------------------------------------------------


def right_to_left(text: str) -> bool:
    """Whether a paragraph reads right to left: its first strong letter is
    right-to-left (rules P2 and P3, isolates not skipped); text without a strong
    letter reads left to right."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            return False
        if kind in ("R", "AL"):
            return True
    return False


def aligned(align: str, text: str) -> str:
    """left, center or right for an element's align: start and end follow the
    text's direction (start is right in Hebrew or Arabic), the others stay."""
    if align not in ("start", "end"):
        return align
    return ("right" if align == "start" else "left") if right_to_left(text) else (
        "left" if align == "start" else "right")  # fmt: skip


def levels(text: str) -> list[int]:
    """The embedding level of each character of one paragraph (rules P2 to I2).

    python-bidi's pure-Python implementation is used for its levels (its Rust
    one gives only the reordered string); characters rule X9 removes
    (embedding controls, joiners) take the level of the character before.
    """
    from bidi import algorithm as bidi_algorithm  # only for text that needs it

    text = _without_isolates(text)
    storage = bidi_algorithm.get_empty_storage()
    base = bidi_algorithm.get_base_level(text)
    storage["base_level"], storage["base_dir"] = base, ("L", "R")[base]
    bidi_algorithm.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    bidi_algorithm.explicit_embed_and_overrides(storage)
    bidi_algorithm.resolve_weak_types(storage)
    bidi_algorithm.resolve_neutral_types(storage, False)
    bidi_algorithm.resolve_implicit_levels(storage, False)
    found = [-1] * len(text)
    for char in storage["chars"]:
        found[char["index"]] = char["level"]
    previous = base
    for index, level in enumerate(found):
        found[index] = previous = previous if level < 0 else level
    return found


KNOWN_CLASSES = frozenset(
    [
        "L",
        "R",
        "AL",
        "EN",
        "ES",
        "ET",
        "AN",
        "CS",
        "NSM",
        "BN",
        "B",
        "S",
        "WS",
        "ON",
        "LRE",
        "LRO",
        "RLE",
        "RLO",
        "PDF",
    ]
)
ISOLATES = {"\u2066": "\u202a", "\u2067": "\u202b", "\u2069": "\u202c"}  # LRI, RLI, PDI
FSI = "\u2068"


def _without_isolates(text: str) -> str:
    """Text the implementation's bidi rules (which predate isolates) can take: an
    isolate becomes the embedding it is closest to (FSI by its first strong letter),
    an unassigned code point a left-to-right letter, as UAX 9 defaults it."""
    from bidi import algorithm as bidi_algorithm

    chars = list(text)
    for index, char in enumerate(chars):
        if char in ISOLATES:
            chars[index] = ISOLATES[char]
        elif char == FSI:
            inner = text[index + 1 :].split("\u2069", 1)[0]
            chars[index] = "\u202b" if bidi_algorithm.get_base_level(inner) else "\u202a"
        elif unicodedata.bidirectional(char) not in KNOWN_CLASSES:
            chars[index] = "a"
    return "".join(chars)


def visual_order(run_levels: list[int]) -> list[int]:
    """Rule L2: the indices of runs in visual order, from their levels."""
    order = list(range(len(run_levels)))
    if not run_levels:
        return order
    odd = [level for level in run_levels if level % 2]
    lowest_odd = min(odd) if odd else max(run_levels) + 1
    for level in range(max(run_levels), lowest_odd - 1, -1):
        index = 0
        while index < len(order):
            if run_levels[order[index]] >= level:
                end = index
                while end < len(order) and run_levels[order[end]] >= level:
                    end += 1
                order[index:end] = reversed(order[index:end])
                index = end
            else:
                index += 1
    return order


# ---- shaping ----------------------------------------------------------------


@dataclass(frozen=True)
class _Shaped:
    glyphs: tuple[tuple[str, int, float, float, float], ...]  # char, cluster, advance, dx, rise
    width: float


@functools.lru_cache(maxsize=4096)
def shape(text: str, font: Font, size: float, rtl: bool) -> _Shaped:
    """The glyphs HarfBuzz gives text in font at size, in visual order (points)."""
    ttf = pdfmetrics.getFont(font.name)
    hb_font = ttf.hbFont(size)  # also readies ttf.hbAddPrivate for glyphs without a character
    buffer = uharfbuzz.Buffer()
    buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_CHARACTERS
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl" if rtl else "ltr"
    uharfbuzz.shape(hb_font, buffer, FEATURES)
    scale = size / 1000
    glyphs, width = [], 0.0
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        gid = info.codepoint
        try:
            char = ttf.face.glyphToChar[gid][0]
        except (KeyError, IndexError):
            char = ttf.hbAddPrivate(hb_font.glyph_to_string(gid), gid, position.x_advance)
            # reportlab keeps the advance in font units; its widths are per 1000 em
            ttf.face.charWidths[char] = ttf.pdfScale(hb_font.get_glyph_h_advance(gid))
        advance = ttf.pdfScale(position.x_advance) * scale
        glyphs.append((chr(char), info.cluster, advance, ttf.pdfScale(position.x_offset) * scale,
                       ttf.pdfScale(position.y_offset) * scale))  # fmt: skip
        width += advance
    return _Shaped(tuple(glyphs), width)


def without_glyph(text: str, font: Font) -> set[str]:
    """The characters of text that shaping leaves without a glyph (glyph 0). A mark
    the font lacks may still be drawn: HarfBuzz composes "e" and U+0301 into "é"."""
    hb_font = pdfmetrics.getFont(font.name).hbFont(10)
    buffer = uharfbuzz.Buffer()
    buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_CHARACTERS
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, FEATURES)
    return {text[info.cluster] for info in buffer.glyph_infos if info.codepoint == 0}


def lacks_shaped(text: str, font: Font) -> list[str]:
    """As ``font.lacks``, for text drawn shaped: a mark HarfBuzz composes with its
    letter into a glyph the font has is not lacking."""
    lacking = font.lacks(text)
    if not lacking:
        return lacking
    left_out = without_glyph(text, font)
    return [char for char in lacking if char in left_out]


# ---- layout -----------------------------------------------------------------


@dataclass(frozen=True)
class _Paragraph:
    text: str
    styles: tuple[int, ...]  # per character: an index into the looks, or -1 for an icon
    levels: tuple[int, ...]


def _paragraphs(
    items: Iterable[Item],
) -> tuple[list[_Paragraph], list[Styled], list[InlineIcon]]:
    """The items as paragraphs of characters, each character with its style: its
    look (font and slant, a Styled without text) or its icon."""
    looks: list[Styled] = []
    icons: list[InlineIcon] = []
    chars: list[str] = []
    styles: list[int] = []
    for item in items:
        if isinstance(item, IconItem):
            chars.append(OBJECT)
            styles.append(-1 - len(icons))
            icons.append(item.icon)
            continue
        look = replace(item, text="")
        if look not in looks:
            looks.append(look)
        chars.extend(item.text)
        styles.extend([looks.index(look)] * len(item.text))
    paragraphs, start = [], 0
    text = "".join(chars)
    for piece in text.split("\n"):
        end = start + len(piece)
        paragraphs.append(_Paragraph(piece, tuple(styles[start:end]), tuple(levels(piece))))
        start = end + 1
    return paragraphs, looks, icons


def _runs(paragraph: _Paragraph, start: int, end: int) -> list[tuple[int, int]]:
    """Maximal stretches of [start, end) with one level and one style."""
    runs, begin = [], start
    for index in range(start + 1, end + 1):
        if index == end or (paragraph.levels[index], paragraph.styles[index]) != (
            paragraph.levels[begin], paragraph.styles[begin],
        ):  # fmt: skip
            runs.append((begin, index))
            begin = index
    return runs


class _Layout:
    def __init__(self, items: tuple[Item, ...], size: float):
        self.paragraphs, self.looks, self.icons = _paragraphs(items)
        self.size = size

    def _width(self, paragraph: _Paragraph, start: int, end: int) -> float:
        total = 0.0
        for begin, stop in _runs(paragraph, start, end):
            style = paragraph.styles[begin]
            if style < 0:
                total += self.size * (stop - begin)
            else:
                total += shape(paragraph.text[begin:stop], self.looks[style].font, self.size,
                               paragraph.levels[begin] % 2 == 1).width  # fmt: skip
        return total

    def wrap(self, width: float) -> tuple[list[Line], bool]:
        lines, fits = [], True
        for paragraph in self.paragraphs:
            words = _words(paragraph.text)
            current: tuple[int, int] | None = None
            for begin, stop in words:
                if self._width(paragraph, begin, stop) > width + 1e-6:
                    fits = False
                if current is None:
                    current = (begin, stop)
                elif self._width(paragraph, current[0], stop) <= width + 1e-6:
                    current = (current[0], stop)
                else:
                    lines.append(self.line(paragraph, *current))
                    current = (begin, stop)
            lines.append(self.line(paragraph, *current) if current else Line(0.0, ()))
        return lines, fits

    def line(self, paragraph: _Paragraph, start: int, end: int) -> Line:
        """One line: its runs shaped and placed in visual order."""
        runs = _runs(paragraph, start, end)
        order = visual_order([paragraph.levels[begin] for begin, _ in runs])
        parts: list[GlyphRun | PlacedIcon] = []
        pen = 0.0
        for index in order:
            begin, stop = runs[index]
            style = paragraph.styles[begin]
            if style < 0:
                for _ in range(stop - begin):
                    parts.append(PlacedIcon(self.icons[-1 - style], pen))
                    pen += self.size
                continue
            shaped = shape(paragraph.text[begin:stop], self.looks[style].font, self.size,
                           paragraph.levels[begin] % 2 == 1)  # fmt: skip
            glyphs = []
            for char, _, advance, dx, rise in shaped.glyphs:
                glyphs.append(Glyph(char, pen + dx, rise))
                pen += advance
            look = self.looks[style]
            parts.append(GlyphRun(look.font, tuple(glyphs), look.slanted))
        return Line(pen, tuple(parts))


def _words(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of non-space characters."""
    words, start = [], None
    for index, char in enumerate(text):
        if char.isspace():
            if start is not None:
                words.append((start, index))
                start = None
        elif start is None:
            start = index
    if start is not None:
        words.append((start, len(text)))
    return words


def fit_shaped(items: tuple[Item, ...], width: float, height: float, size: float,
               min_size: float, leading: float) -> Shaped:  # fmt: skip
    """The largest size from size down to min_size at which the text fits the box."""
    current = size
    while True:
        lines, fits = _Layout(items, current).wrap(width)
        fits = fits and len(lines) * current * leading <= height + 1e-6
        if fits or current - SHRINK_STEP < min_size - 1e-9:
            return Shaped(tuple(lines), current, fits)
        current -= SHRINK_STEP

"""Fonts: TrueType files, registered once with reportlab (which embeds them)
and opened by Pillow at any size, so PDF and PNG use the same glyphs and the
same metrics. The built-in faces are the Bitstream Vera family that ships
with reportlab; a layout may name TTF or OTF files of its own (an OTF with CFF
outlines is converted to TrueType outlines first: see :mod:`otf`)."""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import reportlab
from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics

from protopress.generators.otf import is_cff, truetype_file
from protopress.generators.subset_tags import TaggedTTFont

_VERA = Path(reportlab.__file__).parent / "fonts"
BUILTIN_FONTS = {
    "sans": _VERA / "Vera.ttf",
    "sans-bold": _VERA / "VeraBd.ttf",
    "sans-italic": _VERA / "VeraIt.ttf",
    "sans-bold-italic": _VERA / "VeraBI.ttf",
}
DEFAULT_FONT = "sans"


@dataclass(frozen=True)
class Font:
    name: str  # the name registered with reportlab
    path: Path  # the TrueType file drawn from (a converted copy for a CFF font)
    source: Path | None = None  # the file the layout names, when path is a converted copy

    @property
    def file_name(self) -> str:
        return (self.source or self.path).name

    def width(self, text: str, size: float) -> float:
        """Advance width of text in points at size (reportlab's TrueType metrics)."""
        return pdfmetrics.stringWidth(text, self.name, size)

    def ascent(self, size: float) -> float:
        return pdfmetrics.getAscent(self.name, size)

    def descent(self, size: float) -> float:
        return -pdfmetrics.getDescent(self.name, size)  # positive, below the baseline

    def lacks(self, text: str) -> list[str]:
        """The characters of text this font has no glyph for, in code point order
        (controls and invisible format characters such as joiners aside)."""
        if text.isascii() and self.path in _FULL_ASCII:
            return []
        cmap = pdfmetrics.getFont(self.name).face.charToGlyph
        return sorted(char for char in set(text) if ord(char) not in cmap and _drawn(char))

    def lacks_shaped(self, text: str) -> list[str]:
        """As lacks, for text drawn shaped: a mark HarfBuzz composes with its letter
        into a glyph the font has is not lacking."""
        from protopress.generators.scripts import without_glyph  # scripts imports this module

        lacking = self.lacks(text)
        if not lacking:
            return lacking
        left_out = without_glyph(text, self)
        return [char for char in lacking if char in left_out]

    def pillow(self, pixels: int) -> ImageFont.FreeTypeFont:
        return _pillow_font(str(self.path), pixels)


_FULL_ASCII = frozenset(BUILTIN_FONTS.values())  # every printable ASCII character


@functools.cache
def _drawn(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cf") and char != "\ufffc"


@functools.cache
def _pillow_font(path: str, pixels: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, pixels)


@functools.cache
def font(name: str, path: Path | None = None) -> Font:
    """A registered font: a built-in name, or a TTF or OTF file under a name of its own."""
    file = Path(path) if path is not None else BUILTIN_FONTS.get(name)
    if file is None:
        raise KeyError(f"unknown font {name!r}; built-in fonts: {', '.join(BUILTIN_FONTS)}")
    source, registered = None, f"pp-{name}"
    if path is not None:
        data = file.read_bytes()
        if is_cff(data):
            source, file = file, truetype_file(data)
        # two layouts may give one name to different files: the name tells them apart
        registered += "-" + hashlib.sha256(data).hexdigest()[:12]
    if registered not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TaggedTTFont(registered, str(file)))
    return Font(registered, file, source)

"""Fonts: TrueType files, registered once with reportlab (which embeds them)
and opened by Pillow at any size, so PDF and PNG use the same glyphs and the
same metrics. The built-in faces are the Bitstream Vera family that ships
with reportlab; a layout may name TTF files of its own."""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import reportlab
from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics

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
    path: Path

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
    """A registered font: a built-in name, or a TTF file under a name of its own."""
    file = Path(path) if path is not None else BUILTIN_FONTS.get(name)
    if file is None:
        raise KeyError(f"unknown font {name!r}; built-in fonts: {', '.join(BUILTIN_FONTS)}")
    registered = f"pp-{name}"
    if registered not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TaggedTTFont(registered, str(file)))
    return Font(registered, file)

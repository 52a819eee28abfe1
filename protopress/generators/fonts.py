"""Fonts: TrueType files, registered once with reportlab (which embeds them)
and opened by Pillow at any size, so PDF and PNG use the same glyphs and the
same metrics. The built-in faces are the Bitstream Vera family that ships
with reportlab; a layout may name TTF files of its own."""

from __future__ import annotations

import functools
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
    stamp: tuple[int, int, int] = (0, 0, 0)  # the file's inode, size and time when read

    def width(self, text: str, size: float) -> float:
        """Advance width of text in points at size (reportlab's TrueType metrics)."""
        return pdfmetrics.stringWidth(text, self.name, size)

    def ascent(self, size: float) -> float:
        return pdfmetrics.getAscent(self.name, size)

    def descent(self, size: float) -> float:
        return -pdfmetrics.getDescent(self.name, size)  # positive, below the baseline

    def pillow(self, pixels: int) -> ImageFont.FreeTypeFont:
        return _pillow_font(str(self.path), pixels, self.stamp)


@functools.cache
def _pillow_font(path: str, pixels: int, stamp: tuple[int, int, int]) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, pixels)


def _stamp(file: Path) -> tuple[int, int, int]:
    """What tells one version of a font file from the next (watch renders again in
    the same process after a font file changes)."""
    try:
        info = file.stat()
    except OSError:
        return (0, 0, 0)
    return (info.st_ino, info.st_size, info.st_mtime_ns)


_registered: dict[str, tuple[tuple[int, int, int], TaggedTTFont]] = {}


def font(name: str, path: Path | None = None) -> Font:
    """A registered font: a built-in name, or a TTF file under a name of its own.

    Each name gets the font of its own file, read again when the file changed
    (watch renders again in the same process). reportlab would otherwise hand
    a new name the font already registered for the same PostScript name (a
    designer's edited copy of Vera would draw as the built-in Vera) and keep a
    name's first font for ever."""
    file = Path(path) if path is not None else BUILTIN_FONTS.get(name)
    if file is None:
        raise KeyError(f"unknown font {name!r}; built-in fonts: {', '.join(BUILTIN_FONTS)}")
    stamp = _stamp(file)
    registered = f"pp-{name}"
    known = _registered.get(registered)
    if known is None or known[0] != stamp or registered not in pdfmetrics.getRegisteredFontNames():
        if known is not None:
            known[1].unregister()
        loaded = TaggedTTFont(registered, str(file))
        # reportlab maps a PostScript name to the first font registered with it;
        # forget that mapping (as TTFont.unregister does) so this name gets this file
        pdfmetrics._dynFaceNames.pop(loaded.face.name, None)
        pdfmetrics.registerFont(loaded)
        _registered[registered] = (stamp, loaded)
    return Font(registered, file, stamp)

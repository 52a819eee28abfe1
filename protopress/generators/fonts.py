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
    stamp: tuple[int, int, int] = (0, 0, 0)  # the named file's inode, size and time when read

    @property
    def file_name(self) -> str:
        return (self.source or self.path).name

    def width(self, text: str, size: float) -> float:
        """Advance width of text in points at size (reportlab's TrueType metrics)."""
        return pdfmetrics.stringWidth(text, self.name, size)

    def word_width(self, word: str, size: float) -> float:
        """width, remembered: the words of a deck's texts recur from card to card, and
        wrapping measures each word once instead of every line it tries."""
        return _remembered_width(self.name, word, size)

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
        return _pillow_font(str(self.path), pixels, self.stamp)


_FULL_ASCII = frozenset(BUILTIN_FONTS.values())  # every printable ASCII character


@functools.cache
def _drawn(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cf") and char != "\ufffc"


@functools.cache
# The registered name carries a digest of the font file's bytes (see font): one name,
# one set of metrics, so the name is the key.
@functools.lru_cache(maxsize=1 << 16)
def _remembered_width(name: str, text: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, name, size)


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


_loaded: dict[tuple[str, Path], Font] = {}  # (name, file named) -> its font as last read


def font(name: str, path: Path | None = None) -> Font:
    """A registered font: a built-in name, or a TTF or OTF file under a name of its own.

    Each name gets the font of its own file, read again when the file changed
    (watch renders again in the same process): the registered name carries a
    digest of the file's bytes, so two files never share one (two layouts may
    give one name to different files), and reportlab's map from a PostScript
    name to the first font registered with it is forgotten for each new one (a
    designer's edited copy of Vera would otherwise draw as the built-in Vera)."""
    file = Path(path) if path is not None else BUILTIN_FONTS.get(name)
    if file is None:
        raise KeyError(f"unknown font {name!r}; built-in fonts: {', '.join(BUILTIN_FONTS)}")
    stamp = _stamp(file) if path is not None else (0, 0, 0)  # the built-in files do not change
    known = _loaded.get((name, file))
    if known is not None and known.stamp == stamp:
        return known
    source, drawn, registered = None, file, f"pp-{name}"
    if path is not None:
        data = file.read_bytes()
        if is_cff(data):
            source, drawn = file, truetype_file(data)
        registered += "-" + hashlib.sha256(data).hexdigest()[:12]
    if registered not in pdfmetrics.getRegisteredFontNames():
        loaded = TaggedTTFont(registered, str(drawn))
        pdfmetrics._dynFaceNames.pop(loaded.face.name, None)  # as TTFont.unregister does
        pdfmetrics.registerFont(loaded)
    _loaded[(name, file)] = found = Font(registered, drawn, source, stamp)
    return found

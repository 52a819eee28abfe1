"""OpenType fonts with CFF outlines, converted to TrueType outlines.

reportlab embeds only TrueType (glyf) outlines. An OTF font whose glyphs are
CFF (cubic) curves is converted with fontTools: each glyph's curves become
quadratic ones (cu2qu, within one font unit of the original), the CFF
table is replaced by glyf and loca, as fontTools' own otf2ttf recipe does.
The result is cached on disk by the font's bytes, so a big font is converted
once, and it is the same bytes every time (no timestamps), so PDFs stay
deterministic.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import tempfile
from pathlib import Path

from protopress.generators.limits import (
    CHARSTRING_WORK_PER_BYTE,
    MAX_SUBROUTINE_NESTING,
    MIN_CHARSTRING_WORK,
)

MAX_ERROR = 1.0  # font units: the largest distance of a quadratic curve from the cubic one
CACHE_ENV = "PROTOPRESS_CACHE"


def is_cff(data: bytes) -> bool:
    """Whether font data is OpenType with CFF outlines (reportlab cannot embed those)."""
    return data[:4] == b"OTTO"


def cache_dir() -> Path:
    """Where converted fonts are kept: $PROTOPRESS_CACHE, else the user's cache folder."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]) / "fonts"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "protopress" / "fonts"


def truetype_file(data: bytes) -> Path:
    """A TrueType file with the glyphs of CFF font data, converted once and cached.

    Raises ValueError (or whatever fontTools raises on damaged data) when the
    data is no usable font.
    """
    import fontTools  # only when a CFF font is used: it takes a while to import

    key = hashlib.sha256(f"{fontTools.version}\0{MAX_ERROR}\0".encode() + data).hexdigest()
    for folder in (cache_dir(), Path(tempfile.gettempdir()) / f"protopress-fonts-{os.getuid()}"):
        target = folder / f"{key}.ttf"
        if target.is_file():
            return target
        converted = to_truetype(data)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as out:
                out.write(converted)
            os.replace(out.name, target)  # whole or not at all, even with renders side by side
            return target
        except OSError:
            continue  # an unwritable cache: try the next place
    raise ValueError("no folder to keep the converted font in")


def to_truetype(data: bytes) -> bytes:
    """CFF font data as TrueType font data (fontTools' otf2ttf recipe)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data), recalcTimestamp=False)
    if font.sfntVersion != "OTTO" or "CFF " not in font:
        raise ValueError("not an OpenType font with CFF outlines")
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    char_strings = font["CFF "].cff.topDictIndex[0].CharStrings
    budget = max(MIN_CHARSTRING_WORK, CHARSTRING_WORK_PER_BYTE * len(data))
    extractor = functools.partial(_bounded_extractor(), work=_Work(budget))
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        char_strings[name].outlineExtractor = extractor  # this font's glyphs only
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions"):  # fmt: skip
        setattr(maxp, field, 0)
    maxp.maxComponentElements = max(
        (len(getattr(glyph, "components", [])) for glyph in glyf.glyphs.values()), default=0
    )
    font["maxp"] = maxp
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    try:
        font.save(out)
    except OverflowError:  # too many glyph names for post format 2
        post.formatType = 3.0
        out = io.BytesIO()
        font.save(out)
    return out.getvalue()


class _Work:
    """Charstring work left for converting one font: bytes of charstrings run,
    each subroutine call running its bytes again."""

    def __init__(self, limit: int) -> None:
        self.limit = self.left = limit

    def spend(self, amount: int) -> None:
        self.left -= amount
        if self.left < 0:
            raise ValueError(f"its charstrings run more than {self.limit:,} bytes in subroutines")


@functools.cache
def _bounded_extractor() -> type:
    """fontTools' outline extractor counting the charstring work it does (a few
    kilobytes of subroutines calling each other twice over run for ever): nesting
    held to the format's limit, work to a budget, both checked before each run.
    Made on first use, as fontTools is imported only when a CFF font is used."""
    from fontTools.misc.psCharStrings import T2OutlineExtractor

    class BoundedExtractor(T2OutlineExtractor):
        def __init__(self, *args, work: _Work, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.work = work

        def execute(self, charString) -> None:  # noqa: N803 (fontTools' name)
            if self.subrLevel > MAX_SUBROUTINE_NESTING:  # the glyph's program is level 1
                raise ValueError(f"its subroutines nest more than {MAX_SUBROUTINE_NESTING} deep")
            program = charString.bytecode if charString.bytecode is not None else charString.program
            self.work.spend(len(program or ()))
            super().execute(charString)

    return BoundedExtractor

"""The bounds of work on a render's inputs, in one place.

A limit on bytes is not a limit on work: a few kilobytes of layout, SVG or font
can ask for millions of elements, gigapixels or billions of steps. Each figure
here bounds the work one input may cause; going past it is one line naming the
input (located in its file where it has one), exit 1, found before the work is
done. docs/reliability.md lists them with the tests that prove them.
"""

from __future__ import annotations

__all__ = [
    "CHARSTRING_WORK_PER_BYTE",
    "MAX_CMAP_CODE_POINTS",
    "MAX_EXPANDED",
    "MAX_EXPANSION_STEPS",
    "MAX_PAGE_AREA_M2",
    "MAX_PAGES_PER_RENDER",
    "MAX_SUBROUTINE_NESTING",
    "MAX_SVG_ELEMENTS",
    "MAX_SVG_NUMBER",
    "MAX_SVG_PIXELS",
    "MIN_CHARSTRING_WORK",
    "MIN_SVG_SIZE",
]

# Layouts: plain elements of one face after expansion, at load and again once a
# component's fields are bound (repeats over fields multiply through fragments).
MAX_EXPANDED = 20_000
# Expansion steps of one face (each element, repetition and fragment placement
# visited), so that repeats of empty fragments cannot loop without making elements.
MAX_EXPANSION_STEPS = 100_000

# SVG art: pixels decoded for one SVG, summed over every <image> and every <use>
# that draws one again (50 uses of one 64-megapixel picture are 3.2 gigapixels).
MAX_SVG_PIXELS = 64_000_000
# Elements of one SVG: in the file, and as drawn (each copy a <use> makes and each
# run of a text counted). svglib takes about half a millisecond a path and more for
# a text run: 15,000 runs in one text, to PDF and PNG, took 27 s on a machine
# running seven jobs on two cores.
MAX_SVG_ELEMENTS = 15_000
# Numbers an SVG may hold: reportlab writes numbers up to about 1e20 and fails past
# that; a picture's own size below MIN_SVG_SIZE (points) would be scaled past it.
MAX_SVG_NUMBER = 1e9
MIN_SVG_SIZE = 1e-3

# Fonts: charstring bytes run while a CFF font is converted to TrueType, each
# subroutine call running its bytes again (a few kilobytes of subroutines calling
# each other twice over run for ever). Proportional to the file: a font's glyphs
# run about once through their charstrings (1.1 bytes a byte for URW's P052).
CHARSTRING_WORK_PER_BYTE = 8
MIN_CHARSTRING_WORK = 1_000_000  # bytes run, whatever the file's size
MAX_SUBROUTINE_NESTING = 10  # the Type 2 charstring format's own limit
# Code points a font's cmap maps, summed over its subtables (each read once): every
# Unicode code point (1,114,112) in four subtables. A range from 0 to 2^32 - 1
# made the font libraries walk four billion code points.
MAX_CMAP_CODE_POINTS = 4 * 1_114_112

# Pages of one render over all its PDFs, and their area: each copy's page count
# is bounded, but a large component tiled across many sheets is not.
MAX_PAGES_PER_RENDER = 50_000
MAX_PAGE_AREA_M2 = 5_000  # square metres of paper: 80,000 A4 pages, or 5,000 pages of 1 m²

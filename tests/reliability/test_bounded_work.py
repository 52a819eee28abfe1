"""Work is bounded, not only bytes: a small layout, SVG, font or catalog cannot ask
for millions of elements, gigapixels, billions of steps or pages.

Each hostile case runs `protopress render` in a process limited to 1 GiB of address
space and a timeout; before the bounds, each ran for minutes or ran out of memory.
The figures are protopress.generators.limits'.
"""

from __future__ import annotations

import base64
import io
import json
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import reportlab
from PIL import Image

from protopress.generators.limits import (
    CHARSTRING_WORK_PER_BYTE,
    MAX_CMAP_CODE_POINTS,
    MAX_EXPANDED,
    MAX_EXPANSION_STEPS,
    MAX_PAGE_AREA_M2,
    MAX_PAGES_PER_RENDER,
    MAX_SVG_ELEMENTS,
    MAX_SVG_PIXELS,
    MIN_CHARSTRING_WORK,
)

from .reliability_helpers import environment

GIB = 1024**3
TIMEOUT = 120  # seconds: far above the few the bounded cases take, far below the unbounded


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def _render(
    catalog: Path, *extra: str, env_cache: Path | None = None
) -> subprocess.CompletedProcess:
    """`protopress render` of catalog (with the layouts beside it) into its folder's
    `out`, held to 1 GiB; env_cache: where converted fonts are kept."""
    command = [sys.executable, "-m", "protopress", "render", str(catalog), "--layouts",
               str(catalog.parent / "layouts"), "-o", str(catalog.parent / "out"), *extra]  # fmt: skip
    env = environment()
    if env_cache is not None:
        env["PROTOPRESS_CACHE"] = str(env_cache)
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                          preexec_fn=_limited, env=env)  # fmt: skip


def _game(folder: Path, cards: list[dict], layout: dict) -> Path:
    """A catalog of generic cards with layouts/card.json; returns the catalog's path."""
    catalog = folder / "cat.json"
    catalog.write_text(json.dumps({"game": "t", "title": "T", "version": "1", "cards": cards}))
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    return catalog


def _big_tokens(folder: Path, side_mm: int, count: int) -> Path:
    """A catalog of one square token kind, side_mm wide, in count copies, drawn by a
    layout of one rectangle."""
    (folder / "layouts").mkdir()
    (folder / "layouts" / "big-token.json").write_text(json.dumps(
        {"kind": "big-token", "front": [RECT]}))  # fmt: skip
    catalog = folder / "cat.json"
    size = {"width": f"{side_mm}mm", "height": f"{side_mm}mm"}
    catalog.write_text(json.dumps({
        "game": "t", "title": "T", "version": "1",
        "kinds": {"big-token": {"collection": "tokens", "layout": "layouts/big-token.json",
                                "size": size, "fields": {}}},
        "tokens": [{"id": "t1", "count": count}]}))  # fmt: skip
    return catalog


def _one_line(result: subprocess.CompletedProcess, start: str) -> str:
    """The one output line that starts with start (no traceback anywhere)."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = [
        line for line in (result.stdout + result.stderr).splitlines() if line.startswith(start)
    ]
    assert len(lines) == 1, result.stdout + result.stderr
    return lines[0]


# ---- layouts: elements per face after fields are bound -------------------------------

RECT = {"type": "rect", "x": 1, "y": 1, "w": 1, "h": 1, "fill": "#000000"}


def test_repeats_bound_to_fields_are_bounded_through_nested_fragments(tmp_path):
    """Three levels of "count": "{n}" with n = 100: a million elements on one face
    (literal nesting was refused at 20,000, bound nesting was not)."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"one": [{**RECT, "repeat": {"count": "{n}"}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{**RECT, "type": "rect"},
                        {"type": "fragment", "use": "two", "repeat": {"count": "{n}"}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 100}], layout)
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, str(tmp_path / "layouts" / "card.json"))
    # the element that binds the count, in the layout: its line and pointer
    assert line.endswith(f":3 /front/1: card 'c1': expands to more than {MAX_EXPANDED} elements")
    assert not (tmp_path / "out").exists()


def test_the_same_nesting_within_the_bound_is_drawn(tmp_path):
    """20 x 20 x 20 = 8,000 elements (and the rectangle): drawn."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"one": [{**RECT, "repeat": {"count": "{n}"}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{"type": "fragment", "use": "two", "repeat": {"count": "{n}"}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 20}], layout)
    result = _render(catalog, "--layout", "per-card")
    assert result.returncode == 0, result.stdout + result.stderr


def test_repeats_of_empty_fragments_are_bounded_in_steps(tmp_path):
    """Repeats that make no element still take steps: 1000 x {n} x 1000 placements of
    an empty fragment (10^9 with n = 1000) stop at the bound on steps."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"zero": [],
                            "one": [{"type": "fragment", "use": "zero", "repeat": {"count": 1000}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{"type": "fragment", "use": "two", "repeat": {"count": 1000}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 1000}], layout)
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, str(tmp_path / "layouts" / "card.json"))
    assert line.endswith(f" /fragments/two/0: card 'c1': expands through more than "
                         f"{MAX_EXPANSION_STEPS} repetitions and fragments")  # fmt: skip


# ---- pages per render ----------------------------------------------------------------


def test_pages_are_bounded_before_anything_is_drawn(tmp_path):
    """A declared 1000 x 1000 mm token, 10,000 copies (each within its limits): 24 A4
    tiles and a page map each on sheets, and a page each for print houses, 260,000
    pages in all (it ran four minutes, then ran out of memory)."""
    catalog = _big_tokens(tmp_path, 1000, 10_000)
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, "protopress: t: ")
    # A4 less 12 mm margins, overlapping 10 mm: a window of 186 x 273 mm, steps of 176 x
    # 263 mm; 1006 mm (bleed included) is 6 columns by 4 rows: 24 tiles, 25 pages a copy
    # on sheets, one more per card: 26 x 10,000. Paper: 250,000 A4 pages (0.06237 m²)
    # and 10,000 pages of 1006 x 1006 mm (1.012 m²): 25,713 m².
    assert line == (
        f"protopress: t: 260000 pages (25,713 square metres of paper) to print; a render "
        f"prints at most {MAX_PAGES_PER_RENDER} pages and {MAX_PAGE_AREA_M2:,} square metres "
        "(big-token: 10000 copies of 1000 x 1000 mm, 260000 pages; render fewer copies, "
        "or sheets or per-card pages alone)"
    )
    assert not (tmp_path / "out").exists()


def test_a_print_service_preset_is_bounded_as_a_render_is(tmp_path):
    """drivethrucards: one card side a page, front and back: 6 x 10,000 poker cards are
    120,000 pages."""
    cards = [{"id": f"c{n}", "title": "C", "count": 10_000} for n in range(6)]
    catalog = _game(tmp_path, cards, {"kind": "card", "size": "poker", "front": [RECT],
                                      "back": [RECT]})  # fmt: skip
    result = _render(catalog, "--preset", "drivethrucards")
    assert result.returncode == 1, result.stdout + result.stderr
    line = _one_line(result, "protopress: t: ")
    assert line.startswith("protopress: t: 120000 pages (")
    assert f"at most {MAX_PAGES_PER_RENDER} pages" in line
    assert not (tmp_path / "out").exists()


def test_page_area_alone_is_bounded(tmp_path):
    """6,000 per-card pages of 1 m² each: few pages, but 6,000 m² of paper."""
    catalog = _big_tokens(tmp_path, 994, 6_000)
    result = _render(catalog, "--layout", "per-card")
    assert result.returncode == 1, result.stderr
    line = _one_line(result, "protopress: t: ")
    # 994 mm and 3 mm of bleed each side: 1 m x 1 m a page
    assert line.startswith("protopress: t: 6000 pages (6,000 square metres of paper) to print")


# ---- SVG art: decoded pixels and elements per SVG ------------------------------------

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'
ART = {"kind": "card", "size": "poker",
       "front": [{"type": "image", "x": 0, "y": 0, "w": 20, "h": 20, "path": "{art}"}]}  # fmt: skip


def _art_game(folder: Path, name: str, data: bytes | str) -> Path:
    """One card whose front draws folder/name, which holds data."""
    (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)
    return _game(folder, [{"id": "c1", "title": "C", "art": name}], ART)


def _located_at_the_image(result: subprocess.CompletedProcess, folder: Path, name: str) -> str:
    """The one problem line, at the image element of layouts/card.json (written with
    indent=1: its `path` key is on line 11, column 12); what it says after the image."""
    assert result.returncode == 1, result.stdout + result.stderr
    line = _one_line(result, str(folder / "layouts" / "card.json"))
    start = f"{folder / 'layouts' / 'card.json'}:11:12 /front/0/path: card 'c1': image {name!r}"
    assert line.startswith(start), line
    return line[len(start) :]


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("1", (width, height)).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def test_pixels_are_counted_over_every_use_of_a_picture(tmp_path):
    """50 <use> of one 64-megapixel data-URI PNG (a file of a few kilobytes): 3.2
    gigapixels to decode (it ran out of memory: exit 70 with MemoryError)."""
    data = base64.b64encode(_png(8000, 8000)).decode()
    svg = (f'<svg {SVG_NS} width="100" height="100"><defs><image id="big" width="100" '
           f'height="100" href="data:image/png;base64,{data}"/></defs>'
           + '<use href="#big"/>' * 50 + "</svg>")  # fmt: skip
    result = _render(_art_game(tmp_path, "bomb.svg", svg))
    assert _located_at_the_image(result, tmp_path, "bomb.svg") == (
        f": the SVG draws more than {MAX_SVG_PIXELS // 1_000_000} megapixels of pictures "
        "(each <image> and each <use> of one counted); refused"
    )
    assert not (tmp_path / "out").exists()


def test_one_use_of_a_picture_within_the_bound_is_drawn(tmp_path):
    """The same picture drawn once, and a 1,000 x 1,000 one used 60 times (60 megapixels)."""
    small = base64.b64encode(_png(1000, 1000)).decode()
    svg = (f'<svg {SVG_NS} width="100" height="100"><defs><image id="p" width="10" '
           f'height="10" href="data:image/png;base64,{small}"/></defs>'
           + '<use href="#p"/>' * 60 + "</svg>")  # fmt: skip
    result = _render(_art_game(tmp_path, "fine.svg", svg), "--layout", "per-card")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_elements_of_an_svg_are_bounded(tmp_path):
    """100,000 <tspan> in one text (1.6 MB): it ran for minutes."""
    svg = f'<svg {SVG_NS} width="100" height="100"><text x="1" y="10">' + (
        "<tspan>a</tspan>" * 100_000 + "</text></svg>"
    )
    result = _render(_art_game(tmp_path, "runs.svg", svg))
    # the svg, the text and its runs
    assert _located_at_the_image(result, tmp_path, "runs.svg") == (
        f": the SVG has 100002 elements; at most {MAX_SVG_ELEMENTS}; refused"
    )


def test_the_elements_uses_copy_are_counted(tmp_path):
    """A group of 10,000 rectangles (within the bound) drawn 10 times by <use>."""
    rects = '<rect width="1" height="1"/>' * 10_000
    svg = (f'<svg {SVG_NS} width="100" height="100"><defs><g id="many">{rects}</g></defs>'
           + '<use href="#many"/>' * 10 + "</svg>")  # fmt: skip
    result = _render(_art_game(tmp_path, "copies.svg", svg))
    assert _located_at_the_image(result, tmp_path, "copies.svg") == (
        f": the SVG draws more than {MAX_SVG_ELEMENTS} elements (<use> copies and text runs "
        "counted); refused"
    )


# ---- image problems name the layout, the component and the image --------------------


def _text_chunk_bomb() -> bytes:
    """A 4 x 4 PNG with a zTXt chunk that inflates to 200 MB (a file of 200 KB)."""
    png = _png(4, 4)
    payload = b"k\0\0" + zlib.compress(b"a" * 200_000_000, 9)
    chunk = struct.pack(">I", len(payload)) + b"zTXt" + payload
    chunk += struct.pack(">I", zlib.crc32(b"zTXt" + payload))
    header_end = 8 + 25  # the signature, then IHDR
    return png[:header_end] + chunk + png[header_end:]


def test_a_png_text_chunk_bomb_names_the_image(tmp_path):
    result = _render(_art_game(tmp_path, "bomb.png", _text_chunk_bomb()))
    assert _located_at_the_image(result, tmp_path, "bomb.png") == (
        " cannot be read: Decompressed data too large for PngImagePlugin.MAX_TEXT_CHUNK"
    )


def test_a_nul_in_an_image_name_names_the_image(tmp_path):
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "art": "art/\0.png"}], ART)
    result = _render(catalog)
    assert _located_at_the_image(result, tmp_path, "art/\0.png") == (
        " cannot be used: a name holds no NUL character"
    )
    assert "\\x00" in result.stdout  # shown escaped, never raw


def test_an_svg_too_large_to_write_is_one_line(tmp_path):
    """width="1e308" gave a two-line message from reportlab's C code, naming nothing."""
    svg = f'<svg {SVG_NS} width="1e308" height="1e308"><rect width="5" height="5"/></svg>'
    result = _render(_art_game(tmp_path, "huge.svg", svg))
    # 1e308 px is 7.5e307 pt (a pixel is three quarters of a point)
    assert _located_at_the_image(result, tmp_path, "huge.svg") == (
        ": the SVG is 7.5e+307 x 7.5e+307 pt; its width and height are 0.001 to 1e+09 pt"
    )


def test_a_number_too_large_to_write_inside_an_svg_is_one_line(tmp_path):
    svg = f'<svg {SVG_NS} width="10" height="10"><rect width="1e30" height="5"/></svg>'
    result = _render(_art_game(tmp_path, "wide.svg", svg))
    assert _located_at_the_image(result, tmp_path, "wide.svg") == (
        ": the SVG holds the number 1e+30; numbers up to 1e+09 are drawn"
    )


def test_a_group_scaled_to_nothing_draws_nothing(tmp_path):
    """scale(0) hides a group (as browsers draw it); reportlab divided by it (exit 70)."""
    svg = (f'<svg {SVG_NS} width="10" height="10"><rect width="2" height="2"/>'
           '<g transform="scale(0)"><rect width="5" height="5"/></g></svg>')  # fmt: skip
    result = _render(_art_game(tmp_path, "hidden.svg", svg), "--layout", "per-card", "--png")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_damaged_data_uri_names_the_image_not_a_stream(tmp_path):
    """A PNG signature and then no header: Pillow's message named `<_io.BytesIO ...>`."""
    data = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0\0\0\x0dIHDX" + b"junk" * 10).decode()
    svg = (f'<svg {SVG_NS} width="10" height="10"><image width="5" height="5" '
           f'href="data:image/png;base64,{data}"/></svg>')  # fmt: skip
    result = _render(_art_game(tmp_path, "data.svg", svg))
    said = _located_at_the_image(result, tmp_path, "data.svg")
    assert said.startswith(" refers to 'data:image/png;base64,iVBORw0KGgoAAAANSUhEWGp1bmtq")
    assert said.endswith(", which cannot be read: not a readable PNG")
    assert "BytesIO" not in result.stdout


# ---- fonts: charstring work and cmap ranges ------------------------------------------

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
BIAS = 107  # subtracted from a subroutine's index when fewer than 1,240 are defined


def _font_game(folder: Path, font_file: str) -> Path:
    """One card whose title is set in layouts/font_file (the layout's font `display`)."""
    layout = {"kind": "card", "size": "poker", "fonts": {"display": font_file},
              "front": [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{title}",
                         "font": "display"}]}  # fmt: skip
    return _game(folder, [{"id": "c1", "title": "A"}], layout)


def _calling_otf(depth: int, calls: int) -> bytes:
    """A CFF font whose glyph A calls global subroutine 0; subroutine i calls i + 1
    `calls` times, down to `depth` subroutines: calls^(depth - 1) runs of the last."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.misc.psCharStrings import T2CharString

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    glyphs = {".notdef": T2CharString(program=[500, "endchar"]),
              "A": T2CharString(program=[500, 0, 0, "rmoveto", -BIAS, "callgsubr", "endchar"])}  # fmt: skip
    builder.setupCFF("Calling", {"FullName": "Calling"}, glyphs, {})
    cff = builder.font["CFF "].cff
    for level in range(depth):
        last = level == depth - 1
        program = [0, 0, "rlineto", "return"] if last else [level + 1 - BIAS, "callgsubr"] * calls + ["return"]  # fmt: skip
        cff.GlobalSubrs.append(T2CharString(program=program, private=cff.topDictIndex[0].Private,
                                            globalSubrs=cff.GlobalSubrs))  # fmt: skip
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (500, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Calling", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.font.recalcBBoxes = False  # the bounds would be drawn through the calls
    buffer = io.BytesIO()
    builder.save(buffer)
    return buffer.getvalue()


def _font_problem(result: subprocess.CompletedProcess, folder: Path, file: str) -> str:
    """The one problem line, at the layout's font file (with indent=1, line 5, column 14:
    the value of `  "display": `); its reason."""
    assert result.returncode == 1, result.stdout + result.stderr
    line = _one_line(result, str(folder / "layouts" / "card.json"))
    start = f"{folder / 'layouts' / 'card.json'}:5:14"
    assert line.startswith(start), line
    said = f" /fonts/display: font file {file!r} is not a usable "
    assert said in line, line
    return line.split(said, 1)[1]


def test_subroutines_calling_each_other_deeper_than_the_format_allows_are_refused(tmp_path):
    """40 subroutines each calling the next twice (a font of under 1 KB): 2^39 runs, for
    ever. The Type 2 format allows 10 levels of subroutines."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "Calling.otf").write_bytes(_calling_otf(depth=40, calls=2))
    result = _render(_font_game(tmp_path, "Calling.otf"), env_cache=tmp_path / "cache")
    assert _font_problem(result, tmp_path, "Calling.otf") == (
        "OpenType (CFF) font (its subroutines nest more than 10 deep)"
    )


def test_charstring_work_within_the_nesting_limit_is_bounded(tmp_path):
    """10 levels, each calling the next 40 times: 40^9 runs of the last. The budget for
    a font of under 1 KB is MIN_CHARSTRING_WORK bytes run."""
    data = _calling_otf(depth=10, calls=40)
    assert CHARSTRING_WORK_PER_BYTE * len(data) < MIN_CHARSTRING_WORK
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "Calling.otf").write_bytes(data)
    result = _render(_font_game(tmp_path, "Calling.otf"), env_cache=tmp_path / "cache")
    assert _font_problem(result, tmp_path, "Calling.otf") == (
        f"OpenType (CFF) font (its charstrings run more than {MIN_CHARSTRING_WORK:,} bytes "
        "in subroutines)"
    )


def test_subroutines_within_the_bounds_are_converted(tmp_path):
    """10 levels, each calling the next twice: 2^9 runs of the last, drawn."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "Calling.otf").write_bytes(_calling_otf(depth=10, calls=2))
    result = _render(_font_game(tmp_path, "Calling.otf"), "--layout", "per-card",
                     env_cache=tmp_path / "cache")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def _with_cmap(data: bytes, cmap: bytes) -> bytes:
    """The TrueType font data with its cmap table replaced by the raw bytes cmap."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.DefaultTable import DefaultTable

    font = TTFont(io.BytesIO(data))
    table = DefaultTable("cmap")
    table.data = cmap
    font["cmap"] = table
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _format_12(*groups: tuple[int, int, int]) -> bytes:
    """A cmap of one Windows Unicode (full repertoire) subtable of format 12 with groups
    (first code point, last code point, first glyph)."""
    subtable = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups))
    subtable += b"".join(struct.pack(">III", *group) for group in groups)
    return struct.pack(">HHHHI", 0, 1, 3, 10, 12) + subtable


def test_a_cmap_range_over_every_32_bit_code_point_is_refused_unexpanded(tmp_path):
    """One format 12 group from 0 to 2^32 - 1: the font libraries walked four billion
    code points."""
    (tmp_path / "layouts").mkdir()
    font = _with_cmap(VERA.read_bytes(), _format_12((0, 0xFFFF_FFFF, 0)))
    (tmp_path / "layouts" / "Wide.ttf").write_bytes(font)
    result = _render(_font_game(tmp_path, "Wide.ttf"))
    assert _font_problem(result, tmp_path, "Wide.ttf") == (
        f"TrueType font (its character map (cmap) maps more than {MAX_CMAP_CODE_POINTS:,} "
        "code points)"
    )


def test_overlapping_cmap_ranges_are_counted_each(tmp_path):
    """Five groups over all of Unicode (1,114,112 each): 5,570,560 code points to walk."""
    (tmp_path / "layouts").mkdir()
    font = _with_cmap(VERA.read_bytes(), _format_12(*[(0, 0x10FFFF, 0)] * 5))
    (tmp_path / "layouts" / "Wide.ttf").write_bytes(font)
    result = _render(_font_game(tmp_path, "Wide.ttf"))
    assert "its character map (cmap) maps more than" in _font_problem(result, tmp_path, "Wide.ttf")


def test_a_cmap_of_a_few_ranges_is_read(tmp_path):
    """Letters A to Z on glyphs 36 onwards (as Vera has them), in a format 12 subtable."""
    (tmp_path / "layouts").mkdir()
    font = _with_cmap(VERA.read_bytes(), _format_12((ord("A"), ord("Z"), 36)))
    (tmp_path / "layouts" / "Narrow.ttf").write_bytes(font)
    result = _render(_font_game(tmp_path, "Narrow.ttf"), "--layout", "per-card")
    assert result.returncode == 0, result.stdout + result.stderr

"""Strategies that get deep: layouts of the schema's own shape whose values come
from card fields holding hostile values, damaged real font and image files,
and special files, plus the one check every rendering example must pass.

The layouts are built from layout.schema.json's element types and attributes
(tests/fuzz/test_fuzz_deep.py checks that every type and attribute is drawn
from here), so most of them load and the example reaches the drawing code;
what is hostile is what a field binds: wrong types, huge and negative
numbers, NaN-like text, control and bidi characters, long text, deep lists.
"""

from __future__ import annotations

import io
import json
import os
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import reportlab
from hypothesis import strategies as st
from PIL import Image

from protopress.components.schemas import schema_documents

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
FIELDS = [f"f{index}" for index in range(8)]
SYMBOLS = ["sun", "moon"]
ELEMENT_SCHEMA = schema_documents()["layout.schema.json"]["$defs"]["element"]
ELEMENT_TYPES = [t for t in ELEMENT_SCHEMA["properties"]["type"]["enum"] if t != "fragment"]
ATTRIBUTES = sorted(ELEMENT_SCHEMA["properties"])


def _required(element_type: str) -> list[str]:
    for rule in ELEMENT_SCHEMA["allOf"]:
        named = rule.get("if", {}).get("properties", {}).get("type", {})
        if named.get("const") == element_type:  # rules on several types name no one type
            then = rule["then"]
            return then.get("required") or then["anyOf"][-1]["required"]
    return []


REQUIRED = {t: _required(t) for t in ELEMENT_TYPES}
OPTIONAL = {
    "rect": ["fill", "stroke", "stroke_width", "radius"],
    "line": ["stroke", "stroke_width", "dash", "cap"],
    "ellipse": ["fill", "stroke", "stroke_width"],
    "polygon": ["fill", "stroke", "stroke_width", "sides"],
    "star": ["fill", "stroke", "stroke_width", "points", "inner"],
    "text": ["font", "size", "min_size", "leading", "align", "valign", "colour", "separator",
             "icons"],
    "icon": ["from", "fill", "stroke", "stroke_width"],
    "icons": ["gap", "direction", "stroke", "stroke_width"],
    "image": ["fit", "align", "valign", "clip", "sides", "points", "inner"],
    "grid": ["fill", "stroke", "stroke_width"],
    "table": ["header", "total", "label_width", "size", "font", "stroke", "stroke_width"],
    "markers": ["row_key", "col_key", "item_key", "icon_size", "stroke", "stroke_width"],
    "legend": ["items", "icon_size", "line_height", "size", "font", "stroke", "stroke_width",
               "icons"],
}  # fmt: skip
COMMON = ["name", "when", "repeat"]

# --------------------------------------------------------------------------
# Hostile values a card field may hold (any JSON type)

CONTROL = ["\x1b[31mred\x1b[0m", "\x00", "\x07\x08", "\u202eevil\u202c", "\u2066x\u2069",
           "\u200f\u200e", "\ufeff", "\u0085", "\r\n", "\t" * 50, "\u0301" * 40, "\ud7ff\ue000",
           "\U0010ffff", "\u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd"]  # fmt: skip
NAN_LIKE = ["NaN", "nan", "-nan", "inf", "-inf", "Infinity", "1e999", "1e999mm", "nanmm",
            "inf mm", "NaN mm", "0x10", "1_000", "١٢", "+5mm", "5 mm", "--5mm"]  # fmt: skip
LENGTHS = ["12mm", "0.5in", "9pt", "1cm", "0mm", "-5mm", "-1000mm", "1000mm", "1001mm",
           "-1001mm", "99999999999mm", "0.0000001mm", "3", "-3"]  # fmt: skip
NUMBERS = [0, 1, 2, 3, 7, 12, 63, 88, 99, 100, 101, 999, 1000, 1001, 10**4, 10**7, 2**31,
           2**53 + 1, 2**63, 10**30, -1, -5, -100, -1000, -1001, -(10**7), 0.5, -0.0, 1e-300,
           5e-324, 1e308, -1e308, 12.000000001]  # fmt: skip
WORDS = ["sun", "moon", "circle", "star", "hexagon", "crescent", "nope", "symbols", "cards",
         "title", "style", "totals", "id", "#ff0000", "#FFF", "#12345g", "red", "", " ",
         ":sun:", ":moon: and :sun:", ":nope:", "<b>bold</b>", "<i><b>x</i></b>", "<b>open",
         "</i>", "\\:sun:", "a < b", "{title}", "{f0}", "{{", "}", "../x", "/etc/passwd",
         "art/c0.png", "row", "col", "element", "N", "true", "null", "left", "center"]  # fmt: skip


def _long_texts():
    return st.sampled_from(
        [
            "word " * 3000,
            "x" * 20000,
            "\u0645" * 5000,
            ":sun:" * 2000,
            "<b>" * 500,
            ("a\n" * 2000),
            "\U0001f48e" * 3000,
        ]  # fmt: skip
    )


def _deep_list(depth: int):
    value: object = "sun"
    for _ in range(depth):
        value = [value]
    return value


scalar_values = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(WORDS),
    st.sampled_from(LENGTHS),
    st.sampled_from(NAN_LIKE),
    st.sampled_from(CONTROL),
    st.text(max_size=30),
)

marker_items = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "row": st.one_of(st.integers(-3, 12), scalar_values),
            "col": st.one_of(st.integers(-3, 12), scalar_values),
            "element": st.one_of(st.sampled_from(SYMBOLS), scalar_values),
        },
    ),
    max_size=6,
)

_HUGE_LISTS = st.sampled_from([["sun"] * 5000, list(range(3000)), [{"row": 1, "col": 1}] * 2000])
_common_values = [
    scalar_values,
    scalar_values,
    st.lists(st.sampled_from(SYMBOLS + ["nope", ""]), max_size=8),
    st.integers(1, 55).map(_deep_list),
    marker_items,
    st.lists(scalar_values, max_size=6),
    st.dictionaries(
        st.sampled_from(["x", "y", "name", "points", "0", "N"]), scalar_values, max_size=4
    ),  # fmt: skip
    st.recursive(
        scalar_values,
        lambda c: (
            st.lists(c, max_size=3)
            | st.dictionaries(st.sampled_from(["a", "b", "name"]), c, max_size=3)
        ),
        max_leaves=8,
    ),
]
field_values = st.one_of(*_common_values, _long_texts(), _HUGE_LISTS)
# for the asset surfaces: what a file does is the point, and 1000 repetitions of an
# image (a 5,000-item list bound to a repeat) take a minute on a busy machine
light_field_values = st.one_of(*_common_values)

# --------------------------------------------------------------------------
# Layout values: a literal the schema accepts, or a field binding


def _field():
    return st.sampled_from(FIELDS).map(lambda name: "{" + name + "}")


def _bound_or(literal):
    return st.one_of(_field(), literal)


POSITION = _bound_or(st.one_of(st.integers(-5, 70), st.sampled_from(["5mm", "0.2in", "-2mm"])))
COLOUR = _bound_or(st.sampled_from(["#000000", "#ff8800", "#fbf6ea"]))
COUNT = _bound_or(st.integers(1, 12))
TEMPLATE = st.one_of(
    _field(),
    st.lists(_field(), min_size=1, max_size=3).map(" and ".join),
    st.sampled_from(["{title}", ":sun: {f0}", "<b>{f1}</b> {f2}", "{item}", "{item.name}",
                     "{index}/{number}", "{f0.0}", "{f3.name}", "Cost: 2", "{catalog.title}"]),
)  # fmt: skip
CONDITION = st.one_of(
    st.sampled_from(FIELDS),
    st.sampled_from(FIELDS).map(lambda f: "!" + f),
    st.tuples(
        st.sampled_from(FIELDS), st.sampled_from("=~"), st.sampled_from(["sun", "1", ""])
    ).map("".join),
)

ATTRIBUTE_VALUES = {
    "x": POSITION, "y": POSITION, "w": POSITION, "h": POSITION, "x2": POSITION, "y2": POSITION,
    "radius": POSITION, "icon_size": POSITION, "gap": POSITION, "label_width": POSITION,
    "line_height": POSITION,
    "bleed": st.just(True),
    "fill": COLOUR, "stroke": COLOUR, "colour": COLOUR,
    "stroke_width": st.sampled_from([0, 0.5, 1, 20]),
    "dash": st.lists(st.sampled_from([0, 1, 2, 50]), max_size=4),
    "text": TEMPLATE,
    "font": st.sampled_from(["sans", "sans-bold", "sans-italic", "sans-bold-italic"]),
    "size": st.sampled_from([1, 6, 9, 14, 200]),
    "min_size": st.sampled_from([1, 4, 6, 200]),
    "leading": st.sampled_from([0.8, 1.2, 3]),
    "align": st.sampled_from(["left", "center", "right"]),
    "valign": st.sampled_from(["top", "middle", "bottom"]),
    "separator": st.sampled_from([", ", "\n", "", " | "]),
    "icons": st.one_of(st.just("symbols"), st.just(["symbols", "cards"]), st.just("cards")),
    "shape": st.one_of(_field(), st.sampled_from(["circle", "star", "hexagon", "nope"])),
    "items": _field(),
    "labels": _field(),
    "from": st.one_of(_field(), st.sampled_from(["symbols", "cards"])),
    "direction": st.sampled_from(["row", "column"]),
    "path": st.sampled_from(["art/{id}.png", "art/{f0}", "{f1}", "art/c0.png", "art/missing.png"]),
    "fit": st.sampled_from(["contain", "cover", "stretch"]),
    "rows": COUNT, "columns": COUNT,
    "header": st.sampled_from(["Player", "", "\u202e"]),
    "total": st.one_of(st.booleans(), _field()),
    "row_key": st.sampled_from(["row", "x", "f0"]),
    "col_key": st.sampled_from(["col", "y"]),
    "item_key": st.sampled_from(["element", "name"]),
    "name": st.sampled_from(["a", "b", "c"]),
    "rotate": st.sampled_from([0, 15, -90, 180, 360]),
    "opacity": st.sampled_from([0, 0.5, 1]),
    "clip": st.sampled_from(["rect", "ellipse", "polygon", "star"]),
    "sides": st.sampled_from([3, 6, 64]),
    "points": st.sampled_from([3, 5, 64]),
    "inner": st.sampled_from([0.05, 0.5, 1]),
    "cap": st.sampled_from(["butt", "round", "square"]),
    "when": st.one_of(CONDITION, st.lists(CONDITION, min_size=1, max_size=3)),
    "repeat": st.one_of(
        st.fixed_dictionaries({"count": _bound_or(st.integers(0, 30))},
                              optional={"dx": st.sampled_from([0, 2, -3, "1mm"]),
                                        "dy": st.sampled_from([0, 2, "1mm"]),
                                        "columns": st.integers(1, 5),
                                        "row_dy": st.sampled_from([0, 4])}),
        st.fixed_dictionaries({"each": _field()}, optional={"dy": st.sampled_from([0, 3])}),
    ),
}  # fmt: skip


@st.composite
def elements(draw, element_type=None, font_names=()):
    """One element of the schema's shape: its required attributes, some optional ones."""
    element_type = element_type or draw(st.sampled_from(ELEMENT_TYPES))
    element: dict = {"type": element_type}
    if element_type == "rect" and draw(st.integers(0, 3)) == 0:
        element["bleed"] = True
    else:
        for attribute in REQUIRED[element_type]:
            element[attribute] = draw(ATTRIBUTE_VALUES[attribute])
    for attribute in OPTIONAL[element_type] + ["when", "repeat", "rotate", "opacity"]:
        if draw(st.integers(0, 3)) == 0:
            element[attribute] = draw(ATTRIBUTE_VALUES[attribute])
    if font_names and "font" in OPTIONAL[element_type] and draw(st.booleans()):
        element["font"] = draw(st.sampled_from(list(font_names)))
    return element


@st.composite
def layouts(draw, font_names=(), must_have=None):
    """A card layout: some elements of any type (and must_have, if named), maybe a
    back and a fragment placed with bindings."""
    front = draw(st.lists(elements(font_names=font_names), min_size=1, max_size=6))
    if must_have:
        front.insert(draw(st.integers(0, len(front))), draw(elements(must_have, font_names)))
    layout: dict = {
        "kind": "card",
        "size": draw(st.sampled_from(["poker", "mini", {"width": "40mm", "height": "40mm"}])),
        "front": front,
    }
    if draw(st.integers(0, 3)) == 0:
        layout["back"] = draw(st.lists(elements(font_names=font_names), max_size=3))
    if draw(st.integers(0, 4)) == 0:
        layout["fragments"] = {"frag": draw(st.lists(elements(font_names=font_names),
                                                     min_size=1, max_size=3))}  # fmt: skip
        bindings = draw(st.dictionaries(st.sampled_from(FIELDS), _field(), max_size=3))
        front.append({"type": "fragment", "use": "frag", "with": bindings,
                      "x": draw(POSITION), "y": draw(POSITION)})  # fmt: skip
    return layout


@st.composite
def catalogs(draw, images=False):
    """A catalog of one to three cards whose free fields hold hostile values."""
    cards = []
    for index in range(draw(st.integers(1, 3))):
        title = draw(st.one_of(st.sampled_from(["Dawn", "\u202eevil", "W" * 80]),
                               st.text(min_size=1, max_size=20)))  # fmt: skip
        card: dict = {"id": f"c{index}", "title": title}
        for name in FIELDS:
            if draw(st.integers(0, 4)) != 0:
                card[name] = draw(light_field_values if images else field_values)
        if images and draw(st.booleans()):
            card["f0"] = draw(st.sampled_from(["c0.png", "c1.png", "special"]))
        cards.append(card)
    return {
        "game": "fuzz-game",
        "title": "Fuzz",
        "version": "1",
        "symbols": [
            {"id": "sun", "name": "Sun", "shape": "circle", "colour": "#e0a020"},
            {"id": "moon", "name": "Moon", "shape": "crescent", "colour": "#4060a0"},
        ],
        "cards": cards,
    }


def dumps(document) -> str:
    """JSON text of a generated document (lone surrogates written as escapes)."""
    return json.dumps(document, indent=1, ensure_ascii=True)


# --------------------------------------------------------------------------
# Damaged real files


def _tables(data: bytes) -> list[tuple[bytes, int, int, int]]:
    """(tag, record offset, table offset, length) of a TrueType table directory."""
    count = struct.unpack(">H", data[4:6])[0]
    result = []
    for index in range(count):
        at = 12 + 16 * index
        tag, _, offset, length = struct.unpack(">4sIII", data[at : at + 16])
        result.append((tag, at, offset, length))
    return result


FONT_DAMAGE = ["truncate", "flip", "flip-glyphs", "flip-glyphs", "flip-metrics", "table-offset", "table-length", "zero-length", "drop-table",
               "units-per-em", "num-glyphs", "h-metrics", "bbox", "swap-tags", "none"]  # fmt: skip
# (table, byte offset in it, struct format) of the counts and sizes a font declares
FONT_FIELDS = {
    "units-per-em": (b"head", 18, ">H"),
    "num-glyphs": (b"maxp", 4, ">H"),
    "h-metrics": (b"hhea", 34, ">H"),
    "bbox": (b"head", 36, ">hhhh"),
}


@st.composite
def damaged_fonts(draw) -> tuple[str, bytes]:
    """A real TrueType file (Bitstream Vera) with one or more kinds of damage."""
    data = bytearray(VERA.read_bytes())
    done = []
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        how = draw(st.sampled_from(FONT_DAMAGE))
        done.append(how)
        tables = _tables(bytes(data))
        tag, record, offset, length = tables[draw(st.integers(0, len(tables) - 1))]
        if how == "truncate":
            del data[draw(st.integers(0, len(data) - 1)) :]
            break
        if how == "flip":
            for _ in range(draw(st.integers(1, 40))):
                at = draw(st.integers(0, len(data) - 1))
                data[at] ^= draw(st.integers(1, 255))
        elif how in ("flip-glyphs", "flip-metrics"):  # inside the outlines or metrics only
            wanted = {b"glyf", b"loca"} if how == "flip-glyphs" else {b"hmtx", b"hhea", b"cmap"}
            inside = [t for t in tables if t[0] in wanted and t[3] > 0]
            if inside:
                _, _, start, size = inside[draw(st.integers(0, len(inside) - 1))]
                for _ in range(draw(st.integers(1, 20))):
                    at = start + draw(st.integers(0, size - 1))
                    if at < len(data):
                        data[at] ^= draw(st.integers(1, 255))
        elif how == "table-offset":
            value = draw(st.sampled_from([0, 1, len(data) - 2, len(data), 2**31, 2**32 - 1]))
            data[record + 8 : record + 12] = struct.pack(">I", value)
        elif how in ("table-length", "zero-length"):
            value = 0 if how == "zero-length" else draw(st.sampled_from([1, 3, 2**31, 2**32 - 1]))
            data[record + 12 : record + 16] = struct.pack(">I", value)
        elif how == "drop-table":
            data[4:6] = struct.pack(">H", max(0, len(tables) - draw(st.integers(1, 3))))
        elif how == "swap-tags":
            data[record : record + 4] = draw(
                st.sampled_from([b"head", b"glyf", b"cmap", b"\0\0\0\0"])
            )
        elif how in FONT_FIELDS:
            name, at, form = FONT_FIELDS[how]
            found = [t for t in tables if t[0] == name]
            if found:
                start = found[0][2] + at
                size = struct.calcsize(form)
                values = [
                    draw(
                        st.sampled_from(
                            [0, 1, 2**15 - 1, 2**16 - 1] if form == ">H" else [0, -32768, 32767]
                        )
                    )  # fmt: skip
                    for _ in form.strip(">")
                ]
                if start + size <= len(data):
                    data[start : start + size] = struct.pack(form, *values)
    return "+".join(done), bytes(data)


IMAGE_FORMATS = ["PNG", "JPEG", "GIF", "WEBP", "TIFF"]
IMAGE_DAMAGE = ["truncate", "flip", "huge-size", "zero-size", "none", "header-only"]


def _image_bytes(form: str, width: int, height: int, mode: str) -> bytes:
    image = Image.new(mode, (width, height), "#a04020" if mode == "RGB" else 128)
    buffer = io.BytesIO()
    if form == "JPEG" and mode not in ("RGB", "L"):
        image = image.convert("RGB")
    image.save(buffer, form)
    return buffer.getvalue()


def _png_size(data: bytearray, width: int, height: int) -> None:
    """Declare another size in a PNG's IHDR, with a correct checksum."""
    if data[12:16] != b"IHDR":
        return
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))


def _declare_size(form: str, data: bytearray, width: int, height: int) -> None:
    if form == "PNG":
        _png_size(data, width, height)
    elif form == "GIF":
        data[6:10] = struct.pack("<HH", width & 0xFFFF, height & 0xFFFF)
    elif form == "JPEG":
        match = re.search(rb"\xff[\xc0-\xc2]", bytes(data))
        if match:
            at = match.start() + 5
            data[at : at + 4] = struct.pack(">HH", height & 0xFFFF, width & 0xFFFF)
    elif form == "WEBP" and data[12:16] == b"VP8 ":
        data[26:30] = struct.pack("<HH", width & 0x3FFF, height & 0x3FFF)
    elif form == "TIFF":  # the first IFD's ImageWidth and ImageLength
        (ifd,) = struct.unpack("<I", data[4:8])
        (count,) = struct.unpack("<H", data[ifd : ifd + 2])
        for index in range(count):
            at = ifd + 2 + 12 * index
            tag, kind = struct.unpack("<HH", data[at : at + 4])
            value = {256: width, 257: height}.get(tag)
            if value is not None:
                packed = struct.pack(
                    "<I" if kind == 4 else "<H", value & (0xFFFFFFFF if kind == 4 else 0xFFFF)
                )
                data[at + 8 : at + 8 + len(packed)] = packed


@st.composite
def damaged_images(draw) -> tuple[str, bytes]:
    """A real image in an allowed format, sometimes damaged."""
    form = draw(st.sampled_from(IMAGE_FORMATS))
    mode = draw(st.sampled_from(["RGB", "RGBA", "L", "P", "1"]))
    if form == "WEBP" and mode in ("P", "1", "L"):
        mode = "RGB"
    width, height = draw(st.integers(1, 24)), draw(st.integers(1, 24))
    data = bytearray(_image_bytes(form, width, height, mode))
    how = draw(st.sampled_from(IMAGE_DAMAGE))
    if how == "truncate":
        del data[draw(st.integers(0, len(data) - 1)) :]
    elif how == "header-only":
        del data[draw(st.integers(4, 40)) :]
    elif how == "flip":
        for _ in range(draw(st.integers(1, 20))):
            at = draw(st.integers(0, len(data) - 1))
            data[at] ^= draw(st.integers(1, 255))
    elif how == "huge-size":
        side = draw(st.sampled_from([65535, 100_000, 2**31 - 1, 2**32 - 1, 8000, 9000]))
        _declare_size(form, data, side, draw(st.sampled_from([1, side, 65535])))
    elif how == "zero-size":
        _declare_size(form, data, draw(st.sampled_from([0, 5])), 0)
    return f"{form}/{mode}/{how}", bytes(data)


# --------------------------------------------------------------------------
# Special files

SPECIAL_KINDS = ["fifo", "zero", "folder", "dangling", "loop", "null"]


def make_special(kind: str, path: Path) -> None:
    """Make path a special file of that kind (it must not exist yet)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "null":
        path.symlink_to("/dev/null")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(path.parent / "nothing-here")
    elif kind == "loop":
        path.symlink_to(path.name)


# --------------------------------------------------------------------------
# What a rendering example must show

LOCATED = re.compile(r"^\S.*:\d+:\d+ (/\S*)?: ")
NAMED = re.compile(r"^protopress: [^:]+: card 'c\d'")


@dataclass(frozen=True)
class Outcome:
    """How one render ended: its exit code, what it said, and whether faces were drawn."""

    exit_code: int
    output: str
    rendered: bool


def assert_render_contract(exit_code: int, stdout: str, stderr: str, out: Path) -> Outcome:
    """Exit 0, 1 or 2 without a traceback; exit 1 with located problems (file and
    pointer) or one `protopress: GAME: ...` line naming what was refused;
    nothing half-written: no temporary left, no folder made by a failed render,
    every PDF complete."""
    output = stdout + stderr
    assert "Traceback" not in output, output[-3000:]
    assert "internal error" not in output, output[-3000:]
    assert exit_code in (0, 1, 2), (exit_code, output[-3000:])
    leftovers = [p for p in out.rglob("*") if p.name.endswith(".tmp")] if out.exists() else []
    assert not leftovers, leftovers
    if exit_code != 0:
        assert output.strip(), f"exit {exit_code} without a word"
    if exit_code == 1:
        problems = [line for line in stdout.splitlines() if line.strip()]
        refusals = [line for line in stderr.splitlines() if line.startswith("protopress: ")]
        assert problems or refusals, output[-3000:]
        for line in problems:
            assert LOCATED.match(line), f"not located: {line!r}"
        for line in refusals:  # a refusal outside the layout names its component
            assert NAMED.search(line), f"names no component: {line!r}"
        if "drawn as placeholders" not in output:  # missing art is drawn crossed out
            assert not out.exists() or not any(out.iterdir()), sorted(out.rglob("*"))
    pdfs = sorted(out.rglob("*.pdf")) if out.exists() else []
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), pdf
    output.encode("utf-8", "surrogateescape")
    return Outcome(exit_code, output, exit_code == 0 and bool(pdfs))

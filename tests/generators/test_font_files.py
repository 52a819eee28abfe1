"""A layout's font file that cannot be used is a located problem, read boundedly."""

import json
import os
import shutil
from pathlib import Path

import pytest
import reportlab
from click.testing import CliRunner

from protopress.cli import cli
from protopress.generators import layout as layout_module

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "fonts": {"display": "Display.ttf"},
    "front": [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{title}",
               "font": "display"}],
}  # fmt: skip


def _render(root: Path):
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "count": 1}]}  # fmt: skip
    (root / "cat.json").write_text(json.dumps(catalog))
    (root / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    return CliRunner().invoke(cli, ["render", str(root / "cat.json"), "--layouts",
                                    str(root / "layouts"), "-o", str(root / "out")])  # fmt: skip


def _with_glyph_count(data: bytes, count: int) -> bytes:
    """The font with maxp's number of glyphs set to count (its glyphs stay)."""
    import struct

    tables = struct.unpack(">H", data[4:6])[0]
    for index in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * index : 28 + 16 * index])
        if tag == b"maxp":
            return data[: offset + 4] + struct.pack(">H", count) + data[offset + 6 :]
    raise AssertionError("no maxp table")


def _damaged(kind: str, target: Path) -> None:
    vera = VERA.read_bytes()
    if kind == "empty":
        target.write_bytes(b"")
    elif kind == "text":
        target.write_text("this is not a font\n" * 20)
    elif kind == "truncated":
        target.write_bytes(vera[: len(vera) // 3])
    elif kind == "table-directory":  # the table records point far beyond the file
        target.write_bytes(vera[:12] + b"\xff" * 16 * 12 + vera[12 + 16 * 12 :])
    elif kind == "header-only":
        target.write_bytes(vera[:12])
    elif kind in ("glyph-count-0", "glyph-count-1"):  # found by the deep fuzzing: parses,
        target.write_bytes(_with_glyph_count(vera, int(kind[-1])))  # then fails to embed
    elif kind == "loop":
        target.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()


@pytest.mark.parametrize(
    "kind", ["empty", "text", "truncated", "table-directory", "header-only", "loop", "fifo",
             "folder", "glyph-count-0", "glyph-count-1"],
)  # fmt: skip
def test_a_damaged_font_file_is_a_located_problem(tmp_path, kind):
    if kind in ("loop", "fifo") and os.name != "posix":
        pytest.skip("links and FIFOs")
    (tmp_path / "layouts").mkdir()
    _damaged(kind, tmp_path / "layouts" / "Display.ttf")
    result = _render(tmp_path)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert "card.json:" in result.output
    assert "/fonts/display: font file 'Display.ttf'" in result.output, result.output
    assert not (tmp_path / "out").exists()


def test_a_good_font_file_renders(tmp_path):
    (tmp_path / "layouts").mkdir()
    shutil.copy(VERA, tmp_path / "layouts" / "Display.ttf")
    result = _render(tmp_path)
    assert result.exit_code == 0, result.output


def test_a_huge_font_file_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    (tmp_path / "layouts").mkdir()
    huge = tmp_path / "layouts" / "Display.ttf"
    with huge.open("wb") as stream:  # sparse: 1 GiB that takes no room
        stream.truncate(1024**3)
    read = []
    real = layout_module.read_regular

    def counting(path, limit):
        data = real(path, limit)
        read.append(len(data))
        return data

    monkeypatch.setattr(layout_module, "read_regular", counting)
    result = _render(tmp_path)
    assert result.exit_code == 1, result.output
    assert "font file 'Display.ttf' is larger than 64 MiB" in result.output
    assert read == [layout_module.MAX_FONT_BYTES + 1]


def test_a_font_file_changed_between_renders_of_one_process_is_used(tmp_path):
    """watch renders again in the same process when a font file changes: the new
    file must be drawn, not the font registered from the old one (found by the
    deep fuzzing, whose examples each bring another font under the same name)."""
    (tmp_path / "layouts").mkdir()
    font = tmp_path / "layouts" / "Display.ttf"
    shutil.copy(VERA, font)
    assert _render(tmp_path).exit_code == 0
    first = b"".join(path.read_bytes() for path in sorted((tmp_path / "out").glob("*.pdf")))
    shutil.copy(VERA.with_name("VeraBd.ttf"), font)
    result = _render(tmp_path)
    assert result.exit_code == 0, result.output
    second = b"".join(path.read_bytes() for path in sorted((tmp_path / "out").glob("*.pdf")))
    assert b"BitstreamVeraSans-Roman" in first and b"BitstreamVeraSans-Bold" not in first
    assert b"BitstreamVeraSans-Bold" in second, "the old font was drawn"


def _vera_with_advance(advance: int) -> bytes:
    """Vera with every glyph's advance width set to advance (font units of 2048)."""
    import struct

    data = bytearray(VERA.read_bytes())
    count = struct.unpack(">H", data[4:6])[0]
    tables = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * index : 28 + 16 * index])
        tables[tag] = (offset, length)
    metrics = struct.unpack(">H", data[tables[b"hhea"][0] + 34 : tables[b"hhea"][0] + 36])[0]
    start = tables[b"hmtx"][0]
    for glyph in range(metrics):
        data[start + 4 * glyph : start + 4 * glyph + 2] = struct.pack(">H", advance)
    return bytes(data)


def test_a_layout_font_is_drawn_from_its_own_file_even_under_a_known_postscript_name(tmp_path):
    """A designer's edited copy of Vera has Vera's PostScript name; reportlab gave
    it the built-in Vera it had registered first, so its metrics (and glyphs)
    were never used. And a changed file is read again (watch)."""
    from protopress.generators.fonts import font

    assert font("sans").width("a", 10) == pytest.approx(1255 / 2048 * 10)
    path = tmp_path / "Wide.ttf"
    path.write_bytes(_vera_with_advance(1000))
    assert font("t-own-file", path).width("a", 10) == pytest.approx(1000 / 2048 * 10)
    path.write_bytes(_vera_with_advance(500))
    os.utime(path, ns=(1, 1))  # a time of its own, even on a coarse clock
    assert font("t-own-file", path).width("a", 10) == pytest.approx(500 / 2048 * 10)
    assert font("sans").width("a", 10) == pytest.approx(1255 / 2048 * 10)

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
    elif kind == "loop":
        target.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()


@pytest.mark.parametrize(
    "kind", ["empty", "text", "truncated", "table-directory", "header-only", "loop", "fifo",
             "folder"],
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

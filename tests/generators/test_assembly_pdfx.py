"""A tiled board and a tuck box go through the same colour path as cards: under
--pdfx they are CMYK PDF/X-4 files, under --pdfx 1a PDF/X-1a:2003 files, that
pass the kit's preflight."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.generators.preflight import preflight

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"


@pytest.mark.parametrize(
    ("options", "identified"),
    [(["--pdfx"], "PDF/X-4"), (["--pdfx", "1a"], "PDF/X-1a:2003 (PDF/X-1:2001)")],
)
def test_a_tiled_board_and_a_tuck_box_are_pdfx(tmp_path, options, identified):
    result = CliRunner().invoke(cli, [
        "render", str(EXAMPLE / "catalog.json"), "--layouts", str(EXAMPLE / "layouts"),
        "-o", str(tmp_path), *options, "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    for name in ("board-sheets.pdf", "cards-tuck-box.pdf"):
        report = preflight(tmp_path / name, expect="cmyk", pdfx=True)
        assert report.ok, f"{name}\n{report}"
        assert f"PASS pdf/x: identified as {identified}" in str(report)

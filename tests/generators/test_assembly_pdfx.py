"""A tiled board and a tuck box go through the same colour path as cards: under
--pdfx they are CMYK PDF/X-4 files that pass the kit's preflight."""

from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli
from protopress.generators.preflight import preflight

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"


def test_a_tiled_board_and_a_tuck_box_are_pdfx(tmp_path):
    result = CliRunner().invoke(cli, [
        "render", str(EXAMPLE / "catalog.json"), "--layouts", str(EXAMPLE / "layouts"),
        "-o", str(tmp_path), "--pdfx", "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    for name in ("board-sheets.pdf", "cards-tuck-box.pdf"):
        report = preflight(tmp_path / name, expect="cmyk", pdfx=True)
        assert report.ok, f"{name}\n{report}"

"""The render's closing summary: games, files, PDF pages, total size, where; the
pages as the renderer counted them, which a PDF reader finds in its files."""

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from protopress.cli import cli
from protopress.components import load_catalog
from protopress.generators.presets import render_preset
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.summary import Written, closing_summary, game_line, human_size

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"


def pdf(path: Path, pages: int) -> Path:
    canvas = Canvas(str(path), invariant=1)
    for _ in range(pages):
        canvas.showPage()
    canvas.save()
    return path


def test_sizes_read_as_a_file_manager_shows_them():
    assert [human_size(n) for n in (0, 999, 1000, 1_234_567, 5 * 10**9)] == [
        "0 bytes", "999 bytes", "1.0 kB", "1.2 MB", "5.0 GB",
    ]  # fmt: skip


def test_a_game_line_and_the_closing_summary_count_files_pages_and_bytes(tmp_path):
    one, two = tmp_path / "out" / "one", tmp_path / "out" / "two"
    one.mkdir(parents=True)
    two.mkdir()
    files_one = (pdf(one / "a-sheets.pdf", 3), pdf(one / "a-print-shop.pdf", 2))
    (two / "README.txt").write_text("hello\n")
    files_two = (pdf(two / "b-sheets.pdf", 1), two / "README.txt")
    size_one = sum(p.stat().st_size for p in files_one)
    size_all = size_one + sum(p.stat().st_size for p in files_two)
    pages = {files_one[0]: 3, files_one[1]: 2, files_two[0]: 1}  # as pdf() drew them
    gone = one / "gone-sheets.pdf"  # listed, not on disk: not counted
    written = [
        Written("one", one, (*files_one, gone), {**pages, gone: 4}),
        Written("two", two, files_two, pages),
    ]
    assert game_line(written[0]) == f"one: 2 files, 5 PDF pages, {human_size(size_one)} in {one}"
    assert closing_summary(written) == (
        f"done: 2 games, 4 files, 6 PDF pages, {human_size(size_all)} in {tmp_path / 'out'}/ "
        "(a folder per game)"
    )
    assert closing_summary(written[1:]) == (
        f"done: 1 game, 2 files, 1 PDF page, {human_size(sum(p.stat().st_size for p in files_two))}"
        f" in {two}"
    )


def reader_pages(files) -> dict[Path, int]:
    return {path: len(PdfReader(path).pages) for path in files if path.suffix == ".pdf"}


def test_the_renderer_counts_the_pages_of_every_pdf_it_writes_as_a_reader_does(tmp_path):
    """The mini game's six cards (dawn 3, dusk 2, eclipse 1) in its own layout, which
    has a back: one sheet of nine slots, its fronts and its backs (2 pages); a page
    per face for a print shop (12 pages); a tuck box's die-line (1 page); a
    print-and-play preset's sheets (2 pages)."""
    catalog = load_catalog(MINI_GAME / "catalog.json")
    layouts = MINI_GAME / "layouts"
    plain = tmp_path / "plain"
    options = RenderOptions(output_dir=plain, layout="both", tuck_boxes=("card",),
                            layouts_dir=layouts)  # fmt: skip
    result = render_catalog(catalog, options)
    assert result.pdf_pages == {
        plain / "card-sheets.pdf": 2,
        plain / "card-print-shop.pdf": 12,
        plain / "card-tuck-box.pdf": 1,
    }
    assert result.pdf_pages == reader_pages(result.files)
    options = RenderOptions(output_dir=tmp_path / "preset", layouts_dir=layouts)
    preset = render_preset(catalog, options, "pnp-a4")
    assert preset.pdf_pages == {tmp_path / "preset" / "pnp-a4" / "card-sheets.pdf": 2}
    assert preset.pdf_pages == reader_pages(preset.files)


def test_render_says_the_pages_it_wrote(tmp_path):
    """The same render as a command: three PDFs of 2 + 12 + 1 pages and README.txt, in
    the game's line and the last."""
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["render", str(MINI_GAME / "catalog.json"), "--layouts",
                                      str(MINI_GAME / "layouts"), "--layout", "both",
                                      "--tuck-box", "card", "-o", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum(reader_pages(out.iterdir()).values()) == 15
    assert any(line.startswith("mini-game: 4 files, 15 PDF pages, ") for line in lines), lines
    assert lines[-1].startswith("done: 1 game, 4 files, 15 PDF pages, ")

"""Boards larger than the paper are tiled: the plan worked by hand, and the
rendered pages measured (neighbours' overlap strips match pixel for pixel at
exactly the stated overlap, nothing within 5 mm of the paper edge, a page map)."""

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.tiling import column_letters, plan_tiles
from protopress.generators.units import MM, PAPER

pdfium = pytest.importorskip("pypdfium2")
from test_print_edges import ink_near_edges  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"
DPI = 127  # 1 mm is exactly 5 pixels: every edge of the plan falls on a pixel boundary
PX = DPI / 25.4


def test_a_400_mm_board_on_a4_takes_three_columns_and_two_rows():
    # 406 mm with bleed; A4 less 12 mm margins is a 186 x 273 mm window; steps of
    # 176 and 263 mm: 186 + 2 * 176 >= 406 (3 columns), 273 + 263 >= 406 (2 rows).
    # Landscape needs 2 x 3 as well: the tie stays portrait.
    plan = plan_tiles(406 * MM, 406 * MM, 3 * MM, PAPER["a4"], 10 * MM)
    assert (plan.columns, plan.rows, plan.landscape) == (3, 2, False)
    assert [tile.label for tile in plan.tiles] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    b2 = plan.tile(1, 1)
    assert [round(v / MM, 6) for v in (b2.region.x, b2.region.y)] == [176, 263]
    assert [round(v / MM, 6) for v in (b2.region.width, b2.region.height)] == [186, 143]


def test_a_wide_mat_goes_landscape_when_that_needs_fewer_pages():
    # 600 x 250 mm: portrait (186 x 273 mm windows) 1 + ceil(414 / 176) = 4 columns, 1 row;
    # landscape (273 x 186) 1 + ceil(327 / 263) = 3 columns, 1 + ceil(64 / 176) = 2 rows.
    plan = plan_tiles(600 * MM, 250 * MM, 0, PAPER["a4"], 10 * MM)
    assert (plan.columns, plan.rows, plan.landscape) == (4, 1, False)
    # 550 x 180 mm: portrait 1 + ceil(364 / 176) = 4 columns, 1 row; landscape
    # 1 + ceil(277 / 263) = 3 columns, 1 row: 3 pages.
    plan = plan_tiles(550 * MM, 180 * MM, 0, PAPER["a4"], 10 * MM)
    assert (plan.columns, plan.rows, plan.landscape) == (3, 1, True)


def test_columns_past_z_are_named_like_a_spreadsheets():
    assert [column_letters(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA",
    ]  # fmt: skip


def test_an_overlap_that_leaves_no_room_is_refused():
    with pytest.raises(ValueError, match="overlap must be 0 to 50 mm"):
        plan_tiles(400 * MM, 400 * MM, 0, PAPER["a4"], 60 * MM)


def numbered_board(tmp_path: Path, width=400, height=300) -> Path:
    """A catalog with one board covered in numbers: no two strips of it look alike."""
    layouts = tmp_path / "layouts"
    layouts.mkdir(parents=True)
    (layouts / "board.json").write_text(json.dumps({
        "kind": "board", "safe": "5mm",
        "front": [
            {"type": "rect", "bleed": True, "fill": "#f0e8d0"},
            {"type": "text", "x": 2, "y": 2, "w": 11, "h": 11, "text": "{number}", "size": 11,
             "repeat": {"count": 825, "dx": 12, "columns": 33, "row_dy": 12}},
        ],
    }))  # fmt: skip
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({
        "game": "mat-test", "title": "Mat test", "version": "1.0.0",
        "kinds": {"board": {"collection": "boards", "fields": {},
                            "size": {"width": f"{width}mm", "height": f"{height}mm"},
                            "layout": "layouts/board.json"}},
        "boards": [{"id": "mat"}],
    }))  # fmt: skip
    return catalog


def render_tiles(catalog_path: Path, out: Path, **options):
    catalog = load_catalog(catalog_path)
    result = render_catalog(catalog, RenderOptions(output_dir=out, layout="both", **options))
    return result, out / "board-sheets.pdf"


def page_images(path: Path):
    document = pdfium.PdfDocument(path)
    try:
        return [
            page.render(scale=DPI / 72, no_smoothtext=True).to_pil().convert("RGB")
            for page in document
        ]
    finally:
        document.close()


def strip_difference(a, b) -> int:
    from PIL import ImageChops

    return max(high for _, high in ImageChops.difference(a, b).getextrema())


def best_match(a_page, a_box, b_strip, shifts) -> int:
    """The least difference between b_strip and a_box moved by each of shifts (x pixels)."""
    x0, y0, x1, y1 = a_box
    return min(strip_difference(a_page.crop((x0 + s, y0, x1 + s, y1)), b_strip) for s in shifts)


def shown(path: Path, page: int, board_height: float):
    """The board x and y ranges (mm, y down from the board's top) a tile page shows,
    read from its content: the window clip and the translation of the board's form."""
    reader = PdfReader(path)
    operations = ContentStream(reader.pages[page].get_contents(), reader).operations
    clip = next(ops for ops, op in operations if op == b"re")
    move = next(ops for ops, op in operations if op == b"cm" and ops[4] != 0)
    cx, cy, cw, ch = (float(v) for v in clip)
    tx, ty = float(move[4]), float(move[5])
    xs = ((cx - tx) / MM, (cx + cw - tx) / MM)
    ys = ((ty + board_height - cy - ch) / MM, (ty + board_height - cy) / MM)
    return xs, ys


def common(a, b) -> float:
    return min(a[1], b[1]) - max(a[0], b[0])


@pytest.mark.parametrize("overlap_mm", [10, 20])
def test_neighbouring_tiles_overlap_by_exactly_the_stated_amount(tmp_path, overlap_mm):
    catalog = numbered_board(tmp_path)
    _, sheets = render_tiles(catalog, tmp_path / "out", overlap=overlap_mm * MM)
    labels = PdfReader(sheets).page_labels
    # 406 x 306 mm with bleed: landscape A4 less 12 mm margins is a 273 x 186 mm window,
    # 2 columns (273 + 263 >= 406) and 2 rows (186 + 176 >= 306); portrait needs 3 x 2
    assert labels == ["map", "tile A1", "tile B1", "tile A2", "tile B2"]
    # what each page shows, read from the PDF: neighbours share exactly the overlap
    (a1_x, a1_y), (b1_x, b1_y), (a2_x, a2_y) = (shown(sheets, n, 306 * MM) for n in (1, 2, 3))
    assert a1_x == pytest.approx((0, 273), abs=1e-3) and a1_y == pytest.approx((0, 186), abs=1e-3)
    assert common(a1_x, b1_x) == pytest.approx(overlap_mm, abs=1e-3)
    assert b1_y == pytest.approx(a1_y, abs=1e-3)
    assert common(a1_y, a2_y) == pytest.approx(overlap_mm, abs=1e-3)
    assert a2_x == pytest.approx(a1_x, abs=1e-3)

    # and as printed: the strips match pixel for pixel
    pages = page_images(sheets)
    assert pages[1].width > pages[1].height  # landscape
    a1, b1, a2 = pages[1], pages[2], pages[3]
    margin, window_w, window_h = 12, 273, 186  # mm
    step_x, step_y = window_w - overlap_mm, window_h - overlap_mm

    def box(x_mm, y_mm, w_mm, h_mm):
        x, y = round(x_mm * PX), round(y_mm * PX)
        return (x, y, x + round(w_mm * PX), y + round(h_mm * PX))

    # A1's right strip and B1's left strip. pdfium puts a form's origin on a whole
    # device pixel, so one page's drawing may sit a pixel (0.2 mm) off the other's:
    # the best of -1, 0 and +1 pixels must match; 1 mm off must not.
    left_of_b1 = b1.crop(box(margin, margin, overlap_mm, window_h))
    right_of_a1 = box(margin + step_x, margin, overlap_mm, window_h)
    assert best_match(a1, right_of_a1, left_of_b1, (-1, 0, 1)) <= 64
    assert best_match(a1, right_of_a1, left_of_b1, (-5, 5)) > 128
    # A1's bottom strip and A2's top strip
    above_a2 = a2.crop(box(margin, margin, window_w, overlap_mm))
    below_a1 = a1.crop(box(margin, margin + step_y, window_w, overlap_mm))
    assert strip_difference(below_a1, above_a2) <= 64


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_pages_keep_the_5_mm_edge_band_clear(tmp_path, paper):
    shutil.copytree(EXAMPLE, tmp_path / "game")
    catalog = load_catalog(tmp_path / "game" / "catalog.json")
    options = RenderOptions(output_dir=tmp_path / "out", paper=paper, layout="sheets",
                            layouts_dir=tmp_path / "game" / "layouts")  # fmt: skip
    result = render_catalog(catalog, options, only={"board": {"market"}})
    (sheets,) = (path for path in result.files if path.name == "board-sheets.pdf")
    assert len(PdfReader(sheets).pages) == 7  # the map and 3 x 2 tiles, on either paper
    assert ink_near_edges(sheets) == []


def test_the_page_map_names_the_board_and_every_tile(tmp_path):
    catalog = numbered_board(tmp_path)
    _, sheets = render_tiles(catalog, tmp_path / "out")
    text = PdfReader(sheets).pages[0].extract_text()
    assert "board mat, 400 x 300 mm (page map)" in text
    assert "4 A4 pages (landscape): 2 columns A to B, 2 rows 1 to 2" in text
    assert "overlap by 10 mm" in text
    for label in ("A1", "B1", "A2", "B2"):
        assert label in text


def test_the_print_shop_file_keeps_the_board_on_one_page(tmp_path):
    catalog = numbered_board(tmp_path)
    result, _ = render_tiles(catalog, tmp_path / "out")
    shop = PdfReader(tmp_path / "out" / "board-print-shop.pdf")
    (page,) = shop.pages
    assert [round(float(v) / MM, 3) for v in page.mediabox] == [0, 0, 406, 306]
    assert [round(float(v) / MM, 3) for v in page.bleedbox] == [0, 0, 406, 306]
    assert [round(float(v) / MM, 3) for v in page.trimbox] == [3, 3, 403, 303]


def test_a_board_that_fits_the_paper_stays_on_sheets(tmp_path):
    catalog = numbered_board(tmp_path, width=150, height=150)
    _, sheets = render_tiles(catalog, tmp_path / "out")
    assert PdfReader(sheets).page_labels == ["front 1"]


def test_render_overlap_is_a_length_from_0_to_50_mm(tmp_path):
    from click.testing import CliRunner

    from protopress.cli import cli

    catalog = numbered_board(tmp_path)
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(cli, ["render", str(catalog), "--overlap", "60mm", "-o", str(out)])
    assert result.exit_code == 2 and "'60mm' is out of range: expected 0 to 50 mm" in result.output
    assert not out.exists()
    result = runner.invoke(cli, ["render", str(catalog), "--overlap", "25mm", "--layout", "sheets",
                                 "-o", str(out), "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "overlap by 25 mm" in PdfReader(out / "board-sheets.pdf").pages[0].extract_text()


def test_the_output_readme_says_which_sheets_are_tiled(tmp_path):
    render_tiles(numbered_board(tmp_path / "big"), tmp_path / "big" / "out")
    readme = (tmp_path / "big" / "out" / "README.txt").read_text()
    assert "board-sheets.pdf: larger than the paper, tiled across pages:" in readme
    render_tiles(numbered_board(tmp_path / "small", 150, 150), tmp_path / "small" / "out")
    assert "tiled" not in (tmp_path / "small" / "out" / "README.txt").read_text()

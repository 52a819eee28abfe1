"""Home printers leave about 5 mm unprinted at each edge: every sheet page of
every built-in game, on A4 and letter, is rasterised and must show no ink
within 5 mm of the paper edge. Front pages must also carry the scale ruler."""

import pytest

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.generators.render import RenderOptions, render_catalog

pdfium = pytest.importorskip("pypdfium2")

DPI = 72  # 5 mm = 14.2 px: pixels 0-13 lie wholly inside the band (up to 4.94 mm)
BAND_MM = 5
INK = 250  # a grey level below this is ink (anti-aliased hairlines included)


def band_pixels(dpi: int = DPI) -> int:
    """How many pixels from the edge lie wholly within the band."""
    return int(BAND_MM / 25.4 * dpi)


def ink_near_edges(path) -> list[str]:
    """For each page with ink in the edge band: the page, side and distance in mm."""
    problems = []
    band = band_pixels()
    document = pdfium.PdfDocument(path)
    try:
        for number, page in enumerate(document, 1):
            image = page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
            width, height = image.size
            ink = image.point(lambda level: 255 if level < INK else 0)
            for side, box in (
                ("left", (0, 0, band, height)),
                ("top", (0, 0, width, band)),
                ("right", (width - band, 0, width, height)),
                ("bottom", (0, height - band, width, height)),
            ):
                found = ink.crop(box).getbbox()
                if found is not None:
                    problems.append(f"page {number}: ink in the {side} {BAND_MM} mm band {found}")
    finally:
        document.close()
    return problems


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_no_ink_within_5_mm_of_the_paper_edge(game, paper, tmp_path):
    catalog = load_catalog(builtin_catalog_path(game))
    options = RenderOptions(output_dir=tmp_path, paper=paper, layout="sheets")
    result = render_catalog(catalog, options)
    sheets = [path for path in result.files if path.name.endswith(".pdf")]
    assert sheets
    problems = {path.name: ink_near_edges(path) for path in sheets}
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_band_check_sees_a_hairline_at_4_5_mm_and_not_at_5_5(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from protopress.generators.units import MM, PAPER

    path = tmp_path / "edge.pdf"
    canvas = Canvas(str(path), pagesize=PAPER["a4"])
    canvas.setLineWidth(0.25)
    canvas.line(4.5 * MM, 100, 4.5 * MM, 120)  # a hairline 4.5 mm from the left edge
    canvas.showPage()
    canvas.line(5.5 * MM, 100, 5.5 * MM, 120)  # rasterised at least a pixel wide: clear
    canvas.showPage()
    canvas.save()
    problems = ink_near_edges(path)
    assert len(problems) == 1 and problems[0].startswith("page 1: ink in the left")


def test_a_render_says_when_a_sheet_has_no_room_for_crop_marks(tmp_path):
    import json

    from protopress.generators.layout import load_layout
    from protopress.generators.render import sheet_warnings
    from protopress.generators.units import MM

    path = tmp_path / "poster.json"
    path.write_text(json.dumps({"kind": "poster", "size": {"width": "190mm", "height": "277mm"},
                                "front": []}))  # fmt: skip
    layout = load_layout(path)
    assert sheet_warnings(layout, RenderOptions(output_dir=tmp_path, bleed=5 * MM)) == [
        "poster sheets: no room for crop marks between the bleed and the 5 mm edge band "
        "of a4 paper; drawn without them"
    ]
    assert sheet_warnings(layout, RenderOptions(output_dir=tmp_path, bleed=3 * MM)) == []

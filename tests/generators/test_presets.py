"""Print-shop presets: exact sizes, names and page boxes per service."""

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from test_cmyk import imagecms_cmyk

from protopress.components import load_catalog
from protopress.generators.layout import layouts_for
from protopress.generators.preflight import preflight
from protopress.generators.presets import (
    PRESETS,
    PresetError,
    apply_preset,
    ink_problems,
    render_preset,
    write_preset_files,
)
from protopress.generators.render import RenderOptions, TextDoesNotFit, _copies, per_card_pdf
from protopress.generators.separation import limited, limited_image
from protopress.generators.units import INCH, MM

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def poker(tmp_path):
    """The mini game's card layout designed at poker size, 2.5 x 3.5 in."""
    layout = json.loads((MINI_GAME / "layouts" / "card.json").read_text())
    del layout["$schema"]
    layout["size"] = {"width": "2.5in", "height": "3.5in"}
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "card.json").write_text(json.dumps(layout))
    return folder


@pytest.fixture
def mini():
    return load_catalog(MINI_GAME / "catalog.json")


def test_every_preset_sets_render_options():
    base = RenderOptions(output_dir=Path("out"), cmyk=True, proof="2024-01-01")
    tgc = apply_preset("tgc", base)
    assert (tgc.bleed, tgc.dpi, tgc.layout) == (0.125 * INCH, 300, "per-card")
    assert tgc.cmyk and tgc.proof == "2024-01-01"  # what the preset does not set is kept
    assert apply_preset("mpc", base).bleed == pytest.approx(0.12 * INCH)
    assert apply_preset("drivethrucards", base).layout == "per-card"
    a4, letter = apply_preset("pnp-a4", base), apply_preset("pnp-letter", base)
    assert (a4.paper, a4.layout, a4.crop_marks, a4.bleed) == ("a4", "sheets", True, 3 * MM)
    assert (letter.paper, letter.bleed) == ("letter", 0.125 * INCH)
    assert set(PRESETS) == {"tgc", "mpc", "drivethrucards", "pnp-a4", "pnp-letter"}
    with pytest.raises(PresetError, match="unknown preset 'tcg'; presets: tgc, mpc"):
        apply_preset("tcg", base)


def test_the_game_crafter_gets_825_by_1125_pngs_named_per_card(tmp_path, mini, poker):
    result = render_preset(mini, RenderOptions(output_dir=tmp_path, layouts_dir=poker), "tgc")
    folder = tmp_path / "tgc"
    assert sorted(p.name for p in result.files) == [
        "README.txt", "card-back.png", "card-dawn-front.png", "card-dusk-front.png",
        "card-eclipse-front.png", "manifest.csv",
    ]  # fmt: skip
    assert result.skipped == ["symbol"]
    assert result.report("mini-game") == [
        "card: 63.5 x 88.9 mm = Poker Deck (PokerDeck) 2.5 x 3.5 in (63.5 x 88.9 mm), "
        "exact size, unchanged"
    ]
    for path in folder.glob("*.png"):
        with Image.open(path) as image:
            assert image.size == (825, 1125)  # (2.5 + 2 x 1/8) x (3.5 + 2 x 1/8) in at 300 dpi
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    rows = list(csv.DictReader((folder / "manifest.csv").open()))
    assert [(row["id"], row["count"], row["back"], row["product"]) for row in rows] == [
        ("dawn", "3", "card-back.png", "PokerDeck"), ("dusk", "2", "card-back.png", "PokerDeck"),
        ("eclipse", "1", "card-back.png", "PokerDeck"),
    ]  # fmt: skip
    assert not list(tmp_path.glob("*.pdf"))  # only the service's files


def test_makeplayingcards_gets_822_by_1122_pngs(tmp_path, mini, poker):
    render_preset(mini, RenderOptions(output_dir=tmp_path, layouts_dir=poker), "mpc")
    with Image.open(tmp_path / "mpc" / "card-dawn-front.png") as image:
        assert image.size == (822, 1122)  # 2.74 x 3.74 in at 300 dpi: 0.12 in bleed


def test_unique_backs_get_a_file_per_card(tmp_path, poker):
    layout = json.loads((poker / "card.json").read_text())
    layout["back"] = [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{id}"}]
    (poker / "card.json").write_text(json.dumps(layout))
    document = {"game": "g", "title": "G", "version": "1", "symbols": [],
                "cards": [{"id": "a"}, {"id": "b"}]}  # fmt: skip
    (tmp_path / "g.json").write_text(json.dumps(document))
    result = render_preset(load_catalog(tmp_path / "g.json"),
                           RenderOptions(output_dir=tmp_path, layouts_dir=poker), "tgc")  # fmt: skip
    assert sorted(p.name for p in result.files) == [
        "README.txt", "card-a-back.png", "card-a-front.png", "card-b-back.png",
        "card-b-front.png", "manifest.csv",
    ]  # fmt: skip


def test_drivethrucards_gets_one_card_side_per_page_each_back_then_its_front(tmp_path, mini, poker):
    options = RenderOptions(output_dir=tmp_path, layouts_dir=poker)
    result = render_preset(mini, options, "drivethrucards")
    folder = tmp_path / "drivethrucards"
    assert result.files == [folder / "card-print-shop.pdf", folder / "README.txt"]
    reader = PdfReader(result.files[0])
    assert len(reader.pages) == 12  # six copies, back then front
    for number, page in enumerate(reader.pages):
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72])
        assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 2.625 * 72, 3.625 * 72])
        text = page.extract_text()
        if number % 2 == 0:
            assert "Mini Game" in text  # the back carries the game's title
        else:
            assert "Mini Game" not in text  # a front: a card title
    assert "Dawn" in reader.pages[1].extract_text()  # the first card's front, after its back
    assert "Eclipse" in reader.pages[11].extract_text()
    report = preflight(result.files[0], pdfx=True, max_ink=240)
    assert report.ok, str(report)
    assert "PASS pdf/x: identified as PDF/X-1a:2003 (PDF/X-1:2001)" in str(report)
    readme = (folder / "README.txt").read_text()
    assert "each card's back, then its front" in readme
    assert "PDF/X-1a:2003, CMYK, total ink within 240%" in readme


@pytest.mark.parametrize(
    ("name", "size"),
    [("pnp-a4", (210 * MM, 297 * MM)), ("pnp-letter", (8.5 * INCH, 11 * INCH))],
)
def test_print_and_play_sheets_on_their_paper(tmp_path, mini, name, size):
    # the 63 x 88 mm layout is fine: print and play takes any size
    options = RenderOptions(output_dir=tmp_path, layouts_dir=MINI_GAME / "layouts")
    result = render_preset(mini, options, name)
    assert result.files == [tmp_path / name / "card-sheets.pdf"]
    reader = PdfReader(result.files[0])
    assert len(reader.pages) == 2  # six cards on one sheet, then their backs
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, *size], abs=0.01)
    report = preflight(result.files[0], require_crop_marks=False)
    assert report.ok, str(report)


def test_a_63_by_88_layout_is_mapped_to_each_services_card(tmp_path, mini):
    options = RenderOptions(output_dir=tmp_path, layouts_dir=MINI_GAME / "layouts")
    tgc = render_preset(mini, options, "tgc")
    assert tgc.report("mini-game") == [
        "card: 63 x 88 mm = Euro Poker Deck (EuroPokerDeck) 63 x 88 mm, exact size, unchanged"
    ]
    dtc = render_preset(mini, options, "drivethrucards")
    assert dtc.report("mini-game") == [
        "card: 63 x 88 mm -> Poker size cards (poker) 2.5 x 3.5 in (63.5 x 88.9 mm), "
        "scaled 100.8%; 0.1 mm of bleed colour inside the cut at top and bottom"
    ]
    readme = (tmp_path / "drivethrucards" / "README.txt").read_text()
    assert dtc.report("mini-game")[0] in readme
    assert "check each product's current template" in readme
    page = PdfReader(tmp_path / "drivethrucards" / "card-print-shop.pdf").pages[0]
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72])
    assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 2.625 * 72, 3.625 * 72])
    with Image.open(tmp_path / "tgc" / "card-dawn-front.png") as image:
        assert image.size == (825, 1125)  # the Euro Poker Deck's file


def test_kinds_without_a_product_are_listed_and_the_rest_exported(tmp_path, mini, poker):
    layout = json.loads((poker / "card.json").read_text())
    symbol = {"kind": "symbol", "size": {"width": "40mm", "height": "40mm"}, "front": []}
    (poker / "symbol.json").write_text(json.dumps(symbol))
    (poker / "card.json").write_text(json.dumps(layout))
    result = render_preset(mini, RenderOptions(output_dir=tmp_path, layouts_dir=poker), "mpc")
    assert [line for line in result.report("mini-game") if "no product" in line] == [
        "mpc has no product for mini-game symbol (40 x 40 mm): not exported "
        "(nearest: Mini cards, 1.75 x 2.5 in (44.45 x 63.5 mm))"
    ]
    assert not list((tmp_path / "mpc").glob("symbol-*"))
    assert (tmp_path / "mpc" / "card-dawn-front.png").is_file()
    assert "Not exported:" in (tmp_path / "mpc" / "README.txt").read_text()


def test_write_preset_files_needs_the_presets_options(tmp_path, mini, poker):
    plain = RenderOptions(output_dir=tmp_path, layouts_dir=poker, dpi=150)
    with pytest.raises(PresetError, match="needs 0.125 in.*needs 300 dpi"):
        write_preset_files(mini, plain, "tgc")
    files = write_preset_files(mini, apply_preset("tgc", plain), PRESETS["tgc"])
    assert len(files) == 6  # four faces, the manifest and the README
    with pytest.raises(PresetError, match=r"no PDF/X \(needs PDF/X-1a:2003\) and no ink limit"):
        write_preset_files(mini, replace(plain, dpi=300, bleed=0.125 * INCH), "drivethrucards")


def test_kinds_choose_what_a_preset_exports(tmp_path, mini, poker):
    options = RenderOptions(output_dir=tmp_path, layouts_dir=poker)
    with pytest.raises(PresetError, match="no layout for symbol; kinds with a layout: card"):
        render_preset(mini, options, "tgc", kinds=["symbol"])
    assert render_preset(mini, options, "drivethrucards", kinds=["card"]).files


def test_strict_presets_write_nothing_when_text_does_not_fit(tmp_path, mini, poker):
    layout = json.loads((poker / "card.json").read_text())
    layout["front"][2].update(w=3, h=2)
    (poker / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(output_dir=tmp_path / "out", layouts_dir=poker, strict=True)
    with pytest.raises(TextDoesNotFit):
        render_preset(mini, options, "tgc")
    assert not (tmp_path / "out").exists()


def test_every_preset_and_product_is_documented_with_its_figures():
    doc = (ROOT / "docs" / "presets.md").read_text()
    for name, chosen in PRESETS.items():
        assert f"`{name}`" in doc, name
        for product in chosen.products:
            row = next((line for line in doc.splitlines() if f"`{product.key}`" in line
                        and f"`{name}`" in line), None)  # fmt: skip
            assert row is not None, (name, product.key)
            assert product.size_text().split(" (")[0] in row, (name, product.key)
            if product.pixels:
                assert "{} x {} px".format(*product.pixels) in row, (name, product.key)
    assert "2.75 x 3.75 in" in doc


DARK = "#2b1d16"  # a dark brown: 272% total ink through the bundled profile


def _dark_layouts(poker: Path) -> Path:
    layout = json.loads((poker / "card.json").read_text())
    layout["front"].insert(0, {"type": "rect", "x": 0, "y": 0, "w": "2.5in", "h": "3.5in",
                               "fill": DARK})  # fmt: skip
    (poker / "card.json").write_text(json.dumps(layout))
    return poker


def _profile_ink(hex_colour: str) -> float:
    """The colour's total ink (percent) through the bundled profile, as ImageCms gives it."""
    rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return sum(imagecms_cmyk(rgb)) / 255 * 100


def test_drivethrucards_holds_dark_colours_within_240_percent(tmp_path, mini, poker):
    assert _profile_ink(DARK) > 265  # what the profile alone would print
    options = RenderOptions(output_dir=tmp_path, layouts_dir=_dark_layouts(poker))
    path = render_preset(mini, options, "drivethrucards").files[0]
    report = preflight(path, max_ink=240)
    assert report.ok, str(report)
    assert "PASS ink: highest 240% (limit 240%)" in str(report)


def test_ink_over_the_limit_is_a_problem_per_colour_located_by_card_and_side(tmp_path, mini, poker):
    """The same dark front, separated without the limit (plain --cmyk): preflight
    finds it over 240% on the front of every copy and nowhere on the backs."""
    layouts = _dark_layouts(poker)
    options = RenderOptions(output_dir=tmp_path, layouts_dir=layouts, cmyk=True)
    catalog_layouts = {"card": layouts_for(mini.components, layouts, mini)["card"]}
    pages: list[str] = []
    copies = _copies(mini, "card", catalog_layouts["card"], options, None, [])
    path = tmp_path / "card-print-shop.pdf"
    path.write_bytes(per_card_pdf(copies, mini, options, backs_first=True, pages=pages).data)
    assert pages[:4] == ["dawn back", "dawn front", "dawn back", "dawn front"]
    problems = ink_problems(path, 240, pages)
    percent = round(_profile_ink(DARK))
    located = [problem.split(": ")[1] for problem in problems]  # one per front page
    assert sorted(located) == ["dawn front"] * 3 + ["dusk front"] * 2 + ["eclipse front"]
    for problem in problems:
        assert problem.startswith("card-print-shop.pdf: ")
        assert f": {percent}% total ink, more than 240%" in problem


def test_a_colour_over_the_limit_moves_its_grey_to_black_first():
    """Worked by hand: 70+60+50+80 = 260%, 20 over; 10 points of the common grey
    move from C, M and Y to K (each saves 20 - 10), giving 60+50+40+90 = 240%."""
    assert limited((0.7, 0.6, 0.5, 0.8), 2.4) == pytest.approx((0.6, 0.5, 0.4, 0.9))
    assert limited((0.2, 0.2, 0.2, 0.2), 2.4) == (0.2, 0.2, 0.2, 0.2)  # within: untouched
    # black already full: C, M and Y are scaled to the 140% left, 0.4667 each
    assert limited((1.0, 1.0, 1.0, 1.0), 2.4) == pytest.approx((1.4 / 3,) * 3 + (1.0,))


def test_a_picture_over_the_limit_is_brought_within_it_pixel_by_pixel():
    """Levels out of 255, limit 240% - one level = 611: (178, 153, 127, 204) is
    662, 51 over, so 25.5 moves to black: 152.5, 127.5, 101.5, 229.5, cut to
    152, 127, 101 and black rounded to 230 (610). Full black (1020) has no
    room in K: C, M and Y share 611 - 255 = 356, 118.67 each, cut to 118."""
    image = Image.new("CMYK", (3, 1))
    for x, pixel in enumerate([(178, 153, 127, 204), (255, 255, 255, 255), (10, 20, 30, 40)]):
        image.putpixel((x, 0), pixel)
    out = limited_image(image, 2.4)
    assert [out.getpixel((x, 0)) for x in range(3)] == [
        (152, 127, 101, 230), (118, 118, 118, 255), (10, 20, 30, 40)]  # fmt: skip


def test_the_game_crafter_gets_one_shared_back_when_faces_are_fitted_to_the_product(tmp_path, mini):
    """The 63 x 88 mm layout goes onto the Euro Poker Deck's 825 x 1125 px file
    inside a wider bleed: each back is then drawn within a face of the product.
    The three designs' backs are the same drawing, so one back file is written."""
    options = RenderOptions(output_dir=tmp_path, layouts_dir=MINI_GAME / "layouts")
    result = render_preset(mini, options, "tgc")
    folder = tmp_path / "tgc"
    backs = sorted(path.name for path in result.files if path.name.endswith("back.png"))
    assert backs == ["card-back.png"]
    assert sorted(path.name for path in folder.glob("*back*")) == ["card-back.png"]
    with (folder / "manifest.csv").open() as stream:
        rows = [row for row in csv.DictReader(stream) if row["kind"] == "card"]
    assert [row["back"] for row in rows] == ["card-back.png"] * 3

"""Rendering catalogs: exact geometry, determinism, atomic files, layouts as data."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from protopress.cli import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import builtin_ids
from protopress.generators import render as render_module
from protopress.generators.preflight import preflight
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.units import MM

DECK = {
    "game": "test-deck",
    "title": "Test Deck",
    "version": "2.1",
    "cards": [
        {"id": f"card-{n}", "title": f"Card {n}", "text": "Draw two cards.", "count": 1}
        for n in range(1, 11)
    ],
}
POKER_LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "bleed": True, "fill": "#eeeeee"},
        {"type": "text", "x": 5, "y": 5, "w": 53, "h": 10, "text": "{title}", "size": 12},
        {"type": "text", "x": 5, "y": 40, "w": 53, "h": 30, "text": "{text}", "size": 9},
    ],
    "back": [{"type": "rect", "bleed": True, "fill": "#333333"},
             {"type": "text", "x": 5, "y": 40, "w": 53, "h": 10, "text": "{id}", "size": 9}],
}  # fmt: skip


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def deck(tmp_path):
    """A catalog of ten generic cards with a layout folder beside it."""
    (tmp_path / "deck.json").write_text(json.dumps(DECK))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(POKER_LAYOUT))
    return tmp_path


def segments(page):
    """Stroked straight lines (m l S) drawn without a transform: (x1, y1, x2, y2) in mm, y down."""
    height = float(page.mediabox.height)
    found, path, start, translated = [], [], None, 0
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"q":
            translated += 1 if translated else 0
        elif operator == b"cm" and [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]:
            translated += 1
        elif operator == b"Q":
            translated = max(0, translated - 1)
        elif operator == b"m":
            start = [float(v) for v in operands]
        elif operator == b"l" and start:
            x2, y2 = (float(v) for v in operands)
            path.append((start[0] / MM, (height - start[1]) / MM, x2 / MM, (height - y2) / MM))
        elif operator == b"S":
            if not translated:
                found.extend(path)
            path = []
        elif operator in (b"f", b"f*", b"n", b"B", b"b", b"h"):
            path = [] if operator != b"h" else path
    return found


def test_nine_poker_cards_on_a4_with_crop_marks_at_every_trim_line(deck):
    out = deck / "out"
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out)
    assert result.exit_code == 0, result.output
    reader = PdfReader(out / "card-sheets.pdf")
    assert len(reader.pages) == 4  # 10 cards: 9 + 1, each front page followed by its backs
    lines = segments(reader.pages[0])
    # 3 x 3 cards of 63 x 88 mm butted on 210 x 297 mm: the trim grid is 189 x 264 mm,
    # centred: x from 10.5 to 199.5 mm, y from 16.5 to 280.5 mm.
    xs = [10.5, 73.5, 136.5, 199.5]
    ys = [16.5, 104.5, 192.5, 280.5]
    vertical = sorted(
        {round(x1, 4) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6 and y1 < 16.5}
    )
    horizontal = sorted(
        {round(y1, 4) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 1e-6 and x1 < 10.5}
    )
    assert vertical == pytest.approx(xs, abs=0.01)
    assert horizontal == pytest.approx(ys, abs=0.01)
    # the top marks start 1 mm beyond the bleed edge (16.5 - 3 - 1) and are 4 mm long
    top = [(y1, y2) for x1, y1, x2, y2 in lines if abs(x1 - 10.5) < 0.01 and y1 < 16.5]
    assert sorted(top[0]) == pytest.approx([8.5, 12.5], abs=0.01)
    assert preflight(out / "card-sheets.pdf", require_crop_marks=False).ok


def placements(page):
    """Where each face is placed: the translation (mm from the page's bottom-left)
    opening each top-level graphics state, in drawing order."""
    found, depth, opened = [], 0, False
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"q":
            depth += 1
            opened = depth == 1  # a face starts with a top-level q, then its translation
        elif operator == b"Q":
            depth -= 1
        elif operator == b"cm" and opened:
            a, b, c, d, e, f = (float(v) for v in operands)
            found.append((round(e / MM, 3), round(f / MM, 3)))
            opened = False
    return found


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_backs_mirror_columns_or_rows(deck, duplex):
    out = deck / duplex
    invoke(
        "render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out, "--duplex", duplex
    )
    reader = PdfReader(out / "card-sheets.pdf")
    fronts, backs = placements(reader.pages[0]), placements(reader.pages[1])
    assert len(fronts) == len(backs) == 9
    for (x, y), (back_x, back_y) in zip(fronts, backs, strict=True):
        if duplex == "long":  # the slot (69 mm wide incl. bleed) mirrors across the page width
            assert back_x == pytest.approx(210 - x - 69, abs=0.01)
            assert back_y == pytest.approx(y, abs=0.01)
        else:  # rows mirror across the page height
            assert back_x == pytest.approx(x, abs=0.01)
            assert back_y == pytest.approx(297 - y - 94, abs=0.01)


def test_back_offset_shifts_back_pages(deck):
    plain, shifted = deck / "plain", deck / "shifted"
    invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", plain)
    invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", shifted,
           "--back-offset", "1.5,-2")  # fmt: skip
    before = placements(PdfReader(plain / "card-sheets.pdf").pages[1])
    after = placements(PdfReader(shifted / "card-sheets.pdf").pages[1])
    assert len(before) == 9
    for (x, y), (x2, y2) in zip(before, after, strict=True):
        assert (x2 - x, y2 - y) == pytest.approx(
            (1.5, 2.0), abs=0.001
        )  # -2 mm down is 2 mm up: +2 in PDF space


def test_per_card_pages_carry_exact_boxes_and_alternate_fronts_and_backs(deck):
    out = deck / "cards"
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out,
                    "--layout", "per-card")  # fmt: skip
    assert result.exit_code == 0, result.output
    reader = PdfReader(out / "card-print-shop.pdf")
    assert len(reader.pages) == 20  # ten cards, front then back
    for number, page in enumerate(reader.pages):
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 69 * MM, 94 * MM])
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 69 * MM, 94 * MM])
        assert [float(v) for v in page.trimbox] == pytest.approx([3 * MM, 3 * MM, 66 * MM, 91 * MM])
        card = number // 2 + 1
        expected = f"Card {card}" if number % 2 == 0 else f"card-{card}"  # back shows the id
        assert expected in page.extract_text()
    report = preflight(out / "card-print-shop.pdf")
    assert report.ok, str(report)


def test_png_pixel_size_is_exact(deck):
    layout = dict(POKER_LAYOUT, size={"width": "2.5in", "height": "3.5in"})
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    out = deck / "png"
    invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out, "--png",
           "--bleed", "0.125in", "--dpi", "300")  # fmt: skip
    with Image.open(out / "png" / "card" / "card-1-front.png") as image:
        assert image.size == (825, 1125)  # (2.5 + 2 x 0.125) in and (3.5 + 0.25) in at 300 dpi
    assert (out / "png" / "card-contact.png").is_file()


def test_rendering_is_byte_identical(tmp_path):
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    first = render_catalog(catalog, RenderOptions(output_dir=tmp_path / "a"))
    render_catalog(catalog, RenderOptions(output_dir=tmp_path / "b"))
    assert first.files
    for path in first.files:
        twin = tmp_path / "b" / path.relative_to(tmp_path / "a")
        assert path.read_bytes() == twin.read_bytes(), path.name


def test_an_interrupted_render_leaves_the_previous_file(deck, monkeypatch):
    out = deck / "out"
    invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out)
    before = (out / "card-sheets.pdf").read_bytes()
    calls = {"n": 0}
    original = render_module.PdfFaces.place

    def failing_place(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(render_module.PdfFaces, "place", failing_place)
    (deck / "layouts" / "card.json").write_text(json.dumps(dict(POKER_LAYOUT, back=[])))
    with pytest.raises(KeyboardInterrupt):
        render_catalog(load_catalog(deck / "deck.json"),
                       RenderOptions(output_dir=out, layouts_dir=deck / "layouts"))  # fmt: skip
    assert (out / "card-sheets.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == [
        "README.txt",
        "card-print-shop.pdf",
        "card-sheets.pdf",
    ]


def test_a_bad_layout_is_reported_with_line_and_pointer(deck):
    (deck / "layouts" / "card.json").write_text(
        '{\n  "kind": "card",\n  "size": {"width": "63mm", "height": "88mm"},\n'
        '  "front": [\n    {"type": "txet", "x": 1, "y": 1}\n  ]\n}\n'
    )
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o")
    assert result.exit_code == 1
    assert (
        f"{deck / 'layouts' / 'card.json'}:5:14 /front/0/type: 'txet' is not one of"
        in result.output
    )
    assert not (deck / "o").exists()


def test_text_that_does_not_fit_is_a_warning_and_an_error_when_strict(deck):
    layout = json.loads(json.dumps(POKER_LAYOUT))
    layout["front"][2].update(h=4, text="{text} {text} {text} {text}")
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    loose = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "a")
    assert loose.exit_code == 0
    assert (
        "warning card-1: text 'Draw two cards. Draw two cards. Draw two' does not fit"
        in loose.output
    )
    strict = invoke(
        "render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "b", "--strict"
    )
    assert strict.exit_code == 1
    assert "nothing written (--strict)" in strict.output
    assert not (deck / "b").exists()


def test_images_outside_the_catalog_folder_are_refused(deck, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "art.png"
    Image.new("RGB", (10, 10)).save(elsewhere)
    layout = json.loads(json.dumps(POKER_LAYOUT))
    layout["front"].append(
        {"type": "image", "x": 0, "y": 0, "w": 10, "h": 10, "path": str(elsewhere)}
    )
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o")
    assert result.exit_code == 1
    assert "lies outside the catalog folder" in result.output
    allowed = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o",
                     "--allow-outside-assets", "--png", "--dpi", "72")  # fmt: skip
    assert allowed.exit_code == 0, allowed.output


@pytest.mark.parametrize("game", builtin_ids())
def test_every_builtin_game_renders_and_passes_preflight(tmp_path, game):
    result = invoke("render", game, "-o", tmp_path, "--cmyk")
    assert result.exit_code == 0, result.output
    for path in Path(tmp_path).glob("*.pdf"):
        report = preflight(path, expect="cmyk")
        assert report.ok, str(report)


def test_alignment_test_page(tmp_path):
    result = invoke("render", "--alignment-test", "-o", tmp_path, "--back-offset", "1,0")
    assert result.exit_code == 0
    reader = PdfReader(tmp_path / "alignment-test.pdf")
    assert len(reader.pages) == 2


def test_missing_and_oversized_images_are_refused_without_decoding(deck):
    layout = json.loads(json.dumps(POKER_LAYOUT))
    layout["front"].append(
        {"type": "image", "x": 0, "y": 0, "w": 10, "h": 10, "path": "art/{id}.png"}
    )
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    missing = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o")
    assert missing.exit_code == 1
    assert "image 'art/card-1.png' not found" in missing.output
    (deck / "art").mkdir()
    # 80 megapixels: refused from the header, never decoded
    Image.new("1", (10000, 8000)).save(deck / "art" / "card-1.png")
    huge = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o")
    assert huge.exit_code == 1
    assert "is 10000x8000 pixels; images over 64 megapixels are refused" in huge.output
    # 400 megapixels: a decompression bomb by Pillow's own measure
    Image.new("1", (20000, 20000)).save(deck / "art" / "card-1.png")
    bomb = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", deck / "o")
    assert bomb.exit_code == 1
    assert "is over 64 megapixels (a decompression bomb?); refused" in bomb.output
    # the first render drew the missing image as a crossed box and wrote the sheets;
    # the refused images stopped theirs before a file was written
    assert [path.name for path in sorted((deck / "o").iterdir())] == [
        "README.txt",
        "card-print-shop.pdf",
        "card-sheets.pdf",
    ]


MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"


def test_a_designers_own_game_renders_from_data_and_a_layout(tmp_path):
    result = invoke("render", MINI_GAME / "catalog.json", "--layouts", MINI_GAME / "layouts",
                    "-o", tmp_path, "--png", "--dpi", "100")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    reader = PdfReader(tmp_path / "card-sheets.pdf")
    assert len(reader.pages) == 2  # six copies on one sheet, then their backs
    text = reader.pages[0].extract_text()
    assert text.count("Dawn") == 3 and text.count("Dusk") == 2 and "rare" in text
    assert "Mini Game" in reader.pages[1].extract_text()
    assert preflight(tmp_path / "card-sheets.pdf").ok
    assert sorted(p.name for p in (tmp_path / "png" / "card").iterdir()) == [
        "dawn-back.png", "dawn-front.png", "dusk-back.png", "dusk-front.png",
        "eclipse-back.png", "eclipse-front.png",
    ]  # fmt: skip


def test_render_with_a_preset_and_for_tabletop_simulator(deck):
    layout = dict(POKER_LAYOUT, size={"width": "2.5in", "height": "3.5in"})
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    out = deck / "tgc"
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts", "-o", out,
                    "--preset", "tgc", "--tts")  # fmt: skip
    assert result.exit_code == 0, result.output
    pngs = sorted(out.rglob("card-*-front.png"))
    assert pngs
    with Image.open(pngs[0]) as image:
        assert image.size == (825, 1125)
    saved = json.loads((out / "tts" / "card.json").read_text())
    assert saved["ObjectStates"][0]["Name"] == "DeckCustom"


def test_render_only_some_kinds(tmp_path):
    result = invoke("render", "gem-rush", "-o", tmp_path, "--kind", "point-gem")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "point-gem-print-shop.pdf",
        "point-gem-sheets.pdf",
    ]
    assert "no layout" not in result.output
    wrong = invoke("render", "gem-rush", "-o", tmp_path, "--kind", "dice")
    assert wrong.exit_code == 2
    assert "gem-rush has no dice" in wrong.output

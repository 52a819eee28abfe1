"""Any script: right-to-left lines in visual order that extract in logical order,
Arabic joined, marks on their letters, missing glyphs warned about, OTF fonts
embedded, fonts confined to the catalog's folder."""

from __future__ import annotations

import json
import os
import shutil
import unicodedata
from pathlib import Path

import pypdfium2
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from protopress.components import InvalidInput, load_catalog
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.scripts import levels, needs_shaping, visual_order

FONTS = Path(__file__).parents[1] / "data" / "fonts"
DEJAVU = FONTS / "DejaVuSans-scripts.ttf"


def render(tmp_path: Path, text: str, font: str | None = "DejaVuSans-scripts.ttf",
           font_at: Path | None = None, allow_outside: bool = False, w: float = 53,
           png: bool = False, **element) -> tuple[Path, list[str]]:  # fmt: skip
    """One card whose text element draws text in the font (copied into layouts/)."""
    catalog = {
        "game": "t", "title": "T", "version": "1",
        "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"}],
        "cards": [{"id": "c1", "title": "C", "count": 1, "text": text}],
    }  # fmt: skip
    layouts = tmp_path / "layouts"
    layouts.mkdir(parents=True, exist_ok=True)
    fonts = {}
    if font is not None:
        target = font_at or layouts / Path(font).name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(FONTS / font if (FONTS / font).exists() else font, target)
        fonts = {"body": os.path.relpath(target, layouts)}
    layout = {
        "kind": "card",
        "size": {"width": "63mm", "height": "88mm"},
        "fonts": fonts,
        "front": [{"type": "text", "x": 5, "y": 10, "w": w, "h": 40, "text": "{text}",
                   "size": 12, **({"font": "body"} if font else {}), **element}],
    }  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (layouts / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(tmp_path / "out", layout="per-card", layouts_dir=layouts,
                            allow_outside_assets=allow_outside, png=png)  # fmt: skip
    result = render_catalog(load_catalog(tmp_path / "cat.json"), options)
    return tmp_path / "out" / "card-print-shop.pdf", result.warnings


def characters(pdf: Path) -> list[tuple[str, float, float]]:
    """Each character PDFium reads from the first page: (char, left, right), in the
    order it gives them (logical, after its own bidi reading)."""
    page = pypdfium2.PdfDocument(pdf)[0].get_textpage()
    chars = []
    for index in range(page.count_chars()):
        left, _, right, _ = page.get_charbox(index)
        chars.append((page.get_text_range(index, 1), left, right))
    return chars


def test_which_text_needs_shaping():
    assert not needs_shaping("Pay 3 gold, draw a card")
    assert not needs_shaping("Café naïve")  # precomposed letters draw as before
    assert needs_shaping("Cafe\u0301")  # a combining mark
    assert needs_shaping("שלום") and needs_shaping("سلام")


def test_bidi_levels_and_visual_order_by_hand():
    # "abc " left to right at level 0, the Hebrew word at level 1, " def" back at 0:
    # the spaces lie between letters of different directions and take the paragraph's
    assert levels("abc שלום def") == [0] * 4 + [1] * 4 + [0] * 4
    # a paragraph that starts with Hebrew is right to left: its Latin word is at 2
    assert levels("שלום abc") == [1] * 5 + [2] * 3
    # an isolate is taken as the embedding it is closest to (the rules implemented
    # predate isolates); the controls themselves take the level before them
    assert levels("a\u2067שלום\u2069 b") == [0, 0, 1, 1, 1, 1, 1, 0, 0]
    assert levels("\u0378 שלום") == [0, 0, 1, 1, 1, 1]  # an unassigned code point: L
    # rule L2: reverse runs at level 2 and above, then at 1 and above
    assert visual_order([0, 1, 1, 2, 0]) == [0, 3, 2, 1, 4]
    assert visual_order([1, 2, 1]) == [2, 1, 0]


def test_a_hebrew_line_extracts_in_logical_order(tmp_path):
    pdf, warnings = render(tmp_path, "שלום עולם")
    assert warnings == []
    assert PdfReader(pdf).pages[0].extract_text().strip() == "שלום עולם"
    chars = characters(pdf)
    assert "".join(c for c, _, _ in chars).strip() == "שלום עולם"
    shin, mem = chars[0], chars[3]  # the first letter is drawn right of the fourth
    assert shin[1] > mem[1]


def test_arabic_is_joined(tmp_path):
    pdf, warnings = render(tmp_path, "سلام")
    assert warnings == []
    text = PdfReader(pdf).pages[0].extract_text().strip()
    # seen joins forward (initial form), lam and alef join into their ligature
    # (final form, as lam joins the seen), meem after an alef stands alone: its
    # isolated glyph is the one the letter's own code point maps to
    assert text == "\ufeb3\ufefc\u0645"
    assert unicodedata.normalize("NFKC", text) == "سلام"


def test_arabic_unshaped_would_draw_other_glyphs(tmp_path):
    shaped, _ = render(tmp_path / "a", "سلام")
    pixels = [pypdfium2.PdfDocument(shaped)[0].render(scale=2).to_pil().tobytes()]
    # the same letters in their isolated forms, as unshaped drawing gives them
    unshaped, _ = render(tmp_path / "b", "\ufeb1\ufedd\ufe8d\ufee1"[::-1])
    pixels.append(pypdfium2.PdfDocument(unshaped)[0].render(scale=2).to_pil().tobytes())
    assert pixels[0] != pixels[1]


def test_the_png_shows_the_pdf_drawing(tmp_path):
    pdf, _ = render(tmp_path, "سلام שלום", png=True)
    png = tmp_path / "out" / "png" / "card" / "c1-front.png"
    with Image.open(png) as image:
        drawn = image.convert("RGB")
    # the face rasterised at the PNG's resolution from the print-shop page, bleed included
    page = pypdfium2.PdfDocument(pdf)[0]
    expected = page.render(scale=drawn.width / page.get_width()).to_pil().convert("RGB")
    expected = expected.resize(drawn.size)  # the page size rounds to a pixel either way
    per_mm = drawn.width / (63 + 6)
    box = tuple(round(v * per_mm) for v in (3 + 5, 3 + 10, 3 + 5 + 53, 3 + 10 + 12))  # line 1
    drawn, expected = drawn.crop(box), expected.crop(box)
    difference = ImageStat.Stat(ImageChops.difference(drawn, expected)).mean
    assert max(difference) < 1.5, difference  # resampling noise: missing text would be ~6
    assert ImageStat.Stat(drawn.convert("L")).extrema[0][0] < 60  # the text is drawn


def test_a_mixed_line_comes_out_in_visual_order(tmp_path):
    pdf, _ = render(tmp_path, "Pay בית הזהב now", w=80)
    assert PdfReader(pdf).pages[0].extract_text().strip() == "Pay בית הזהב now"
    chars = characters(pdf)
    left = {c: x for c, x, _ in chars if c in "Pזיתn"}  # letters found once in the line
    # left to right: Pay, the second Hebrew word (zayin), the first (yod), now
    assert left["P"] < left["ז"] < left["י"] < left["n"]
    assert left["ת"] < left["י"]  # each Hebrew word right to left: bet, yod, tav


def test_combining_marks_sit_on_their_letters(tmp_path):
    pdf, _ = render(tmp_path, "שָׁ q\u0323")
    chars = characters(pdf)
    shin = next(ch for ch in chars if ch[0] == "ש")
    for mark in ("\u05b8", "\u05c1"):  # qamats and the shin dot
        found = next(ch for ch in chars if ch[0] == mark)
        assert shin[1] - 0.5 <= found[1] <= shin[2] + 0.5, (mark, found, shin)
    q = next(ch for ch in chars if ch[0] == "q")
    dot = next(ch for ch in chars if ch[0] == "\u0323")
    assert q[1] - 0.5 <= dot[1] <= q[2] + 0.5  # under the q, not after it


def test_wrapping_and_shrinking_work_for_right_to_left_text(tmp_path):
    text = "ادفع ثلاث قطع ذهبية لتبني الغرفة " * 3
    pdf, warnings = render(tmp_path, text.strip(), w=30, min_size=4)
    assert warnings == []
    lines = PdfReader(pdf).pages[0].extract_text().strip().splitlines()
    assert len(lines) > 3
    assert unicodedata.normalize("NFKC", " ".join(lines)) == text.strip()
    _, warnings = render(tmp_path / "long", (text * 20).strip(), w=30, min_size=8)
    assert len(warnings) == 1 and "does not fit its" in warnings[0]


def test_right_to_left_text_with_markup(tmp_path):
    pdf, warnings = render(tmp_path, "Pay :gold: <b>ادفع</b> ذهب")
    assert warnings == []
    text = PdfReader(pdf).pages[0].extract_text().strip()
    assert unicodedata.normalize("NFKC", text).split() == ["Pay", "ادفع", "ذهب"]


def test_a_missing_glyph_warns_with_component_field_and_character(tmp_path):
    _, warnings = render(tmp_path, "Gold שלום", font=None)  # the built-in font: no Hebrew
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("c1: field 'text' has characters the font Vera.ttf has no")
    assert "'ש' U+05E9 HEBREW LETTER SHIN" in warnings[0]
    assert "'ם' U+05DD HEBREW LETTER FINAL MEM" in warnings[0]
    _, warnings = render(tmp_path / "latin", "Gold", font=None)
    assert warnings == []


def cff_font(path: Path) -> Path:
    """A tiny OpenType font with CFF outlines: a square for 'A' and 'B'."""
    builder = FontBuilder(1000, isTTF=False)
    names = [".notdef", "space", "A", "B"]
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({32: "space", 65: "A", 66: "B"})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(600, None)
        if name != "space":
            pen.moveTo((100, 0))
            pen.lineTo((500, 0))
            pen.curveTo((550, 300), (550, 400), (500, 700))
            pen.lineTo((100, 700))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF("TinyTest-Regular", {"FullName": "Tiny Test"}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 100) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Tiny Test", "styleName": "Regular",
                            "psName": "TinyTest-Regular"})  # fmt: skip
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))
    return path


def test_an_otf_font_is_embedded(tmp_path, monkeypatch):
    monkeypatch.setenv("PROTOPRESS_CACHE", str(tmp_path / "cache"))
    font = cff_font(tmp_path / "Tiny.otf")
    pdf, warnings = render(tmp_path / "r", "AB BA", font=str(font))
    assert warnings == []
    fonts = PdfReader(pdf).pages[0]["/Resources"]["/Font"]
    embedded = [f.get_object() for f in fonts.values()]
    tiny = [f for f in embedded if "TinyTest" in str(f["/BaseFont"])]
    assert tiny and "/FontFile2" in tiny[0]["/FontDescriptor"]  # TrueType outlines, embedded
    assert PdfReader(pdf).pages[0].extract_text().strip() == "AB BA"
    again, _ = render(tmp_path / "s", "AB BA", font=str(font))
    assert again.read_bytes() == pdf.read_bytes()  # converted the same way every time


def test_a_damaged_otf_font_is_a_located_problem(tmp_path, monkeypatch):
    monkeypatch.setenv("PROTOPRESS_CACHE", str(tmp_path / "cache"))
    font = cff_font(tmp_path / "Tiny.otf")
    font.write_bytes(font.read_bytes()[:300])
    with pytest.raises(InvalidInput) as raised:
        render(tmp_path / "r", "AB", font=str(font))
    message = str(raised.value.problems[0])
    assert "card.json:" in message and "/fonts/body: font file 'Tiny.otf' is not a usable " \
        "OpenType (CFF) font" in message  # fmt: skip


def test_a_font_outside_the_catalog_folder_is_refused(tmp_path):
    shutil.copy(DEJAVU, tmp_path / "Outside.ttf")
    project = tmp_path / "project"
    with pytest.raises(InvalidInput) as raised:
        render(project, "שלום", font_at=tmp_path / "Outside.ttf")
    problem = raised.value.problems[0]
    assert problem.pointer == "/fonts/body"
    assert "lies outside the catalog folder" in problem.message
    assert "--allow-outside-assets" in problem.message
    assert not (project / "out").exists()
    pdf, warnings = render(project, "שלום", font_at=tmp_path / "Outside.ttf", allow_outside=True)
    assert pdf.exists() and warnings == []


def test_a_font_in_the_catalog_folder_beside_the_layouts_is_used(tmp_path):
    pdf, warnings = render(tmp_path, "שלום", font_at=tmp_path / "fonts" / "DejaVuSans-scripts.ttf")
    assert warnings == [] and "שלום" in PdfReader(pdf).pages[0].extract_text()

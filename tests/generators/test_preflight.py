"""Preflight on PDFs drawn here with reportlab: one per-card file that passes,
and one small file for each way a print file can fail."""

import json
from pathlib import Path

import pytest
import reportlab
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators.preflight import PreflightCheck, preflight
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.units import MM, PAPER

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
CARD = (69 * MM, 94 * MM)  # 63 x 88 mm trim with 3 mm bleed
TRIM = (3 * MM, 3 * MM, 66 * MM, 91 * MM)


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pdfmetrics.registerFont(TTFont("Vera", str(VERA)))
    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))


@pytest.fixture
def pdf(tmp_path):
    """A canvas writing tmp_path/name; call .save() and preflight its .path."""

    def make(name="test.pdf", pagesize=CARD, **options):
        options.setdefault("initialFontName", "Vera")
        path = tmp_path / name
        page = canvas.Canvas(str(path), pagesize=pagesize, invariant=1, **options)
        page.path = path
        return page

    return make


def lines(report, name=None):
    return [str(check) for check in report.checks if name in (None, check.name)]


def card(page, bleed=(0, 0, *CARD), trim=TRIM):
    page.setBleedBox(bleed)
    page.setTrimBox(trim)
    page.setFillColorCMYK(0, 0.2, 0.6, 0)
    page.rect(0, 0, *CARD, fill=1, stroke=0)
    page.setFillColorCMYK(0, 0, 0, 1)
    page.setFont("Vera", 12)
    page.drawString(10 * MM, 80 * MM, "Gem Cart")
    page.showPage()


def test_a_good_card_file_passes_every_check(pdf):
    page = pdf()
    card(page)
    card(page)
    page.save()

    report = preflight(page.path, expect="cmyk")

    assert report.ok
    assert report.pages == 2
    assert lines(report) == [
        "PASS pages: 2 pages: 69 x 94 mm",
        "PASS page boxes: TrimBox inside BleedBox inside MediaBox on 2 pages",
        "PASS fonts: 1 font, all embedded",
        "PASS colours: CMYK (expected CMYK)",
        "PASS ink: highest 100% (limit 300%)",  # the text's 100% K; the fill is 20 + 60
        "PASS crop marks: no sheets (every page has a TrimBox)",
        "PASS images: no images",
    ]


def test_page_sizes_are_listed_with_their_counts(pdf):
    page = pdf(pagesize=PAPER["a4"])
    page.showPage()
    page.setPageSize(CARD)
    page.showPage()
    page.showPage()
    page.save()

    assert lines(preflight(page.path), "pages") == [
        "PASS pages: 3 pages: 210 x 297 mm (1), 69 x 94 mm (2)"
    ]


def test_a_trim_box_outside_the_bleed_box_fails(pdf):
    page = pdf()
    card(page, bleed=(5 * MM, 5 * MM, *CARD))
    page.save()

    assert lines(preflight(page.path), "page boxes") == [
        "FAIL page boxes page 1: TrimBox [3, 3, 66, 91] mm is not inside BleedBox [5, 5, 69, 94] mm"
    ]


def test_a_bleed_box_outside_the_media_box_fails(pdf):
    page = pdf()
    card(page, bleed=(0, 0, 70 * MM, 94 * MM))
    page.save()

    assert lines(preflight(page.path), "page boxes") == [
        "FAIL page boxes page 1: BleedBox [0, 0, 70, 94] mm is not inside MediaBox [0, 0, 69, 94] mm"
    ]


def test_a_trim_box_needs_a_bleed_box(pdf):
    page = pdf()
    page.setTrimBox(TRIM)
    page.showPage()
    page.save()

    assert lines(preflight(page.path), "page boxes") == [
        "FAIL page boxes page 1: TrimBox but no BleedBox"
    ]


def test_reportlabs_default_helvetica_is_not_embedded(pdf):
    page = pdf(initialFontName=None)
    page.showPage()
    page.save()

    report = preflight(page.path)

    assert not report.ok
    assert lines(report, "fonts") == ["FAIL fonts page 1: font 'Helvetica' is not embedded"]


def test_fonts_inside_forms_count_for_the_page_drawing_the_form(pdf):
    page = pdf()
    page.beginForm("label")
    page.setFont("HeiseiMin-W3", 10)  # a Type0 font whose descendant is not embedded
    page.drawString(5, 5, "Gem")
    page.endForm()
    page.showPage()
    page.doForm("label")
    page.showPage()
    page.save()

    assert lines(preflight(page.path), "fonts") == [
        "FAIL fonts page 2: font 'HeiseiMin-W3' is not embedded"
    ]


def colour_file(pdf, colour):
    page = pdf(pagesize=PAPER["a4"])
    page.setFillColorCMYK(0, 0, 0, 1)
    page.rect(10, 10, 50, 50, fill=1)
    page.showPage()
    colour(page)
    page.rect(10, 10, 50, 50, fill=1)
    page.showPage()
    page.save()
    return page.path


def test_colour_spaces_are_reported(pdf):
    path = colour_file(pdf, lambda page: page.setFillColorRGB(1, 0, 0))

    assert lines(preflight(path), "colours") == ["PASS colours: RGB, CMYK"]


def test_rgb_fails_where_cmyk_is_expected(pdf):
    path = colour_file(pdf, lambda page: page.setFillColorRGB(1, 0, 0))

    assert lines(preflight(path, expect="cmyk"), "colours") == [
        "FAIL colours page 2: RGB used (rg) where CMYK is expected"
    ]


def test_cmyk_fails_where_rgb_is_expected(pdf):
    path = colour_file(pdf, lambda page: page.setFillGray(0.5))

    assert lines(preflight(path, expect="cmyk"), "colours") == [
        "PASS colours: CMYK, Gray (expected CMYK)"
    ]
    assert lines(preflight(path, expect="rgb"), "colours") == [
        "FAIL colours page 1: CMYK used (k) where RGB is expected"
    ]


def test_an_unknown_expectation_is_refused(pdf):
    with pytest.raises(ValueError, match="expect must be one of cmyk, rgb, not 'cymk'"):
        preflight("any.pdf", expect="cymk")


# Two 63 x 88 mm cards side by side, centred on A4: trim lines at x = 42, 105 and
# 168 mm and y = 104.5 and 192.5 mm from the bottom (192.5 and 104.5 from the top).
XS = (42, 105, 168)
YS = (104.5, 192.5)


def sheet(pdf, skip=(), marks=True):
    """A sheet of two cards; marks 5 mm long, 2 mm from the trim; skip names marks to leave out."""
    page = pdf(pagesize=PAPER["a4"])
    page.saveState()  # a line in a translated frame is card art, not a mark
    page.translate(XS[0] * MM, YS[0] * MM)
    page.line(-20 * MM, 10 * MM, -20 * MM, 15 * MM)
    page.restoreState()
    page.line(60 * MM, 150 * MM, 60 * MM, 155 * MM)  # a short line inside the cards
    ruler = (YS[0] - 12) * MM  # a scale bar below the bottom marks: its ticks are no marks
    page.line(XS[0] * MM, ruler, (XS[0] + 50) * MM, ruler)
    for tick in range(0, 51, 5):
        page.line((XS[0] + tick) * MM, ruler, (XS[0] + tick) * MM, ruler + 2 * MM)
    if marks:
        for x in XS:
            if ("bottom", x) not in skip:
                page.line(x * MM, (YS[0] - 7) * MM, x * MM, (YS[0] - 2) * MM)
            if ("top", x) not in skip:
                page.line(x * MM, (YS[1] + 2) * MM, x * MM, (YS[1] + 7) * MM)
        for y in YS:
            if ("left", y) not in skip:
                page.line((XS[0] - 7) * MM, y * MM, (XS[0] - 2) * MM, y * MM)
            if ("right", y) not in skip:
                page.line((XS[-1] + 2) * MM, y * MM, (XS[-1] + 7) * MM, y * MM)
    page.showPage()
    page.save()
    return page.path


def test_a_sheet_with_every_crop_mark_passes(pdf):
    report = preflight(sheet(pdf))

    assert lines(report, "crop marks") == ["PASS crop marks: 1 sheet marked at every trim corner"]


def test_missing_crop_marks_are_named_by_side_and_position(pdf):
    path = sheet(pdf, skip={("bottom", 105), ("right", 104.5)})

    assert lines(preflight(path), "crop marks") == [
        "FAIL crop marks page 1: bottom crop mark missing at x = 105 mm",
        "FAIL crop marks page 1: right crop mark missing at y = 192.5 mm",
    ]


def test_a_sheet_without_crop_marks_fails_only_when_they_are_required(pdf):
    path = sheet(pdf, marks=False)

    assert lines(preflight(path), "crop marks") == [
        "PASS crop marks: no crop marks on 1 sheet (page 1)"
    ]
    assert lines(preflight(path, require_crop_marks=True), "crop marks") == [
        "FAIL crop marks page 1: no crop marks"
    ]


def image(pixels):
    return Image.new("RGB", (pixels, pixels), (30, 90, 160))


def test_a_72_dpi_image_placed_large_fails(pdf):
    page = pdf()
    page.drawImage(ImageReader(image(100)), 0, 0, 100, 100)  # 100 px over 100 pt: 72 dpi
    page.showPage()
    page.save()

    report = preflight(page.path)

    assert lines(report, "images") == [
        "FAIL images page 1: image 100 x 100 px placed at 35.3 x 35.3 mm is 72 dpi; at least 300 needed"
    ]
    assert lines(report, "colours") == ["PASS colours: RGB"]  # the image is DeviceRGB


def test_images_of_300_dpi_and_more_pass(pdf):
    page = pdf()
    page.drawImage(ImageReader(image(300)), 0, 0, 72, 72)  # 300 dpi
    page.drawInlineImage(image(60), 100, 100, 10, 10)  # 432 dpi
    page.showPage()
    page.save()

    assert lines(preflight(page.path), "images") == ["PASS images: 2 images, lowest 300 dpi"]


def test_image_resolution_follows_forms_and_transforms(pdf):
    page = pdf()
    page.beginForm("art")
    page.drawImage(ImageReader(image(300)), 0, 0, 72, 72)  # 300 dpi inside the form
    page.endForm()
    page.scale(2, 2)
    page.doForm("art")  # drawn twice as large: 150 dpi
    page.showPage()
    page.save()

    assert lines(preflight(page.path), "images") == [
        "FAIL images page 1: image 300 x 300 px placed at 50.8 x 50.8 mm is 150 dpi; at least 300 needed"
    ]


def test_the_report_as_json(pdf):
    page = pdf(initialFontName=None)
    page.showPage()
    page.save()

    data = json.loads(json.dumps(preflight(page.path).to_json()))

    assert data["file"] == str(page.path)
    assert data["pages"] == 1
    assert data["ok"] is False
    assert data["checks"][2] == {
        "name": "fonts",
        "ok": False,
        "message": "font 'Helvetica' is not embedded",
        "page": 1,
    }


def test_a_check_reads_as_one_line():
    assert str(PreflightCheck("fonts", False, "font 'Helvetica' is not embedded", 3)) == (
        "FAIL fonts page 3: font 'Helvetica' is not embedded"
    )
    assert str(PreflightCheck("images", True, "no images")) == "PASS images: no images"


def test_an_unreadable_file_is_one_clear_error(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_text("not a pdf")

    with pytest.raises(ValueError, match="broken.pdf: cannot read the PDF"):
        preflight(path)


def _flate_bomb(size: int) -> bytes:
    """A one-page PDF whose content stream inflates to size bytes."""
    import zlib

    data = zlib.compress(b"0 0 m " * (size // 6), 9)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data
               + b"\nendstream"]  # fmt: skip
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)  # fmt: skip
    return bytes(out)


def test_a_flate_bomb_is_one_clear_error(tmp_path):
    path = tmp_path / "bomb.pdf"
    path.write_bytes(_flate_bomb(300_000_000))
    with pytest.raises(ValueError, match="bomb.pdf: cannot read the PDF"):
        preflight(path)


def test_a_huge_sparse_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.pdf"
    with path.open("wb") as stream:
        stream.truncate(1024**3)
    with pytest.raises(
        ValueError, match="huge.pdf: the PDF is larger than 256 MiB; refused unread"
    ):
        preflight(path)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_and_a_fifo_are_refused_without_reading(tmp_path):
    import os

    with pytest.raises(ValueError, match="a device, not a regular file"):
        preflight("/dev/zero")
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="a FIFO, not a regular file"):
        preflight(fifo)


def test_duplex_back_pages_need_no_crop_marks_even_when_required(pdf, tmp_path):
    # A rendered sheet file: each front page (marked) is followed by its back
    # page (unmarked by design), labelled "front N" and "back N".
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    options = RenderOptions(output_dir=tmp_path, layout="sheets")
    result = render_catalog(catalog, options, only={"gem-card": set()})
    path = tmp_path / "gem-card-sheets.pdf"
    assert result.files == [path]
    labels = PdfReader(path).page_labels
    assert labels[:4] == ["front 1", "back 1", "front 2", "back 2"]
    report = preflight(path, require_crop_marks=True)
    assert report.ok, str(report)
    backs = ", ".join(str(n) for n in range(2, len(labels) + 1, 2))
    assert lines(report, "crop marks")[-1] == (
        f"PASS crop marks: no crop marks on {len(labels) // 2} duplex back pages, "
        f"as intended (page {backs})"
    )


def test_an_unlabelled_unmarked_page_still_fails_when_marks_are_required(pdf):
    page = pdf(pagesize=PAPER["a4"])
    page.addPageLabel(0, style="D", start=1, prefix="front ")
    page.showPage()  # a front page without marks
    page.addPageLabel(1, style="D", start=1, prefix="back ")
    page.showPage()
    page.save()
    assert lines(preflight(page.path, require_crop_marks=True), "crop marks") == [
        "FAIL crop marks page 1: no crop marks",
        "PASS crop marks: no crop marks on 1 duplex back page, as intended (page 2)",
    ]


def test_ink_is_read_from_every_stream_of_a_page_and_not_from_its_text(tmp_path):
    """A page whose content is two streams: the second fills at 100/100/100/0 (300%);
    a string that spells a colour operator is shown, not obeyed; an inline CMYK
    image between them is parsed over."""
    import pikepdf

    document = pikepdf.new()
    first = pikepdf.Stream(document, b"q .1 .2 .3 0 k 0 0 5 5 re f Q BT (1 1 1 1 k) Tj ET")
    image = b"BI /W 1 /H 1 /CS /CMYK /BPC 8 ID \x00\x00\x00\x00 EI"
    second = pikepdf.Stream(
        document, b"1 1 1 0 k 0 0 10 10 re f q 10 0 0 10 0 0 cm " + image + b" Q"
    )
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 100, 100],
                              Contents=pikepdf.Array([first, second]))  # fmt: skip
    document.pages.append(pikepdf.Page(page))
    path = tmp_path / "two-streams.pdf"
    document.save(path)

    lines = [str(check) for check in preflight(path, max_ink=240).checks]
    inks = [line for line in lines if line.startswith(("FAIL ink", "PASS ink"))]
    assert inks == [
        "FAIL ink page 1: fill 100/100/100/0 in page content: 300% total ink, more than 240%"
    ]
    colours = [line for line in lines if " colours" in line]
    assert colours == ["PASS colours: CMYK"]
    assert [str(c) for c in preflight(path, max_ink=300).checks if c.name == "ink"] == [
        "PASS ink: highest 300% (limit 300%)"
    ]


def test_the_ink_check_alone_gives_preflights_ink_lines(tmp_path):
    """ink_checks (what a preset runs on each file it writes) finds what preflight
    finds: a fill and a stroke over the limit in a form drawn on two pages, a CMYK
    picture over it, and text, which is shown and never read as colour."""
    from reportlab.lib.utils import ImageReader

    from protopress.generators.preflight import ink_checks

    art = Image.new("CMYK", (20, 20), (51, 51, 51, 51))  # 80%
    art.paste((255, 255, 255, 0), (5, 5, 10, 10))  # 300% in one square
    path = tmp_path / "inks.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    page.beginForm("swatch")
    page.setFillColorCMYK(0.9, 0.9, 0.9, 0)  # 270%
    page.setStrokeColorCMYK(0.5, 0.5, 0.5, 0.5)  # 200%
    page.rect(0, 0, 50, 50, fill=1, stroke=1)
    page.endForm()
    for _ in range(2):
        page.doForm("swatch")
        page.setFillColorCMYK(0, 0, 0, 1)
        page.drawString(60, 60, "1 1 1 1 k")
        page.drawImage(ImageReader(art), 100, 100, 20, 20)
        page.showPage()
    page.save()

    def lines(checks):
        return [str(check) for check in checks if check.name == "ink"]

    for limit in (150, 250, 300):
        assert lines(ink_checks(path, limit)) == lines(preflight(path, max_ink=limit).checks)
    fill, image = lines(ink_checks(path, 250))[:2]  # page 1's; page 2's the same
    assert fill == (
        "FAIL ink page 1: fill 90/90/90/0 in form /FormXob.swatch: 270% total ink, more than 250%"
    )
    assert image.startswith("FAIL ink page 1: image /")
    assert image.endswith("(20 x 20 px) in page content: 300% total ink, more than 250%")
    assert len(lines(ink_checks(path, 250))) == 4
    assert lines(ink_checks(path, 300)) == ["PASS ink: highest 300% (limit 300%)"]

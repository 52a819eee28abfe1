"""Colour-managed CMYK and PDF/X-4: a catalog with RGB art rendered --cmyk and
--pdfx, checked by the kit's preflight, by Ghostscript and against what
ImageCms itself gives for the bundled profile."""

import io
import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms, ImageDraw
from pypdf import PdfReader
from pypdf.generic import ContentStream

from protopress.cli import cli
from protopress.generators.preflight import preflight

PROFILE = resources.files("protopress.generators").joinpath("profiles", "ISOcoated_v2_300_bas.icc")
RED, CREAM = "#d7263d", "#f4e7c5"
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "x": 0, "y": 0, "w": "63mm", "h": "88mm", "fill": CREAM},
        {"type": "rect", "x": "6mm", "y": "60mm", "w": "20mm", "h": "10mm", "fill": RED},
        {"type": "image", "x": "6mm", "y": "6mm", "w": "51mm", "h": "51mm", "path": "art/{id}.png"},
        {"type": "text", "x": "6mm", "y": "72mm", "w": "51mm", "h": "10mm", "text": "{title}"},
    ],
}


def invoke(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


@pytest.fixture
def deck(tmp_path):
    """Two cards with RGB PNG art: an opaque one and one with a transparent background."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "art").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    opaque = Image.new("RGB", (700, 700), (30, 144, 255))
    ImageDraw.Draw(opaque).rectangle((100, 100, 600, 600), fill=(0, 0, 0))
    opaque.save(tmp_path / "art" / "sky.png")
    cutout = Image.new("RGBA", (700, 700), (0, 0, 0, 0))
    ImageDraw.Draw(cutout).ellipse((50, 50, 650, 650), fill=(215, 38, 61, 255))
    cutout.save(tmp_path / "art" / "gem.png")
    catalog = {"game": "t", "title": "T", "version": "1", "cards": [
        {"id": "sky", "title": "Sky", "count": 2}, {"id": "gem", "title": "Gem"}]}  # fmt: skip
    (tmp_path / "deck.json").write_text(json.dumps(catalog))
    return tmp_path


def render(deck: Path, out: str, *options, env=None):
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts",
                    "-o", deck / out, *options, env=env)  # fmt: skip
    assert result.exit_code == 0, result.output
    return sorted((deck / out).glob("*.pdf"))


def imagecms_cmyk(rgb: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """What ImageCms gives for an sRGB value with the bundled profile, built here."""
    transform = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        ImageCms.ImageCmsProfile(io.BytesIO(PROFILE.read_bytes())),
        "RGB",
        "CMYK",
        ImageCms.Intent.RELATIVE_COLORIMETRIC,
        ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    return ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform).getpixel((0, 0))


def fills(path: Path) -> list[tuple[float, ...]]:
    """The k operands of the first form drawn on page 1 (the first card's front)."""
    reader = PdfReader(path)
    forms = reader.pages[0]["/Resources"]["/XObject"]
    form = next(x.get_object() for x in forms.values() if x.get_object()["/Subtype"] == "/Form")
    operations = ContentStream(form, reader).operations
    return [tuple(float(v) for v in ops) for ops, operator in operations if operator == b"k"]


def test_art_rendered_cmyk_passes_preflight_expecting_cmyk(deck):
    for path in render(deck, "cmyk", "--cmyk"):
        report = preflight(path, expect="cmyk")
        assert report.ok, f"{path.name}\n{report}"
        assert "PASS images: " in str(report)
        reader = PdfReader(path)
        spaces = {
            str(x.get_object()["/ColorSpace"])
            for page in reader.pages[:1]
            for form in page["/Resources"]["/XObject"].values()
            for x in (form.get_object().get("/Resources", {}).get("/XObject", {}) or {}).values()
        }
        assert spaces == {"/DeviceCMYK"}  # both pictures separated, none left RGB


def test_a_known_srgb_colour_is_separated_as_imagecms_gives_it(deck):
    path = render(deck, "cmyk", "--cmyk", "--layout", "per-card")[0]
    expected = {
        tuple(round(v / 255, 4) for v in imagecms_cmyk(rgb))
        for rgb in ((215, 38, 61), (244, 231, 197))
    }
    found = set(fills(path))
    assert expected <= found, (expected, found)
    assert (0.0, 0.0, 0.0, 1.0) in found  # the black title: 100% K alone, not rich black
    assert imagecms_cmyk((0, 0, 0))[3] < 255 and sum(imagecms_cmyk((0, 0, 0))) > 700  # it would be


def test_art_keeps_its_transparency_as_a_soft_mask(deck):
    path = render(deck, "cmyk", "--cmyk", "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream)
                  and o.get("/Subtype") == "/Image" and o.get("/ColorSpace") == "/DeviceCMYK"]  # fmt: skip
        masked = [image for image in images if "/SMask" in image]
        assert len(images) == 2 and len(masked) == 1  # the cut-out gem, not the opaque sky
        assert masked[0].SMask.ColorSpace == "/DeviceGray"


def test_the_art_pixels_are_separated_through_the_profile(deck):
    path = render(deck, "cmyk", "--cmyk", "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        sky = next(o for o in pdf.objects if isinstance(o, pikepdf.Stream)
                   and o.get("/Subtype") == "/Image" and "/SMask" not in o
                   and o.get("/ColorSpace") == "/DeviceCMYK")  # fmt: skip
        pixels = Image.frombytes("CMYK", (700, 700), sky.read_bytes())
    assert pixels.getpixel((10, 10)) == imagecms_cmyk((30, 144, 255))
    assert pixels.getpixel((350, 350)) == imagecms_cmyk((0, 0, 0))  # art keeps its rich black


def test_pdfx_files_pass_the_kits_preflight_and_carry_the_output_intent(deck):
    for path in render(deck, "x", "--pdfx"):
        report = preflight(path, pdfx=True)
        assert report.ok, f"{path.name}\n{report}"
        assert "PASS pdf/x: identified as PDF/X-4" in str(report)
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version == "1.6"
            intent = pdf.Root.OutputIntents[0]
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert str(intent.RegistryName) == "http://www.color.org"
            assert intent.DestOutputProfile.read_bytes() == PROFILE.read_bytes()
            assert intent.DestOutputProfile.N == 4
            assert pdf.docinfo.Trapped == "/False"
            assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
            meta = pdf.open_metadata()
            assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
            assert meta["pdf:Trapped"] == "False"
            assert meta["dc:title"] == str(pdf.docinfo.Title)
            for page in pdf.pages:
                assert "/TrimBox" in page.obj and "/BleedBox" in page.obj


def test_pdfx_sheets_are_still_checked_for_crop_marks(deck):
    sheets = next(p for p in render(deck, "x", "--pdfx") if p.name.endswith("sheets.pdf"))
    report = preflight(sheets, pdfx=True)
    assert "PASS crop marks: 1 sheet marked at every trim corner" in str(report)


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")
def test_pdfx_files_pass_ghostscript(deck):
    for path in render(deck, "x", "--pdfx"):
        run = subprocess.run(
            ["gs", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", str(path)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        assert "error" not in (run.stdout + run.stderr).lower(), run.stdout + run.stderr


def test_pdfx_is_byte_identical_and_dated_from_source_date_epoch(deck):
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    first = [p.read_bytes() for p in render(deck, "a", "--pdfx", env=env)]
    second = [p.read_bytes() for p in render(deck, "b", "--pdfx", env=env)]
    assert first == second
    with pikepdf.open(io.BytesIO(first[0])) as pdf:
        assert pdf.open_metadata()["xmp:CreateDate"] == "2023-11-14T22:13:20+00:00"
        assert str(pdf.docinfo.CreationDate).startswith("D:20231114221320")


def test_a_named_profile_is_embedded_as_a_custom_condition(deck):
    own = deck / "press.icc"
    own.write_bytes(PROFILE.read_bytes())
    path = render(deck, "x", "--pdfx", "--icc-profile", own, "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "Custom"
    assert preflight(path, pdfx=True).ok


def _monitor_profile() -> bytes:
    """The bundled profile with its device class (header bytes 12-15) made a monitor's."""
    data = bytearray(PROFILE.read_bytes())
    data[12:16] = b"mntr"
    return bytes(data)


def _rgb_profile() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a profile at all", "not an ICC profile (no 'acsp' signature"),
        (b"", "not an ICC profile"),
        (_rgb_profile(), "its colour space is RGB; a CMYK output profile is needed"),
        (PROFILE.read_bytes()[:4000], "not a readable ICC profile (its header gives 1052612"),
        (_monitor_profile(), "a CMYK profile of class 'mntr'; an output (printer, 'prtr')"),
    ],
    ids=["text", "empty", "rgb", "truncated", "monitor"],
)
def test_bad_icc_profiles_are_refused_before_anything_is_written(deck, content, message):
    bad = deck / "bad.icc"
    bad.write_bytes(content)
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts",
                    "-o", deck / "out", "--icc-profile", bad)  # fmt: skip
    assert result.exit_code == 1, result.output
    assert f"protopress: {bad}: {message}" in result.output
    assert "Traceback" not in result.output
    assert not (deck / "out").exists()


def test_a_400_percent_swatch_fails_the_ink_limit(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "swatch.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    page.setFillColorCMYK(0.2, 0.4, 0.6, 0.8)  # 200%: within
    page.rect(0, 0, 100, 100, fill=1, stroke=0)
    page.showPage()
    page.setFillColorCMYK(1, 1, 1, 1)  # 400%: the registration colour
    page.rect(0, 0, 100, 100, fill=1, stroke=0)
    page.showPage()
    page.save()

    report = preflight(path, expect="cmyk")
    failed = [str(c) for c in report.checks if not c.ok and c.name != "fonts"]  # Helvetica
    assert failed == [
        "FAIL ink page 2: fill 100/100/100/100 in page content: 400% total ink, more than 300%"
    ]

    def ink(limit):
        return [c.ok for c in preflight(path, max_ink=limit).checks if c.name == "ink"]

    assert ink(400) == [True]
    assert ink(150) == [False, False]  # page 1's 200% too


def test_an_image_over_the_ink_limit_is_named(tmp_path):
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    art = Image.new("CMYK", (40, 40), (51, 51, 51, 51))  # 80%
    art.paste((255, 255, 255, 230), (10, 10, 20, 20))  # 390% in one square
    path = tmp_path / "image.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    page.drawImage(ImageReader(art), 0, 0, 10, 10)
    page.showPage()
    page.save()

    (line,) = [str(c) for c in preflight(path).checks if c.name == "ink"]
    assert line.startswith("FAIL ink page 1: image /")
    assert line.endswith("(40 x 40 px) in page content: 390% total ink, more than 300%")


def test_pdfx_preflight_fails_a_plain_cmyk_file(deck):
    path = render(deck, "cmyk", "--cmyk", "--layout", "per-card")[0]
    failed = [str(c) for c in preflight(path, pdfx=True).checks if not c.ok]
    assert "FAIL pdf/x: no /GTS_PDFX OutputIntent" in failed
    assert "FAIL pdf/x: no GTS_PDFXVersion in Info or XMP metadata" in failed


def test_rgb_left_in_a_transparency_group_fails_expect_cmyk(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "group.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    page.setFillColorCMYK(0, 0, 0, 1)
    page.rect(0, 0, 10, 10, fill=1)
    page.showPage()
    page.save()
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.pages[0].obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency,
                                                    CS=pikepdf.Name.DeviceRGB)  # fmt: skip
        pdf.save(path)
    failed = [str(c) for c in preflight(path, expect="cmyk").checks if c.name == "colours"]
    assert failed == [
        "FAIL colours page 1: RGB used (page transparency group) where CMYK is expected"
    ]


def test_preflight_cli_takes_max_ink_and_pdfx(deck):
    path = render(deck, "x", "--pdfx", "--layout", "per-card")[0]
    ok = invoke("preflight", "--pdfx", path)
    assert ok.exit_code == 0, ok.output
    strict = invoke("preflight", "--max-ink", "100", path)
    assert strict.exit_code == 1
    assert "FAIL ink page 1: image /" in strict.output
    clash = invoke("preflight", "--pdfx", "--expect", "rgb", path)
    assert clash.exit_code == 2


def test_pdfx_is_known_from_xmp_alone(deck):
    path = render(deck, "x", "--pdfx", "--layout", "per-card")[0]
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        del pdf.docinfo["/GTS_PDFXVersion"]
        pdf.save(path)
    assert "PASS pdf/x: identified as PDF/X-4" in str(preflight(path, pdfx=True))


def test_a_cmyk_image_not_decoded_here_is_said_so(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "sixteen.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    page.rect(0, 0, 10, 10)
    page.showPage()
    page.save()
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        image = pikepdf.Stream(pdf, bytes(2 * 4 * 4))  # 2 x 2 px, 16 bits per component
        image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        image.Width = image.Height = 2
        image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceCMYK, 16
        pdf.pages[0].add_resource(image, pikepdf.Name.XObject, pikepdf.Name.Im9)
        pdf.pages[0].contents_add(b"q 10 0 0 10 0 0 cm /Im9 Do Q")
        pdf.save(path)
    (line,) = [str(c) for c in preflight(path).checks if c.name == "ink"]
    assert line == "PASS ink: nothing measured (limit 300%; 1 CMYK image not measured)"


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_icc_profile_is_refused_unread(deck):
    import os

    fifo = deck / "profile.icc"
    os.mkfifo(fifo)
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts",
                    "-o", deck / "out", "--icc-profile", fifo)  # fmt: skip
    assert result.exit_code == 1, result.output
    assert f"protopress: {fifo}: cannot read the ICC profile (a FIFO, not a regular file)" in (
        result.output
    )


def test_each_picture_is_separated_once_per_render(deck, monkeypatch):
    from protopress.generators import separation

    calls = []
    real = separation._separated
    monkeypatch.setattr(separation, "_separated", lambda s, p: calls.append(p.name) or real(s, p))
    render(deck, "cmyk", "--cmyk")  # sheets and per-card files; the sky card twice
    assert sorted(calls) == ["gem.png", "sky.png"]


def test_svg_art_is_separated_through_the_profile(deck):
    """An SVG's own colours go through the same profile as the layout's."""
    (deck / "art" / "sky.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect width="10" height="10" fill="#3a7d44"/></svg>'
    )
    layout = json.loads((deck / "layouts" / "card.json").read_text())
    layout["front"][2]["path"] = "art/sky.svg"
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    catalog = json.loads((deck / "deck.json").read_text())
    catalog["cards"] = catalog["cards"][:1]
    (deck / "deck.json").write_text(json.dumps(catalog))
    (path,) = [p for p in render(deck, "svg", "--cmyk") if p.name.endswith("print-shop.pdf")]
    assert preflight(path, expect="cmyk").ok
    green = tuple(round(v / 255, 3) for v in imagecms_cmyk((0x3A, 0x7D, 0x44)))
    assert green in {tuple(round(v, 3) for v in f) for f in fills(path)}

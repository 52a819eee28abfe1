"""PDF/X-1a:2003 (--pdfx 1a): the file's structure read back with pikepdf, the
cut-out art flattened onto what lies beneath it (pixels checked against what
ImageCms gives for the colours by hand), faces inside faces flattened the right
way round, what cannot be flattened refused, and Ghostscript reading it all."""

import io
import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from face_drawing import face
from PIL import Image
from reportlab.pdfgen.canvas import Canvas
from test_cmyk import CREAM, PROFILE, RED, deck, imagecms_cmyk, invoke, render

from protopress.generators import flatten
from protopress.generators.colours import Colour
from protopress.generators.face import Face, FaceOp, ImageOp, RectOp
from protopress.generators.flatten import Flattener
from protopress.generators.pdfx import PdfxRefused, to_pdfx
from protopress.generators.preflight import preflight
from protopress.generators.rich import RichTextOp
from protopress.generators.separation import load_profile, separation
from protopress.generators.standards import PdfxStandard

__all__ = ["deck"]  # the fixture, shared with test_cmyk

MM = 72 / 25.4


def images(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [o for o in pdf.objects
            if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]  # fmt: skip


def test_x1a_files_have_the_structure_of_pdf_x1a_2003(deck):
    for path in render(deck, "x", "--pdfx", "1a"):
        data = path.read_bytes()
        assert data.startswith(b"%PDF-1.3\n")
        assert b"\nxref\n" in data and b"/ObjStm" not in data and b"/XRef" not in data
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            assert str(info.GTS_PDFXVersion) == "PDF/X-1:2001"
            assert str(info.GTS_PDFXConformance) == "PDF/X-1a:2003"
            assert info.Trapped == "/False"
            assert "/OCProperties" not in pdf.Root
            intent = pdf.Root.OutputIntents[0]
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert intent.DestOutputProfile.read_bytes() == PROFILE.read_bytes()
            for page in pdf.pages:
                assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
            pictures = images(pdf)
            assert pictures and all(p.ColorSpace == "/DeviceCMYK" for p in pictures)
            for obj in pdf.objects:
                if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                    assert "/SMask" not in obj and "/Group" not in obj
                    assert "/ca" not in obj and "/CA" not in obj
        assert b"/ICCBased" not in data and b"/DeviceRGB" not in data
        report = preflight(path, pdfx=True)
        assert report.ok, f"{path.name}\n{report}"
        assert "PASS pdf/x: identified as PDF/X-1a:2003 (PDF/X-1:2001)" in str(report)
        assert "PASS pdf/x: PDF 1.3, no transparency" in str(report)


def test_cut_out_art_is_flattened_onto_the_card_beneath_it(deck):
    """gem.png is a red disc on a transparent square of 700 px placed 51 mm wide
    (349 dpi, so flattened at the 600 dpi floor: 51 mm = 1205 px). Its corner
    shows the cream card under it, its centre the red disc, both separated as
    ImageCms separates those sRGB colours."""
    path = render(deck, "x", "--pdfx", "1a", "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        flat = [p for p in images(pdf) if p.Width == round(51 * 600 / 25.4)]
        assert len(flat) == 1  # the gem; the opaque sky is drawn as it is (700 px)
        assert {p.Width for p in images(pdf)} == {1205, 700}
        picture = Image.frombytes("CMYK", (1205, 1205), flat[0].read_bytes())
    cream = imagecms_cmyk(tuple(int(CREAM[i : i + 2], 16) for i in (1, 3, 5)))
    red = imagecms_cmyk(tuple(int(RED[i : i + 2], 16) for i in (1, 3, 5)))
    for corner in ((3, 3), (1201, 3), (3, 1201), (1201, 1201)):
        assert _close(picture.getpixel(corner), cream), corner
    assert _close(picture.getpixel((602, 602)), red)


def _close(found, expected, tolerance=2) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, expected, strict=True))


@pytest.fixture
def clear_png(tmp_path) -> Path:
    """A picture that hides nothing: every pixel fully transparent."""
    path = tmp_path / "clear.png"
    Image.new("RGBA", (40, 20), (0, 0, 0, 0)).save(path)
    return path


RED_C, BLUE_C = Colour(1, 0, 0), Colour(0, 0, 1)


def _two_halves(clear: Path) -> Face:
    """100 x 50 pt: red left half, blue right half, the clear picture over all."""
    return Face("card/a/front", 100, 50, 0, (
        RectOp(0, 0, 50, 50, fill=RED_C), RectOp(50, 0, 50, 50, fill=BLUE_C),
        ImageOp(clear, 0, 0, 100, 50)))  # fmt: skip


@pytest.mark.parametrize("turn", [0, 90, -90])
def test_a_face_inside_a_face_is_flattened_upright_whatever_its_turn(clear_png, turn):
    """However the inner face is turned on the outer one, the flattened picture
    is in the inner face's own frame: red on its left, blue on its right (in
    CMYK: red has yellow and no cyan, blue cyan and no yellow)."""
    inner = _two_halves(clear_png)
    wide, high = (100, 50) if turn == 0 else (50, 100)
    outer = Face("product", wide * 2 + 20, high * 2 + 20, 0,
                 (FaceOp(inner, 10, 10, scale=2.0, turn=turn),))  # fmt: skip
    flattener = Flattener(separation())
    (op,) = flattener.face(outer).ops
    assert isinstance(op, FaceOp) and op.turn == turn
    picture = op.face.ops[-1]
    assert isinstance(picture, ImageOp) and (picture.x, picture.y, picture.w, picture.h) == (
        0, 0, 100, 50)  # fmt: skip
    flat = flattener.art(picture.path)
    assert flat is not None and flat.alpha is None
    assert flat.cmyk.size == (round(100 * 600 / 72), round(50 * 600 / 72))
    left, right = flat.cmyk.getpixel((100, 200)), flat.cmyk.getpixel((flat.cmyk.width - 100, 200))
    assert left[2] > 200 and left[0] < 30 and right[0] > 200 and right[2] < 30


def test_what_is_drawn_after_the_picture_is_left_as_it_was(clear_png):
    face = Face("card/a/front", 100, 50, 0,
                (*_two_halves(clear_png).ops, RectOp(10, 10, 5, 5, fill=RED_C)))  # fmt: skip
    flattener = Flattener(separation())
    flat = flattener.face(face)
    assert flat.ops[:2] == face.ops[:2] and flat.ops[3] == face.ops[3]
    assert flat.ops[2] != face.ops[2] and flattener.art(flat.ops[2].path) is not None
    assert flattener.face(flat) == flat  # a flattened face is opaque already
    opaque = Face("card/b/front", 10, 10, 0, face.ops[:2])
    assert flattener.face(opaque).ops == face.ops[:2]


HALF_BLUE = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
<rect x="0" y="0" width="100" height="100" fill="#0000ff" fill-opacity="0.5"/></svg>"""


def test_see_through_vector_art_is_blended_in_cmyk_as_pdf_x4_blends_it(deck):
    """A blue square at 50% opacity over the cream card: each ink is half the
    blue's and half the cream's (both separated as ImageCms gives them), as
    the PDF/X-4 file's CMYK transparency group blends them."""
    (deck / "art" / "half.svg").write_text(HALF_BLUE)
    layout = json.loads((deck / "layouts" / "card.json").read_text())
    layout["front"].append({"type": "image", "x": "30mm", "y": "60mm", "w": "20mm",
                            "h": "20mm", "path": "art/half.svg"})  # fmt: skip
    (deck / "layouts" / "card.json").write_text(json.dumps(layout))
    path = render(deck, "x", "--pdfx", "1a", "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        # 20 mm at 600 dpi is 472 px; the probe widens the box by about a point each side
        pictures = [p for p in images(pdf) if 472 <= int(p.Width) <= 500]
        assert len(pictures) == 1, [int(p.Width) for p in images(pdf)]
        picture = Image.frombytes("CMYK", (int(pictures[0].Width), int(pictures[0].Height)),
                                  pictures[0].read_bytes())  # fmt: skip
    centre = picture.getpixel((picture.width // 2, picture.height // 2))
    cream = imagecms_cmyk(tuple(int(CREAM[i : i + 2], 16) for i in (1, 3, 5)))
    blue = imagecms_cmyk((0, 0, 255))
    half = tuple((a + b) / 2 for a, b in zip(cream, blue, strict=True))
    assert _close(centre, half, tolerance=3), (centre, half)


def test_an_element_too_large_to_flatten_is_refused_naming_component_and_image(deck, monkeypatch):
    monkeypatch.setattr(flatten, "MAX_FLAT_PIXELS", 1_000_000)
    result = invoke("render", deck / "deck.json", "--layouts", deck / "layouts",
                    "-o", deck / "x", "--pdfx", "1a", "--layout", "per-card")  # fmt: skip
    assert result.exit_code == 1
    assert (
        "protopress: t: card/gem/front: the image 'gem.png' draws with transparency, which "
        "PDF/X-1a forbids, and flattening its 51 x 51 mm at 600 dpi would take 1 megapixels; "
        "make it opaque or use --pdfx 4"
    ) in result.output
    assert not list((deck / "x").glob("*.pdf"))


def test_transparency_left_in_a_file_is_refused_not_written():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, enforceColorSpace="cmyk", invariant=1)
    canvas.setFillColorCMYK(0, 1, 0, 0)
    canvas.setFillAlpha(0.5)
    canvas.rect(10, 10, 100, 100, fill=1, stroke=0)
    canvas.showPage()
    canvas.save()
    with pytest.raises(PdfxRefused, match=r"PDF/X-1a allows no an opacity below 1 \(ca 0.5\)"):
        to_pdfx(buffer.getvalue(), load_profile(), PdfxStandard.X1A)
    assert to_pdfx(buffer.getvalue(), load_profile(), PdfxStandard.X4)  # X-4 takes it


def test_pdfx_without_a_value_is_still_pdf_x4(deck):
    path = render(deck, "x", "--pdfx", "--layout", "per-card")[0]
    with pikepdf.open(path) as pdf:
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
    result = invoke("render", deck / "deck.json", "--pdfx", "1b")
    assert result.exit_code == 2 and "'1b' is not one of '4', '1a'" in result.output


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")
def test_x1a_files_are_read_by_ghostscript_without_a_warning(deck):
    for path in render(deck, "x", "--pdfx", "1a"):
        run = subprocess.run(
            ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONWARNING",
             "-dPDFSTOPONERROR", "-sDEVICE=nullpage", str(path)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert run.returncode == 0 and not (run.stdout + run.stderr).strip(), run.stderr


def test_x1a_files_with_flattened_art_are_byte_identical(deck):
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    first = [p.read_bytes() for p in render(deck, "a", "--pdfx", "1a", env=env)]
    second = [p.read_bytes() for p in render(deck, "b", "--pdfx", "1a", env=env)]
    assert first == second


def test_text_with_a_see_through_picture_icon_is_flattened_not_left_whole(tmp_path):
    """An inline icon from a PNG with clear pixels may show what lies under the
    text, so the text is flattened like see-through art; the same text with a
    shape icon is opaque and stays as it was drawn."""
    Image.new("RGBA", (40, 40), (0, 0, 0, 0)).save(tmp_path / "ghost.png")
    catalog = {"game": "t", "title": "T", "version": "1",
               "symbols": [{"id": "ghost", "name": "Ghost", "shape": "circle", "icon": "ghost.png"},
                           {"id": "gold", "name": "Gold", "shape": "circle"}]}  # fmt: skip
    paper = {"type": "rect", "bleed": True, "fill": "white"}
    text = {"type": "text", "x": 5, "y": 5, "w": 50, "h": 20, "size": 12}
    flattener = Flattener(separation())
    with_picture = face(tmp_path, [paper, {**text, "text": "a :ghost: b"}], catalog=dict(catalog))
    flat = flattener.face(with_picture)
    assert isinstance(with_picture.ops[1], RichTextOp)
    assert isinstance(flat.ops[1], ImageOp) and flattener.art(flat.ops[1].path) is not None
    with_shape = face(tmp_path, [paper, {**text, "text": "a :gold: b"}], catalog=dict(catalog))
    assert flattener.face(with_shape).ops == with_shape.ops

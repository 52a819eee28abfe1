"""SVG card art: drawn as vectors in every fit mode, parsed without entities or
DTDs, and never reading anything outside the catalog folder."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_reading import filled_bounds, operators, xobject_subtypes
from PIL import Image
from pypdf import PdfReader

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.svg import MAX_SVG_BYTES

MM = 72 / 25.4
SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
# 200 x 100 px (150 x 75 pt): a 2:1 picture filled with one colour, #336699
WIDE = f'<svg {SVG_NS} viewBox="0 0 200 100" width="200" height="100"><rect width="200" height="100" fill="#336699"/></svg>'
BLUE = (0.2, 0.4, 0.6)


def game(root: Path, svg: str | bytes, name: str = "art.svg", **element) -> Path:
    """A one-card catalog in root/game whose front is one image in a 40 x 40 mm box
    at (10, 10) mm; the face is 69 x 94 mm with its 3 mm bleed."""
    folder = root / "game"
    (folder / "layouts").mkdir(parents=True)
    data = svg.encode() if isinstance(svg, str) else svg
    (folder / name).write_bytes(data)
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "count": 1}]}  # fmt: skip
    layout = {"kind": "card", "size": {"width": "63mm", "height": "88mm"},
              "front": [{"type": "image", "x": 10, "y": 10, "w": 40, "h": 40, "path": name,
                         **element}]}  # fmt: skip
    (folder / "cat.json").write_text(json.dumps(catalog))
    (folder / "layouts" / "card.json").write_text(json.dumps(layout))
    return folder / "cat.json"


def render(catalog: Path):
    options = RenderOptions(catalog.parent / "out", layout="per-card",
                            layouts_dir=catalog.parent / "layouts")  # fmt: skip
    result = render_catalog(load_catalog(catalog), options)
    return catalog.parent / "out" / "card-print-shop.pdf", result.warnings


def bounds_mm(pdf: Path) -> tuple[float, ...]:
    """The SVG's blue rectangle as (left, bottom, right, top) in mm from the page's
    bottom-left corner."""
    found = filled_bounds(pdf, BLUE)
    assert found is not None, "the SVG's rectangle is not drawn"
    return tuple(round(v / MM, 2) for v in found)


def test_an_svg_stays_vector_in_the_pdf(tmp_path):
    pdf, warnings = render(game(tmp_path, WIDE))
    drawn = operators(pdf)
    assert "/Image" not in xobject_subtypes(pdf) and not drawn[b"INLINE IMAGE"]  # no picture
    assert drawn[b"re"] + drawn[b"m"] and drawn[b"f"]  # but a path, filled
    assert not warnings


def test_an_svg_is_known_by_its_content_whatever_its_name(tmp_path):
    pdf, _ = render(game(tmp_path, '<?xml version="1.0"?>\n<!-- art -->\n' + WIDE, "art.png"))
    assert bounds_mm(pdf) == (13, 51, 53, 71)
    assert "/Image" not in xobject_subtypes(pdf) and not operators(pdf)[b"INLINE IMAGE"]


# The box is x 13..53 mm, y 13..53 mm from the face's top (41..81 mm from the
# bottom of the 94 mm page). A 2:1 picture contained is 40 x 20 mm; covering,
# 80 x 40 mm; stretched, 40 x 40 mm.
@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ({}, (13, 51, 53, 71)),  # contain, centred: 10 mm above and below
        ({"valign": "top"}, (13, 61, 53, 81)),
        ({"valign": "bottom"}, (13, 41, 53, 61)),
        ({"fit": "cover", "align": "left"}, (13, 41, 93, 81)),
        ({"fit": "cover"}, (-7, 41, 73, 81)),  # centred: 20 mm cut off each side
        ({"fit": "cover", "align": "right"}, (-27, 41, 53, 81)),
        ({"fit": "stretch"}, (13, 41, 53, 81)),
    ],
)
def test_every_fit_mode_places_the_svg_in_its_box(tmp_path, element, expected):
    pdf, warnings = render(game(tmp_path, WIDE, **element))
    assert bounds_mm(pdf) == pytest.approx(expected, abs=0.01)
    if element.get("fit") == "cover":
        assert operators(pdf)[b"W"] + operators(pdf)[b"W*"]  # cropped to the box
    stretched = [w for w in warnings if "stretched out of shape" in w]
    assert stretched == (
        ["c1: image 'art.svg' is stretched out of shape (an SVG of 150x75 pt into a 40x40 mm box)"]
        if element.get("fit") == "stretch"
        else []
    )


def test_a_viewbox_alone_gives_the_svg_its_shape(tmp_path):
    svg = f'<svg {SVG_NS} viewBox="0 0 50 100"><rect width="50" height="100" fill="#336699"/></svg>'
    pdf, _ = render(game(tmp_path, svg))  # 1:2, contained: 20 x 40 mm, centred
    assert bounds_mm(pdf) == pytest.approx((23, 41, 43, 81), abs=0.01)


def _png(width: int = 4, height: int = 4) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def _with_image(href: str) -> str:
    return (f'<svg {SVG_NS} viewBox="0 0 10 10" width="10" height="10">'
            f'<image xlink:href="{href}" width="10" height="10"/></svg>')  # fmt: skip


BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;">]>'
    f'<svg {SVG_NS} viewBox="0 0 10 10"><text>&d;</text></svg>'
)
EXTERNAL_ENTITY = (
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    f'<svg {SVG_NS} viewBox="0 0 10 10"><text>&x;</text></svg>'
)


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        (EXTERNAL_ENTITY, "an SVG with a DTD (<!DOCTYPE ...>) is refused"),
        (BILLION_LAUGHS, "an SVG with a DTD (<!DOCTYPE ...>) is refused"),
        (_with_image("/etc/passwd"), "refers to '/etc/passwd': an absolute path"),
        (
            _with_image("file:///etc/passwd"),
            "refers to 'file:///etc/passwd': only files beside the SVG are read, never a URL",
        ),
        (
            _with_image("../outside.png"),
            "refers to '../outside.png', which lies outside the catalog folder",
        ),
        (_with_image("http://example.invalid/a.png"), "never a URL"),
        (_with_image("data:text/plain;base64,aGk="), "only base64 PNG and JPEG data"),
        (_with_image("notes.txt"), "not a PNG or JPEG image by its content"),
        (_with_image("missing.png"), "refers to 'missing.png', which is not found"),
        (f'<svg {SVG_NS}><use href="other.svg#a"/></svg>', "an SVG does not draw other SVG files"),
        (f"<svg {SVG_NS}><rect></svg>", "is not well-formed XML"),
        (f"<svg {SVG_NS}/>", "the SVG has no size"),
    ],
)
def test_a_hostile_or_broken_svg_is_refused_naming_the_component_and_the_file(
    tmp_path, svg, message
):
    (tmp_path / "outside.png").write_bytes(_png())
    catalog = game(tmp_path, svg)
    (catalog.parent / "notes.txt").write_text("not a picture")
    (catalog.parent / "other.svg").write_text(WIDE)
    opened = _watch_opens()
    with pytest.raises(ValueError) as error:
        render(catalog)
    # one line at the image element of the layout, naming the component and the image
    layout = catalog.parent / "layouts" / "card.json"
    assert str(error.value).startswith(f"{layout}:1:")
    assert " /front/0/path: card 'c1': image 'art.svg'" in str(error.value)
    assert "\n" not in str(error.value)
    assert message in str(error.value)
    assert not {
        "/etc/passwd",
        str(tmp_path / "outside.png"),
        str(catalog.parent / "other.svg"),
    } & set(opened)


def test_an_svg_larger_than_the_limit_is_refused(tmp_path):
    huge = f"<svg {SVG_NS} width='1' height='1'>".encode() + b" " * MAX_SVG_BYTES + b"</svg>"
    with pytest.raises(
        ValueError, match=r"card 'c1': image 'art.svg' is an SVG over 4 MiB; refused"
    ):
        render(game(tmp_path, huge))


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_an_svg_reference_through_a_link_leading_outside_is_refused(tmp_path):
    (tmp_path / "outside.png").write_bytes(_png())
    catalog = game(tmp_path, _with_image("inside.png"))
    (catalog.parent / "inside.png").symlink_to(tmp_path / "outside.png")
    with pytest.raises(ValueError, match="which lies outside the catalog folder"):
        render(catalog)


def test_a_png_inside_the_folder_or_as_data_is_embedded(tmp_path):
    data = base64.b64encode(_png()).decode()
    svg = (f'<svg {SVG_NS} viewBox="0 0 20 10" width="20" height="10">'
           '<image xlink:href="pic.png" width="10" height="10"/>'
           f'<image x="10" xlink:href="data:image/png;base64,{data}" width="10" height="10"/></svg>')  # fmt: skip
    catalog = game(tmp_path, svg)
    (catalog.parent / "pic.png").write_bytes(_png())
    pdf, _ = render(catalog)
    # reportlab's graphics put small pictures inline in the content stream
    assert xobject_subtypes(pdf).count("/Image") + operators(pdf)[b"INLINE IMAGE"] == 2


def test_css_imports_and_font_families_read_nothing_and_run_nothing(tmp_path, monkeypatch):
    """svglib skips @import; a font family is never looked up with fc-match or as a file."""
    (tmp_path / "outside.css").write_text("rect { fill: red }")
    bin_dir, mark = tmp_path / "bin", tmp_path / "fc-match-ran"
    bin_dir.mkdir()
    (bin_dir / "fc-match").write_text(f"#!/bin/sh\ntouch {mark}\n")
    (bin_dir / "fc-match").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    svg = (f'<svg {SVG_NS} viewBox="0 0 200 100" width="200" height="100">'
           '<style>@import url("../outside.css");</style>'
           '<rect width="200" height="100" fill="#336699"/>'
           '<text x="10" y="50" font-family="No Such Font, ../../outside" font-weight="bold">Hi</text></svg>')  # fmt: skip
    catalog = game(tmp_path, svg)
    opened = _watch_opens()
    pdf, _ = render(catalog)
    assert not mark.exists()
    assert str(tmp_path / "outside.css") not in opened
    assert not [p for p in opened if "outside" in Path(p).name and p.endswith(".ttf")]
    fonts = [str(f.get_object()["/BaseFont"]).split("+")[-1]
             for f in PdfReader(pdf).pages[0]["/Resources"]["/Font"].values()]  # fmt: skip
    assert fonts == ["BitstreamVeraSans-Bold"]  # set in the embedded bold sans


def test_a_broken_svg_is_one_located_line_from_the_command(tmp_path):
    catalog = game(tmp_path, f"<svg {SVG_NS}><rect></svg>")
    run = subprocess.run([sys.executable, "-m", "protopress", "render", str(catalog), "--layouts",
                          str(catalog.parent / "layouts"), "-o", str(tmp_path / "out"), "--png",
                          "--dpi", "72"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 1, run.stderr
    layout = catalog.parent / "layouts" / "card.json"
    assert run.stdout.startswith(f"{layout}:1:"), run.stdout
    assert " /front/0/path: card 'c1': image 'art.svg' is not well-formed XML" in run.stdout
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


_OPENED: list[str] = []


def _watch_opens() -> list[str]:
    """Every file this process opens from now on (an audit hook: it sees opens
    by any library, C code included, that go through Python's open)."""
    if not getattr(_watch_opens, "installed", False):
        sys.addaudithook(lambda event, args: _OPENED.append(str(args[0]))
                         if event == "open" and isinstance(args[0], str | Path) else None)  # fmt: skip
        _watch_opens.installed = True  # type: ignore[attr-defined]
    _OPENED.clear()
    return _OPENED


def test_what_the_svg_library_cannot_draw_is_a_warning(tmp_path):
    svg = (f'<svg {SVG_NS} viewBox="0 0 200 100" width="200" height="100"><title>Art</title>'
           '<rect width="200" height="100" fill="#336699"/>'
           '<foreignObject width="5" height="5"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>'
           '<filter id="f"><feGaussianBlur stdDeviation="3"/></filter></svg>')  # fmt: skip
    _, warnings = render(game(tmp_path, svg))
    assert warnings == [
        "c1: image 'art.svg': part of the SVG is not drawn (<foreignObject> is not supported)",
        "c1: image 'art.svg': part of the SVG is not drawn (<filter> is not supported)",
    ]


def test_a_use_bomb_is_cut_short_with_a_warning(tmp_path):
    """<use> of <use> ten times over, seven deep, would be ten million copies."""
    groups = "".join(
        f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 8)
    )
    svg = (f'<svg {SVG_NS} viewBox="0 0 10 10" width="10" height="10"><defs>'
           f'<rect id="a0" width="1" height="1" fill="#336699"/>{groups}</defs><use href="#a7"/></svg>')  # fmt: skip
    _, warnings = render(game(tmp_path, svg))
    assert any("Too many <use> expansions (limit is 10000)" in warning for warning in warnings)

"""Every image fit mode: contain (whole, aligned), cover (filling, cropped to the
box) and stretch (with a warning when it distorts the picture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdf_reading import image_boxes
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog

MM = 72 / 25.4


def render(tmp_path: Path, **element) -> tuple[tuple[float, ...], list[str], bytes]:
    Image.new("RGB", (600, 200), "red").save(tmp_path / "wide.png")
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "count": 1}]}  # fmt: skip
    layout = {"kind": "card", "size": {"width": "63mm", "height": "88mm"},
              "front": [{"type": "image", "x": 10, "y": 10, "w": 40, "h": 40,
                         "path": "wide.png", **element}]}  # fmt: skip
    (tmp_path / "layouts").mkdir()
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(tmp_path / "out", layout="per-card", layouts_dir=tmp_path / "layouts")
    result = render_catalog(load_catalog(tmp_path / "cat.json"), options)
    pdf = tmp_path / "out" / "card-print-shop.pdf"
    (box,) = image_boxes(pdf)
    return tuple(round(v / MM, 2) for v in box), result.warnings, pdf.read_bytes()


def operators(pdf: bytes) -> list[bytes]:
    import io

    reader = PdfReader(io.BytesIO(pdf))
    return [op for _, op in ContentStream(reader.pages[0].get_contents(), reader).operations]


def test_contain_keeps_the_whole_picture_centred(tmp_path):
    (x, y, w, h), warnings, _ = render(tmp_path)
    assert (w, h) == (40, pytest.approx(13.33, abs=0.01))
    assert x == 13  # 10 mm + 3 mm bleed
    assert not any("stretched" in warning for warning in warnings)


def test_contain_aligns_to_the_top(tmp_path):
    (_, y, _, h), _, _ = render(tmp_path, valign="top")
    assert y + h == pytest.approx(94 - 13, abs=0.01)  # the picture's top on the box's top


def test_cover_fills_the_box_and_is_clipped_to_it(tmp_path):
    (x, _, w, h), _, pdf = render(tmp_path, fit="cover", align="left")
    assert (w, h) == (120, 40) and x == 13
    assert {b"W", b"W*"} & set(operators(pdf))  # clipped to the box


def test_stretch_fills_the_box_and_warns_that_it_distorts(tmp_path):
    (_, _, w, h), warnings, _ = render(tmp_path, fit="stretch")
    assert (w, h) == (40, 40)
    assert any("stretched out of shape" in warning for warning in warnings)


def warnings_for(tmp_path: Path, pixels: tuple[int, int], box: str, **element) -> list[str]:
    Image.new("RGB", pixels, "red").save(tmp_path / "art.png")
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "count": 1}]}  # fmt: skip
    layout = {"kind": "card", "size": {"width": "63mm", "height": "88mm"},
              "front": [{"type": "image", "x": 5, "y": 5, "w": box, "h": box,
                         "path": "art.png", **element}]}  # fmt: skip
    (tmp_path / "layouts").mkdir()
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(tmp_path / "out", layout="per-card", layouts_dir=tmp_path / "layouts")
    return render_catalog(load_catalog(tmp_path / "cat.json"), options).warnings


def dpi_warnings(warnings: list[str]) -> list[str]:
    return [warning for warning in warnings if " dpi " in warning]


@pytest.mark.parametrize(("pixels", "expected"), [(299, 299), (300, None), (150, 150)])
def test_the_dpi_warning_fires_below_300_and_not_at_300(tmp_path, pixels, expected):
    warnings = dpi_warnings(warnings_for(tmp_path, (pixels, pixels), "1in"))
    assert warnings == (
        [f"c1: image 'art.png' prints at {expected} dpi at its drawn size ({pixels}x{pixels} "
         "pixels over 25x25 mm); 300 dpi or more prints sharp"]
        if expected
        else []
    )  # fmt: skip


def test_the_dpi_is_taken_after_the_fit(tmp_path):
    # 600 x 300 pixels in a 1 x 1 inch box: contained it is drawn 1 in wide (600 dpi);
    # covering, 2 in wide (300 dpi); stretched, 1 in tall from 300 pixels (300 dpi)
    for fit in ("contain", "cover", "stretch"):
        folder = tmp_path / fit
        folder.mkdir()
        assert not dpi_warnings(warnings_for(folder, (600, 300), "1in", fit=fit))
    folder = tmp_path / "small"
    folder.mkdir()  # 598 x 299 covering the inch: 2 in wide from 598 pixels is 299 dpi
    (warning,) = dpi_warnings(warnings_for(folder, (598, 299), "1in", fit="cover"))
    assert "prints at 299 dpi" in warning

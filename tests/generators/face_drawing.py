"""Draw one card face from elements written inline, and read it back: as a PDF
page (operators) or as pixels. The face has no bleed, so a layout's millimetres
are the page's millimetres from its top-left corner."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from protopress.components import load_catalog
from protopress.generators.assets import AssetPolicy
from protopress.generators.face import Face
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import load_layout
from protopress.generators.png_surface import face_image, face_pdf

MM = 72 / 25.4
WIDTH, HEIGHT = 60, 80  # mm: the trim of the test card
DPI = 254  # 10 pixels per millimetre


def face(tmp_path: Path, elements: list[dict], fields: dict | None = None,
         catalog: dict | None = None, images: bool = True, **layout_keys) -> Face:  # fmt: skip
    """The front of a card with fields, drawn by a layout of those elements (and
    layout_keys, e.g. fonts); images come from tmp_path."""
    document = catalog or {"game": "t", "title": "T", "version": "1"}
    document.setdefault("cards", [{"id": "c1", "title": "C", **(fields or {})}])
    layout = {"kind": "card", "size": {"width": WIDTH, "height": HEIGHT}, "front": elements,
              **layout_keys}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(document))
    (tmp_path / "card.json").write_text(json.dumps(layout))
    loaded = load_catalog(tmp_path / "cat.json")
    assets = AssetPolicy(tmp_path) if images else None
    builder = FaceBuilder(load_layout(tmp_path / "card.json"), loaded, bleed=0, assets=assets)
    return builder.build(loaded.of_kind("card")[0], "front")


def pixels(drawn: Face) -> Image.Image:
    """The face at 10 pixels per millimetre: pixel (10 x + 5, 10 y + 5) is the
    middle of the millimetre square at (x, y)."""
    return face_image(drawn, DPI)


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * 10), round(y_mm * 10)))


def operations(drawn: Face) -> list[tuple[list, bytes]]:
    """The face's PDF content stream as (operands, operator) pairs."""
    reader = PdfReader(io.BytesIO(face_pdf(drawn)))
    page = reader.pages[0]
    return [(list(operands), op) for operands, op in
            ContentStream(page.get_contents(), reader).operations]  # fmt: skip


def close(colour: tuple[int, int, int], expected: tuple[int, int, int], tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))

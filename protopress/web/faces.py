"""Catalog faces as PNG bytes for the pages, drawn by the generators and cached."""

from __future__ import annotations

import threading
from pathlib import Path

from protopress.generators.assets import AssetPolicy
from protopress.generators.face import Face
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import Layout, layouts_for
from protopress.generators.png_surface import face_image, png_bytes

DPI = 110  # a card of 63 x 88 mm is about 270 x 380 pixels: sharp on a phone
LARGE = 3  # the full-size view draws at three times DPI: 330 dpi, a card at print size and more
SIDES = ("front", "back")


class Faces:
    """Faces of one catalog with its layouts; `png` draws each face once."""

    def __init__(self, catalog, layouts_dir: Path | None = None, dpi: int = DPI):
        self.catalog = catalog
        self.dpi = dpi
        self.layouts: dict[str, Layout] = layouts_for(catalog.components, layouts_dir, catalog)
        root = catalog.path.parent if catalog.path else Path.cwd()
        self.assets = AssetPolicy(root)
        self._builders = {
            kind: FaceBuilder(layout, catalog, 0.0, self.assets, placeholders=True)
            for kind, layout in self.layouts.items()
        }
        self._png: dict[tuple[str, str, str, int], bytes] = {}
        self._lock = threading.Lock()  # the cache
        # one face drawn at a time: requests arrive on several threads, and the
        # drawing (reportlab's font subsets, PDFium) is not made for that
        self._drawing = threading.Lock()

    def sides(self, kind: str) -> tuple[str, ...]:
        layout = self.layouts.get(kind)
        if layout is None:
            return ()
        return SIDES if layout.back is not None else SIDES[:1]

    def pixel_size(self, kind: str) -> tuple[int, int] | None:
        """A face's size in pixels, so a page can keep the room before the image loads."""
        layout = self.layouts.get(kind)
        if layout is None:
            return None
        return round(layout.width * self.dpi / 72), round(layout.height * self.dpi / 72)

    def image(self, kind: str, ident: str, side: str = "front") -> dict:
        """Where a page finds a face, and its size: an image without a size moves
        everything below it when it arrives, and a tap aimed before then lands
        on whatever moved there."""
        width, height = self.pixel_size(kind) or (0, 0)
        return {"src": f"/face/{kind}/{ident}/{side}.png", "width": width, "height": height}

    def face(self, kind: str, ident: str, side: str) -> Face | None:
        """The face, or None for a kind without a layout, an unknown id or side."""
        if side not in self.sides(kind):
            return None
        component = next((c for c in self.catalog.of_kind(kind) if c.id == ident), None)
        if component is None:
            return None
        return self._builders[kind].build(component, side)

    def png(self, kind: str, ident: str, side: str = "front", scale: int = 1) -> bytes | None:
        """The face as PNG at DPI times scale (1, or LARGE for a full-size view)."""
        key = (kind, ident, side, scale)
        with self._lock:
            if key in self._png:
                return self._png[key]
        with self._drawing:
            face = self.face(kind, ident, side)
            if face is None:
                return None
            data = png_bytes(face_image(face, self.dpi * scale))
        with self._lock:
            self._png[key] = data
        return data

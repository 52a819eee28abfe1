"""Transparency flattened out of faces, for PDF/X-1a, which allows none.

Before a face is drawn into an X-1a file, every element that would draw with
transparency (art with an alpha channel or see-through pixels, vector art or
any other element drawn with an opacity below 1, a soft mask or a blend mode)
is replaced by an opaque CMYK picture of what the press would print there.
Within the element's box, what lies beneath it (the face drawn up to it, over
white paper) and the element alone (over nothing, with its coverage) are
rasterised by the same renderer as the PNGs, both separated through the
render's profile, and composited in CMYK, as the PDF/X-4 files blend (their
transparency groups blend in DeviceCMYK). Pure black beneath stays 100% K,
as in vector drawing. What lies under the element stays drawn as before
(vectors), and what comes after it is drawn on top as before, so only the
element's own box becomes pixels. (Blend modes other than Normal are
flattened as Normal.)

A raster picture keeps its own resolution (at least FLAT_DPI); anything else
is rasterised at FLAT_DPI. Inside a face drawn within another (a print
service's product around a layout's face, FaceOp), what shows through comes
from the outer face too. An element whose flattened picture would take more
than MAX_FLAT_PIXELS is refused with a message naming the component and the
element. Flattened pictures are kept in memory by the Flattener under a name
made from their content (PdfFaces asks it for them by that name), so faces
that draw alike still share one PDF form.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, replace
from pathlib import Path

import pikepdf
import pypdfium2
from PIL import Image, ImageChops

from protopress.generators.face import (
    Face,
    FaceOp,
    ImageOp,
    LineOp,
    Op,
    PolygonOp,
    RectOp,
    TextOp,
)
from protopress.generators.images import open_image
from protopress.generators.pdfx import transparency
from protopress.generators.png_surface import PDFIUM, faces_pdf
from protopress.generators.rich import RichTextOp
from protopress.generators.scripts import ShapedTextOp
from protopress.generators.separation import SeparatedImage, Separation, limited_image

FLAT_FOLDER = Path("<flattened>")  # the names of flattened pictures: never a file
FLAT_DPI = 600  # vector elements and low-resolution art are flattened at this resolution
MAX_FLAT_DPI = 1200  # art finer than this is flattened at this
MAX_FLAT_PIXELS = 64_000_000  # one flattened element (a 250 x 250 mm box at 800 dpi)
# colours without alpha, vector icons: nothing in them is transparent (anything else is probed)
OPAQUE_OPS = (RectOp, LineOp, PolygonOp, TextOp, ShapedTextOp, RichTextOp)


def _has_picture_icons(op: Op) -> bool:
    """Rich text whose inline icons include an image or SVG file: those may be
    see-through, so the text is probed like any other element."""
    return isinstance(op, RichTextOp) and any(icon.image is not None for _, icon in op.icons)


class FlattenRefused(ValueError):
    """An element that PDF/X-1a cannot take and the kit cannot flatten."""


@dataclass(frozen=True)
class _Step:
    """One face inside another on the way to the element: the outer face, the
    index of the FaceOp that draws the inner one, and that FaceOp."""

    face: Face
    index: int
    op: FaceOp


@dataclass(frozen=True)
class _Box:
    x: float
    y: float
    w: float
    h: float


class Flattener:
    """Faces made opaque through one separation (see the module docstring); one
    per PDF/X-1a file. As PdfFaces' prepare it flattens each face (face) and
    hands over the pictures it made (art)."""

    def __init__(self, separation: Separation) -> None:
        self.separation = separation
        self._faces: dict[tuple, Face] = {}
        self._seen: dict[tuple, _Box | None] = {}  # an element in a face's size -> its box
        self._pictures: dict[Path, SeparatedImage] = {}

    def art(self, path: Path) -> SeparatedImage | None:
        """A flattened picture by the name its ImageOp gives (None: not one of them)."""
        return self._pictures.get(path)

    def face(self, face: Face) -> Face:
        """face with every transparent element replaced by an opaque picture."""
        key = (face.name, face.width, face.height, face.ops)
        if key not in self._faces:
            flat = self._flat((), face)
            self._faces[key] = flat
            self._faces[(flat.name, flat.width, flat.height, flat.ops)] = flat
        return self._faces[key]

    def _flat(self, chain: tuple[_Step, ...], face: Face) -> Face:
        ops = list(face.ops)
        for index, op in enumerate(face.ops):
            if isinstance(op, FaceOp):
                inner = self._flat((*chain, _Step(face, index, op)), op.face)
                if inner is not op.face:
                    ops[index] = replace(op, face=inner)
                continue
            box = self._transparent(op, face)
            if box is not None:
                ops[index] = self._picture(chain, face, index, box)
        return replace(face, ops=tuple(ops)) if ops != list(face.ops) else face

    def _transparent(self, op: Op, face: Face) -> _Box | None:
        """The box of what op draws when it draws with transparency, else None."""
        if isinstance(op, OPAQUE_OPS) and not _has_picture_icons(op):
            return None
        if isinstance(op, ImageOp) and op.path in self._pictures:
            return None
        key = (op, face.width, face.height)  # its box is cut to the face
        if key not in self._seen:
            if isinstance(op, ImageOp) and op.art is None:
                found = _image_box(op, face) if _see_through(op.path) else None
            else:
                found = _probe(op, face)
            self._seen[key] = found
        return self._seen[key]

    def _picture(self, chain: tuple[_Step, ...], face: Face, index: int, box: _Box) -> ImageOp:
        """An opaque picture of the face drawn up to and with ops[index], in box."""
        op = face.ops[index]
        dpi = _dpi(op, box)
        scale = 1.0  # of the element's face on the outermost one
        for step in chain:
            scale *= step.op.scale
        pixels = (box.w * dpi / 72) * (box.h * dpi / 72)
        if pixels > MAX_FLAT_PIXELS:
            raise FlattenRefused(
                f"{face.name}: {_element(op, index)} draws with transparency, which PDF/X-1a "
                f"forbids, and flattening its {box.w / 72 * 25.4:.0f} x "
                f"{box.h / 72 * 25.4:.0f} mm at {dpi} dpi would take "
                f"{pixels / 1e6:.0f} megapixels; make it opaque or use --pdfx 4"
            )
        size = (max(1, round(box.w * dpi / 72)), max(1, round(box.h * dpi / 72)))
        beneath, region, turn = _nested(chain, face, face.ops[:index], box, outer_ops=True)
        alone, _, _ = _nested(chain, face, (op,), box, outer_ops=False)
        pictures = []
        for nested, clear in ((beneath, False), (alone, True)):
            image = _rasterised(nested, region, dpi / scale, clear)
            image = image.rotate(turn, expand=True) if turn else image
            resized = image.resize(size, Image.Resampling.LANCZOS) if image.size != size else image
            pictures.append(resized)
        below, element = pictures
        transform = self.separation.transform()
        below_cmyk = _k_only_black(below, transform.apply(below))
        element_cmyk = transform.apply(element.convert("RGB"))
        flat = Image.composite(element_cmyk, below_cmyk, element.getchannel("A"))
        if self.separation.max_ink is not None:  # a print service's limit, as for any art
            flat = limited_image(flat, self.separation.max_ink)
        path = FLAT_FOLDER / f"{hashlib.sha256(flat.tobytes()).hexdigest()[:32]}.cmyk"
        self._pictures.setdefault(path, SeparatedImage(flat, None))
        return ImageOp(path, box.x, box.y, box.w, box.h)


def _k_only_black(rgb: Image.Image, cmyk: Image.Image) -> Image.Image:
    """cmyk with the pure black pixels of rgb printed as 100% K alone, as vector
    black is (separation.py)."""
    red, green, blue = rgb.split()
    black = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(
        lambda level: 255 if level == 0 else 0
    )
    if black.getbbox() is None:
        return cmyk
    return Image.composite(Image.new("CMYK", cmyk.size, (0, 0, 0, 255)), cmyk, black)


def _element(op: Op, index: int) -> str:
    """The element in words, for a message."""
    if isinstance(op, ImageOp):
        return f"the image {op.path.name!r}"
    return f"element {index + 1} ({type(op).__name__.removesuffix('Op').lower()})"


def _see_through(path: Path) -> bool:
    """Whether a raster picture has an alpha channel or a transparent colour that hides any pixel."""
    with open_image(path, path.name) as image:
        if image.mode not in ("RGBA", "LA", "PA") and "transparency" not in image.info:
            return False
        alpha = image.convert("RGBA").getchannel("A")
    lowest = alpha.getextrema()[0]
    return isinstance(lowest, int) and lowest < 255


def _image_box(op: ImageOp, face: Face) -> _Box | None:
    """Where a picture shows: its box, cut to its clip and to the face."""
    x0, y0, x1, y1 = op.x, op.y, op.x + op.w, op.y + op.h
    if op.clip is not None:
        cx, cy, cw, ch = op.clip
        x0, y0, x1, y1 = max(x0, cx), max(y0, cy), min(x1, cx + cw), min(y1, cy + ch)
    x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, face.width), min(y1, face.height)
    return _Box(x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None


PROBE_DPI = 72  # where a probed element draws is found to the point, then widened by one


def _probe(op: Op, face: Face) -> _Box | None:
    """Draw the element alone: transparent when its PDF holds transparency; its
    box is where it leaves paint (rasterised over nothing)."""
    alone = Face("probe", face.width, face.height, 0.0, (op,))
    data = faces_pdf([alone])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if not transparency(pdf):
            return None
    with PDFIUM:
        document = pypdfium2.PdfDocument(data)
        try:
            page = document[0]
            bitmap = page.render(scale=PROBE_DPI / 72, fill_color=(0, 0, 0, 0), rev_byteorder=True)
            painted = bitmap.to_pil().getchannel("A").getbbox()
            bitmap.close()
            page.close()
        finally:
            document.close()
    if painted is None:
        return None
    x0, y0 = max(painted[0] - 1, 0) * 72 / PROBE_DPI, max(painted[1] - 1, 0) * 72 / PROBE_DPI
    x1 = min((painted[2] + 1) * 72 / PROBE_DPI, face.width)
    y1 = min((painted[3] + 1) * 72 / PROBE_DPI, face.height)
    return _Box(x0, y0, x1 - x0, y1 - y0)


def _dpi(op: Op, box: _Box) -> int:
    """A raster picture's own resolution where it is placed (within FLAT_DPI and
    MAX_FLAT_DPI); FLAT_DPI for anything else."""
    if isinstance(op, ImageOp) and op.art is None:
        with open_image(op.path, op.path.name) as image:
            width = image.width
        own = round(width / (op.w / 72)) if op.w > 0 else FLAT_DPI
        return max(FLAT_DPI, min(own, MAX_FLAT_DPI))
    return FLAT_DPI


def _nested(chain: tuple[_Step, ...], face: Face, ops: tuple, box: _Box, outer_ops: bool):
    """The outermost face drawing only ops in the element's face (and, with
    outer_ops, what the outer faces draw before it), the element's box in the
    outermost face's coordinates, and the turn (degrees anticlockwise) that
    brings a picture of that region back upright in the element's face."""
    partial = replace(face, ops=ops)
    corners = [(box.x, box.y), (box.x + box.w, box.y), (box.x, box.y + box.h),
               (box.x + box.w, box.y + box.h)]  # fmt: skip
    turn = 0
    for step in reversed(chain):
        corners = [_outer(step.op, point) for point in corners]
        turn += step.op.turn
        before = step.face.ops[: step.index] if outer_ops else ()
        partial = replace(step.face, ops=(*before, replace(step.op, face=partial)))
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    region = _Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return partial, region, turn % 360


def _outer(op: FaceOp, point: tuple[float, float]) -> tuple[float, float]:
    """A point of op's face in the coordinates of the face that draws it (as
    PdfFaces draws a FaceOp: y down, a quarter turn clockwise for 90)."""
    px, py, s, inner = point[0], point[1], op.scale, op.face
    if op.turn == 90:
        return op.x + s * (inner.height - py), op.y + s * px
    if op.turn == -90:
        return op.x + s * py, op.y + s * (inner.width - px)
    return op.x + s * px, op.y + s * py


def _rasterised(outer: Face, region: _Box, dpi: float, clear: bool) -> Image.Image:
    """The region of the outer face at dpi: over white paper as RGB, or (clear)
    over nothing as RGBA, its alpha what the drawing covers."""
    page = Face("flattened", region.w, region.h, 0.0,
                (FaceOp(outer, -region.x, -region.y),))  # fmt: skip
    data = faces_pdf([page])
    with PDFIUM:
        document = pypdfium2.PdfDocument(data)
        try:
            pdf_page = document[0]
            fill = (0, 0, 0, 0) if clear else (255, 255, 255, 255)
            bitmap = pdf_page.render(scale=dpi / 72, fill_color=fill, rev_byteorder=True)
            image = bitmap.to_pil().convert("RGBA" if clear else "RGB")
            bitmap.close()
            pdf_page.close()
        finally:
            document.close()
    size = (max(1, round(region.w * dpi / 72)), max(1, round(region.h * dpi / 72)))
    return image.crop((0, 0, *size)) if image.size != size else image

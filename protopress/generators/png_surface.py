"""A face as a Pillow image: its PDF drawing, rasterised by PDFium.

There is one renderer: the face is drawn on a PDF page by the same code that
draws the print files, and pypdfium2 rasterises that page. PDF and PNG cannot
disagree (text shaping, inline icons, vector art, fonts). Many faces share one
PDF (a batch): building a PDF and subsetting its fonts once per face cost as
much as rasterising it."""

from __future__ import annotations

import io
import itertools
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from PIL import Image

from protopress.generators.face import Face
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.pdf_surface import FaceCanvas, PdfFaces

if TYPE_CHECKING:
    import pypdfium2


def pixel_size(face: Face, dpi: int) -> tuple[int, int]:
    return round(face.width * dpi / 72), round(face.height * dpi / 72)


PNG_COMPRESS_LEVEL = 1
"""zlib's fastest level: encoding a rasterised face at the default level 6 took
twice as long (24 against 13 ms for a poker card at 300 dpi) for files 11%
smaller, and encoding was two thirds of a PNG export. Pixels are the same."""


def png_bytes(image: Image.Image, dpi: int | None = None) -> bytes:
    """The image as a PNG file (with its resolution when dpi is given)."""
    buffer = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi is not None else {}
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL, **extra)
    return buffer.getvalue()


PDFIUM = threading.Lock()
"""PDFium is not thread-safe, not even across documents: two threads inside it
at once can crash the process (the web pages draw faces from several request
threads at a time, and their server died with SIGTRAP). Every call into
PDFium holds this lock."""

BATCH = 16  # faces per PDF: fonts are subset once per batch, not once per face


def faces_pdf(faces: Sequence[Face]) -> bytes:
    """The faces one to a page, each page the size of its face (bleed included)."""
    buffer = io.BytesIO()
    canvas = FaceCanvas(buffer, pagesize=(faces[0].width, faces[0].height), invariant=1,
                        initialFontName=font(DEFAULT_FONT).name, pageCompression=0)  # fmt: skip
    surface = PdfFaces(canvas)
    for face in faces:
        canvas.setPageSize((face.width, face.height))
        surface.draw(face)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def face_pdf(face: Face) -> bytes:
    """The face alone on a page of its own size (bleed included)."""
    return faces_pdf([face])


def face_images(faces: Iterable[Face], dpi: int = 300) -> Iterator[Image.Image]:
    """Each face at dpi, as face_image draws it, in order, one at a time: the
    faces are drawn BATCH to a PDF and its pages rasterised, so memory holds
    one batch's PDF and one image however many faces there are."""
    import pypdfium2  # loaded by the PNG export only, not by every render

    faces = iter(faces)
    while batch := list(itertools.islice(faces, BATCH)):
        pdf = faces_pdf(batch)
        with PDFIUM:
            document = pypdfium2.PdfDocument(pdf)
        try:
            for index, face in enumerate(batch):
                with PDFIUM:
                    image = _rasterised(document, index, face, dpi)
                yield image
        finally:
            with PDFIUM:
                document.close()


def face_image(face: Face, dpi: int = 300) -> Image.Image:
    """The face at dpi, bleed included, as an RGB image of exactly pixel_size pixels."""
    (image,) = face_images([face], dpi)
    return image


def _rasterised(document: pypdfium2.PdfDocument, index: int, face: Face, dpi: int) -> Image.Image:
    width, height = pixel_size(face, dpi)
    page = document[index]
    try:
        bitmap = page.render(scale=dpi / 72, may_draw_forms=False, rev_byteorder=True)
        rendered = bitmap.to_pil()
        # PDFium rounds the page up to whole pixels; crop copies it out of the bitmap
        image = rendered.convert("RGB") if rendered.mode != "RGB" else rendered
        image = image.crop((0, 0, width, height))
        bitmap.close()
    finally:
        page.close()
    return image

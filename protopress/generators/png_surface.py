"""A face as a Pillow image: its PDF drawing, rasterised by PDFium.

There is one renderer: the face is drawn on a one-page PDF by the same code
that draws the print files, and pypdfium2 rasterises that page. PDF and PNG
cannot disagree (text shaping, inline icons, vector art, fonts)."""

from __future__ import annotations

import io

import pypdfium2
from PIL import Image

from protopress.generators.face import Face
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.pdf_surface import FaceCanvas, PdfFaces


def pixel_size(face: Face, dpi: int) -> tuple[int, int]:
    return round(face.width * dpi / 72), round(face.height * dpi / 72)


def face_pdf(face: Face) -> bytes:
    """The face alone on a page of its own size (bleed included)."""
    buffer = io.BytesIO()
    canvas = FaceCanvas(buffer, pagesize=(face.width, face.height), invariant=1,
                        initialFontName=font(DEFAULT_FONT).name, pageCompression=0)  # fmt: skip
    PdfFaces(canvas).draw(face)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def face_image(face: Face, dpi: int = 300) -> Image.Image:
    """The face at dpi, bleed included, as an RGB image of exactly pixel_size pixels."""
    width, height = pixel_size(face, dpi)
    document = pypdfium2.PdfDocument(face_pdf(face))
    try:
        page = document[0]
        bitmap = page.render(scale=dpi / 72, may_draw_forms=False, rev_byteorder=True)
        rendered = bitmap.to_pil()
        # PDFium rounds the page up to whole pixels; crop copies it out of the bitmap
        image = rendered.convert("RGB") if rendered.mode != "RGB" else rendered
        image = image.crop((0, 0, width, height))
        bitmap.close()
        page.close()
    finally:
        document.close()
    return image

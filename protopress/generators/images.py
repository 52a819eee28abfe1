"""Open card art safely: only formats Pillow decodes in-process, known by content.

Some Pillow plugins hand the file to another program (EPS runs Ghostscript on
the PostScript inside), so an image in a catalog could run code. A file is
accepted only when its first bytes are those of an allowed format, whatever its
name says, and Pillow is only ever allowed to try those formats. SVG is known
by its content too (XML whose first element is `svg`) and drawn as vectors
(svg.py), never through Pillow.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from PIL import Image

__all__ = ["ALLOWED_FORMATS", "ART_FORMATS", "ImageRefused", "format_of", "image_format",
           "open_image", "restrict_pillow"]  # fmt: skip

# what Pillow may decode, and the module of Pillow's that decodes it
_PLUGINS = {"PNG": "PngImagePlugin", "JPEG": "JpegImagePlugin", "WEBP": "WebPImagePlugin",
            "GIF": "GifImagePlugin", "TIFF": "TiffImagePlugin"}  # fmt: skip
ALLOWED_FORMATS = tuple(_PLUGINS)
ART_FORMATS = (*ALLOWED_FORMATS, "SVG")  # what a layout's image may be

# After an optional byte-order mark, XML declaration, comments and doctype, the
# first element is `svg` (with or without a namespace prefix).
_SVG_START = re.compile(
    rb"^(?:\xef\xbb\xbf)?(?:\s+|<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)*"
    rb"<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]",
    re.DOTALL,
)
_SVG_SNIFF_BYTES = 64 * 1024

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
)


def image_format(path: Path) -> str | None:
    """The allowed format (one of ART_FORMATS) the file's content is, else None."""
    with open(path, "rb") as stream:
        head = stream.read(_SVG_SNIFF_BYTES)
    found = format_of(head[:16])
    if found is None and _SVG_START.match(head):
        return "SVG"
    return found


def format_of(head: bytes) -> str | None:
    """The raster format (one of ALLOWED_FORMATS) whose signature starts head."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    for signature, name in _SIGNATURES:
        if head.startswith(signature):
            return name
    return None


class ImageRefused(ValueError):
    """An image that cannot be used, in a message naming it."""


def open_image(path: Path, label: str) -> Image.Image:
    """Open path with Pillow after checking its content is an allowed format.

    Raises ImageRefused naming label (how the catalog or layout names the file).
    """
    found = image_format(path)
    if found is None or found == "SVG":
        raise ImageRefused(
            f"image {label!r} is not a {', '.join(ART_FORMATS)} file (checked from "
            "its content, not its name); refused"
        )
    try:
        return Image.open(path, formats=[found])
    except (OSError, SyntaxError, EOFError, ValueError) as error:  # Pillow's "damaged"
        # ValueError: a text chunk past Pillow's bound on decompressing it (a bomb)
        raise ImageRefused(f"image {label!r} cannot be read: {error}") from None


def restrict_pillow() -> None:
    """Make Pillow try only the allowed formats, for every caller in this process.

    reportlab opens images through Pillow without a format list; with this, no
    other plugin (EPS and its Ghostscript above all) can be reached through it.
    Only the allowed formats' plugins are loaded, and Pillow is told its plugins
    are all loaded (its `_initialized` at 2, as Image.init leaves it), so that it
    never loads the others: Image.init() imported some forty plugins on every
    render's start-up only for all but five to be dropped.
    """
    for plugin in _PLUGINS.values():
        importlib.import_module(f"PIL.{plugin}")
    Image._initialized = 2
    for name in list(Image.ID):
        if name not in ALLOWED_FORMATS:
            Image.ID.remove(name)


restrict_pillow()

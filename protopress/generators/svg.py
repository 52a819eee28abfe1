"""SVG card art as vectors: parsed safely, every reference confined.

svglib turns an SVG into a reportlab Drawing, which the PDF surface draws as
paths (the PNGs rasterise that PDF, so they get the same vectors). Left to
itself svglib would read more than the file: lxml with entities, `<image>` and
`<use>` hrefs to any relative file (other SVGs parsed without limits, rasters
through Pillow), `data:` URIs, and for a `font-family` a TrueType file of that
name or whatever `fc-match` (a program it runs) suggests. Here:

- the file is at most MAX_SVG_BYTES, read once; defusedxml parses it first
  and refuses any DTD (so no entity of any kind: external, or the billion
  laughs), then lxml reads the same bytes with entities, DTDs and network off;
- every `href` (any namespace) is checked before svglib sees the tree: a
  fragment (`#id`) is fine; a relative file must resolve, links followed,
  inside an allowed folder and be a PNG or JPEG by content (not another SVG:
  svglib would parse it outside these checks); a `data:` URI only as a base64
  PNG or JPEG whose bytes say so; any other scheme (http, file) or absolute
  path is refused;
- text is set in the built-in sans family (embedded): no font file is opened
  and no program is run for a family the SVG names;
- `<style>` sheets are read by tinycss2, which never fetches: svglib skips
  at-rules (`@import`, `@font-face`) and only follows `url(#id)`.
"""

from __future__ import annotations

import base64
import binascii
import io
import logging
import math
import re
from pathlib import Path
from xml.etree.ElementTree import ParseError

import defusedxml
import defusedxml.ElementTree
from lxml import etree
from PIL import Image
from reportlab.graphics.shapes import Group
from svglib.fonts import FontMap
from svglib.svglib import SvgRenderer

from protopress.files import read_regular
from protopress.generators.fonts import font
from protopress.generators.images import format_of
from protopress.generators.limits import (
    MAX_SVG_ELEMENTS,
    MAX_SVG_NUMBER,
    MAX_SVG_PIXELS,
    MIN_SVG_SIZE,
)
from protopress.generators.vector_art import VectorArt, drawing_nodes

__all__ = ["MAX_SVG_BYTES", "load_svg"]

MAX_SVG_BYTES = 4 * 1024 * 1024  # card art; far above any icon or illustration
MAX_EMBEDDED_PIXELS = 64_000_000  # as for images drawn directly
EMBEDDED_FORMATS = ("PNG", "JPEG")  # what svglib can embed from an href

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_DATA_IMAGE = re.compile(r"^data:image/(jpe?g|png);base64,")  # as svglib matches it


def load_svg(path: Path, label: str, roots: tuple[Path, ...]) -> VectorArt:
    """The SVG at path (resolved) as vector art; references may only reach
    files under roots. Raises ValueError naming label for anything refused."""
    try:
        data = read_regular(path, MAX_SVG_BYTES)
    except OSError as error:
        raise ValueError(f"image {label!r} cannot be read: {error.strerror or error}") from None
    if len(data) > MAX_SVG_BYTES:
        raise ValueError(
            f"image {label!r} is an SVG over {MAX_SVG_BYTES // (1024 * 1024)} MiB; refused"
        )
    try:
        tree = defusedxml.ElementTree.fromstring(data, forbid_dtd=True)
    except defusedxml.DTDForbidden:
        raise ValueError(
            f"image {label!r}: an SVG with a DTD (<!DOCTYPE ...>) is refused: its entities "
            "could read other files or expand without end"
        ) from None
    except defusedxml.DefusedXmlException as error:
        raise ValueError(f"image {label!r}: refused SVG ({error})") from None
    except ParseError as error:
        raise ValueError(f"image {label!r} is not well-formed XML: {error}") from None
    if _local(tree.tag) != "svg":
        raise ValueError(f"image {label!r}: the root element is <{_local(tree.tag)}>, not <svg>")
    written = sum(1 for _ in tree.iter())
    if written > MAX_SVG_ELEMENTS:
        raise ValueError(_too_many_elements(label, written))
    for element in tree.iter():
        for name, value in element.attrib.items():
            if _local(name) == "href":
                _check_reference(value.strip(), path.parent, roots, label)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True)  # fmt: skip
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as error:
        raise ValueError(f"image {label!r} is not well-formed XML: {error}") from None
    return _render(root, path, label, roots)


def _render(root, path: Path, label: str, roots: tuple[Path, ...]) -> VectorArt:
    notes = _Notes()
    logger = logging.getLogger("svglib")
    logger.addHandler(notes)
    propagate, level = logger.propagate, logger.level
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        renderer = _BoundedRenderer(str(path), font_map=_BuiltinFontsOnly(),
                                    external_reference_root=str(roots[0]))  # fmt: skip
        drawing = renderer.render(root)
    except _TooMuchWork as error:
        raise ValueError(f"image {label!r}: {error}") from None
    except Exception as error:  # svglib's ways of failing on odd input are many and untyped
        raise ValueError(f"image {label!r}: cannot draw the SVG ({error})") from None
    finally:
        logger.removeHandler(notes)
        logger.propagate = propagate
        logger.setLevel(level)
    _embedded_fonts(drawing)
    width, height = float(drawing.width or 0), float(drawing.height or 0)
    if not (width > 0 and height > 0):
        raise ValueError(
            f"image {label!r}: the SVG has no size (give it width and height, or a viewBox)"
        )
    if not (MIN_SVG_SIZE <= width <= MAX_SVG_NUMBER and MIN_SVG_SIZE <= height <= MAX_SVG_NUMBER):
        raise ValueError(
            f"image {label!r}: the SVG is {width:g} x {height:g} pt; its width and height are "
            f"{MIN_SVG_SIZE:g} to {MAX_SVG_NUMBER:g} pt"
        )
    _drawable_numbers(drawing, label)
    return VectorArt(drawing, width, height, tuple(dict.fromkeys(notes.messages)))


def _drawable_numbers(drawing, label: str) -> None:
    """Refuse a number PDF output cannot write (past MAX_SVG_NUMBER, or not finite:
    reportlab fails in C with a message naming no file), and empty the groups whose
    transform is singular (scale(0) draws nothing; reportlab divides by it)."""
    for node in drawing_nodes(drawing):
        transform = getattr(node, "transform", None)
        if isinstance(node, Group) and transform is not None and len(transform) == 6:
            a, b, c, d = (float(value) for value in transform[:4])
            if all(math.isfinite(value) for value in (a, b, c, d)) and a * d - c * b == 0:
                node.contents, node.transform = [], (1, 0, 0, 1, 0, 0)
        for value in vars(node).values():
            found = _first_undrawable(value)
            if found is not None:
                raise ValueError(
                    f"image {label!r}: the SVG holds the number {found:g}; numbers up to "
                    f"{MAX_SVG_NUMBER:g} are drawn"
                )


def _first_undrawable(value) -> float | None:
    """The first number of value (a number, or lists of them) past MAX_SVG_NUMBER."""
    if isinstance(value, list | tuple):
        return next((found for found in map(_first_undrawable, value) if found is not None), None)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return None if abs(value) <= MAX_SVG_NUMBER else float(value)  # NaN too
    return None


def _embedded_fonts(drawing) -> None:
    """Every font a drawing names (svglib puts Helvetica on groups, used or not)
    becomes the built-in sans of the same weight and style, which PDFs embed."""
    drawing.initialFontName = _sans(False, False)  # reportlab's renderer starts with it
    for node in drawing_nodes(drawing):
        name = getattr(node, "fontName", None)
        if isinstance(name, str) and not name.startswith("pp-"):
            bold, italic = "Bold" in name, "Italic" in name or "Oblique" in name
            node.fontName = _sans(bold, italic)


def _sans(bold: bool, italic: bool) -> str:
    return font("sans" + ("-bold" if bold else "") + ("-italic" if italic else "")).name


def _check_reference(href: str, folder: Path, roots: tuple[Path, ...], label: str) -> None:
    """Refuse an href svglib would follow outside what is allowed."""
    if not href or href.startswith("#"):
        return
    refused = f"image {label!r} refers to {_cut(href)!r}"
    if href.lower().startswith("data:"):
        match = _DATA_IMAGE.match(href)
        if match is None:
            raise ValueError(f"{refused}: only base64 PNG and JPEG data is embedded in an SVG")
        try:
            raw = base64.b64decode(href[match.end() :], validate=False)
        except (binascii.Error, ValueError):
            raise ValueError(f"{refused}: its base64 data is damaged") from None
        _check_raster(io.BytesIO(raw), format_of(raw[:16]), refused)
        return
    if _SCHEME.match(href):
        raise ValueError(f"{refused}: only files beside the SVG are read, never a URL")
    iri = href.split("#", 1)[0]
    if Path(iri).is_absolute():
        raise ValueError(f"{refused}: an absolute path; only files beside the SVG are read")
    try:
        target = (folder / iri).resolve()
    except (OSError, RuntimeError) as error:
        raise ValueError(f"{refused}, which cannot be resolved: {error}") from None
    if not any(target.is_relative_to(root) for root in roots):
        raise ValueError(f"{refused}, which lies outside the catalog folder; refused")
    if not target.is_file():
        raise ValueError(f"{refused}, which is not found")
    if target.suffix.lower() in (".svg", ".svgz"):
        raise ValueError(f"{refused}: an SVG does not draw other SVG files")
    with open(target, "rb") as stream:
        head = stream.read(16)
        stream.seek(0)
        _check_raster(stream, format_of(head), refused)


def _check_raster(stream, found: str | None, refused: str) -> None:
    if found not in EMBEDDED_FORMATS:
        raise ValueError(f"{refused}: not a {' or '.join(EMBEDDED_FORMATS)} image by its content")
    try:
        with Image.open(stream, formats=[found]) as image:
            width, height = image.size
    except Image.UnidentifiedImageError:  # its message names the stream, not the image
        raise ValueError(f"{refused}, which cannot be read: not a readable {found}") from None
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        # ValueError: a text chunk past Pillow's bound on decompressing it (a bomb)
        raise ValueError(f"{refused}, which cannot be read: {error}") from None
    if width * height > MAX_EMBEDDED_PIXELS:
        raise ValueError(f"{refused}: {width}x{height} pixels is over 64 megapixels")


class _TooMuchWork(Exception):
    """An SVG past MAX_SVG_ELEMENTS or MAX_SVG_PIXELS while svglib draws it."""


def _too_many_elements(label: str, count: int) -> str:
    return f"image {label!r}: the SVG has {count} elements; at most {MAX_SVG_ELEMENTS}; refused"


class _BoundedRenderer(SvgRenderer):
    """svglib's renderer counting its work as it goes: every element drawn (each
    copy a <use> makes, the runs of a text included) and every pixel of every
    picture it opens (a picture drawn by 50 uses counts 50 times). Past a bound it
    stops (_TooMuchWork) before the next copy or picture is made.

    A <use> itself is not counted, only the copy it draws: svglib stops making
    copies after its own 10,000 expansions, and a use past those draws nothing."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.elements = 0
        self.pixels = 0

    def renderNode(self, node, parent=None) -> None:  # noqa: N802 (svglib's name)
        name = _local(node.etree_element.tag)
        if parent is not None and name != "use":
            self.elements += 1
            if name == "text":  # its tspans are drawn inside
                self.elements += sum(1 for _ in node.etree_element.iterdescendants())
            if self.elements > MAX_SVG_ELEMENTS:
                raise _TooMuchWork(
                    f"the SVG draws more than {MAX_SVG_ELEMENTS} elements (<use> copies and "
                    "text runs counted); refused"
                )
        super().renderNode(node, parent)

    def xlink_href_target(self, node, group=None):
        target = super().xlink_href_target(node, group)
        if isinstance(target, Image.Image):  # opened, not decoded: its size is its header's
            self.pixels += target.size[0] * target.size[1]
            if self.pixels > MAX_SVG_PIXELS:
                raise _TooMuchWork(
                    f"the SVG draws more than {MAX_SVG_PIXELS // 1_000_000} megapixels of "
                    "pictures (each <image> and each <use> of one counted); refused"
                )
        return target


class _BuiltinFontsOnly(FontMap):
    """svglib's font map without its file and fontconfig look-ups: text in an
    SVG is set in the built-in sans family (embedded, like every face's text)
    in the weight and style it asks for, whatever family it names."""

    def find_font(self, font_name, weight="normal", style="normal"):
        weight = str(weight).strip().lower()
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        italic = str(style).strip().lower() in ("italic", "oblique")
        return _sans(bold, italic), True

    def use_fontconfig(self, font_name, weight="normal", style="normal"):
        return None, False  # never runs fc-match


# Elements svglib skips that draw nothing anyway (editor data, descriptions).
_SILENT = {"title", "desc", "metadata", "namedview", "defs"}


class _Notes(logging.Handler):
    """What svglib could not draw (its warnings and errors, and the elements it
    skips), kept for the render's warnings."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            self.messages.append(record.getMessage())
        elif record.msg == "Ignoring node: %s" and isinstance(record.args, tuple) and record.args:
            name = str(record.args[0])
            if name not in _SILENT:
                self.messages.append(f"<{name}> is not supported")


def _local(tag) -> str:
    """An element or attribute name without its namespace."""
    return str(tag).rsplit("}", 1)[-1]


def _cut(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."

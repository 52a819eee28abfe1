"""What each page of a PDF paints, found by walking its content streams
(q/Q/cm followed, drawn Form XObjects walked once each): fonts selected,
colour models used, CMYK inks, placed images and the short strokes that may be
crop marks.

The file's objects are read with pypdf; the content streams' operators are
parsed by qpdf (pikepdf's parser), some thirty times faster than pypdf's
parser in Python, which took most of a preflight's time (and of a
DriveThruCards preset's render, whose total ink preflight checks)."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from decimal import Decimal

import pikepdf
from PIL import Image, ImageMath
from pypdf import PdfReader
from pypdf.errors import PyPdfError

INK_SAMPLES = 1_000_000  # pixels of an image measured for ink; larger images are sampled
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_COLOUR_OPERATORS = {
    b"rg": "RGB",
    b"RG": "RGB",
    b"k": "CMYK",
    b"K": "CMYK",
    b"g": "Gray",
    b"G": "Gray",
}
_COLOUR_SPACES = {
    "/DeviceRGB": "RGB",
    "/RGB": "RGB",
    "/CalRGB": "RGB",
    "/DeviceCMYK": "CMYK",
    "/CMYK": "CMYK",
    "/DeviceGray": "Gray",
    "/G": "Gray",
    "/CalGray": "Gray",
}
_ICC_COMPONENTS = {1: "Gray", 3: "RGB", 4: "CMYK"}
_PATH_BREAKERS = {b"c", b"v", b"y", b"re", b"h"}  # anything but m/l makes a path no mark
_PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"}


@dataclass
class PageScan:
    """What one page draws, its Form XObjects included."""

    fonts: dict = field(default_factory=dict)  # object key -> font dictionary selected by Tf
    colours: dict[str, set[str]] = field(default_factory=dict)  # RGB/CMYK/Gray -> sources
    images: list[tuple[int, int, float, float]] = field(default_factory=list)  # px w, h; pt w, h
    segments: list[tuple[float, float, float, float]] = field(default_factory=list)
    inks: dict[tuple[str, str], float] = field(default_factory=dict)  # (what, where) -> percent
    unmeasured: set[str] = field(default_factory=set)  # CMYK images not decoded here

    def colour(self, model: str | None, source: str) -> None:
        if model is not None:
            self.colours.setdefault(model, set()).add(source)

    def ink(self, percent: float | None, what: str, where: str) -> None:
        """The highest total ink of each painted thing (a colour, an image) in each place."""
        if percent is None:
            self.unmeasured.add(what)
        elif percent > self.inks.get((what, where), -1.0):
            self.inks[(what, where)] = percent


class PageWalker:
    """Scans pages; a form's operations are parsed once however often it is drawn."""

    def __init__(self, reader: PdfReader, *, inks_only: bool = False):
        """inks_only: walk the colour operators alone (and what they depend on: q/Q,
        colour spaces, forms), for the total ink check; the rest of the scan stays empty."""
        self.reader = reader
        self._walked = _INK_OPERATORS if inks_only else _WALKED
        # one stream handed to qpdf's parser, rewritten for each content stream
        self._scratch = pikepdf.new()
        self._parsed = pikepdf.Stream(self._scratch, b"")
        self._forms: dict[int, tuple[object, list]] = {}  # id(form) -> (form, operations)
        self._image_inks: dict[int, tuple[object, float | None]] = {}  # id(image) -> ink

    def scan(self, page) -> PageScan:
        scan = PageScan()
        _group(scan, page, "page")
        operations = self._operations(_contents(page.get("/Contents")))
        resources = resolve(page.get("/Resources"))
        self._walk(scan, operations, resources, _IDENTITY, (), top=True, where="page content")
        return scan

    def _image_ink(self, image) -> float | None:
        if id(image) not in self._image_inks:
            self._image_inks[id(image)] = (image, image_ink(image))
        return self._image_inks[id(image)][1]

    def _form_operations(self, form) -> list:
        if id(form) not in self._forms:
            self._forms[id(form)] = (form, self._operations(form.get_data()))
        return self._forms[id(form)][1]

    def _operations(self, data: bytes) -> list[tuple]:
        """A content stream's (operands, operator) pairs, parsed by qpdf, with the
        operands as plain values (names as strings, numbers as int or float) and an
        inline image's dictionary as its "settings" (keys unabbreviated)."""
        self._parsed.write(data)
        operations: list[tuple] = []
        for instruction in pikepdf.parse_content_stream(self._parsed, self._walked):
            operator = bytes(instruction.operator)
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                settings = _plain(instruction.iimage.obj)
                operations.append(({"settings": settings}, operator))
            else:
                operations.append(([_plain(operand) for operand in instruction.operands], operator))
        return operations

    def _walk(
        self, scan: PageScan, operations, resources, ctm, forms: tuple, *, top: bool, where: str
    ) -> None:
        resources = resources or {}
        saved: list[tuple] = []
        path: list[tuple[float, float, float, float]] = []
        point = None
        simple = True  # the path so far is m/l only
        spaces: dict[str, str | None] = {"fill": None, "stroke": None}  # set by cs and CS
        for operands, operator in operations:
            if operator == b"q":
                saved.append((ctm, dict(spaces)))
            elif operator == b"Q":
                ctm, spaces = saved.pop() if saved else (ctm, spaces)
            elif operator in (b"k", b"K") or (
                operator in _SET_COLOUR and spaces[_SET_COLOUR[operator]] == "CMYK"
            ):
                scan.colour("CMYK", operator.decode())
                if (percent := _ink(operands)) is not None:  # None: a pattern
                    scan.ink(percent, _cmyk_text(operator, operands), where)
            elif operator == b"cm":
                ctm = _multiply(tuple(map(float, operands)), ctm)
            elif operator == b"Tf":
                raw = (entry(resources, "/Font") or {}).get(operands[0])
                if raw is not None:
                    scan.fonts[_key(raw)] = raw.get_object()
            elif operator in _COLOUR_OPERATORS:
                scan.colour(_COLOUR_OPERATORS[operator], operator.decode())
            elif operator in (b"cs", b"CS"):
                model = _model(operands[0], resources)
                spaces["fill" if operator == b"cs" else "stroke"] = model
                scan.colour(model, operator.decode())
            elif operator == b"sh":
                shading = entry(entry(resources, "/Shading") or {}, operands[0])
                scan.colour(_model(entry(shading or {}, "/ColorSpace"), resources), "sh")
            elif operator == b"Do":
                self._draw(scan, operands[0], resources, ctm, forms, where)
            elif operator == b"INLINE IMAGE":
                self._inline_image(scan, operands["settings"], resources, ctm)
            elif operator == b"m":
                point = (float(operands[0]), float(operands[1]))
            elif operator == b"l" and point is not None:
                end = (float(operands[0]), float(operands[1]))
                path.append((*point, *end))
                point = end
            elif operator in _PATH_BREAKERS:
                simple = False
            elif operator in _PAINT:
                if operator == b"S" and simple and top and _is_identity(ctm):
                    scan.segments.extend(path)
                path, point, simple = [], None, True

    def _draw(self, scan: PageScan, name, resources, ctm, forms: tuple, where: str) -> None:
        xobject = entry(entry(resources, "/XObject") or {}, name)
        if xobject is None:
            return
        if xobject.get("/Subtype") == "/Image":
            width, height = entry(xobject, "/Width"), entry(xobject, "/Height")
            _place_image(scan, width, height, ctm)
            model = _model(entry(xobject, "/ColorSpace"), resources)
            scan.colour(model, "image")
            if model == "CMYK":
                scan.ink(self._image_ink(xobject), f"image {name} ({width} x {height} px)", where)
        elif xobject.get("/Subtype") == "/Form" and id(xobject) not in forms:
            matrix = tuple(map(float, entry(xobject, "/Matrix") or _IDENTITY))
            inner = resolve(xobject.get("/Resources")) or resources
            operations = self._form_operations(xobject)
            _group(scan, xobject, f"form {name}")
            self._walk(scan, operations, inner, _multiply(matrix, ctm), (*forms, id(xobject)),
                       top=False, where=f"form {name}")  # fmt: skip

    def _inline_image(self, scan: PageScan, settings, resources, ctm) -> None:
        width = settings.get("/W", settings.get("/Width"))
        height = settings.get("/H", settings.get("/Height"))
        _place_image(scan, width, height, ctm)
        scan.colour(_model(settings.get("/CS", settings.get("/ColorSpace")), resources), "image")


_SET_COLOUR = {b"sc": "fill", b"scn": "fill", b"SC": "stroke", b"SCN": "stroke"}
# The operators _walk reads: qpdf's parser passes these on and drops the rest
# (text showing, line styles...), which the walk would only step over.
_WALKED = " ".join(
    operator.decode()
    for operator in (
        *(b"q", b"Q", b"cm", b"Tf", b"cs", b"CS", b"sh", b"Do", b"m", b"l", b"BI", b"ID", b"EI"),
        *_COLOUR_OPERATORS, *_SET_COLOUR, *_PATH_BREAKERS, *_PAINT,
    )
)  # fmt: skip
_INK_OPERATORS = " ".join(
    operator.decode()
    for operator in (b"q", b"Q", b"cs", b"CS", b"Do", b"BI", b"ID", b"EI", b"k", b"K", *_SET_COLOUR)
)


def _group(scan: PageScan, owner, what: str) -> None:
    """A transparency group blends in its /CS: RGB there is RGB on the press."""
    group = entry(owner, "/Group")
    if group is not None and entry(group, "/S") == "/Transparency" and "/CS" in group:
        scan.colour(_model(entry(group, "/CS"), {}), f"{what} transparency group")


def _ink(operands) -> float | None:
    """C+M+Y+K in percent of four colour operands; None for a pattern or a bad operand."""
    try:
        values = [float(v) for v in operands]
    except (TypeError, ValueError):
        return None
    return sum(values) * 100 if len(values) == 4 else None


def _cmyk_text(operator: bytes, operands) -> str:
    kind = "stroke" if operator.isupper() else "fill"
    try:
        return f"{kind} " + "/".join(f"{float(v) * 100:g}" for v in operands)
    except (TypeError, ValueError):
        return kind


def image_ink(image) -> float | None:
    """The highest C+M+Y+K (percent) among an 8-bit CMYK image's visible pixels
    (a soft mask's fully transparent ones print nothing); None when the image
    cannot be decoded here. Images above INK_SAMPLES pixels are sampled on a
    regular grid (nearest pixel)."""
    try:
        pixels = _decoded(image, "CMYK")
        if pixels is None:
            return None
        pixels = _sampled(pixels)
        total = ImageMath.lambda_eval(
            lambda a: a["c"] + a["m"] + a["y"] + a["k"],
            **dict(zip("cmyk", (band.convert("I") for band in pixels.split()), strict=True)),
        )
        smask = entry(image, "/SMask")
        alpha = _decoded(smask, "L") if smask is not None else None
        if alpha is not None:
            hidden = alpha.resize(pixels.size, Image.Resampling.NEAREST).point(
                lambda v: 255 if v == 0 else 0
            )
            total.paste(0, mask=hidden.convert("1"))
        return total.getextrema()[1] / 255 * 100
    except (OSError, ValueError, PyPdfError):
        return None


def _decoded(image, mode: str) -> Image.Image | None:
    """An 8-bit image XObject's pixels as a Pillow image of mode (CMYK or L)."""
    width, height = entry(image, "/Width"), entry(image, "/Height")
    if entry(image, "/BitsPerComponent") != 8 or not width or not height:
        return None
    filters = entry(image, "/Filter")
    filters = [filters] if isinstance(filters, str) else list(filters or [])
    if filters and filters[-1] == "/DCTDecode":
        jpeg = Image.open(io.BytesIO(image.get_data()), formats=["JPEG"])
        return jpeg if jpeg.mode == mode else None  # Pillow undoes Adobe's inversion
    if any(name not in ("/FlateDecode", "/Fl", "/ASCII85Decode", "/A85") for name in filters):
        return None
    data = image.get_data()
    channels = 4 if mode == "CMYK" else 1
    if len(data) < width * height * channels:
        return None
    picture = Image.frombytes(mode, (width, height), data[: width * height * channels])
    decode = entry(image, "/Decode")
    if decode is not None and [float(v) for v in decode][:2] == [1.0, 0.0]:
        picture = Image.eval(picture, lambda v: 255 - v)
    return picture


def _sampled(picture: Image.Image) -> Image.Image:
    pixels = picture.width * picture.height
    if pixels <= INK_SAMPLES:
        return picture
    factor = math.sqrt(INK_SAMPLES / pixels)
    size = (max(1, int(picture.width * factor)), max(1, int(picture.height * factor)))
    return picture.resize(size, Image.Resampling.NEAREST)


def _place_image(scan: PageScan, width, height, ctm) -> None:
    """The image's unit square goes where the CTM maps it."""
    if width is None or height is None:
        return
    a, b, c, d, _, _ = ctm
    scan.images.append((int(width), int(height), math.hypot(a, b), math.hypot(c, d)))


def _model(space, resources) -> str | None:
    """RGB, CMYK or Gray for a colour space (name or array), None for any other."""
    space = resolve(space)
    if space is None:
        return None
    if isinstance(space, str):
        if space in _COLOUR_SPACES:
            return _COLOUR_SPACES[space]
        named = entry(entry(resources, "/ColorSpace") or {}, space)
        return None if named is None or named == space else _model(named, resources)
    if isinstance(space, list) and space:
        family = space[0]
        if family == "/ICCBased":
            return _ICC_COMPONENTS.get(entry(resolve(space[1]), "/N"))
        if family in ("/Indexed", "/I") and len(space) > 1:
            return _model(space[1], resources)
        return _COLOUR_SPACES.get(family)
    return None


def _multiply(m, n) -> tuple:
    """The matrix product m x n of two PDF matrices (a b c d e f)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def _is_identity(m) -> bool:
    return all(abs(x - y) < 1e-9 for x, y in zip(m, _IDENTITY, strict=True))


def _contents(contents) -> bytes:
    """A page's content: its stream's decoded bytes, or its streams' joined."""
    contents = resolve(contents)
    if contents is None:
        return b""
    if isinstance(contents, list):
        return b"\n".join(resolve(part).get_data() for part in contents)
    return contents.get_data()


def _plain(value):
    """A pikepdf operand as the plain value the walker reads."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, pikepdf.Name):
        return str(value)
    if isinstance(value, pikepdf.Array):
        return [_plain(item) for item in value]
    if isinstance(value, pikepdf.Dictionary):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, pikepdf.String):
        return bytes(value)
    return value


def resolve(value):
    """A pypdf object with its indirect reference followed (plain values as they are)."""
    get_object = getattr(value, "get_object", None)
    return value if get_object is None else get_object()


def entry(dictionary, key):
    return resolve(dictionary.get(key))


def _key(raw):
    """The same font object, however often it is reached."""
    return (raw.idnum, raw.generation) if hasattr(raw, "idnum") else id(raw)

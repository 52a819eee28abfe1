"""Print preflight: what a print shop checks before it prints a PDF. Page
sizes, page boxes, embedded fonts, colour spaces (transparency groups
included), total ink, crop marks on sheets, image resolution and, when asked,
PDF/X identification. The file is read with pypdf; content streams are walked
as pypdf parses them, following q/Q/cm and drawn Form XObjects."""

from __future__ import annotations

import io
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from PIL import Image, ImageMath
from pypdf import PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import ContentStream

from protopress.files import NotRegularFile, open_regular
from protopress.generators.units import INCH, MM, to_mm

MIN_DPI = 300
MAX_INK = 300.0  # percent: total of C+M+Y+K a sheet-fed offset press takes on coated stock
INK_SAMPLES = 1_000_000  # pixels of an image measured for ink; larger images are sampled
MARK_MAX_LENGTH = 20 * MM  # a longer stroke is not a crop mark
EXPECT = {"cmyk": "RGB", "rgb": "CMYK"}  # expected colour model -> the one that fails
_TOLERANCE = 0.1  # points: boxes and mark coordinates this close are equal
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
_MODELS = ("RGB", "CMYK", "Gray")
_SIDES = (
    ("top", "bottom", "x"),
    ("bottom", "top", "x"),
    ("left", "right", "y"),
    ("right", "left", "y"),
)
_PATH_BREAKERS = {b"c", b"v", b"y", b"re", b"h"}  # anything but m/l makes a path no mark
_PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"}


@dataclass(frozen=True)
class PreflightCheck:
    name: str  # pages, page boxes, fonts, colours, crop marks, images
    ok: bool
    message: str
    page: int | None = None  # 1-based; None for a whole-file line

    def __str__(self) -> str:
        where = "" if self.page is None else f" page {self.page}"
        return f"{'PASS' if self.ok else 'FAIL'} {self.name}{where}: {self.message}"

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class PreflightReport:
    file: str
    pages: int
    checks: list[PreflightCheck]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def __str__(self) -> str:
        return "\n".join(map(str, self.checks))

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "pages": self.pages,
            "ok": self.ok,
            "checks": [check.to_json() for check in self.checks],
        }


def preflight(
    path: str | Path,
    *,
    expect: str | None = None,
    require_crop_marks: bool = False,
    min_dpi: float = MIN_DPI,
    max_ink: float = MAX_INK,
    pdfx: bool = False,
) -> PreflightReport:
    """Check the PDF at path. expect "cmyk" fails on RGB colour, "rgb" on CMYK;
    max_ink (percent) bounds C+M+Y+K of every fill, stroke and image pixel;
    pdfx checks the PDF/X identification and output intent, and expects CMYK."""
    if expect is not None and expect not in EXPECT:
        raise ValueError(f"expect must be one of {', '.join(EXPECT)}, not {expect!r}")
    if pdfx and expect == "rgb":
        raise ValueError("a PDF/X file of this kit is CMYK: --pdfx with --expect rgb contradicts")
    expect = "cmyk" if pdfx else expect
    limits = _Limits(min_dpi, max_ink, pdfx, require_crop_marks)
    with _open_pdf(path) as stream:
        try:
            return _check(path, PdfReader(stream), expect, limits)
        except (OSError, PyPdfError) as error:  # a limit pypdf enforces (a flate bomb) included
            raise ValueError(f"{path}: cannot read the PDF ({error})") from None
        except Exception as error:  # pypdf raises anything on damaged data
            message = f"{type(error).__name__}: {error}"
            raise ValueError(f"{path}: cannot read the PDF ({message})") from None


MAX_PDF_BYTES = 256 * 1024 * 1024  # a print file with its art; /dev/zero or a sparse GiB is not


def _open_pdf(path: str | Path):
    """The PDF opened for reading: a regular file of at most MAX_PDF_BYTES (a FIFO
    would hang pypdf, /dev/zero and huge files would fill the memory)."""
    try:
        stream = open_regular(path)
    except NotRegularFile as error:
        raise ValueError(
            f"{path}: cannot read the PDF ({error.kind}, not a regular file)"
        ) from None
    size = os.fstat(stream.fileno()).st_size
    if size > MAX_PDF_BYTES:
        stream.close()
        limit = MAX_PDF_BYTES // (1024 * 1024)
        raise ValueError(f"{path}: the PDF is larger than {limit} MiB; refused unread")
    return stream


@dataclass(frozen=True)
class _Limits:
    min_dpi: float
    max_ink: float
    pdfx: bool
    require_crop_marks: bool


def _check(path, reader: PdfReader, expect, limits: _Limits) -> PreflightReport:
    pages = list(reader.pages)
    if not pages:
        return PreflightReport(str(path), 0, [PreflightCheck("pages", False, "no pages")])
    walker = _Walker(reader)
    scans = [walker.scan(page) for page in pages]
    checks = [
        _page_sizes(pages),
        *_page_boxes(pages),
        *_fonts(scans),
        *_colours(scans, expect),
        *_inks(scans, limits.max_ink),
        *_crop_marks(
            pages,
            scans,
            limits.require_crop_marks,
            back_pages(reader),
            labelled_pages(reader, ASSEMBLY_LABELS),
        ),
        *_images(scans, limits.min_dpi),
        *(pdfx_checks(reader, pages) if limits.pdfx else ()),
    ]
    return PreflightReport(str(path), len(pages), checks)


# --- walking content streams -------------------------------------------------------------


@dataclass
class _Scan:
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


class _Walker:
    """Scans pages; a form's operations are parsed once however often it is drawn."""

    def __init__(self, reader: PdfReader):
        self.reader = reader
        self._forms: dict[int, tuple[object, list]] = {}  # id(form) -> (form, operations)
        self._image_inks: dict[int, tuple[object, float | None]] = {}  # id(image) -> ink

    def scan(self, page) -> _Scan:
        scan = _Scan()
        _group(scan, page, "page")
        operations = ContentStream(page.get("/Contents"), self.reader).operations
        resources = _resolve(page.get("/Resources"))
        self._walk(scan, operations, resources, _IDENTITY, (), top=True, where="page content")
        return scan

    def _image_ink(self, image) -> float | None:
        if id(image) not in self._image_inks:
            self._image_inks[id(image)] = (image, image_ink(image))
        return self._image_inks[id(image)][1]

    def _form_operations(self, form) -> list:
        if id(form) not in self._forms:
            self._forms[id(form)] = (form, ContentStream(form, self.reader).operations)
        return self._forms[id(form)][1]

    def _walk(
        self, scan: _Scan, operations, resources, ctm, forms: tuple, *, top: bool, where: str
    ) -> None:
        resources = resources or {}
        saved: list[tuple] = []
        path: list[tuple[float, float, float, float]] = []
        point = None
        simple = True  # the path so far is m/l only
        spaces = {"fill": None, "stroke": None}  # colour models set by cs and CS
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
                raw = (_get(resources, "/Font") or {}).get(operands[0])
                if raw is not None:
                    scan.fonts[_key(raw)] = raw.get_object()
            elif operator in _COLOUR_OPERATORS:
                scan.colour(_COLOUR_OPERATORS[operator], operator.decode())
            elif operator in (b"cs", b"CS"):
                model = _model(operands[0], resources)
                spaces["fill" if operator == b"cs" else "stroke"] = model
                scan.colour(model, operator.decode())
            elif operator == b"sh":
                shading = _get(_get(resources, "/Shading") or {}, operands[0])
                scan.colour(_model(_get(shading or {}, "/ColorSpace"), resources), "sh")
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

    def _draw(self, scan: _Scan, name, resources, ctm, forms: tuple, where: str) -> None:
        xobject = _get(_get(resources, "/XObject") or {}, name)
        if xobject is None:
            return
        if xobject.get("/Subtype") == "/Image":
            width, height = _get(xobject, "/Width"), _get(xobject, "/Height")
            _place_image(scan, width, height, ctm)
            model = _model(_get(xobject, "/ColorSpace"), resources)
            scan.colour(model, "image")
            if model == "CMYK":
                scan.ink(self._image_ink(xobject), f"image {name} ({width} x {height} px)", where)
        elif xobject.get("/Subtype") == "/Form" and id(xobject) not in forms:
            matrix = tuple(map(float, _get(xobject, "/Matrix") or _IDENTITY))
            inner = _resolve(xobject.get("/Resources")) or resources
            operations = self._form_operations(xobject)
            _group(scan, xobject, f"form {name}")
            self._walk(scan, operations, inner, _multiply(matrix, ctm), (*forms, id(xobject)),
                       top=False, where=f"form {name}")  # fmt: skip

    def _inline_image(self, scan: _Scan, settings, resources, ctm) -> None:
        width = settings.get("/W", settings.get("/Width"))
        height = settings.get("/H", settings.get("/Height"))
        _place_image(scan, width, height, ctm)
        scan.colour(_model(settings.get("/CS", settings.get("/ColorSpace")), resources), "image")


_SET_COLOUR = {b"sc": "fill", b"scn": "fill", b"SC": "stroke", b"SCN": "stroke"}


def _group(scan: _Scan, owner, what: str) -> None:
    """A transparency group blends in its /CS: RGB there is RGB on the press."""
    group = _get(owner, "/Group")
    if group is not None and _get(group, "/S") == "/Transparency" and "/CS" in group:
        scan.colour(_model(_get(group, "/CS"), {}), f"{what} transparency group")


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
        smask = _get(image, "/SMask")
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
    width, height = _get(image, "/Width"), _get(image, "/Height")
    if _get(image, "/BitsPerComponent") != 8 or not width or not height:
        return None
    filters = _get(image, "/Filter")
    filters = [filters] if isinstance(filters, str) else list(filters or [])
    if filters and filters[-1] == "/DCTDecode":
        picture = Image.open(io.BytesIO(image.get_data()), formats=["JPEG"])
        return picture if picture.mode == mode else None  # Pillow undoes Adobe's inversion
    if any(name not in ("/FlateDecode", "/Fl", "/ASCII85Decode", "/A85") for name in filters):
        return None
    data = image.get_data()
    channels = 4 if mode == "CMYK" else 1
    if len(data) < width * height * channels:
        return None
    picture = Image.frombytes(mode, (width, height), data[: width * height * channels])
    decode = _get(image, "/Decode")
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


def _place_image(scan: _Scan, width, height, ctm) -> None:
    """The image's unit square goes where the CTM maps it."""
    if width is None or height is None:
        return
    a, b, c, d, _, _ = ctm
    scan.images.append((int(width), int(height), math.hypot(a, b), math.hypot(c, d)))


def _model(space, resources) -> str | None:
    """RGB, CMYK or Gray for a colour space (name or array), None for any other."""
    space = _resolve(space)
    if space is None:
        return None
    if isinstance(space, str):
        if space in _COLOUR_SPACES:
            return _COLOUR_SPACES[space]
        named = _get(_get(resources, "/ColorSpace") or {}, space)
        return None if named is None or named == space else _model(named, resources)
    if isinstance(space, list) and space:
        family = space[0]
        if family == "/ICCBased":
            return _ICC_COMPONENTS.get(_get(_resolve(space[1]), "/N"))
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


def _resolve(value):
    return None if value is None else value.get_object()


def _get(dictionary, key):
    return _resolve(dictionary.get(key))


def _key(raw):
    """The same font object, however often it is reached."""
    return (raw.idnum, raw.generation) if hasattr(raw, "idnum") else id(raw)


# --- the checks ---------------------------------------------------------------------------


def _page_sizes(pages) -> PreflightCheck:
    sizes: dict[str, int] = {}
    for page in pages:
        box = page.mediabox
        size = f"{_mm(float(box.width))} x {_mm(float(box.height))} mm"
        sizes[size] = sizes.get(size, 0) + 1
    if len(sizes) == 1:
        listing = next(iter(sizes))
    else:
        listing = ", ".join(f"{size} ({count})" for size, count in sizes.items())
    return PreflightCheck("pages", True, f"{_count(len(pages), 'page')}: {listing}")


def _page_boxes(pages) -> list[PreflightCheck]:
    """Per-card pages (with a TrimBox): TrimBox inside BleedBox inside MediaBox."""
    checks, cards = [], 0
    for number, page in enumerate(pages, 1):
        if "/TrimBox" not in page:
            continue
        cards += 1
        missing = [name for name in ("MediaBox", "BleedBox") if f"/{name}" not in page]
        for name in missing:
            checks.append(PreflightCheck("page boxes", False, f"TrimBox but no {name}", number))
        if missing:
            continue
        boxes = {name: _box(page[f"/{name}"]) for name in ("MediaBox", "BleedBox", "TrimBox")}
        for inner, outer in (("TrimBox", "BleedBox"), ("BleedBox", "MediaBox")):
            if not _inside(boxes[inner], boxes[outer]):
                message = (
                    f"{inner} {_mm_box(boxes[inner])} is not inside {outer} {_mm_box(boxes[outer])}"
                )
                checks.append(PreflightCheck("page boxes", False, message, number))
    if not checks:
        if cards:
            message = f"TrimBox inside BleedBox inside MediaBox on {_count(cards, 'page')}"
        else:
            message = "no TrimBox on any page (sheets)"
        checks.append(PreflightCheck("page boxes", True, message))
    return checks


def _fonts(scans: list[_Scan]) -> list[PreflightCheck]:
    checks, seen = [], {}
    for number, scan in enumerate(scans, 1):
        seen.update(scan.fonts)
        missing = sorted({_font_name(font) for font in scan.fonts.values() if not _embedded(font)})
        for name in missing:
            checks.append(PreflightCheck("fonts", False, f"font '{name}' is not embedded", number))
    if not checks:
        message = f"{_count(len(seen), 'font')}, all embedded" if seen else "no fonts"
        checks.append(PreflightCheck("fonts", True, message))
    return checks


def _embedded(font) -> bool:
    """Type3 glyphs are drawings in the file; a Type0 font is its descendant."""
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        descendants = _get(font, "/DescendantFonts") or []
        if not descendants:
            return False
        font = _resolve(descendants[0])
    descriptor = _get(font, "/FontDescriptor")
    return descriptor is not None and any(
        key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def _font_name(font) -> str:
    return str(font.get("/BaseFont", "/(unnamed)")).lstrip("/")


def _colours(scans: list[_Scan], expect: str | None) -> list[PreflightCheck]:
    checks, used = [], set()
    forbidden = EXPECT.get(expect)
    for number, scan in enumerate(scans, 1):
        used.update(scan.colours)
        if forbidden in scan.colours:
            sources = ", ".join(sorted(scan.colours[forbidden]))
            message = f"{forbidden} used ({sources}) where {expect.upper()} is expected"
            checks.append(PreflightCheck("colours", False, message, number))
    if not checks:
        message = ", ".join(m for m in _MODELS if m in used) or "no colour set"
        if expect:
            message += f" (expected {expect.upper()})"
        checks.append(PreflightCheck("colours", True, message))
    return checks


def _inks(scans: list[_Scan], limit: float) -> list[PreflightCheck]:
    """Total ink (C+M+Y+K) of every CMYK fill, stroke and image within limit percent."""
    checks, highest, unmeasured = [], None, set()
    for number, scan in enumerate(scans, 1):
        unmeasured |= scan.unmeasured
        for (what, where), percent in sorted(scan.inks.items()):
            highest = percent if highest is None else max(highest, percent)
            if round(percent, 1) > limit:
                message = f"{what} in {where}: {percent:.0f}% total ink, more than {limit:g}%"
                checks.append(PreflightCheck("ink", False, message, number))
    if not checks:
        if highest is not None:
            message = f"highest {highest:.0f}%"
        else:
            message = "nothing measured" if unmeasured else "no CMYK colour"
        message += f" (limit {limit:g}%"
        if unmeasured:  # JPEG 2000, 16-bit or indexed CMYK images: not decoded here
            message += f"; {_count(len(unmeasured), 'CMYK image')} not measured"
        checks.append(PreflightCheck("ink", True, message + ")"))
    return checks


PDFX_VERSIONS = ("PDF/X-4", "PDF/X-1a:2001", "PDF/X-1a:2003", "PDF/X-3:2002", "PDF/X-3:2003")


def pdfx_checks(reader: PdfReader, pages) -> list[PreflightCheck]:
    """PDF/X: a known GTS_PDFXVersion, Trapped set, an output intent whose embedded
    profile is a CMYK output profile, and a TrimBox (or ArtBox) on every page."""
    from protopress.generators.separation import check_profile

    checks = []
    info = reader.metadata or {}
    version = str(info.get("/GTS_PDFXVersion", "")) or _xmp_pdfx_version(reader)
    if version in PDFX_VERSIONS:
        checks.append(PreflightCheck("pdf/x", True, f"identified as {version}"))
    else:
        found = f"GTS_PDFXVersion {version!r}" if version else "no GTS_PDFXVersion"
        checks.append(PreflightCheck("pdf/x", False, f"{found} in Info or XMP metadata"))
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        checks.append(PreflightCheck("pdf/x", False, "Info /Trapped is not /True or /False"))
    intents = [_resolve(i) for i in _get(reader.trailer["/Root"], "/OutputIntents") or []]
    intents = [i for i in intents if i is not None and _get(i, "/S") == "/GTS_PDFX"]
    if not intents:
        checks.append(PreflightCheck("pdf/x", False, "no /GTS_PDFX OutputIntent"))
    else:
        intent = intents[0]
        condition = str(_get(intent, "/OutputConditionIdentifier") or "")
        stream = _get(intent, "/DestOutputProfile")
        if stream is None:
            message = f"OutputIntent {condition!r} embeds no profile (DestOutputProfile)"
            checks.append(PreflightCheck("pdf/x", False, message))
        else:
            try:
                profile = check_profile("the OutputIntent's profile", stream.get_data(), condition)
            except ValueError as error:
                checks.append(PreflightCheck("pdf/x", False, str(error)))
            else:
                message = f"OutputIntent {condition} with the CMYK profile '{profile.description}'"
                checks.append(PreflightCheck("pdf/x", True, message))
    for number, page in enumerate(pages, 1):
        if "/TrimBox" not in page and "/ArtBox" not in page:
            checks.append(PreflightCheck("pdf/x", False, "no TrimBox or ArtBox", number))
    return checks


def _xmp_pdfx_version(reader: PdfReader) -> str:
    try:
        metadata = reader.xmp_metadata
    except (PyPdfError, ValueError, KeyError):
        return ""
    if metadata is None:
        return ""
    nodes = metadata.rdf_root.getElementsByTagNameNS(
        "http://www.npes.org/pdfx/ns/id/", "GTS_PDFXVersion"
    )
    return nodes[0].firstChild.data.strip() if nodes and nodes[0].firstChild else ""


BACK_LABEL = "back "  # page labels of duplex back pages start with this ("back 3")


TILE_LABEL = "tile "  # the pages of a board tiled across the paper ("tile B2")
MAP_LABEL = "map"  # a tiled board's page map
BOX_LABEL = "tuck box"  # a tuck box's die-line
ASSEMBLY_LABELS = (TILE_LABEL, MAP_LABEL, BOX_LABEL)  # pages with marks of their own


def back_pages(reader: PdfReader) -> set[int]:
    """The 1-based numbers of duplex back pages, known by their page labels
    (protopress labels sheet pages "front N" and "back N")."""
    return labelled_pages(reader, (BACK_LABEL,))


def labelled_pages(reader: PdfReader, prefixes: tuple[str, ...]) -> set[int]:
    """The 1-based numbers of the pages whose label starts with one of prefixes."""
    try:
        labels = reader.page_labels
    except (PyPdfError, KeyError, TypeError, ValueError):
        return set()
    return {number for number, label in enumerate(labels, 1) if label.startswith(prefixes)}


def _crop_marks(
    pages,
    scans: list[_Scan],
    required: bool,
    backs: set[int] = frozenset(),
    assembly: set[int] = frozenset(),
) -> list[PreflightCheck]:
    """Sheets (pages without TrimBox): every trim line marked on both sides.
    Duplex back pages (see :func:`back_pages`) carry no marks by design; the
    pages of a tiled board and a tuck box's die-line carry marks of their own."""
    checks, failed, sheets, marked, unmarked, unmarked_backs = [], False, 0, 0, [], []
    for number, (page, scan) in enumerate(zip(pages, scans, strict=True), 1):
        if not is_sheet(page):
            continue
        if number in assembly:
            sheets += 1
            continue
        sheets += 1
        problems = _mark_problems(scan.segments, page.mediabox)
        if problems is None and number in backs:
            unmarked_backs.append(number)
        elif problems is None:
            if required:
                checks.append(PreflightCheck("crop marks", False, "no crop marks", number))
                failed = True
            else:
                unmarked.append(number)
        elif problems:
            checks.extend(PreflightCheck("crop marks", False, p, number) for p in problems)
            failed = True
        else:
            marked += 1
    if not sheets:
        checks.append(PreflightCheck("crop marks", True, "no sheets (every page has a TrimBox)"))
    elif marked and not failed:
        message = f"{_count(marked, 'sheet')} marked at every trim corner"
        checks.insert(0, PreflightCheck("crop marks", True, message))
    if unmarked:
        pages_list = ", ".join(map(str, unmarked))
        message = f"no crop marks on {_count(len(unmarked), 'sheet')} (page {pages_list})"
        checks.append(PreflightCheck("crop marks", True, message))
    if assembly:
        message = (
            f"{_count(len(assembly), 'page')} of a tiled board or a tuck box: alignment "
            "marks and die-lines, not sheet crop marks"
        )
        checks.append(PreflightCheck("crop marks", True, message))
    if unmarked_backs:
        pages_list = ", ".join(map(str, unmarked_backs))
        message = (
            f"no crop marks on {_count(len(unmarked_backs), 'duplex back page')}, "
            f"as intended (page {pages_list})"
        )
        checks.append(PreflightCheck("crop marks", True, message))
    return checks


def is_sheet(page) -> bool:
    """A page cut up by hand: no TrimBox, or one that is the whole paper (PDF/X
    sheets carry TrimBox = MediaBox, as PDF/X wants a TrimBox on every page)."""
    if "/TrimBox" not in page:
        return True
    return all(
        abs(a - b) < _TOLERANCE
        for a, b in zip(_box(page["/TrimBox"]), _box(page.mediabox), strict=True)
    )


def _mark_problems(segments, media) -> list[str] | None:
    """None when the page has no marks, else the missing ones (empty: complete).

    Marks are short straight strokes: vertical ones above and below the
    marked area, horizontal ones left and right of it; the area spans the
    marks' own coordinates. Positions are reported in mm from the top left."""
    vertical, horizontal = [], []  # (position, low end, high end)
    long_vertical, long_horizontal = [], []
    for x0, y0, x1, y1 in segments:
        short = math.hypot(x1 - x0, y1 - y0) <= MARK_MAX_LENGTH
        if abs(x1 - x0) < _TOLERANCE and y0 != y1:
            (vertical if short else long_vertical).append((x0, min(y0, y1), max(y0, y1)))
        elif abs(y1 - y0) < _TOLERANCE and x0 != x1:
            (horizontal if short else long_horizontal).append((y0, min(x0, x1), max(x0, x1)))
    # a mark stands alone: a tick ending on a longer line (a ruler's) is not one
    vertical = [v for v in vertical if not _ends_on(v, long_horizontal)]
    horizontal = [h for h in horizontal if not _ends_on(h, long_vertical)]
    if not vertical or not horizontal:
        return None  # without both there is no marked area to place marks around
    left_x, right_x = min(v[0] for v in vertical), max(v[0] for v in vertical)
    low_y, high_y = min(h[0] for h in horizontal), max(h[0] for h in horizontal)
    top = [x for x, low, _ in vertical if low >= high_y - _TOLERANCE]
    left = [y for y, _, high in horizontal if high <= left_x + _TOLERANCE]
    # A cut's far end may be marked inside the area, beside an empty slot of a
    # part-filled sheet: a short stroke inside on a line marked at the top (or
    # left) counts as its bottom (or right) mark; other strokes inside are art.
    sides = {
        "top": top,
        "bottom": [
            x
            for x, low, high in vertical
            if high <= low_y + _TOLERANCE or (low < high_y - _TOLERANCE and _on(x, top))
        ],
        "left": left,
        "right": [
            y
            for y, low, high in horizontal
            if low >= right_x - _TOLERANCE or (high > left_x + _TOLERANCE and _on(y, left))
        ],
    }
    if not any(sides.values()):
        return None
    problems = []
    if not sides["top"] and not sides["bottom"]:
        problems.append("no vertical crop marks above or below the marked area")
    if not sides["left"] and not sides["right"]:
        problems.append("no horizontal crop marks left or right of the marked area")
    for side, other, axis in _SIDES:
        for position in _distinct(sides[other]):
            if not any(abs(position - p) < _TOLERANCE for p in sides[side]):
                at = position - float(media.left) if axis == "x" else float(media.top) - position
                problems.append(f"{side} crop mark missing at {axis} = {_mm(at)} mm")
    return problems


def _on(position: float, positions: list[float]) -> bool:
    return any(abs(position - p) < _TOLERANCE for p in positions)


def _ends_on(segment, across) -> bool:
    """Whether an end of segment lies on one of the perpendicular lines across."""
    position, low, high = segment
    return any(
        abs(end - at) < _TOLERANCE and start - _TOLERANCE <= position <= stop + _TOLERANCE
        for at, start, stop in across
        for end in (low, high)
    )


def _images(scans: list[_Scan], min_dpi: float) -> list[PreflightCheck]:
    checks, count, lowest = [], 0, math.inf
    for number, scan in enumerate(scans, 1):
        for pixels_wide, pixels_high, wide, high in scan.images:
            if wide <= 0 or high <= 0:
                continue
            dpi = min(pixels_wide / (wide / INCH), pixels_high / (high / INCH))
            count, lowest = count + 1, min(lowest, dpi)
            if round(dpi) < min_dpi:
                message = (
                    f"image {pixels_wide} x {pixels_high} px placed at {_mm(wide)} x {_mm(high)} mm"
                    f" is {round(dpi)} dpi; at least {min_dpi:g} needed"
                )
                checks.append(PreflightCheck("images", False, message, number))
    if not checks:
        message = f"{_count(count, 'image')}, lowest {round(lowest)} dpi" if count else "no images"
        checks.append(PreflightCheck("images", True, message))
    return checks


# --- small helpers ------------------------------------------------------------------------


def _box(array) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in array)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _inside(inner, outer) -> bool:
    return (
        inner[0] >= outer[0] - _TOLERANCE
        and inner[1] >= outer[1] - _TOLERANCE
        and inner[2] <= outer[2] + _TOLERANCE
        and inner[3] <= outer[3] + _TOLERANCE
    )


def _distinct(positions: list[float]) -> list[float]:
    result: list[float] = []
    for position in sorted(positions):
        if not result or position - result[-1] >= _TOLERANCE:
            result.append(position)
    return result


def _mm(points: float) -> str:
    return f"{round(to_mm(points), 1) + 0.0:g}"


def _mm_box(box) -> str:
    return "[" + ", ".join(_mm(v) for v in box) + "] mm"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"

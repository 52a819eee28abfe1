"""The checks other than crop marks: page sizes, page boxes, embedded fonts,
colour models, total ink, image resolution and PDF/X identification."""

from __future__ import annotations

import math
from collections.abc import Mapping
from xml.dom.minidom import CharacterData

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from protopress.generators.preflight.report import (
    PreflightCheck,
    box_of,
    inside,
    mm,
    mm_box,
)
from protopress.generators.preflight.scan import PageScan, entry, resolve
from protopress.generators.units import INCH
from protopress.words import plural

MIN_DPI = 300
MAX_INK = 300.0  # percent: total of C+M+Y+K a sheet-fed offset press takes on coated stock
EXPECT = {"cmyk": "RGB", "rgb": "CMYK"}  # expected colour model -> the one that fails
_MODELS = ("RGB", "CMYK", "Gray")


def page_sizes(pages) -> PreflightCheck:
    sizes: dict[str, int] = {}
    for page in pages:
        box = page.mediabox
        size = f"{mm(float(box.width))} x {mm(float(box.height))} mm"
        sizes[size] = sizes.get(size, 0) + 1
    if len(sizes) == 1:
        listing = next(iter(sizes))
    else:
        listing = ", ".join(f"{size} ({count})" for size, count in sizes.items())
    return PreflightCheck("pages", True, f"{plural(len(pages), 'page')}: {listing}")


def page_boxes(pages) -> list[PreflightCheck]:
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
        boxes = {name: box_of(page[f"/{name}"]) for name in ("MediaBox", "BleedBox", "TrimBox")}
        for inner, outer in (("TrimBox", "BleedBox"), ("BleedBox", "MediaBox")):
            if not inside(boxes[inner], boxes[outer]):
                message = (
                    f"{inner} {mm_box(boxes[inner])} is not inside {outer} {mm_box(boxes[outer])}"
                )
                checks.append(PreflightCheck("page boxes", False, message, number))
    if not checks:
        if cards:
            message = f"TrimBox inside BleedBox inside MediaBox on {plural(cards, 'page')}"
        else:
            message = "no TrimBox on any page (sheets)"
        checks.append(PreflightCheck("page boxes", True, message))
    return checks


def fonts(scans: list[PageScan]) -> list[PreflightCheck]:
    checks, seen = [], {}
    for number, scan in enumerate(scans, 1):
        seen.update(scan.fonts)
        missing = sorted({_font_name(font) for font in scan.fonts.values() if not _embedded(font)})
        for name in missing:
            checks.append(PreflightCheck("fonts", False, f"font '{name}' is not embedded", number))
    if not checks:
        message = f"{plural(len(seen), 'font')}, all embedded" if seen else "no fonts"
        checks.append(PreflightCheck("fonts", True, message))
    return checks


def _embedded(font) -> bool:
    """Type3 glyphs are drawings in the file; a Type0 font is its descendant."""
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        descendants = entry(font, "/DescendantFonts") or []
        if not descendants:
            return False
        font = resolve(descendants[0])
    descriptor = entry(font, "/FontDescriptor")
    return descriptor is not None and any(
        key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def _font_name(font) -> str:
    return str(font.get("/BaseFont", "/(unnamed)")).lstrip("/")


def colours(scans: list[PageScan], expect: str | None) -> list[PreflightCheck]:
    checks: list[PreflightCheck] = []
    used: set[str] = set()
    expected = (expect or "").upper()
    forbidden = EXPECT.get(expect or "")
    for number, scan in enumerate(scans, 1):
        used.update(scan.colours)
        if forbidden in scan.colours:
            sources = ", ".join(sorted(scan.colours[forbidden]))
            message = f"{forbidden} used ({sources}) where {expected} is expected"
            checks.append(PreflightCheck("colours", False, message, number))
    if not checks:
        message = ", ".join(m for m in _MODELS if m in used) or "no colour set"
        if expect:
            message += f" (expected {expected})"
        checks.append(PreflightCheck("colours", True, message))
    return checks


def inks(scans: list[PageScan], limit: float) -> list[PreflightCheck]:
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
            message += f"; {plural(len(unmeasured), 'CMYK image')} not measured"
        checks.append(PreflightCheck("ink", True, message + ")"))
    return checks


PDFX_VERSIONS = ("PDF/X-4", "PDF/X-1a:2001", "PDF/X-1a:2003", "PDF/X-3:2002", "PDF/X-3:2003")
X1_VERSION = "PDF/X-1:2001"  # X-1a:2001 and X-1a:2003 files: the conformance key says which
X1A_CONFORMANCES = ("PDF/X-1a:2001", "PDF/X-1a:2003")
X1A_HIGHEST_PDF = "1.4"  # X-1a:2003 files are PDF 1.3 or 1.4


def pdfx(reader: PdfReader, pages) -> list[PreflightCheck]:
    """PDF/X: a known GTS_PDFXVersion, Trapped set, an output intent whose embedded
    profile is a CMYK output profile, and a TrimBox (or ArtBox) on every page."""
    from protopress.generators.separation import check_profile

    checks = []
    info: Mapping[str, object] = reader.metadata or {}
    version = str(info.get("/GTS_PDFXVersion", "")) or _xmp_pdfx_version(reader)
    conformance = str(info.get("/GTS_PDFXConformance", ""))
    if version == X1_VERSION and conformance in X1A_CONFORMANCES:
        checks.append(PreflightCheck("pdf/x", True, f"identified as {conformance} ({version})"))
        checks.extend(_x1a(reader))
    elif version == X1_VERSION:
        found = f"GTS_PDFXConformance {conformance!r}" if conformance else "no GTS_PDFXConformance"
        checks.append(PreflightCheck("pdf/x", False, f"{version} with {found} in Info"))
    elif version in PDFX_VERSIONS:
        checks.append(PreflightCheck("pdf/x", True, f"identified as {version}"))
    else:
        found = f"GTS_PDFXVersion {version!r}" if version else "no GTS_PDFXVersion"
        checks.append(PreflightCheck("pdf/x", False, f"{found} in Info or XMP metadata"))
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        checks.append(PreflightCheck("pdf/x", False, "Info /Trapped is not /True or /False"))
    intents = [resolve(i) for i in entry(reader.trailer["/Root"], "/OutputIntents") or []]
    intents = [i for i in intents if i is not None and entry(i, "/S") == "/GTS_PDFX"]
    if not intents:
        checks.append(PreflightCheck("pdf/x", False, "no /GTS_PDFX OutputIntent"))
    else:
        intent = intents[0]
        condition = str(entry(intent, "/OutputConditionIdentifier") or "")
        stream = entry(intent, "/DestOutputProfile")
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


def _x1a(reader: PdfReader) -> list[PreflightCheck]:
    """What PDF/X-1a adds: PDF 1.3 or 1.4, and no transparency anywhere (soft
    masks, opacity below 1, blend modes)."""
    checks = []
    header = reader.pdf_header.removeprefix("%PDF-")
    if header > X1A_HIGHEST_PDF:
        checks.append(PreflightCheck("pdf/x", False, f"PDF {header}; PDF/X-1a is PDF 1.3 or 1.4"))
    found = set()
    for generation in reader.xref.values():
        for number in generation:
            try:
                obj = reader.get_object(number)
            except (PyPdfError, ValueError, KeyError):
                continue
            found.update(_transparent(obj))
    for what in sorted(found):
        checks.append(PreflightCheck("pdf/x", False, f"{what}; PDF/X-1a allows no transparency"))
    if not checks:
        checks.append(PreflightCheck("pdf/x", True, f"PDF {header}, no transparency"))
    return checks


def _transparent(obj) -> set[str]:
    """What makes a dictionary (a stream's, an ExtGState's) transparent, in words."""
    if not isinstance(obj, Mapping):
        return set()
    found = set()
    for value in obj.values():  # direct dictionaries inside (an ExtGState in Resources)
        if isinstance(value, Mapping):
            found.update(_transparent(value))
    if str(obj.get("/SMask", "/None")) != "/None":
        found.add("a soft mask")
    for key in ("/CA", "/ca"):
        value = obj.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 1:
            found.add(f"an opacity of {float(value):g} ({key[1:]})")
    if str(obj.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
        found.add(f"the blend mode {obj.get('/BM')}")
    return found


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
    text = nodes[0].firstChild if nodes else None
    return text.data.strip() if isinstance(text, CharacterData) else ""


def images(scans: list[PageScan], min_dpi: float) -> list[PreflightCheck]:
    checks, count, lowest = [], 0, math.inf
    for number, scan in enumerate(scans, 1):
        for pixels_wide, pixels_high, wide, high in scan.images:
            if wide <= 0 or high <= 0:
                continue
            dpi = min(pixels_wide / (wide / INCH), pixels_high / (high / INCH))
            count, lowest = count + 1, min(lowest, dpi)
            if round(dpi) < min_dpi:
                message = (
                    f"image {pixels_wide} x {pixels_high} px placed at {mm(wide)} x {mm(high)} mm"
                    f" is {round(dpi)} dpi; at least {min_dpi:g} needed"
                )
                checks.append(PreflightCheck("images", False, message, number))
    if not checks:
        message = f"{plural(count, 'image')}, lowest {round(lowest)} dpi" if count else "no images"
        checks.append(PreflightCheck("images", True, message))
    return checks

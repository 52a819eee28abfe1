"""PDF/X-4 (ISO 15930-7) or PDF/X-1a:2003 (ISO 15930-4) from a CMYK PDF that
reportlab wrote, with pikepdf.

PDF/X-4 rather than X-1a: card art keeps its soft mask (transparency), which
X-1a forbids and would have to be flattened; X-4 also allows the ICC-based
colour every press RIP of the last fifteen years reads. What this adds to the
file: the OutputIntent with the CMYK profile embedded, the Info and XMP
identification (GTS_PDFXVersion, title, dates, Trapped, document ids),
TrimBox and BleedBox on every page (a sheet's trim is its paper), transparency
groups blended in CMYK, and PDF 1.6. Fonts are embedded by the renderer.

PDF/X-1a:2003 is what some card printers (DriveThruCards) ask for: the same
output intent, Info and boxes, identified as GTS_PDFXVersion "PDF/X-1:2001"
with GTS_PDFXConformance "PDF/X-1a:2003", in a PDF 1.3 file without object or
cross-reference streams. It allows no transparency: the faces are flattened
before they are drawn (flatten.py), and a file that still holds a soft mask,
an alpha below 1, a blend mode, a transparency group's blending, ICC-based
or RGB colour, or optional content is refused here rather than written.

Dates are the renderer's own (SOURCE_DATE_EPOCH when set, else reportlab's
fixed invariant date), and ids are derived from the content, so the bytes stay
the same for the same inputs.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import uuid

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from protopress.generators.separation import CmykProfile
from protopress.generators.standards import PdfxStandard

PDFX_VERSION = "PDF/X-4"
X1A_VERSION = "PDF/X-1:2001"  # X-1a:2003 keeps the X-1 version key and adds a conformance
X1A_CONFORMANCE = "PDF/X-1a:2003"
REGISTRY = "http://www.color.org"
PDF_VERSION = "1.6"  # the lowest PDF/X-4 allows
X1A_PDF_VERSION = "1.3"
PRODUCER = "protopress (reportlab, pikepdf)"


class PdfxRefused(ValueError):
    """The file cannot be the PDF/X asked for (what stands in the way, in words)."""


def to_pdfx(data: bytes, profile: CmykProfile, standard: PdfxStandard = PdfxStandard.X4) -> bytes:
    """The PDF data as PDF/X (X-4 or X-1a:2003) with profile as its output intent.

    Raises PdfxRefused when an X-1a file would keep what X-1a forbids."""
    x1a = standard is PdfxStandard.X1A
    version = X1A_VERSION if x1a else PDFX_VERSION
    ids = uuid.UUID(bytes=hashlib.sha256(data + profile.digest.encode()).digest()[:16])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        info = pdf.docinfo
        title = str(info.get("/Title", "")) or "untitled"
        created = _date(info.get("/CreationDate"))
        modified = _date(info.get("/ModDate")) or created
        pdf.Root.OutputIntents = Array([_output_intent(pdf, profile)])
        for page in pdf.pages:
            _boxes(page)
            _cmyk_group(page.obj, x1a)
        for xobject in _forms(pdf):
            _cmyk_group(xobject, x1a)
        if x1a:
            _refuse_x1a(pdf)
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
            xmp["dc:title"] = title
            xmp["xmp:CreatorTool"] = str(info.get("/Creator", "protopress"))
            xmp["pdf:Producer"] = PRODUCER
            xmp["pdf:Trapped"] = "False"
            xmp["pdfxid:GTS_PDFXVersion"] = version
            if x1a:
                xmp["pdfx:GTS_PDFXConformance"] = X1A_CONFORMANCE
            xmp["xmpMM:DocumentID"] = f"uuid:{ids}"
            xmp["xmpMM:InstanceID"] = f"uuid:{ids}"
            xmp["xmpMM:VersionID"] = "1"
            xmp["xmpMM:RenditionClass"] = "default"
            if created:
                xmp["xmp:CreateDate"] = created.isoformat()
                xmp["xmp:ModifyDate"] = (modified or created).isoformat()
                xmp["xmp:MetadataDate"] = (modified or created).isoformat()
        info["/Title"] = String(title)
        info["/Producer"] = String(PRODUCER)
        info["/Trapped"] = Name("/False")
        info["/GTS_PDFXVersion"] = String(version)
        if x1a:
            info["/GTS_PDFXConformance"] = String(X1A_CONFORMANCE)
        out = io.BytesIO()
        if x1a:  # PDF 1.3: a classic cross-reference table, no object streams
            pdf.save(out, force_version=X1A_PDF_VERSION, deterministic_id=True,
                     object_stream_mode=pikepdf.ObjectStreamMode.disable)  # fmt: skip
        else:
            pdf.save(out, min_version=PDF_VERSION, deterministic_id=True)
    return out.getvalue()


def transparency(pdf: pikepdf.Pdf) -> list[str]:
    """What in the file makes it transparent, in words (empty: nothing): soft
    masks, constant alpha below 1, blend modes other than Normal."""
    found: set[str] = set()
    for obj in _dictionaries(pdf):
        smask = obj.get("/SMask")
        if smask is not None and not _is_name(smask, "/None"):
            found.add("a soft mask (an image's or a graphics state's alpha)")
        for key in ("/CA", "/ca"):
            alpha = _number(obj.get(key))
            if alpha is not None and alpha < 1:
                found.add(f"an opacity below 1 ({key[1:]} {alpha:g})")
        blend = obj.get("/BM")
        if blend is not None and not (_is_name(blend, "/Normal") or _is_name(blend, "/Compatible")):
            found.add(f"the blend mode {blend}")
    return sorted(found)


def _refuse_x1a(pdf: pikepdf.Pdf) -> None:
    """Refuse what PDF/X-1a:2003 forbids and the kit cannot take out."""
    found = transparency(pdf)
    for obj in _dictionaries(pdf):
        for value in obj.values():
            if isinstance(value, pikepdf.Array) and len(value) and _is_name(value[0], "/ICCBased"):
                found.append("an ICC-based colour space")
            elif any(_is_name(value, name) for name in ("/DeviceRGB", "/CalRGB", "/Lab")):
                found.append(f"{value} colour")
    if "/OCProperties" in pdf.Root:
        found.append("optional content (layers)")
    if found:
        raise PdfxRefused(f"PDF/X-1a allows no {', '.join(sorted(set(found)))} (use --pdfx 4)")


def _dictionaries(pdf: pikepdf.Pdf):
    """Every dictionary of the file (a stream's included), direct ones inside too."""
    stack: list = list(pdf.objects)
    seen: set[tuple[int, int]] = set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            if obj.is_indirect:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
            yield obj
            stack.extend(v for v in obj.values() if _direct(v))
        elif isinstance(obj, pikepdf.Array):
            stack.extend(v for v in obj if _direct(v))


def _direct(value) -> bool:
    return isinstance(value, (pikepdf.Dictionary, pikepdf.Array)) and not value.is_indirect


def _is_name(value, name: str) -> bool:
    return isinstance(value, pikepdf.Name) and value == Name(name)


def _number(value) -> float | None:
    """A PDF number as a float; None for anything else (absent included)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _output_intent(pdf: pikepdf.Pdf, profile: CmykProfile) -> Dictionary:
    icc = pikepdf.Stream(pdf, profile.data)
    icc.N = 4
    return Dictionary(
        Type=Name.OutputIntent,
        S=Name.GTS_PDFX,
        OutputConditionIdentifier=String(profile.condition),
        OutputCondition=String(profile.description),
        Info=String(profile.description),
        RegistryName=String(REGISTRY),
        DestOutputProfile=pdf.make_indirect(icc),
    )


def _boxes(page: pikepdf.Page) -> None:
    """Every PDF/X page needs a TrimBox; a sheet is trimmed to its paper."""
    media = page.obj.MediaBox
    if "/TrimBox" not in page.obj:
        page.obj.TrimBox = Array(list(media))
    if "/BleedBox" not in page.obj:
        page.obj.BleedBox = Array(list(page.obj.TrimBox))


def _cmyk_group(obj, x1a: bool) -> None:
    """A transparency group blends in the output's colour space, not in RGB;
    X-1a has no transparency groups (PDF 1.4), so they go."""
    group = obj.get("/Group")
    if group is not None and group.get("/S") == Name.Transparency:
        if x1a:
            del obj["/Group"]
        else:
            group.CS = Name.DeviceCMYK


def _forms(pdf: pikepdf.Pdf):
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == Name.Form:
            yield obj


def _date(value) -> datetime.datetime | None:
    """A PDF date (D:YYYYMMDDHHmmSS+HH'mm') as an aware datetime."""
    if value is None:
        return None
    try:
        return pikepdf.models.metadata.decode_pdf_date(str(value))
    except ValueError:
        return None

"""PDF/X-4 (ISO 15930-7) from a CMYK PDF that reportlab wrote, with pikepdf.

PDF/X-4 rather than X-1a: card art keeps its soft mask (transparency), which
X-1a forbids and would have to be flattened; X-4 also allows the ICC-based
colour every press RIP of the last fifteen years reads. What this adds to the
file: the OutputIntent with the CMYK profile embedded, the Info and XMP
identification (GTS_PDFXVersion, title, dates, Trapped, document ids),
TrimBox and BleedBox on every page (a sheet's trim is its paper), transparency
groups blended in CMYK, and PDF 1.6. Fonts are embedded by the renderer.

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

PDFX_VERSION = "PDF/X-4"
REGISTRY = "http://www.color.org"
PDF_VERSION = "1.6"  # the lowest PDF/X-4 allows
PRODUCER = "protopress (reportlab, pikepdf)"


def to_pdfx(data: bytes, profile: CmykProfile) -> bytes:
    """The PDF data as PDF/X-4 with profile as its output intent."""
    ids = uuid.UUID(bytes=hashlib.sha256(data + profile.digest.encode()).digest()[:16])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        info = pdf.docinfo
        title = str(info.get("/Title", "")) or "untitled"
        created = _date(info.get("/CreationDate"))
        modified = _date(info.get("/ModDate")) or created
        pdf.Root.OutputIntents = Array([_output_intent(pdf, profile)])
        for page in pdf.pages:
            _boxes(page)
            _cmyk_group(page.obj)
        for xobject in _forms(pdf):
            _cmyk_group(xobject)
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
            xmp["dc:title"] = title
            xmp["xmp:CreatorTool"] = str(info.get("/Creator", "protopress"))
            xmp["pdf:Producer"] = PRODUCER
            xmp["pdf:Trapped"] = "False"
            xmp["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION
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
        info["/GTS_PDFXVersion"] = String(PDFX_VERSION)
        out = io.BytesIO()
        pdf.save(out, min_version=PDF_VERSION, deterministic_id=True)
    return out.getvalue()


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


def _cmyk_group(obj) -> None:
    """A transparency group blends in the output's colour space, not in RGB."""
    group = obj.get("/Group")
    if group is not None and group.get("/S") == Name.Transparency:
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

"""Print preflight: what a print shop checks before it prints a PDF. Page
sizes, page boxes, embedded fonts, colour spaces (transparency groups
included), total ink, crop marks on sheets, image resolution and, when asked,
PDF/X identification. The file is read with pypdf; content streams are parsed
by qpdf (pikepdf) and walked following q/Q/cm and drawn Form XObjects."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from protopress.files import NotRegularFile, open_regular
from protopress.generators.page_labels import BACK_LABEL, BOX_LABEL, MAP_LABEL, TILE_LABEL
from protopress.generators.preflight import checks, marks
from protopress.generators.preflight.checks import EXPECT, MAX_INK, MIN_DPI
from protopress.generators.preflight.report import PreflightCheck, PreflightReport
from protopress.generators.preflight.scan import PageWalker

__all__ = [
    "BACK_LABEL",
    "BOX_LABEL",
    "MAP_LABEL",
    "TILE_LABEL",
    "PreflightCheck",
    "PreflightReport",
    "ink_checks",
    "preflight",
]

T = TypeVar("T")


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
    return _read(path, lambda reader: _check(path, reader, expect, limits))


def ink_checks(path: str | Path, max_ink: float = MAX_INK) -> list[PreflightCheck]:
    """preflight's total ink lines alone, as preflight(path, max_ink=...) gives them:
    what a print service's preset checks in each file it writes, without the
    other checks (the pages' colour operators alone are parsed)."""

    def inks(reader: PdfReader) -> list[PreflightCheck]:
        walker = PageWalker(reader, inks_only=True)
        return checks.inks([walker.scan(page) for page in reader.pages], max_ink)

    return _read(path, inks)


def _read(path: str | Path, check: Callable[[PdfReader], T]) -> T:
    """check of the PDF at path, read with pypdf; ValueError naming the file when it
    cannot be read."""
    with _open_pdf(path) as stream:
        try:
            return check(PdfReader(stream))
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
    walker = PageWalker(reader)
    scans = [walker.scan(page) for page in pages]
    lines = [
        checks.page_sizes(pages),
        *checks.page_boxes(pages),
        *checks.fonts(scans),
        *checks.colours(scans, expect),
        *checks.inks(scans, limits.max_ink),
        *marks.crop_marks(
            pages,
            scans,
            limits.require_crop_marks,
            marks.back_pages(reader),
            marks.labelled_pages(reader, marks.ASSEMBLY_LABELS),
        ),
        *checks.images(scans, limits.min_dpi),
        *(checks.pdfx(reader, pages) if limits.pdfx else ()),
    ]
    return PreflightReport(str(path), len(pages), lines)

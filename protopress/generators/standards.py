"""The PDF/X standards a render can write (``--pdfx 4``, ``--pdfx 1a``).

A light module of its own: the render's options name the standard without
loading what writes it (pdfx.py, pikepdf)."""

from __future__ import annotations

from enum import Enum


class PdfxStandard(Enum):
    """PDF/X-4 (ISO 15930-7): transparency and ICC colour allowed, PDF 1.6.
    PDF/X-1a:2003 (ISO 15930-4): CMYK only, no transparency, PDF 1.3; what
    DriveThruCards and many older press workflows ask for."""

    X4 = "4"
    X1A = "1a"

    @property
    def title(self) -> str:
        """The standard as people name it."""
        return "PDF/X-4" if self is PdfxStandard.X4 else "PDF/X-1a:2003"

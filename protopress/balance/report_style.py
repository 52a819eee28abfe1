"""The balance report's page and look: the A4 page and its margins, the colours
both its text and its charts use, and the paragraph styles over the kit's embedded
fonts. report.py lays the report out with them; report_charts.py draws with them."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily

from protopress.generators.fonts import font

PAGE = A4
MARGIN = 18 * mm
WIDTH = PAGE[0] - 2 * MARGIN
INK = colors.Color(0.15, 0.15, 0.18)
GREY = colors.Color(0.55, 0.55, 0.6)
ALT = colors.Color(0.85, 0.5, 0.2)


class Styles:
    """The report's fonts (registered as one family) and paragraph styles."""

    def __init__(self):
        sans, bold = font("sans").name, font("sans-bold").name
        italic, bold_italic = font("sans-italic").name, font("sans-bold-italic").name
        registerFontFamily(sans, normal=sans, bold=bold, italic=italic, boldItalic=bold_italic)
        self.sans, self.bold = sans, bold
        base = {"fontName": sans, "textColor": INK}
        self.title = ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, textColor=INK)
        self.h2 = ParagraphStyle(
            "h2",
            fontName=bold,
            fontSize=12.5,
            leading=16,
            spaceBefore=10,
            spaceAfter=4,
            textColor=INK,
            keepWithNext=1,  # a heading never ends a page
        )
        self.body = ParagraphStyle("body", fontSize=9.5, leading=13, spaceAfter=3, **base)
        self.small = ParagraphStyle(
            "small", fontSize=8, leading=10.5, textColor=GREY, fontName=sans
        )
        self.bullet = ParagraphStyle(
            "bullet",
            fontSize=10.5,
            leading=14.5,
            leftIndent=12,
            bulletIndent=2,
            spaceAfter=2,
            bulletFontName=sans,
            **base,
        )
        self.cell = ParagraphStyle("cell", fontSize=8, leading=10, **base)

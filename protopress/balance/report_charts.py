"""The balance report's charts, as reportlab.graphics drawings: a distribution's
histogram (with its mean and labelled marks such as difficulty targets), rates
from 0 to 100% with their 95% whiskers and a reference line, and horizontal bars
of win-rate differences about zero with their whiskers. Text is drawn in the
report's embedded fonts (Styles), so a chart draws the same every time."""

from __future__ import annotations

import math

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from protopress.balance.report_style import ALT, GREY, INK, WIDTH, Styles

LIGHT = colors.Color(0.9, 0.9, 0.92)
BAR = colors.Color(0.27, 0.45, 0.7)
FLAG = colors.Color(0.78, 0.2, 0.2)


def _text(drawing, x, y, text, st, size=6.5, anchor="start", colour=GREY, bold=False) -> None:
    name = st.bold if bold else st.sans
    drawing.add(
        String(x, y, text, fontName=name, fontSize=size, textAnchor=anchor, fillColor=colour)
    )


def _line(drawing, x1, y1, x2, y2, colour=INK, width=0.6, dash=None) -> None:
    drawing.add(Line(x1, y1, x2, y2, strokeColor=colour, strokeWidth=width, strokeDashArray=dash))


def _nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` ticks."""
    raw = span / ticks if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def histogram_chart(
    d: dict,
    title: str,
    st: Styles,
    colour=BAR,
    width: float = WIDTH / 2 - 6,
    height: float = 124,
    marks=(),
) -> Drawing:
    """Bars of a distribution's histogram, its mean dashed, optional marks (value, label)."""
    bins = d.get("histogram") or []
    left, bottom, top = 26, 16, height - 30
    plot_w = width - left - 8
    lo, hi = (bins[0]["low"], bins[-1]["high"]) if bins else (0, 1)
    span = (hi - lo) or 1

    def x(value):
        return left + (value - lo) / span * plot_w

    labels = mark_rows([(x(v), f"{label} {v:g}") for v, label in marks if lo <= v <= hi], st)
    rows = 1 + max((row for _, _, row in labels), default=0)
    drawing = Drawing(width, height + MARK_ROW * (rows - 1), initialFontName=st.sans, hAlign="LEFT")
    _text(drawing, 0, drawing.height - 10, title, st, size=8.5, colour=INK, bold=True)
    plot_h = top - bottom
    if not bins:
        return drawing
    peak = max(b["count"] for b in bins) or 1
    for b in bins:
        if b["count"]:
            w = max(0.4, x(b["high"]) - x(b["low"]) - 0.8)
            h = b["count"] / peak * plot_h
            drawing.add(Rect(x(b["low"]) + 0.4, bottom, w, h, fillColor=colour, strokeColor=None))
    _line(drawing, left, bottom, left + plot_w, bottom)
    _line(drawing, left, bottom, left, top)
    _text(drawing, left - 3, top - 3, str(peak), st, anchor="end")
    _text(drawing, left - 3, bottom - 2, "0", st, anchor="end")
    every = max(1, -(-len(bins) // 6))
    for i in range(0, len(bins) + 1, every):
        edge = bins[i]["low"] if i < len(bins) else hi
        _text(drawing, x(edge), bottom - 9, _axis_label(edge), st, anchor="middle")
    if d.get("mean") is not None:
        mx = x(d["mean"])
        _line(drawing, mx, bottom, mx, top + 4, width=0.8, dash=[2, 2])
        _text(drawing, mx, top + 6, f"mean {d['mean']:.1f}", st, anchor="middle", colour=INK)
    for at, text, row in labels:
        _line(drawing, at, bottom, at, top + 12 + MARK_ROW * row, colour=FLAG, width=0.5)
        _text(drawing, at, top + 14 + MARK_ROW * row, text, st, size=5.5, anchor="middle",
              colour=FLAG)  # fmt: skip
    return drawing


MARK_ROW = 7  # points between rows of mark labels


def mark_rows(marks: list[tuple[float, str]], st: Styles) -> list[tuple[float, str, int]]:
    """Each mark label (x, text) with the lowest row where it overlaps no label before it."""
    ends: list[float] = []  # per row: where its last label ends
    placed = []
    for at, text in sorted(marks):
        half = stringWidth(text, st.sans, 5.5) / 2 + 2
        row = next((r for r, end in enumerate(ends) if at - half > end), len(ends))
        if row == len(ends):
            ends.append(0.0)
        ends[row] = at + half
        placed.append((at, text, row))
    return placed


def _axis_label(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e5 else f"{value:.3g}"


def rate_chart(
    items: list[tuple],
    st: Styles,
    reference: float | None = None,
    reference_label: str = "",
    width: float = WIDTH,
    height: float = 116,
) -> Drawing:
    """Bars of rates (label, rate, low, high, highlighted), 0 to 100%, with 95% whiskers."""
    drawing = Drawing(width, height, initialFontName=st.sans, hAlign="LEFT")
    left, bottom, top = 30, 16, height - 14
    plot_w, plot_h = width - left - 72, top - bottom

    def y(rate):
        return bottom + rate * plot_h

    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        _line(drawing, left, y(tick), left + plot_w, y(tick), colour=LIGHT, width=0.5)
        _text(drawing, left - 3, y(tick) - 2, f"{tick:.0%}", st, anchor="end")
    slot = plot_w / max(1, len(items))
    bar = min(46, slot * 0.6)
    for i, (label, rate, low, high, highlighted) in enumerate(items):
        cx = left + slot * (i + 0.5)
        if rate is not None:
            fill = FLAG if highlighted else BAR
            drawing.add(
                Rect(cx - bar / 2, bottom, bar, rate * plot_h, fillColor=fill, strokeColor=None)
            )
        if low is not None and high is not None:
            _line(drawing, cx, y(low), cx, y(high), width=0.9)
            for value in (low, high):
                _line(drawing, cx - 4, y(value), cx + 4, y(value), width=0.9)
        if rate is not None:
            above = y(high if high is not None else rate) + 3
            _text(
                drawing,
                cx,
                above,
                f"{rate:.0%}",
                st,
                size=7,
                anchor="middle",
                colour=INK,
                bold=True,
            )
        _text(drawing, cx, bottom - 10, str(label)[:24], st, size=7, anchor="middle", colour=INK)
    if reference is not None:
        _line(
            drawing,
            left,
            y(reference),
            left + plot_w,
            y(reference),
            colour=ALT,
            width=0.9,
            dash=[3, 2],
        )
        _text(
            drawing,
            left + plot_w + 4,
            y(reference) - 2,
            f"{reference_label} {reference:.0%}",
            st,
            colour=ALT,
        )
    return drawing


def difference_chart(items: list[dict], st: Styles, width: float = WIDTH) -> Drawing:
    """Horizontal bars of win-rate differences (points) with 95% whiskers about zero."""
    row, top_pad, bottom_pad, label_w = 11, 6, 26, 150
    height = top_pad + bottom_pad + row * len(items)
    drawing = Drawing(width, height, initialFontName=st.sans, hAlign="LEFT")
    plot_l, plot_r = label_w + 6, width - 10
    extent = max(max(abs(e["low"]), abs(e["high"])) for e in items)
    extent = max(0.05, min(1.0, extent * 1.05))
    step = _nice_step(extent, 3)

    def x(value):
        return plot_l + (value + extent) / (2 * extent) * (plot_r - plot_l)

    base, roof = bottom_pad, height - top_pad
    tick = -math.floor(extent / step) * step
    while tick <= extent + 1e-9:
        _line(drawing, x(tick), base, x(tick), roof, colour=LIGHT, width=0.5)
        label = f"{tick * 100:+g}" if abs(tick) > 1e-9 else "0"
        _text(drawing, x(tick), base - 9, label.replace("-", "\u2212"), st, anchor="middle")
        tick += step
    _line(drawing, x(0), base, x(0), roof, width=0.7)
    for i, e in enumerate(items):
        cy = roof - row * (i + 0.5)
        start, end = sorted((x(0), x(e["difference"])))
        fill = FLAG if e["flagged"] else BAR
        drawing.add(
            Rect(start, cy - 3.5, max(0.5, end - start), 7, fillColor=fill, strokeColor=None)
        )
        _line(drawing, x(e["low"]), cy, x(e["high"]), cy, width=0.7)
        for value in (e["low"], e["high"]):
            _line(drawing, x(value), cy - 2.5, x(value), cy + 2.5, width=0.7)
        _text(drawing, label_w, cy - 2.5, str(e["id"])[:34], st, size=7, anchor="end", colour=INK)
    _text(
        drawing,
        (plot_l + plot_r) / 2,
        base - 19,
        "win rate of seats that used it minus that of the other seats at their table (percentage points)",
        st,
        anchor="middle",
    )
    return drawing

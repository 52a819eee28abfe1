"""Baseline of render_sheets.py and faces.py: the same poker cards drawn straight onto
a reportlab canvas, 3 x 3 per A4 page with crop marks, no forms, no layout, the same
TrueType fonts embedded.

The cards' texts, icon outlines and font files come from a JSON file the
calling benchmark writes (`render_sheets.bare_spec`). Prints the process's
seconds from its first line (imports included), the best drawing time of
--repeats, the peak traced memory of one more drawing with --trace, and the
peak resident memory.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402  (the clock starts before the imports: a whole process is timed)
import io  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

from report import report  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.utils import simpleSplit  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

MM = 72 / 25.4


def draw(folder: Path, cards: int, spec: dict) -> None:
    for name in ("regular", "bold"):
        if f"bare-{name}" not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(f"bare-{name}", spec["fonts"][name]))
    regular, bold = "bare-regular", "bare-bold"
    width, height = A4
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=regular)
    slot_w, slot_h, bleed = 69 * MM, 94 * MM, 3 * MM
    left, top = 10.5 * MM - bleed, 16.5 * MM - bleed
    size = 10 * MM
    icons = [[[(x * size, y * size) for x, y in c] for c in shape] for shape in spec["icons"]]
    for n in range(cards):
        index = n % 9
        x = left + (index % 3) * (slot_w - 2 * bleed)
        y = height - top - (index // 3 + 1) * (slot_h - 2 * bleed) - 2 * bleed
        canvas.setFillColorRGB(0.95, 0.93, 0.86)
        canvas.rect(x, y, slot_w, slot_h, stroke=0, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(bold, 12)
        canvas.drawString(x + 8 * MM, y + slot_h - 15 * MM, f"Card {n}")
        for text, points, offset in ((spec["body"], 9, 40), (spec["rule"], 8, 66)):
            canvas.setFont(regular, points)
            for line_no, line in enumerate(simpleSplit(text, regular, points, 53 * MM)):
                canvas.drawString(
                    x + 8 * MM, y + slot_h - offset * MM - line_no * points * 1.2, line
                )
        canvas.setFillColorRGB(0.53, 0.27, 0.13)
        for number, contours in enumerate(icons):
            path = canvas.beginPath()
            for contour in contours:
                ox, oy = x + (11 + number * 13) * MM, y + slot_h - 21 * MM
                path.moveTo(ox + contour[0][0], oy - contour[0][1])
                for px, py in contour[1:]:
                    path.lineTo(ox + px, oy - py)
                path.close()
            canvas.drawPath(path, stroke=0, fill=1)
        if index == 8 or n == cards - 1:
            canvas.setLineWidth(0.25)
            for k in range(4):
                mx = 10.5 * MM + k * 63 * MM
                canvas.line(mx, height - 8.5 * MM, mx, height - 12.5 * MM)
                canvas.line(mx, 8.5 * MM, mx, 12.5 * MM)
                my = height - (16.5 * MM + k * 88 * MM)
                canvas.line(2.5 * MM, my, 6.5 * MM, my)
                canvas.line(width - 6.5 * MM, my, width - 2.5 * MM, my)
            canvas.showPage()
    canvas.save()
    (folder / "bare.pdf").write_bytes(buffer.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("spec", type=Path)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--trace", action="store_true", help="also trace one drawing's memory")
    args = parser.parse_args()
    spec = json.loads(args.spec.read_text())
    best = float("inf")
    for _ in range(args.repeats):
        start = time.perf_counter()
        draw(args.folder, args.cards, spec)
        best = min(best, time.perf_counter() - start)
    seconds = time.perf_counter() - START
    peak = 0
    if args.trace:
        tracemalloc.start()
        draw(args.folder, args.cards, spec)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report({"seconds": seconds, "best": best, "peak": peak, "max_rss_mib": rss})


if __name__ == "__main__":
    main()

"""Render N poker cards (title, two text boxes, a row of four icons) as A4 sheets
with crop marks, against a bare reportlab script that draws the same
primitives straight onto a canvas, in the same run.

Reports the time ratio (target: at most 1.5x the bare script) and peak memory
(tracemalloc) at N and 10N cards, to show whether memory stays flat.
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
import tracemalloc
from pathlib import Path

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from protopress.components import load_catalog
from protopress.generators.fonts import font
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.shapes import outline, scaled
from protopress.generators.units import MM, PAPER

SHAPES = ["circle", "diamond", "star", "hexagon"]
BODY = "Discard a card. Reveal five cards and keep those that share no gem with it."
RULE = "Once per turn you may move one extra step through any door."
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "bleed": True, "fill": "#f3ecdc"},
        {"type": "text", "x": 5, "y": 5, "w": 53, "h": 9, "text": "{title}", "font": "sans-bold", "size": 12},
        {"type": "icons", "x": 8, "y": 18, "icon_size": 10, "gap": 3, "items": "{icons}", "from": "symbols"},
        {"type": "text", "x": 5, "y": 34, "w": 53, "h": 24, "text": "{body}", "size": 9},
        {"type": "text", "x": 5, "y": 60, "w": 53, "h": 20, "text": "{rule}", "size": 8},
    ],
}  # fmt: skip


def catalog_file(folder: Path, cards: int) -> Path:
    symbols = [{"id": s, "name": s, "shape": s, "colour": "#884422"} for s in SHAPES]
    document = {
        "game": "bench", "title": "Bench", "version": "1", "symbols": symbols,
        "cards": [{"id": f"c{n}", "title": f"Card {n}", "body": BODY, "rule": RULE, "icons": SHAPES}
                  for n in range(cards)],
    }  # fmt: skip
    path = folder / "bench.json"
    path.write_text(json.dumps(document))
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    return path


def protopress_run(folder: Path, cards: int) -> None:
    catalog = load_catalog(catalog_file(folder, cards))
    options = RenderOptions(output_dir=folder / "out", layouts_dir=folder / "layouts")
    render_catalog(catalog, options)


def bare_run(folder: Path, cards: int) -> None:
    """The same cards drawn directly: 3 x 3 per page, crop marks, no forms, no layout."""
    regular, bold = font("sans"), font("sans-bold")
    width, height = PAPER["a4"]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=regular.name)
    slot_w, slot_h, bleed = 69 * MM, 94 * MM, 3 * MM
    left, top = 10.5 * MM - bleed, 16.5 * MM - bleed
    icons = [scaled(outline(s), 0, 0, 10 * MM) for s in SHAPES]
    for n in range(cards):
        index = n % 9
        x = left + (index % 3) * (slot_w - 2 * bleed)
        y = height - top - (index // 3 + 1) * (slot_h - 2 * bleed) - 2 * bleed
        canvas.setFillColorRGB(0.95, 0.93, 0.86)
        canvas.rect(x, y, slot_w, slot_h, stroke=0, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(bold.name, 12)
        canvas.drawString(x + 8 * MM, y + slot_h - 15 * MM, f"Card {n}")
        for text, size, offset in ((BODY, 9, 40), (RULE, 8, 66)):
            canvas.setFont(regular.name, size)
            for line_no, line in enumerate(simpleSplit(text, regular.name, size, 53 * MM)):
                canvas.drawString(x + 8 * MM, y + slot_h - offset * MM - line_no * size * 1.2, line)
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


def measure(function, cards: int, repeats: int) -> tuple[float, float]:
    best = float("inf")
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            function(Path(folder), cards)
            best = min(best, time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as folder:
        tracemalloc.start()
        function(Path(folder), cards)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return best, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for cards in (args.cards, 10 * args.cards):
        repeats = args.repeats if cards == args.cards else 1
        bare_time, bare_peak = measure(bare_run, cards, repeats)
        ours_time, ours_peak = measure(protopress_run, cards, repeats)
        print(
            f"{cards:>6} cards: protopress {ours_time:.2f} s, bare reportlab {bare_time:.2f} s "
            f"({ours_time / bare_time:.2f}x); peak memory {ours_peak / 1e6:.1f} MB "
            f"(bare {bare_peak / 1e6:.1f} MB)"
        )


if __name__ == "__main__":
    main()

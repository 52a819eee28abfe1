"""Baseline of faces.py: the same poker cards drawn with Pillow at 300 dpi and written
as PNGs (Pillow's default compression, or --compress-level).

Texts and icon outlines come from a JSON file the calling benchmark writes
(`render_sheets.bare_spec`); the fonts are reportlab's Vera, as protopress draws
them, and lines are broken by reportlab's simpleSplit. Prints the process's
seconds from its first line (imports included) and its peak resident memory.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402  (the clock starts before the imports: a whole process is timed)
import json  # noqa: E402
import resource  # noqa: E402
from pathlib import Path  # noqa: E402

import reportlab  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402
from report import report  # noqa: E402
from reportlab.lib.utils import simpleSplit  # noqa: E402


def draw(folder: Path, cards: int, spec: dict, save_options: dict) -> None:
    vera = Path(reportlab.__file__).parent / "fonts"
    (folder / "png").mkdir(exist_ok=True)
    dpi, mm = 300, 300 / 25.4
    width, height = round(69 * mm), round(94 * mm)

    def px(points: float) -> int:
        return round(points * dpi / 72)

    bold = ImageFont.truetype(str(vera / "VeraBd.ttf"), px(12))
    fonts = {size: ImageFont.truetype(str(vera / "Vera.ttf"), px(size)) for size in (9, 8)}
    side = 10 * mm
    icons = [[[(x * side, y * side) for x, y in c] for c in shape] for shape in spec["icons"]]
    for n in range(cards):
        image = Image.new("RGB", (width, height), (243, 236, 220))
        canvas = ImageDraw.Draw(image)
        canvas.text((8 * mm, 8 * mm), f"Card {n}", font=bold, fill="black")
        for text, size, top in ((spec["body"], 9, 37), (spec["rule"], 8, 63)):
            for index, line in enumerate(simpleSplit(text, "Helvetica", size, 53 * 72 / 25.4)):
                canvas.text(
                    (8 * mm, top * mm + index * px(size * 1.2)),
                    line,
                    font=fonts[size],
                    fill="black",
                )
        for number, contours in enumerate(icons):
            for contour in contours:
                canvas.polygon(
                    [((11 + number * 13) * mm + x, 21 * mm + y) for x, y in contour],
                    fill=(136, 68, 34),
                )
        image.save(folder / "png" / f"c{n}-front.png", dpi=(dpi, dpi), **save_options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("spec", type=Path)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--compress-level", type=int, help="zlib level (Pillow's default: 6)")
    args = parser.parse_args()
    spec = json.loads(args.spec.read_text())
    options = {} if args.compress_level is None else {"compress_level": args.compress_level}
    draw(args.folder, args.cards, spec, options)
    seconds = time.perf_counter() - START
    report(
        {
            "seconds": seconds,
            "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    )


if __name__ == "__main__":
    main()

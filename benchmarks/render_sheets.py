"""Render N poker cards (title, two text boxes, a row of four icons) as A4 sheets
with crop marks, against a bare reportlab script that draws the same
primitives straight onto a canvas (benchmarks/bare/reportlab_sheets.py, a
process that imports nothing of protopress), in the same run.

Reports the time ratio (target: at most 1.5x the bare script) and peak memory
(tracemalloc) at N and 10N cards, to show whether memory stays flat. Both
sides are timed without their imports: the drawing alone, best of --repeats.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from figures import Figure, add_json_option, run_bare, write_json

from protopress.components import load_catalog
from protopress.generators.fonts import font
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.shapes import outline

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


def bare_spec(path: Path) -> Path:
    """What the bare scripts draw, as data (they import nothing of protopress): the
    texts, each icon's outline in a unit box, and the built-in fonts' files."""
    path.write_text(json.dumps({
        "body": BODY, "rule": RULE,
        "icons": [outline(shape).contours for shape in SHAPES],
        "fonts": {"regular": str(font("sans").path), "bold": str(font("sans-bold").path)},
    }))  # fmt: skip
    return path


def bare_measure(cards: int, repeats: int) -> tuple[float, float]:
    """The bare reportlab script's best drawing time and its peak traced memory, in a
    process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        spec = bare_spec(Path(folder) / "spec.json")
        found = run_bare("reportlab_sheets.py", folder, str(spec), "--cards", str(cards),
                         "--repeats", str(repeats), "--trace")  # fmt: skip
    return found["best"], found["peak"]


def measure(function: Callable[[Path, int], None], cards: int, repeats: int) -> tuple[float, float]:
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
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    for cards in (args.cards, 10 * args.cards):
        repeats = args.repeats if cards == args.cards else 1
        bare_time, bare_peak = bare_measure(cards, repeats)
        ours_time, ours_peak = measure(protopress_run, cards, repeats)
        figures += [
            Figure(f"{cards} cards as sheets", ours_time, "s", bare_time, "bare reportlab"),
            Figure(f"{cards} cards, peak traced memory", ours_peak / 1e6, "MB",
                   bare_peak / 1e6, "bare reportlab"),
        ]  # fmt: skip
        print(
            f"{cards:>6} cards: protopress {ours_time:.2f} s, bare reportlab {bare_time:.2f} s "
            f"({ours_time / bare_time:.2f}x); peak memory {ours_peak / 1e6:.1f} MB "
            f"(bare {bare_peak / 1e6:.1f} MB)"
        )
    write_json(args.json, figures)


if __name__ == "__main__":
    main()

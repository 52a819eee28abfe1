"""A 400 x 400 mm board covered in 1,000 numbers, tiled across A4 (a page map
and 3 x 2 tiles), against the same board's print-shop file (one page), in the
same run: time and file size.

Every tile page places the board's one PDF form inside its window, so the
tiled file should cost little more than the single page however many tiles
it has: the ratios show it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from figures import Figure, add_json_option, write_json
from timing import best

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog


def catalog_file(folder: Path) -> Path:
    layouts = folder / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "board.json").write_text(json.dumps({
        "kind": "board",
        "front": [
            {"type": "rect", "bleed": True, "fill": "#f0e8d0"},
            {"type": "text", "x": 2, "y": 2, "w": 11, "h": 11, "text": "{number}", "size": 11,
             "repeat": {"count": 1000, "dx": 12, "columns": 33, "row_dy": 12}},
        ],
    }))  # fmt: skip
    path = folder / "catalog.json"
    path.write_text(json.dumps({
        "game": "bench", "title": "Bench", "version": "1",
        "kinds": {"board": {"collection": "boards", "fields": {},
                            "size": {"width": "400mm", "height": "400mm"},
                            "layout": "layouts/board.json"}},
        "boards": [{"id": "board"}],
    }))  # fmt: skip
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    add_json_option(parser)
    args = parser.parse_args()
    repeats = args.repeats
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        catalog = load_catalog(catalog_file(folder))
        sizes = {}
        times = {}
        for mode in ("per-card", "sheets"):
            options = RenderOptions(output_dir=folder / mode, layout=mode)
            times[mode] = best(lambda options=options: render_catalog(catalog, options), repeats)
            (pdf,) = (folder / mode).glob("*.pdf")
            sizes[mode] = pdf.stat().st_size
    print(
        f"print-shop file, 1 page:  {times['per-card'] * 1000:7.1f} ms  {sizes['per-card']:8d} bytes"
    )
    print(f"tiled sheets, 7 pages:    {times['sheets'] * 1000:7.1f} ms  {sizes['sheets']:8d} bytes")
    print(f"ratio: time {times['sheets'] / times['per-card']:.2f}x, "
          f"size {sizes['sheets'] / sizes['per-card']:.2f}x")  # fmt: skip
    write_json(args.json, [
        Figure("tiled sheets, 7 pages", times["sheets"] * 1e3, "ms", times["per-card"] * 1e3,
               "print-shop file, 1 page"),
        Figure("tiled sheets, 7 pages, file size", sizes["sheets"], "bytes", sizes["per-card"],
               "print-shop file, 1 page"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()

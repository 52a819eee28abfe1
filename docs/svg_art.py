"""Make docs/images/svg-art.png: one SVG drawn in each fit mode (layouts.md).

A card with three boxes (outlined) holding the same 2:1 SVG: contained,
covering (cropped to the box) and stretched. Run from the checkout:

    .venv/bin/python docs/svg_art.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog

OUT = Path(__file__).parent / "images" / "svg-art.png"

ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <rect width="200" height="100" fill="#8fc3e8"/>
  <path d="M0 100 L55 35 L85 70 L120 20 L200 100 Z" fill="#5b6b7a"/>
  <path d="M120 20 L104 43 L113 40 L120 48 L128 40 L136 44 Z" fill="#ffffff"/>
  <circle cx="40" cy="25" r="12" fill="#f6c445"/>
  <g transform="translate(150 72)">
    <polygon points="0,-14 12,-4 7,12 -7,12 -12,-4" fill="#c0392b" stroke="#6e1f17" stroke-width="2"/>
  </g>
</svg>
"""

BOXES = (("contain", 6, 14, 51, 20), ("cover", 6, 44, 24, 32), ("stretch", 33, 44, 24, 32))


def layout() -> dict:
    front: list[dict] = [
        {"type": "rect", "bleed": True, "fill": "#f3ecdc"},
        {"type": "text", "x": 6, "y": 5, "w": 51, "h": 7, "text": "One SVG, three fits",
         "font": "sans-bold", "size": 11},
    ]  # fmt: skip
    for fit, x, y, w, h in BOXES:
        front += [
            {"type": "image", "x": x, "y": y, "w": w, "h": h, "path": "mountain.svg", "fit": fit},
            {"type": "rect", "x": x, "y": y, "w": w, "h": h, "stroke": "#222222"},
            {"type": "text", "x": x, "y": y + h + 1, "w": w, "h": 5, "text": fit, "size": 8,
             "align": "center"},
        ]  # fmt: skip
    return {"kind": "card", "size": {"width": "63mm", "height": "88mm"}, "front": front}


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "layouts").mkdir()
        (folder / "mountain.svg").write_text(ART)
        (folder / "layouts" / "card.json").write_text(json.dumps(layout()))
        catalog = {"game": "doc", "title": "SVG art", "version": "1",
                   "cards": [{"id": "art", "title": "Art", "count": 1}]}  # fmt: skip
        (folder / "cat.json").write_text(json.dumps(catalog))
        options = RenderOptions(output_dir=folder / "out", layouts_dir=folder / "layouts",
                                png=True, dpi=150)  # fmt: skip
        result = render_catalog(load_catalog(folder / "cat.json"), options)
        for warning in result.warnings:
            print("warning", warning)
        OUT.write_bytes((folder / "out" / "png" / "card" / "art-front.png").read_bytes())
    print(OUT)


if __name__ == "__main__":
    main()

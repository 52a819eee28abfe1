"""What colour management costs: a built-in game and a deck with card art
rendered RGB (the baseline), --cmyk and --pdfx, best of --repeats (three) each (every run
separates from scratch: no profile, transform or art is cached between runs),
with the file sizes. Run from the checkout: `.venv/bin/python benchmarks/cmyk_render.py`.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import replace
from pathlib import Path

from figures import Figure, add_json_option, write_json
from PIL import Image, ImageDraw
from timing import best

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators import separation
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.standards import PdfxStandard

ART_CARDS = 30
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "x": 0, "y": 0, "w": "63mm", "h": "88mm", "fill": "#f4e7c5"},
        {"type": "image", "x": "6mm", "y": "6mm", "w": "51mm", "h": "51mm", "path": "art/{id}.png"},
        {"type": "text", "x": "6mm", "y": "62mm", "w": "51mm", "h": "10mm", "text": "{title}"},
    ],
}


def art_deck(root: Path) -> Path:
    """ART_CARDS cards, each with its own 700 x 700 px RGBA PNG (300+ dpi at 51 mm)."""
    (root / "art").mkdir()
    (root / "layouts").mkdir()
    (root / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    cards = []
    for i in range(ART_CARDS):
        image = Image.new("RGBA", (700, 700), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        draw.ellipse((40, 40, 660, 660), fill=(20 + 7 * i, 200 - 5 * i, 90 + 4 * i, 255))
        draw.rectangle((250, 250, 450, 450), fill=(255 - 6 * i, 40, 6 * i, 255))
        image.save(root / "art" / f"c{i}.png")
        cards.append({"id": f"c{i}", "title": f"Card {i}"})
    catalog = {"game": "art", "title": "Art", "version": "1", "cards": cards}
    (root / "deck.json").write_text(json.dumps(catalog))
    return root / "deck.json"


def cold_render(catalog, options: RenderOptions) -> None:
    """A render with no separation cached from the one before: profile, transforms, art."""
    separation._separation.cache_clear()  # the separations, with their transforms and art
    render_catalog(catalog, options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs of each render (the best kept)"
    )
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        decks = {
            "gem-rush": (load_catalog(builtin_catalog_path("gem-rush")), None),
            f"{ART_CARDS} cards with art": (load_catalog(art_deck(root)), root / "layouts"),
        }
        for name, (catalog, layouts) in decks.items():
            base = RenderOptions(output_dir=root / "out", layouts_dir=layouts)
            print(name)
            rgb = rgb_size = None
            for label, options in (
                ("RGB", base),
                ("--cmyk", replace(base, cmyk=True)),
                ("--pdfx", replace(base, pdfx=PdfxStandard.X4)),
            ):
                seconds = best(lambda c=catalog, o=options: cold_render(c, o), args.repeats)
                size = sum(p.stat().st_size for p in (root / "out").glob("*.pdf"))
                rgb, rgb_size = rgb or seconds, rgb_size or size
                if label != "RGB":
                    figures += [
                        Figure(f"{name}, {label}", seconds, "s", rgb, f"{name}, RGB"),
                        Figure(f"{name}, {label}, file size", size / 1e6, "MB", rgb_size / 1e6,
                               f"{name}, RGB"),
                    ]  # fmt: skip
                print(f"  {label:7} {seconds:6.2f} s  x{seconds / rgb:4.2f}  {size / 1e6:6.2f} MB")
    write_json(args.json, figures)


if __name__ == "__main__":
    main()

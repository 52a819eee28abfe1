"""Make the small per-game contact sheets shown in the README (docs/images/).

Renders each built-in game's PNGs (and the example game's, examples/cottage-market)
at a low resolution and puts the front of up to six designs per kind on one
image. Run from the checkout:

    .venv/bin/python docs/contact_sheets.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.generators.fonts import font
from protopress.generators.render import RenderOptions, render_catalog

OUT = Path(__file__).parent / "images"
EXAMPLE = Path(__file__).parents[1] / "examples" / "cottage-market"
PER_KIND = 6
HEIGHT = 150  # pixels per row of thumbnails


def contact_sheet(catalog_path: Path, layouts_dir: Path | None = None) -> Image.Image:
    catalog = load_catalog(catalog_path)
    with tempfile.TemporaryDirectory() as folder:
        options = RenderOptions(output_dir=Path(folder), png=True, dpi=150, layouts_dir=layouts_dir)
        render_catalog(catalog, options)
        rows = []
        for kind_folder in sorted((Path(folder) / "png").iterdir()):
            if not kind_folder.is_dir():
                continue
            fronts = sorted(kind_folder.glob("*-front.png"))[:PER_KIND]
            thumbs = []
            for path in fronts:
                with Image.open(path) as image:
                    scale = HEIGHT / image.height
                    thumbs.append(image.resize((round(image.width * scale), HEIGHT), Image.LANCZOS))
            rows.append((kind_folder.name, thumbs))
    width = max(sum(t.width + 8 for t in thumbs) for _, thumbs in rows) + 8
    sheet = Image.new("RGB", (width, len(rows) * (HEIGHT + 30) + 8), "white")
    draw = ImageDraw.Draw(sheet)
    label = font("sans-bold").pillow(14)
    for index, (kind, thumbs) in enumerate(rows):
        top = 8 + index * (HEIGHT + 30)
        draw.text((8, top), kind, fill=(60, 60, 60), font=label)
        left = 8
        for thumb in thumbs:
            sheet.paste(thumb, (left, top + 20))
            left += thumb.width + 8
    return sheet


def main() -> None:
    OUT.mkdir(exist_ok=True)
    sheets = {game: (builtin_catalog_path(game), None) for game in BUILTIN_GAMES}
    sheets["cottage-market"] = (EXAMPLE / "catalog.json", EXAMPLE / "layouts")
    for name, (catalog_path, layouts_dir) in sheets.items():
        contact_sheet(catalog_path, layouts_dir).save(OUT / f"{name}.png", optimize=True)
        print(f"wrote {OUT / f'{name}.png'}")


if __name__ == "__main__":
    main()

"""Make the pictures of the drawing vocabulary in layouts.md (docs/images/vocab-*.png).

Each picture is one real render: a small card whose layout uses one construct,
drawn by `render --png` at 150 dpi. Run from the checkout:

    .venv/bin/python docs/drawing_vocabulary.py
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog

IMAGES = Path(__file__).parent / "images"
PAPER = {"type": "rect", "bleed": True, "fill": "#f3ecdc"}


def caption(text: str, y: float = 3) -> dict:
    return {"type": "text", "x": 3, "y": y, "w": 74, "h": 6, "text": text, "size": 8,
            "font": "sans-bold"}  # fmt: skip


PICTURES: dict[str, list[dict]] = {
    "vocab-turn": [
        PAPER,
        caption("rotate and opacity"),
        {"type": "rect", "x": 5, "y": 25, "w": 30, "h": 8, "fill": "navy", "rotate": 90},
        {"type": "text", "x": 26, "y": 22, "w": 34, "h": 10, "text": "DRAFT", "size": 18,
         "font": "sans-bold", "colour": "firebrick", "rotate": -30, "opacity": 0.6},
        {"type": "rect", "x": 50, "y": 14, "w": 24, "h": 24, "fill": "steelblue"},
        {"type": "rect", "x": 58, "y": 22, "w": 18, "h": 18, "fill": "red", "opacity": 0.5},
    ],
    "vocab-shapes": [
        PAPER,
        caption("ellipse, polygon, star, line caps and dashes"),
        {"type": "ellipse", "x": 3, "y": 11, "w": 22, "h": 14, "fill": "gold", "stroke": "black",
         "stroke_width": 1.5},
        {"type": "polygon", "x": 28, "y": 10, "w": 16, "h": 16, "sides": 6, "fill": "teal"},
        {"type": "polygon", "x": 47, "y": 10, "w": 14, "h": 16, "sides": 3, "fill": "slateblue"},
        {"type": "star", "x": 63, "y": 10, "w": 15, "h": 15, "points": 5, "inner": 0.4,
         "fill": "crimson", "stroke": "black"},
        {"type": "star", "x": 63, "y": 27, "w": 15, "h": 15, "points": 8, "fill": "orange",
         "rotate": 22.5},
        {"type": "line", "x": 6, "y": 32, "x2": 56, "y2": 32, "stroke": "black",
         "stroke_width": 8, "cap": "round"},
        {"type": "line", "x": 6, "y": 40, "x2": 56, "y2": 40, "stroke": "saddlebrown",
         "stroke_width": 2, "dash": [6, 3], "cap": "round"},
    ],
    "vocab-gradients": [
        PAPER,
        caption("linear and radial gradients"),
        {"type": "rect", "x": 3, "y": 11, "w": 34, "h": 12, "radius": 2, "stroke": "black",
         "fill": {"linear": ["red", "blue"]}},
        {"type": "rect", "x": 3, "y": 26, "w": 34, "h": 16,
         "fill": {"linear": ["white", "black"], "angle": 90}},
        {"type": "ellipse", "x": 40, "y": 11, "w": 18, "h": 18,
         "fill": {"radial": ["yellow", "orange", "darkred"], "stops": [0, 0.5, 1]}},
        {"type": "star", "x": 60, "y": 11, "w": 18, "h": 18, "points": 6,
         "fill": {"linear": ["gold", "green"], "angle": 45}},
        {"type": "polygon", "x": 40, "y": 30, "w": 38, "h": 12, "sides": 6, "stroke": "navy",
         "fill": {"linear": ["lightskyblue", "white", "lightskyblue"]}},
    ],
    "vocab-spans": [
        PAPER,
        caption("\\<span> in rich text"),
        {"type": "text", "x": 3, "y": 11, "w": 74, "h": 30, "size": 10,
         "text": 'Pay <span color="crimson" size="20">3 gold</span> and '
                 '<span font="sans-bold" color="#2255aa">draw</span> a <i>card</i>. '
                 '<span size="6" color="dimgray">Once per turn.</span>'},
    ],
    "vocab-italic": [
        PAPER,
        caption("\\<i>: a designed italic, and one synthesised"),
        {"type": "text", "x": 3, "y": 11, "w": 74, "h": 9, "size": 12,
         "text": "sans: <i>Once per turn</i>, <b><i>draw</i></b>"},
        {"type": "text", "x": 3, "y": 22, "w": 74, "h": 9, "size": 12, "font": "body",
         "text": "body: <i>Once per turn</i>, then draw"},
        {"type": "text", "x": 3, "y": 33, "w": 74, "h": 9, "size": 12, "font": "body",
         "align": "start", "text": "<i>פעם בתור</i> :flame:"},
    ],
    "vocab-direction": [
        PAPER,
        caption('align "start" in three scripts'),
        *({"type": "text", "x": 3, "y": y, "w": 74, "h": 8, "text": title, "size": 13,
           "font": "body", "align": "start"}
          for y, title in ((12, "Dragon's Hoard"), (22, "אוצר הדרקון"), (32, "كنز التنين"))),
        *({"type": "line", "x": x, "y": 10, "x2": x, "y2": 42, "stroke": "gray",
           "stroke_width": 0.3, "dash": [1, 1]} for x in (3, 77)),
    ],
    "vocab-conditions": [
        PAPER,
        {"type": "text", "x": 3, "y": 3, "w": 60, "h": 7, "text": "{title}: power {power}",
         "size": 9, "font": "sans-bold"},
        {"type": "star", "x": 64, "y": 2, "w": 13, "h": 13, "points": 5, "fill": "gold",
         "stroke": "darkgoldenrod", "when": "power > 3"},
        {"type": "text", "x": 3, "y": 14, "w": 74, "h": 6, "size": 8,
         "text": 'when "power > 3": the star'},
        {"type": "text", "x": 3, "y": 24, "w": 74, "h": 6, "size": 8, "colour": "firebrick",
         "text": 'when tags contains "fire": Burns!', "when": 'tags contains "fire"'},
        {"type": "text", "x": 3, "y": 34, "w": 74, "h": 6, "size": 8, "colour": "steelblue",
         "text": 'when "!power > 3": weak', "when": "!power > 3"},
    ],
    "vocab-clip": [
        PAPER,
        caption("clip: ellipse, polygon, star, rounded rect"),
        *({"type": "image", "x": x, "y": 12, "w": 17, "h": 26, "path": "landscape.svg",
           "fit": "cover", **clip}
          for x, clip in ((3, {"clip": "ellipse"}), (22, {"clip": "polygon", "sides": 6}),
                          (41, {"clip": "star", "points": 5, "inner": 0.5}),
                          (60, {"clip": "rect", "radius": 3}))),
        {"type": "ellipse", "x": 3, "y": 12, "w": 17, "h": 26, "stroke": "#3b2f2f",
         "stroke_width": 1.2},
    ],
    "vocab-icons": [
        PAPER,
        caption("icons from an SVG and a PNG file"),
        {"type": "text", "x": 3, "y": 12, "w": 74, "h": 10, "size": 14,
         "text": "Pay :coin: to burn :flame:", "icons": "symbols"},
        {"type": "icons", "x": 3, "y": 26, "icon_size": 12, "gap": 3, "items": "{gems}",
         "from": "symbols"},
    ],
}  # fmt: skip

ART = {  # files beside the catalog
    "landscape.svg": """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <rect width="200" height="100" fill="#8fc3e8"/>
  <path d="M0 100 L55 35 L85 70 L120 20 L200 100 Z" fill="#5b6b7a"/>
  <path d="M120 20 L104 43 L113 40 L120 48 L128 40 L136 44 Z" fill="#ffffff"/>
  <circle cx="40" cy="25" r="12" fill="#f6c445"/>
</svg>
""",
    "flame.svg": """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <path d="M50 4 C62 30 86 42 82 68 C79 88 64 97 50 97 C36 97 20 88 18 68 C15 48 30 40 34 22
           C40 36 44 40 50 42 C50 30 46 18 50 4 Z" fill="#e2571e"/>
  <path d="M50 50 C58 62 68 70 64 82 C61 91 55 94 50 94 C44 94 37 90 36 82 C35 72 44 66 50 50 Z"
        fill="#f6c445"/>
</svg>
""",
}

SYMBOLS = [  # icons from files: an SVG drawn as vectors, a PNG made by Pillow below
    {"id": "flame", "name": "Flame", "shape": "drop", "icon": "flame.svg"},
    {"id": "coin", "name": "Coin", "shape": "circle", "icon": "coin.png"},
]

CARDS = {  # pictures of several cards from one layout, side by side
    "vocab-conditions": [{"id": "ember", "title": "Ember", "power": 5, "tags": ["fire"]},
                         {"id": "pebble", "title": "Pebble", "power": 2, "tags": ["earth"]}],
}  # fmt: skip

FONTS = {"body": "DejaVuSans-scripts.ttf"}  # in tests/data/fonts: Latin, Hebrew and Arabic
FONT_FOLDER = Path(__file__).parents[1] / "tests" / "data" / "fonts"


def render(name: str, elements: list[dict], folder: Path) -> Image.Image:
    """The card (or CARDS[name] side by side) drawn with these elements."""
    (folder / "layouts").mkdir(exist_ok=True)
    for file, text in ART.items():
        (folder / file).write_text(text)
    for file in FONTS.values():
        shutil.copy(FONT_FOLDER / file, folder / "layouts" / file)
    layout = {"kind": "card", "size": {"width": 80, "height": 45}, "front": elements,
              "fonts": FONTS}  # fmt: skip
    (folder / "layouts" / "card.json").write_text(json.dumps(layout))
    cards = CARDS.get(name, [{"id": name, "title": name, "gems": ["coin", "flame", "coin"]}])
    catalog = {"game": "doc", "title": "Vocabulary", "version": "1", "symbols": SYMBOLS,
               "cards": cards}  # fmt: skip
    _coin(folder / "coin.png")
    (folder / "cat.json").write_text(json.dumps(catalog))
    options = RenderOptions(output_dir=folder / name, layouts_dir=folder / "layouts",
                            png=True, dpi=150, bleed=0)  # fmt: skip
    result = render_catalog(load_catalog(folder / "cat.json"), options)
    for warning in result.warnings:
        print("warning", warning)
    faces = [Image.open(folder / name / "png" / "card" / f"{card['id']}-front.png")
             for card in cards]  # fmt: skip
    gap = 12  # pixels between cards
    width = sum(face.width for face in faces) + gap * (len(faces) - 1)
    picture = Image.new("RGB", (width, faces[0].height), "white")
    x = 0
    for face in faces:
        picture.paste(face, (x, 0))
        x += face.width + gap
    return picture


def _coin(path: Path) -> None:
    """A gold coin, 300 x 300 pixels: a PNG icon."""
    image = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((10, 10, 290, 290), fill="#d4a017", outline="#8a6a0c", width=16)
    draw.ellipse((80, 80, 220, 220), outline="#fff1a8", width=14)
    image.save(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        for name, elements in PICTURES.items():
            out = IMAGES / f"{name}.png"
            render(name, elements, Path(temporary)).save(out, optimize=True)
            print(out)


if __name__ == "__main__":
    main()

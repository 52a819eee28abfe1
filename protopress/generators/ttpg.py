"""Tabletop Playground export: a package folder of card sheets and one card
template per sheet, which Tabletop Playground's editor loads as its own objects.

What its importer reads (the package layout and the "Card" template fields of
packages made in its editor):

* `Manifest.json`: the package's Name, Version and GUID (32 hex digits).
* `Textures/`: the images; a template names them relative to this folder.
* `Templates/<name>.json`: one object each. A card template ("Type": "Card")
  names a front sheet of NumHorizontal x NumVertical equal cells (FrontTexture),
  its back (BackTexture: one image shared by every card, BackIndex -2, or a
  sheet with the same grid, BackIndex -3), the card's size in centimetres
  (Width, Height, Thickness), and the cards the object holds (Indices: a cell
  index per card, repeated for copies), with CardNames and CardMetadata by index.
  HiddenIndex -3 shows the back for cards in another player's hand.

Every kind goes as cards: decks (0.05 cm thick) and square tiles and tokens
(0.2 cm, a "Square" or "Rounded" model as the layout's corners are). Faces are
drawn at trim size; every image stays within 4096 px on a side (cells shrink to
fit). Output is deterministic: GUIDs derive from the game, kind and sheet.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from protopress.atomic import write_atomic
from protopress.components.problems import Problem
from protopress.generators.layout import Layout
from protopress.generators.png_surface import png_bytes
from protopress.generators.render import RenderOptions
from protopress.generators.tts import (  # the faces, grids and images TTS's export draws
    MAX_SIDE,
    Design,
    card_pixels,
    designs,
    export_inputs,
    face_identity,
    face_picture,
    fit_cell,
    object_type,
)
from protopress.generators.units import MM

MAX_COLUMNS, MAX_ROWS = 10, 7  # cells of one sheet; more designs take more sheets
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS
CARD_THICKNESS_CM, PIECE_THICKNESS_CM = 0.05, 0.2
SHARED_BACK, BACK_SHEET = -2, -3  # BackIndex: one back image, or a sheet of backs
HIDDEN_SHOWS_BACK = -3  # HiddenIndex
CM = 10 * MM


@dataclass(frozen=True)
class Grid:
    """A sheet of columns x rows cells of cell pixels."""

    columns: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def origin(self, index: int) -> tuple[int, int]:
        return (index % self.columns) * self.cell[0], (index // self.columns) * self.cell[1]


def sheet_grid(cards: int, card: tuple[int, int], limit: int = MAX_SIDE) -> Grid:
    """The grid for cards cards (1 to CARDS_PER_SHEET): as many columns as cards up
    to MAX_COLUMNS, the rows they fill, cells shrunk so the sheet fits limit."""
    if not 1 <= cards <= CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {CARDS_PER_SHEET} cards, not {cards}")
    columns = min(cards, MAX_COLUMNS)
    rows = -(-cards // columns)
    return Grid(columns, rows, fit_cell(card, columns, rows, limit))


def package_guid(*parts: str) -> str:
    """A stable 32-hex-digit GUID (upper case, as the editor writes them) from the parts."""
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:32].upper()


def write_ttpg(
    catalog,
    options: RenderOptions,
    kinds_layouts: dict[str, Layout] | None = None,
    warnings: list[str] | None = None,
    problems: list[Problem] | None = None,
) -> list[Path]:
    """Write options.output_dir/ttpg: Manifest.json, Textures/ and Templates/.
    Returns the files written. Missing images and icons: as in tts.designs."""
    layouts, assets = export_inputs(catalog, options, kinds_layouts)
    folder = options.output_dir / "ttpg"
    written: list[Path] = []

    def write(relative: str, data: bytes) -> None:
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
        written.append(path)

    manifest = {"Name": catalog.title, "Version": catalog.version,
                "GUID": package_guid(catalog.game)}  # fmt: skip
    write("Manifest.json", _json(manifest))
    for kind, layout in layouts.items():
        kind_designs = designs(catalog, kind, layout, options, assets, warnings, problems)
        for number, start in enumerate(range(0, len(kind_designs), CARDS_PER_SHEET), start=1):
            chunk = kind_designs[start : start + CARDS_PER_SHEET]
            name = kind if len(kind_designs) <= CARDS_PER_SHEET else f"{kind}-{number}"
            template = _sheet(catalog, layout, chunk, name, options.dpi, write)
            write(f"Templates/{name}.json", _json(template))
    return written


def _sheet(catalog, layout: Layout, chunk: list[Design], name: str, dpi: int, write) -> dict:
    """The textures of one sheet of designs, and its card template."""
    grid = sheet_grid(len(chunk), card_pixels(layout, dpi))
    sheet_dpi = max(1, round(dpi * grid.cell[0] / card_pixels(layout, dpi)[0]))
    fronts = Image.new("RGB", grid.size, "white")
    for index, design in enumerate(chunk):
        fronts.paste(face_picture(design.front, dpi, grid.cell), grid.origin(index))
    write(f"Textures/{name}.png", png_bytes(fronts, sheet_dpi))
    if len({face_identity(design.back) for design in chunk}) == 1:
        back_index = SHARED_BACK
        write(
            f"Textures/{name}-back.png",
            png_bytes(face_picture(chunk[0].back, dpi, grid.cell), sheet_dpi),
        )
    else:
        back_index = BACK_SHEET
        backs = Image.new("RGB", grid.size, "white")
        for index, design in enumerate(chunk):
            backs.paste(face_picture(design.back, dpi, grid.cell), grid.origin(index))
        write(f"Textures/{name}-back.png", png_bytes(backs, sheet_dpi))
    deck = object_type(layout) == "deck"
    return {
        "Type": "Card",
        "GUID": package_guid(catalog.game, name),
        "Name": name,
        "Metadata": "",
        "CollisionType": "Regular",
        "Friction": 0.7,
        "Restitution": 0,
        "Density": 0.5,
        "SurfaceType": "Cardboard",
        "Roughness": 1,
        "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255},
        "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True,
        "AutoStraighten": False,
        "ShouldSnap": True,
        "ScriptName": "",
        "Blueprint": "",
        "Models": [],
        "Collision": [],
        "SnapPointsGlobal": False,
        "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0},
        "GroundAccessibility": "ZoomAndContext",
        "Tags": [],
        "FrontTexture": f"{name}.png",
        "BackTexture": f"{name}-back.png",
        "HiddenTexture": "",
        "BackIndex": back_index,
        "HiddenIndex": HIDDEN_SHOWS_BACK,
        "NumHorizontal": grid.columns,
        "NumVertical": grid.rows,
        "Width": round(layout.width / CM, 3),
        "Height": round(layout.height / CM, 3),
        "Thickness": CARD_THICKNESS_CM if deck else PIECE_THICKNESS_CM,
        "HiddenInHand": deck,
        "UsedWithCardHolders": deck,
        "CanStack": True,
        "UsePrimaryColorForSide": False,
        "FrontTextureOverrideExposed": False,
        "AllowFlippedInStack": False,
        "MirrorBack": True,
        "Model": "Rounded" if layout.corner_radius > 0 else "Square",
        "Indices": [index for index, design in enumerate(chunk) for _ in range(design.count)],
        "CardNames": {str(index): design.title for index, design in enumerate(chunk)},
        "CardMetadata": {str(index): design.id for index, design in enumerate(chunk)},
        "CardTags": {},
    }


def _json(document) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

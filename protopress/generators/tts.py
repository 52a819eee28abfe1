"""Tabletop Simulator export: deck sheets, tile and token images, and one
saved-object JSON per kind that TTS loads from Objects > Saved Objects.

Conventions followed (Tabletop Simulator Knowledge Base, "Custom Deck",
"Custom Tile", "Custom Token"; see docs/presets.md, section "Tabletop
Simulator"):

* A custom deck's face image is a grid of NumWidth x NumHeight card slots, at
  most 10 x 7. The LAST slot (bottom right; index 69 on a 10 x 7 sheet) is the
  "hidden" image TTS shows for cards in another player's hand, so a sheet holds
  at most 69 cards. We put the back there (or a plain grey card when backs
  differ), so the sheet looks right whether or not "Back is Hidden" is set.
* Card ids are deck number * 100 + slot index; copies repeat a CardID.
* With "UniqueBack" the back image is a sheet with the same grid as the faces.
* Every image stays within 4096 px on a side: card cells shrink to fit.

Faces are drawn at TRIM size (no bleed): TTS shows the cut card. Output is
deterministic: no dates, GUIDs derived from the game, kind and id.
"""

from __future__ import annotations

import hashlib
import json
import math
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from protopress.atomic import write_atomic
from protopress.components.problems import Problem
from protopress.generators.assets import AssetPolicy
from protopress.generators.face import Face
from protopress.generators.layout import Layout, layouts_for
from protopress.generators.png_surface import face_image, pixel_size, png_bytes
from protopress.generators.render import RenderOptions, _copies, check_strict
from protopress.generators.units import MM

MAX_COLUMNS, MAX_ROWS = 10, 7  # TTS's largest custom deck grid
MIN_COLUMNS, MIN_ROWS = 2, 2  # TTS's deck dialog starts at 2 x 2
MAX_SIDE = 4096  # pixels, any image we write
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last slot is the hidden card
TILE_SIDE = 50 * MM  # square pieces this large or larger are tiles, smaller are tokens
SQUARE_TOLERANCE = 0.01  # a kind is square when its sides differ by at most 1%
HIDDEN_GREY = (128, 128, 128)  # the hidden slot / missing back when backs are not shared

# TTS enumerations (CustomDeck "Type", CustomTile "Type").
CARD_ROUNDED, CARD_RECTANGLE = 0, 1
TILE_BOX, TILE_ROUNDED = 0, 3

TRANSFORM = {
    "posX": 0.0, "posY": 1.0, "posZ": 0.0,
    "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
    "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0,
}  # fmt: skip
FACE_DOWN = {**TRANSFORM, "rotZ": 180.0}  # decks lie face down


@dataclass(frozen=True)
class SheetGrid:
    """One deck sheet: columns x rows slots of cell pixels each."""

    columns: int
    rows: int
    cell: tuple[int, int]

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def hidden(self) -> int:
        """Index of the slot TTS uses as the hidden card: the last one."""
        return self.slots - 1

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def origin(self, index: int) -> tuple[int, int]:
        return (index % self.columns) * self.cell[0], (index // self.columns) * self.cell[1]


def card_pixels(layout: Layout, dpi: int) -> tuple[int, int]:
    """A card's trim size in pixels at dpi."""
    return round(layout.width * dpi / 72), round(layout.height * dpi / 72)


def fit_cell(card: tuple[int, int], columns: int, rows: int, limit: int = MAX_SIDE):
    """The card's pixel size shrunk (never grown, aspect kept) so the grid fits limit."""
    scale = min(1.0, limit / (columns * card[0]), limit / (rows * card[1]))
    return max(1, math.floor(card[0] * scale)), max(1, math.floor(card[1] * scale))


def sheet_grid(cards: int, card: tuple[int, int], limit: int = MAX_SIDE) -> SheetGrid:
    """The grid for a sheet of `cards` cards plus the hidden slot.

    Among the grids from 2 x 2 to 10 x 7 that hold them, the one that keeps the
    card images largest; then the fewest slots; then the fewest columns.
    """
    if not 1 <= cards <= CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {CARDS_PER_SHEET} cards, not {cards}")
    grids = (
        SheetGrid(columns, rows, fit_cell(card, columns, rows, limit))
        for rows in range(MIN_ROWS, MAX_ROWS + 1)
        for columns in range(MIN_COLUMNS, MAX_COLUMNS + 1)
        if columns * rows >= cards + 1
    )
    return min(grids, key=lambda grid: (-grid.cell[0] * grid.cell[1], grid.slots, grid.columns))


def object_type(layout: Layout) -> str:
    """How a kind goes to TTS: "deck" (not square: cards), "tile" (square, 50 mm
    or more, or double-sided) or "token" (small, square, one-sided)."""
    longer, shorter = max(layout.width, layout.height), min(layout.width, layout.height)
    if longer - shorter > SQUARE_TOLERANCE * longer:
        return "deck"
    if longer >= TILE_SIDE - 1e-6 or layout.back is not None:
        return "tile"
    return "token"


def guid(*parts: str, taken: set[str] | None = None) -> str:
    """A stable 6-hex GUID from the parts (first 6 hex of their sha256); unique within taken."""
    text = "/".join(parts)
    while True:
        value = hashlib.sha256(text.encode()).hexdigest()[:6]
        if taken is None or value not in taken:
            if taken is not None:
                taken.add(value)
            return value
        text += "+"  # a collision: rehash, deterministically


@dataclass(frozen=True)
class Design:
    """One component design of a kind, with its copies and trim-size faces."""

    id: str
    title: str
    count: int
    front: Face
    back: Face | None


def face_identity(face: Face | None):
    """What makes two faces draw alike (None for no face): backs equal by it share one image."""
    return None if face is None else (face.width, face.height, face.ops)


def designs(catalog, kind: str, layout: Layout, options: RenderOptions, assets, warnings=None,
            problems: list[Problem] | None = None):  # fmt: skip
    """The kind's designs in catalog order, faces built at trim size (no bleed). With a
    problems list, a missing image or icon is drawn as a placeholder and its problem
    goes there, as render does; without, it raises FaceProblem."""
    components = {component.id: component for component in catalog.of_kind(kind)}
    found: dict[str, Design] = {}
    trim = replace(options, bleed=0.0)
    for copy in _copies(catalog, kind, layout, trim, assets, warnings, problems):
        if copy.id in found:
            continue
        component = components[copy.id]
        title = str(component.get("title") or component.get("name") or component.id)
        found[copy.id] = Design(copy.id, title, component.count, copy.front, copy.back)
    return list(found.values())


def face_picture(face: Face | None, dpi: int, size: tuple[int, int]) -> Image.Image:
    """The face drawn at exactly size pixels (a grey card when there is no face)."""
    if face is None:
        return Image.new("RGB", size, HIDDEN_GREY)
    native = pixel_size(face, dpi)
    if native == size:
        return face_image(face, dpi)
    scale = max(size[0] / native[0], size[1] / native[1])
    image = face_image(face, max(1, math.ceil(dpi * scale)))
    return image if image.size == size else image.resize(size, Image.Resampling.LANCZOS)


def _capped(size: tuple[int, int], limit: int = MAX_SIDE) -> tuple[int, int]:
    scale = min(1.0, limit / max(size))
    return max(1, math.floor(size[0] * scale)), max(1, math.floor(size[1] * scale))


class _Writer:
    """Writes images under the tts folder and gives their URLs."""

    def __init__(self, folder: Path, dpi: int, base_url: str | None):
        self.folder = folder
        self.dpi = dpi
        self.base_url = base_url.rstrip("/") if base_url else None
        self.written: list[Path] = []

    def image(self, relative: str, image: Image.Image, dpi: int) -> str:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, png_bytes(image, dpi))
        self.written.append(path)
        return self.url(relative)

    def face(self, relative: str, face: Face | None, size: tuple[int, int]) -> str:
        return self.image(relative, face_picture(face, self.dpi, size), self.dpi)

    def url(self, relative: str) -> str:
        if self.base_url:
            return f"{self.base_url}/{urllib.parse.quote(relative)}"
        return (self.folder / relative).resolve().as_uri()

    def json(self, relative: str, document) -> None:
        path = self.folder / relative
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        write_atomic(path, text.encode("utf-8"))
        self.written.append(path)


def export_inputs(
    catalog, options: RenderOptions, kinds_layouts: dict[str, Layout] | None
) -> tuple[dict[str, Layout], AssetPolicy]:
    """The layouts and the asset policy a table-top export draws with; with
    --strict, TextDoesNotFit (every missing image and text that does not fit)
    before anything is written."""
    layouts = (
        kinds_layouts
        if kinds_layouts is not None
        else layouts_for(catalog.components, options.layouts_dir, catalog)
    )
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, options.allow_outside_assets)
    if options.strict:
        check_strict(catalog, layouts, replace(options, bleed=0.0), assets)
    return layouts, assets


def write_tts(
    catalog,
    options: RenderOptions,
    kinds_layouts: dict[str, Layout] | None = None,
    *,
    base_url: str | None = None,
    warnings: list[str] | None = None,
    problems: list[Problem] | None = None,
) -> list[Path]:
    """Write options.output_dir/tts: images and one saved object (<kind>.json) per kind.

    Image URLs are file:/// URLs of the written files, or base_url + the path
    under tts/ when given (the folder uploaded as is). Returns the files written.
    Missing images and icons: as in designs.
    """
    layouts, assets = export_inputs(catalog, options, kinds_layouts)
    writer = _Writer(options.output_dir / "tts", options.dpi, base_url)
    writer.folder.mkdir(parents=True, exist_ok=True)
    deck_number = 1
    for kind, layout in layouts.items():
        kind_designs = designs(catalog, kind, layout, options, assets, warnings, problems)
        if not kind_designs:
            continue
        description = f"{catalog.title} {catalog.version}"
        if object_type(layout) == "deck":
            state, deck_number = _deck(
                catalog, kind, layout, kind_designs, writer, deck_number, description
            )
        else:
            state = _pieces(catalog, kind, layout, kind_designs, writer, description)
        writer.json(f"{kind}.json", saved_object(state))
    return writer.written


def saved_object(state: dict) -> dict:
    """A saved-object file around one object, as TTS writes them (dates left empty)."""
    return {
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": [state],
    }


# ---- decks ----------------------------------------------------------------


def _chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _deck(catalog, kind, layout, kind_designs, writer: _Writer, first_deck: int, description):
    """Sheets, backs and the DeckCustom (or CardCustom, for a single card) of one kind."""
    dpi = writer.dpi
    card = card_pixels(layout, dpi)
    backs = {face_identity(design.back) for design in kind_designs}
    unique_back = len(backs) > 1
    shared_back = None if unique_back else kind_designs[0].back
    back_url = None
    if not unique_back:  # one back image for every card: the face, or a grey card
        size = _capped(card)
        back_url = writer.face(f"{kind}/back.png", shared_back, size)
    sideways = layout.width > layout.height
    card_type = CARD_ROUNDED if layout.corner_radius > 0 else CARD_RECTANGLE
    taken: set[str] = set()
    custom_deck, deck_ids, cards = {}, [], []
    deck_number = first_deck
    for number, chunk in enumerate(_chunks(kind_designs, CARDS_PER_SHEET), start=1):
        grid = sheet_grid(len(chunk), card)
        sheet_dpi = max(1, round(dpi * grid.cell[0] / card[0]))
        faces = Image.new("RGB", grid.size, "white")
        back_sheet = Image.new("RGB", grid.size, "white") if unique_back else None
        for index, design in enumerate(chunk):
            faces.paste(face_picture(design.front, dpi, grid.cell), grid.origin(index))
            if back_sheet is not None:
                back_sheet.paste(face_picture(design.back, dpi, grid.cell), grid.origin(index))
        # the hidden card: the shared back, or a plain grey card when backs differ
        faces.paste(face_picture(shared_back, dpi, grid.cell), grid.origin(grid.hidden))
        face_url = writer.image(f"{kind}/sheet-{number}.png", faces, sheet_dpi)
        sheet_back_url: str | None  # None only where no back is shared: never used then
        if back_sheet is not None:
            back_sheet.paste(face_picture(None, dpi, grid.cell), grid.origin(grid.hidden))
            sheet_back_url = writer.image(f"{kind}/back-sheet-{number}.png", back_sheet, sheet_dpi)
        else:
            sheet_back_url = back_url
        entry = {
            "FaceURL": face_url,
            "BackURL": sheet_back_url,
            "NumWidth": grid.columns,
            "NumHeight": grid.rows,
            "BackIsHidden": True,
            "UniqueBack": unique_back,
            "Type": card_type,
        }
        custom_deck[str(deck_number)] = entry
        for index, design in enumerate(chunk):
            card_id = deck_number * 100 + index
            for copy in range(design.count):
                deck_ids.append(card_id)
                cards.append({
                    "Name": "Card",
                    "Transform": dict(FACE_DOWN),
                    "Nickname": design.title,
                    "Description": "",
                    "GMNotes": design.id,
                    "CardID": card_id,
                    "SidewaysCard": sideways,
                    "CustomDeck": {str(deck_number): dict(entry)},
                    "GUID": guid(catalog.game, kind, design.id, str(copy), taken=taken),
                })  # fmt: skip
        deck_number += 1
    if len(cards) == 1:  # TTS decks hold two cards or more: a lone card stands alone
        return dict(cards[0], Name="CardCustom"), deck_number
    deck = {
        "Name": "DeckCustom",
        "Transform": dict(FACE_DOWN),
        "Nickname": kind,
        "Description": description,
        "SidewaysCard": sideways,
        "DeckIDs": deck_ids,
        "CustomDeck": custom_deck,
        "ContainedObjects": cards,
        "GUID": guid(catalog.game, kind, taken=taken),
    }
    return deck, deck_number


# ---- tiles and tokens -----------------------------------------------------


def _pieces(catalog, kind, layout, kind_designs, writer: _Writer, description) -> dict:
    """One Custom_Tile or Custom_Token per copy, in a Bag named after the kind."""
    dpi = writer.dpi
    kind_type = object_type(layout)
    backs = {face_identity(design.back) for design in kind_designs}
    shared_back = len(backs) == 1 and kind_designs[0].back is not None
    back_url = ""
    if shared_back:
        back = kind_designs[0].back
        back_url = writer.face(f"{kind}/back.png", back, _capped(pixel_size(back, dpi)))
    taken: set[str] = set()
    pieces = []
    for design in kind_designs:
        size = _capped(pixel_size(design.front, dpi))
        front_url = writer.face(f"{kind}/{design.id}-front.png", design.front, size)
        own_back = back_url
        if design.back is not None and not shared_back:
            own_back = writer.face(f"{kind}/{design.id}-back.png", design.back, size)
        for copy in range(design.count):
            piece = {
                "Name": "Custom_Tile" if kind_type == "tile" else "Custom_Token",
                "Transform": dict(TRANSFORM),
                "Nickname": design.title,
                "Description": "",
                "GMNotes": design.id,
                "CustomImage": _custom_image(kind_type, layout, front_url, own_back),
                "GUID": guid(catalog.game, kind, design.id, str(copy), taken=taken),
            }
            pieces.append(piece)
    if len(pieces) == 1:
        return pieces[0]
    return {
        "Name": "Bag",
        "Transform": dict(TRANSFORM),
        "Nickname": kind,
        "Description": description,
        "ContainedObjects": pieces,
        "GUID": guid(catalog.game, kind, taken=taken),
    }


def _custom_image(kind_type: str, layout: Layout, front_url: str, back_url: str) -> dict:
    image = {"ImageURL": front_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
             "WidthScale": 0.0}  # fmt: skip
    if kind_type == "tile":
        image["CustomTile"] = {
            "Type": TILE_ROUNDED if layout.corner_radius > 0 else TILE_BOX,
            "Thickness": 0.2,
            "Stackable": False,
            "Stretch": True,
        }
    else:
        image["CustomToken"] = {
            "Thickness": 0.2,
            "MergeDistancePixels": 15.0,
            "StandUp": False,
            "Stackable": True,
        }
    return image

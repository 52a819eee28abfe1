"""`protopress new`: a small, valid, printable project to start a game from.

The project is a catalog of generic cards with a symbol set, a layout for the
cards, the same cards as a spreadsheet (the import path), the JSON Schemas for
an editor, a README with the next steps and, when asked, a small complete game
for the cards: rules.yaml (data) or rules.py (Python).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.components.schemas import schema_documents
from protopress.designer.tables import catalog_text, export_table, new_catalog

SCHEMA_DIR = "schemas"
LAYOUT_DIR = "layouts"
CARDS_TABLE = "cards.csv"

SYMBOLS = [
    {"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
    {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"},
    {"id": "stone", "name": "Stone", "shape": "square", "colour": "#607d8b"},
]

CARDS = [
    {"id": "woodcutter", "count": 3, "title": "Woodcutter", "text": "Gain 2 wood.", "cost": ["gold"]},
    {"id": "quarry", "count": 2, "title": "Quarry", "text": "Gain 1 stone. If you have a Woodcutter, gain 1 more.", "cost": ["gold", "gold"]},
    {"id": "cottage", "count": 4, "title": "Cottage", "text": "A quiet home at the edge of the woods.", "cost": ["wood", "wood"], "points": 1},
    {"id": "watchtower", "count": 2, "title": "Watchtower", "text": "When you build this, each other player discards a card.", "cost": ["wood", "stone", "stone"], "points": 3},
    {"id": "market", "count": 1, "title": "Market", "text": "Once per turn, trade any one resource for 1 gold.", "cost": ["stone", "gold"]},
]  # fmt: skip

INK = "#3b3a45"
PAPER = "#fbf6ea"

CARD_LAYOUT = {
    "$schema": f"../{SCHEMA_DIR}/layout.schema.json",
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "safe": "4mm",
    "front": [
        {"type": "rect", "bleed": True, "fill": PAPER},
        {"type": "rect", "x": 4, "y": 4, "w": 55, "h": 80, "radius": 3, "stroke": INK, "stroke_width": 1},
        {"type": "text", "x": 6, "y": 6, "w": 40, "h": 10, "text": "{title}", "font": "sans-bold", "size": 13, "min_size": 9, "valign": "middle"},
        {"type": "text", "when": "points", "x": 46, "y": 6, "w": 11, "h": 10, "text": "{points}", "font": "sans-bold", "size": 15, "align": "right", "valign": "middle"},
        {"type": "icons", "x": 7, "y": 19, "icon_size": 8, "gap": 2, "items": "{cost}", "from": "symbols"},
        {"type": "line", "x": 6, "y": 31, "x2": 57, "y2": 31, "stroke": INK, "dash": [2, 1]},
        {"type": "text", "x": 6, "y": 34, "w": 51, "h": 40, "text": "{text}", "size": 10, "min_size": 7, "align": "center", "valign": "middle"},
        {"type": "text", "x": 6, "y": 77, "w": 51, "h": 5, "text": "{catalog.title} {catalog.version}", "font": "sans-italic", "size": 6, "align": "center", "colour": "#7a7885"},
    ],
    "back": [
        {"type": "rect", "bleed": True, "fill": INK},
        {"type": "rect", "x": 6, "y": 6, "w": 51, "h": 76, "radius": 4, "stroke": PAPER, "stroke_width": 1.5},
        {"type": "text", "x": 8, "y": 38, "w": 47, "h": 12, "text": "{catalog.title}", "font": "sans-bold", "size": 16, "min_size": 9, "align": "center", "valign": "middle", "colour": PAPER},
    ],
}  # fmt: skip

README = """\
# {title}

A card game prototype made with protopress. The files:

| file | what it is |
|---|---|
| `catalog.json` | the game's components: the symbols and the cards (id, count, title, text, cost, points), and where its layouts are |
| `cards.csv` | the same cards as a spreadsheet, to edit in any spreadsheet program |
| `layouts/card.json` | how a card is drawn: title, cost icons, text, points, and the back |
| `schemas/` | JSON Schemas, so an editor checks and completes `catalog.json` as you type |

## Next steps

Run these inside this folder. Check the catalog (every problem is reported
with its file, line and column):

```sh
protopress validate catalog.json
```

Print the cards: A4 sheets with crop marks and duplex backs in `output/{game}/`
(`--paper letter` for US Letter, `--png` for one image per card):

```sh
protopress render catalog.json
```

The catalog names its layouts (`"layouts": "layouts"`), so every command
draws and checks the cards with `layouts/card.json`; `--layouts DIR` tries
another folder.

Edit the cards in a spreadsheet, then import them into the catalog: only the
cards are replaced, the symbols stay, and nothing is written unless the
result is valid (problems name their cell, such as `cards.csv!D4`). An .xlsx
workbook works too, after `pip install 'protopress[excel]'`:

```sh
protopress import cards.csv --kind card --output catalog.json
protopress export-table catalog.json --kind card --output cards.xlsx
```

Re-render whenever the catalog or a layout changes while you work:

```sh
protopress watch catalog.json
```

## Making it yours

- A card's fields are free: add a column (or a field in the JSON) and show it
  in the layout with `{{field}}`. A column named `cost[]` holds a list, written
  `gold+wood`; numbers become numbers, everything else stays text.
- Icons come from `symbols`: each symbol's `shape` and `colour` draw it.
- The protopress documentation: `docs/layouts.md` (layouts),
  `docs/spreadsheets.md` (the table format), `docs/catalog-format.md` (catalogs).
"""


class RulesWritten(Enum):
    """The rules a new project starts with: none, a rules file of data, or Python."""

    NONE = "none"
    DATA = "data"
    PYTHON = "python"


@dataclass(frozen=True)
class RulesFile:
    """The rules a new project is written with: its file, its text, its README section."""

    name: str
    text: str
    readme: str


DATA_RULES_README = """
## Your rules

`rules.yaml` is a small complete game for these cards, written as data (its
rules are written in words at its top): edit it into yours, then let bots
play it. It runs no code:

```sh
protopress simulate {game} --rules rules.yaml --catalog catalog.json --bot greedy --bot random
protopress balance {game} --rules rules.yaml --catalog catalog.json --games 2000
protopress check catalog.json --rules rules.yaml
```

How to write rules as data: `docs/data-rules.md` in the protopress documentation.
"""

RULES_README = """
## Your rules

`rules.py` is a small complete game for these cards (its rules are written at
its top): edit it into yours, then let bots play it. This runs the code in
`rules.py`, which protopress does only when you name it with `--rules`:

```sh
protopress simulate {game} --rules rules.py --catalog catalog.json --bot greedy --bot random
protopress balance {game} --rules rules.py --catalog catalog.json --games 2000
```

How to write rules: `docs/own-rules.md` in the protopress documentation.
"""


def _json_bytes(document: object) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def rules_skeleton(game: str, title: str, folder: str) -> str:
    """A complete small rules module for a card catalog: the project's own game to edit.

    examples/cottage-market/rules.py is this skeleton, written for that game.
    """
    template = (Path(__file__).parent / "templates" / "rules.py.template").read_text("utf-8")
    engine = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", game) if part)
    if not engine or not engine[0].isalpha():
        engine = "Game" + engine
    for key, value in (("game", game), ("title", title), ("engine", engine), ("folder", folder)):
        template = template.replace("{{" + key + "}}", _text(value))
    return template


def rules_data(game: str, title: str) -> str:
    """A complete small rules file of data for the cards `new` writes (templates/)."""
    template = (Path(__file__).parent / "templates" / "rules.yaml.template").read_text("utf-8")
    named = _text(title)
    for key, value in (("game", game), ("title_yaml", json.dumps(named, ensure_ascii=False)),
                       ("title", " ".join(named.split()))):  # fmt: skip
        template = template.replace("{{" + key + "}}", value)
    return template


def _text(value: str) -> str:
    """A name as UTF-8 text: bytes of a folder name that are not UTF-8 (surrogate
    escapes) become U+FFFD, so the module written stays valid Python source."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def new_project(
    folder: Path | str, name: str | None = None, rules: RulesWritten | bool = RulesWritten.NONE
) -> list[Path]:
    """Create a starter project in folder; return the files written.

    The game id comes from the folder's name, the title from name (default:
    the folder's name). rules adds a small complete game to simulate with
    --rules: rules.yaml (DATA) or rules.py (PYTHON, or True). Refuses
    (FileExistsError) a folder that exists and is not empty, or a file in its place.
    """
    folder = Path(folder)
    if folder.is_symlink() and not folder.exists():  # a dangling link, or a loop
        raise FileExistsError(f"{folder} is a link to nothing usable; choose a new folder")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FileExistsError(
            f"{folder} already exists and is not an empty folder; "
            "choose a new folder for the project"
        )
    document = new_catalog(folder.resolve().name)
    if name:
        document["title"] = name.strip()[:80] or document["title"]
    document["description"] = "A starter deck: edit the cards, the layout and the symbols."
    document["layouts"] = LAYOUT_DIR
    document["sources"] = {"card": CARDS_TABLE}
    document["symbols"] = SYMBOLS
    document["cards"] = CARDS

    folder.parent.mkdir(parents=True, exist_ok=True)
    building = folder.parent / f".{folder.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    building.mkdir()  # the usual permissions (the umask applies), unlike mkdtemp
    if isinstance(rules, bool):
        rules = RulesWritten.PYTHON if rules else RulesWritten.NONE
    try:
        game, title = document["game"], document["title"]
        own = None
        if rules is RulesWritten.DATA:
            own = RulesFile("rules.yaml", rules_data(game, title), DATA_RULES_README)
        elif rules is RulesWritten.PYTHON:
            own = RulesFile("rules.py", rules_skeleton(game, title, str(folder)), RULES_README)
        relative = _write_project(building, document, own)
        _move_into_place(building, folder)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return [folder / path for path in relative]


def _write_project(root: Path, document: dict, rules: RulesFile | None = None) -> list[Path]:
    """Write the project's files (and its rules, when given) under root; return their
    paths relative to it."""
    (root / LAYOUT_DIR).mkdir()
    (root / SCHEMA_DIR).mkdir()
    written = []

    def write(relative: str, data: bytes) -> None:
        write_atomic(root / relative, data)
        written.append(Path(relative))

    for file_name, schema in sorted(schema_documents().items()):
        write(f"{SCHEMA_DIR}/{file_name}", _json_bytes(schema))
    write("catalog.json", catalog_text(document).encode("utf-8"))
    write(f"{LAYOUT_DIR}/card.json", _json_bytes(CARD_LAYOUT))
    export_table(document, "card", root / CARDS_TABLE)
    written.append(Path(CARDS_TABLE))
    readme = README.format(title=document["title"], game=document["game"])
    if rules is not None:
        write(rules.name, rules.text.encode("utf-8"))
        readme += rules.readme.format(game=document["game"])
    write("README.md", readme.encode("utf-8"))
    return written


def _move_into_place(building: Path, folder: Path) -> None:
    """Rename the finished project to its name in one step: a failure before
    this leaves no half-made project, only nothing (the temporary is removed)."""
    if folder.is_dir():
        folder.rmdir()  # empty (checked above); rename cannot replace it everywhere
    os.replace(building, folder)

"""Commands import only what they use: `protopress --version`, `--help` and a plain
PDF render (JSON catalog, TrueType fonts, no PNG, no PDF/X, no SVG, no rich or
right-to-left text) load none of the optional machinery, whose imports took
longer than the render itself (benchmarks/faces.py measures it).

Each command runs in a fresh process that lists, as it exits, the modules it
loaded; a top-level import of one of these libraries on the command's path
makes the test fail. The PNG export, which does need pypdfium2, shows that the
listing sees what a run loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OPTIONAL = (
    "pikepdf",  # PDF/X
    "pypdf",  # preflight
    "pypdfium2",  # PNG export
    "uharfbuzz",  # right-to-left and joining scripts
    "fontTools",  # OpenType (CFF) fonts
    "jsonschema",  # explaining an invalid catalog (jsonschema-rs decides validity)
    "referencing",
    "yaml",  # YAML catalogs and layouts
    "openpyxl",  # spreadsheets
    "starlette",  # the web preview and companion
    "uvicorn",
    "networkx",  # the games' rules
    "dask",
    "svglib",  # SVG art
    "lxml",
    "reportlab.graphics",
    "reportlab.platypus",  # rich text
)
# What a plain `render` has no use for: the other commands' modules (the group
# imports a command's module when it is chosen), the bots and the search (the
# --bot option), the solo companion, the installed packages' metadata (looked
# up for an installed game only), and the presets' and table-top exports'
# modules (imported with --preset, --tts, --ttpg).
NOT_FOR_RENDER = (
    "protopress.cli.balance",
    "protopress.cli.bots",
    "protopress.cli.catalog",
    "protopress.cli.conform",
    "protopress.cli.designer",
    "protopress.cli.play",
    "protopress.cli.tune",
    "protopress.cli.web",
    "protopress.rules.bots",
    "protopress.rules.mcts",
    "protopress.companion",
    "importlib.metadata",
    "protopress.generators.presets",
    "protopress.generators.products",
    "protopress.generators.tts",
    "protopress.generators.ttpg",
)
# reportlab's TrueType fonts import uharfbuzz themselves whenever it is installed
# (reportlab/pdfbase/ttfonts.py), in a bare reportlab script too
LOADED_BY_REPORTLAB = ("uharfbuzz",)

PROBE = """
import atexit, json, runpy, sys
listing = sys.argv.pop(1)
atexit.register(lambda: open(listing, "w").write(json.dumps(sorted(sys.modules))))
sys.argv[0] = "protopress"
runpy.run_module("protopress", run_name="__main__")
"""

LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "bleed": True, "fill": "#f3ecdc"},
        {"type": "text", "x": 5, "y": 5, "w": 53, "h": 9, "text": "{title}", "font": "sans-bold"},
        {"type": "icons", "x": 8, "y": 18, "icon_size": 10, "items": "{icons}", "from": "symbols"},
        {"type": "text", "x": 5, "y": 34, "w": 53, "h": 24, "text": "{body}", "size": 9},
    ],
}


def loaded_by(folder: Path, *arguments: str) -> set[str]:
    """The modules `protopress ARGUMENTS` had loaded when it exited (exit 0 expected)."""
    listing = folder / "modules.json"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    found = subprocess.run([sys.executable, "-c", PROBE, str(listing), *arguments], cwd=folder,
                           env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert found.returncode == 0, found.stdout + found.stderr
    return set(json.loads(listing.read_text()))


def optional_among(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The OPTIONAL libraries (or their submodules) among modules, less allowed."""
    return [
        name
        for name in OPTIONAL
        if name not in allowed
        and any(module == name or module.startswith(name + ".") for module in modules)
    ]


def plain_deck(folder: Path) -> Path:
    """A JSON catalog of three cards with a layout of text, a rectangle and icons."""
    symbols = [{"id": s, "name": s, "shape": s, "colour": "#884422"} for s in ("circle", "star")]
    cards = [
        {"id": f"c{n}", "title": f"Card {n}", "body": "Discard a card.", "icons": ["star"]}
        for n in range(3)
    ]
    catalog = {"game": "deck", "title": "Deck", "version": "1", "symbols": symbols, "cards": cards}
    (folder / "layouts").mkdir()
    (folder / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    path = folder / "deck.json"
    path.write_text(json.dumps(catalog))
    return path


def render(folder: Path, *options: str) -> set[str]:
    catalog = plain_deck(folder)
    return loaded_by(folder, "render", str(catalog), "--layouts", "layouts", "--layout",
                     "sheets", "-o", "out", *options)  # fmt: skip


def test_version_and_help_load_no_optional_library(tmp_path):
    assert optional_among(loaded_by(tmp_path, "--version")) == []
    assert optional_among(loaded_by(tmp_path, "--help")) == []


def test_a_plain_render_loads_no_optional_library(tmp_path):
    modules = render(tmp_path, "--quiet")
    assert (tmp_path / "out" / "card-sheets.pdf").is_file()
    assert optional_among(modules, LOADED_BY_REPORTLAB) == []


def test_a_plain_render_loads_neither_other_commands_nor_the_games_machinery(tmp_path):
    modules = render(tmp_path, "--quiet")
    assert [name for name in NOT_FOR_RENDER if name in modules] == []
    assert "protopress.cli.render" in modules  # the listing sees the command's module


def test_help_lists_commands_and_version_loads_no_command_module(tmp_path):
    version = loaded_by(tmp_path, "--version")
    assert {m for m in version if m.startswith("protopress.cli.")} == {"protopress.cli.app"}
    assert "protopress.cli.play" in loaded_by(tmp_path, "--help")  # help shows every command


def test_a_plain_render_with_its_summary_loads_no_optional_library(tmp_path):
    """The summary's page count is the renderer's: no PDF is read back to count it."""
    modules = render(tmp_path)
    assert (tmp_path / "out" / "card-sheets.pdf").is_file()
    assert optional_among(modules, LOADED_BY_REPORTLAB) == []


def test_the_png_export_loads_pdfium_and_the_listing_sees_it(tmp_path):
    modules = render(tmp_path, "--quiet", "--png")
    assert (tmp_path / "out" / "png").is_dir()
    assert optional_among(modules, LOADED_BY_REPORTLAB) == ["pypdfium2"]

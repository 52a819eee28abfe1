"""Tabletop Playground export: the package's structure (manifest, card templates,
textures they name), the sheet grid worked by hand, backs shared or per card, and
the same bytes each run."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from protopress.cli import cli
from protopress.generators.ttpg import BACK_SHEET, SHARED_BACK, sheet_grid

MINI = Path(__file__).parents[1] / "data" / "mini-game"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_sheet_grid_by_hand():
    # 23 cards of 744 x 1039 px: ten columns, three rows; 10 x 744 = 7440 px is too
    # wide for 4096, so cells shrink by 4096 / 7440: 409 x 572 px
    grid = sheet_grid(23, (744, 1039))
    assert (grid.columns, grid.rows, grid.cell) == (10, 3, (409, 572))
    assert grid.origin(12) == (2 * 409, 572)
    assert sheet_grid(3, (273, 381)).size == (3 * 273, 381)  # small cards: no shrinking
    with pytest.raises(ValueError):
        sheet_grid(71, (10, 10))


def package(tmp_path, game=MINI, name="out"):
    out = tmp_path / name
    result = invoke(
        "render", game / "catalog.json", "--layouts", game / "layouts", "-o", out,
        "--ttpg", "--layout", "sheets", "--dpi", "72", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out / "ttpg"


def test_the_package(tmp_path):
    folder = package(tmp_path)
    manifest = json.loads((folder / "Manifest.json").read_text())
    assert manifest["Name"] == "Mini Game" and manifest["Version"] == "0.3"
    assert len(manifest["GUID"]) == 32 and manifest["GUID"] == manifest["GUID"].upper()
    assert sorted(p.name for p in (folder / "Templates").iterdir()) == ["card.json"]
    card = json.loads((folder / "Templates" / "card.json").read_text())
    assert card["Type"] == "Card" and card["Name"] == "card"
    # dawn x3, dusk x2, eclipse x1: three cells in a row, each index once per copy
    assert (card["NumHorizontal"], card["NumVertical"]) == (3, 1)
    assert card["Indices"] == [0, 0, 0, 1, 1, 2]
    assert card["CardNames"] == {"0": "Dawn", "1": "Dusk", "2": "Eclipse"}
    assert card["CardMetadata"] == {"0": "dawn", "1": "dusk", "2": "eclipse"}
    assert (card["Width"], card["Height"]) == (6.3, 8.8)  # 63 x 88 mm, in cm
    assert card["BackIndex"] == SHARED_BACK  # every card the same back
    assert card["Model"] == "Square"  # the layout has no corner radius
    # the textures it names are there: 63 x 88 mm at 72 dpi is 179 x 249 px a cell
    with Image.open(folder / "Textures" / card["FrontTexture"]) as front:
        assert front.size == (3 * 179, 249)
    with Image.open(folder / "Textures" / card["BackTexture"]) as back:
        assert back.size == (179, 249)
    assert (
        package(tmp_path, name="again").joinpath("Textures", "card.png").read_bytes()
        == (folder / "Textures" / "card.png").read_bytes()
    )


def test_backs_that_differ_go_on_a_sheet(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    layout = game / "layouts" / "card.json"
    document = json.loads(layout.read_text())
    document["back"][1]["text"] = "{title}"  # each card's back names it
    layout.write_text(json.dumps(document))
    folder = package(tmp_path, game)
    card = json.loads((folder / "Templates" / "card.json").read_text())
    assert card["BackIndex"] == BACK_SHEET
    with Image.open(folder / "Textures" / card["BackTexture"]) as back:
        assert back.size == (3 * 179, 249)


def test_only_refuses_the_whole_game_sets(tmp_path):
    refused = invoke("render", "gem-rush", "-o", tmp_path, "--only", "obsidian", "--ttpg")
    assert refused.exit_code == 2 and "--ttpg" in refused.output

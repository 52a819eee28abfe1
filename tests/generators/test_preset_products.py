"""Presets on the built-in games and on faces of other sizes: products, measured faces."""

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from protopress.cli import cli
from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.generators.assets import AssetPolicy
from protopress.generators.face import FaceOp, TextOp
from protopress.generators.fitting import Fit, Placement
from protopress.generators.layout import layouts_for
from protopress.generators.png_surface import face_image, pixel_size
from protopress.generators.presets import (
    PRESETS,
    apply_preset,
    fitted_copies,
    plan,
    render_preset,
)
from protopress.generators.products import PRODUCTS
from protopress.generators.render import RenderOptions
from protopress.generators.units import INCH, MM

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
SERVICES = ("tgc", "mpc", "drivethrucards")
BLUE = (0x20, 0x40, 0xA0)
PX_PER_MM = 300 / 25.4

CARDS = {  # the kinds at 63 x 88 mm (market cards 88 x 63), by game
    "dragonstone-mine": ["action-card"],
    "gemstone-caverns": [],
    "gem-rush": ["gem-card", "skill-card"],
    "stonespine-architects": [
        "chamber-card",
        "market-card",
        "goal-card",
        "challenge-card",
        "blueprint-card",
        "rival-card",
    ],  # fmt: skip
}
CARD_PRODUCT = {
    "tgc": ("EuroPokerDeck", Fit.EXACT),
    "mpc": ("poker", Fit.SCALED),
    "drivethrucards": ("poker", Fit.SCALED),
}
TILES = {("tgc", "gem-rush"): {"room-tile": ("EuroSquareDeck", Fit.EXACT),
                               "point-gem": ("LargeSquareChit", Fit.SCALED)}}  # fmt: skip


@pytest.mark.parametrize("game", BUILTIN_GAMES)
@pytest.mark.parametrize("name", SERVICES)
def test_every_builtin_kind_goes_onto_its_products_size_or_is_listed(tmp_path, game, name):
    catalog = load_catalog(builtin_catalog_path(game))
    layouts = layouts_for(catalog.components, None, catalog)
    placed, unplaced = plan(layouts, name)
    expected = {kind: CARD_PRODUCT[name] for kind in CARDS[game]}
    expected |= TILES.get((name, game), {})
    assert {k: (p.product.key, p.fit) for k, p in placed.items()} == expected
    assert sorted([*placed, *(kind.kind for kind in unplaced)]) == sorted(layouts)
    for kind in unplaced:
        size = f"({kind.width / MM:g} x {kind.height / MM:g} mm)"
        assert kind.line(name, game).startswith(
            f"{name} has no product for {game} {kind.kind} {size}"
        )
    options = apply_preset(name, RenderOptions(output_dir=tmp_path))
    assets = AssetPolicy(catalog.path.parent)
    for kind, placement in placed.items():
        copy = next(fitted_copies(catalog, kind, layouts[kind], options, placement, assets, None))
        product = placement.product
        for face in (copy.front, copy.back):
            if face is None:
                continue
            if product.pixels is not None:
                assert pixel_size(face, 300) == product.pixels, (kind, face.name)
            else:  # a PDF page at trim plus bleed, the trim in the middle
                assert (face.width, face.height) == pytest.approx(product.file_size())
                assert face.trim == pytest.approx((product.width, product.height))
        if product.pixels is not None:
            assert face_image(copy.front, 300).size == product.pixels


def _layout_folder(tmp_path, size_mm, front, back=None) -> Path:
    layout = {"kind": "card", "size": {"width": f"{size_mm[0]}mm", "height": f"{size_mm[1]}mm"},
              "safe": "1mm", "front": front}  # fmt: skip
    if back is not None:
        layout["back"] = back
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "card.json").write_text(json.dumps(layout))
    return folder


def _dark_box(path: Path) -> tuple[int, int, int, int]:
    """The bounding box of the black pixels (the measuring bar), in pixels."""
    with Image.open(path) as image:
        mask = image.convert("L").point(lambda v: 255 if v < 30 else 0)
        box = mask.getbbox()
    assert box is not None
    return box


def _near(colour, expected, slack=8) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour[:3], expected, strict=True))


def test_a_scaled_face_is_drawn_larger_by_the_reported_factor(tmp_path):
    # a 40 mm black bar on a 63 x 88 mm card, white title text, a blue full-bleed background
    front = [
        {"type": "rect", "bleed": True, "fill": "#2040a0"},
        {"type": "rect", "x": 5, "y": 10, "w": 40, "h": 4, "fill": "#000000"},
        {"type": "text", "x": 5, "y": 30, "w": 50, "h": 10, "text": "{title}", "size": 12,
         "colour": "#ffffff"},
    ]  # fmt: skip
    folder = _layout_folder(tmp_path, (63, 88), front)
    catalog = load_catalog(MINI_GAME / "catalog.json")
    result = render_preset(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=folder), "mpc")
    (placement,) = result.placements
    scale = 63.5 / 63
    assert placement.line().startswith("card: 63 x 88 mm -> Poker size cards")
    assert ", scaled 100.8%" in placement.line()
    png = tmp_path / "mpc" / "card-dawn-front.png"
    left, top, right, bottom = _dark_box(png)
    assert right - left == pytest.approx(40 * scale * PX_PER_MM, abs=1.5)  # 476.2 px
    assert abs((right - left) - 40 * PX_PER_MM) > 2.5  # not the unscaled 472.4 px
    assert bottom - top == pytest.approx(4 * scale * PX_PER_MM, abs=1.5)
    assert left == pytest.approx(36 + 5 * scale * PX_PER_MM, abs=1.5)  # 0.12 in bleed, then 5 mm
    top_margin = (88.9 - 88 * scale) / 2  # the 0.1 mm of bleed colour above the scaled trim
    assert top == pytest.approx(36 + (top_margin + 10 * scale) * PX_PER_MM, abs=1.5)
    with Image.open(png) as image:
        assert image.size == (822, 1122)
        for corner in ((0, 0), (821, 0), (0, 1121), (821, 1121)):
            assert _near(image.getpixel(corner), BLUE), corner  # the bleed reaches the edge
    face = next(_fitted(catalog, folder, "mpc")).front
    (op,) = face.ops
    assert isinstance(op, FaceOp) and op.scale == pytest.approx(scale)
    assert [o.size for o in op.face.ops if isinstance(o, TextOp)] == [12]  # printed at 12.1 pt


def test_a_centred_face_keeps_its_size_and_extends_the_bleed_colour(tmp_path):
    # a 17.6 mm token on The Game Crafter's 3/4 in chit: scaling would be 108.2%
    front = [
        {"type": "rect", "bleed": True, "fill": "#2040a0"},
        {"type": "rect", "x": 2, "y": 2, "w": 10, "h": 2, "fill": "#000000"},
        {"type": "text", "x": 1, "y": 8, "w": 15.6, "h": 8, "text": "{id}", "size": 6,
         "colour": "#ffffff"},
    ]  # fmt: skip
    folder = _layout_folder(tmp_path, (17.6, 17.6), front)
    catalog = load_catalog(MINI_GAME / "catalog.json")
    result = render_preset(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=folder), "tgc")
    assert result.report("mini-game") == [
        "card: 17.6 x 17.6 mm -> Medium Square Chit (MediumSquareChit) 0.75 x 0.75 in "
        "(19.05 x 19.05 mm), centred at 100% (scaling would be 108.2%, more than 2% off: type "
        "sizes are kept); 0.72 mm of bleed colour inside the cut on every side"
    ]
    png = tmp_path / "tgc" / "card-dawn-front.png"
    left, top, right, bottom = _dark_box(png)
    assert right - left == pytest.approx(10 * PX_PER_MM, abs=1.5)  # 118.1 px, not 127.8
    trim_left = 37.5 + (19.05 - 17.6) / 2 * PX_PER_MM  # 1/8 in bleed, 0.725 mm band: 46.06 px
    assert left == pytest.approx(trim_left + 2 * PX_PER_MM, abs=1.5)
    assert top == pytest.approx(trim_left + 2 * PX_PER_MM, abs=1.5)
    with Image.open(png) as image:
        assert image.size == (300, 300)
        assert _near(image.getpixel((41, 150)), BLUE)  # inside the cut, beyond the layout's trim
        assert _near(image.getpixel((0, 0)), BLUE)
    face = next(_fitted(catalog, folder, "tgc")).front
    (op,) = face.ops
    assert isinstance(op, FaceOp) and op.scale == 1.0
    assert [o.size for o in op.face.ops if isinstance(o, TextOp)] == [6]


def _fitted(catalog, folder, name):
    layouts = layouts_for(["card"], folder, catalog)
    placed, _ = plan(layouts, name)
    placement = placed["card"]
    assert isinstance(placement, Placement)
    options = apply_preset(name, RenderOptions(output_dir=Path("."), layouts_dir=folder))
    assets = AssetPolicy(catalog.path.parent)
    return fitted_copies(catalog, "card", layouts["card"], options, placement, assets, None)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_render_a_builtin_game_for_the_game_crafter(tmp_path, game):
    result = invoke("render", game, "--preset", "tgc", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "tgc"
    rows = list(csv.DictReader((folder / "manifest.csv").open()))
    pixels = {product.key: product.pixels for product in PRODUCTS["tgc"]}
    faces = [row for row in rows if row["kind"] != "part"]
    assert {row["kind"] for row in faces} == set(CARDS[game]) | set(TILES.get(("tgc", game), {}))
    for row in faces:
        for name in (row["front"], row["back"]):
            if name:
                with Image.open(folder / name) as image:
                    assert image.size == pixels[row["product"]], name
    readme = (folder / "README.txt").read_text()
    for line in result.output.splitlines():
        if " mm = " in line or " mm -> " in line or "has no product" in line:
            assert line in readme
    assert "tgc has no product for" in result.output  # every game has a kind TGC does not print
    if game == "gem-rush":
        assert (
            "point-gem: 25 x 25 mm -> Large Square Chit (LargeSquareChit) 1 x 1 in "
            "(25.4 x 25.4 mm), scaled 101.6%"
        ) in result.output.splitlines()
    if game == "gemstone-caverns":  # nothing it has is a TGC product: said, not an error
        assert faces == [] and "Nothing here is printed by this service." in readme


def test_render_every_builtin_game_for_drivethrucards(tmp_path):
    result = invoke("render", "--all", "--preset", "drivethrucards", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.glob("*/drivethrucards/*.pdf"))
    assert {pdf.name for pdf in pdfs} == {
        f"{kind}-print-shop.pdf" for kinds in CARDS.values() for kind in kinds
    }
    for pdf in pdfs:
        for page in PdfReader(pdf).pages:
            assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 198, 270])
            assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 189, 261])
    assert "dragonstone-mine tower (180 x 120 mm): not exported" in result.output
    assert PRESETS["drivethrucards"].bleed == 0.125 * INCH


def test_fitted_files_are_the_same_bytes_every_time(tmp_path):
    catalog = load_catalog(MINI_GAME / "catalog.json")
    layouts = MINI_GAME / "layouts"
    for folder in ("a", "b"):
        render_preset(catalog, RenderOptions(output_dir=tmp_path / folder, layouts_dir=layouts),
                      "mpc")  # fmt: skip
    names = sorted(p.name for p in (tmp_path / "a" / "mpc").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b" / "mpc").iterdir())
    for name in names:
        first = (tmp_path / "a" / "mpc" / name).read_bytes()
        assert first == (tmp_path / "b" / "mpc" / name).read_bytes(), name

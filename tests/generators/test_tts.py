"""Tabletop Simulator export: sheet geometry, card ids, saved objects, tiles and tokens."""

import json
from pathlib import Path

import pytest
from PIL import Image

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators.layout import builtin_layout, load_layout
from protopress.generators.render import RenderOptions, TextDoesNotFit
from protopress.generators.tts import (
    CARDS_PER_SHEET,
    HIDDEN_GREY,
    MAX_SIDE,
    card_pixels,
    object_type,
    sheet_grid,
    write_tts,
)

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
FRONT, BACK = "#e8d8b0", "#203040"
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [
        {"type": "rect", "bleed": True, "fill": FRONT},
        {"type": "text", "x": 5, "y": 5, "w": 53, "h": 10, "text": "{title}", "size": 10},
    ],
    "back": [{"type": "rect", "bleed": True, "fill": BACK}],
}


def rgb(hex_colour):
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def make_game(folder: Path, cards: list[dict], layout: dict = LAYOUT):
    """A catalog of generic cards and a layout folder beside it; returns (catalog, layouts)."""
    folder.mkdir(parents=True, exist_ok=True)
    document = {"game": "tts-test", "title": "TTS Test", "version": "1.0", "cards": cards}
    (folder / "catalog.json").write_text(json.dumps(document))
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "card.json").write_text(json.dumps(layout))
    return load_catalog(folder / "catalog.json"), folder / "layouts"


def saved(path: Path) -> dict:
    document = json.loads(path.read_text())
    assert len(document["ObjectStates"]) == 1
    return document["ObjectStates"][0]


# ---- sheet geometry (pure) --------------------------------------------------


def test_a_full_sheet_is_ten_by_seven_and_never_over_4096_pixels():
    poker_300 = (744, 1039)  # 63 x 88 mm at 300 dpi
    grid = sheet_grid(CARDS_PER_SHEET, poker_300)
    assert (grid.columns, grid.rows) == (10, 7)
    assert CARDS_PER_SHEET == 69 and grid.hidden == 69  # the last slot is the hidden card
    assert max(grid.size) <= MAX_SIDE
    assert grid.cell == (409, 572)  # 744 x 1039 shrunk by 4096 / 7440, aspect kept
    big = (2362, 3307)  # 200 x 280 mm at 300 dpi
    for cards in (1, 3, 10, 35, 69):
        grid = sheet_grid(cards, big)
        assert grid.columns <= 10 and grid.rows <= 7 and grid.slots >= cards + 1
        assert max(grid.size) <= MAX_SIDE
        assert grid.cell[0] / grid.cell[1] == pytest.approx(big[0] / big[1], abs=0.01)


def test_small_decks_get_the_smallest_grid_that_keeps_cards_sharpest():
    assert (sheet_grid(3, (100, 140)).columns, sheet_grid(3, (100, 140)).rows) == (2, 2)
    grid = sheet_grid(6, (744, 1039))  # 7 slots: a 4 x 2 grid keeps the full 300 dpi
    assert grid.cell == (744, 1039) and grid.slots >= 7 and max(grid.size) <= MAX_SIDE
    with pytest.raises(ValueError, match="1 to 69 cards"):
        sheet_grid(70, (100, 140))


def test_kinds_go_to_decks_tiles_or_tokens_by_shape():
    assert object_type(builtin_layout("gem-card")) == "deck"
    assert object_type(builtin_layout("room-tile")) == "tile"  # 70 mm square
    assert object_type(builtin_layout("point-gem")) == "token"  # 25 mm, one side
    assert object_type(builtin_layout("first-player-marker")) == "token"


# ---- decks -------------------------------------------------------------------


def test_seventy_cards_make_two_sheets_with_the_last_slot_reserved(tmp_path):
    cards = [{"id": f"c{n:02d}", "title": f"Card {n}"} for n in range(70)]
    catalog, layouts = make_game(tmp_path / "game", cards)
    out = tmp_path / "out"
    files = write_tts(catalog, RenderOptions(output_dir=out, layouts_dir=layouts, dpi=72))
    tts = out / "tts"
    assert sorted(p.relative_to(tts).as_posix() for p in files) == [
        "card.json", "card/back.png", "card/sheet-1.png", "card/sheet-2.png",
    ]  # fmt: skip
    cell = card_pixels(load_layout(layouts / "card.json"), 72)
    assert cell == (179, 249)  # small enough: no shrinking at 72 dpi
    with Image.open(tts / "card" / "sheet-1.png") as sheet:
        assert sheet.size == (10 * cell[0], 7 * cell[1])
        # slot 69, bottom right: the hidden card shows the back
        assert sheet.getpixel((9 * cell[0] + 5, 6 * cell[1] + 5)) == rgb(BACK)
        assert sheet.getpixel((8 * cell[0] + 5, 6 * cell[1] + 5)) == rgb(FRONT)  # card 68
    with Image.open(tts / "card" / "sheet-2.png") as sheet:
        assert sheet.size == (2 * cell[0], 2 * cell[1])  # one card and the hidden slot
        assert sheet.getpixel((cell[0] + 5, cell[1] + 5)) == rgb(BACK)
    deck = saved(tts / "card.json")
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "card"
    assert deck["DeckIDs"] == [*range(100, 169), 200]
    assert [card["CardID"] for card in deck["ContainedObjects"]] == deck["DeckIDs"]
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert (second["NumWidth"], second["NumHeight"]) == (2, 2)
    assert first["FaceURL"] == (tts / "card" / "sheet-1.png").resolve().as_uri()
    assert first["FaceURL"].startswith("file:///")
    assert first["BackURL"] == second["BackURL"] == (tts / "card" / "back.png").resolve().as_uri()
    assert first["BackIsHidden"] is True and first["UniqueBack"] is False
    assert first["Type"] == 1  # square corners: the layout has no corner radius
    card = deck["ContainedObjects"][0]
    assert card["Name"] == "Card" and card["Nickname"] == "Card 0" and card["GMNotes"] == "c00"
    assert card["CustomDeck"] == {"1": first}
    with Image.open(tts / "card" / "back.png") as back:
        assert back.size == cell and back.getpixel((5, 5)) == rgb(BACK)


def test_mini_game_deck_repeats_card_ids_for_copies_and_is_deterministic(tmp_path):
    catalog = load_catalog(MINI_GAME / "catalog.json")
    options = RenderOptions(output_dir=tmp_path / "a", layouts_dir=MINI_GAME / "layouts", dpi=72)
    files = write_tts(catalog, options)
    deck = saved(tmp_path / "a" / "tts" / "card.json")
    assert deck["DeckIDs"] == [100, 100, 100, 101, 101, 102]  # dawn x3, dusk x2, eclipse
    names = [card["Nickname"] for card in deck["ContainedObjects"]]
    assert names == ["Dawn", "Dawn", "Dawn", "Dusk", "Dusk", "Eclipse"]
    guids = [card["GUID"] for card in deck["ContainedObjects"]] + [deck["GUID"]]
    assert len(set(guids)) == len(guids) and all(len(g) == 6 for g in guids)
    assert deck["Description"] == "Mini Game 0.3"
    assert "Date" in json.loads((tmp_path / "a" / "tts" / "card.json").read_text())
    # byte-identical on a second run into the same folder
    before = {path: path.read_bytes() for path in files}
    again = write_tts(catalog, options)
    assert again == files
    assert all(path.read_bytes() == data for path, data in before.items())
    # and in another folder, the same except for the file URLs
    other = write_tts(catalog, RenderOptions(output_dir=tmp_path / "b",
                                             layouts_dir=MINI_GAME / "layouts", dpi=72))  # fmt: skip
    for first, second in zip(files, other, strict=True):
        left, right = first.read_bytes(), second.read_bytes()
        if first.suffix == ".json":
            left = left.replace(str((tmp_path / "a").resolve()).encode(), b"ROOT")
            right = right.replace(str((tmp_path / "b").resolve()).encode(), b"ROOT")
        assert left == right, first.name


def test_big_cards_shrink_to_fit_4096_pixels(tmp_path):
    layout = dict(LAYOUT, size={"width": "300mm", "height": "420mm"})
    cards = [{"id": f"c{n}", "title": f"Card {n}"} for n in range(3)]
    catalog, layouts = make_game(tmp_path / "game", cards, layout)
    write_tts(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=layouts, dpi=150))
    deck = saved(tmp_path / "tts" / "card.json")
    entry = deck["CustomDeck"]["1"]
    with Image.open(tmp_path / "tts" / "card" / "sheet-1.png") as sheet:
        # 1772 x 2480 px per card at 150 dpi: a 2 x 2 sheet would be 4960 px tall
        assert (entry["NumWidth"], entry["NumHeight"]) == (2, 2)
        assert max(sheet.size) <= MAX_SIDE and sheet.size[1] == 4096
        assert sheet.size == (2 * 1463, 2 * 2048)
    with Image.open(tmp_path / "tts" / "card" / "back.png") as back:
        assert max(back.size) <= MAX_SIDE


def test_different_backs_make_a_back_sheet_with_unique_backs(tmp_path):
    layout = dict(LAYOUT, corner_radius="3mm",
                  back=[{"type": "rect", "bleed": True, "fill": "{shade}"}])  # fmt: skip
    shades = ["#ff0000", "#00ff00", "#0000ff"]
    cards = [{"id": f"c{n}", "title": f"C{n}", "shade": shade} for n, shade in enumerate(shades)]
    catalog, layouts = make_game(tmp_path / "game", cards, layout)
    write_tts(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=layouts, dpi=72))
    tts = tmp_path / "tts"
    entry = saved(tts / "card.json")["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True and entry["Type"] == 0  # rounded corners
    assert entry["BackURL"] == (tts / "card" / "back-sheet-1.png").resolve().as_uri()
    assert not (tts / "card" / "back.png").exists()
    w, h = 179, 249
    with Image.open(tts / "card" / "back-sheet-1.png") as backs, \
         Image.open(tts / "card" / "sheet-1.png") as faces:  # fmt: skip
        assert backs.size == faces.size == (2 * w, 2 * h)
        for index, shade in enumerate(shades):
            x, y = (index % 2) * w + 20, (index // 2) * h + 20
            assert backs.getpixel((x, y)) == rgb(shade)
        # the hidden slot: a plain grey card, on both sheets
        assert faces.getpixel((w + 20, h + 20)) == HIDDEN_GREY
        assert backs.getpixel((w + 20, h + 20)) == HIDDEN_GREY


def test_a_single_card_is_a_card_not_a_deck_and_base_url_replaces_file_urls(tmp_path):
    catalog, layouts = make_game(tmp_path / "game", [{"id": "solo", "title": "Solo"}])
    write_tts(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=layouts, dpi=72),
              base_url="https://example.org/my game/tts/")  # fmt: skip
    card = saved(tmp_path / "tts" / "card.json")
    assert card["Name"] == "CardCustom" and card["CardID"] == 100
    entry = card["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/my game/tts/card/sheet-1.png"
    assert entry["BackURL"] == "https://example.org/my game/tts/card/back.png"


def test_strict_refuses_text_that_does_not_fit_before_writing(tmp_path):
    layout = json.loads(json.dumps(LAYOUT))
    layout["front"][1].update(h=2, w=5)
    catalog, layouts = make_game(tmp_path / "game", [{"id": "a", "title": "Far too long"}], layout)
    options = RenderOptions(output_dir=tmp_path / "out", layouts_dir=layouts, strict=True)
    with pytest.raises(TextDoesNotFit):
        write_tts(catalog, options)
    assert not (tmp_path / "out").exists()


# ---- tiles and tokens ----------------------------------------------------------


def test_square_kinds_become_tiles_and_tokens_in_bags(tmp_path):
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    kinds = {kind: builtin_layout(kind) for kind in ("room-tile", "point-gem",
                                                     "first-player-marker")}  # fmt: skip
    write_tts(catalog, RenderOptions(output_dir=tmp_path, dpi=36), kinds)
    tts = tmp_path / "tts"
    assert sorted(p.name for p in tts.glob("*.json")) == [
        "first-player-marker.json", "point-gem.json", "room-tile.json",
    ]  # fmt: skip
    tiles = saved(tts / "room-tile.json")
    assert tiles["Name"] == "Bag" and tiles["Nickname"] == "room-tile"
    assert len(tiles["ContainedObjects"]) == catalog.copies("room-tile") == 80
    tile = tiles["ContainedObjects"][0]
    first = catalog.of_kind("room-tile")[0]
    assert tile["Name"] == "Custom_Tile" and tile["GMNotes"] == first.id
    assert tile["Nickname"] == first["title"]
    image = tile["CustomImage"]
    assert image["CustomTile"]["Type"] == 0  # a box
    assert image["ImageURL"] == (tts / "room-tile" / f"{first.id}-front.png").resolve().as_uri()
    assert image["ImageSecondaryURL"] == ""  # no back in the layout: TTS shows the front
    with Image.open(tts / "room-tile" / f"{first.id}-front.png") as picture:
        assert picture.size == (99, 99)  # 70 mm at 36 dpi, trim only
    gems = saved(tts / "point-gem.json")
    assert gems["Name"] == "Bag" and len(gems["ContainedObjects"]) == 57  # 28 + 19 + 10
    assert {piece["Name"] for piece in gems["ContainedObjects"]} == {"Custom_Token"}
    assert gems["ContainedObjects"][0]["CustomImage"]["CustomToken"]["Stackable"] is True
    assert len({piece["GUID"] for piece in gems["ContainedObjects"]}) == 57
    marker = saved(tts / "first-player-marker.json")
    assert marker["Name"] == "Custom_Token" and marker["Nickname"] == "First Player"


def test_a_double_sided_square_piece_is_a_tile_with_its_back(tmp_path):
    layout = dict(LAYOUT, size={"width": "25mm", "height": "25mm"})
    catalog, layouts = make_game(tmp_path / "game", [{"id": "a", "count": 2}, {"id": "b"}], layout)
    write_tts(catalog, RenderOptions(output_dir=tmp_path, layouts_dir=layouts, dpi=72))
    bag = saved(tmp_path / "tts" / "card.json")
    assert [piece["Name"] for piece in bag["ContainedObjects"]] == ["Custom_Tile"] * 3
    back = (tmp_path / "tts" / "card" / "back.png").resolve().as_uri()
    assert {p["CustomImage"]["ImageSecondaryURL"] for p in bag["ContainedObjects"]} == {back}
    assert [p["Nickname"] for p in bag["ContainedObjects"]] == ["a", "a", "b"]

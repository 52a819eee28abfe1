"""Gem Rush tile-set checks on small catalogs built by hand."""

import json

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush import checks as gem_rush_checks

GEMS = [
    {"id": gem, "name": gem, "special": special, "colour": "#123456", "shape": shape}
    for gem, special, shape in [
        ("fire-ruby", False, "drop"),
        ("obsidian", False, "hexagon"),
        ("electrum", False, "bolt"),
        ("diamond-dust", True, "star"),
        ("echoglass", True, "kite"),
    ]
]


def tile(id_, doors):
    return {"id": id_, "title": id_, "type": "action", "doors": doors,
            "ability": [{"op": "draw", "count": 1}], "text": "Draw 1."}  # fmt: skip


def door(cost, points):
    return {"cost": cost, "points": points}


@pytest.fixture
def catalog(tmp_path):
    def build(tiles, cards):
        path = tmp_path / "rush.json"
        document = {"game": "rush", "title": "Rush", "version": "1", "gems": GEMS,
                    "room_tiles": tiles, "gem_cards": cards}  # fmt: skip
        path.write_text(json.dumps(document))
        return load_catalog(path)

    return build


def findings(check, catalog, severity=None):
    found = [f for f in check(catalog, 0) if severity is None or f.severity == severity]
    return [str(f) for f in found]


def test_door_points_follow_the_catalogs_own_curve(catalog):
    tiles = [
        tile("a", {"N": door(["fire-ruby"], 1), "S": door(["obsidian"], 1)}),
        tile("b", {"N": door(["electrum"], 1), "E": door(["fire-ruby"], 3)}),
    ]
    cat = catalog(tiles, [{"id": "c", "gems": ["fire-ruby", "obsidian"]}])
    assert findings(gem_rush_checks.door_curve, cat, "warning") == [
        "warning b: door E costs fire-ruby and scores 3; doors of that cost usually score 1"
    ]
    (info,) = findings(gem_rush_checks.door_curve, cat, "info")
    assert info == "info room_tiles: door points by cost: 1 gem: 1"


def test_a_gem_nobody_supplies_and_a_lopsided_gem(catalog):
    tiles = [
        tile("a", {"N": door(["fire-ruby", "obsidian"], 2), "S": door(["electrum"], 1)}),
        tile("b", {"N": door(["fire-ruby"], 1)}),
    ]
    cards = [{"id": "c1", "gems": ["fire-ruby", "obsidian"], "count": 2}]
    found = findings(gem_rush_checks.gem_balance, catalog(tiles, cards))
    # demand: fire-ruby 2, obsidian 1, electrum 1; supply: fire-ruby 2, obsidian 2, electrum 0
    # ratios: fire-ruby 1.0, obsidian 0.5; mean 0.75; both stray by a third (> 25%)
    assert found == [
        "info gem_cards: door demand/card supply per gem: fire-ruby 2/2, obsidian 1/2, electrum 1/0",
        "warning fire-ruby: fire-ruby is demanded 1.00 times per card against 0.75 for the average gem",
        "warning obsidian: obsidian is demanded 0.50 times per card against 0.75 for the average gem",
        "error electrum: door costs ask for electrum 1 time but no gem card shows it",
    ]


def test_a_door_the_whole_deck_cannot_pay(catalog):
    tiles = [tile("vault", {"N": door(["obsidian", "obsidian", "obsidian"], 4)})]
    # two obsidian and one echoglass can pay three obsidian; one of each cannot
    payable = [{"id": "c1", "gems": ["obsidian"], "count": 2}, {"id": "c2", "gems": ["echoglass"]}]
    assert findings(gem_rush_checks.payable_doors, catalog(tiles, payable)) == []
    short = [{"id": "c1", "gems": ["obsidian"]}, {"id": "c2", "gems": ["echoglass"]}]
    assert findings(gem_rush_checks.payable_doors, catalog(tiles, short)) == [
        "error vault: door N costs obsidian+obsidian+obsidian: the whole gem deck cannot pay it"
    ]
    wild = [*short, {"id": "c3", "gems": ["diamond-dust"]}]
    assert findings(gem_rush_checks.payable_doors, catalog(tiles, wild)) == []


def test_the_builtin_tile_set_has_no_errors_or_warnings():
    cat = load_catalog(builtin_catalog_path("gem-rush"))
    for check in gem_rush_checks.CHECKS:
        assert [str(f) for f in check.run(cat, 1) if f.severity != "info"] == []


def test_mine_growth_work_is_bounded_on_a_catalog_of_10000_copies_per_tile(tmp_path, monkeypatch):
    """The documented count limit on every room tile (760,000 tiles): the check runs
    through run_checks, as `protopress check` does, laying out no copies and
    growing each mine to at most GROWTH_LIMIT tiles."""
    from protopress.games.gem_rush import mine, mine_growth
    from protopress.validators.registry import run_checks

    document = json.loads(builtin_catalog_path("gem-rush").read_text(encoding="utf-8"))
    document.pop("$schema", None)
    document.get("totals", {}).pop("room_tiles", None)
    for room in document["room_tiles"]:
        room["count"] = 10_000
    path = tmp_path / "rush.json"
    path.write_text(json.dumps(document))
    catalog = load_catalog(path)

    placed, made, grown = [0], [0], [0]
    place, from_component, grow = (
        mine.Mine.place,
        mine.RoomTile.from_component,
        mine_growth.grow_mine,
    )

    def counting_place(self, *args):
        placed[0] += 1
        place(self, *args)

    def counting_tile(component):
        made[0] += 1
        return from_component(component)

    def counting_grow(*args, **kwargs):
        grown[0] += 1
        return grow(*args, **kwargs)

    monkeypatch.setattr(mine.Mine, "place", counting_place)
    monkeypatch.setattr(mine.RoomTile, "from_component", counting_tile)
    monkeypatch.setattr(mine_growth, "grow_mine", counting_grow)
    findings = [f for f in run_checks(catalog, seed=0) if f.check == "mine-growth"]

    assert len(findings) == 1
    assert findings[0].data["stack"] == 760_000
    assert findings[0].data["growth_limit"] == mine_growth.GROWTH_LIMIT
    assert f"within their first {mine_growth.GROWTH_LIMIT} tiles" in findings[0].message
    assert grown[0] == gem_rush_checks.MINES
    assert made[0] == len(document["room_tiles"])  # one object per tile, not per copy
    assert placed[0] <= gem_rush_checks.MINES * mine_growth.GROWTH_LIMIT

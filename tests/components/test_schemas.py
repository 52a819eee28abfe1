"""The schema files themselves."""

import json
from pathlib import Path

import jsonschema
import pytest

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.components.schemas import kinds, schema_documents

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("name", sorted(schema_documents()))
def test_every_schema_is_a_valid_2020_12_schema(name):
    schema = schema_documents()[name]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_kind_is_documented():
    documented = (DOCS / "catalog-format.md").read_text()
    for kind in kinds().values():
        assert f"| `{kind.collection}` | `{kind.name}` |" in documented


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_builtin_catalogs_are_valid_and_carry_their_schema(game):
    path = builtin_catalog_path(game)
    catalog = load_catalog(path)
    assert catalog.game == game
    assert json.loads(path.read_text())["$schema"] == "../../components/schemas/catalog.schema.json"


def test_gem_rush_box_contents():
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    assert catalog.copies("room-tile") == 80
    assert catalog.copies("gem-card") == 75
    assert catalog.copies("skill-card") == 20
    points = {token["value"]: token.count for token in catalog.of_kind("point-gem")}
    assert points == {1: 28, 3: 19, 10: 10}
    titles = {tile["title"] for tile in catalog.of_kind("room-tile")}
    clarified = {
        "Auric Fountain", "Chaos Fountain", "Chaos Vein", "Crystal Garden", "Crystalarium",
        "Dark Pit", "Diamond Refinery", "Diamond Splitter", "Diamond Spring", "Diamond Vein",
        "Dimensional Rift", "Dissonance Fountain", "Dream Shaft", "Echo Chamber",
        "Echoglass Vein", "Eddy", "Electrum Fountain", "Electrum Shaft", "Entropic Fountain",
        "Fire Ruby Shaft", "Warped Mirror", "Mystic Elevator",
    }  # fmt: skip
    assert clarified <= titles
    assert any(tile.get("mine_cart") for tile in catalog.of_kind("room-tile"))
    assert any(tile["type"] == "tunnel" for tile in catalog.of_kind("room-tile"))


def test_stonespine_has_enough_chambers_for_five_players_and_nine_rivals():
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    assert catalog.copies("chamber-card") >= 5 * 5 * 4
    difficulties = sorted(card["difficulty"] for card in catalog.of_kind("rival-card"))
    assert difficulties == ["diamond"] * 3 + ["legendary"] * 3 + ["plain"] * 3

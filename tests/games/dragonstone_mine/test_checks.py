"""DragonStone Mine set checks: gem supply and level-2 card costs."""

import json

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.dragonstone_mine.checks import CHECKS, unpayable_reasons

MINE = {"text": "Mine again.", "steps": [{"op": "mine"}]}


def colour(colour_id, count):
    return {
        "id": colour_id,
        "count": count,
        "name": colour_id.title(),
        "colour": "#888888",
        "shape": "drop",
        "rule": MINE,
    }


def card(card_id, title, cost, count=1):
    level = {"level": 2, "cost": cost} if cost else {"level": 1}
    return {
        "id": card_id,
        "count": count,
        "title": title,
        "text": "Dig.",
        "effect": [MINE["steps"][0]],
    } | level


@pytest.fixture
def dragonstone(write_catalog):
    def build(colours, spires, cards, players=None):
        document = {
            "game": "my-game",
            "title": "My Game",
            "version": "1.0",
            "gem_colours": colours,
            "towers": [{"id": "tower", "count": 4, "spires": spires}],
            "action_cards": cards,
        }
        if players:
            pad = {"id": "pad", "title": "Pad", "players": players, "rows": ["Gems"]}
            document["score_pads"] = [pad]
        return load_catalog(write_catalog(json.dumps(document)))

    return build


def messages(catalog):
    return [str(finding) for check in CHECKS for finding in check.run(catalog, 0)]


def test_a_cost_needs_gems_in_the_tower_and_in_the_bag():
    # Gems are paid one at a time from spire tops, so a tower of 4 gems pays at most 4.
    assert unpayable_reasons(["red"] * 5, 4, {"red": 40}) == [
        "it costs 5 gems but no tower holds more than 4"
    ]
    assert unpayable_reasons(["red", "purple", "purple"], 30, {"red": 40, "purple": 1}) == [
        "it costs 2 purple but the bag holds 1"
    ]
    assert unpayable_reasons(["red"] * 6, 30, {"red": 6}) == []


def test_unpayable_level_two_cards_are_errors(dragonstone):
    catalog = dragonstone(
        [colour("red", 10), colour("purple", 0)],
        [8, 8, 7, 7],
        [
            card("dig", "Dig", None, count=5),
            card("small-dig", "Small Dig", ["red", "red"], count=3),
            card("big-dig", "Big Dig", ["red"] * 5, count=2),  # payable: 30 gems in the tower
            card("dark-wish", "Dark Wish", ["purple"]),
        ],
    )
    assert messages(catalog) == [
        "info gem_colours: the bag holds 10 gems: red 10, purple 0",
        # No score pad: four players, 4 x 30 gems.
        "warning gem_colours: the bag holds 10 gems but 4 towers of 30 hold 120",
        "error dark-wish: 'Dark Wish' cannot be paid: it costs 1 purple but the bag holds 0",
        "info action_cards: level-2 cost curve (cards by gems in the cost): "
        "1 gem: 1, 2 gems: 3, 5 gems: 2",
    ]


def test_the_score_pads_set_the_player_count(dragonstone):
    two_players = dragonstone([colour("red", 59)], [5] * 6, [card("dig", "Dig", ["red"])], 2)
    assert "warning gem_colours: the bag holds 59 gems but 2 towers of 30 hold 60" in (
        messages(two_players)
    )
    enough = dragonstone([colour("red", 60)], [5] * 6, [card("dig", "Dig", ["red"])], 2)
    assert [m for m in messages(enough) if not m.startswith("info")] == []


def test_the_built_in_set_fills_its_towers_and_pays_every_card():
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    assert messages(catalog) == [
        "info gem_colours: the bag holds 200 gems: red 40, yellow 40, green 40, blue 40, purple 40",
        "info action_cards: level-2 cost curve (cards by gems in the cost): "
        "1 gem: 12, 2 gems: 12, 3 gems: 6",
    ]

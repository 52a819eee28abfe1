"""The built-in Gem Rush rooms the rulebook clarifies by name encode exactly
what the clarification says, step by step, left to right."""

import pytest

from protopress.components import builtin_catalog_path, load_catalog


def discard(where=None):
    return {"op": "discard", "count": 1, **({"where": where} if where else {})}


def reveal(n):
    return {"op": "reveal", "count": n}


def keep(count="all", where=None):
    return {"op": "keep", "count": count, **({"where": where} if where else {})}


def dig(n, where):
    return {"op": "dig", "count": n, "where": where}


def draw(n):
    return {"op": "draw", "count": n}


CLARIFIED = {
    # Reveal 5 and Keep any cards that have a Fire Ruby or an Electrum.
    "Auric Fountain": [reveal(5), keep(where={"any": ["fire-ruby", "electrum"]})],
    # Discard a card. Reveal 5 and Keep those that don't have any gems matching the discarded card.
    "Chaos Fountain": [discard(), reveal(5), keep(where={"none": "discarded"})],
    # Discard a card. Dig for 3 cards that don't have gems matching the discarded card. Keep all 3.
    "Chaos Vein": [discard(), dig(3, {"none": "discarded"}), keep()],
    # Draw a number of cards equal to the number of cards in your hand.
    "Crystal Garden": [draw("hand")],
    # Discard a card. Dig for 3 cards matching at least 1 gem on the discarded card. Keep all 3.
    "Crystalarium": [discard(), dig(3, {"any": "discarded"}), keep()],
    # Lose 1 point. Draw 4 cards.
    "Dark Pit": [{"op": "score", "points": -1}, draw(4)],
    # Discard a card with Diamond Dust. Score 2 points and Draw a card.
    "Diamond Refinery": [discard({"any": ["diamond-dust"]}), {"op": "score", "points": 2}, draw(1)],
    # Discard a card with Diamond Dust. Name 2 gems, Dig for a card with both named gems, Score 1.
    "Diamond Splitter": [
        discard({"any": ["diamond-dust"]}),
        {"op": "name_gem", "count": 2},
        dig(1, {"all": "named"}),
        keep(),
        {"op": "score", "points": 1},
    ],
    # Reveal 9 cards and Keep any cards with Diamond Dust.
    "Diamond Spring": [reveal(9), keep(where={"any": ["diamond-dust"]})],
    # Dig for 2 gem cards with only Diamond Dust and Keep both cards.
    "Diamond Vein": [dig(2, {"only": ["diamond-dust"]}), keep()],
    # Draw a card. Return 1 empty constructed room tile to the bottom of the room stack.
    "Dimensional Rift": [draw(1), {"op": "return_room"}],
    # Name 2 gems. Reveal 3 cards and Keep those without any of the named gems.
    "Dissonance Fountain": [
        {"op": "name_gem", "count": 2},
        reveal(3),
        keep(where={"none": "named"}),
    ],
    # Discard a gem card with a Star Tear or an Electrum. Draw 4 cards.
    "Dream Shaft": [discard({"any": ["star-tear", "electrum"]}), draw(4)],
    # Discard a gem card with an Orichalcum. Take the top 4 gem cards in the discard stack.
    "Echo Chamber": [discard({"any": ["orichalcum"]}), {"op": "take_discard", "count": 4}],
    # Dig for 2 gem cards that have an Echoglass and Keep both cards.
    "Echoglass Vein": [dig(2, {"any": ["echoglass"]}), keep()],
    # Take the top 2 gem cards in the discard stack into hand.
    "Eddy": [{"op": "take_discard", "count": 2}],
    # Reveal 7 gem cards and Keep any cards that have a Fire Ruby or an Electrum.
    "Electrum Fountain": [reveal(7), keep(where={"any": ["fire-ruby", "electrum"]})],
    # Discard a gem card that has an Electrum. Reveal 5 gem cards and Keep 3.
    "Electrum Shaft": [discard({"any": ["electrum"]}), reveal(5), keep(3)],
    # Reveal 6 gem cards and Keep any cards that have an Obsidian or a Permafrost.
    "Entropic Fountain": [reveal(6), keep(where={"any": ["obsidian", "permafrost"]})],
    # Discard a gem card that has a Fire Ruby. Reveal 5 gem cards and Keep 3.
    "Fire Ruby Shaft": [discard({"any": ["fire-ruby"]}), reveal(5), keep(3)],
    # Spend one movement step to swap locations with any other player.
    "Warped Mirror": [{"op": "swap_dwarf"}],
    # Move the entire room (and everyone in it) to a new location, free.
    "Mystic Elevator": [{"op": "move_room"}],
}
TYPES = {"Warped Mirror": "movement", "Mystic Elevator": "free"}


@pytest.fixture(scope="module")
def rooms():
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    return {tile["title"]: tile for tile in catalog.of_kind("room-tile")}


@pytest.mark.parametrize("title", sorted(CLARIFIED))
def test_clarified_room(rooms, title):
    room = rooms[title]
    assert room["ability"] == CLARIFIED[title]
    assert room["type"] == TYPES.get(title, "action")

"""The tools around data rules: the `used` record the balance lab reads, `protopress new`'s
rules.yaml, `protopress check`'s bounded simulation, and --rules-code."""

import json
import random
from pathlib import Path

from protopress.balance.stats import components
from protopress.components.loader import load_catalog
from protopress.rules.data.spec import data_spec
from protopress.rules.simulate import play

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"

# symbols gold, wood; cards in catalog order: ant (1), bee (2 copies), cat (1)
TINY = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"}],
    "cards": [{"id": "ant", "title": "Ant", "cost": ["gold"], "points": 1},
              {"id": "bee", "title": "Bee", "count": 2, "cost": ["wood"], "points": 3},
              {"id": "cat", "title": "Cat", "cost": [], "points": 5}],
}  # fmt: skip

DRAW_AND_TOSS = """
rules: 1
game: tiny
players: {min: 2, max: 2}
zones:
  deck: {holds: card, seen: nobody, setup: all}
  hand: {holds: card, seen: owner, each: true}
turn:
  choose:
    draw: {do: [{draw: deck, to: my.hand}]}
    toss: {each: card, from: my.hand, do: [{discard: card}]}
end: [turns >= 3]
score: count(my.hand)
"""


def tiny_game(tmp_path, text):
    (tmp_path / "catalog.json").write_text(json.dumps(TINY))
    (tmp_path / "rules.yaml").write_text(text)
    spec = data_spec(tmp_path / "rules.yaml")
    return spec.new_game(), load_catalog(tmp_path / "catalog.json")


def test_used_keeps_a_card_that_left_the_seats_zones(tmp_path):
    # The deck, not shuffled, is [ant, bee, bee, cat]: its top is cat.
    # Turn 1, seat 0 draws cat; turn 2, seat 1 draws bee; turn 3, seat 0 tosses cat.
    # Seat 0's hand ends empty, yet cat entered it: used is [cat] and [bee].
    game, catalog = tiny_game(tmp_path, DRAW_AND_TOSS)
    state = game.setup(catalog, 2, random.Random(1), {})
    assert state.used == [frozenset(), frozenset()]  # nothing dealt at setup
    draw = game.actions.decode(["draw"])
    game.apply(state, draw)
    game.apply(state, draw)
    game.apply(state, game.actions.decode(["toss", "cat"]))
    assert game.is_over(state)
    record = game.record(state)
    assert record["hand"] == [[], ["bee"]]
    assert record["used"] == [["cat"], ["bee"]]


def test_a_copy_does_not_share_used_with_its_original(tmp_path):
    game, catalog = tiny_game(tmp_path, DRAW_AND_TOSS)
    state = game.setup(catalog, 2, random.Random(1), {})
    copy = state.copy()
    game.apply(copy, game.actions.decode(["draw"]))
    cat = 2  # cards are numbered in catalog order: ant 0, bee 1, cat 2
    assert state.used == [frozenset(), frozenset()] and copy.used[0] == frozenset({cat})


def test_the_balance_lab_reads_component_effects_of_a_data_game():
    """Cottage Market's rules.yaml says nothing of `used`, yet each game's record has it:
    a built card never leaves `built`, so used is the distinct ids of the built cards."""
    spec = data_spec(EXAMPLE / "rules.yaml")
    catalog = load_catalog(EXAMPLE / "catalog.json")
    game = spec.new_game()
    records = [play(game, catalog, ["greedy", "random"], seed)[1] for seed in range(8)]
    for record in records:
        assert record.extra["used"] == [sorted(set(built)) for built in record.extra["built"]]
    found = components(records)
    assert found is not None
    built = {card for r in records for seat in r.extra["built"] for card in seat}
    assert {entry["id"] for entry in found["items"]} == built

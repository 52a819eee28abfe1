"""The playtest table's view of a data game (DataGame.observation, rules/data/view.py):
zones by name with the catalog's card ids, hidden zones as counts, and nothing a seat
may not see (the same state with every hidden pile dealt again gives the same view)."""

import json
import random
from pathlib import Path

import pytest

from protopress.components.loader import load_catalog
from protopress.rules.bot_names import make_bot
from protopress.rules.data.spec import data_spec
from protopress.rules.information import reseed
from protopress.rules.observe import observation
from protopress.rules.plugins import load_rules
from protopress.web.table import PERSON, PlayTable, TableSetup

ROOT = Path(__file__).parents[3]
EXAMPLES = ROOT / "examples"

CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"}],
    "cards": [{"id": "ant", "title": "Ant", "points": 1},
              {"id": "bee", "title": "Bee", "count": 2, "points": 3},
              {"id": "cat", "title": "Cat", "points": 5}],
}  # fmt: skip

# Each player draws the deck's top card into a hand only they see, then may play one
# from the hand face up. The deck, unshuffled, is [ant, bee, bee, cat]: top is cat.
HANDS = """
rules: 1
game: tiny
players: {min: 2, max: 2}
resources: {kind: symbol}
zones:
  deck: {holds: card, seen: nobody, setup: all}
  hand: {holds: card, seen: owner, each: true}
  shown: {holds: card, seen: everyone, each: true}
turn:
  choose:
    draw:
      if: not empty(deck)
      do: [{draw: deck, to: my.hand}]
    play:
      each: card
      from: my.hand
      do: [{move: card, to: my.shown}, {gain: gold}]
end:
  - turns >= 6
score: count(card for card in my.shown)
"""


def example_table(tmp_path: Path, name: str, seed: int) -> PlayTable:
    """A person (playing as greedy would) against greedy at an example's rules.yaml."""
    rules = str(EXAMPLES / name / "rules.yaml")
    spec = load_rules(rules)
    catalog = load_catalog(EXAMPLES / name / "catalog.json")
    setup = TableSetup(
        spec.id, str(EXAMPLES / name / "catalog.json"), catalog.version, (PERSON, "greedy"),
        seed, spec.parse_options({}), rules,
    )  # fmt: skip
    return PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")


def twin_of(game, state, seat: int, rng: random.Random):
    """A state seat cannot tell from state: chance re-seeded, hidden piles dealt again."""
    twin = state.copy()
    reseed(twin, rng.getrandbits(64))
    game.seat_view.determinize(twin, seat, rng, lazily=False)
    return twin


def hidden_piles(game, state, seat: int) -> list[list[int]]:
    """The piles seat may not see in order (the face-down deck, the others' hands)."""
    found = []
    for entry in game.seat_view.hidden:
        if getattr(entry, "pool", None) is not None:
            found.append(list(entry.pool.pile(state)))
        if hasattr(entry, "zones"):
            found += [list(z) for owner, z in enumerate(entry.zones(state)) if owner != seat]
        elif hasattr(entry, "pile"):
            found.append(list(entry.pile(state)))
    return found


def check_cottage(fields: dict, ids: set[str]) -> None:
    zones = fields["zones"]
    assert zones["market"] and set(zones["market"]) <= ids
    assert all(set(built) <= ids for built in zones["built"])
    assert zones["deck"]["hidden"] == "deck" and zones["deck"]["kind"] == "card"
    assert set(fields["resources"][0]) == {"gold", "wood", "stone"}


def check_brookfield(fields: dict, ids: set[str]) -> None:
    zones = fields["zones"]
    assert set(zones["market"]) <= ids
    for field in zones["field"]:  # size 4 by default: four rows of four cells
        assert len(field) == 4 and all(len(row) == 4 for row in field)
        assert {cell for row in field for cell in row} <= ids | {None}
    assert zones["bag"]["hidden"] == "bag" and zones["bag"]["kind"] == "tile"


def check_dockside(fields: dict, ids: set[str]) -> None:
    zones = fields["zones"]
    assert set(zones["dice"]) <= {"fish-face", "salt-face", "rope-face", "pearl-face"}
    assert set(zones["market"]) <= ids
    assert [set(marks) for marks in fields["tracks"]] == [{"renown"}, {"renown"}]
    assert all(0 <= marks["renown"] <= 20 for marks in fields["tracks"])


@pytest.mark.parametrize(
    ("name", "kind", "check"),
    [("cottage-market", "card", check_cottage), ("brookfield", "tile", check_brookfield),
     ("dockside-dice", "card", check_dockside)],
)  # fmt: skip
def test_an_example_at_the_table_shows_ids_and_leaks_nothing(tmp_path, name, kind, check):
    table = example_table(tmp_path, name, seed=4)
    ids = {component.id for component in table.catalog.of_kind(kind)}
    chooser, rng, views = make_bot("greedy", 99), random.Random(3), 0
    while True:
        seen = json.loads(json.dumps(table.view()))
        views += 1
        check(seen["table"]["fields"], ids)
        shown = {text for text in json.dumps(seen["table"]["fields"]).split('"') if text in ids}
        assert shown <= set(seen["components"])  # each card named is drawn from its face
        # Nothing hidden: a twin of the state (every hidden pile dealt again) shows the
        # same view, and no hidden pile appears in order.
        twin = twin_of(table.game, table.state, seen["viewer"], rng)
        other = observation(table.game, twin, seen["viewer"], 2, table._kind_of)
        assert json.loads(json.dumps(other)) == seen["table"]
        named = table.game.model(table.catalog).cards.ids
        for pile in hidden_piles(table.game, table.state, seen["viewer"]):
            if len(pile) >= 2:
                assert json.dumps([named[card] for card in pile]) not in json.dumps(seen)
        if seen["over"]:
            break
        if seen["bot_to_move"]:
            table.bot_move(seen["moves"])
        else:
            act = chooser.choose(table.game, table.state)
            table.play(table.codec.encode(act), seen["moves"])
    assert views > 10 and seen["table"]["scores"] is not None


def test_a_hand_is_shown_to_its_owner_and_counted_for_the_others(tmp_path):
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(HANDS)
    game = data_spec(tmp_path / "rules.yaml").new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state = game.setup(catalog, 2, random.Random(1), {})
    for act in (("draw",), ("draw",), ("draw",)):  # seat 0 draws cat, 1 draws bee, 0 bee
        game.apply(state, game.actions.decode(list(act)))
    # Seat 1 plays its bee (hand [bee] -> [], shown [bee], 1 gold); seat 0 plays its bee
    # (hand [cat, bee] -> [cat], shown [bee], 1 gold); seat 1 to move, hand empty.
    game.apply(state, game.actions.decode(["play", "bee"]))
    game.apply(state, game.actions.decode(["play", "bee"]))
    zero, one = game.observation(state, 0)["fields"], game.observation(state, 1)["fields"]
    assert zero["zones"]["hand"] == [["cat"], {"hidden": "hand", "count": 0, "kind": "card"}]
    assert one["zones"]["hand"] == [{"hidden": "hand", "count": 1, "kind": "card"}, []]
    assert zero["zones"]["shown"] == one["zones"]["shown"] == [["bee"], ["bee"]]
    # The deck [ant] is left: counted, never listed.
    assert zero["zones"]["deck"] == {"hidden": "deck", "count": 1, "kind": "card"}
    assert zero["resources"] == [{"gold": 1}, {"gold": 1}]
    assert zero["turns"] == 5


def test_a_hand_dealt_again_leaves_the_others_view_unchanged(tmp_path):
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(HANDS)
    game = data_spec(tmp_path / "rules.yaml").new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state = game.setup(catalog, 2, random.Random(1), {})
    for _ in range(3):  # seat 0 draws cat, 1 draws bee, 0 bee: the deck is [ant, bee]
        game.apply(state, game.actions.decode(["draw"]))
    hand = game.model(catalog).zone("hand").first + 1
    rng, dealt = random.Random(7), set()
    for _ in range(16):
        twin = twin_of(game, state, 0, rng)
        dealt.add(tuple(twin.piles[hand]))
        assert game.observation(twin, 0) == game.observation(state, 0)
    assert len(dealt) == 2  # seat 1's hand was dealt as [ant] and as [bee]

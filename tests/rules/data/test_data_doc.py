"""docs/data-rules.md tells the truth: every whole rules file in it is checked and
played against the Cottage Market catalog, every fragment is YAML the kit reads, and
the walkthrough is the example's rules.yaml."""

import random
import re
import shutil
from pathlib import Path

import pytest

from protopress.components.loader import load_catalog
from protopress.components.yamlsource import parse_yaml
from protopress.rules.data.spec import data_spec
from protopress.rules.simulate import play

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "data-rules.md").read_text()
EXAMPLE = ROOT / "examples" / "cottage-market"
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, flags=re.DOTALL)
WHOLE = [block for block in BLOCKS if block.startswith("rules: 1")]


def test_the_doc_has_whole_files_and_fragments():
    assert len(WHOLE) >= 2 and len(BLOCKS) > len(WHOLE)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block-{i}" for i in range(len(BLOCKS))])
def test_every_yaml_block_is_yaml_the_kit_reads(block):
    parse_yaml(block)


@pytest.mark.parametrize("block", WHOLE, ids=[f"whole-{i}" for i in range(len(WHOLE))])
def test_every_whole_rules_file_plays_a_game(tmp_path, block):
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(block)
    spec = data_spec(tmp_path / "rules.yaml")
    catalog = load_catalog(tmp_path / "catalog.json")
    _, record, actions = play(spec.new_game(), catalog, ["random"] * spec.min_players, 7)
    assert not record.limit and len(actions) == record.turns > 0


def test_the_walkthrough_is_the_examples_rules_file():
    example = parse_yaml((EXAMPLE / "rules.yaml").read_text())[0]
    assert parse_yaml(WHOLE[0])[0] == example


def test_the_smaller_game_by_hand(tmp_path):
    """Draw three: 6 turns, each player's hand holds 3 cards, the score their points
    (read from the catalog: a card without points scores 0)."""
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(WHOLE[1])
    game = data_spec(tmp_path / "rules.yaml").new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state = game.setup(catalog, 2, random.Random(3), {})
    while not game.is_over(state):
        game.apply(state, game.legal_actions(state)[0])
    ids = game.model(catalog).cards.ids
    hands = [[ids[card] for card in pile] for pile in state.piles[1:3]]
    assert [len(hand) for hand in hands] == [3, 3] and state.turns == 6
    points = {card["id"]: card.get("points", 0) for card in catalog.document["cards"]}
    assert game.scores(state) == [sum(points[card] for card in hand) for hand in hands]

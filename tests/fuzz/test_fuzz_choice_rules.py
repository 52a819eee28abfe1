"""Rules files with choices inside an action, bags, rows of zones and last turns:
DragonStone Mine's Smiley rules file mutated is a game that plays, or located
problems, or a RulesFault naming the rules file, in bounded time (as
test_fuzz_rules_files.py holds for Cottage Market's)."""

from pathlib import Path

import pytest
from fuzzing import fuzz_settings, smoke_settings
from hypothesis import given
from test_fuzz_rules_files import check_rules_text, example_folder, mutated

GAME = Path(__file__).parents[2] / "protopress" / "games" / "dragonstone_mine"
BASE = (GAME / "smiley.rules.yaml").read_text()
PIECES = [
    "choose:", "optional: true", "by: victim", "by: 3", "by: my", "others", "victim.", "my.",
    "spires", "my.spires", "piles: 0", "piles: 40", "piles: 2", "bag: true", "bag: false",
    "shuffle: true", "each: [a, b]", "each: [source]", "from: [my.spires]", "from: others",
    "last_turns: ", "last_round: ", "source != target", "first < second", "top(", "count(",
    "p.score", "skip", "stack", "move", "(", ")", "+", "-", "1", "0", ",", "{", "}", "[", "]",
    ": ", "- ", "  ", "\n", "null", "each: true", "9" * 30, "&a ", "*a", "*place", "\t",
]  # fmt: skip


def mutated_rules():
    return mutated(BASE, PIECES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return example_folder(tmp_path_factory, GAME)


@pytest.mark.fuzz
@fuzz_settings()
@given(text=mutated_rules())
def test_fuzz_choice_rules_files(folder, text):
    check_rules_text(text, folder)


@smoke_settings()
@given(text=mutated_rules())
def test_smoke_choice_rules_files(folder, text):
    check_rules_text(text, folder)

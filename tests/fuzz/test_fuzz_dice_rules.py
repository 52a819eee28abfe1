"""Rules files with dice, tracks and payments: Dockside Dice's rules.yaml mutated is a
game that plays, or located problems, or a RulesFault naming the rules file, in
bounded time (as test_fuzz_rules_files.py holds for Cottage Market's)."""

from pathlib import Path

import pytest
from fuzzing import fuzz_settings, smoke_settings
from hypothesis import given
from test_fuzz_rules_files import check_rules_text, example_folder, mutated

EXAMPLE = Path(__file__).parents[2] / "examples" / "dockside-dice"
BASE = (EXAMPLE / "rules.yaml").read_text()
PIECES = [
    "die", "dice", "quay", "my.", "renown", "my.renown", "pearl", "fish", "roll: dice",
    "advance: renown", "n: -3", "n: 99", "n: players", "dice: 0", "dice: 33", "faces: []",
    "faces: [pearl-face]", "wild: [fish]", "trade: 1", "trade: 10", "end: 0", "start: -1",
    "points: []", "track_points(", "track_points(renown)", "can_pay(", "die.good", ".good",
    "(", ")", "+", "-", "1", "0", ",", "{", "}", "[", "]", ": ", "- ", "  ", "\n", "null",
    "each: true", "slots: 2", "9" * 30, "&a ", "*a", "\t",
]  # fmt: skip


def mutated_rules():
    return mutated(BASE, PIECES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return example_folder(tmp_path_factory, EXAMPLE)


@pytest.mark.fuzz
@fuzz_settings()
@given(text=mutated_rules())
def test_fuzz_dice_rules_files(folder, text):
    check_rules_text(text, folder)


@smoke_settings()
@given(text=mutated_rules())
def test_smoke_dice_rules_files(folder, text):
    check_rules_text(text, folder)

"""Rules files with dice, tracks and payments: Dockside Dice's rules.yaml mutated is a
game that plays, or located problems, or a RulesFault naming the rules file, in
bounded time (as test_fuzz_rules_files.py holds for Cottage Market's)."""

import shutil
from pathlib import Path

import pytest
from fuzzing import fuzz_settings, smoke_settings
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_rules_files import check_rules_text

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


@st.composite
def mutated_rules(draw):
    text = BASE
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 10))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=4))
        text = text[:at] + piece + text[at + cut :]
    return text


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dice-rules")
    shutil.copy(EXAMPLE / "catalog.json", folder / "catalog.json")
    return folder


@pytest.mark.fuzz
@fuzz_settings()
@given(text=mutated_rules())
def test_fuzz_dice_rules_files(folder, text):
    check_rules_text(text, folder)


@smoke_settings()
@given(text=mutated_rules())
def test_smoke_dice_rules_files(folder, text):
    check_rules_text(text, folder)

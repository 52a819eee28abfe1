"""Rules files with drafting, turn structure and set scoring: Tidewrack's rules.yaml
mutated is a game that plays, or located problems, or a RulesFault naming the rules
file, in bounded time (as test_fuzz_rules_files.py holds for Cottage Market's).

The base takes 2 players at least (the shared check plays 4 seats) and one tide, so
that an example plays fast."""

from pathlib import Path

import pytest
from fuzzing import fuzz_settings, smoke_settings
from hypothesis import given
from test_fuzz_rules_files import check_rules_text, example_folder, mutated

EXAMPLE = Path(__file__).parents[2] / "examples" / "tidewrack"
BASE = (
    (EXAMPLE / "rules.yaml")
    .read_text()
    .replace("players: {min: 3, max: 5}", "players: {min: 2, max: 5}")
    .replace("tides: {whole: 3,", "tides: {whole: 1,")
)
assert "players: {min: 2, max: 5}" in BASE and "tides: {whole: 1," in BASE
PIECES = [
    "find", "hand", "picked", "tray", "strand", "my.", "my.tray + my.picked", "f.family",
    "f.species", "f.fronds", "counts(", "distinct_sets(", "scale(", "most(", "fewest(",
    "'split'", "'each'", "'spilt'", "pass: {zone: hand, to: right}", "to: up", "zone: tray",
    "actions: 3", "actions: 0", "order: {lowest: count(my.tray)}", "order: {highest: 1}",
    "phases: {a: [pick]}", "phases: {a: [done]}", "{last_round: true}",
    "{last_round: count(my.tray) > 2}", "after_round: []", "done", "round",
    "(", ")", "+", "-", "//", "1", "0", ",", "{", "}", "[", "]", ": ", "- ", "  ", "\n",
    "null", "each: true", "seen: everyone", "9" * 30, "&a ", "*a", "\t",
]  # fmt: skip


def mutated_rules():
    return mutated(BASE, PIECES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return example_folder(tmp_path_factory, EXAMPLE)


@pytest.mark.fuzz
@fuzz_settings()
@given(text=mutated_rules())
def test_fuzz_draft_rules_files(folder, text):
    check_rules_text(text, folder)


@smoke_settings()
@given(text=mutated_rules())
def test_smoke_draft_rules_files(folder, text):
    check_rules_text(text, folder)

"""Rules files of data: any text in a rules.yaml is a game that plays, or located
problems (file, line, column, pointer, message), or a RulesFault naming the rules file,
in bounded time; never an internal error, a hang, or code run."""

import shutil
from pathlib import Path

import pytest
from fuzzing import assert_clean_problems, fuzz_settings, hard_timeout, smoke_settings
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import InvalidInput, load_catalog
from protopress.rules.core import RulesFault
from protopress.rules.data.spec import data_spec
from protopress.rules.options import OptionError
from protopress.rules.simulate import play

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"
BASE = (EXAMPLE / "rules.yaml").read_text()
PIECES = [
    "card", "my.", "market", "deck", "built", "gold", "(", ")", "+", "*", "//", "%", "-", "1",
    "0", "'x'", " not ", " and ", " in ", " for ", " if ", "sum(", "count(", "total(", "empty(",
    "can_pay(", ".", "cost", "points", "produces", "__class__", "__import__('os')", ",",
    "{", "}", "[", "]", ": ", "n: 3", "to: my.built", "- ", "  ", "\n", "true", "null",
    "each: card", "from: market", "slots: 0", "refill: market", "each: true", "seen: owner",
    "9" * 30, "lambda: 0", "**", "&a ", "*a", "!!python/object:os.system ", "\t",
]  # fmt: skip


@st.composite
def mutated(draw, base: str, pieces: list[str]) -> str:
    """A rules file's text with a few cuts and insertions: pieces of its language,
    or anything."""
    text = base
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 10))
        piece = draw(st.sampled_from(pieces) | st.text(max_size=4))
        text = text[:at] + piece + text[at + cut :]
    return text


def mutated_rules():
    return mutated(BASE, PIECES)


def example_folder(tmp_path_factory, example: Path) -> Path:
    """A folder holding a copy of an example's catalog, for mutated rules beside it."""
    folder = tmp_path_factory.mktemp(example.name)
    shutil.copy(example / "catalog.json", folder / "catalog.json")
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return example_folder(tmp_path_factory, EXAMPLE)


def check_rules_text(text: str, folder: Path) -> None:
    path = folder / "rules.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    display = str(path)
    with hard_timeout():
        try:
            spec = data_spec(path, display)
            catalog = load_catalog(folder / "catalog.json")
            game = spec.new_game()
            players = max(spec.min_players, min(2, spec.max_players))
            for seed in range(2):
                play(game, catalog, ["greedy", "random"][:players] * players, seed)
        except InvalidInput as invalid:
            assert_clean_problems(invalid.problems, display)
            event("refused")
            return
        except (RulesFault, OptionError) as fault:
            assert str(fault).strip()
            event("fault in play")
            return
    event("played")


@pytest.mark.fuzz
@fuzz_settings()
@given(text=mutated_rules())
def test_fuzz_rules_files(folder, text):
    check_rules_text(text, folder)


@smoke_settings()
@given(text=mutated_rules())
def test_smoke_rules_files(folder, text):
    check_rules_text(text, folder)

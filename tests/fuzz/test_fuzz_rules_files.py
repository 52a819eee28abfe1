"""Rules files of data: any text in a rules.yaml is a game that plays, or located
problems (file, line, column, pointer, message), or a RulesFault naming the rules file,
in bounded time; never an internal error, a hang, or code run.

Four surfaces, each a rules file mutated with pieces of the language it uses: Cottage
Market's (a market, costs and expressions), Dockside Dice's (dice, tracks and
payments), Tidewrack's (drafting, turn structure and set scoring) and DragonStone
Mine's Smiley rules (choices inside an action, bags, rows of zones and last turns)."""

import shutil
from dataclasses import dataclass
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

EXAMPLES = Path(__file__).parents[2] / "examples"
DRAGONSTONE = Path(__file__).parents[2] / "protopress" / "games" / "dragonstone_mine"
COTTAGE_PIECES = [
    "card", "my.", "market", "deck", "built", "gold", "(", ")", "+", "*", "//", "%", "-", "1",
    "0", "'x'", " not ", " and ", " in ", " for ", " if ", "sum(", "count(", "total(", "empty(",
    "can_pay(", ".", "cost", "points", "produces", "__class__", "__import__('os')", ",",
    "{", "}", "[", "]", ": ", "n: 3", "to: my.built", "- ", "  ", "\n", "true", "null",
    "each: card", "from: market", "slots: 0", "refill: market", "each: true", "seen: owner",
    "9" * 30, "lambda: 0", "**", "&a ", "*a", "!!python/object:os.system ", "\t",
]  # fmt: skip
DICE_PIECES = [
    "die", "dice", "quay", "my.", "renown", "my.renown", "pearl", "fish", "roll: dice",
    "advance: renown", "n: -3", "n: 99", "n: players", "dice: 0", "dice: 33", "faces: []",
    "faces: [pearl-face]", "wild: [fish]", "trade: 1", "trade: 10", "end: 0", "start: -1",
    "points: []", "track_points(", "track_points(renown)", "can_pay(", "die.good", ".good",
    "(", ")", "+", "-", "1", "0", ",", "{", "}", "[", "]", ": ", "- ", "  ", "\n", "null",
    "each: true", "slots: 2", "9" * 30, "&a ", "*a", "\t",
]  # fmt: skip
DRAFT_PIECES = [
    "find", "hand", "picked", "tray", "strand", "my.", "my.tray + my.picked", "f.family",
    "f.species", "f.fronds", "counts(", "distinct_sets(", "scale(", "most(", "fewest(",
    "'split'", "'each'", "'spilt'", "pass: {zone: hand, to: right}", "to: up", "zone: tray",
    "actions: 3", "actions: 0", "order: {lowest: count(my.tray)}", "order: {highest: 1}",
    "phases: {a: [pick]}", "phases: {a: [done]}", "{last_round: true}",
    "{last_round: count(my.tray) > 2}", "after_round: []", "done", "round",
    "(", ")", "+", "-", "//", "1", "0", ",", "{", "}", "[", "]", ": ", "- ", "  ", "\n",
    "null", "each: true", "seen: everyone", "9" * 30, "&a ", "*a", "\t",
]  # fmt: skip
SMILEY_PIECES = [
    "choose:", "optional: true", "by: victim", "by: 3", "by: my", "others", "victim.", "my.",
    "spires", "my.spires", "piles: 0", "piles: 40", "piles: 2", "bag: true", "bag: false",
    "shuffle: true", "each: [a, b]", "each: [source]", "from: [my.spires]", "from: others",
    "last_turns: ", "last_round: ", "source != target", "first < second", "top(", "count(",
    "p.score", "skip", "stack", "move", "(", ")", "+", "-", "1", "0", ",", "{", "}", "[", "]",
    ": ", "- ", "  ", "\n", "null", "each: true", "9" * 30, "&a ", "*a", "*place", "\t",
]  # fmt: skip


@dataclass(frozen=True)
class Surface:
    """A rules file that is mutated: its name, the text mutated, the pieces cut in and
    the folder of the catalog it reads."""

    example: str
    base: str
    pieces: list[str]
    home: Path


def rules_text(example: str) -> str:
    return (EXAMPLES / example / "rules.yaml").read_text()


# Tidewrack's base takes 2 players at least (the shared check plays 4 seats) and one
# tide, so that an example plays fast.
TIDEWRACK = (
    rules_text("tidewrack")
    .replace("players: {min: 3, max: 5}", "players: {min: 2, max: 5}")
    .replace("tides: {whole: 3,", "tides: {whole: 1,")
)
assert "players: {min: 2, max: 5}" in TIDEWRACK and "tides: {whole: 1," in TIDEWRACK
SURFACES = [
    Surface("cottage-market", rules_text("cottage-market"), COTTAGE_PIECES, EXAMPLES / "cottage-market"),
    Surface("dockside-dice", rules_text("dockside-dice"), DICE_PIECES, EXAMPLES / "dockside-dice"),
    Surface("tidewrack", TIDEWRACK, DRAFT_PIECES, EXAMPLES / "tidewrack"),
    Surface("dragonstone-smiley", (DRAGONSTONE / "smiley.rules.yaml").read_text(), SMILEY_PIECES, DRAGONSTONE),
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


@pytest.fixture(scope="module", params=SURFACES, ids=[surface.example for surface in SURFACES])
def surface(request, tmp_path_factory) -> tuple[Surface, Path]:
    """A surface and a folder holding a copy of its example's catalog, for the mutated
    rules beside it."""
    found: Surface = request.param
    folder = tmp_path_factory.mktemp(found.example)
    shutil.copy(found.home / "catalog.json", folder / "catalog.json")
    return found, folder


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


def check_a_mutation(surface: tuple[Surface, Path], data: st.DataObject) -> None:
    found, folder = surface
    check_rules_text(data.draw(mutated(found.base, found.pieces), label="rules.yaml"), folder)


@pytest.mark.fuzz
@fuzz_settings()
@given(data=st.data())
def test_fuzz_rules_files(surface, data):
    check_a_mutation(surface, data)


@smoke_settings()
@given(data=st.data())
def test_smoke_rules_files(surface, data):
    check_a_mutation(surface, data)

"""DragonStone Mine's typed actions: the log form of every verb, the words a message
shows, old logs read back as typed values, and every action the game offers is one."""

import json
import random
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.dragonstone_mine.actions import (
    ACTIONS,
    DO,
    DRAW,
    LOOSE,
    MINE,
    SKIP,
    Choose,
    DiscardCard,
    DoStep,
    DrawCard,
    KeepLoose,
    Mine,
    MoveGem,
    PayFrom,
    PlayCard,
    Skip,
    Stack,
    SwapTops,
    TakeFaceUp,
    move_action,
    stack_action,
)
from protopress.games.dragonstone_mine.spec import SPEC
from protopress.rules.core import codec_of

GOLDEN = sorted((Path(__file__).parents[2] / "rules" / "golden").glob("dragonstone-mine-*.json"))
GAME = SPEC.new_game()


@pytest.mark.parametrize(
    ("typed", "logged"),
    [
        (MINE, ["mine"]),
        (Stack(spire=4), ["stack", 4]),
        (LOOSE, ["loose"]),
        (MoveGem(source=2, target=0), ["move", 2, 0]),
        (SwapTops(first=0, second=3), ["swap", 0, 3]),
        (Choose(number=1), ["choose", 1]),
        (DRAW, ["draw"]),
        (TakeFaceUp(slot=2), ["take", 2]),
        (PlayCard(card="dragon-roar"), ["play", "dragon-roar"]),
        (DiscardCard(card="crystal-ball"), ["discard", "crystal-ball"]),
        (PayFrom(spire=5), ["pay", 5]),
        (DO, ["do"]),
        (SKIP, ["skip"]),
    ],
)
def test_each_verb_logs_as_it_always_did_and_reads_back(typed, logged):
    assert ACTIONS.encode(typed) == logged
    decoded = ACTIONS.decode(logged)
    assert decoded == typed and type(decoded) is type(typed)


def test_actions_read_in_words():
    assert repr(MoveGem(2, 0)) == "MoveGem(source=2, target=0)"
    assert ACTIONS.words(MoveGem(2, 0)) == "move source=2 target=0"
    assert ACTIONS.words(PlayCard("dragon-roar")) == "play card=dragon-roar"
    assert ACTIONS.words(MINE) == "mine"
    assert codec_of(GAME) is ACTIONS


def test_two_verbs_of_the_same_fields_never_compare_equal():
    assert Stack(1) != PayFrom(1) != Choose(1) != TakeFaceUp(1)
    assert PlayCard("mother-lode") != DiscardCard("mother-lode")
    assert len({MINE, LOOSE, DRAW, DO, SKIP}) == 5
    assert (Mine(), KeepLoose(), DrawCard(), DoStep(), Skip()) == (MINE, LOOSE, DRAW, DO, SKIP)


def test_listed_actions_are_built_once_and_equal_a_new_one():
    assert stack_action(3) is stack_action(3) and stack_action(3) == Stack(3)
    assert move_action(1, 4) is move_action(1, 4) and move_action(1, 4) == MoveGem(1, 4)
    assert move_action(1, 4) != move_action(4, 1)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_every_golden_log_reads_back_as_typed_actions(path):
    logged = json.loads(path.read_text())["actions"]
    decoded = [ACTIONS.decode(raw) for raw in logged]
    assert all(type(action) is not tuple for action in decoded)
    assert all(type(action) in ACTIONS.kinds.values() for action in decoded)
    assert [ACTIONS.encode(action) for action in decoded] == logged


def test_every_action_the_game_offers_is_typed_and_every_verb_is_offered():
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    rng = random.Random(3)
    offered: set[type] = set()
    for level in ("smiley", "1", "2"):
        for _ in range(4):
            state = GAME.setup(catalog, 3, random.Random(rng.getrandbits(32)), {"level": level})
            while not GAME.is_over(state):
                legal = GAME.legal_actions(state)
                assert all(type(action) in ACTIONS.kinds.values() for action in legal)
                offered.update(map(type, legal))
                GAME.apply(state, rng.choice(legal))
    # DoStep is offered by a designer's optional step alone (test_rules.py)
    assert offered == set(ACTIONS.kinds.values()) - {DoStep}

"""DragonStone Mine's Smiley level as data plays the same games as the built-in engine:
for the same seeds and bots (greedy and random, 2 to 5 players in turn), the same
action logs and final scores. 200 seeds run with the default tests; all 1,000 with
the fuzz tests (pytest -m fuzz), which the default run leaves out for time."""

import random
from pathlib import Path

import pytest

from protopress.components.loader import load_catalog
from protopress.games.dragonstone_mine.rules import DragonstoneMine
from protopress.rules.bot_names import make_bot
from protopress.rules.core import derive_seed
from protopress.rules.plugins import load_rules
from protopress.rules.simulate import play

FOLDER = Path(__file__).resolve().parents[3] / "protopress" / "games" / "dragonstone_mine"
RULES = FOLDER / "smiley.rules.yaml"
LINEUPS = (
    ["greedy", "random"],
    ["random", "greedy", "greedy"],
    ["greedy", "random", "random", "greedy"],
    ["random", "random"],
    ["greedy", "greedy", "random", "random", "greedy"],
)


@pytest.fixture(scope="module")
def games():
    catalog = load_catalog(FOLDER / "catalog.json")
    return catalog, load_rules(str(RULES)).new_game(), DragonstoneMine()


def differences(games, seeds: range) -> list[int]:
    """The seeds whose games differ in their action logs or final scores."""
    catalog, data, builtin = games
    found = []
    for seed in seeds:
        bots = LINEUPS[seed % len(LINEUPS)]
        _, data_record, data_actions = play(data, catalog, bots, seed)
        _, builtin_record, builtin_actions = play(builtin, catalog, bots, seed)
        data_log = [data.actions.encode(action) for action in data_actions]
        builtin_log = [builtin.actions.encode(action) for action in builtin_actions]
        if data_log != builtin_log or data_record.scores != builtin_record.scores:
            found.append(seed)
    return found


def test_the_rules_file_plays_the_built_in_games(games):
    assert differences(games, range(200)) == []


@pytest.mark.fuzz
def test_the_rules_file_plays_the_built_in_games_on_1000_seeds(games):
    assert differences(games, range(200, 1_000)) == []


def test_the_games_compared_are_real_games(games):
    """The comparison above means something: long games in which every colour rule
    and every kind of choice happen, ended by a complete tower or an empty bag."""
    catalog, data, _ = games
    verbs = set()
    for seed in range(6):
        _, record, actions = play(data, catalog, ["greedy", "random"], seed)
        verbs |= {data.actions.encode(action)[0] for action in actions}
        assert record.turns > 20
    assert verbs >= {"mine", "stack", "move", "swap", "choose", "skip"}


def test_a_greedy_choice_is_the_built_in_ones_on_many_positions(games):
    """The bots judge alike: the same greedy choice after the same opening."""
    catalog, data, builtin = games
    for seed in range(20):
        state_d = data.setup(catalog, 3, random.Random(seed), {})
        state_b = builtin.setup(catalog, 3, random.Random(seed), {})
        for _ in range(seed % 7):  # a few random moves first, the same on both
            pick = random.Random(seed).randrange(len(data.legal_actions(state_d)))
            data.apply(state_d, data.legal_actions(state_d)[pick])
            builtin.apply(state_b, builtin.legal_actions(state_b)[pick])
        bot_d = make_bot("greedy", derive_seed(seed, "bot"))
        bot_b = make_bot("greedy", derive_seed(seed, "bot"))
        chosen_d = data.actions.encode(bot_d.choose(data, state_d))
        assert chosen_d == builtin.actions.encode(bot_b.choose(builtin, state_b))

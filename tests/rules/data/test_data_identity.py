"""Cottage Market as data plays the same games as its rules.py: for 1,000 seeds (2, 3
and 4 players in turn, greedy and random bots), the same action logs and final scores."""

import random
from pathlib import Path

import pytest

from protopress.components.loader import load_catalog
from protopress.rules.bot_names import make_bot
from protopress.rules.core import derive_seed
from protopress.rules.plugins import load_rules
from protopress.rules.simulate import play

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"
SEEDS = 1_000
LINEUPS = (
    ["greedy", "random"],
    ["random", "greedy", "greedy"],
    ["greedy", "random", "random", "greedy"],
)


@pytest.fixture(scope="module")
def games():
    catalog = load_catalog(EXAMPLE / "catalog.json")
    data = load_rules(str(EXAMPLE / "rules.yaml")).new_game()
    python = load_rules(str(EXAMPLE / "rules.py")).new_game()
    return catalog, data, python


def test_rules_yaml_plays_the_same_games_as_rules_py(games):
    catalog, data, python = games
    differences = []
    for seed in range(SEEDS):
        bots = LINEUPS[seed % len(LINEUPS)]
        _, data_record, data_actions = play(data, catalog, bots, seed)
        _, python_record, python_actions = play(python, catalog, bots, seed)
        data_log = [data.actions.encode(action) for action in data_actions]
        python_log = [python.actions.encode(action) for action in python_actions]
        if data_log != python_log or data_record.scores != python_record.scores:
            differences.append(seed)
    assert differences == []


def test_the_games_compared_are_real_games(games):
    """The comparison above means something: games of every length, builds and takes."""
    catalog, data, _ = games
    _, record, actions = play(data, catalog, ["greedy", "random"], 3)
    verbs = {data.actions.encode(action)[0] for action in actions}
    assert verbs == {"take", "build"} and record.turns == len(actions) > 10
    assert set(record.extra) == {"built", "used"} and any(record.extra["built"])


def test_the_same_options_give_the_same_games(games):
    catalog, data, python = games
    for seed in range(40):
        options = {"rounds": 1 + seed % 5, "start_gold": seed % 4}
        bots = LINEUPS[seed % len(LINEUPS)]
        _, data_record, data_actions = play(data, catalog, bots, seed, options)
        _, python_record, python_actions = play(python, catalog, bots, seed, options)
        assert list(map(tuple, data_actions)) == list(map(tuple, python_actions))
        assert data_record.scores == python_record.scores


def test_each_seats_view_is_the_same_as_rules_py(games):
    """A greedy bot's look-ahead draws the same: one decision on many positions."""
    catalog, data, python = games
    for seed in range(20):
        state_d = data.setup(catalog, 3, random.Random(seed), {})
        state_p = python.setup(catalog, 3, random.Random(seed), {})
        bot_d = make_bot("greedy:3", derive_seed(seed, "bot"))
        bot_p = make_bot("greedy:3", derive_seed(seed, "bot"))
        assert tuple(bot_d.choose(data, state_d)) == tuple(bot_p.choose(python, state_p))

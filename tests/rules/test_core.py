"""The engine core on a tiny game defined in the test: a dice race."""

import random

import pytest

from protopress.rules.actions import PLAIN_ACTIONS
from protopress.rules.bot_names import make_bot
from protopress.rules.bots import GreedyBot, RandomBot
from protopress.rules.core import IllegalAction, checked_apply, derive_seed, top_seats
from protopress.rules.mcts import MctsBot
from protopress.rules.simulate import log_of, play, replay, seats, simulate


class RaceState:
    def __init__(self, players, rng):
        self.positions = [0] * players
        self.seat = 0
        self.turns = 0
        self.rng = rng

    def copy(self):
        other = RaceState.__new__(RaceState)
        other.positions = list(self.positions)
        other.seat, other.turns = self.seat, self.turns
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


class DiceRace:
    """Each turn: walk 1 step, or roll a die and walk that far. First to 10 wins."""

    id = "dice-race"
    min_players, max_players = 1, 4

    def setup(self, catalog, players, rng, options):
        return RaceState(players, rng)

    def to_move(self, state):
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state):
        return [("walk",), ("roll",)]

    def apply(self, state, action):
        steps = 1 if action == ("walk",) else state.rng.randint(1, 6)
        state.positions[state.seat] += steps
        state.seat = (state.seat + 1) % len(state.positions)
        state.turns += 1

    def is_over(self, state):
        return max(state.positions) >= 10

    def scores(self, state):
        return list(state.positions)

    def winners(self, state):
        return top_seats(state.positions)

    def heuristic(self, state, seat):
        return state.positions[seat]

    def record(self, state):
        return {}


def test_illegal_actions_are_refused_with_the_legal_ones_named():
    game = DiceRace()
    state = game.setup(None, 2, random.Random(1), {})
    with pytest.raises(IllegalAction, match=r"jump is not legal for seat 0 now; legal: walk, roll"):
        checked_apply(game, state, ("jump",))
    assert state.positions == [0, 0]


def test_copies_do_not_share_state_or_dice():
    game = DiceRace()
    state = game.setup(None, 2, random.Random(7), {})
    trial = state.copy()
    game.apply(trial, ("roll",))
    assert state.positions == [0, 0]
    game.apply(state, ("roll",))
    assert state.positions == trial.positions  # the copy rolled the same die


def test_greedy_looks_one_step_ahead_on_imagined_dice():
    """Rolling walks 3.5 steps on average, walking 1: over 8 imagined rolls, roll wins."""
    game = DiceRace()
    state = game.setup(None, 1, random.Random(3), {})
    assert {GreedyBot(seed, samples=8).choose(game, state) for seed in range(10)} == {("roll",)}
    assert state.positions == [0]  # looking ahead changed nothing


def test_greedy_does_not_see_the_dice_to_come():
    """Two games that look the same but whose next roll differs (a 1 or a 6): every bot
    decides the same in both, because its look-ahead rolls dice of its own."""
    game = DiceRace()
    next_roll = {}
    for seed in range(40):
        trial = game.setup(None, 1, random.Random(seed), {})
        game.apply(trial, ("roll",))
        next_roll.setdefault(trial.positions[0], seed)
    low = game.setup(None, 1, random.Random(next_roll[1]), {})
    high = game.setup(None, 1, random.Random(next_roll[6]), {})
    for bot_seed in range(20):
        for bot in (GreedyBot, MctsBot):
            assert bot(bot_seed).choose(game, low) == bot(bot_seed).choose(game, high)


def test_simulate_is_reproducible_and_each_game_has_its_own_seed():
    game = DiceRace()
    first = simulate(game, None, ["greedy", "random"], 20, seed=5)
    again = simulate(game, None, ["greedy", "random"], 20, seed=5)
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    assert len({r.seed for r in first}) == 20
    assert first[3].seed == derive_seed(5, "game", 3)
    assert all(not r.limit and max(r.scores) >= 10 for r in first)


def test_a_logged_game_replays_to_the_same_scores():
    game = DiceRace()
    _, record, actions = play(game, None, ["random", "random", "greedy"], seed=42)
    log = log_of(game, "none", "1", ["random", "random", "greedy"], 42, {}, actions, record)
    assert all(isinstance(a, list) for a in log["actions"])  # JSON-ready
    state = replay(game, None, log)
    assert game.scores(state) == record.scores
    log["actions"][0] = ["fly"]
    with pytest.raises(ValueError, match="action 0: fly is not legal"):
        replay(game, None, log)


def test_helpers():
    assert seats(["greedy"], 3) == ["greedy", "greedy", "greedy"]
    assert seats(["greedy", "random"], 3) == ["greedy", "random", "random"]
    assert seats([], 2) == ["random", "random"]
    assert PLAIN_ACTIONS.decode(["place", [1, 2], 3]) == ("place", (1, 2), 3)
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    assert isinstance(make_bot("random", 1), RandomBot)
    with pytest.raises(ValueError, match="unknown bot 'clever'; bots: random, greedy"):
        make_bot("clever", 1)
    assert top_seats([3, 5, 5]) == [1, 2]

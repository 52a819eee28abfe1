"""The search bot on every game: legal, reproducible, and blind to what its seat cannot see.

Small budgets (mcts:10) and a few dozen decisions per game keep each test to
seconds; nothing here measures time.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from protopress.components.builtin import builtin_catalog_path
from protopress.components.loader import load_catalog
from protopress.rules.bot_names import make_bot, not_repeatable, timed
from protopress.rules.bot_support import BotSupport, SearchSettings
from protopress.rules.bots import GreedyBot, RandomBot
from protopress.rules.chance import SharedChance
from protopress.rules.information import redeal
from protopress.rules.mcts import Budget, MctsBot
from protopress.rules.plugins import load_rules
from protopress.rules.registry import game_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cottage-market"
DECISIONS = 30

CASES = {
    "dragonstone-l1": ("dragonstone-mine", 2, {"level": 1}),
    "dragonstone-l2": ("dragonstone-mine", 2, {"level": 2}),
    "gem-rush-crisis": ("gem-rush", 4, {}),
    "gem-rush-rush": ("gem-rush", 2, {"mode": "rush"}),
    "gemstone-caverns": ("gemstone-caverns", 2, {}),
    "stonespine": ("stonespine-architects", 2, {}),
    "stonespine-solo": ("stonespine-architects", 1, {"solo": True}),
}


def setup(case: str, seed: int):
    game_id, players, options = CASES[case]
    game = game_for(game_id)
    spec = game.spec if hasattr(game, "spec") else None
    options = spec.parse_options(options) if spec else options
    catalog = load_catalog(builtin_catalog_path(game_id))
    return game, game.setup(catalog, players, random.Random(seed), options)


def mcts_actions(game, state, seed: int) -> list:
    """Up to DECISIONS decisions by mcts:10 in every seat, each checked legal."""
    bots = {}
    actions = []
    while not game.is_over(state) and len(actions) < DECISIONS:
        seat = game.to_move(state)
        bot = bots.setdefault(seat, MctsBot(seed + seat, Budget(playouts=10)))
        action = bot.choose(game, state)
        assert action in game.legal_actions(state)
        game.apply(state, action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("case", sorted(CASES))
def test_mcts_plays_legal_moves_and_the_same_seed_plays_the_same_game(case):
    game, state = setup(case, 5)
    first = mcts_actions(game, state, 3)
    game, state = setup(case, 5)
    assert mcts_actions(game, state, 3) == first
    assert len(first) == DECISIONS or game.is_over(state)


def test_mcts_plays_the_example_game_from_its_rules_file():
    spec = load_rules(str(EXAMPLE / "rules.py"))
    game = spec.new_game()
    catalog = load_catalog(EXAMPLE / "catalog.json")

    def played():
        state = game.setup(catalog, 2, random.Random(1), spec.parse_options({}))
        return mcts_actions(game, state, 2)

    assert played() == played() and played()


def test_mcts_budgets_by_name():
    assert make_bot("mcts:10", 0).budget == Budget(playouts=10)
    assert make_bot("mcts:25ms", 0).budget == Budget(playouts=None, millis=25.0)
    for bad in ("mcts:0", "mcts:x", "mcts:5s"):
        with pytest.raises(ValueError, match="expected mcts:PLAYOUTS"):
            make_bot(bad, 0)


def test_search_tiers_by_name_for_a_designer():
    from click.testing import CliRunner

    from protopress.cli import cli

    assert make_bot("mcts:fast", 0).budget == Budget(playouts=50)
    assert make_bot("mcts:strong", 0).budget == Budget(playouts=100)
    assert not timed("mcts:fast") and not timed("mcts:strong")  # playouts: they repeat
    with pytest.raises(ValueError, match="or a tier: mcts:fast, mcts:strong$"):
        make_bot("mcts:quick", 0)
    for command in ("balance", "simulate"):
        shown = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert "mcts:fast (50 playouts) and mcts:strong (100 playouts)" in shown, command


def test_only_a_search_budgeted_by_time_makes_games_that_do_not_repeat():
    assert [timed(name) for name in ("random", "greedy:3", "mcts", "mcts:200", "mcts:25ms")] == [
        False, False, False, False, True,
    ]  # fmt: skip
    assert not timed("mcts:5s")  # no bot: make_bot refuses it by name
    assert not_repeatable(["greedy", "mcts:200"]) is None
    one = not_repeatable(["greedy", "mcts:25ms", "mcts:25ms"])
    assert one is not None and one.startswith("mcts:25ms budgets its moves by time:")
    two = not_repeatable(["mcts:9ms", "mcts:25ms"])
    assert two is not None and two.startswith("mcts:25ms, mcts:9ms budget their moves by time:")


def test_simulate_says_when_its_games_do_not_repeat():
    from click.testing import CliRunner

    from protopress.cli import cli

    base = ["simulate", "gem-rush", "--option", "mode=rush", "--games", "1"]
    timed_run = CliRunner().invoke(cli, [*base, "--bot", "mcts:2ms", "--bot", "greedy"])
    assert timed_run.exit_code == 0, timed_run.output
    assert timed_run.output.splitlines()[-1].startswith("  mcts:2ms budgets its moves by time:")
    counted = CliRunner().invoke(cli, [*base, "--bot", "mcts:5", "--bot", "greedy"])
    assert counted.exit_code == 0 and "by time" not in counted.output


# --- fairness: the same view, another hidden order, the same decision ------------------


def _hands(case, state):
    if case.startswith("stonespine"):
        return [board.hand for board in state.boards]
    return state.hands


def _set_hand(case, state, seat, hand):
    if case.startswith("stonespine"):
        state.boards[seat].hand = hand
    else:
        state.hands[seat] = hand


def other_hidden_order(case, state, seat, seed):
    """A copy that looks the same from seat: the others' hands and the deck dealt
    again from the same cards (what seat sees is untouched)."""
    twin = state.copy()
    others = [s for s in range(len(_hands(case, twin))) if s != seat]
    hands = [list(_hands(case, twin)[s]) for s in others]
    deck = list(twin.deck)
    redeal(hands, deck, random.Random(seed))
    for other, hand in zip(others, hands, strict=True):
        _set_hand(case, twin, other, hand)
    twin.deck = deck
    return twin


HIDDEN = ("dragonstone-l1", "dragonstone-l2", "gem-rush-rush", "stonespine")


@pytest.mark.parametrize("case", HIDDEN)
def test_bots_decide_the_same_whatever_the_hidden_order(case):
    game, state = setup(case, 11)
    walker = RandomBot(4)
    positions = 0
    for step in range(2000):
        if game.is_over(state) or positions == 12:
            break
        if step % 5 == 4 and len(game.legal_actions(state)) > 1:
            seat = game.to_move(state)
            twin = other_hidden_order(case, state, seat, step)
            hidden = [list(h) for s, h in enumerate(_hands(case, state)) if s != seat]
            hidden_twin = [list(h) for s, h in enumerate(_hands(case, twin)) if s != seat]
            assert (hidden, list(state.deck)) != (hidden_twin, list(twin.deck))
            for make in (GreedyBot, lambda seed: MctsBot(seed, Budget(playouts=10))):
                assert make(step).choose(game, state) == make(step).choose(game, twin)
            positions += 1
        game.apply(state, walker.choose(game, state))
    assert positions == 12


def test_stonespine_solo_plays_with_the_search_bot():
    from click.testing import CliRunner

    from protopress.cli import cli

    args = ["simulate", "stonespine-architects", "--solo", "--bot", "mcts:20", "--games", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "seat 0 (mcts:20)" in result.output and "against the rival" in result.output


# --- playouts to the end of the turn, widening at every level ----------------------


class _Counting:
    """A two-seat game of TURNS turns of STEPS decisions each, for the search's
    mechanics: each decision is a whole number, a seat's heuristic the sum of its own."""

    TURNS, STEPS = 4, 3
    id, min_players, max_players = "counting", 2, 2

    class State:
        def __init__(self, rng):
            self.rng, self.turns, self.step, self.taken = rng, 0, 0, [[], []]

        def copy(self):
            twin = _Counting.State(random.Random())
            twin.rng.setstate(self.rng.getstate())
            twin.turns, twin.step, twin.taken = self.turns, self.step, [list(t) for t in self.taken]
            return twin

    def __init__(self, hint=False, fast=False):
        self.hinted = []  # decisions the rollout policy was asked for, as (turns, step)
        self.bot_support = BotSupport(
            playout_policy=(lambda game, state, rng: self._hint(state, rng)) if hint else None,
            action_values=(
                (lambda game, state, seat, actions: [float(a[0]) for a in actions])
                if fast
                else None
            ),
        )

    def _hint(self, state, rng):
        self.hinted.append((state.turns, state.step))
        return (0,)

    def to_move(self, state):
        return None if self.is_over(state) else state.turns % 2

    def legal_actions(self, state):
        return [] if self.is_over(state) else [(n,) for n in range(10)]

    def apply(self, state, action):
        state.taken[self.to_move(state)].append(action[0])
        state.step += 1
        if state.step == self.STEPS:
            state.turns, state.step = state.turns + 1, 0

    def is_over(self, state):
        return state.turns == self.TURNS

    def scores(self, state):
        return [sum(taken) for taken in state.taken]

    def winners(self, state):
        scores = self.scores(state)
        return [s for s in (0, 1) if scores[s] == max(scores)]

    def heuristic(self, state, seat):
        return float(sum(state.taken[seat]))


def _rolled(game, turns):
    from protopress.rules.mcts import _Scale

    state = _Counting.State(random.Random(0))
    game.apply(state, (5,))  # one decision into turn 0 of three
    MctsBot(0, turns=turns)._rollout(game, state, _Scale(2))
    return state


def test_a_game_s_playout_policy_plays_to_the_end_of_the_turn_in_progress():
    game = _Counting(hint=True)
    state = _rolled(game, turns=1)
    assert game.hinted == [(0, 1), (0, 2)]  # the two decisions left in turn 0, no more
    assert (state.turns, state.step) == (1, 0)


def test_a_playout_without_a_turn_limit_plays_to_the_end_of_the_game():
    game = _Counting(hint=True)
    state = _rolled(game, turns=None)
    assert len(game.hinted) == 4 * 3 - 1 and game.is_over(state)


def test_a_game_may_name_how_many_turns_its_playouts_run():
    game = _Counting(hint=True)
    # as Gem Rush's Rush mode declares
    game.bot_support = replace(game.bot_support, playout_turns=lambda game, state: 2)
    state = _Counting.State(random.Random(0))
    game.apply(state, (5,))
    MctsBot(0, Budget(playouts=1)).choose(game, state)
    # the root's one playout: a new node (turn 0's second decision), then the policy for
    # the rest of turn 0 and all of turn 1
    assert game.hinted == [(0, 2), (1, 0), (1, 1), (1, 2)]
    game.hinted.clear()
    MctsBot(0, Budget(playouts=1), turns=1).choose(game, state)  # the bot's own setting wins
    assert game.hinted == [(0, 2)]


def test_a_game_may_set_the_share_of_the_result_in_a_playout_s_reward():
    from protopress.rules.mcts import _Scale

    def rewards(game):
        state = _Counting.State(random.Random(0))
        game.apply(state, (5,))  # seat 0 takes 5, the playout policy 0 and 0: seat 0 leads
        return MctsBot(0, turns=1)._rollout(game, state, _Scale(2))

    # one value seen per seat: the scaled heuristic is 0.5 for both; the leader's
    # result is 1, the other's 0
    assert rewards(_Counting(hint=True)) == [0.5 * 1 + 0.5 * 0.5, 0.5 * 0 + 0.5 * 0.5]
    game = _Counting(hint=True)
    game.bot_support = replace(game.bot_support, search=SearchSettings(result_share=0.75))
    assert rewards(game) == [0.75 * 1 + 0.25 * 0.5, 0.75 * 0 + 0.25 * 0.5]


@pytest.mark.parametrize(
    ("field", "value"),
    [("exploration", -0.1), ("result_share", 1.5), ("result_share", -0.5), ("widen_levels", 0)],
)
def test_search_settings_out_of_range_are_refused_by_name(field, value):
    with pytest.raises(ValueError, match=field):
        SearchSettings(**{field: value})


@pytest.mark.parametrize(
    ("declared", "own", "chosen"),
    [(0.2, None, (1,)), (0.35, None, (2,)), (0.2, 0.7, (2,))],
)
def test_a_game_may_set_its_search_s_exploration(declared, own, chosen):
    from protopress.rules.mcts import _Node, _Scale

    game = _Counting()
    game.bot_support = BotSupport(search=SearchSettings(exploration=declared))
    root = _Node(2)
    well_tried, once = root.children[(1,)], root.children[(2,)] = _Node(2), _Node(2)
    well_tried.visits, well_tried.totals[0], well_tried.available = 10, 6.0, 20
    once.visits, once.totals[0], once.available = 1, 0.3, 20
    bot = MctsBot(0, exploration=own, widening=0)
    bot._playout(game, _Counting.State(random.Random(0)), root, _Scale(2), [(1,), (2,)])
    # UCB1 with 21 playouts available: 0.6 + c * sqrt(ln 21 / 10) against
    # 0.3 + c * sqrt(ln 21): the one tried once wins from c = 0.2515 up
    assert root.children[chosen].visits == (11 if chosen == (1,) else 2)


def test_without_a_playout_policy_the_heuristic_judges_the_new_node():
    state = _rolled(_Counting(), turns=1)
    assert (state.turns, state.step) == (0, 1)


def _tree_levels(node, level=1):
    yield level, node
    for child in node.children.values():
        yield from _tree_levels(child, level + 1)


@pytest.mark.parametrize(("fast", "widened_levels"), [(True, {1, 2, 3, 4}), (False, {1, 2})])
def test_a_game_with_fast_priors_widens_every_level_best_prior_first(fast, widened_levels):
    from protopress.rules.mcts import _Node, _Scale

    game = _Counting(fast=fast)
    bot, root, scale = MctsBot(7), _Node(2), _Scale(2)
    candidates = game.legal_actions(_Counting.State(random.Random(1)))
    for _ in range(120):
        bot._playout(game, _Counting.State(random.Random(1)), root, scale, candidates)
    in_prior_order = set()
    for level, node in _tree_levels(root):
        tried = {action[0] for action in node.children}
        if tried:  # a widened node tries 9, 8, ... (the prior's order), never a 3 before a 9
            if tried == set(range(10 - len(tried), 10)):
                in_prior_order.add(level)
            else:
                assert level not in widened_levels
    assert widened_levels <= in_prior_order


def test_the_greedy_playout_move_takes_the_best_by_the_heuristic():
    from protopress.rules.bots import greedy_action

    game = _Counting()  # the heuristic is the sum of the seat's own numbers: 9 is best
    state = _Counting.State(random.Random(0))
    assert {greedy_action(game, state, random.Random(seed)) for seed in range(5)} == {(9,)}


class _Guess:
    """One seat, one coin: keep a sure 0.75, or gamble, see the coin tossed (every seat
    sees it) and call it: 1 for the right call, 0 for the wrong one. Seeing the coin
    before calling, the gamble is worth 1; calling blind, 0.5."""

    id, min_players, max_players = "guess", 1, 1
    SURE = 0.75

    class State:
        def __init__(self, chance):
            self.chance, self.coin, self.score, self.over = chance, None, 0.0, False

        def copy(self):
            twin = _Guess.State(self.chance.share())
            twin.coin, twin.score, twin.over = self.coin, self.score, self.over
            return twin

    def __init__(self, observed: bool):
        # the reward: the score
        self.bot_support = BotSupport(search=SearchSettings(result_share=0.0))
        self.observed = observed  # the coin lands face up (a public draw), or under a cup

    def to_move(self, state):
        return None if state.over else 0

    def legal_actions(self, state):
        if state.over:
            return []
        return [("sure",), ("gamble",)] if state.coin is None else [("heads",), ("tails",)]

    def apply(self, state, action):
        if action == ("gamble",):
            state.coin = state.chance.choice("coin", ("heads", "tails"), public=self.observed)
            return
        state.score = self.SURE if action == ("sure",) else float(action[0] == state.coin)
        state.over = True

    def is_over(self, state):
        return state.over

    def scores(self, state):
        return [state.score]

    def winners(self, state):
        return [0]

    def heuristic(self, state, seat):
        return state.score


@pytest.mark.parametrize(("observed", "chosen"), [(True, ("gamble",)), (False, ("sure",))])
def test_a_search_that_sees_what_chance_showed_calls_the_coin_it_saw(observed, chosen):
    # with the coin tossed face up (a public draw), the gamble's node splits into a
    # branch per face, each of which learns its right call (worth 1 > 0.75); without,
    # one node below the gamble averages both faces, where either call is worth 0.5
    from protopress.rules.information import seat_copy
    from protopress.rules.mcts import _Node, _Scale

    game = _Guess(observed)
    for seed in range(4):
        state, bot, root, scale = (
            _Guess.State(SharedChance(random.Random(seed))),
            MctsBot(seed),
            _Node(1),
            _Scale(1),
        )
        scale.low, scale.high = [0.0], [1.0]  # every payoff seen: a reward is its payoff
        for _ in range(300):
            world = seat_copy(game, state, 0, bot.rng)
            bot._playout(game, world, root, scale, game.legal_actions(state))
        visits = {action: child.visits for action, child in root.children.items()}
        assert max(visits, key=visits.__getitem__) == chosen, visits

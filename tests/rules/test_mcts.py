"""The search bot on every game: legal, reproducible, and blind to what its seat cannot see.

Small budgets (mcts:10) and a few dozen decisions per game keep each test to
seconds; nothing here measures time.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from protopress.components.builtin import builtin_catalog_path
from protopress.components.loader import load_catalog
from protopress.rules.bots import GreedyBot, RandomBot, make_bot
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

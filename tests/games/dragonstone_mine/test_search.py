"""The search bot's view of DragonStone Mine's chance: a branch per gem drawn."""

from __future__ import annotations

import random

from protopress.components.builtin import builtin_catalog_path
from protopress.components.loader import load_catalog
from protopress.rules.chance import Shown, observe
from protopress.rules.information import seat_copy
from protopress.rules.mcts import MctsBot, _Node, _Scale
from protopress.rules.registry import game_for


def _first_stack_with_more_to_mine(game, seed):
    """A level 2 position whose decision stacks a gem, another gem of the turn to come."""
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    state = game.setup(catalog, 2, random.Random(seed), {"level": "2"})
    rng = random.Random(seed)
    while not game.is_over(state):
        seat = game.to_move(state)
        more = any(w.kind == "mine" and w.seat == seat for w in state.pending)
        if state.decision.kind == "stack" and more and len(game.legal_actions(state)) > 1:
            return state
        game.apply(state, rng.choice(game.legal_actions(state)))
    raise AssertionError(f"seed {seed}: no stacking choice with more gems to mine")


def test_the_gem_just_mined_is_what_chance_showed():
    game = game_for("dragonstone-mine")
    state = _first_stack_with_more_to_mine(game, 3)
    observe(state)  # what was shown before this decision
    bag = dict(state.bag)
    game.apply(state, game.legal_actions(state)[0])  # stacked: the next gem is mined
    assert state.held is not None and observe(state) == (Shown("gem", state.held),)
    assert state.bag[state.held] == bag[state.held] - 1


def test_below_a_stacking_move_the_tree_keeps_a_branch_per_gem_drawn_next():
    game = game_for("dragonstone-mine")
    state = _first_stack_with_more_to_mine(game, 3)
    seat, bot, root, scale = game.to_move(state), MctsBot(5), _Node(2), _Scale(2)
    legal = game.legal_actions(state)
    for _ in range(200):
        bot._playout(game, seat_copy(game, state, seat, bot.rng), root, scale, legal)
    colours = {(Shown("gem", colour),) for colour in state.rules.colours}
    # each branch is the colour of the next gem drawn, and the worlds re-drawn show several
    for child in root.children.values():
        assert set(child.outcomes or ()) <= colours
    assert any(len(child.outcomes or ()) >= 2 for child in root.children.values())

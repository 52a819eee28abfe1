"""Gem Rush's look-ahead: the search bot's playout move, and the Crisis heuristic's
promise (the best door a hand can pay next turn), by hand-worked examples."""

import random

import pytest

from games.gem_rush.test_rules import CORRIDOR, GAME, act, cards, scenario
from protopress.games.gem_rush import heuristic, lookahead
from protopress.games.gem_rush.actions import (
    Build,
    Rotate,
)
from protopress.games.gem_rush.heuristic import PROMISE_VALUE

# --- the search bot's playout move ------------------------------------------------


@pytest.mark.parametrize("mode", ["rush", "crisis"])
def test_the_playout_move_builds_the_four_point_door_as_greedy_would(mode):
    # the rulebook's example door (Obsidian, Permafrost, Electrum) is worth 4 points
    # for two cards; walking or ending the move scores nothing
    state = scenario(
        {(0, 0): "glittering-crack"},
        players=2,
        hands=[["obsidian+electrum", "permafrost+soulstone"], []],
        mode=mode,
    )
    for seed in range(5):
        assert lookahead.playout_policy(GAME, state, random.Random(seed)) == Build(
            (0, 0), "S", (0, 1)
        )


def test_the_playout_move_breaks_ties_with_the_generator_it_is_given():
    # after a build the new tile's rotations all look alike to the heuristic when
    # no other door is open near: the generator chooses among them
    state = scenario(
        {(0, 0): "glittering-crack"}, hands=[["obsidian+electrum", "permafrost+soulstone"]]
    )
    act(state, Build((0, 0), "S", (0, 1)))
    legal = GAME.legal_actions(state)
    values = lookahead.action_values(GAME, state, 0, legal)
    best = {a for a, v in zip(legal, values, strict=True) if v == max(values)}
    assert len(best) > 1 and all(isinstance(a, Rotate) for a in best)
    moves = {lookahead.playout_policy(GAME, state, random.Random(seed)) for seed in range(40)}
    assert moves == best


# --- the Crisis heuristic: what a hand promises ----------------------------------


def test_a_hand_promises_the_best_door_it_can_pay_next_turn():
    # glittering-crack alone: N Soulstone + Raw Hope (2), E Electrum + Soulstone + Raw
    # Hope (4), S Obsidian + Permafrost + Electrum (4), W Obsidian (1), all open
    state = scenario({(0, 0): "glittering-crack"}, players=2, mode="crisis")
    assert (
        heuristic.promise(state, 0, (0, 0), cards("obsidian+electrum", "permafrost+soulstone")) == 4
    )
    assert (
        heuristic.promise(state, 0, (0, 0), cards("obsidian+fire-ruby", "star-tear+star-tear")) == 1
    )
    assert heuristic.promise(state, 0, (0, 0), cards("star-tear+fire-ruby")) == 0
    state.stack = []  # nothing can be built any more
    assert (
        heuristic.promise(state, 0, (0, 0), cards("obsidian+electrum", "permafrost+soulstone")) == 0
    )


def test_a_promise_counts_the_orichalcum_a_door_of_equal_points_earns():
    # glittering-crack's E door (Electrum + Soulstone + Raw Hope) and S door
    # (Obsidian + Permafrost + Electrum) are worth 4 each. This hand pays E with no
    # Orichalcum, and S with the Obsidian of its Obsidian & Orichalcum card: that
    # Orichalcum earns its point (its partner pays), so S promises 4 + 1 = 5,
    # whichever door is looked at first.
    state = scenario({(0, 0): "glittering-crack"}, players=2, mode="crisis")
    hand = cards("electrum+soulstone", "raw-hope+star-tear", "obsidian+orichalcum",
                 "permafrost+electrum")  # fmt: skip
    assert heuristic.promise(state, 0, (0, 0), hand) == 5
    # without the Orichalcum card S cannot be paid: E's 4 is the promise
    assert heuristic.promise(state, 0, (0, 0), hand[:2] + hand[3:]) == 4


def test_a_promise_counts_only_doors_within_a_turns_steps():
    # the corridor's far end (4, 0) has a Soulstone door (1 point): from (2, 0) two
    # steps and the build's one; from (1, 0) it takes four. The doors of (0, 0) want
    # Electrum, Permafrost, or Obsidian with Star Tear.
    state = scenario(CORRIDOR, players=2, mode="crisis")
    hand = cards("soulstone+star-tear")
    assert heuristic.promise(state, 0, (2, 0), hand) == 1
    assert heuristic.promise(state, 0, (1, 0), hand) == 0


def test_in_crisis_the_heuristic_prefers_cards_that_pay_a_door():
    # two cards each way; only the first pair pays the 4-point door: 0.25 a point more
    pays, idle = ["obsidian+electrum", "permafrost+soulstone"], ["fire-ruby", "star-tear"]
    paying = scenario({(0, 0): "glittering-crack"}, players=2, hands=[pays, []], mode="crisis")
    waiting = scenario({(0, 0): "glittering-crack"}, players=2, hands=[idle, []], mode="crisis")
    difference = GAME.heuristic(paying, 0) - GAME.heuristic(waiting, 0)
    assert difference == pytest.approx(PROMISE_VALUE * 4)
    # and the team sees it from every seat
    assert GAME.heuristic(paying, 1) - GAME.heuristic(waiting, 1) == pytest.approx(difference)

"""Gem Rush's bot support: the greedy look-ahead that judges actions without
copies where it can (tests/games/gem_rush/test_fast.py holds it to copy + apply
+ heuristic), and the search's playout policy and length, declared as SUPPORT
(rules/bot_support.py). The heuristic is heuristic.py's, the rules rules.py's."""

from __future__ import annotations

import random
from collections.abc import Sequence

from protopress.games.gem_rush.heuristic import value_at
from protopress.games.gem_rush.mine import Cell
from protopress.games.gem_rush.rules import GemRush
from protopress.games.gem_rush.state import GemRushState
from protopress.rules.bot_support import BotSupport
from protopress.rules.bots import greedy_action, reference_values
from protopress.rules.core import Action
from protopress.rules.mcts import ROLLOUT_TURNS

# the search's playouts in Rush run the greedy move to the end of the turn in progress and
# two turns more (the other dwarf's reply and the seat's own next turn), so that a line
# is judged by what it leads to, not only by where this turn ends; tuning games (seed
# 1000, mcts:50 against greedy, 40 games): 1, 2, 3 and 4 turns won 62%, 72%, 85% and
# 68% (docs/balance.md, "How strong are the bots"). Crisis keeps the search's default.
RUSH_SEARCH_TURNS = 3


def action_values(
    game: GemRush, state: GemRushState, seat: int, actions: Sequence[Action]
) -> list[float]:
    """heuristic(seat) after each action, as copy + apply + heuristic give it.

    Actions that change nothing the heuristic reads but where seat's dwarf
    stands and how many cards a hand holds are judged in place, without a
    copy (in_place); every other by the book (rules/bots.reference_values).
    tests/games/gem_rush/test_fast.py holds the two to the same floats.
    """
    places = [in_place(state, seat, action) for action in actions]
    others = [action for action, place in zip(actions, places, strict=True) if place is None]
    judged = iter(reference_values(game, state, seat, others))
    terms: dict = {}  # each dwarf's terms, the same for every action judged in place
    return [
        next(judged) if place is None else value_at(game, state, seat, *place, terms)
        for place in places
    ]


def in_place(
    state: GemRushState, seat: int, action: Action
) -> tuple[Cell, tuple[int, int] | None] | None:
    """(where seat's dwarf stands, (seat s, card i) when card i leaves the hand of
    s, else None) after action, for those that change nothing else: seat's own
    walk (its steps touch no points and no hand), warp (one Warpstone card
    discarded, none with Rift Walker) and end of moving; a discard down to the
    hand limit; a burn from a hand that is not the turn's last (the last ends
    the turn). None for any other action."""
    if state.effect is not None or state.building is not None:
        return None
    kind = action[0]
    if state.phase == "move" and seat == state.seat and not state.over:
        if kind == "move":
            return action[1], None
        if kind == "warp":
            return action[1], (seat, action[2]) if len(action) == 3 else None
        if kind == "end-move":
            return state.pos[seat], None
    elif state.phase == "burn" and kind == "burn" and len(action) == 3 and state.burn_left > 1:
        return state.pos[seat], (action[1], action[2])
    elif state.phase == "discard" and kind == "discard":
        return state.pos[seat], (state.seat, action[1])
    return None


def playout_policy(game: GemRush, state: GemRushState, rng: random.Random) -> Action:
    """The search bot's playout move: the greedy bot's (by the fast action_values).
    The search plays it to the end of the turn, so that a leaf is judged between
    turns and never halfway through a build or a burn (docs/balance.md)."""
    return greedy_action(game, state, rng)


def playout_turns(game: GemRush, state: GemRushState) -> int | None:
    """How many turns the search's playouts run: RUSH_SEARCH_TURNS in Rush, the
    search's own default (rules/mcts.ROLLOUT_TURNS) in Crisis."""
    return ROLLOUT_TURNS if state.table.crisis else RUSH_SEARCH_TURNS


SUPPORT = BotSupport(
    action_values=action_values, playout_policy=playout_policy, playout_turns=playout_turns
)

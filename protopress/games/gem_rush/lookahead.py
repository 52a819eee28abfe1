"""Gem Rush's bot support: the greedy look-ahead that judges actions without
copies where it can (tests/games/gem_rush/test_fast.py holds it to copy + apply
+ heuristic), and the search's playout policy and length, declared as SUPPORT
(rules/bot_support.py). The heuristic is heuristic.py's, the rules rules.py's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from protopress.games.gem_rush.actions import (
    BurnFromHand,
    Discard,
    EndMove,
    GemRushAction,
    Move,
    RiftWarp,
    Warp,
)
from protopress.games.gem_rush.heuristic import CardGone, Terms, value_at
from protopress.games.gem_rush.mine import Cell
from protopress.games.gem_rush.rules import GemRush
from protopress.games.gem_rush.state import GemRushState
from protopress.rules.bot_support import BotSupport
from protopress.rules.bots import greedy_action, reference_values
from protopress.rules.mcts import ROLLOUT_TURNS

# the search's playouts in Rush run the greedy move to the end of the turn in progress and
# two turns more (the other dwarf's reply and the seat's own next turn), so that a line
# is judged by what it leads to, not only by where this turn ends; tuning games (seed
# 1000, mcts:50 against greedy, 40 games): 1, 2, 3 and 4 turns won 62%, 72%, 85% and
# 68% (docs/balance.md, "How strong are the bots"). Crisis keeps the search's default.
RUSH_SEARCH_TURNS = 3


class InPlace(NamedTuple):
    """What an action judged in place changes: where seat's dwarf stands, and the card
    it takes from a hand (None: none)."""

    cell: Cell
    gone: CardGone | None


def action_values(
    game: GemRush, state: GemRushState, seat: int, actions: Sequence[GemRushAction]
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
    terms: Terms = {}  # each dwarf's terms, the same for every action judged in place
    return [
        next(judged) if place is None else value_at(state, seat, *place, terms) for place in places
    ]


def in_place(state: GemRushState, seat: int, action: GemRushAction) -> InPlace | None:
    """Where seat's dwarf stands after action, and the card it takes from a hand, for
    the actions that change nothing else: seat's own walk (its steps touch no points
    and no hand), warp (one Warpstone card discarded, none with Rift Walker) and end
    of moving; a discard down to the hand limit; a burn from a hand that is not the
    turn's last (the last ends the turn). None for any other action."""
    if state.effect is not None or state.building is not None:
        return None
    if state.phase == "move" and seat == state.seat and not state.over:
        if isinstance(action, Move | RiftWarp):
            return InPlace(action.cell, None)
        if isinstance(action, Warp):
            return InPlace(action.cell, CardGone(seat, action.card))
        if isinstance(action, EndMove):
            return InPlace(state.pos[seat], None)
    elif state.phase == "burn" and isinstance(action, BurnFromHand) and state.burn_left > 1:
        return InPlace(state.pos[seat], CardGone(action.seat, action.card))
    elif state.phase == "discard" and isinstance(action, Discard):
        return InPlace(state.pos[seat], CardGone(state.seat, action.card))
    return None


def playout_policy(game: GemRush, state: GemRushState, rng: random.Random) -> GemRushAction:
    """The search bot's playout move: the greedy bot's (by the fast action_values).
    The search plays it to the end of the turn, so that a leaf is judged between
    turns and never halfway through a build or a burn (docs/balance.md)."""
    return greedy_action(game, state, rng)


def playout_turns(game: GemRush, state: GemRushState) -> int | None:
    """How many turns the search's playouts run: RUSH_SEARCH_TURNS in Rush, the
    search's own default (rules/mcts.ROLLOUT_TURNS) in Crisis."""
    return ROLLOUT_TURNS if state.table.crisis else RUSH_SEARCH_TURNS


SUPPORT = BotSupport(
    action_values=action_values,
    playout_policy=playout_policy,
    playout_turns=playout_turns,
)

"""Gem Rush's heuristic, written once: how good a position looks for a seat (the
engine's `heuristic`, and the look-ahead's values without copies, lookahead.py)."""

from __future__ import annotations

from typing import NamedTuple

from protopress.games.gem_rush.mine import Cell
from protopress.games.gem_rush.payment import Card
from protopress.games.gem_rush.seat_skills import seat_skills
from protopress.games.gem_rush.state import STEPS, GemRushState

HAND_VALUE, SITE_VALUE = 0.3, 0.1  # heuristic: per card in hand, per open door within reach
# Crisis heuristic: per point of the best door a hand can pay at its next turn (a promise,
# not points: the door may go to another dwarf, or the cards to a burn, first). Below
# 1 - HAND_VALUE * 2 = 0.4, so that building a 1-point door with 2 cards still beats
# holding them for it; 0.25: tuning games (seeds 1000-1059, four greedy players) gave a
# team mean of 51 at 0.25 and 0.5, 49 at 0.6, 43 at 0 and 0.75 (docs/balance.md)
PROMISE_VALUE = 0.25


class CardGone(NamedTuple):
    """A card that an action takes from a hand: card `card` of seat `seat`."""

    seat: int
    card: int


Terms = dict[tuple[int, Cell, int | None], tuple[float, float, float]]


def value_at(
    state: GemRushState,
    seat: int,
    cell: Cell,
    gone: CardGone | None = None,
    terms: Terms | None = None,
) -> float:
    """The heuristic of seat with its dwarf at cell (and, with gone, that card gone
    from its hand): points (the team's in Crisis, the lead
    over the best other in Rush), cards in hand, open doors near. In Crisis the
    hands and doors near are every dwarf's, with the door each hand can pay at
    its next turn (promise): a team value, the same for every seat but for
    where seat's own dwarf is imagined (docs/balance.md). terms: the Crisis
    terms of each dwarf, kept by action_values while judging one state."""
    points, hands = state.points, state.hands
    if state.table.crisis:
        value = float(sum(points))
        for s, hand in enumerate(hands):
            where = cell if s == seat else state.pos[s]
            cut = gone.card if gone is not None and gone.seat == s else None
            found = None if terms is None else terms.get((s, where, cut))
            if found is None:
                if cut is not None:
                    hand = hand[:cut] + hand[cut + 1 :]
                found = (
                    HAND_VALUE * min(len(hand), 8),
                    PROMISE_VALUE * promise(state, s, where, hand),
                    SITE_VALUE * state.view.sites_near(where, STEPS),
                )
                if terms is not None:
                    terms[s, where, cut] = found
            held, promised, near = found
            value += held  # added one by one, in this order: the same floats
            value += promised
            value += near
        return value
    held = len(hands[seat]) - (gone is not None and gone.seat == seat)
    others = max((p for s, p in enumerate(points) if s != seat), default=0)
    value = points[seat] - others + HAND_VALUE * min(held, 8)
    return value + SITE_VALUE * state.view.sites_near(cell, STEPS)


def promise(state: GemRushState, seat: int, cell: Cell, hand: list[Card]) -> int:
    """The points of the best door seat could build with hand at the start of its
    next turn, walking from cell: the team's prospects in Crisis, where a card
    counts for the door it pays, not only for being a card. Warpstone's far
    builds and skill bonuses are left out."""
    if not state.stack or not hand:
        return 0
    ahead = seat_skills(state, seat, next_turn=True)
    # which doors a hand pays does not depend on its order
    return state.view.best_door(cell, ahead.steps, ahead.flags, tuple(sorted(hand)), ahead.subs)

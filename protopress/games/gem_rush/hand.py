"""Gem Rush: naming a hand's cards in actions, by their index in the hand."""

from __future__ import annotations

from collections.abc import Sequence

from protopress.games.gem_rush.payment import Card
from protopress.rules.core import IllegalAction


def distinct_cards(cards: Sequence[Card]) -> list[int]:
    """Index of the first card of each kind (identical cards make identical actions)."""
    found, seen = [], set()
    for i, card in enumerate(cards):
        if card not in seen:
            seen.add(card)
            found.append(i)
    return found


def pop_card(hand: list[Card], i: int) -> Card:
    """Card i of hand, taken from it (IllegalAction if the hand has no card i)."""
    if not (isinstance(i, int) and 0 <= i < len(hand)):
        raise IllegalAction(f"no card {i} in hand")
    return hand.pop(i)

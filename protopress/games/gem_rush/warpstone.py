"""Gem Rush: warping with Warpstone: the cards of a hand that can warp, and the
ways a build paid with Warpstone discards cards (Rift Walker keeps the card)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from protopress.games.gem_rush.hand import distinct_cards
from protopress.games.gem_rush.payment import WARPSTONE, Card, Payment


def warpstones(hand: Sequence[Card]) -> list[int]:
    """distinct_cards's cards that show Warpstone (most hands hold none: no listing then)."""
    if not any(WARPSTONE in card for card in hand):
        return []
    return [i for i in distinct_cards(hand) if WARPSTONE in hand[i]]


class WarpPayment(NamedTuple):
    """The cards a build with Warpstone discards, and whether it uses Rift Walker."""

    cards: tuple[int, ...]
    rift_walker: bool


def warp_payments(
    hand: list[Card], payment: Payment, warps: list[int], free: bool
) -> Iterator[WarpPayment]:
    """The ways to build with Warpstone and payment.

    A Warpstone card in the payment is enough; otherwise one is discarded
    alongside, or, with Rift Walker unused, kept (the payment alone is discarded).
    """
    if any(WARPSTONE in hand[i] for i in payment.cards):
        yield WarpPayment(payment.cards, False)
        return
    for w in warps:
        yield WarpPayment(tuple(sorted((*payment.cards, w))), False)
    if free:
        yield WarpPayment(payment.cards, True)

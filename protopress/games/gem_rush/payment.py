"""Gem Rush: paying a door's gem cost with gem cards.

- A standard gem pays for itself.
- Diamond Dust pays as any standard gem.
- Echoglass pays as a copy of a standard gem spent in the same payment: at
  least one real gem of that kind must pay (never a gem Diamond Dust stands in for).
- Orichalcum pays nothing, but earns one point when the other gem on its own
  card is useful in the payment.
- Warpstone pays nothing.

Whether a set of cards can pay has a closed form: real gems pay their own
kind first (they can pay nothing else), Echoglass covers what is still missing
of kinds a real gem pays, and Diamond Dust covers the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from protopress.components import Catalog

# The special gems the rules give powers to (their effects are code below); which
# gems a game has, and which of them are special, is the catalog's (gem_set).
DIAMOND_DUST, ECHOGLASS, ORICHALCUM, WARPSTONE = (
    "diamond-dust",
    "echoglass",
    "orichalcum",
    "warpstone",
)
SPECIAL = (DIAMOND_DUST, ECHOGLASS, ORICHALCUM, WARPSTONE)
PAYS_NOTHING = (ORICHALCUM, WARPSTONE)

# How much a gem left in hand is worth for later payments (the tie-break
# "keep the most flexible gems"): wild first, then copies, then the rest (1).
FLEXIBILITY = {DIAMOND_DUST: 4, ECHOGLASS: 2, WARPSTONE: 2, ORICHALCUM: 1}


class GemSet(NamedTuple):
    """A catalog's gems, in catalog order: the standard ones and the special ones."""

    standard: tuple[str, ...]
    special: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        return self.standard + self.special


def gem_set(catalog: Catalog) -> GemSet:
    """The gems of a Gem Rush catalog, split by each gem's `special` mark."""
    gems = catalog.of_kind("gem")
    return GemSet(
        tuple(g.id for g in gems if not g.get("special")),
        tuple(g.id for g in gems if g.get("special")),
    )


Card = tuple[str, ...]


@dataclass(frozen=True)
class Payment:
    cards: tuple[int, ...]  # indices into the hand, ascending
    bonus: int  # Orichalcum points


def can_pay(cost: Sequence[str], cards: Sequence[Card]) -> bool:
    return can_pay_from(counts(cost), counts(gem for card in cards for gem in card))


def counts(gems: Iterable[str]) -> dict[str, int]:
    """How many of each gem (a plain dict: a Counter costs more to make, and this is
    made for every set of cards a payment search tries)."""
    found: dict[str, int] = {}
    for gem in gems:
        found[gem] = found.get(gem, 0) + 1
    return found


def can_pay_from(need: Mapping[str, int], gems: Mapping[str, int]) -> bool:
    """Whether gems (a pool: a hand, or a whole deck) hold a payment for need.

    Each gem short of need is paid by an Echoglass (when a real gem of its
    kind is among those paid, for Echoglass copies one) or a Diamond Dust (wild).
    """
    copyable = missing = 0
    for gem, count in need.items():
        have = gems.get(gem, 0)
        short = max(0, count - have)
        missing += short
        if have:  # a real gem of this kind pays, so Echoglass may copy it
            copyable += short
    by_echoglass = min(gems.get(ECHOGLASS, 0), copyable)
    return missing - by_echoglass <= gems.get(DIAMOND_DUST, 0)


def orichalcum_bonus(cards: Sequence[Card]) -> int:
    """Points from Orichalcum in a minimal payment.

    In a minimal payment every card is needed, so on a card of Orichalcum and
    one other gem that other gem pays: each such Orichalcum earns its point.
    A card whose other gem pays nothing (Orichalcum, Warpstone) is never needed.
    """
    bonus = 0
    for card in cards:
        if ORICHALCUM in card and any(gem not in PAYS_NOTHING for gem in card):
            bonus += card.count(ORICHALCUM)
    return bonus


def minimal_payments(cost: Sequence[str], hand: Sequence[Card]) -> list[Payment]:
    """Every set of hand cards that pays the cost and from which no card can be dropped.

    Sets are tried smallest first, so whether a set can drop a card is known from the
    sets one card smaller (paying is monotone: more cards never pay less)."""
    if not cost:
        return [Payment((), 0)]
    need = counts(cost)
    found = []
    pays: set[tuple[int, ...]] = set()  # every set tried so far that pays
    # each gem of the cost is paid by one gem of one card, and a minimal payment holds
    # only cards that pay: it has no more cards than the cost has gems
    for size in range(1, min(len(hand), len(cost)) + 1):
        for chosen in combinations(range(len(hand)), size):
            if size > 1 and any(chosen[:k] + chosen[k + 1 :] in pays for k in range(size)):
                pays.add(chosen)  # a card can be dropped
                continue
            cards = [hand[i] for i in chosen]
            if can_pay_from(need, counts(gem for card in cards for gem in card)):
                pays.add(chosen)
                found.append(Payment(chosen, orichalcum_bonus(cards)))
    return found


def recommend(payments: Sequence[Payment], hand: Sequence[Card]) -> Payment | None:
    """The most bonus points, then the fewest cards, then the most flexible gems kept."""

    def kept_flexibility(payment: Payment) -> int:
        return sum(
            FLEXIBILITY.get(gem, 1)
            for i, card in enumerate(hand)
            if i not in payment.cards
            for gem in card
        )

    if not payments:
        return None
    return min(payments, key=lambda p: (-p.bonus, len(p.cards), -kept_flexibility(p), p.cards))

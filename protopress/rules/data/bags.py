"""Bags and rows of zones: a zone drawn from at random, and a zone that is a row of
piles (each player's spires).

A bag (`bag: true`) is a shared zone whose pieces are drawn at random: a draw
(`draw`, `deal`, `refill`) takes one of the pieces left, each as likely, by one
chance draw under the zone's name (public: every seat sees what was drawn); a
piece put into a bag mixes in with the others. Its pieces are kept in catalog
order, so a draw is the same as a draw of one piece from a count per component
(rules/chance.Chance.draw): a game on the same seed draws the same pieces as an
engine that keeps its bag as counts. The order of a bag is no secret (every draw
is fresh), so the bots' view hides nothing of it.

A row of zones (`piles: 6`) is a zone that is that many piles side by side: with
`each: true`, every player's row (a tower of spires). `my.spires` is the row,
gone through with `for spire in my.spires` (in steps and expressions) and chosen
from by an action or a `choose` step; each pile is a zone (`count(spire)`,
`top(spire)`, `draw: spire`). A row's piles are numbered from 0, as logged.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.rules.data.load import Finding
from protopress.rules.data.model import HOLE, DataState, Seen, Zone

Take = Callable[[DataState, list[int]], int]  # a card out of a pile
Put = Callable[[list[int], int], None]  # a card onto a pile


def zone_findings(name: str, given: Mapping[str, Any], findings: list[Finding]) -> None:
    """What `bag` and `piles` need of the zone alone."""
    at = pointer_of(["zones", name])
    if given.get("bag"):
        for key in ("each", "slots", "shuffle", "grid", "dice", "piles"):
            if given.get(key):
                message = f"a bag is one shared zone drawn from at random: it takes no {key!r}"
                findings.append(Finding(f"{at}/{key}", message, at_key=True))
    if given.get("piles", 1) > 1:
        for key in ("slots", "grid", "dice", "setup", "shuffle", "refill"):
            if given.get(key):
                message = f"a row of piles starts empty and is drawn from by pile: it takes no {key!r}"  # fmt: skip
                findings.append(Finding(f"{at}/{key}", message, at_key=True))
        if given.get("seen") != Seen.EVERYONE.value:
            message = "a row of piles is seen by everyone (seen: everyone)"
            findings.append(Finding(f"{at}/seen", message))


def taker(zone: Zone) -> Take:
    """How a draw takes a card from the zone: its top card, or a bag's piece at random."""
    if not zone.bag:
        return _top
    name = zone.name

    def at_random(state: DataState, pile: list[int]) -> int:
        card = state.chance.choice(name, pile)
        pile.remove(card)  # the first of its copies: the pile stays in catalog order
        return card

    return at_random


def _top(state: DataState, pile: list[int]) -> int:
    return pile.pop()


def putter(zone: Zone) -> Put:
    """How a card goes onto the zone: into a row's first empty slot, mixed into a bag,
    else on top."""
    if zone.bag:
        return bisect.insort
    if zone.slots is not None:
        return _into_slot
    return list.append


def _into_slot(pile: list[int], card: int) -> None:
    if HOLE in pile:
        pile[pile.index(HOLE)] = card
    else:
        pile.append(card)


def row_of(zone: Zone, seat: int) -> range:
    """The piles of seat's row of a zone (a shared zone's: its own)."""
    first = zone.pile(seat)
    return range(first, first + zone.piles)


def place_in_row(zone: Zone, pile: int) -> int:
    """A pile's place in its row, from 0 (as an action logs it)."""
    return (pile - zone.first) % zone.piles

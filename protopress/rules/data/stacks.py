"""Zones read as stacks: the top card of a zone, and how many different values a zone
or a list holds (a spire of one colour, a row of all different cards).

`top(ZONE)` is the zone's last card (draws take from the top), its empty slots
skipped; nothing when the zone is empty, so a rule reading its fields first asks
`not empty(ZONE)`. `distinct(ZONE)` counts the different components of a zone,
`distinct(X for NAME in ZONE if C)` the different values of X.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from protopress.rules.data.model import HOLE


def top(cards: Sequence[int]) -> int | None:
    """The last card of a pile that is not an empty slot; None when there is none."""
    for card in reversed(cards):
        if card != HOLE:
            return card
    return None


def distinct(values: Iterable[Any]) -> int:
    """How many different values (a list, such as a card's cost, by its items in order)."""
    return len({tuple(value) if isinstance(value, list) else value for value in values})


def distinct_cards(cards: Sequence[int]) -> int:
    """How many different components a pile holds, its empty slots skipped."""
    return len(set(cards) - {HOLE})

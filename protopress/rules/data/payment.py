"""Payments with wildcards and trades: how a player pays a cost when the exact
resources are short.

A rules file's `payment: {wild: [lantern], trade: 2}` says: a `wild` resource
pays for any one missing resource, and `trade` alike resources (of one kind,
not wild) pay for one missing resource of another kind. A cost is paid in a
fixed order, so a game stays deterministic: first the exact resources, then
wild ones (in the order given), then trades, each from the resource the
player has the most of beyond the cost (ties: the first in resource order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.components.suggest import did_you_mean
from protopress.rules.data.load import Finding


@dataclass(frozen=True)
class Payment:
    """The places of the wild resources in a pool, and how many alike make a trade."""

    wild: tuple[int, ...] = ()
    trade: int | None = None

    def plan(self, pool: Sequence[int], counts: Sequence[tuple[int, int]]) -> list[int] | None:
        """How many of each resource paying counts takes from pool; None: it cannot."""
        take = [0] * len(pool)
        short = 0
        for place, n in counts:
            used = min(pool[place], n)
            take[place] += used
            short += n - used
        for place in self.wild:
            if not short:
                break
            used = min(pool[place] - take[place], short)
            take[place] += used
            short -= used
        trade = self.trade
        while short and trade:
            spare, best = trade - 1, -1
            for place, held in enumerate(pool):
                if place not in self.wild and held - take[place] > spare:
                    spare, best = held - take[place], place
            if best < 0:
                return None
            take[best] += trade
            short -= 1
        return None if short else take

    def pay(self, pool: list[int], counts: Sequence[tuple[int, int]]) -> bool:
        """Pay counts from pool; False (pool untouched) when it cannot."""
        take = self.plan(pool, counts)
        if take is None:
            return False
        for place, n in enumerate(take):
            pool[place] -= n
        return True


def payment_of(
    declared: Mapping[str, Any] | None, resources: Mapping[str, int], findings: list[Finding]
) -> Payment | None:
    """The rules file's `payment` (None when it has none: exact costs only)."""
    if declared is None:
        return None
    wild: list[int] = []
    for i, name in enumerate(declared.get("wild", ())):
        place = resources.get(name)
        if place is None:
            hint = did_you_mean(name, resources)
            findings.append(Finding(f"/payment/wild/{i}", f"{name!r} is not a resource of this catalog{hint}"))  # fmt: skip
        else:
            wild.append(place)
    if not resources:
        findings.append(Finding("/payment", "payment needs resources to pay with"))
    return Payment(tuple(wild), declared.get("trade"))

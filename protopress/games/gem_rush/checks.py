"""Gem Rush tile-set checks: the door cost curve, gem demand against supply,
doors nobody can pay for, and how often random mines close."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from protopress.components import Catalog, Component
from protopress.games.gem_rush.mine import room_counts
from protopress.games.gem_rush.mine_growth import RoomStack, monte_carlo
from protopress.games.gem_rush.payment import can_pay_from
from protopress.validators.findings import Check, Finding

MINES = 200  # random mines grown per check run
CLOSING_WARNING = 0.05  # a mine that closes this often strands players in Crisis mode
DEMAND_SPREAD = 0.25  # per-gem demand/supply ratio this far from the mean is lopsided


def _doors(catalog: Catalog) -> Iterator[tuple[Component, str, dict[str, Any], int]]:
    """(tile, edge, door, copies) for every door of every non-tunnel tile."""
    for tile in catalog.of_kind("room-tile"):
        if tile["type"] != "tunnel":
            for edge, door in tile["doors"].items():
                yield tile, edge, door, tile.count


def _shape(cost: Sequence[str]) -> tuple[int, int]:
    """A cost's shape: number of gems and number of different gems."""
    return len(cost), len(set(cost))


def door_curve(catalog: Catalog, seed: int) -> Iterator[Finding]:
    """Flag doors whose points stray from the catalog's own cost-to-points curve."""
    by_shape = defaultdict(list)
    for _, _, door, copies in _doors(catalog):
        by_shape[_shape(door["cost"])].extend([door["points"]] * copies)
    curve = {shape: statistics.median(points) for shape, points in by_shape.items()}
    described = ", ".join(
        f"{gems} gem{'s' if gems != 1 else ''}"
        + (f" ({distinct} different)" if gems > 1 else "")
        + f": {points:g}"
        for (gems, distinct), points in sorted(curve.items())
    )
    yield Finding(
        "info",
        "room_tiles",
        f"door points by cost: {described}",
        "door-curve",
        {f"{g}/{d}": p for (g, d), p in curve.items()},
    )
    for tile, edge, door, _ in _doors(catalog):
        expected = curve[_shape(door["cost"])]
        if door["points"] != expected:
            yield Finding(
                "warning",
                tile.id,
                f"door {edge} costs {'+'.join(door['cost']) or 'nothing'} and scores "
                f"{door['points']}; doors of that cost usually score {expected:g}",
                "door-curve",
                {"edge": edge, "points": door["points"], "curve": expected},
            )


def _supply(catalog: Catalog) -> Counter[str]:
    supply: Counter[str] = Counter()
    for card in catalog.of_kind("gem-card"):
        for gem in card["gems"]:
            supply[gem] += card.count
    return supply


def gem_balance(catalog: Catalog, seed: int) -> Iterator[Finding]:
    """Per standard gem: copies demanded by door costs against copies on gem cards."""
    supply = _supply(catalog)
    demand: Counter[str] = Counter()
    for _, _, door, copies in _doors(catalog):
        for gem in door["cost"]:
            demand[gem] += copies
    standard = [gem.id for gem in catalog.of_kind("gem") if not gem["special"]]
    ratios = {gem: demand[gem] / supply[gem] for gem in standard if supply[gem]}
    mean = statistics.mean(ratios.values()) if ratios else 0
    table = ", ".join(f"{gem} {demand[gem]}/{supply[gem]}" for gem in standard)
    yield Finding(
        "info",
        "gem_cards",
        f"door demand/card supply per gem: {table}",
        "gem-balance",
        {gem: {"demand": demand[gem], "supply": supply[gem]} for gem in standard},
    )
    for gem in standard:
        if demand[gem] and not supply[gem]:
            yield Finding(
                "error",
                gem,
                f"door costs ask for {gem} {demand[gem]} time{'s' if demand[gem] != 1 else ''} "
                "but no gem card shows it",
                "gem-balance",
            )
        elif gem in ratios and mean and abs(ratios[gem] / mean - 1) > DEMAND_SPREAD:
            yield Finding(
                "warning",
                gem,
                f"{gem} is demanded {ratios[gem]:.2f} times per card against {mean:.2f} "
                "for the average gem",
                "gem-balance",
                {"ratio": ratios[gem], "mean": mean},
            )


def payable_doors(catalog: Catalog, seed: int) -> Iterator[Finding]:
    """A door costing more of a gem than the whole deck can pay is never built.

    The deck pays a gem with its own copies, Diamond Dust (wild) and Echoglass
    (copies a standard gem spent in the same payment, so it needs one real copy).
    """
    supply = _supply(catalog)
    for tile, edge, door, _ in _doors(catalog):
        if not can_pay_from(Counter(door["cost"]), supply):
            yield Finding(
                "error",
                tile.id,
                f"door {edge} costs {'+'.join(door['cost'])}: the whole gem deck cannot pay it",
                "payable-doors",
            )


def mine_growth(catalog: Catalog, seed: int) -> Iterator[Finding]:
    stack = RoomStack(tuple(room_counts(catalog.of_kind("room-tile"))))
    stats = monte_carlo(stack, MINES, seed)
    rate = stats.closed / stats.mines
    data = {
        "mines": stats.mines,
        "closed": stats.closed,
        "stack": stats.stack,
        "growth_limit": stats.limit,
        "closed_interval": [stats.closed_low, stats.closed_high],
        "mean_placed": stats.mean_placed,
        "mean_longest_dead_end": stats.mean_dead_end,
        "longest_dead_end": stats.longest_dead_end,
        "seed": seed,
    }
    horizon = (
        "before the stack ran out"
        if stats.stack <= stats.limit
        else f"within their first {stats.limit} tiles (of {stats.stack} in the stack)"
    )
    summary = (
        f"{stats.closed} of {stats.mines} random mines closed {horizon} "
        f"({rate:.1%}, 95% interval {stats.closed_low:.1%} to {stats.closed_high:.1%}); "
        f"longest dead end {stats.longest_dead_end} rooms (mean of the longest "
        f"{stats.mean_dead_end:.1f}); seed {seed}"
    )
    severity = "warning" if rate >= CLOSING_WARNING else "info"
    yield Finding(severity, "room_tiles", summary, "mine-growth", data)


CHECKS = (
    Check("door-curve", ("room-tile",), door_curve),
    Check("gem-balance", ("room-tile", "gem-card", "gem"), gem_balance),
    Check("payable-doors", ("room-tile", "gem-card"), payable_doors),
    Check("mine-growth", ("room-tile",), mine_growth),
)

"""A tower scored again after a look-ahead action changed a spire or two.

Stacking the held gem, moving or swapping top gems change one or two spires
of the chooser's tower, and the greedy look-ahead judges every such action of
a decision (rules._LookAhead): scoring each tower afresh was its largest cost.
`TowerChange.after` gives the points and progress of such a tower from those
of the tower before (kept by the state) and the changed spires' shares alone;
Rainbow From Above is counted again only when a capped top changed. It is a
fast path beside `rules.tower_values` (one pass over a whole tower):
tests/games/dragonstone_mine/test_fast.py holds both to the rules' `tally`,
`points` and `_progress` on thousands of towers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from protopress.games.dragonstone_mine.effects import Rules

Spires = Sequence[Sequence[str]]
# (points, progress, top) of one spire: a plain tuple, as one is made per action judged
Share = tuple[int, int, str | None]


def spire_share(spire: Sequence[str], capacity: int, table: Mapping[str, int]) -> Share:
    """One spire's points (its gems, and a capped stack of one colour or all different;
    Rainbow From Above apart), its progress (not capped: one per gem while it is still
    one colour or all different) and, capped, its top gem."""
    height = len(spire)
    if height < capacity:
        if height < 3:  # no gem, one, or two: one colour or all different either way
            return height * table["per_gem"], height, None
        kinds = len(set(spire))
        return height * table["per_gem"], height if kinds == 1 or kinds == height else 0, None
    if not height:  # a spire of capacity 0
        return 0, 0, None
    points = height * table["per_gem"]
    size = table["stack_size"]
    if height == size:
        kinds = len(set(spire))
        if kinds == 1:
            points += table["single_colour_stack"]
        elif kinds == size:
            points += table["rainbow_stack"]
    return points, 0, spire[-1]


def rainbow_from_above(tower: Spires, capacities: Sequence[int], colours: int) -> bool:
    """Capped spires topped by `colours` different colours."""
    caps = zip(tower, capacities, strict=False)  # one spire per capacity by construction
    return len({spire[-1] for spire, cap in caps if spire and len(spire) >= cap}) >= colours


class TowerChange:
    """Towers that differ from `before` (whose points and progress are `values`) in a
    spire or two, scored from those spires."""

    __slots__ = ("rules", "before", "values", "shares", "capped", "rainbow")

    def __init__(self, rules: Rules, before: Spires, values: tuple[int, int]):
        self.rules, self.before, self.values = rules, before, values
        self.shares: list[Share | None] = [None] * len(before)  # before's, when first asked
        self.capped: int | None = None  # before's capped spires, when a top first changes
        self.rainbow = False  # ... and whether before has Rainbow From Above

    def after(self, tower: Spires, changed: Sequence[int]) -> tuple[int, int]:
        """(points, progress) of tower, which differs from before in the spires numbered
        changed."""
        score, progress = self.values
        rules = self.rules
        table, caps, shares = rules.points, rules.capacities, self.shares
        gained = 0  # capped spires
        topped = False  # a capped top changed
        for i in changed:
            old = shares[i]
            if old is None:
                old = shares[i] = spire_share(self.before[i], caps[i], table)
            new = spire_share(tower[i], caps[i], table)
            score += new[0] - old[0]
            progress += new[1] - old[1]
            if new[2] != old[2]:
                topped = True
                gained += (new[2] is not None) - (old[2] is not None)
        if topped:  # Rainbow From Above may have come or gone
            colours = len(rules.colours)
            capped = self.capped
            if capped is None:
                before = self.before
                capped = self.capped = sum(
                    1
                    for spire, cap in zip(before, caps, strict=False)
                    if spire and len(spire) >= cap
                )
                self.rainbow = capped >= colours and rainbow_from_above(before, caps, colours)
            rainbow = capped + gained >= colours and rainbow_from_above(tower, caps, colours)
            if rainbow != self.rainbow:
                score += table["rainbow_from_above"] if rainbow else -table["rainbow_from_above"]
        return score, progress

"""Set collection and majorities: the scoring functions of the rules language.

`counts(X for c in ZONE)` is how many cards share each value X (most first);
`distinct_sets(...)` the sizes of the sets of different values they make (each
set as large as it can be, taken one after the other); `scale(n, p0, p1, ...)`
the points a scale gives for n; `most(X, TIES, P1, P2, ...)` and
`fewest(...)` the points a player's rank gives among all players by the value
X, read for each of them. The expression language (expr.py) compiles the calls;
the arithmetic lives here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

TIES = ("split", "each")  # tied players share their places' points, or each gets the first's


def counts(values: Iterable[Any]) -> list[int]:
    """How many times each value comes, most first: [3, 1, 1] for a, b, a, c, a."""
    return sorted(Counter(values).values(), reverse=True)


def distinct_sets(values: Iterable[Any]) -> list[int]:
    """The sizes of the sets of different values the values make, largest first: a set
    takes one of each value left, then the next set from what remains. a, a, a, b, c
    make [3, 1, 1] (a b c, then a, then a)."""
    many = counts(values)
    return [sum(1 for n in many if n > k) for k in range(many[0] if many else 0)]


def scale(n: int, points: Sequence[int]) -> int:
    """The points for n: the nth of the scale (from 0), the last beyond its end."""
    if n < 0:
        return 0
    return points[min(n, len(points) - 1)]


def ranked(values: Sequence[Any], seat: int, ties: str, points: Sequence[int], most: bool) -> int:
    """The points seat's rank gives: ranks by value (highest first when most, else
    lowest), the first place taking points[0], the second points[1], and so on. Tied
    players `split` the points of the places they fill between them (rounded down), or
    `each` takes the points of their shared place (the next player's place is counted
    after them all). With most, a player whose value is 0 or less has no place."""
    mine = values[seat]
    if most and mine <= 0:
        return 0
    ahead = sum(1 for v in values if (v > mine if most else v < mine))
    tied = sum(1 for v in values if v == mine)
    if ties == "each":
        return points[ahead] if ahead < len(points) else 0
    shared = sum(points[ahead : ahead + tied])
    return shared // tied

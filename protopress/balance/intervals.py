"""Numbers with 95% intervals: proportions, differences, means, distributions.

- a proportion (a win rate, a tie rate): Wilson's score interval, good down to
  a handful of games and at rates near 0 or 1;
- a difference of two independent proportions (a rate in two independent
  runs): Newcombe's hybrid score interval, built from the two Wilson intervals
  (R. G. Newcombe, "Interval estimation for the difference between independent
  proportions: comparison of eleven methods", Statistics in Medicine 17 (1998)
  873-890, method 10);
- a difference within games (seats that used a component against seats at the
  same table that did not): the Mantel-Haenszel difference over games as strata
  with Sato's variance, and the game-level permutation test (exact when small,
  else its normal form, the Cochran-Mantel-Haenszel test);
- many p-values at once: Benjamini-Hochberg q-values;
- a mean (a score, a margin, a length): the normal approximation, mean plus or
  minus 1.96 standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

Z = 1.96  # two-sided 95%
MAX_BINS = 20


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


# --- numbers with intervals -------------------------------------------------------


def _r(value: float | None) -> float | None:
    """Rounded for the JSON: six decimals are more than any interval here supports."""
    return None if value is None else round(float(value), 6)


def proportion(successes: int, trials: int) -> dict:
    """successes of trials, the rate and its 95% Wilson interval (rate None if no trials)."""
    low, high = wilson_interval(successes, trials, Z)
    return {
        "count": successes,
        "trials": trials,
        "rate": _r(successes / trials) if trials else None,
        "low": _r(low),
        "high": _r(high),
    }


def share_p_value(successes: int, trials: int, share: float) -> float:
    """Two-sided p-value of a rate equal to share, by the score test (the test whose
    acceptance region is Wilson's interval: p < 0.05 when the interval leaves share out)."""
    if trials == 0 or share in (0.0, 1.0):
        return 1.0
    return two_sided_p((successes / trials - share) / math.sqrt(share * (1 - share) / trials))


def difference_interval(s1: int, n1: int, s2: int, n2: int) -> tuple[float, float, float]:
    """p1 - p2 and its 95% interval by Newcombe's hybrid score method (method 10)."""
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson_interval(s1, n1, Z)
    l2, u2 = wilson_interval(s2, n2, Z)
    difference = p1 - p2
    low = difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return difference, low, high


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic z."""
    return math.erfc(abs(z) / math.sqrt(2))


def difference_p_value(s1: int, n1: int, s2: int, n2: int) -> float:
    """Two-sided p-value of p1 = p2 by the pooled two-proportion z-test, for two
    independent samples (not seats of the same games: see within_game_difference;
    tests/balance/test_null_check.py shows what it does there)."""
    pooled = (s1 + s2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    return two_sided_p((s1 / n1 - s2 / n2) / spread)


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given.

    A component is flagged when its q-value is at most FDR: among the flags,
    the expected share of false ones is then at most FDR, however many
    components a game has. (Bonferroni or Holm would bound the chance of any
    false flag at all, and with a hundred components would hide real effects.)
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        index = order[rank - 1]
        running = min(running, p_values[index] * m / rank)
        adjusted[index] = min(1.0, running)
    return adjusted


class Stratum(NamedTuple):
    """Seats compared with each other (one bot's seat-games, or one game's seats of
    one bot): n1 used the component (s1 of them won), n2 did not (s2 won)."""

    n1: int
    s1: int
    n2: int
    s2: int


class Effect(NamedTuple):
    """A difference of win rates, its 95% interval and its two-sided p-value."""

    difference: float
    low: float
    high: float
    p: float


EXACT_LIMIT = 5_000  # steps of the exact permutation distribution before its normal form


def within_game_difference(cells: Mapping[Stratum, int]) -> Effect | None:
    """A component's effect with the game as the unit: each cell is one game's seats
    (of one bot), counted by how many games had that cell.

    The difference is the Mantel-Haenszel risk difference over the cells, weights
    n1*n2/(n1+n2): in a two-player game where one seat used the component, the
    user's result minus the other seat's. Its numerator is the users' wins less
    their mean under the permutation below, so its variance under no effect is
    the permutation variance over the squared weight. The interval is the
    difference plus or minus 1.96 standard errors, the larger of that variance
    and Sato's (Biometrics 45 (1989) 1323-1324; it holds however many cells
    there are and however small; for pairs it is the paired variance
    ((b + c)/n - d^2)/n), kept within -1 to +1: so the interval never shrinks
    to a point when every game goes one way. The p-value is the
    permutation test of "which seats used it says nothing about who won",
    permuting the users among the seats of each cell: exact when the distribution
    is small (at most EXACT_LIMIT steps to build), else from its exact mean and
    variance with half a win of continuity correction (the Cochran-Mantel-Haenszel
    test; for pairs, McNemar's with Edwards' correction). None when
    no cell has both a user and a non-user.
    """
    usable = {cell: games for cell, games in cells.items() if cell.n1 and cell.n2}
    if not usable:
        return None
    weight = numerator = sato_p = sato_q = null = 0.0
    for (n1, s1, n2, s2), games in usable.items():
        total, winners = n1 + n2, s1 + s2
        weight += games * n1 * n2 / total
        numerator += games * (s1 * n2 - s2 * n1) / total
        sato_p += games * (n1 * n1 * s2 - n2 * n2 * s1 + n1 * n2 * (n2 - n1) / 2) / total**2
        sato_q += games * (s1 * (n2 - s2) + s2 * (n1 - s1)) / (2 * total)
        null += games * n1 * n2 * winners * (total - winners) / (total * total * (total - 1))
    difference = numerator / weight
    variance = max(difference * sato_p + sato_q, null)
    half = Z * math.sqrt(max(0.0, variance)) / weight
    low, high = max(-1.0, difference - half), min(1.0, difference + half)
    return Effect(difference, low, high, permutation_p_value(usable))


def _hypergeometric(cell: Stratum) -> dict[int, float]:
    """The user wins of a cell when its n1 users are n1 of its seats drawn at random."""
    seats, winners = cell.n1 + cell.n2, cell.s1 + cell.s2
    ways = math.comb(seats, cell.n1)
    return {
        k: math.comb(winners, k) * math.comb(seats - winners, cell.n1 - k) / ways
        for k in range(max(0, cell.n1 - (seats - winners)), min(cell.n1, winners) + 1)
    }


def permutation_p_value(cells: Mapping[Stratum, int]) -> float:
    """Two-sided p-value of the user wins under the within-game permutation: the
    chance of user wins at least as far from their mean as those seen."""
    observed = sum(cell.s1 * games for cell, games in cells.items())
    laws = [(law, games) for cell, games in cells.items() if len(law := _hypergeometric(cell)) > 1]
    mean = sum(games * sum(k * q for k, q in law.items()) for law, games in laws)
    variance = sum(
        games * (sum(k * k * q for k, q in law.items()) - sum(k * q for k, q in law.items()) ** 2)
        for law, games in laws
    )
    if variance <= 0:
        return 1.0
    span = sum(games * (max(law) - min(law)) for law, games in laws)
    steps = sum(games * len(law) for law, games in laws) * (span + 1)
    if steps > EXACT_LIMIT:  # the user wins are whole: half a win of continuity correction
        return two_sided_p(max(0.0, abs(observed - mean) - 0.5) / math.sqrt(variance))
    total: dict[int, float] = {sum(games * min(law) for law, games in laws): 1.0}
    for law, games in laws:
        offset = min(law)
        for _ in range(games):
            grown: dict[int, float] = {}
            for t, q in total.items():
                for k, r in law.items():
                    grown[t + k - offset] = grown.get(t + k - offset, 0.0) + q * r
            total = grown
    far = abs(observed - mean) - 1e-9
    return min(1.0, sum(q for t, q in total.items() if abs(t - mean) >= far))


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def mean_interval(values: Sequence[float]) -> dict:
    """n, mean, sample sd and the normal 95% interval of the mean."""
    if not values:
        return {"n": 0, "mean": None, "sd": None, "low": None, "high": None}
    mean, sd = mean_sd(values)
    half = Z * sd / math.sqrt(len(values))
    return {
        "n": len(values),
        "mean": _r(mean),
        "sd": _r(sd),
        "low": _r(mean - half),
        "high": _r(mean + half),
    }


def histogram(values: Sequence[float], max_bins: int = MAX_BINS) -> list[dict]:
    """Half-open bins [low, high) covering the values, at most max_bins of them.

    Whole numbers get whole-number bins (width 1, 2, 3, ...) starting at a
    multiple of the width; other values get max_bins equal bins.
    """
    if not values:
        return []
    lowest, highest = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil((highest - lowest + 1) / max_bins))
        start = math.floor(lowest / width) * width
        count = (int(highest) - start) // width + 1
        edges: list[float] = [start + i * width for i in range(count + 1)]
    else:
        width = (highest - lowest) / max_bins or 1.0  # type: ignore[assignment]
        count = max_bins if highest > lowest else 1
        edges = [lowest + i * width for i in range(count + 1)]
    counts = [0] * count
    for value in values:
        counts[min(int((value - edges[0]) // width), count - 1)] += 1
    return [
        {"low": _r(edges[i]), "high": _r(edges[i + 1]), "count": counts[i]} for i in range(count)
    ]


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def distribution(values: Sequence[float], max_bins: int = MAX_BINS) -> dict:
    """Mean (with its interval), sd, min, median, max and a histogram."""
    values = list(values)
    if not values:
        return {**mean_interval(values), "min": None, "median": None, "max": None, "histogram": []}
    return {
        **mean_interval(values),
        "min": _r(min(values)),
        "median": _r(median(values)),
        "max": _r(max(values)),
        "histogram": histogram(values, max_bins),
    }

"""How long a balance run will take, said before it runs, from a few of its own
games timed in this process (they are kept: the run does not play them again).

The estimate is the mean time of a timed game, times the games left, shared
among the workers the machine can run at once, plus the workers' start (a
fresh interpreter each, loading the catalog). benchmarks/run_estimate.py
measures its error against the real duration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_SECONDS = 1.0  # time games until they took this long together ...
SAMPLE_GAMES = 2  # ... and at least this many (a whole round of the seats when rotated)
SAMPLE_SHARE = 10  # ... but at most one in this many of the games to play (or SAMPLE_GAMES)
WORKER_START = 0.5  # seconds for a worker process to start and load the catalog


@dataclass(frozen=True)
class RunEstimate:
    """A run's expected duration from its timed games."""

    seconds: float  # the rest of the run, after the timed games
    per_game: float  # mean seconds a timed game took in this process
    timed: int  # games timed (and kept)
    left: int  # games still to play
    workers: int  # processes that will play them at once


@dataclass(frozen=True)
class SamplePlan:
    """When to stop timing games before estimating."""

    least: int  # games at least
    most: int  # games at most

    @classmethod
    def for_run(cls, to_play: int, seats: int, rotate: bool) -> SamplePlan:
        least = max(SAMPLE_GAMES, seats if rotate else 1)
        return cls(least, max(least, to_play // SAMPLE_SHARE))

    def enough(self, timed: int, seconds: float) -> bool:
        return timed >= self.most or (timed >= self.least and seconds >= SAMPLE_SECONDS)


def estimate_run(seconds: float, timed: int, left: int, workers: int) -> RunEstimate:
    """The rest of a run: `left` games on `workers` processes (at most one a game)."""
    per_game = seconds / timed if timed else 0.0
    at_once = max(1, min(workers, left))
    start = WORKER_START if at_once > 1 else 0.0
    return RunEstimate(per_game * left / at_once + start, per_game, timed, left, at_once)


def estimate_words(estimate: RunEstimate, bots: Sequence[str]) -> str:
    """'about 6 h 10 min on 2 workers (search bot: 11 s a game)'."""
    searching = any(name.partition(":")[0] == "mcts" for name in bots)
    who = "search bot" if searching else ", ".join(dict.fromkeys(bots))
    workers = f"{estimate.workers} worker{'s' if estimate.workers != 1 else ''}"
    return (
        f"about {duration_words(estimate.seconds)} on {workers} "
        f"({who}: {duration_words(estimate.per_game)} a game)"
    )


def duration_words(seconds: float) -> str:
    """A duration as a designer reads it: 12 ms, 2.5 s, 40 s, 3 min 20 s, 6 h 10 min."""
    if seconds < 0.9995:
        return f"{max(1, round(seconds * 1000))} ms"
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 600:
        minutes, rest = divmod(whole, 60)
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"

"""How long a balance run will take, said once its first games are played (they
are part of the run: nothing is played twice).

Each chunk of games comes back with the seconds its worker spent on it, in
that worker, on this machine as loaded now; the first games are played one a
chunk so that these come early. A worker's first chunk is left out of the
timing: a fresh process fills its caches in its first game (a first Gemstone
Caverns game takes about a hundred times the next). The estimate is the mean
seconds of a timed game, times the games left, shared among the workers that
play at once. Made once the workers run, it leaves out their start (a fresh
interpreter each). benchmarks/run_estimate.py measures its error against the
real duration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_GAMES = 4  # time at least this many games (a whole round of the seats when rotated) ...
SAMPLE_SECONDS = 1.0  # ... until they took this long a worker ...
SAMPLE_SHARE = 10  # ... or one in this many of the games to play is played
SINGLE_GAME_CHUNKS = 3  # per worker: the run's first chunks hold one game each


@dataclass(frozen=True)
class RunEstimate:
    """A run's expected duration from its timed games."""

    seconds: float  # the rest of the run, after the timed games
    per_game: float  # mean seconds a timed game took in its worker
    timed: int  # games timed (and kept)
    left: int  # games still to play
    workers: int  # processes that will play them at once


@dataclass(frozen=True)
class SamplePlan:
    """When to stop timing games before estimating."""

    least: int  # games timed at least
    most: int  # games played at most (once `least` are timed), whatever their seconds

    @classmethod
    def for_run(cls, to_play: int, seats: int, rotate: bool) -> SamplePlan:
        least = max(SAMPLE_GAMES, seats if rotate else 1)
        return cls(least, max(least, to_play // SAMPLE_SHARE))

    def enough(self, played: int, timed: int, seconds: float, workers: int) -> bool:
        """Whether `timed` of the `played` games, `seconds` together, tell enough."""
        if timed < self.least:
            return False
        return played >= self.most or seconds >= SAMPLE_SECONDS * workers


def estimate_run(seconds: float, timed: int, left: int, workers: int) -> RunEstimate:
    """The rest of a run: `left` games on `workers` processes (at most one a game),
    from `timed` games that took `seconds` together."""
    per_game = seconds / timed if timed else 0.0
    at_once = max(1, min(workers, left))
    return RunEstimate(per_game * left / at_once, per_game, timed, left, at_once)


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

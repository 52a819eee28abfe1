"""How long a balance run will take, said once its first games are played (they
are part of the run: nothing is played twice).

Each chunk of games comes back with the seconds its worker spent on it, in
that worker, on this machine as loaded now, and the CPU seconds of that
worker for it; the first games are played one a chunk so that these come
early. A worker's chunks are left out of the timing until it has spent
WARM_UP_CPU on games: a fresh process fills its caches on the way (a first
Gemstone Caverns game takes about a hundred times the next, and the next
hundred random games two to six times the later ones; it is the process, not
the games: the same games played after others take the later time). The
estimate is the mean seconds of a timed game, times the games left, shared
among the workers that play at once. Made once the workers run, it leaves
out their start (a fresh interpreter each). The sample goes on while the
timed games' CPU seconds spread widely (SamplePlan.enough).

A game's CPU seconds hold from the timed games to the rest (0.90 to 1.09 of
the real in benchmarks/run_estimate.py, but for four timed games of a game
whose length varies fourfold); its seconds on the wall clock are the CPU
seconds stretched by the other work on the machine, as much as there was
while the games were timed. Work that comes or goes later moves the real
duration and not the estimate: that, not the sample, is what made a search
run's estimate come short on the shared machine (docs/balance.md, "Speed").
So the estimate also says the duration with the CPUs to the run alone, from
the CPU seconds, when the machine is busy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_GAMES = 4  # time at least this many games (a whole round of the seats when rotated) ...
SAMPLE_CPU = 1.0  # ... until they took this many CPU seconds a worker ...
SAMPLE_ERROR = 0.1  # ... and their mean CPU seconds has this standard error (share) at most ...
SAMPLE_SHARE = 10  # ... or one in this many of the games to play is timed
SINGLE_GAME_CHUNKS = 3  # per worker: the run's first chunks hold one game each
WARM_UP_CPU = 0.2  # CPU seconds a worker spends on games before its chunks are timed
BUSY = 1.5  # a timed game took this many times its CPU seconds: the machine is busy
LIKELY_Z = 1.96  # the range said holds the rest's duration 95 times in 100 (normal quantile) ...
SAID_RANGE = 0.1  # ... and is said when it reaches this share of the estimate either side


@dataclass(frozen=True)
class RunEstimate:
    """A run's expected duration from its timed games."""

    seconds: float  # the rest of the run, after the timed games
    per_game: float  # mean seconds a timed game took in its worker
    timed: int  # games timed (and kept)
    left: int  # games still to play
    workers: int  # processes that will play them at once
    cpu_per_game: float = 0.0  # mean CPU seconds of a timed game in its worker
    cpu_so_far: float = 0.0  # the workers' CPU seconds of the games played so far, timed or not
    spread: float = 0.0  # the rest's duration's standard deviation, as a share of the estimate

    @property
    def cpu_seconds(self) -> float:
        """The workers' CPU seconds the rest will take, all together."""
        return self.cpu_per_game * self.left

    @property
    def idle_seconds(self) -> float:
        """The rest's duration with the CPUs to the run alone."""
        return self.cpu_seconds / self.workers

    @property
    def likely(self) -> tuple[float, float] | None:
        """The shares of the estimate between which the rest's duration most likely lies
        (95 in 100, as far as the games' CPU seconds go), or None when the spread of the
        timed games is unknown (one chunk timed)."""
        if not math.isfinite(self.spread):
            return None
        share = LIKELY_Z * self.spread
        return max(0.0, 1 - share), 1 + share

    @property
    def busy(self) -> bool:
        """Whether the timed games waited for other work on the machine."""
        return self.per_game > BUSY * self.cpu_per_game > 0


@dataclass(frozen=True)
class SamplePlan:
    """When to stop timing games before estimating."""

    least: int  # games timed at least
    most: int  # games timed at most, whatever their seconds

    @classmethod
    def for_run(cls, to_play: int, seats: int, rotate: bool) -> SamplePlan:
        least = max(SAMPLE_GAMES, seats if rotate else 1)
        return cls(least, max(least, to_play // SAMPLE_SHARE))

    def enough(self, chunks: Sequence[TimedChunk], workers: int) -> bool:
        """Whether the timed chunks tell enough. Timed games are counted, not games
        played: a worker's cheap games warm it up for a while (a few hundred Gemstone
        Caverns games), and a tenth of the run played might leave one chunk timed. The
        spread counts: a DragonStone search game takes two to eleven CPU seconds, as
        its length varies, and four of them can miss the mean by a quarter."""
        timed = sum(chunk.games for chunk in chunks)
        if timed < self.least:
            return False
        cpu = sum(chunk.cpu for chunk in chunks)
        if timed >= self.most:
            return True
        return cpu >= SAMPLE_CPU * workers and relative_error(chunks) <= SAMPLE_ERROR


@dataclass(frozen=True)
class TimedChunk:
    """A timed chunk: its games and their CPU seconds together."""

    games: int
    cpu: float


def relative_error(chunks: Sequence[TimedChunk]) -> float:
    """The standard error of the mean CPU seconds a game, as a share of that mean, from
    the chunks' own means (a chunk of n games varies as 1/n of a game): infinite from
    fewer than two chunks."""
    games = sum(chunk.games for chunk in chunks)
    cpu = sum(chunk.cpu for chunk in chunks)
    if len(chunks) < 2 or cpu <= 0:
        return math.inf
    mean = cpu / games
    spread = sum(c.games * (c.cpu / c.games - mean) ** 2 for c in chunks) / (len(chunks) - 1)
    return math.sqrt(spread / games) / mean


@dataclass(frozen=True)
class Sample:
    """The timed games: how many, their seconds and CPU seconds together, and the CPU
    seconds of every game played so far (the untimed first chunks too); error: the
    standard error of their mean CPU seconds, as a share (relative_error)."""

    timed: int
    seconds: float
    cpu: float
    cpu_so_far: float
    error: float = 0.0


def estimate_run(sample: Sample, left: int, workers: int) -> RunEstimate:
    """The rest of a run: `left` games on `workers` processes (at most one a game)."""
    per_game = sample.seconds / sample.timed if sample.timed else 0.0
    cpu_per_game = sample.cpu / sample.timed if sample.timed else 0.0
    at_once = max(1, min(workers, left))
    return RunEstimate(
        per_game * left / at_once,
        per_game,
        sample.timed,
        left,
        at_once,
        cpu_per_game,
        sample.cpu_so_far,
        rest_spread(sample.error, sample.timed, left),
    )


def rest_spread(error: float, timed: int, left: int) -> float:
    """The standard deviation of the rest's CPU seconds around the estimate, as a share:
    the timed games' mean is uncertain (error), and the games left vary on their own.
    A game's own spread is error * sqrt(timed); the sum of `left` such games, as a share,
    varies by that over sqrt(left); the two add as variances."""
    return error * math.sqrt(1 + timed / left) if left else 0.0


def estimate_words(estimate: RunEstimate, bots: Sequence[str]) -> str:
    """'about 6 h 10 min on 2 workers (search bot: 11 s a game)', and on a busy machine
    '...; 2 h 5 min with the CPUs to itself: the machine is busy'."""
    searching = any(name.partition(":")[0] == "mcts" for name in bots)
    who = "search bot" if searching else ", ".join(dict.fromkeys(bots))
    workers = f"{estimate.workers} worker{'s' if estimate.workers != 1 else ''}"
    words = (
        f"about {duration_words(estimate.seconds)} on {workers} "
        f"({who}: {duration_words(estimate.per_game)} a game)"
    )
    likely = estimate.likely
    if likely is not None and likely[1] - 1 >= SAID_RANGE:
        low, high = (estimate.seconds * share for share in likely)
        words += (
            f"; most likely between {duration_words(low)} and {duration_words(high)}, "
            "as its games' lengths vary"
        )
    if estimate.busy:
        words += (
            f"; {duration_words(estimate.idle_seconds)} with the CPUs to itself: "
            "the machine is busy"
        )
    return words


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

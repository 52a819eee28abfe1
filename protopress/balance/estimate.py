"""How long a balance run will take, said once its first games are played (they
are part of the run: nothing is played twice).

Each chunk of games comes back with the seconds its worker spent on it, in
that worker, on this machine as loaded now, and the CPU seconds of that
worker for it; the first games are played one a chunk so that these come
early. A worker's chunks are left out of the timing until it has spent
WARM_UP_CPU on games: a fresh process fills its caches on the way (a first
Gemstone Caverns game takes about a hundred times the next, and the next
hundred random games two to six times the later ones; it is the process, not
the games: the same games played after others take the later time). Of the
timed chunks, only those before the run's first unfinished game are the
sample (RunSample): the first games to finish are the short ones. The
estimate is the mean seconds of a timed game, times the games left, shared
among the workers that play at once. Made once the workers run, it leaves
out their start (a fresh interpreter each). The sample goes on while the
timed games' CPU seconds spread widely (SamplePlan.enough), and the estimate
says the range the rest most likely takes when they still do.

A game's CPU seconds hold from the timed games to the rest (benchmarks/
run_estimate.py); its seconds on the wall clock are the CPU seconds
stretched by the other work on the machine, as much as there was while the
games were timed. Work that comes or goes later moves the real duration and
not the estimate (docs/balance.md, "Speed"). So the estimate also says the
duration with the CPUs to the run alone, from the CPU seconds, when the
machine is busy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_GAMES = 8  # time at least this many games (a whole round of the seats when rotated) ...
SAMPLE_CPU = 1.0  # ... until they took this many CPU seconds a worker ...
SAMPLE_ERROR = 0.08  # ... and their mean CPU seconds has this standard error (share) at most ...
SAMPLE_SHARE = 10  # ... or one in this many of the games to play is timed
SINGLE_GAME_CHUNKS = 3  # per worker: the run's first chunks hold one game each
WARM_UP_CPU = 0.2  # CPU seconds a worker spends on games before its chunks are timed
BUSY = 1.5  # a timed game took this many times its CPU seconds: the machine is busy
SAID_RANGE = 0.1  # the range is said when it reaches this share of the estimate either side
# Student's t, two-sided 95% (its 0.975 quantile), by degrees of freedom 1 to 30: the
# range of a mean whose spread is itself measured on a few games is wider than 1.96
T_975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


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
    freedom: int = 0  # degrees of freedom of that spread (timed chunks - 1); 0: taken as known

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
        share = t_975(self.freedom) * self.spread
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
    error: float = SAMPLE_ERROR  # the mean's standard error (share) to reach before `most`

    @classmethod
    def for_run(
        cls, to_play: int, seats: int, rotate: bool, least: int = SAMPLE_GAMES
    ) -> SamplePlan:
        least = max(least, seats if rotate else 1)
        return cls(least, max(least, to_play // SAMPLE_SHARE))

    def enough(self, chunks: Sequence[TimedChunk], workers: int) -> bool:
        """Whether the timed chunks tell enough. Timed games are counted, not games
        played: a worker's cheap games warm it up for a while (a few hundred Gemstone
        Caverns games), and a tenth of the run played might leave one chunk timed. The
        spread counts: a DragonStone search game takes two to eleven CPU seconds, as
        its length varies, and four of them miss the mean by more than a quarter about one time in three
        (benchmarks/estimate_sample.py)."""
        timed = sum(chunk.games for chunk in chunks)
        if timed < self.least:
            return False
        cpu = sum(chunk.cpu for chunk in chunks)
        if timed >= self.most:
            return True
        return cpu >= SAMPLE_CPU * workers and relative_error(chunks) <= self.error


@dataclass(frozen=True)
class TimedChunk:
    """A timed chunk: its games and their CPU seconds together (and on the wall clock)."""

    games: int
    cpu: float
    seconds: float = 0.0


class RunSample:
    """The timed chunks as they finish, and the fair sample among them: the chunks whose
    games all come before the run's first game not yet finished. Those finished past it
    are not: while a worker plays a long game the others finish short ones, so the
    first games to finish are the short ones (on games as varied as DragonStone's
    search games, a few percent short: benchmarks/estimate_sample.py)."""

    def __init__(self, order: Sequence[int]):
        self.order = list(order)  # the games' indexes in the order they are handed out
        self.finished: set[int] = set()
        self.frontier = 0  # position in order of the first game not yet finished
        self.waiting: list[tuple[int, TimedChunk]] = []  # timed, past the frontier: (last, chunk)
        self.chunks: list[TimedChunk] = []  # the fair sample
        self.cpu_so_far = 0.0  # of every game played, timed or not

    def add(self, indexes: Sequence[int], chunk: TimedChunk, timed: bool) -> None:
        """A finished chunk: its games' indexes; timed: not played while warming up."""
        self.cpu_so_far += chunk.cpu
        self.finished.update(indexes)
        if timed:
            self.waiting.append((max(indexes), chunk))
        while self.frontier < len(self.order) and self.order[self.frontier] in self.finished:
            self.frontier += 1
        before = self.order[self.frontier] if self.frontier < len(self.order) else math.inf
        self.chunks += [chunk for last, chunk in self.waiting if last < before]
        self.waiting = [(last, chunk) for last, chunk in self.waiting if last >= before]

    def sample(self) -> Sample:
        """The fair sample's sums, its mean's error and the CPU seconds so far."""
        return sample_of(self.chunks, self.cpu_so_far)


def sample_of(chunks: Sequence[TimedChunk], cpu_so_far: float) -> Sample:
    """Timed chunks summed, with their mean's error, and the CPU seconds of every game
    played so far."""
    return Sample(
        sum(chunk.games for chunk in chunks),
        sum(chunk.seconds for chunk in chunks),
        sum(chunk.cpu for chunk in chunks),
        cpu_so_far,
        relative_error(chunks),
        len(chunks) - 1,
    )


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
    freedom: int = 0  # the error's degrees of freedom: timed chunks - 1


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
        sample.freedom,
    )


def t_975(freedom: int) -> float:
    """Student's t 0.975 quantile for these degrees of freedom (0: the normal's, the
    spread taken as known); past 30 by the Cornish-Fisher expansion, within 0.001."""
    if freedom <= 0:
        return 1.96
    if freedom <= len(T_975):
        return T_975[freedom - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * freedom) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * freedom**2)


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

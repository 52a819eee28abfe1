"""The estimate's sample rules on simulated runs: how often the estimate lands within
25% of the rest's CPU seconds, and how often the range it says holds them.

A real run says one sample's worth; this plays the rules of
protopress/balance/estimate.py (SamplePlan, RunSample, estimate_run) thousands
of times on simulated games, whose CPU seconds are drawn from a gamma
distribution with the spread of DragonStone's `mcts:fast` games (a standard
deviation of 0.45 of the mean: ten games of seed 1 took 2.1 to 11 s). The
games are handed out in order to two workers, each taking the next when it
finishes, as the pool does; each worker's first game warms it up and is not
timed. The baseline is the rest's real CPU seconds in the same simulated run;
the figure is the estimate / real ratio. --spread 0.2 is about Gem Rush's
(twelve `mcts:fast` games: 3.5 to 6.6 s).

Three rules are compared: the rule before (at least four timed games, in the
order they finished, until their mean is known within 10%); the same with
at least eight games within 8% (SamplePlan's defaults now); and the rule
now, those eight taken only from the games before the first unfinished one
(RunSample). No game is played: this measures the statistics, not the
machine (benchmarks/run_estimate.py measures real runs).

    python benchmarks/estimate_sample.py --runs 2000
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
from dataclasses import dataclass, replace

from figures import Figure, add_json_option, write_json

from protopress.balance.estimate import (
    RunSample,
    SamplePlan,
    TimedChunk,
    estimate_run,
    sample_of,
)

TARGET = 0.25
MEAN_CPU = 7.3  # seconds of a DragonStone mcts:fast game, mean
SPREAD = 0.45  # its standard deviation, as a share of the mean
WORKERS = 2


@dataclass(frozen=True)
class Outcome:
    ratio: float  # estimate / real, CPU seconds of the rest
    inside: bool  # the real inside the range said
    timed: int
    played_share: float  # of the run, when the estimate was said


def finishing(cpu: list[float]) -> list[tuple[float, int, bool]]:
    """(time, game, warming) as the games finish on WORKERS workers taking them in order."""
    free = [(0.0, worker) for worker in range(WORKERS)]
    started: set[int] = set()
    done = []
    for game, seconds in enumerate(cpu):
        at, worker = heapq.heappop(free)
        warming = worker not in started
        started.add(worker)
        heapq.heappush(free, (at + seconds, worker))
        done.append((at + seconds, game, warming))
    return sorted(done)


@dataclass(frozen=True)
class Rule:
    name: str
    least: int  # games timed at least
    error: float  # the mean's standard error to reach (share)
    fair: bool  # only the games before the first unfinished one


RULES = (
    Rule("before: 4 games, 10%, as they finished", 4, 0.1, False),
    Rule("8 games, 8%, as they finished", 8, 0.08, False),
    Rule("now: 8 games, 8%, before the first unfinished", 8, 0.08, True),
)


def simulate(rng: random.Random, games: int, rule: Rule, spread: float) -> Outcome | None:
    shape = 1 / spread**2
    cpu = [rng.gammavariate(shape, MEAN_CPU / shape) for _ in range(games)]
    plan = replace(SamplePlan.for_run(games, 2, False, least=rule.least), error=rule.error)
    sample = RunSample(range(games))
    as_finished: list[TimedChunk] = []
    for _, game, warming in finishing(cpu):
        chunk = TimedChunk(1, cpu[game], cpu[game])
        sample.add([game], chunk, timed=not warming)
        if not warming:
            as_finished.append(chunk)
        finished = sample.finished
        if len(finished) == games:
            return None
        chunks = sample.chunks if rule.fair else as_finished
        if plan.enough(chunks, WORKERS):
            said = sample_of(chunks, sample.cpu_so_far)
            estimate = estimate_run(said, games - len(finished), WORKERS)
            real = sum(cpu[g] for g in range(games) if g not in finished)
            low, high = estimate.likely or (0.0, float("inf"))
            return Outcome(
                estimate.cpu_seconds / real,
                low <= real / estimate.cpu_seconds <= high,
                len(chunks),
                len(finished) / games,
            )
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="simulated runs a case")
    parser.add_argument("--sizes", default="40,200,2000", help="games a run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", type=float, default=SPREAD,
                        help="the games' standard deviation, a share of their mean")  # fmt: skip
    add_json_option(parser)
    args = parser.parse_args()
    print("| games a run | rule | estimate / real, mean | within 25% | real inside the range "
          "| games timed, mean | of the run played when said |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    figures, details = [], []
    for size in (int(s) for s in args.sizes.split(",")):
        for rule in RULES:
            name = rule.name
            rng = random.Random(f"{args.seed}:{size}")  # the same games for every rule
            outcomes = [
                o for o in (simulate(rng, size, rule, args.spread) for _ in range(args.runs)) if o
            ]
            within = sum(abs(o.ratio - 1) <= TARGET for o in outcomes) / len(outcomes)
            inside = sum(o.inside for o in outcomes) / len(outcomes)
            mean = statistics.fmean(o.ratio for o in outcomes)
            timed = statistics.fmean(o.timed for o in outcomes)
            share = statistics.fmean(o.played_share for o in outcomes)
            print(f"| {size} | {name} | {mean:.3f} | {within:.1%} | {inside:.1%} "
                  f"| {timed:.1f} | {share:.1%} |", flush=True)  # fmt: skip
            figures.append(Figure(f"{size} games, spread {args.spread}, {name}: estimate / real", round(mean, 4),
                                  "ratio", 1.0, "the real CPU seconds"))  # fmt: skip
            details.append({"games": size, "spread": args.spread, "rule": name, "mean_ratio": mean, "within": within,
                            "inside": inside, "timed": timed, "played_share": share,
                            "runs": len(outcomes)})  # fmt: skip
    write_json(args.json, figures, details)


if __name__ == "__main__":
    main()

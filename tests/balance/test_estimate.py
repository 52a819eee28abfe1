"""The time said early in a run: its timed games are part of the run, its words and sums
by hand."""

import itertools
import math

import pytest

from protopress.balance import run_balance
from protopress.balance.estimate import (
    SINGLE_GAME_CHUNKS,
    WARM_UP_CPU,
    RunEstimate,
    RunSample,
    Sample,
    SamplePlan,
    TimedChunk,
    duration_words,
    estimate_run,
    estimate_words,
    relative_error,
    rest_spread,
    t_975,
)
from protopress.balance.run import cpu_count

GAME = "stonespine-architects"
DRAGONSTONE = "dragonstone-mine"


def test_the_timed_games_are_kept_and_the_records_are_those_of_a_plain_run():
    said: list[RunEstimate] = []
    seen = []
    # DragonStone's greedy games take about 9 ms of CPU: a worker warms up (WARM_UP_CPU)
    # in some twenty games, and the rest of its games are timed
    timed = run_balance(DRAGONSTONE, DRAGONSTONE, 100, 2, ["greedy", "random"], 3, {}, workers=2,
                        rotate=True, estimate=said.append,
                        progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    plain = run_balance(DRAGONSTONE, DRAGONSTONE, 100, 2, ["greedy", "random"], 3, {}, workers=1,
                        rotate=True)  # fmt: skip
    assert timed.to_json() == plain.to_json()
    assert len(said) == 1
    estimate = said[0]
    at_once = min(2, cpu_count())
    assert estimate.workers == at_once
    # the games played while a worker warms up are not timed
    assert 8 <= estimate.timed <= 100 - estimate.left - 2
    assert estimate.per_game > 0 and estimate.seconds == estimate.per_game * estimate.left / at_once
    # CPU seconds of the timed games, within those of every game played so far and the run's
    assert estimate.cpu_so_far - estimate.cpu_per_game * estimate.timed >= WARM_UP_CPU
    assert 0 < estimate.cpu_per_game * estimate.timed < estimate.cpu_so_far < timed.cpu
    # the first chunks hold one game each, the others 4 (100 games for 2 workers), the last
    # what is left: on two CPUs 6 chunks of one game, 23 of 4 and one of 2
    singles = SINGLE_GAME_CHUNKS * at_once
    fours, last = divmod(100 - singles, 4)
    done = [0] + [count for count, _ in seen]
    steps = [after - before for before, after in itertools.pairwise(done)]
    assert sorted(steps) == sorted([1] * singles + [4] * fours + ([last] if last else []))
    assert seen[-1] == (100, 100)


def test_no_estimate_when_the_timed_games_are_the_whole_run():
    said: list[RunEstimate] = []
    run = run_balance(GAME, GAME, 2, 2, ["random"], 3, {}, workers=1, estimate=said.append)
    assert run.covered == 2 and said == []


def singles(*cpu: float) -> list[TimedChunk]:
    return [TimedChunk(1, seconds) for seconds in cpu]


def test_the_sample_is_eight_games_or_a_round_of_seats_and_a_cpu_second_a_worker_or_a_tenth():
    plan = SamplePlan.for_run(1000, seats=10, rotate=True)
    assert (plan.least, plan.most) == (10, 100)
    assert not plan.enough(singles(*[1] * 9), workers=2)  # a whole rotation first
    assert SamplePlan.for_run(1000, seats=6, rotate=True) == SamplePlan(8, 100)  # eight at least
    plan = SamplePlan.for_run(1000, seats=2, rotate=False)
    assert plan.enough(singles(*[0.4] * 8), workers=2)  # 3.2 s, no spread
    assert not plan.enough(singles(*[0.2] * 8), workers=2)  # 1.6 s: less than 1 s a worker
    tenth = [TimedChunk(20, 0.02)] * 5  # 100 games in 0.1 s: a tenth of the run timed
    assert plan.enough(tenth, workers=2)
    assert not plan.enough([*tenth[:4], TimedChunk(19, 0.02)], workers=2)
    assert SamplePlan.for_run(10, seats=2, rotate=False) == SamplePlan(8, 8)


def test_the_sample_goes_on_while_the_games_cpu_seconds_spread_widely():
    # 2, 4, 6 and 8 s: mean 5, variance (9 + 1 + 1 + 9) / 3 = 20/3, standard error of the
    # mean sqrt(20/3 / 4) = 1.29, a share of 0.258 of the mean
    assert relative_error(singles(2, 4, 6, 8)) == pytest.approx(math.sqrt(20 / 3 / 4) / 5)
    # twice over: variance 40/7, error sqrt(40/7 / 8) = 0.845, 0.169 of the mean: more
    # games are timed
    spread = singles(2, 4, 6, 8, 2, 4, 6, 8)
    assert relative_error(spread) == pytest.approx(math.sqrt(40 / 7 / 8) / 5)
    plan = SamplePlan.for_run(2000, seats=2, rotate=False)
    assert not plan.enough(spread, workers=2)
    steady = singles(4.8, 5.2, 5.0, 5.0, 4.8, 5.2, 5.0, 5.0)  # 0.01 of the mean
    assert relative_error(steady) < 0.08 and plan.enough(steady, workers=2)
    # chunks of 10 games: 0.4 and 0.6 s a game, each mean of ten, variance
    # (10 * 0.01 + 10 * 0.01) / 1 = 0.2 a game, error sqrt(0.2 / 20) / 0.5 = 0.2
    tens = [TimedChunk(10, 4.0), TimedChunk(10, 6.0)]
    assert relative_error(tens) == pytest.approx(0.2)
    assert relative_error(singles(3.0)) == math.inf  # one chunk tells no spread


def test_the_sample_is_the_timed_chunks_before_the_first_unfinished_game():
    sample = RunSample([0, 1, 2, 3, 4, 5])
    sample.add([0], TimedChunk(1, 0.5), timed=False)  # warming up: never in the sample
    sample.add([2], TimedChunk(1, 1.0), timed=True)
    sample.add([3], TimedChunk(1, 2.0), timed=True)
    assert sample.chunks == []  # game 1 is still being played: 2 and 3 may be the short ones
    sample.add([1], TimedChunk(1, 9.0), timed=True)
    assert sample.chunks == [TimedChunk(1, 1.0), TimedChunk(1, 2.0), TimedChunk(1, 9.0)]
    sample.add([5], TimedChunk(1, 3.0), timed=True)
    assert len(sample.chunks) == 3  # game 4 is not finished
    sample.add([4], TimedChunk(1, 4.0), timed=True)
    assert len(sample.chunks) == 5
    # 5 games, 19 s of CPU, 19.5 s with the warming game; the error's freedom is 4
    assert sample.sample() == Sample(5, 0.0, 19.0, 19.5, relative_error(sample.chunks), 4)
    # games kept from an earlier run are not waited for: 2 is not in the order
    resumed = RunSample([0, 1, 3])
    resumed.add([0, 1], TimedChunk(2, 1.0), timed=True)
    assert resumed.chunks == [TimedChunk(2, 1.0)]


def test_the_range_adds_the_uncertain_mean_and_the_games_left_varying_on_their_own():
    # timed: 2, 4, 6 and 8 s of CPU. A game's standard deviation is sqrt(20/3) = 2.582 s,
    # 0.5164 of the mean 5 s. The mean of four is known to 2.582 / 2 = 1.291 s, 0.2582;
    # the 36 games left sum to 180 s give or take 2.582 * 6 = 15.49 s, 0.0861. Together
    # sqrt(0.2582^2 + 0.0861^2) = sqrt(0.06667 + 0.00741) = 0.2722 of the estimate
    error = relative_error(singles(2, 4, 6, 8))
    assert rest_spread(error, 4, 36) == pytest.approx(0.2722, abs=5e-5)
    # with 2,000 games left the games' own share is 0.5164 / sqrt(2000) = 0.0115:
    # the spread is nearly the timed mean's alone
    assert rest_spread(error, 4, 2000) == pytest.approx(math.hypot(0.2582, 0.01155), abs=5e-5)
    assert rest_spread(math.inf, 1, 100) == math.inf  # one chunk tells no spread
    known = estimate_run(Sample(4, 20.0, 20.0, 21.0, error), 36, 2)  # the spread taken as known
    assert known.seconds == 5 * 36 / 2
    # 1 -/+ 1.96 * 0.2722 = 0.4665 to 1.5335 of the estimate
    low, high = known.likely
    assert (low, high) == (pytest.approx(0.4665, abs=1e-4), pytest.approx(1.5335, abs=1e-4))
    # measured on four chunks, the spread has 3 degrees of freedom: Student's t is 3.182,
    # 1 -/+ 3.182 * 0.2722 = 0.1339 to 1.8661 of 90 s: 12 s to 168 s
    estimate = estimate_run(Sample(4, 20.0, 20.0, 21.0, error, 3), 36, 2)
    low, high = estimate.likely
    assert (low, high) == (pytest.approx(0.1339, abs=1e-4), pytest.approx(1.8661, abs=1e-4))
    assert estimate_words(estimate, ["mcts:fast"]) == (
        "about 1 min 30 s on 2 workers (search bot: 5.0 s a game); "
        "most likely between 12 s and 2 min 48 s, as its games' lengths vary"
    )


@pytest.mark.parametrize(
    ("freedom", "quantile"),
    [(0, 1.96), (1, 12.706), (3, 3.182), (30, 2.042), (40, 2.021), (120, 1.980)],
)
def test_students_t_from_the_table_and_past_it(freedom, quantile):
    # the printed tables' 0.975 quantiles (40 and 120 past the table)
    assert t_975(freedom) == pytest.approx(quantile, abs=1e-3)


def test_a_narrow_range_or_an_unknown_one_is_not_said():
    # 4.8, 5.2, 5.0, 5.0: a standard error of 0.0163 of the mean; 1.96 times it is 3%
    steady = estimate_run(
        Sample(4, 20.0, 20.0, 20.0, relative_error(singles(4.8, 5.2, 5, 5))), 36, 2
    )
    assert steady.likely[1] < 1.1
    assert "most likely" not in estimate_words(steady, ["mcts:fast"])
    unknown = estimate_run(
        Sample(100, 2.0, 2.0, 2.0, relative_error([TimedChunk(100, 2.0)])), 900, 2
    )
    assert unknown.likely is None
    assert "most likely" not in estimate_words(unknown, ["random"])


def test_the_estimate_shares_the_games_left_among_the_workers():
    # 4 games timed in 2 s and 0.5 s of CPU: 0.5 s a game, 0.125 s of CPU; 1,000 left on
    # 2 workers: 250 s, 125 s of CPU, 62.5 s with the CPUs to the run alone
    estimate = estimate_run(Sample(4, 2.0, 0.5, 0.7), 1000, 2)
    assert estimate == RunEstimate(250, 0.5, 4, 1000, 2, 0.125, 0.7)
    assert (estimate.cpu_seconds, estimate.idle_seconds) == (125, 62.5)
    assert estimate.busy  # a game took four times its CPU seconds
    one = estimate_run(Sample(4, 2.0, 1.6, 1.6), 1, 2)
    assert one == RunEstimate(0.5, 0.5, 4, 1, 1, 0.4, 1.6)  # one game, one worker
    assert not one.busy  # 0.5 s for 0.4 s of CPU


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.0123, "12 ms"),
        (0.9999, "1.0 s"),
        (2.54, "2.5 s"),
        (40.4, "40 s"),
        (59.6, "1 min"),
        (200, "3 min 20 s"),
        (1234, "21 min"),
        (22_200, "6 h 10 min"),
        (7200, "2 h"),
    ],
)
def test_durations_in_words(seconds, words):
    assert duration_words(seconds) == words


def test_the_estimate_in_words_names_the_search_bot():
    estimate = RunEstimate(22_200, 11.2, 3, 2000, 2)
    assert (
        estimate_words(estimate, ["mcts:strong", "greedy"])
        == "about 6 h 10 min on 2 workers (search bot: 11 s a game)"
    )
    one = RunEstimate(20, 0.0104, 100, 1900, 1, 0.0101)
    assert (
        estimate_words(one, ["greedy", "random", "greedy"])
        == "about 20 s on 1 worker (greedy, random: 10 ms a game)"
    )


def test_on_a_busy_machine_the_estimate_also_says_the_duration_with_the_cpus_to_itself():
    # 3.7 s of CPU a game for 2,000 games on 2 workers: 3,700 s, 1 h 2 min
    estimate = RunEstimate(22_200, 11.2, 3, 2000, 2, 3.7)
    assert estimate_words(estimate, ["mcts:fast"]) == (
        "about 6 h 10 min on 2 workers (search bot: 11 s a game); "
        "1 h 2 min with the CPUs to itself: the machine is busy"
    )
    # 11.2 s a game for 7.5 s of CPU is not yet busy (1.5 times)
    assert "busy" not in estimate_words(RunEstimate(22_200, 11.2, 3, 2000, 2, 7.5), ["mcts"])

"""The time said early in a run: its timed games are part of the run, its words and sums
by hand."""

import pytest

from protopress.balance import run_balance
from protopress.balance.estimate import (
    SINGLE_GAME_CHUNKS,
    RunEstimate,
    SamplePlan,
    duration_words,
    estimate_run,
    estimate_words,
)
from protopress.balance.run import cpu_count

GAME = "stonespine-architects"


def test_the_timed_games_are_kept_and_the_records_are_those_of_a_plain_run():
    said: list[RunEstimate] = []
    seen = []
    timed = run_balance(GAME, GAME, 30, 2, ["greedy", "random"], 3, {}, workers=2, rotate=True,
                        estimate=said.append,
                        progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    plain = run_balance(GAME, GAME, 30, 2, ["greedy", "random"], 3, {}, workers=1, rotate=True)
    assert timed.to_json() == plain.to_json()
    assert len(said) == 1
    estimate = said[0]
    at_once = min(2, cpu_count())
    assert estimate.workers == at_once
    # a worker's first chunk is played but not timed
    assert 4 <= estimate.timed <= 30 - estimate.left - 1
    assert estimate.per_game > 0 and estimate.seconds == estimate.per_game * estimate.left / at_once
    singles = SINGLE_GAME_CHUNKS * at_once  # the first chunks, one game each
    assert [done for done, _ in seen][:singles] == list(range(1, singles + 1))
    assert seen[-1] == (30, 30)


def test_no_estimate_when_the_timed_games_are_the_whole_run():
    said: list[RunEstimate] = []
    run = run_balance(GAME, GAME, 2, 2, ["random"], 3, {}, workers=1, estimate=said.append)
    assert run.covered == 2 and said == []


def test_the_sample_is_four_games_or_a_round_of_seats_and_a_second_a_worker_or_a_tenth_of_the_run():
    plan = SamplePlan.for_run(1000, seats=6, rotate=True)
    assert (plan.least, plan.most) == (6, 100)
    assert not plan.enough(played=8, timed=5, seconds=5.0, workers=2)  # a whole rotation first
    assert plan.enough(played=8, timed=6, seconds=2.0, workers=2)
    assert not plan.enough(played=8, timed=6, seconds=1.5, workers=2)  # 0.75 s a worker
    assert plan.enough(played=100, timed=6, seconds=0.1, workers=2)  # a tenth of the run
    assert not plan.enough(played=100, timed=5, seconds=9.0, workers=2)  # too few timed
    assert SamplePlan.for_run(1000, seats=2, rotate=True) == SamplePlan(4, 100)  # four at least
    assert SamplePlan.for_run(10, seats=2, rotate=False) == SamplePlan(4, 4)


def test_the_estimate_shares_the_games_left_among_the_workers():
    # 4 games timed in 2 s: 0.5 s a game; 1,000 left on 2 workers: 250 s
    estimate = estimate_run(2.0, 4, 1000, 2)
    assert estimate == RunEstimate(250, 0.5, 4, 1000, 2)
    assert estimate_run(2.0, 4, 1, 2) == RunEstimate(0.5, 0.5, 4, 1, 1)  # one game, one worker


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
    one = RunEstimate(20, 0.0104, 100, 1900, 1)
    assert (
        estimate_words(one, ["greedy", "random", "greedy"])
        == "about 20 s on 1 worker (greedy, random: 10 ms a game)"
    )

"""Component effects with the game as the unit, against hand computations."""

import math

import pytest

from protopress.balance import intervals
from protopress.balance.intervals import Stratum, permutation_p_value, within_game_difference
from protopress.balance.stats import components
from protopress.rules.simulate import GameRecord


def game(index, scores, used, bots=None):
    winners = [s for s, v in enumerate(scores) if v == max(scores)]
    bots = bots or ["greedy"] * len(scores)
    return GameRecord(index, index, bots, list(scores), winners, 1, 1, extra={"used": used})


# Ten two-player games and component x (the seat that used it first):
#   4 games: only one seat used x and it won            (b = 4)
#   1 game:  only one seat used x and the other won     (c = 1)
#   1 game:  only one seat used x, a tie: neither won   (d = 0)
#   2 games: both seats used x (nothing to compare within the game)
#   2 games: neither used x
TWO_PLAYER_TABLE = (
    [game(i, (1, 0), [["x"], []]) for i in range(4)]
    + [game(4, (0, 1), [["x"], []])]
    + [game(5, (1, 1), [["x"], []])]
    + [game(6, (1, 0), [["x"], ["x"]]), game(7, (0, 1), [["x"], ["x"]])]
    + [game(8, (1, 0), [[], []]), game(9, (0, 1), [[], []])]
)


def test_a_two_player_table_worked_by_hand():
    # The six games where exactly one seat used x are the pairs: each weighs
    # 1*1/2 = 1/2 and gives the user's result minus the other's: +1 four times,
    # -1 once, 0 once. Difference (4 - 1) / 6 = 0.5.
    # Paired variance ((b + c)/n - d^2)/n = (5/6 - 1/4)/6 = 7/72; half-width
    # 1.96 * sqrt(7/72) = 0.6111, so 0.5 - 0.6111 = -0.1111 and the top kept at 1.
    # p: the tie says nothing; the five decided pairs are a sign test, user wins
    # T ~ Binomial(5, 1/2), mean 2.5, T = 4: P(T >= 4) + P(T <= 1) = 6/32 + 6/32 = 0.375.
    (x,) = components(TWO_PLAYER_TABLE, min_uses=1)["items"]
    assert (x["uses"], x["wins"], x["others"], x["other_wins"]) == (10, 6, 10, 3)
    assert x["difference"] == pytest.approx(0.5)
    assert x["low"] == pytest.approx(0.5 - 1.96 * math.sqrt(7 / 72), abs=1e-6)
    assert x["high"] == 1.0
    assert x["p"] == pytest.approx(0.375, abs=1e-6)


def test_the_normal_form_of_the_pairs_is_mcnemars_test(monkeypatch):
    # b = 4, c = 1: McNemar's chi-square (b - c)^2 / (b + c) = 9/5, z = sqrt(1.8);
    # the permutation mean 2.5 and variance 5/4 give (4 - 2.5) / sqrt(5/4), the same z.
    monkeypatch.setattr(intervals, "EXACT_LIMIT", 0)
    pairs = {Stratum(1, 1, 1, 0): 4, Stratum(1, 0, 1, 1): 1, Stratum(1, 0, 1, 0): 1}
    assert permutation_p_value(pairs) == pytest.approx(math.erfc(math.sqrt(1.8) / math.sqrt(2)))


def test_a_permutation_test_on_two_three_player_games_enumerated_by_hand():
    # Game A: x used by seats 0 (won) and 1; seat 2 did not. Game B: x used by seat 0
    # (won) only. Under the null the users are any 2 of A's 3 seats and any 1 of B's:
    # 3 x 3 = 9 equally likely ways. User wins in A: 1 in 2 of its 3 ways, 0 in 1; in
    # B: 1 in 1 of 3 ways, 0 in 2. T = A + B: T = 2 in 2*1 = 2 ways, T = 1 in
    # 2*2 + 1*1 = 5, T = 0 in 1*2 = 2; mean 1. Seen: T = 2, so |T - 1| >= 1 in
    # 2 + 2 = 4 of the 9 ways: p = 4/9.
    # Difference: A: 1/2 - 0 = 1/2, weight 2*1/3 = 2/3; B: 1 - 0 = 1, weight 1*2/3 = 2/3:
    # (1/2 + 1) / 2 = 3/4. Sato's variance: P_A = (4*0 - 1*1 + 2*1*(1 - 2)/2)/9 = -2/9,
    # P_B = (1*0 - 4*1 + 1*2*(2 - 1)/2)/9 = -3/9; Q_A = (1*1 + 0)/6 = 1/6,
    # Q_B = (1*2 + 0)/6 = 2/6; (3/4 * (-5/9) + 1/2) / (4/3)^2 = 3/64.
    records = [
        game(0, (1, 0, 0), [["x"], ["x"], []]),
        game(1, (1, 0, 0), [["x"], [], []]),
    ]
    (x,) = components(records, min_uses=1)["items"]
    assert x["p"] == pytest.approx(4 / 9, abs=1e-6)
    assert x["difference"] == pytest.approx(0.75)
    assert x["low"] == pytest.approx(0.75 - 1.96 * math.sqrt(3 / 64), abs=1e-6)
    cells = {Stratum(2, 1, 1, 0): 1, Stratum(1, 1, 2, 0): 1}
    effect = within_game_difference(cells)
    assert effect is not None and effect.p == pytest.approx(4 / 9)
    assert effect.high == 1.0  # 0.75 + 0.4244, kept at 1


def test_games_without_a_winner_or_with_every_seat_using_it_say_nothing():
    cells = {Stratum(1, 0, 1, 0): 3}  # three ties: weight, but no information
    effect = within_game_difference(cells)
    assert effect is not None and effect.difference == 0 and effect.p == 1.0
    assert within_game_difference({Stratum(2, 1, 0, 0): 5}) is None


def test_a_flag_that_holds_in_both_halves_replicates_and_one_that_does_not_is_marked():
    # x: its user wins every even-numbered and every odd-numbered game (40 pairs);
    # y: its user wins all 20 even-numbered games and half of the odd ones.
    records = []
    for i in range(40):
        y_wins = i % 2 == 0 or i % 4 == 1
        records.append(game(i, (1, 0), [["x"], []]))
        records.append(game(100 + i, (1, 0) if y_wins else (0, 1), [["y"], []]))
    parts = components(records, min_uses=10)
    by_id = {e["id"]: e for e in parts["items"]}
    assert by_id["x"]["flagged"] and by_id["x"]["replicates"]
    assert by_id["y"]["flagged"] and not by_id["y"]["replicates"]
    assert parts["not_replicated"] == ["y"]
    assert parts["replication"] == "even- and odd-numbered games"

"""Component effects with the game as the unit, against hand computations."""

import math

import pytest

from protopress.balance import intervals
from protopress.balance.intervals import Stratum, permutation_p_value, within_game_difference
from protopress.balance.stats import components, seat_wins, summarize
from protopress.balance.words import headline
from protopress.rules.simulate import GameRecord


def game(index, scores, used=None, bots=None):
    winners = [s for s, v in enumerate(scores) if v == max(scores)]
    bots = bots or ["greedy"] * len(scores)
    extra = {} if used is None else {"used": used}
    return GameRecord(index, index, bots, list(scores), winners, 1, 1, extra=extra)


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
    # Paired (Sato's) variance ((b + c)/n - d^2)/n = (5/6 - 1/4)/6 = 7/72; under no
    # effect the sign test's variance (b + c)/4 over the squared weight (6/2)^2:
    # 5/36, the larger; half-width 1.96 * sqrt(5/36) = 0.7304, so 0.5 - 0.7304 =
    # -0.2304 and the top kept at 1.
    # p: the tie says nothing; the five decided pairs are a sign test, user wins
    # T ~ Binomial(5, 1/2), mean 2.5, T = 4: P(T >= 4) + P(T <= 1) = 6/32 + 6/32 = 0.375.
    (x,) = components(TWO_PLAYER_TABLE, min_uses=1)["items"]
    assert (x["uses"], x["wins"], x["others"], x["other_wins"]) == (10, 6, 10, 3)
    assert x["difference"] == pytest.approx(0.5)
    assert x["low"] == pytest.approx(0.5 - 1.96 * math.sqrt(5 / 36), abs=1e-6)
    assert x["high"] == 1.0
    assert x["p"] == pytest.approx(0.375, abs=1e-6)


def test_the_normal_form_of_the_pairs_is_mcnemars_test(monkeypatch):
    # b = 4, c = 1: McNemar's chi-square with Edwards' continuity correction,
    # (|b - c| - 1)^2 / (b + c) = 4/5; the permutation mean 2.5 and variance 5/4 with
    # half a win of correction give (|4 - 2.5| - 0.5) / sqrt(5/4) = sqrt(4/5), the same.
    monkeypatch.setattr(intervals, "EXACT_LIMIT", 0)
    pairs = {Stratum(1, 1, 1, 0): 4, Stratum(1, 0, 1, 1): 1, Stratum(1, 0, 1, 0): 1}
    assert permutation_p_value(pairs) == pytest.approx(math.erfc(math.sqrt(0.8) / math.sqrt(2)))


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
    # Q_B = (1*2 + 0)/6 = 2/6; (3/4 * (-5/9) + 1/2) / (4/3)^2 = 3/64. Under no effect:
    # A's user wins vary as Bernoulli(2/3), B's as Bernoulli(1/3): 2/9 + 2/9 = 4/9,
    # over (4/3)^2: 1/4, the larger; half-width 1.96 * 1/2 = 0.98.
    records = [
        game(0, (1, 0, 0), [["x"], ["x"], []]),
        game(1, (1, 0, 0), [["x"], [], []]),
    ]
    (x,) = components(records, min_uses=1)["items"]
    assert x["p"] == pytest.approx(4 / 9, abs=1e-6)
    assert x["difference"] == pytest.approx(0.75)
    assert x["low"] == pytest.approx(0.75 - 0.98, abs=1e-6)
    cells = {Stratum(2, 1, 1, 0): 1, Stratum(1, 1, 2, 0): 1}
    effect = within_game_difference(cells)
    assert effect is not None and effect.p == pytest.approx(4 / 9)
    assert effect.high == 1.0  # 0.75 + 0.98, kept at 1


def test_an_effect_where_every_game_goes_one_way_keeps_an_interval():
    # 80 pairs, the user wins all: Sato's variance (1 - 1)/80 = 0; under no effect
    # 80/4 / 40^2 = 1/80: the interval 1 - 1.96 * sqrt(1/80) = 0.7809 to 1.
    effect = within_game_difference({Stratum(1, 1, 1, 0): 80})
    assert effect is not None and effect.difference == 1.0
    assert (effect.low, effect.high) == pytest.approx((1 - 1.96 * math.sqrt(1 / 80), 1.0))


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


# --- seats: the game as the unit --------------------------------------------------------


def test_a_first_seat_advantage_worked_by_hand():
    # Ten games: seat 0 wins 8, seat 1 wins 1, one tie. Seat 0's share of the 9
    # decided games is 8/9 against 1/2: z = (8/9 - 1/2) / sqrt(1/4 / 9) = 7/3,
    # p = erfc(7/3 / sqrt 2) = 0.0196; seat 1's 1/9 is the same test, the other way.
    records = [game(i, (1, 0)) for i in range(8)] + [game(8, (0, 1)), game(9, (1, 1))]
    first, second = seat_wins(records)
    assert (first["decided"]["count"], first["decided"]["trials"]) == (8, 9)
    assert first["p"] == pytest.approx(math.erfc(7 / 3 / math.sqrt(2)), abs=1e-6)
    assert first["q"] == second["q"] == first["p"]
    assert (first["verdict"], second["verdict"]) == ("advantage", "disadvantage")
    assert first["fair"] == 0.45  # nine untied games of ten, split between two seats


def test_three_seats_are_corrected_for_their_number():
    # 300 decided games: seat 0 wins 117 (39%), seat 1 100, seat 2 83 (27.7%).
    # Seats 0 and 2: z = +-(117/300 - 1/3) / sqrt(2/9 / 300) = +-2.083, p = 0.0373
    # each, so each Wilson interval leaves 1/3 out; but over three seats the
    # Benjamini-Hochberg q-values are 0.0373 * 3/2 = 0.0560: no verdict.
    records = (
        [game(i, (1, 0, 0)) for i in range(117)]
        + [game(117 + i, (0, 1, 0)) for i in range(100)]
        + [game(217 + i, (0, 0, 1)) for i in range(83)]
    )
    seats = seat_wins(records)
    z = (117 / 300 - 1 / 3) / math.sqrt(2 / 9 / 300)
    assert seats[0]["p"] == pytest.approx(math.erfc(z / math.sqrt(2)), abs=1e-6)
    assert seats[0]["decided"]["low"] > 1 / 3  # uncorrected, a finding
    assert seats[0]["q"] == pytest.approx(math.erfc(z / math.sqrt(2)) * 3 / 2, abs=1e-6)
    assert [s["verdict"] for s in seats] == ["even", "even", "even"]


# --- what the bots left untouched, and how strong they are ------------------------------


def test_components_never_or_rarely_used_are_listed_with_counts():
    # 40 games of greedy: a used by a seat in every game, b in 5, c and d never.
    records = [game(i, (1, 0), [["a"] + (["b"] if i < 5 else []), []]) for i in range(40)]
    summary = summarize(records, game=None, offered=["a", "b", "c", "d"])
    (row,) = summary["components"]["usage"]
    assert (row["offered"], row["used"], row["never"]) == (4, 2, ["c", "d"])
    assert row["rare"] == [{"id": "b", "uses": 5}]
    lines = headline(summary)
    assert (
        "The greedy seats used 2 of the 4 components in 80 seat-games; 2 never: c, d; "
        "fewer than 30 times: b (5)." in lines
    )
    assert any(line.startswith("Greedy leaves 3 components (nearly) unplayed") for line in lines)
    searched = [game(i, (1, 0), [["a"], []], bots=["mcts:100", "mcts:100"]) for i in range(40)]
    assert not any("Greedy leaves" in line for line in headline(summarize(searched)))


def test_a_bot_that_left_nothing_untouched_says_so():
    # 40 games: the first seat uses a and b in every game, the second a alone: a is
    # used 80 times, b 40, both at least 30
    records = [game(i, (1, 0), [["a", "b"], ["a"]]) for i in range(40)]
    lines = headline(summarize(records, game=None, offered=["a", "b"]))
    assert (
        "The greedy seats used every one of the 2 components, each at least 30 times, "
        "in 80 seat-games." in lines
    )
    assert not any("Greedy leaves" in line for line in lines)


def test_a_game_that_dealt_no_components_says_nothing_of_their_use():
    # DragonStone's Smiley level deals no cards: nothing offered, nothing used
    records = [game(i, (1, 0), [[], []]) for i in range(40)]
    lines = headline(summarize(records, game=None, offered=[]))
    assert not any("seats used" in line or "component" in line for line in lines)


def test_each_bot_is_named_with_its_rung_and_measured_strength():
    records = [game(i, (1, 0), bots=["mcts:100", "greedy"]) for i in range(4)]
    summary = summarize(records, game="dragonstone-mine", options={"level": "2"})
    strengths = {b["bot"]: b for b in summary["bots"]}
    assert strengths["greedy"]["rung"] == 1 and strengths["mcts:100"]["rung"] == 2
    assert strengths["mcts:100"]["measured"] == "wins 84% (77%-90%) of 120 games against greedy"
    other = summarize(records, game="dragonstone-mine", options={"level": "1"})
    assert {b["bot"]: b for b in other["bots"]}["mcts:100"]["measured"] == "not measured"
    line = next(line for line in headline(summary) if line.startswith("Bots: "))
    assert "greedy, rung 2 of 3: the best action one step ahead;" in line
    assert "mcts:100, rung 3 of 3: a search" in line and "(measured: wins 84% (77%-90%)" in line
    unmeasured = next(line for line in headline(other) if line.startswith("Bots: "))
    assert "(its strength not measured for this game, players and options)" in unmeasured
    assert "measured: not measured" not in unmeasured


def test_each_record_is_its_own_game_whatever_its_index():
    # Two pairs, both numbered 0: the user wins both. As two games, T ~ Binomial(2, 1/2),
    # T = 2: p = P(T = 2) + P(T = 0) = 1/2 (as one table of four seats it would be 1/3).
    records = [game(0, (1, 0), [["x"], []]), game(0, (1, 0), [["x"], []])]
    (x,) = components(records, min_uses=1)["items"]
    assert x["p"] == pytest.approx(0.5)

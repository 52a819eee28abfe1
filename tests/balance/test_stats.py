"""Balance statistics against known answers: published intervals, hand-counted
figures, and tiny games defined here whose true win rates are known."""

import math
import random

import pytest

from protopress.balance.compare import compare, format_comparison
from protopress.balance.intervals import (
    benjamini_hochberg,
    difference_interval,
    difference_p_value,
    distribution,
    histogram,
    proportion,
)
from protopress.balance.stats import (
    components,
    coverage,
    margin,
    outcome,
    seat_scores,
    seat_wins,
    seat_won,
    solo,
    strategies,
    summarize,
    team,
    tie_rate,
)
from protopress.balance.words import headline
from protopress.games.gem_rush.spec import DIFFICULTY_TARGETS
from protopress.rules.core import top_seats
from protopress.rules.simulate import GameRecord, simulate
from protopress.rules.spec import Outcome, OutcomeKind


class CoinState:
    def __init__(self, rng, players):
        self.rng, self.turns, self.winner = rng, 0, None
        self.lucky = [rng.random() < 0.2 for _ in range(players)]
        self.charms = [rng.choice("abc") for _ in range(players)]

    def copy(self):
        other = CoinState.__new__(CoinState)
        other.turns, other.winner = self.turns, self.winner
        other.lucky, other.charms = list(self.lucky), list(self.charms)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


class CoinToss:
    """One flip decides: seat 0 wins with probability p (option), unless exactly one
    seat holds the lucky charm, which then wins. Every seat also holds one neutral
    charm, a, b or c. Record extra "used": the charms each seat held."""

    id = "coin-toss"
    min_players, max_players = 2, 2

    def __init__(self, lucky=False):
        self.lucky = lucky

    def setup(self, catalog, players, rng, options):
        state = CoinState(rng, players)
        state.p = float(options.get("p", 0.5))
        return state

    def to_move(self, state):
        return None if self.is_over(state) else 0

    def legal_actions(self, state):
        return [("flip",)]

    def apply(self, state, action):
        state.winner = 0 if state.rng.random() < state.p else 1
        if self.lucky and sum(state.lucky) == 1:
            state.winner = state.lucky.index(True)
        state.turns += 1

    def is_over(self, state):
        return state.winner is not None

    def scores(self, state):
        return [int(seat == state.winner) for seat in range(2)]

    def winners(self, state):
        return top_seats(self.scores(state))

    def heuristic(self, state, seat):
        return 0

    def record(self, state):
        held = [[state.charms[s]] + (["lucky"] if state.lucky[s] else []) for s in range(2)]
        return {"used": held}


def coin_games(games=2000, seed=1, p=0.5, lucky=False):
    return simulate(CoinToss(lucky), None, ["random", "random"], games, seed, {"p": p})


def record(index=0, scores=(10, 5), winners=None, bots=("random", "random"), turns=10, **extra):
    """A hand-made record; mode crisis makes a team outcome, mode solo one against a rival."""
    scores = list(scores)
    winners = top_seats(scores) if winners is None else winners
    limit = extra.pop("limit", False)
    result = None
    if extra.get("mode") == "crisis":
        total = extra.get("team_total", extra.get("team_score"))
        result = Outcome(OutcomeKind.TEAM, tuple(scores), tuple(winners), extra.get("won"), total)
    elif extra.get("mode") == "solo":
        rival = extra.get("rival_total", scores[0] - extra.get("margin", 0))
        result = Outcome(
            OutcomeKind.SOLO,
            tuple(scores),
            tuple(winners),
            solo_won=extra["won"],
            rival_score=rival,
        )
    return GameRecord(
        index, 1000 + index, list(bots), scores, winners, turns, turns, limit, extra, result
    )


# --- intervals: published answers -----------------------------------------------------------


def test_wilson_interval_matches_newcombe_1998():
    # Newcombe, Statistics in Medicine 17 (1998) 857-872, Table I: 81/263 and 15/148
    wide = proportion(81, 263)
    assert (wide["low"], wide["high"]) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wide["rate"] == pytest.approx(81 / 263, abs=1e-6)
    narrow = proportion(15, 148)
    assert (narrow["low"], narrow["high"]) == pytest.approx((0.0624, 0.1605), abs=1e-4)


@pytest.mark.parametrize(
    "counts, expected",
    [  # Newcombe, Statistics in Medicine 17 (1998) 873-890, Table II, method 10
        ((56, 70, 48, 80), (0.0524, 0.3339)),
        ((9, 10, 3, 10), (0.1705, 0.8090)),
        ((6, 7, 2, 7), (0.0582, 0.8062)),
        ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ],
)
def test_difference_of_proportions_matches_newcombe_hybrid_score(counts, expected):
    difference, low, high = difference_interval(*counts)
    s1, n1, s2, n2 = counts
    assert difference == pytest.approx(s1 / n1 - s2 / n2)
    assert (low, high) == pytest.approx(expected, abs=1e-4)


def test_a_proportion_of_nothing_has_no_rate():
    assert proportion(0, 0) == {"count": 0, "trials": 0, "rate": None, "low": 0.0, "high": 1.0}


# --- distributions ------------------------------------------------------------------------


def test_distribution_known_answer():
    d = distribution([2, 4, 4, 4, 5, 5, 7, 9])
    assert d["n"] == 8 and d["mean"] == 5
    assert d["sd"] == pytest.approx(math.sqrt(32 / 7), abs=1e-6)  # sample sd
    half = 1.96 * math.sqrt(32 / 7) / math.sqrt(8)
    assert (d["low"], d["high"]) == pytest.approx((5 - half, 5 + half), abs=1e-6)
    assert (d["min"], d["median"], d["max"]) == (2, 4.5, 9)
    assert [(b["low"], b["high"], b["count"]) for b in d["histogram"]] == [
        (2, 3, 1),
        (3, 4, 0),
        (4, 5, 3),
        (5, 6, 2),
        (6, 7, 0),
        (7, 8, 1),
        (8, 9, 0),
        (9, 10, 1),
    ]


def test_histogram_widens_whole_number_bins_and_counts_every_value():
    bins = histogram(list(range(100)), max_bins=20)
    assert len(bins) == 20
    assert all(b["high"] - b["low"] == 5 and b["count"] == 5 for b in bins)
    negative = histogram([-7, -1, 0, 3], max_bins=20)
    assert negative[0]["low"] == -7 and sum(b["count"] for b in negative) == 4
    fractional = histogram([0.5, 1.25, 2.0], max_bins=4)
    assert [b["count"] for b in fractional] == [1, 0, 1, 1]  # edges 0.5, 0.875, 1.25, 1.625
    assert fractional[-1]["high"] == 2.0


def test_a_single_value_and_no_values():
    assert distribution([3])["sd"] == 0 and distribution([3])["histogram"] == [
        {"low": 3, "high": 4, "count": 1}
    ]
    assert distribution([])["mean"] is None and distribution([])["histogram"] == []


# --- seats ---------------------------------------------------------------------------------


def test_a_fair_coin_gives_both_seats_an_interval_containing_one_half():
    records = coin_games(2000, seed=1)
    seats = seat_wins(records)
    assert [s["trials"] for s in seats] == [2000, 2000]
    for s in seats:
        assert s["low"] < 0.5 < s["high"]
        assert s["high"] - s["low"] < 0.05  # about +-2.2 points at 2000 games
        assert s["fair"] == 0.5 and s["verdict"] == "even"
    assert seats[0]["count"] + seats[1]["count"] == 2000
    assert tie_rate(records)["count"] == 0
    summary = summarize(records)
    assert "No seat wins more or less than its fair share (50%)" in headline(summary)[0]


def test_a_rigged_seat_is_detected():
    records = coin_games(2000, seed=2, p=0.8)
    first, second = seat_wins(records)
    assert first["low"] < 0.8 < first["high"] and first["low"] > 0.75
    assert (first["verdict"], second["verdict"]) == ("advantage", "disadvantage")
    lines = headline(summarize(records, game="gemstone-caverns"))
    assert lines[0].startswith(f"Seat 0 wins {first['rate']:.0%} (")
    assert lines[0].endswith("against a fair share of 50%: a first-player advantage.")
    assert "a last-player disadvantage" in lines[1]
    assert (
        "an advantage for seat 0" in headline(summarize(records, game="stonespine-architects"))[0]
    )


def test_ties_share_out_the_fair_share():
    records = [record(0, (5, 5)), record(1, (6, 5)), record(2, (5, 6)), record(3, (7, 7))]
    ties = tie_rate(records)
    assert (ties["count"], ties["trials"]) == (2, 4)
    seats = seat_wins(records)
    assert [s["count"] for s in seats] == [1, 1]  # a shared win is not a win
    assert seats[0]["fair"] == 0.25  # two untied games of four, split between two seats


def test_seat_scores_and_advantage_compare_within_games():
    records = [record(0, (10, 6)), record(1, (8, 8)), record(2, (12, 4))]
    first, second = seat_scores(records)
    assert first["mean"] == 10 and second["mean"] == 6
    assert first["advantage"]["mean"] == 2 and second["advantage"]["mean"] == -2
    # within-game differences 2, 0, 4: sd 2, half-width 1.96 * 2 / sqrt(3)
    assert first["advantage"]["low"] == pytest.approx(2 - 1.96 * 2 / math.sqrt(3), abs=1e-6)


# --- what a record says ----------------------------------------------------------------------


def test_outcomes_wins_and_margins_by_kind_of_game():
    versus = record(0, (9, 4, 7))
    assert outcome(versus) == "versus" and margin(versus) == 2
    assert seat_won(versus, 0) and not seat_won(versus, 2)
    tied = record(1, (9, 9))
    assert margin(tied) == 0 and not seat_won(tied, 0)
    lone = record(2, (40,), winners=[], bots=("greedy",), mode="solo", won=False, margin=-6)
    assert outcome(lone) == "solo" and margin(lone) == -6 and not seat_won(lone, 0)
    together = record(3, (20, 25), winners=[0, 1], mode="crisis", won=True, team_total=45)
    assert outcome(together) == "team" and margin(together) is None
    assert seat_won(together, 0) and seat_won(together, 1)


# --- strategies ------------------------------------------------------------------------------


def test_strategies_and_head_to_head():
    records = [
        record(0, (10, 5), bots=("greedy", "random")),
        record(1, (5, 10), bots=("random", "greedy")),
        record(2, (7, 7), bots=("greedy", "random")),  # a draw
        record(3, (3, 9), bots=("greedy", "random")),  # random wins one
    ]
    result = strategies(records)
    greedy, rand = result["bots"]
    assert (greedy["bot"], greedy["count"], greedy["trials"]) == ("greedy", 2, 4)
    assert (rand["bot"], rand["count"], rand["trials"]) == ("random", 1, 4)
    table = {(h["bot"], h["against"]): h for h in result["head_to_head"]}
    g = table["greedy", "random"]
    assert (g["meetings"], g["won"], g["lost"], g["drawn"]) == (4, 2, 1, 1)
    assert g["rate"] == pytest.approx(2 / 3, abs=1e-6)
    assert table["random", "greedy"]["won"] == 1
    assert strategies(records[:1][:0] + [record(0)]) is None  # one bot: nothing to compare


def test_a_tie_break_decides_a_meeting_before_the_scores():
    tie_broken = record(0, (8, 8), winners=[1], bots=("greedy", "random"))
    table = {(h["bot"], h["against"]): h for h in strategies([tie_broken])["head_to_head"]}
    assert table["random", "greedy"]["won"] == 1


# --- components ------------------------------------------------------------------------------


def test_a_component_that_always_wins_is_flagged():
    records = coin_games(2000, seed=3, lucky=True)
    parts = components(records, min_uses=30)
    by_id = {e["id"]: e for e in parts["items"]}
    lucky = by_id["lucky"]
    assert parts["flagged"] == ["lucky"]
    assert lucky["low"] > 0.2 and lucky["uses"] >= 30
    assert parts["seat_games"] == 4000
    assert lucky["uses"] + lucky["others"] == 4000
    for charm in "abc":  # neutral: held independently of the lucky charm
        assert by_id[charm]["low"] < 0 < by_id[charm]["high"]
        assert not by_id[charm]["flagged"]
    assert parts["items"][0]["id"] == "lucky"  # largest difference first
    lines = headline(summarize(records))
    assert any(line.startswith("Seats that used lucky win") for line in lines)


def test_a_component_needs_enough_uses_to_be_flagged():
    records = coin_games(2000, seed=3, lucky=True)
    lucky_uses = next(e["uses"] for e in components(records)["items"] if e["id"] == "lucky")
    assert components(records, min_uses=lucky_uses + 1)["flagged"] == []


def test_a_component_every_seat_used_has_nothing_to_compare_with():
    records = [record(i, (i % 2, 1 - i % 2), used=[["x"], ["x"]]) for i in range(4)]
    (item,) = components(records)["items"]
    assert item["others"] == 0 and item["difference"] is None and not item["flagged"]
    assert components([record(0)]) is None


# --- coverage, solo, team --------------------------------------------------------------------


def test_games_at_a_limit_come_with_the_seed_that_reproduces_them():
    records = [record(0), record(1, limit=True), record(2, hit_turn_limit=True), record(3)]
    cover = coverage(records)
    assert cover["limit"]["count"] == 1 and cover["limit"]["games"] == [{"index": 1, "seed": 1001}]
    assert cover["turn_limit"]["games"] == [{"index": 2, "seed": 1002}]
    assert "1 game stopped at a limit (rules coverage): game 1 (seed 1001)" in " ".join(
        headline(summarize(records))
    )


def test_solo_rival_win_rate_per_difficulty():
    def lone(i, difficulty, won):
        return record(
            i,
            (50,),
            winners=[0] if won else [],
            bots=("greedy",),
            mode="solo",
            difficulty=difficulty,
            won=won,
            margin=5 if won else -5,
            player_total=50,
            rival_total=45 if won else 55,
        )

    records = [
        lone(0, "hard", False),
        lone(1, "normal", True),
        lone(2, "normal", False),
        lone(3, "hard", False),
        lone(4, "normal", True),
    ]
    normal, hard = solo(records)
    assert normal["difficulty"] == "normal" and hard["difficulty"] == "hard"
    assert (normal["rival_wins"]["count"], normal["rival_wins"]["trials"]) == (1, 3)
    assert (hard["rival_wins"]["count"], hard["rival_wins"]["trials"]) == (2, 2)
    assert normal["margin"]["mean"] == pytest.approx(5 / 3, abs=1e-6)
    assert normal["rival"]["mean"] == pytest.approx(145 / 3, abs=1e-6)
    assert solo([record(0)]) is None


def test_team_totals_against_the_difficulty_targets():
    totals = [30, 40, 50, 60, 70, 80]
    records = [
        record(i, (t // 2, t - t // 2), winners=[0, 1], mode="crisis", team_total=t, won=t >= 36)
        for i, t in enumerate(totals)
    ]
    figures = team(records, DIFFICULTY_TARGETS)
    reached = {t["difficulty"]: (t["count"], t["trials"]) for t in figures["targets"]}
    assert list(reached) == list(DIFFICULTY_TARGETS)
    assert reached == {
        "Apprentice": (5, 6),
        "Journeyman": (4, 6),
        "Artisan": (3, 6),
        "Expert": (3, 6),
        "Master": (2, 6),
        "Grandmaster": (1, 6),
    }
    assert figures["totals"]["mean"] == 55 and figures["won"]["count"] == 5
    other_key = [record(0, (20, 20), mode="crisis", team_score=40, won=True)]
    assert team(other_key, DIFFICULTY_TARGETS)["targets"][0]["count"] == 1
    assert team([record(0)]) is None
    summary = summarize(records, game="gem-rush")
    assert summary["outcome"] == "team" and summary["ties"] is None
    assert any("reaches Expert (60) in 50% of games" in line for line in headline(summary))


def test_summarize_with_no_games():
    assert summarize([], game="x") == {"game": "x", "games": 0}
    assert headline({"games": 0}) == ["No game was played: there is nothing to report."]


# --- comparing runs ----------------------------------------------------------------------------


def test_common_seeds_detect_a_small_change_that_independent_runs_miss():
    before = coin_games(2000, seed=5, p=0.50)
    after = coin_games(2000, seed=5, p=0.52)  # the same dice, a slightly rigged coin
    result = compare(before, after)
    assert result["paired"] and result["common_games"] == 2000
    assert "seat 0 wins" in result["moved"] and "seat 1 wins" in result["moved"]
    row = next(r for r in result["metrics"] if r["metric"] == "seat 0 wins")
    assert row["method"] == "paired" and 0 < row["low"] < 0.02 < row["high"]
    elsewhere = coin_games(2000, seed=6, p=0.52)  # other dice: independent samples
    independent = compare(before, elsewhere)
    assert not independent["paired"]
    assert "seat 0 wins" not in independent["moved"]
    row = next(r for r in independent["metrics"] if r["metric"] == "seat 0 wins")
    assert row["method"] == "newcombe" and row["low"] < 0 < row["high"]


def test_a_run_compared_with_itself_moves_nothing():
    records = coin_games(300, seed=7, lucky=True)
    result = compare(records, records)
    assert result["moved"] == [] and all(r["change"] == 0 for r in result["metrics"])
    assert any(r["metric"] == "component lucky effect" for r in result["metrics"])
    assert format_comparison(result)[0].startswith("compared paired on 300 common games; 0 of")


def test_a_large_change_moves_beyond_the_intervals_of_independent_runs():
    result = compare(coin_games(1000, seed=8, p=0.5), coin_games(1000, seed=9, p=0.8))
    assert not result["paired"] and "seat 0 wins" in result["moved"]
    assert any(line.startswith("  seat 0 wins: ") for line in format_comparison(result))


def test_benjamini_hochberg_adjusts_by_hand():
    # sorted 0.001, 0.02, 0.03, 0.5 (m = 4): p * m / rank, then the running minimum from the top
    assert benjamini_hochberg([0.001, 0.02, 0.03, 0.5]) == pytest.approx([0.004, 0.04, 0.04, 0.5])
    # given out of order: the q-values come back in the order given
    assert benjamini_hochberg([0.04, 0.01, 0.03, 0.005]) == pytest.approx([0.04, 0.02, 0.04, 0.02])
    assert benjamini_hochberg([]) == []


def test_difference_p_value_by_hand():
    # 60/100 against 40/100: pooled 0.5, se = sqrt(0.25 * 0.02), z = 2 * sqrt(2), p = erfc(2)
    assert difference_p_value(60, 100, 40, 100) == pytest.approx(math.erfc(2), rel=1e-12)
    assert difference_p_value(0, 10, 0, 10) == 1.0


def test_many_neutral_components_are_not_flagged_by_chance():
    """200 components held at random by seats whose wins are coin flips: each 95%
    interval misses 0 about 1 time in 20, but the corrected flags stay quiet."""
    rng = random.Random(7)
    ids = [f"c{i:03d}" for i in range(200)]
    records = []
    for i in range(1500):
        winner = rng.randrange(2)
        used = [rng.sample(ids, 20), rng.sample(ids, 20)]
        scores = (1, 0) if winner == 0 else (0, 1)
        records.append(record(i, scores, used=used))
    parts = components(records, min_uses=30)
    uncorrected = [e for e in parts["items"] if e["low"] > 0 or e["high"] < 0]
    assert len(uncorrected) >= 4  # what an uncorrected rule would have flagged
    assert parts["flagged"] == []
    assert parts["correction"] == "Benjamini-Hochberg, false discovery rate 5%"


def test_with_mixed_bots_a_component_is_judged_within_each_bot():
    """Two greedy and two random seats a game: a greedy seat plays x far more often and
    wins far more, so x goes with winning, but not against the seats of the same bot
    at the same table, so it is not flagged; y really helps either bot."""
    rng = random.Random(11)
    bots = ("greedy", "greedy", "random", "random")
    records = []
    for i in range(1500):
        used, weights = [], []
        for bot in bots:
            x = rng.random() < (0.9 if bot == "greedy" else 0.1)
            y = rng.random() < 0.5
            used.append([c for c, held in (("x", x), ("y", y)) if held])
            weights.append((4 if bot == "greedy" else 1) * (2 if y else 1))
        winner = rng.choices(range(4), weights)[0]
        scores = tuple(int(seat == winner) for seat in range(4))
        records.append(record(i, scores, bots=bots, used=used))
    parts = components(records, min_uses=30)
    by_id = {e["id"]: e for e in parts["items"]}
    assert parts["within"] == "bot" and parts["unit"] == "game"
    assert by_id["x"]["rate"] > by_id["x"]["other_rate"] + 0.2  # the raw association
    assert not by_id["x"]["flagged"]
    assert by_id["y"]["flagged"] and by_id["y"]["difference"] > 0


def test_two_seats_of_different_bots_leave_nothing_to_compare_within_a_game():
    records = [
        record(i, (1, 0) if i % 2 else (0, 1), bots=("greedy", "random"), used=[["x"], []])
        for i in range(40)
    ]
    (item,) = components(records)["items"]
    assert item["uses"] == 40 and item["difference"] is None and not item["flagged"]
    assert any(
        line.startswith("No component could be judged: effects are measured between seats of "
                        "the same bot in one game")
        for line in headline(summarize(records))
    )  # fmt: skip


# --- seats that hold different bots ----------------------------------------------------------


def test_seats_holding_different_bots_are_not_read_as_a_seating_advantage():
    """Greedy always in seat 0 and winning 3 games in 4: the seat verdict stands, but the
    sentence names the bots and says that the rate measures them as much as the seat."""
    records = [
        record(i, (10, 5) if i % 4 else (5, 10), bots=("greedy", "random")) for i in range(400)
    ]
    summary = summarize(records, game="gemstone-caverns")
    assert summary["seats_hold_different_bots"] is True
    assert summary["seats"][0]["verdict"] == "advantage"
    lines = headline(summary)
    assert lines[0].startswith("Seat 0 (greedy) wins 75% (")
    assert lines[0].endswith("against a fair share of 50%.")
    assert lines[1].startswith("Seat 1 (random) wins 25% (")
    assert "measure the bots as much as the seating" in lines[2]
    assert "--rotate" in lines[2]
    assert not any("first-player" in line or "last-player" in line for line in lines)


def test_rotated_bots_leave_the_seat_finding_to_turn_order():
    """The same bots rotated through the seats (an odd number of games: one seat holds
    greedy once more than the other), and seat 0 wins 3 games in 4 whichever bot it
    holds: that is turn order, and said so."""
    records = [
        record(i, (10, 5) if i % 4 else (5, 10), bots=("greedy", "random")[:: 1 - 2 * (i % 2)])
        for i in range(401)
    ]
    summary = summarize(records, game="gemstone-caverns")
    assert summary["seats_hold_different_bots"] is False
    lines = headline(summary)
    assert lines[0].endswith("against a fair share of 50%: a first-player advantage.")
    assert not any("measure the bots" in line for line in lines)


def test_one_seat_playing_a_bot_two_games_more_holds_different_bots():
    bots = [("greedy", "random")] * 3 + [("random", "greedy")]
    records = [record(i, bots=bots[i]) for i in range(4)]
    assert summarize(records)["seats_hold_different_bots"] is True
    assert summarize(records[:2] + records[3:])["seats_hold_different_bots"] is False


def test_a_search_budgeted_by_time_is_said_not_to_repeat():
    timed_records = [record(i, bots=("mcts:50ms", "greedy")) for i in range(4)]
    lines = headline(summarize(timed_records))
    assert any(line.startswith("mcts:50ms budgets its moves by time:") for line in lines)
    counted = [record(i, bots=("mcts:50", "greedy")) for i in range(4)]
    assert not any("by time" in line for line in headline(summarize(counted)))


def _charm_games(seed: int, games: int, ids: list[str], strong: str | None = None) -> list:
    """Coin-flip games (seeds 1000 + i: no game in common with another seed's run)
    whose seats each hold 20 of ids; a seat holding `strong` alone wins 4 times in 5."""
    rng = random.Random(seed)
    records = []
    for i in range(games):
        used = [rng.sample(ids, 20), rng.sample(ids, 20)]
        holders = [strong in held for held in used] if strong else [False, False]
        if holders.count(True) == 1 and rng.random() < 0.8:
            winner = holders.index(True)
        else:
            winner = rng.randrange(2)
        scores = (1, 0) if winner == 0 else (0, 1)
        records.append(record(i, scores, used=used))
        records[-1].seed = seed * 100_000 + i
    return records


def test_compared_component_effects_are_corrected_for_their_number():
    """Two runs of the same neutral design on other dice: dozens of component effects
    leave 0 out of their 95% intervals by chance, and none is said to move."""
    ids = [f"c{i:03d}" for i in range(200)]
    result = compare(_charm_games(1, 1500, ids), _charm_games(2, 1500, ids))
    parts = [row for row in result["metrics"] if row["method"] == "approximate"]
    assert len(parts) == 200
    assert sum(row["low"] > 0 or row["high"] < 0 for row in parts) >= 4  # uncorrected
    assert not any(row["moved"] for row in parts)
    assert all(row["q"] >= row["p"] for row in parts)
    line = format_comparison(result)[0]
    assert line.endswith("(component effects corrected for their number: Benjamini-Hochberg, "
                         "false discovery rate 5%)")  # fmt: skip


def test_a_component_whose_effect_really_changed_still_moves():
    ids = [f"c{i:03d}" for i in range(200)]
    result = compare(_charm_games(1, 1500, ids), _charm_games(2, 1500, ids, strong="c007"))
    assert "component c007 effect" in result["moved"]
    assert [name for name in result["moved"] if name.startswith("component")] == [
        "component c007 effect"
    ]


def test_in_a_team_game_the_bots_are_told_apart_by_score_not_by_wins():
    """Every seat shares the team's result: both bots win 3 games in 4. The greedy
    seats score 6 and 8 (mean 7), the random ones 2 and 4 (mean 3)."""
    records = [
        record(i, (6 + 2 * (i % 2), 2 + 2 * (i % 2)), winners=[0, 1] if i % 4 else [],
               bots=("greedy", "random"), mode="crisis", won=bool(i % 4), team_total=10)
        for i in range(40)
    ]  # fmt: skip
    bots = {b["bot"]: b for b in strategies(records)["bots"]}
    assert bots["greedy"]["rate"] == bots["random"]["rate"] == 0.75
    assert (bots["greedy"]["score"]["mean"], bots["random"]["score"]["mean"]) == (7, 3)
    lines = headline(summarize(records))
    line = next(line for line in lines if line.startswith("Of the bots"))
    assert line.startswith("Of the bots, greedy scores most: 7.0 points a seat (")
    assert "wins do not tell the bots apart" in line
    assert not any("wins most" in line for line in lines)


def test_bots_that_win_alike_are_not_ranked_by_name():
    records = [record(i, (10, 5) if i % 2 else (5, 10), bots=("mcts", "greedy")[:: 1 - 2 * (i // 2 % 2)])
               for i in range(8)]  # fmt: skip
    assert {b["rate"] for b in strategies(records)["bots"]} == {0.5}
    assert "The bots win alike: 50% of their seats each." in headline(summarize(records))


def test_a_comparison_prints_every_game_metric_and_marks_the_moved_ones():
    before = coin_games(2000, seed=5, p=0.50)
    after = coin_games(2000, seed=5, p=0.52)
    lines = format_comparison(compare(before, after))
    seat = next(line for line in lines if line.startswith("  seat 0 wins: "))
    assert seat.endswith(": moved")
    turns = next(line for line in lines if line.startswith("  turns: "))
    assert turns == "  turns: 1 -> 1 (change +0, 95% +0 to +0)"  # one flip a game, unmoved

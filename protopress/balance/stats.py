"""Balance statistics: pure functions from game records to numbers with 95% intervals.

Every function takes `GameRecord`s (protopress.rules.simulate) and returns plain
JSON-ready values, the same for the same records in the same order.

Intervals:

- a proportion (a win rate, a tie rate): Wilson's score interval
  (protopress.games.gem_rush.mine_growth.wilson_interval), good down to a handful of
  games and at rates near 0 or 1;
- a difference of two independent proportions (seats that used a component
  against seats that did not): Newcombe's hybrid score interval, built from the
  two Wilson intervals (R. G. Newcombe, "Interval estimation for the difference
  between independent proportions: comparison of eleven methods", Statistics in
  Medicine 17 (1998) 873-890, method 10);
- a mean (a score, a margin, a length): the normal approximation, mean plus or
  minus 1.96 standard errors;
- a change between two runs on common seeds: the normal approximation on the
  game-by-game differences (a paired comparison).

Seats are numbered from 0 here and in the JSON, as in the records; the report
and the plain-language lines number them from 1 for people.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from protopress.games.gem_rush.mine_growth import wilson_interval

Z = 1.96  # two-sided 95%
MIN_USES = 30  # seat-games a component needs before it may be flagged
FDR = 0.05  # false discovery rate of the component flags (Benjamini-Hochberg)
MAX_BINS = 20
DIFFICULTY_ORDER = ("normal", "hard")


# --- numbers with intervals -------------------------------------------------------


def _r(value: float | None) -> float | None:
    """Rounded for the JSON: six decimals are more than any interval here supports."""
    return None if value is None else round(float(value), 6)


def proportion(successes: int, trials: int) -> dict:
    """successes of trials, the rate and its 95% Wilson interval (rate None if no trials)."""
    low, high = wilson_interval(successes, trials, Z)
    return {
        "count": successes,
        "trials": trials,
        "rate": _r(successes / trials) if trials else None,
        "low": _r(low),
        "high": _r(high),
    }


def difference_interval(s1: int, n1: int, s2: int, n2: int) -> tuple[float, float, float]:
    """p1 - p2 and its 95% interval by Newcombe's hybrid score method (method 10)."""
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson_interval(s1, n1, Z)
    l2, u2 = wilson_interval(s2, n2, Z)
    difference = p1 - p2
    low = difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return difference, low, high


def difference_p_value(s1: int, n1: int, s2: int, n2: int) -> float:
    """Two-sided p-value of p1 = p2 by the pooled two-proportion z-test."""
    pooled = (s1 + s2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    z = abs(s1 / n1 - s2 / n2) / spread
    return math.erfc(z / math.sqrt(2))


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given.

    A component is flagged when its q-value is at most FDR: among the flags,
    the expected share of false ones is then at most FDR, however many
    components a game has. (Bonferroni or Holm would bound the chance of any
    false flag at all, and with a hundred components would hide real effects.)
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        index = order[rank - 1]
        running = min(running, p_values[index] * m / rank)
        adjusted[index] = min(1.0, running)
    return adjusted


class Stratum(NamedTuple):
    """Seat-games of one bot: n1 used the component (s1 of them won), n2 did not (s2 won)."""

    n1: int
    s1: int
    n2: int
    s2: int


def stratified_difference(strata: Sequence[Stratum]) -> tuple[float, float, float, float] | None:
    """Mantel-Haenszel risk difference over strata, its 95% interval and p-value.

    With mixed bots a component's users and non-users differ in who plays
    them: a greedy bot plays more cards and wins more. Comparing within each
    bot and pooling with weights n1*n2/(n1+n2) removes that. The interval is
    the normal one from the strata's variances; the p-value tests 0 with the
    strata's pooled rates. None when no stratum has both users and non-users.
    """
    usable = [s for s in strata if s.n1 and s.n2]
    if not usable:
        return None
    weights = [s.n1 * s.n2 / (s.n1 + s.n2) for s in usable]
    total = sum(weights)
    differences = [s.s1 / s.n1 - s.s2 / s.n2 for s in usable]
    difference = sum(w * d for w, d in zip(weights, differences, strict=True)) / total
    variance = sum(
        w * w * (s.s1 / s.n1 * (1 - s.s1 / s.n1) / s.n1 + s.s2 / s.n2 * (1 - s.s2 / s.n2) / s.n2)
        for w, s in zip(weights, usable, strict=True)
    ) / (total * total)
    null = sum(
        w * w * ((s.s1 + s.s2) / (s.n1 + s.n2)) * (1 - (s.s1 + s.s2) / (s.n1 + s.n2))
        * (1 / s.n1 + 1 / s.n2)
        for w, s in zip(weights, usable, strict=True)
    ) / (total * total)  # fmt: skip
    half = Z * math.sqrt(variance)
    p = math.erfc(abs(difference) / math.sqrt(2 * null)) if null > 0 else 1.0
    return difference, difference - half, difference + half, p


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def mean_interval(values: Sequence[float]) -> dict:
    """n, mean, sample sd and the normal 95% interval of the mean."""
    if not values:
        return {"n": 0, "mean": None, "sd": None, "low": None, "high": None}
    mean, sd = mean_sd(values)
    half = Z * sd / math.sqrt(len(values))
    return {
        "n": len(values),
        "mean": _r(mean),
        "sd": _r(sd),
        "low": _r(mean - half),
        "high": _r(mean + half),
    }


def histogram(values: Sequence[float], max_bins: int = MAX_BINS) -> list[dict]:
    """Half-open bins [low, high) covering the values, at most max_bins of them.

    Whole numbers get whole-number bins (width 1, 2, 3, ...) starting at a
    multiple of the width; other values get max_bins equal bins.
    """
    if not values:
        return []
    lowest, highest = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil((highest - lowest + 1) / max_bins))
        start = math.floor(lowest / width) * width
        count = (int(highest) - start) // width + 1
        edges = [start + i * width for i in range(count + 1)]
    else:
        width = (highest - lowest) / max_bins or 1.0
        count = max_bins if highest > lowest else 1
        edges = [lowest + i * width for i in range(count + 1)]
    counts = [0] * count
    for value in values:
        counts[min(int((value - edges[0]) // width), count - 1)] += 1
    return [
        {"low": _r(edges[i]), "high": _r(edges[i + 1]), "count": counts[i]} for i in range(count)
    ]


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def distribution(values: Sequence[float], max_bins: int = MAX_BINS) -> dict:
    """Mean (with its interval), sd, min, median, max and a histogram."""
    values = list(values)
    if not values:
        return {**mean_interval(values), "min": None, "median": None, "max": None, "histogram": []}
    return {
        **mean_interval(values),
        "min": _r(min(values)),
        "median": _r(median(values)),
        "max": _r(max(values)),
        "histogram": histogram(values, max_bins),
    }


# --- what a record says -------------------------------------------------------------


def outcome(record) -> str:
    """The record's outcome kind: "versus", "team" or "solo" (the game says which)."""
    return record.outcome.kind.value


def seat_won(record, seat: int) -> bool:
    """Solo and team games: the shared outcome; versus: the seat is the only winner."""
    return record.outcome.seat_won(seat)


def margin(record) -> float | None:
    """Winner minus runner-up (versus); player minus rival (solo); None for a team."""
    return record.outcome.margin()


def team_total(record) -> float | None:
    """A team game's shared score, else None."""
    return record.outcome.team_score if outcome(record) == "team" else None


def against_rival(record) -> bool:
    """A solo game against an automated rival (it has the rival's score)."""
    return outcome(record) == "solo" and record.outcome.rival_score is not None


def difficulty_targets(game: str | None) -> dict[str, int]:
    """A team game's named point targets, from its spec ({} for others or unknown games)."""
    if game is None:
        return {}
    from protopress.games import UnknownGame, spec_for

    try:
        return dict(spec_for(game).difficulty_targets)
    except UnknownGame:
        return {}


def first_mover(game: str | None) -> int | None:
    """The seat that always starts the game, from its spec (None when it rotates or is drawn)."""
    if game is None:
        return None
    from protopress.games import UnknownGame, spec_for

    try:
        return spec_for(game).first_mover
    except UnknownGame:
        return None


# --- the statistics ---------------------------------------------------------------------


def seat_wins(records: Sequence) -> list[dict]:
    """Per seat: wins, win rate and interval; versus games: the fair share and a verdict.

    The fair share is what every seat would win if seating did not matter:
    the games not tied, split evenly. A seat whose interval lies above it has
    an advantage, below it a disadvantage.
    """
    if not records:
        return []
    players = len(records[0].scores)
    games = len(records)
    versus = outcome(records[0]) == "versus"
    tied = sum(len(r.winners) > 1 for r in records) if versus else 0
    fair = (games - tied) / games / players if versus else None
    seats = []
    for seat in range(players):
        wins = proportion(sum(seat_won(r, seat) for r in records), games)
        verdict = None
        if fair is not None:
            verdict = (
                "advantage"
                if wins["low"] > fair
                else "disadvantage"
                if wins["high"] < fair
                else "even"
            )
        seats.append(
            {
                "seat": seat,
                "bots": _seat_bots(records, seat),
                **wins,
                "fair": _r(fair),
                "verdict": verdict,
            }
        )
    return seats


def _seat_bots(records, seat: int) -> list[str]:
    return sorted({r.bots[seat] for r in records})


def tie_rate(records: Sequence) -> dict:
    """Games with more than one winner (versus games)."""
    versus = [r for r in records if outcome(r) == "versus"]
    return proportion(sum(len(r.winners) > 1 for r in versus), len(versus))


def seat_scores(records: Sequence) -> list[dict]:
    """Per seat: the mean score with its interval, and the seat advantage in points.

    The advantage is the mean, over games, of the seat's score less the mean
    score at its table in that game: comparing within a game removes what the
    game's dice and shuffles did to everyone.
    """
    if not records:
        return []
    players = len(records[0].scores)
    rows = []
    for seat in range(players):
        scores = [r.scores[seat] for r in records]
        row = {"seat": seat, **mean_interval(scores)}
        if players > 1:
            edge = [r.scores[seat] - sum(r.scores) / players for r in records]
            advantage = mean_interval(edge)
            row["advantage"] = {k: advantage[k] for k in ("mean", "low", "high")}
        rows.append(row)
    return rows


def spread(records: Sequence, max_bins: int = MAX_BINS) -> dict | None:
    """The range of scores at the table (highest minus lowest), game by game."""
    if not records or len(records[0].scores) < 2:
        return None
    return distribution([max(r.scores) - min(r.scores) for r in records], max_bins)


def strategies(records: Sequence) -> dict | None:
    """When bots are mixed: each bot's win rate over the seats it played, and head to head.

    Head to head, every pair of seats in a game with bot A against bot B is one
    meeting: A wins it when A is among the winners and B is not, or, when both
    or neither are, by a higher score; equal scores are a draw. The rate is A's
    wins over the decided meetings. Meetings within one game share its dice,
    so with more than two seats the interval is somewhat optimistic.
    """
    names = sorted({bot for r in records for bot in r.bots})
    if len(names) < 2:
        return None
    seats, wins = Counter(), Counter()
    meetings: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # won, lost, drawn
    for r in records:
        for seat, bot in enumerate(r.bots):
            seats[bot] += 1
            wins[bot] += seat_won(r, seat)
        for a, bot_a in enumerate(r.bots):
            for b, bot_b in enumerate(r.bots):
                if bot_a == bot_b:
                    continue
                meetings[bot_a, bot_b][_meeting(r, a, b)] += 1
    head_to_head = []
    for (a, b), (won, lost, drawn) in sorted(meetings.items()):
        decided = proportion(won, won + lost)
        head_to_head.append(
            {
                "bot": a,
                "against": b,
                "meetings": won + lost + drawn,
                "won": won,
                "lost": lost,
                "drawn": drawn,
                **decided,
            }
        )
    return {
        "bots": [{"bot": bot, **proportion(wins[bot], seats[bot])} for bot in names],
        "head_to_head": head_to_head,
    }


def _meeting(record, a: int, b: int) -> int:
    """0 when seat a beats seat b, 1 when it loses, 2 on a draw."""
    in_a, in_b = a in record.winners, b in record.winners
    if in_a != in_b:
        return 0 if in_a else 1
    if record.scores[a] != record.scores[b]:
        return 0 if record.scores[a] > record.scores[b] else 1
    return 2


def components(records: Sequence, min_uses: int = MIN_USES) -> dict | None:
    """Per component (record extra "used", ids per seat): does using it go with winning?

    For each component, the seat-games that used it at least once against those
    that did not: the difference of their win rates with Newcombe's interval,
    and a p-value. A component is flagged when it was used at least min_uses
    times and its Benjamini-Hochberg q-value, over all components compared, is
    at most FDR (a false discovery rate of 5%). Association, not cause: a
    strong player's seat may simply play more cards.
    """
    rows = [
        (set(used[seat]), seat_won(r, seat), r.bots[seat] if seat < len(r.bots) else "")
        for r in records
        if isinstance(used := r.extra.get("used"), list)
        for seat in range(min(len(used), len(r.scores)))
    ]
    if not rows:
        return None
    total, total_wins = len(rows), sum(won for _, won, _ in rows)
    uses, use_wins = Counter(), Counter()
    seats_of, wins_of = Counter(), Counter()  # per bot
    bot_uses, bot_use_wins = Counter(), Counter()  # per (item, bot)
    for used, won, bot in rows:
        seats_of[bot] += 1
        wins_of[bot] += won
        for item in used:
            uses[item] += 1
            use_wins[item] += won
            bot_uses[item, bot] += 1
            bot_use_wins[item, bot] += won
    mixed = len(seats_of) > 1
    items = []
    for item in sorted(uses):
        n1, s1 = uses[item], use_wins[item]
        n2, s2 = total - n1, total_wins - use_wins[item]
        entry = {
            "id": item,
            "uses": n1,
            "wins": s1,
            "rate": _r(s1 / n1),
            "others": n2,
            "other_wins": s2,
            "other_rate": _r(s2 / n2) if n2 else None,
        }
        strata = [
            Stratum(bot_uses[item, b], bot_use_wins[item, b],
                    seats_of[b] - bot_uses[item, b], wins_of[b] - bot_use_wins[item, b])
            for b in sorted(seats_of)
        ]  # fmt: skip
        if mixed and (found := stratified_difference(strata)) is not None:
            difference, low, high, p = found
            entry.update(difference=_r(difference), low=_r(low), high=_r(high), p=p)
        elif n2 and not mixed:
            difference, low, high = difference_interval(s1, n1, s2, n2)
            p = difference_p_value(s1, n1, s2, n2)
            entry.update(difference=_r(difference), low=_r(low), high=_r(high), p=p)
        else:  # every seat (of each bot) used it: nothing to compare with
            entry.update(difference=None, low=None, high=None, p=None)
        items.append(entry)
    tested = [e for e in items if e["p"] is not None and e["uses"] >= min_uses]
    for entry, q in zip(tested, benjamini_hochberg([e["p"] for e in tested]), strict=True):
        entry["q"] = _r(q)
    for entry in items:
        entry.setdefault("q", None)
        entry["flagged"] = entry["q"] is not None and entry["q"] <= FDR
        entry["p"] = _r(entry["p"]) if entry["p"] is not None else None
    items.sort(key=lambda e: (e["difference"] is None, -(e["difference"] or 0), e["id"]))
    return {
        "min_uses": min_uses,
        "correction": f"Benjamini-Hochberg, false discovery rate {FDR:.0%}",
        "within": "bot" if mixed else None,  # mixed bots: compared within each bot
        "seat_games": total,
        "items": items,
        "flagged": [e["id"] for e in items if e["flagged"]],
    }


def coverage(records: Sequence) -> dict:
    """Games that stopped at a limit, with the seeds that reproduce them.

    "limit": the engine's own stop (20,000 decisions, or a state with no legal
    action): a rules-coverage finding. "turn_limit": the game's turn limit
    ended it (record extra "hit_turn_limit"), scored as it stood.
    """

    def found(flags: Iterable[bool]) -> dict:
        hits = [r for r, flag in zip(records, flags, strict=True) if flag]
        return {
            **proportion(len(hits), len(records)),
            "games": [{"index": r.index, "seed": r.seed} for r in hits],
        }

    return {
        "limit": found(r.limit for r in records),
        "turn_limit": found(bool(r.extra.get("hit_turn_limit")) for r in records),
    }


def solo(records: Sequence, max_bins: int = MAX_BINS) -> list[dict] | None:
    """Solo games against a rival: the rival's win rate per difficulty (record extra "difficulty")."""
    by_difficulty: dict[str, list] = defaultdict(list)
    for r in records:
        if against_rival(r):
            by_difficulty[str(r.extra.get("difficulty", "normal"))].append(r)
    if not by_difficulty:
        return None
    rank = {name: i for i, name in enumerate(DIFFICULTY_ORDER)}
    rows = []
    for difficulty in sorted(by_difficulty, key=lambda d: (rank.get(d, len(rank)), d)):
        games = by_difficulty[difficulty]
        rival = proportion(sum(not r.outcome.solo_won for r in games), len(games))
        rows.append(
            {
                "difficulty": difficulty,
                "rival_wins": rival,
                "player": mean_interval([r.scores[0] for r in games]),
                "rival": mean_interval([r.outcome.rival_score for r in games]),
                "margin": distribution([margin(r) for r in games], max_bins),
            }
        )
    return rows


def team(records: Sequence, targets: dict[str, int] | None = None, max_bins: int = MAX_BINS):
    """A team game's shared totals against its difficulty targets: the fraction of
    games reaching each. None without team games."""
    totals = [t for r in records if (t := team_total(r)) is not None]
    if not totals:
        return None
    targets = targets or {}
    shared = [r for r in records if team_total(r) is not None]
    return {
        "totals": distribution(totals, max_bins),
        "targets": [
            {
                "difficulty": name,
                "points": points,
                **proportion(sum(t >= points for t in totals), len(totals)),
            }
            for name, points in targets.items()
        ],
        "won": proportion(sum(bool(r.outcome.team_won) for r in shared), len(shared))
        if shared
        else None,
    }


def summarize(
    records: Sequence,
    *,
    game: str | None = None,
    min_uses: int = MIN_USES,
    max_bins: int = MAX_BINS,
) -> dict:
    """Every statistic of a run's records, as one JSON-ready dictionary."""
    records = sorted(records, key=lambda r: r.index)
    if not records:
        return {"game": game, "games": 0}
    kind = outcome(records[0])
    margins = [m for r in records if (m := margin(r)) is not None]
    return {
        "game": game,
        "games": len(records),
        "players": len(records[0].scores),
        "outcome": kind,
        "seats": seat_wins(records),
        "ties": tie_rate(records) if kind == "versus" else None,
        "scores": distribution([s for r in records for s in r.scores], max_bins),
        "seat_scores": seat_scores(records),
        "spread": spread(records, max_bins) if kind == "versus" else None,
        "margins": distribution(margins, max_bins) if margins else None,
        "turns": distribution([r.turns for r in records], max_bins),
        "strategies": strategies(records),
        "components": components(records, min_uses),
        "coverage": coverage(records),
        "solo": solo(records, max_bins),
        "team": team(records, difficulty_targets(game), max_bins=max_bins),
    }


# --- in plain words ---------------------------------------------------------------------


def percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate * 100:.0f}%"


def interval(low: float | None, high: float | None) -> str:
    """'52–60%'."""
    if low is None or high is None:
        return "n/a"
    return f"{low * 100:.0f}\u2013{high * 100:.0f}%"


def headline(summary: dict) -> list[str]:
    """A few sentences saying what the numbers mean, most important first."""
    games = summary.get("games", 0)
    if not games:
        return ["No game was played: there is nothing to report."]
    lines = []
    kind = summary["outcome"]
    seats = summary["seats"]
    if kind == "versus":
        flagged = [s for s in seats if s["verdict"] != "even"]
        for s in flagged:
            lines.append(
                f"Seat {s['seat'] + 1} wins {percent(s['rate'])} ({interval(s['low'], s['high'])}) "
                f"against a fair share of {percent(s['fair'])}: {_seat_finding(summary, s)}."
            )
        if not flagged:
            lines.append(
                f"No seat wins more or less than its fair share ({percent(seats[0]['fair'])}) "
                f"beyond chance over {games} games."
            )
        ties = summary["ties"]
        if ties["count"]:
            lines.append(
                f"{percent(ties['rate'])} of games end in a tie ({interval(ties['low'], ties['high'])})."
            )
    elif kind == "team":
        s = seats[0]
        lines.append(
            f"The team wins {percent(s['rate'])} of games ({interval(s['low'], s['high'])})."
        )
    for row in summary.get("solo") or []:
        r = row["rival_wins"]
        lines.append(
            f"The {row['difficulty']} rival wins {percent(r['rate'])} ({interval(r['low'], r['high'])}); "
            f"the player's mean margin is {row['margin']['mean']:+.1f} points."
        )
    team_figures = summary.get("team")
    if team_figures:
        reached = [t for t in team_figures["targets"] if t["rate"] and t["rate"] >= 0.5]
        best = reached[-1] if reached else None
        lines.append(
            f"The team scores {team_figures['totals']['mean']:.1f} points on average"
            + (
                f" and reaches {best['difficulty']} ({best['points']}) in {percent(best['rate'])} of games."
                if best
                else "; it reaches no difficulty target in half the games."
            )
        )
        totals = team_figures["totals"]
        lines.append(
            f"Team score: median {totals['median']:g}, sd {totals['sd']:.1f}, "
            f"{totals['min']:g} to {totals['max']:g}."
        )
        if team_figures["targets"]:
            lines.append(
                "Targets reached: "
                + ", ".join(
                    f"{t['difficulty']} ({t['points']}) {percent(t['rate'])}"
                    for t in team_figures["targets"]
                )
                + "."
            )
    margins = summary.get("margins")
    if kind == "versus" and margins and margins["n"]:
        lines.append(
            f"The winner leads the runner-up by {margins['mean']:.1f} points on average "
            f"(sd {margins['sd']:.1f}, median {margins['median']:g})."
        )
    turns = summary["turns"]
    lines.append(
        f"Games last {turns['mean']:.1f} turns on average (sd {turns['sd']:.1f}, "
        f"{turns['min']:g} to {turns['max']:g})."
    )
    strategy = summary.get("strategies")
    if strategy:
        best = max(strategy["bots"], key=lambda b: (b["rate"], b["bot"]))
        lines.append(
            f"Of the bots, {best['bot']} wins most: {percent(best['rate'])} of its seats "
            f"({interval(best['low'], best['high'])})."
        )
    parts = summary.get("components")
    if parts:
        flagged = [e for e in parts["items"] if e["flagged"]]
        for e in flagged[:3]:
            effect = (
                f"{e['difference'] * 100:+.0f} points, 95% {e['low'] * 100:+.0f} to "
                f"{e['high'] * 100:+.0f}"
            )
            if parts.get("within") == "bot":
                lines.append(
                    f"Seats that used {e['id']} win more often than seats of the same bot "
                    f"that did not ({effect})."
                    if e["difference"] > 0
                    else f"Seats that used {e['id']} win less often than seats of the same "
                    f"bot that did not ({effect})."
                )
            else:
                lines.append(
                    f"Seats that used {e['id']} win {percent(e['rate'])} of the time, against "
                    f"{percent(e['other_rate'])} for seats that did not ({effect})."
                )
        if len(flagged) > 3:
            lines.append(
                f"{len(flagged) - 3} more components are flagged: see the component table."
            )
        if not flagged:
            lines.append(
                f"No component goes with winning or losing beyond chance "
                f"(at least {parts['min_uses']} uses)."
            )
    limits = summary["coverage"]["limit"]
    if limits["count"]:
        first = limits["games"][0]
        lines.append(
            f"{limits['count']} game{'s' if limits['count'] != 1 else ''} stopped at a limit "
            f"(rules coverage): game {first['index']} (seed {first['seed']}) is the first."
        )
    else:
        lines.append("No game stopped at a limit.")
    return lines


def _seat_finding(summary: dict, seat: dict) -> str:
    better = seat["verdict"] == "advantage"
    word = "advantage" if better else "disadvantage"
    if first_mover(summary.get("game")) == 0:
        if seat["seat"] == 0:
            return f"a first-player {word}"
        if seat["seat"] == summary["players"] - 1:
            return f"a last-player {word}"
    return (
        f"an {word} for seat {seat['seat'] + 1}"
        if better
        else f"a {word} for seat {seat['seat'] + 1}"
    )


# --- two runs ---------------------------------------------------------------------------


def game_metrics(
    records: Sequence, targets: dict[str, int] | None = None
) -> dict[str, tuple[str, dict]]:
    """Per-game values, by metric name: (kind "rate" or "mean", {(index, seed): value}).

    A run's figure is the mean of a metric's values; two runs on common seeds
    are compared game by game on these.
    """
    if not records:
        return {}
    metrics: dict[str, tuple[str, dict]] = {}

    def add(name, kind, key, value):
        if value is not None:
            metrics.setdefault(name, (kind, {}))[1][key] = value

    kind = outcome(records[0])
    players = len(records[0].scores)
    mixed = len({bot for r in records for bot in r.bots}) > 1
    for r in records:
        key = (r.index, r.seed)
        if kind == "team":
            add("team wins", "rate", key, int(seat_won(r, 0)))
        else:
            for seat in range(players):
                add(f"seat {seat + 1} wins", "rate", key, int(seat_won(r, seat)))
        if kind == "versus":
            add("ties", "rate", key, int(len(r.winners) > 1))
        for seat in range(players):
            add(f"seat {seat + 1} score", "mean", key, r.scores[seat])
        add("margin", "mean", key, margin(r))
        add("turns", "mean", key, r.turns)
        add("games at a limit", "rate", key, int(r.limit))
        if mixed:
            for bot in sorted(set(r.bots)):
                mine = [seat for seat, name in enumerate(r.bots) if name == bot]
                add(f"{bot} wins", "mean", key, sum(seat_won(r, s) for s in mine) / len(mine))
        if against_rival(r):
            add(
                f"{r.extra.get('difficulty', 'normal')} rival wins",
                "rate",
                key,
                int(not r.outcome.solo_won),
            )
        total = team_total(r)
        if total is not None:
            add("team total", "mean", key, total)
            for name, points in (targets or {}).items():
                add(f"reaches {name}", "rate", key, int(total >= points))
    return metrics


def compare(old, new, *, min_uses: int = MIN_USES) -> dict:
    """Which metrics moved beyond their 95% intervals between two runs.

    old and new are runs (with .records) or lists of records. Games with the
    same index and seed in both are compared pair by pair (common random
    numbers: the same dice, so a small change shows); otherwise the runs are
    compared as independent samples (Newcombe's interval for rates, the normal
    approximation for means). Component effects are compared as independent
    estimates (normal approximation from their intervals) and marked approximate.
    """
    old_records = list(getattr(old, "records", old))
    new_records = list(getattr(new, "records", new))
    targets = difficulty_targets(getattr(new, "game", None))
    before, after = game_metrics(old_records, targets), game_metrics(new_records, targets)
    common = {(r.index, r.seed) for r in old_records} & {(r.index, r.seed) for r in new_records}
    paired = len(common) >= 2
    rows = []
    for name in [n for n in before if n in after]:
        kind, old_values = before[name]
        new_values = after[name][1]
        row = (
            _paired(name, old_values, new_values, common)
            if paired
            else _independent(name, kind, list(old_values.values()), list(new_values.values()))
        )
        if row is not None:
            rows.append(row)
    rows += _component_changes(old_records, new_records, min_uses)
    return {
        "paired": paired,
        "common_games": len(common),
        "games": [len(old_records), len(new_records)],
        "metrics": rows,
        "moved": [row["metric"] for row in rows if row["moved"]],
    }


def _row(name, old, new, change, low, high, method) -> dict:
    moved = low is not None and (low > 0 or high < 0)
    return {
        "metric": name,
        "old": _r(old),
        "new": _r(new),
        "change": _r(change),
        "low": _r(low),
        "high": _r(high),
        "moved": moved,
        "method": method,
    }


def _paired(name, old_values: dict, new_values: dict, common: set) -> dict | None:
    keys = sorted(k for k in common if k in old_values and k in new_values)
    if len(keys) < 2:
        return None
    differences = [new_values[k] - old_values[k] for k in keys]
    mean, sd = mean_sd(differences)
    half = Z * sd / math.sqrt(len(keys))
    old_mean = sum(old_values[k] for k in keys) / len(keys)
    new_mean = sum(new_values[k] for k in keys) / len(keys)
    return _row(name, old_mean, new_mean, mean, mean - half, mean + half, "paired")


def _independent(name, kind, old_values: list, new_values: list) -> dict | None:
    if len(old_values) < 2 or len(new_values) < 2:
        return None
    if kind == "rate":
        s_old, s_new = sum(old_values), sum(new_values)
        change, low, high = difference_interval(s_new, len(new_values), s_old, len(old_values))
        return _row(
            name, s_old / len(old_values), s_new / len(new_values), change, low, high, "newcombe"
        )
    (m_old, sd_old), (m_new, sd_new) = mean_sd(old_values), mean_sd(new_values)
    half = Z * math.sqrt(sd_old**2 / len(old_values) + sd_new**2 / len(new_values))
    change = m_new - m_old
    return _row(name, m_old, m_new, change, change - half, change + half, "normal")


def _component_changes(old_records, new_records, min_uses: int) -> list[dict]:
    old_parts, new_parts = components(old_records, min_uses), components(new_records, min_uses)
    if not old_parts or not new_parts:
        return []
    old_items = {e["id"]: e for e in old_parts["items"] if e["difference"] is not None}
    rows = []
    for e in new_parts["items"]:
        o = old_items.get(e["id"])
        if o is None or e["difference"] is None:
            continue
        se_old, se_new = (o["high"] - o["low"]) / (2 * Z), (e["high"] - e["low"]) / (2 * Z)
        change = e["difference"] - o["difference"]
        half = Z * math.sqrt(se_old**2 + se_new**2)
        rows.append(
            _row(
                f"component {e['id']} effect",
                o["difference"],
                e["difference"],
                change,
                change - half,
                change + half,
                "approximate",
            )
        )
    return sorted(rows, key=lambda row: row["metric"])


def format_comparison(result: dict) -> list[str]:
    """One line per metric that moved, then a count of those that did not."""
    how = (
        f"paired on {result['common_games']} common games"
        if result["paired"]
        else "as independent samples (no common seeds)"
    )
    lines = [f"compared {how}; {len(result['moved'])} of {len(result['metrics'])} metrics moved"]
    for row in result["metrics"]:
        if row["moved"]:
            lines.append(
                f"  {row['metric']}: {row['old']:.4g} -> {row['new']:.4g} "
                f"(change {row['change']:+.4g}, 95% {row['low']:+.4g} to {row['high']:+.4g})"
            )
    return lines

"""Two runs compared: which metrics moved beyond their 95% intervals.

A change between two runs on common seeds uses the normal approximation on the
game-by-game differences (a paired comparison); otherwise the runs are
independent samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from protopress.balance.intervals import (
    Z,
    _r,
    benjamini_hochberg,
    difference_interval,
    mean_sd,
    two_sided_p,
)
from protopress.balance.stats import (
    FDR,
    MIN_USES,
    against_rival,
    components,
    difficulty_targets,
    margin,
    outcome,
    seat_name,
    seat_won,
    team_total,
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
                add(f"{seat_name(seat)} wins", "rate", key, int(seat_won(r, seat)))
        if kind == "versus":
            add("ties", "rate", key, int(len(r.winners) > 1))
        for seat in range(players):
            add(f"{seat_name(seat)} score", "mean", key, r.scores[seat])
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
    estimates (normal approximation from their intervals) and marked approximate;
    one moves when its Benjamini-Hochberg q-value over all the components is at
    most FDR, as a run flags them (the few game metrics are read at 95% each).
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
        se = math.sqrt(se_old**2 + se_new**2)
        row = _row(
            f"component {e['id']} effect",
            o["difference"],
            e["difference"],
            change,
            change - Z * se,
            change + Z * se,
            "approximate",
        )
        row["p"] = two_sided_p(change / se) if se else float(change == 0)
        rows.append(row)
    # a game has dozens of components: each 95% interval leaves out 0 one time in 20
    # by chance, so a change is said to move an effect as a run flags one (stats.FDR)
    for row, q in zip(rows, benjamini_hochberg([row["p"] for row in rows]), strict=True):
        row["p"], row["q"] = _r(row["p"]), _r(q)
        row["moved"] = q <= FDR
    return sorted(rows, key=lambda row: row["metric"])


def format_comparison(result: dict) -> list[str]:
    """A count of the metrics that moved, then a line per game metric (they are few: a
    designer reads how far each went, moved or not) and per component effect that
    moved, each moved one marked so."""
    how = (
        f"paired on {result['common_games']} common games"
        if result["paired"]
        else "as independent samples (no common seeds)"
    )
    lines = [f"compared {how}; {len(result['moved'])} of {len(result['metrics'])} metrics moved"]
    if any(row["method"] == "approximate" for row in result["metrics"]):
        lines[0] += (
            f" (component effects corrected for their number: Benjamini-Hochberg, false "
            f"discovery rate {FDR:.0%})"
        )
    for row in result["metrics"]:
        if row["moved"] or row["method"] != "approximate":
            lines.append(
                f"  {row['metric']}: {row['old']:.4g} -> {row['new']:.4g} "
                f"(change {row['change']:+.4g}, 95% {row['low']:+.4g} to {row['high']:+.4g})"
                + (": moved" if row["moved"] else "")
            )
    return lines

"""A run's statistics in plain words: the summary lines of balance and of its report."""

from __future__ import annotations

from protopress.balance.human import human_lines
from protopress.balance.stats import first_mover, seat_name
from protopress.balance.strength import NOT_MEASURED
from protopress.rules.bot_names import not_repeatable

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
        bots_differ = summary.get("seats_hold_different_bots", False)
        for s in flagged:
            shown, of = (
                (s, "") if not summary["ties"]["count"] else (s["decided"], " of untied games")
            )
            fair = s["fair"] if not of else 1 / summary["players"]
            lines.append(
                f"{seat_name(s['seat']).capitalize()}{_seat_bots(s) if bots_differ else ''} wins "
                f"{percent(shown['rate'])}{of} ({interval(shown['low'], shown['high'])}) against "
                f"a fair share of {percent(fair)}"
                + ("." if bots_differ else f": {_seat_finding(summary, s)}.")
            )
        if flagged and bots_differ:
            lines.append(
                "The seats hold different bots, so these rates measure the bots as much as "
                "the seating; seat every bot in every place in turn (--rotate) to tell them "
                "apart."
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
    by_time = not_repeatable(bot for s in seats for bot in s["bots"])
    if by_time:
        lines.append(by_time)
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
        lines.append(_best_bot(strategy["bots"], team=kind == "team"))
    parts = summary.get("components")
    if parts:
        lines += _component_lines(parts)
        lines += coverage_lines(parts)
    lines += strength_lines(summary.get("bots") or [], parts)
    limits = summary["coverage"]["limit"]
    if limits["count"]:
        first = limits["games"][0]
        lines.append(
            f"{limits['count']} game{'s' if limits['count'] != 1 else ''} stopped at a limit "
            f"(rules coverage): game {first['index']} (seed {first['seed']}) is the first."
        )
    else:
        lines.append("No game stopped at a limit.")
    return lines + human_lines(summary.get("human_games"))


def _component_lines(parts: dict) -> list[str]:
    """The flagged components (three at most), each marked when it does not replicate."""
    lines = []
    flagged = [e for e in parts["items"] if e["flagged"]]
    mixed = parts.get("within") == "bot"
    for e in flagged[:3]:
        effect = (
            f"{e['difference'] * 100:+.0f} points, 95% {e['low'] * 100:+.0f} to "
            f"{e['high'] * 100:+.0f}"
        )
        table = (
            "seats of the same bot at the same table" if mixed else "the other seats at their table"
        )
        more = "more" if e["difference"] > 0 else "less"
        lines.append(
            f"Seats that used {e['id']} win {percent(e['rate'])} of the time, against "
            f"{percent(e['other_rate'])} for seats that did not; against {table}, {more} often "
            f"({effect})." + ("" if e["replicates"] else NOT_REPLICATED)
        )
    if len(flagged) > 3:
        lines.append(f"{len(flagged) - 3} more components are flagged: see the component table.")
    if not flagged and parts["items"]:  # none used at all: nothing to judge, nothing said
        compared = [e for e in parts["items"] if e["difference"] is not None]
        if not compared:
            lines.append(
                "No component could be judged: effects are measured between seats of the same "
                "bot in one game, and no game had two seats of one bot to compare."
            )
        else:
            lines.append(
                f"No component goes with winning or losing beyond chance "
                f"(at least {parts['min_uses']} uses)."
            )
    return lines


NOT_REPLICATED = (
    " Not replicated: the even- and odd-numbered games do not both show it on their own."
)


def coverage_lines(parts: dict) -> list[str]:
    """What each bot left untouched: components never used, or used fewer than
    min_uses times (with the counts), or that it left none; and the search bot
    advised where greedy leaves components unplayed."""
    lines = []
    for row in parts.get("usage", []):
        total = row["offered"] if row["offered"] is not None else row["used"] + len(row["never"])
        if not total:
            continue  # the game dealt no components (DragonStone's Smiley level: no cards)
        if not row["never"] and not row["rare"]:
            lines.append(
                f"The {row['bot']} seats used every one of the {total} components, each at "
                f"least {parts['min_uses']} times, in {row['seat_games']:,} seat-games."
            )
            continue
        said = (
            f"The {row['bot']} seats used {row['used']} of the {total} components in "
            f"{row['seat_games']:,} seat-games"
        )
        if row["never"]:
            said += f"; {len(row['never'])} never: {_listed(row['never'])}"
        if row["rare"]:
            rare = [f"{r['id']} ({r['uses']})" for r in row["rare"]]
            said += f"; fewer than {parts['min_uses']} times: {_listed(rare)}"
        lines.append(said + ".")
    untouched = [
        row for row in parts.get("usage", []) if row["bot"].split(":")[0] == "greedy"
        and (row["never"] or row["rare"])
    ]  # fmt: skip
    searched = any(row["bot"].split(":")[0] == "mcts" for row in parts.get("usage", []))
    if untouched and not searched:
        left = max(len(row["never"]) + len(row["rare"]) for row in untouched)
        lines.append(
            f"Greedy leaves {left} component{'s' if left != 1 else ''} (nearly) unplayed, so "
            "the run says little about them: the search bot (--bot mcts:100) plays more of "
            "the game, at more time a game."
        )
    return lines


def _listed(names: list[str], most: int = 8) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def strength_lines(bots: list[dict], parts: dict | None) -> list[str]:
    """Each bot with its rung on the ladder and, where measured, its strength."""
    if not bots:
        return []
    said = [f"{b['bot']}, {b['rung_says']}{_measured(b)}" for b in bots]
    return ["Bots: " + "; ".join(said) + "."]


def _measured(bot: dict) -> str:
    """A search bot's measured strength, or that this game and its settings have none."""
    if bot["rung"] != 2:
        return ""
    if bot["measured"] == NOT_MEASURED:
        return " (its strength not measured for this game, players and options)"
    return f" (measured: {bot['measured']})"


def _best_bot(bots: list[dict], team: bool) -> str:
    """Which bot does best: by its seats' wins, or in a team game, where every seat
    shares the team's result, by its seats' mean score."""
    if team:
        best = max(bots, key=lambda b: (b["score"]["mean"], b["bot"]))
        score = best["score"]
        return (
            f"Of the bots, {best['bot']} scores most: {score['mean']:.1f} points a seat "
            f"({score['low']:.1f} to {score['high']:.1f}); the team's result is every seat's, "
            "so wins do not tell the bots apart."
        )
    best = max(bots, key=lambda b: (b["rate"], b["bot"]))
    if all(b["rate"] == best["rate"] for b in bots):
        return f"The bots win alike: {percent(best['rate'])} of their seats each."
    return (
        f"Of the bots, {best['bot']} wins most: {percent(best['rate'])} of its seats "
        f"({interval(best['low'], best['high'])})."
    )


def _seat_bots(seat: dict) -> str:
    """' (greedy)': the bots a seat played, for a sentence."""
    return f" ({', '.join(seat['bots'])})"


def _seat_finding(summary: dict, seat: dict) -> str:
    better = seat["verdict"] == "advantage"
    word = "advantage" if better else "disadvantage"
    if first_mover(summary.get("game")) == 0:
        if seat["seat"] == 0:
            return f"a first-player {word}"
        if seat["seat"] == summary["players"] - 1:
            return f"a last-player {word}"
    return (
        f"an {word} for {seat_name(seat['seat'])}"
        if better
        else f"a {word} for {seat_name(seat['seat'])}"
    )

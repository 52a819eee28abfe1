"""The balance report: a PDF for people and a JSON file with the same numbers.

The PDF opens with a few plain sentences (what the numbers say), then charts
drawn with reportlab.graphics (histograms, win rates with their intervals,
component effects) and tables. It uses the kit's embedded TrueType fonts only
and is written with invariant=1, so the same run gives a byte-identical file.
Both files are written atomically (a temporary file, then a rename).
"""

# Over 600 lines on purpose: the PDF report's sections are drawn in page order with
# shared styles (report_style.py); the numbers come from stats.py and words.py, the
# charts from report_charts.py.

from __future__ import annotations

import io
import json
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.platypus import (
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from protopress.atomic import write_atomic
from protopress.balance.report_charts import difference_chart, histogram_chart, rate_chart
from protopress.balance.report_style import ALT, GREY, INK, MARGIN, PAGE, WIDTH, Styles
from protopress.balance.run import BalanceRun, _catalog
from protopress.balance.stats import MIN_USES, seat_name, summarize
from protopress.balance.words import coverage_lines, headline, interval, percent
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.games import UnknownGame, spec_for
from protopress.generators.fonts import font

MAX_COMPONENT_BARS = 40
MAX_LISTED_GAMES = 20


# --- the JSON -----------------------------------------------------------------------------


def report_data(run: BalanceRun, summary: dict | None = None, records: bool = True) -> dict:
    """The run, its summary and (by default) every game's record."""
    data = run.to_json(records=False)
    data["summary"] = summary if summary is not None else summarize_run(run)
    if records:
        data["records"] = [record.to_json() for record in run.records]
    return data


def summarize_run(run: BalanceRun, min_uses: int = MIN_USES) -> dict:
    return summarize(
        run.records,
        game=run.game,
        min_uses=min_uses,
        options=run.options,
        offered=offered_components(run),
    )


def offered_components(run: BalanceRun) -> list[str] | None:
    """Every component the run's games put on the table, when the game's engine says
    (its optional `offered(catalog, options)`); None when it does not or cannot."""
    try:
        engine = spec_for(run.game).new_game()
    except UnknownGame:
        return None
    offered = getattr(engine, "offered", None)
    if offered is None:
        return None
    try:
        return sorted(offered(_catalog(run.catalog), run.options))
    except (OSError, InvalidInput, ValueError):  # the catalog moved or changed since the run
        return None


def json_text(data: dict) -> str:
    """Indented JSON, one line per game record (a 10,000-game file stays readable)."""
    head = {key: value for key, value in data.items() if key != "records"}
    text = json.dumps(head, indent=2)
    if "records" not in data:
        return text + "\n"
    lines = ",\n".join("    " + json.dumps(r, separators=(", ", ": ")) for r in data["records"])
    return text[:-2] + ',\n  "records": [\n' + lines + ("\n" if lines else "") + "  ]\n}\n"


def write_json(
    path: Path | str, run: BalanceRun, summary: dict | None = None, records: bool = True
) -> None:
    write_atomic(path, json_text(report_data(run, summary, records)).encode())


def load_run(path: Path | str) -> BalanceRun:
    """A run written by write_json (with its records), for compare; ValueError names the file."""
    try:  # with the limits of every JSON read: at most 64 MiB, a regular file
        data = parse_json_file(Path(path), str(path))
        return BalanceRun.from_json(data)
    except InvalidInput as invalid:
        reason = invalid.problems[0].message if invalid.problems else "invalid JSON"
        raise ValueError(f"{path}: cannot read a balance run ({reason})") from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: cannot read a balance run ({error})") from None


# --- the PDF -----------------------------------------------------------------------------


def write_report(path: Path | str, run: BalanceRun, summary: dict | None = None) -> None:
    """The PDF report of a run (summary: from summarize_run when not given)."""
    write_atomic(path, report_pdf(run, summary))


def report_pdf(run: BalanceRun, summary: dict | None = None) -> bytes:
    summary = summary if summary is not None else summarize_run(run)
    styles = Styles()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"Balance report: {run.game}",
        author="protopress",
        subject=f"{run.covered} games, seed {run.seed}",
        invariant=1,
        initialFontName=styles.sans,
    )

    def footer(canvas, doc):
        canvas.saveState()
        canvas.setFont(styles.sans, 7.5)
        canvas.setFillColor(GREY)
        canvas.drawString(MARGIN, MARGIN / 2, f"protopress balance: {run.game}, seed {run.seed}")
        canvas.drawRightString(PAGE[0] - MARGIN, MARGIN / 2, f"page {doc.page}")
        canvas.restoreState()

    story = _story(run, summary, styles)
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def _story(run: BalanceRun, summary: dict, st: Styles) -> list:
    story = [Paragraph(f"Balance report: {escape(run.game)}", st.title), Spacer(1, 4)]
    options = ", ".join(f"{k}={v}" for k, v in sorted(run.options.items())) or "none"
    story.append(
        Paragraph(
            f"{run.covered} games, {run.players} player{'s' if run.players != 1 else ''}, bots "
            f"{escape(', '.join(run.bots))}{' (rotated through the seats)' if run.rotate else ''}; "
            f"seed {run.seed}; options {escape(options)}; catalog {escape(run.catalog)} "
            f"{escape(run.catalog_version)}.",
            st.small,
        )
    )
    if run.partial:
        story.append(
            Paragraph(
                f"<b>Partial run:</b> interrupted after {run.covered} of {run.games} games; every "
                "figure below covers those games only.",
                st.body,
            )
        )
    story.append(Paragraph("In short", st.h2))
    for line in headline(summary):
        story.append(Paragraph(escape(line), st.bullet, bulletText="\u2022"))
    if not summary.get("games"):
        return story
    for section in (
        _seats(summary, st),
        _scores(summary, st),
        _strategies(summary, st),
        _components(summary, st),
        _bots_played(summary, st),
        _solo(summary, st),
        _team(summary, st),
        _coverage(run, summary, st),
    ):
        story += section  # each heading keeps with what follows it (keepWithNext)
    story.append(Paragraph("How to read this report", st.h2))
    story.append(
        Paragraph(
            "Every rate comes with its 95% interval: the range the true rate lies in, given these "
            "games, 19 times out of 20. A difference matters when the interval leaves out the "
            "value it is compared with (a fair share, or no difference); of the components, "
            "which are many, only a flagged one does (see their section). More games narrow the "
            "intervals. Seats are numbered from 0 (seat 0 is the first in seat order), as in the "
            "JSON file and every command. See docs/balance.md for what each number means.",
            st.body,
        )
    )
    return story


def _table(rows: list[list], st: Styles, widths=None, align_right_from: int = 1) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st.sans),
                ("FONTNAME", (0, 0), (-1, 0), st.bold),
                ("FONTSIZE", (0, 0), (-1, -1), 8),
                ("LEADING", (0, 0), (-1, -1), 10),
                ("TEXTCOLOR", (0, 0), (-1, -1), INK),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
                ("LINEBELOW", (0, -1), (-1, -1), 0.3, GREY),
                (
                    "ROWBACKGROUNDS",
                    (0, 1),
                    (-1, -1),
                    [colors.white, colors.Color(0.96, 0.96, 0.97)],
                ),
                ("ALIGN", (align_right_from, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


def _number(value, digits: int = 1) -> str:
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}"


def _signed(value, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:+.{digits}f}".replace("-", "\u2212")


# --- sections -----------------------------------------------------------------------------


def _seats(summary: dict, st: Styles) -> list:
    seats, scores = summary["seats"], {s["seat"]: s for s in summary["seat_scores"]}
    title = {"versus": "Who wins, by seat", "solo": "The player's wins", "team": "The team's wins"}
    out = [Paragraph(title[summary["outcome"]], st.h2)]
    fair = seats[0]["fair"] if summary["outcome"] == "versus" else None
    untied = bool(fair is not None and summary["ties"]["count"])
    if untied:  # the verdicts read each seat's share of the untied games: so do the bars
        fair = 1 / summary["players"]
    team = summary["outcome"] == "team"  # one result, the team's, shared by every seat
    shown = seats[:1] if team else seats
    chart = rate_chart(
        [
            (
                "Team" if team else seat_name(s["seat"]).capitalize(),
                (s["decided"] if untied else s)["rate"],
                (s["decided"] if untied else s)["low"],
                (s["decided"] if untied else s)["high"],
                s["verdict"] not in (None, "even"),
            )
            for s in shown
        ],
        st,
        reference=fair,
        reference_label="fair share",
    )
    versus = fair is not None
    rows = [["Seat", "Bots", "Wins", "Win rate", "95% interval", "Mean score"]]
    if versus:
        rows[0] += ["Fair share", "Advantage (points)"]
    if team:
        s = seats[0]
        bots = sorted({bot for seat in seats for bot in seat["bots"]})
        rows.append(
            ["Team", ", ".join(bots), f"{s['count']} / {s['trials']}", percent(s["rate"]),
             interval(s["low"], s["high"]), ""]
        )  # fmt: skip
    for s in seats:
        score = scores[s["seat"]]
        wins = s["decided"] if untied else s
        won = ["", "", ""] if team else [
            f"{wins['count']} / {wins['trials']}", percent(wins["rate"]),
            interval(wins["low"], wins["high"]),
        ]  # fmt: skip
        row = [
            seat_name(s["seat"]).capitalize(),
            ", ".join(s["bots"]),
            *won,
            _number(score["mean"]),
        ]
        edge = score.get("advantage")
        if versus:
            row += [
                percent(fair),
                f"{_signed(edge['mean'])} ({_signed(edge['low'])} to {_signed(edge['high'])})",
            ]
        rows.append(row)
    out += [chart, Spacer(1, 4), _table(rows, st, align_right_from=2)]
    if versus and summary.get("seats_hold_different_bots"):
        out.append(Spacer(1, 4))
        out.append(
            Paragraph(
                "The seats hold different bots: a seat's rate measures its bots as much as its "
                "place in turn order. Run with the bots rotated through the seats (--rotate) "
                "to read a seat advantage.",
                st.small,
            )
        )
    ties = summary.get("ties")
    if ties is not None:
        out.append(Spacer(1, 4))
        out.append(
            Paragraph(
                f"Ties: {ties['count']} of {ties['trials']} games ({percent(ties['rate'])}, "
                f"95% {interval(ties['low'], ties['high'])}). "
                + (
                    "With ties, the wins are counted over the untied games, of which each seat's "
                    "fair share is an equal part. "
                    if ties["count"]
                    else ""
                )
                + "The seats' verdicts are corrected for their number (Benjamini-Hochberg). The "
                "advantage in points is the seat's score less its table's mean score, averaged "
                "over games.",
                st.small,
            )
        )
    return out


def _scores(summary: dict, st: Styles) -> list:
    out = [Paragraph("Scores, margins and length", st.h2)]
    charts = [histogram_chart(summary["scores"], "Scores (every seat)", st)]
    margins = summary.get("margins")
    if margins and margins["n"]:
        label = (
            "Margin: player minus rival"
            if summary["outcome"] == "solo"
            else ("Margin: winner minus runner-up")
        )
        charts.append(histogram_chart(margins, label, st, colour=ALT))
    charts.append(histogram_chart(summary["turns"], "Game length (turns)", st, colour=GREY))
    if summary.get("spread"):
        charts.append(
            histogram_chart(summary["spread"], "Spread: highest minus lowest score", st, colour=ALT)
        )
    for i in range(0, len(charts), 2):  # two charts a row, each row a table of its own
        pair = charts[i : i + 2] + [""] * (2 - len(charts[i : i + 2]))
        style = [
            ("FONTNAME", (0, 0), (-1, -1), st.sans),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
        out.append(Table([pair], colWidths=[WIDTH / 2] * 2, hAlign="LEFT", style=style))
    rows = [["", "n", "mean", "sd", "95% interval of the mean", "min", "median", "max"]]
    named = [
        ("Scores", summary["scores"]),
        ("Margins", margins),
        ("Turns", summary["turns"]),
        ("Spread", summary.get("spread")),
    ]
    for name, d in named:
        if d and d["n"]:
            rows.append(
                [
                    name,
                    d["n"],
                    _number(d["mean"], 2),
                    _number(d["sd"], 2),
                    f"{_number(d['low'], 2)} to {_number(d['high'], 2)}",
                    f"{d['min']:g}",
                    f"{d['median']:g}",
                    f"{d['max']:g}",
                ]
            )
    out += [Spacer(1, 4), _table(rows, st)]
    return out


def _strategies(summary: dict, st: Styles) -> list:
    strategy = summary.get("strategies")
    if not strategy:
        return []
    out = [Paragraph("Bot strategies", st.h2)]
    bots = strategy["bots"]
    out.append(rate_chart([(b["bot"], b["rate"], b["low"], b["high"], False) for b in bots], st))
    names = [b["bot"] for b in bots]
    cells = {(h["bot"], h["against"]): h for h in strategy["head_to_head"]}
    rows = [["row against column"] + names]
    for a in names:
        row = [a]
        for b in names:
            h = cells.get((a, b))
            row.append(
                "" if h is None else f"{percent(h['rate'])} ({interval(h['low'], h['high'])})"
            )
        rows.append(row)
    caption = (
        "Each bot's win rate over the seats it played; the table gives, for the bot of the row, "
        "the share of its decided meetings with the bot of the column that it won (higher "
        "score, or winning when the other did not)."
    )
    if summary["outcome"] == "team":
        scores = "; ".join(
            f"{b['bot']} {b['score']['mean']:.1f} ({b['score']['low']:.1f} to "
            f"{b['score']['high']:.1f})"
            for b in bots
        )
        caption += (
            " In a team game every seat shares the team's result, so the win rates are alike "
            f"and the meetings are decided by score. Mean score a seat: {scores}."
        )
    out += [Spacer(1, 4), _table(rows, st), Spacer(1, 3), Paragraph(caption, st.small)]
    return out


def _components(summary: dict, st: Styles) -> list:
    parts = summary.get("components")
    if not parts:
        return []
    items = [e for e in parts["items"] if e["difference"] is not None]
    out = [
        Paragraph("Components", st.h2),
        Paragraph(
            "For each component, the win rate of seats that used it minus that of the other "
            "seats at the same table"
            + (" of the same bot" if parts.get("within") == "bot" else "")
            + ", over the games where some seats used it and some did not (a game counts as "
            "one unit; the two rates shown are over all seat-games), with its 95% interval. "
            f"Red, flagged: used at least {parts['min_uses']} times, and its q-value at most "
            f"the false discovery rate ({parts['correction']}, over the components tested). An "
            "interval leaves out zero by chance for about one component in twenty: only a flag "
            "is a finding, and a finding is association, not proof of cause. A flag that the "
            f"{parts['replication']} do not both show on their own is marked not replicated: "
            "read it as a lead to check with another run.",
            st.small,
        ),
        Spacer(1, 3),
    ]
    shown = sorted(items, key=lambda e: (-abs(e["difference"]), e["id"]))[:MAX_COMPONENT_BARS]
    shown.sort(key=lambda e: (-e["difference"], e["id"]))
    if shown:
        out.append(difference_chart(shown, st))
    rows = [
        [
            "Component",
            "Uses",
            "Won, used",
            "Won, not used",
            "Difference",
            "95% interval",
            "Flag",
        ]
    ]
    flag = {True: "flagged", False: "flagged, not replicated"}
    for e in parts["items"]:
        rows.append(
            [
                Paragraph(escape(str(e["id"])), st.cell),
                e["uses"],
                percent(e["rate"]),
                percent(e["other_rate"]),
                "n/a" if e["difference"] is None else _signed(e["difference"] * 100),
                ""
                if e["low"] is None
                else f"{_signed(e['low'] * 100)} to {_signed(e['high'] * 100)}",
                Paragraph(flag[e["replicates"]], st.cell) if e["flagged"] else "",
            ]
        )
    out += [Spacer(1, 4), _table(rows, st, widths=[118, 36, 60, 70, 54, 78, 76])]
    return out


def _bots_played(summary: dict, st: Styles) -> list:
    """Each bot's rung and measured strength, and the components it used, never or rarely."""
    bots = summary.get("bots") or []
    if not bots:
        return []
    parts = summary.get("components") or {}
    usage = {row["bot"]: row for row in parts.get("usage", [])}
    out = [Paragraph("The bots: how strong, and what they played", st.h2)]
    rows = [["Bot", "Rung", "Measured strength", "Components used", "Never", "Rarely"]]
    for b in bots:
        row = usage.get(b["bot"])
        total = None if row is None else (row["offered"] or row["used"] + len(row["never"]))
        rows.append(
            [
                Paragraph(escape(b["bot"]), st.cell),
                Paragraph(escape(b["rung_says"]), st.cell),
                Paragraph(escape(b["measured"]), st.cell),
                "" if row is None else f"{row['used']} of {total}",
                "" if row is None else str(len(row["never"])),
                "" if row is None else str(len(row["rare"])),
            ]
        )
    out += [Spacer(1, 4), _table(rows, st, widths=[60, 150, 150, 60, 40, 40], align_right_from=3)]
    said = coverage_lines(parts) if parts else []
    if said:
        out.append(Spacer(1, 4))
        out += [Paragraph(escape(line), st.small) for line in said]
    return out


def _solo(summary: dict, st: Styles) -> list:
    rows = summary.get("solo")
    if not rows:
        return []
    out = [Paragraph("Solo: the rival", st.h2)]
    out.append(
        rate_chart(
            [
                (
                    f"{r['difficulty']} rival",
                    r["rival_wins"]["rate"],
                    r["rival_wins"]["low"],
                    r["rival_wins"]["high"],
                    False,
                )
                for r in rows
            ],
            st,
        )
    )
    table = [
        [
            "Difficulty",
            "Games",
            "Rival wins",
            "95% interval",
            "Mean player",
            "Mean rival",
            "Mean margin",
        ]
    ]
    for r in rows:
        w = r["rival_wins"]
        table.append(
            [
                r["difficulty"],
                w["trials"],
                percent(w["rate"]),
                interval(w["low"], w["high"]),
                _number(r["player"]["mean"]),
                _number(r["rival"]["mean"]),
                _signed(r["margin"]["mean"]),
            ]
        )
    out += [Spacer(1, 4), _table(table, st)]
    return out


def _team(summary: dict, st: Styles) -> list:
    team = summary.get("team")
    if not team:
        return []
    out = [Paragraph("Team score against the difficulty targets", st.h2)]
    marks = [(t["points"], t["difficulty"]) for t in team["targets"]]
    out.append(histogram_chart(team["totals"], "Team total", st, width=WIDTH, marks=marks))
    rows = [["Difficulty", "Points", "Games reaching it", "95% interval"]]
    for t in team["targets"]:
        rows.append(
            [t["difficulty"], t["points"], percent(t["rate"]), interval(t["low"], t["high"])]
        )
    out += [Spacer(1, 4), _table(rows, st)]
    return out


def _coverage(run: BalanceRun, summary: dict, st: Styles) -> list:
    cover = summary["coverage"]
    out = [Paragraph("Rules coverage", st.h2)]
    limit, turns = cover["limit"], cover["turn_limit"]
    out.append(
        Paragraph(
            f"Games stopped by the engine's limit (20,000 decisions, or no legal action): "
            f"{limit['count']} ({percent(limit['rate'])}). Games ended by the game's own turn limit: "
            f"{turns['count']} ({percent(turns['rate'])}).",
            st.body,
        )
    )
    listed = limit["games"][:MAX_LISTED_GAMES]
    if listed:
        by_index = {r.index: r for r in run.records}
        rows = [["Game", "Game seed", "Bots"]]
        for g in listed:
            record = by_index.get(g["index"])
            rows.append([g["index"], g["seed"], ", ".join(record.bots) if record else ""])
        out += [_table(rows, st), Spacer(1, 3)]
        more = limit["count"] - len(listed)
        out.append(
            Paragraph(
                (f"{more} more in the JSON file. " if more > 0 else "")
                + f"To see one: <font name='{font('sans-italic').name}'>protopress simulate "
                f"{escape(run.game)} --players {run.players}{escape(_option_flags(run))} "
                f"--seed {run.seed} --games INDEX+1 --log-dir DIR</font> plays the run up to "
                "that game and writes its action log for protopress replay (give each seat's bot "
                "with --bot, as listed).",
                st.small,
            )
        )
    return out


def _option_flags(run: BalanceRun) -> str:
    return "".join(f" --option {key}={value}" for key, value in sorted(run.options.items()))

"""The balance report: a PDF for people and a JSON file with the same numbers.

The PDF opens with a few plain sentences (what the numbers say), then charts
drawn with reportlab.graphics (histograms, win rates with their intervals,
component effects) and tables. It uses the kit's embedded TrueType fonts only
and is written with invariant=1, so the same run gives a byte-identical file.
Both files are written atomically (a temporary file, then a rename).
"""

# Over 600 lines on purpose: the PDF report's sections are drawn in page order with
# shared styles; the numbers come from stats.py and words.py.

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.platypus import (
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from protopress.atomic import write_atomic
from protopress.balance.run import BalanceRun, _catalog
from protopress.balance.stats import MIN_USES, seat_name, summarize
from protopress.balance.words import coverage_lines, headline, interval, percent
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.games import UnknownGame, spec_for
from protopress.generators.fonts import font

PAGE = A4
MARGIN = 18 * mm
WIDTH = PAGE[0] - 2 * MARGIN
INK = colors.Color(0.15, 0.15, 0.18)
GREY = colors.Color(0.55, 0.55, 0.6)
LIGHT = colors.Color(0.9, 0.9, 0.92)
BAR = colors.Color(0.27, 0.45, 0.7)
ALT = colors.Color(0.85, 0.5, 0.2)
FLAG = colors.Color(0.78, 0.2, 0.2)
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


class _Styles:
    def __init__(self):
        sans, bold = font("sans").name, font("sans-bold").name
        italic, bold_italic = font("sans-italic").name, font("sans-bold-italic").name
        registerFontFamily(sans, normal=sans, bold=bold, italic=italic, boldItalic=bold_italic)
        self.sans, self.bold = sans, bold
        base = {"fontName": sans, "textColor": INK}
        self.title = ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, textColor=INK)
        self.h2 = ParagraphStyle(
            "h2",
            fontName=bold,
            fontSize=12.5,
            leading=16,
            spaceBefore=10,
            spaceAfter=4,
            textColor=INK,
            keepWithNext=1,  # a heading never ends a page
        )
        self.body = ParagraphStyle("body", fontSize=9.5, leading=13, spaceAfter=3, **base)
        self.small = ParagraphStyle(
            "small", fontSize=8, leading=10.5, textColor=GREY, fontName=sans
        )
        self.bullet = ParagraphStyle(
            "bullet",
            fontSize=10.5,
            leading=14.5,
            leftIndent=12,
            bulletIndent=2,
            spaceAfter=2,
            bulletFontName=sans,
            **base,
        )
        self.cell = ParagraphStyle("cell", fontSize=8, leading=10, **base)


def write_report(path: Path | str, run: BalanceRun, summary: dict | None = None) -> None:
    """The PDF report of a run (summary: from summarize_run when not given)."""
    write_atomic(path, report_pdf(run, summary))


def report_pdf(run: BalanceRun, summary: dict | None = None) -> bytes:
    summary = summary if summary is not None else summarize_run(run)
    styles = _Styles()
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


def _story(run: BalanceRun, summary: dict, st: _Styles) -> list:
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


def _table(rows: list[list], st: _Styles, widths=None, align_right_from: int = 1) -> Table:
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


def _seats(summary: dict, st: _Styles) -> list:
    seats, scores = summary["seats"], {s["seat"]: s for s in summary["seat_scores"]}
    title = {"versus": "Who wins, by seat", "solo": "The player's wins", "team": "The team's wins"}
    out = [Paragraph(title[summary["outcome"]], st.h2)]
    fair = seats[0]["fair"] if summary["outcome"] == "versus" else None
    untied = bool(fair is not None and summary["ties"]["count"])
    if untied:  # the verdicts read each seat's share of the untied games: so do the bars
        fair = 1 / summary["players"]
    team = summary["outcome"] == "team"  # one result, the team's, shared by every seat
    shown = seats[:1] if team else seats
    chart = _rate_chart(
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


def _scores(summary: dict, st: _Styles) -> list:
    out = [Paragraph("Scores, margins and length", st.h2)]
    charts = [_histogram_chart(summary["scores"], "Scores (every seat)", st)]
    margins = summary.get("margins")
    if margins and margins["n"]:
        label = (
            "Margin: player minus rival"
            if summary["outcome"] == "solo"
            else ("Margin: winner minus runner-up")
        )
        charts.append(_histogram_chart(margins, label, st, colour=ALT))
    charts.append(_histogram_chart(summary["turns"], "Game length (turns)", st, colour=GREY))
    if summary.get("spread"):
        charts.append(
            _histogram_chart(
                summary["spread"], "Spread: highest minus lowest score", st, colour=ALT
            )
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


def _strategies(summary: dict, st: _Styles) -> list:
    strategy = summary.get("strategies")
    if not strategy:
        return []
    out = [Paragraph("Bot strategies", st.h2)]
    bots = strategy["bots"]
    out.append(_rate_chart([(b["bot"], b["rate"], b["low"], b["high"], False) for b in bots], st))
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


def _components(summary: dict, st: _Styles) -> list:
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
        out.append(_difference_chart(shown, st))
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


def _bots_played(summary: dict, st: _Styles) -> list:
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


def _solo(summary: dict, st: _Styles) -> list:
    rows = summary.get("solo")
    if not rows:
        return []
    out = [Paragraph("Solo: the rival", st.h2)]
    out.append(
        _rate_chart(
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


def _team(summary: dict, st: _Styles) -> list:
    team = summary.get("team")
    if not team:
        return []
    out = [Paragraph("Team score against the difficulty targets", st.h2)]
    marks = [(t["points"], t["difficulty"]) for t in team["targets"]]
    out.append(_histogram_chart(team["totals"], "Team total", st, width=WIDTH, marks=marks))
    rows = [["Difficulty", "Points", "Games reaching it", "95% interval"]]
    for t in team["targets"]:
        rows.append(
            [t["difficulty"], t["points"], percent(t["rate"]), interval(t["low"], t["high"])]
        )
    out += [Spacer(1, 4), _table(rows, st)]
    return out


def _coverage(run: BalanceRun, summary: dict, st: _Styles) -> list:
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


# --- charts ---------------------------------------------------------------------------------


def _text(drawing, x, y, text, st, size=6.5, anchor="start", colour=GREY, bold=False) -> None:
    name = st.bold if bold else st.sans
    drawing.add(
        String(x, y, text, fontName=name, fontSize=size, textAnchor=anchor, fillColor=colour)
    )


def _line(drawing, x1, y1, x2, y2, colour=INK, width=0.6, dash=None) -> None:
    drawing.add(Line(x1, y1, x2, y2, strokeColor=colour, strokeWidth=width, strokeDashArray=dash))


def _nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` ticks."""
    raw = span / ticks if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _histogram_chart(
    d: dict,
    title: str,
    st: _Styles,
    colour=BAR,
    width: float = WIDTH / 2 - 6,
    height: float = 124,
    marks=(),
) -> Drawing:
    """Bars of a distribution's histogram, its mean dashed, optional marks (value, label)."""
    bins = d.get("histogram") or []
    left, bottom, top = 26, 16, height - 30
    plot_w = width - left - 8
    lo, hi = (bins[0]["low"], bins[-1]["high"]) if bins else (0, 1)
    span = (hi - lo) or 1

    def x(value):
        return left + (value - lo) / span * plot_w

    labels = _mark_rows([(x(v), f"{label} {v:g}") for v, label in marks if lo <= v <= hi], st)
    rows = 1 + max((row for _, _, row in labels), default=0)
    drawing = Drawing(width, height + MARK_ROW * (rows - 1), initialFontName=st.sans, hAlign="LEFT")
    _text(drawing, 0, drawing.height - 10, title, st, size=8.5, colour=INK, bold=True)
    plot_h = top - bottom
    if not bins:
        return drawing
    peak = max(b["count"] for b in bins) or 1
    for b in bins:
        if b["count"]:
            w = max(0.4, x(b["high"]) - x(b["low"]) - 0.8)
            h = b["count"] / peak * plot_h
            drawing.add(Rect(x(b["low"]) + 0.4, bottom, w, h, fillColor=colour, strokeColor=None))
    _line(drawing, left, bottom, left + plot_w, bottom)
    _line(drawing, left, bottom, left, top)
    _text(drawing, left - 3, top - 3, str(peak), st, anchor="end")
    _text(drawing, left - 3, bottom - 2, "0", st, anchor="end")
    every = max(1, -(-len(bins) // 6))
    for i in range(0, len(bins) + 1, every):
        edge = bins[i]["low"] if i < len(bins) else hi
        _text(drawing, x(edge), bottom - 9, _axis_label(edge), st, anchor="middle")
    if d.get("mean") is not None:
        mx = x(d["mean"])
        _line(drawing, mx, bottom, mx, top + 4, width=0.8, dash=[2, 2])
        _text(drawing, mx, top + 6, f"mean {d['mean']:.1f}", st, anchor="middle", colour=INK)
    for at, text, row in labels:
        _line(drawing, at, bottom, at, top + 12 + MARK_ROW * row, colour=FLAG, width=0.5)
        _text(drawing, at, top + 14 + MARK_ROW * row, text, st, size=5.5, anchor="middle",
              colour=FLAG)  # fmt: skip
    return drawing


MARK_ROW = 7  # points between rows of mark labels


def _mark_rows(marks: list[tuple[float, str]], st: _Styles) -> list[tuple[float, str, int]]:
    """Each mark label (x, text) with the lowest row where it overlaps no label before it."""
    ends: list[float] = []  # per row: where its last label ends
    placed = []
    for at, text in sorted(marks):
        half = stringWidth(text, st.sans, 5.5) / 2 + 2
        row = next((r for r, end in enumerate(ends) if at - half > end), len(ends))
        if row == len(ends):
            ends.append(0.0)
        ends[row] = at + half
        placed.append((at, text, row))
    return placed


def _axis_label(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e5 else f"{value:.3g}"


def _rate_chart(
    items: list[tuple],
    st: _Styles,
    reference: float | None = None,
    reference_label: str = "",
    width: float = WIDTH,
    height: float = 116,
) -> Drawing:
    """Bars of rates (label, rate, low, high, highlighted), 0 to 100%, with 95% whiskers."""
    drawing = Drawing(width, height, initialFontName=st.sans, hAlign="LEFT")
    left, bottom, top = 30, 16, height - 14
    plot_w, plot_h = width - left - 72, top - bottom

    def y(rate):
        return bottom + rate * plot_h

    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        _line(drawing, left, y(tick), left + plot_w, y(tick), colour=LIGHT, width=0.5)
        _text(drawing, left - 3, y(tick) - 2, f"{tick:.0%}", st, anchor="end")
    slot = plot_w / max(1, len(items))
    bar = min(46, slot * 0.6)
    for i, (label, rate, low, high, highlighted) in enumerate(items):
        cx = left + slot * (i + 0.5)
        if rate is not None:
            fill = FLAG if highlighted else BAR
            drawing.add(
                Rect(cx - bar / 2, bottom, bar, rate * plot_h, fillColor=fill, strokeColor=None)
            )
        if low is not None and high is not None:
            _line(drawing, cx, y(low), cx, y(high), width=0.9)
            for value in (low, high):
                _line(drawing, cx - 4, y(value), cx + 4, y(value), width=0.9)
        if rate is not None:
            above = y(high if high is not None else rate) + 3
            _text(
                drawing,
                cx,
                above,
                f"{rate:.0%}",
                st,
                size=7,
                anchor="middle",
                colour=INK,
                bold=True,
            )
        _text(drawing, cx, bottom - 10, str(label)[:24], st, size=7, anchor="middle", colour=INK)
    if reference is not None:
        _line(
            drawing,
            left,
            y(reference),
            left + plot_w,
            y(reference),
            colour=ALT,
            width=0.9,
            dash=[3, 2],
        )
        _text(
            drawing,
            left + plot_w + 4,
            y(reference) - 2,
            f"{reference_label} {reference:.0%}",
            st,
            colour=ALT,
        )
    return drawing


def _difference_chart(items: list[dict], st: _Styles, width: float = WIDTH) -> Drawing:
    """Horizontal bars of win-rate differences (points) with 95% whiskers about zero."""
    row, top_pad, bottom_pad, label_w = 11, 6, 26, 150
    height = top_pad + bottom_pad + row * len(items)
    drawing = Drawing(width, height, initialFontName=st.sans, hAlign="LEFT")
    plot_l, plot_r = label_w + 6, width - 10
    extent = max(max(abs(e["low"]), abs(e["high"])) for e in items)
    extent = max(0.05, min(1.0, extent * 1.05))
    step = _nice_step(extent, 3)

    def x(value):
        return plot_l + (value + extent) / (2 * extent) * (plot_r - plot_l)

    base, roof = bottom_pad, height - top_pad
    tick = -math.floor(extent / step) * step
    while tick <= extent + 1e-9:
        _line(drawing, x(tick), base, x(tick), roof, colour=LIGHT, width=0.5)
        label = f"{tick * 100:+g}" if abs(tick) > 1e-9 else "0"
        _text(drawing, x(tick), base - 9, label.replace("-", "\u2212"), st, anchor="middle")
        tick += step
    _line(drawing, x(0), base, x(0), roof, width=0.7)
    for i, e in enumerate(items):
        cy = roof - row * (i + 0.5)
        start, end = sorted((x(0), x(e["difference"])))
        fill = FLAG if e["flagged"] else BAR
        drawing.add(
            Rect(start, cy - 3.5, max(0.5, end - start), 7, fillColor=fill, strokeColor=None)
        )
        _line(drawing, x(e["low"]), cy, x(e["high"]), cy, width=0.7)
        for value in (e["low"], e["high"]):
            _line(drawing, x(value), cy - 2.5, x(value), cy + 2.5, width=0.7)
        _text(drawing, label_w, cy - 2.5, str(e["id"])[:34], st, size=7, anchor="end", colour=INK)
    _text(
        drawing,
        (plot_l + plot_r) / 2,
        base - 19,
        "win rate of seats that used it minus that of the other seats at their table (percentage points)",
        st,
        anchor="middle",
    )
    return drawing

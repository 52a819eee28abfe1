"""Balance statistics: pure functions from game records to numbers with 95% intervals.

Every function takes `GameRecord`s (protopress.rules.simulate) and returns plain
JSON-ready values, the same for the same records in the same order.

The intervals are those of protopress.balance.intervals; their words are in
protopress.balance.words, the comparison of two runs in protopress.balance.compare.

Seats are numbered from 0 everywhere: here, in the JSON, the report and the
plain-language lines, as in the records and every command-line option
(`seat_name`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import NamedTuple

from protopress.balance.intervals import (
    MAX_BINS,
    Stratum,
    _r,
    benjamini_hochberg,
    distribution,
    mean_interval,
    proportion,
    share_p_value,
    within_game_difference,
)
from protopress.balance.strength import bot_strengths

MIN_USES = 30  # seat-games a component needs before it may be flagged
FDR = 0.05  # false discovery rate of the component flags (Benjamini-Hochberg)
DIFFICULTY_ORDER = ("normal", "hard")


# --- what a record says -------------------------------------------------------------


def seat_name(seat: int) -> str:
    """A seat as people read it: "seat 0" is the first in seat order, as in `play --seat`,
    simulate's summary, the records and their logs."""
    return f"seat {seat}"


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
    the games not tied, split evenly. The verdict takes the game as the unit:
    each seat's share of the decided games (`decided`, one game one trial; the
    seats of one game are never counted as independent samples of each other)
    against 1/players, by the score test that Wilson's interval inverts, its
    p-values corrected over the seats by Benjamini-Hochberg at FDR. With two
    players the seats' tests are one paired test (seat 0's share of the decided
    games), and a verdict is the interval leaving one half out.
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
        won = sum(seat_won(r, seat) for r in records)
        entry = {"seat": seat, "bots": _seat_bots(records, seat), **proportion(won, games)}
        entry["fair"] = _r(fair)
        entry["verdict"] = None
        if versus:
            entry["decided"] = proportion(won, games - tied)
            entry["p"] = share_p_value(won, games - tied, 1 / players)
        seats.append(entry)
    if versus:
        for entry, q in zip(seats, benjamini_hochberg([e["p"] for e in seats]), strict=True):
            ahead = entry["count"] > (games - tied) / players
            entry["verdict"] = "even" if q > FDR else "advantage" if ahead else "disadvantage"
            entry["p"], entry["q"] = _r(entry["p"]), _r(q)
    return seats


def _seat_bots(records, seat: int) -> list[str]:
    return sorted({r.bots[seat] for r in records})


def seats_hold_different_bots(records: Sequence) -> bool:
    """Whether the seats did not all play each bot equally often (within one game, as
    a rotation that does not divide the games leaves them): then a seat's win rate
    measures its bots as much as its place in turn order, and a seat verdict
    cannot be read as an advantage of seating (balance --rotate seats every bot in
    every place in turn)."""
    if not records:
        return False
    per_seat = [Counter(r.bots[seat] for r in records) for seat in range(len(records[0].bots))]
    names = set().union(*per_seat)
    return any(abs(bots[name] - per_seat[0][name]) > 1 for bots in per_seat[1:] for name in names)


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
    """When bots are mixed: each bot's win rate and mean score over the seats it played,
    and head to head. In a team game every seat shares the team's result, so only
    the scores (and the head to head, decided by them) tell the bots apart.

    Head to head, every pair of seats in a game with bot A against bot B is one
    meeting: A wins it when A is among the winners and B is not, or, when both
    or neither are, by a higher score; equal scores are a draw. The rate is A's
    wins over the decided meetings. Meetings within one game share its dice,
    so with more than two seats the interval is somewhat optimistic.
    """
    names = sorted({bot for r in records for bot in r.bots})
    if len(names) < 2:
        return None
    seats: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    scores: dict[str, list[float]] = defaultdict(list)
    meetings: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # won, lost, drawn
    for r in records:
        for seat, bot in enumerate(r.bots):
            seats[bot] += 1
            wins[bot] += seat_won(r, seat)
            scores[bot].append(r.scores[seat])
        for a, bot_a in enumerate(r.bots):
            for b, bot_b in enumerate(r.bots):
                if bot_a == bot_b:
                    continue
                meetings[bot_a, bot_b][_meeting(r, a, b)] += 1
    head_to_head = []
    for (bot, other), (won, lost, drawn) in sorted(meetings.items()):
        decided = proportion(won, won + lost)
        head_to_head.append(
            {
                "bot": bot,
                "against": other,
                "meetings": won + lost + drawn,
                "won": won,
                "lost": lost,
                "drawn": drawn,
                **decided,
            }
        )
    return {
        "bots": [
            {"bot": bot, **proportion(wins[bot], seats[bot]), "score": mean_interval(scores[bot])}
            for bot in names
        ],
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


class SeatGame(NamedTuple):
    """One seat in one game, as the component statistics read it."""

    game: int  # the game's place in the records
    half: int  # 0 for an even-numbered game (by its index), 1 for an odd one
    seat: int
    used: frozenset[str]
    won: bool
    bot: str


def components(
    records: Sequence, min_uses: int = MIN_USES, offered: Sequence[str] | None = None
) -> dict | None:
    """Per component (record extra "used", ids per seat): does using it go with winning?

    The game is the unit: each component is judged within games, the seats that
    used it against the seats at the same table (of the same bot, when the bots
    are mixed) that did not (intervals.within_game_difference), so that the
    opposite results of one game's seats are not counted as independent samples.
    A component is flagged when it was used at least min_uses times and its
    Benjamini-Hochberg q-value, over all components compared, is at most FDR.
    Each flag says whether it replicates: the even-numbered games and the
    odd-numbered games each show it on their own (same sign, p at most FDR).
    Association, not cause: a strong player's seat may simply play more cards.
    offered: every component the games put on the table (the engine's `offered`),
    so that those no seat used are counted too.
    """
    rows = [
        SeatGame(game, r.index % 2, seat, frozenset(used[seat]), seat_won(r, seat), _bot(r, seat))
        for game, r in enumerate(records)
        if isinstance(used := r.extra.get("used"), list)
        for seat in range(min(len(used), len(r.scores)))
    ]
    if not rows:
        return None
    total, total_wins = len(rows), sum(row.won for row in rows)
    uses: Counter[str] = Counter()
    use_wins: Counter[str] = Counter()
    seats_of: Counter[str] = Counter()  # seat-games per bot
    bot_uses: Counter[tuple[str, str]] = Counter()
    # per half (0: even-numbered games, 1: odd) and component: game cells and their games
    cells: list[dict[str, Counter[Stratum]]] = [defaultdict(Counter), defaultdict(Counter)]
    rows.sort(key=lambda row: (row.game, row.bot, row.seat))  # a game's seats of a bot together
    for (_, bot), group in groupby(rows, key=lambda row: (row.game, row.bot)):
        table = list(group)
        seats_of[bot] += len(table)
        wins = sum(row.won for row in table)
        tally: dict[str, list[int]] = {}  # component: [seats that used it, of them winners]
        for row in table:
            for item in row.used:
                counts = tally.setdefault(item, [0, 0])
                counts[0] += 1
                counts[1] += row.won
        for item, (n1, s1) in tally.items():
            uses[item] += n1
            use_wins[item] += s1
            bot_uses[item, bot] += n1
            cells[table[0].half][item][Stratum(n1, s1, len(table) - n1, wins - s1)] += 1
    mixed = len(seats_of) > 1
    items = []
    for item in sorted(uses):
        n1, s1 = uses[item], use_wins[item]
        n2, s2 = total - n1, total_wins - use_wins[item]
        entry: dict = {
            "id": item,
            "uses": n1,
            "wins": s1,
            "rate": _r(s1 / n1),
            "others": n2,
            "other_wins": s2,
            "other_rate": _r(s2 / n2) if n2 else None,
        }
        effect = within_game_difference(cells[0][item] + cells[1][item])
        if effect is None:  # no table had a user beside a non-user (of its bot)
            entry.update(difference=None, low=None, high=None, p=None)
        else:
            entry.update(
                difference=_r(effect.difference), low=_r(effect.low), high=_r(effect.high),
                p=effect.p,
            )  # fmt: skip
        items.append(entry)
    tested = [e for e in items if e["p"] is not None and e["uses"] >= min_uses]
    for entry, q in zip(tested, benjamini_hochberg([e["p"] for e in tested]), strict=True):
        entry["q"] = _r(q)
    for entry in items:
        entry.setdefault("q", None)
        entry["flagged"] = entry["q"] is not None and entry["q"] <= FDR
        if entry["flagged"]:
            entry["replicates"] = _replicates(entry, [half[entry["id"]] for half in cells])
        entry["p"] = _r(entry["p"]) if entry["p"] is not None else None
    items.sort(key=lambda e: (e["difference"] is None, -(e["difference"] or 0), e["id"]))
    return {
        "min_uses": min_uses,
        "correction": f"Benjamini-Hochberg, false discovery rate {FDR:.0%}",
        "unit": "game",  # compared within games: seats at one table against each other
        "within": "bot" if mixed else None,  # mixed bots: within the game's seats of each bot
        "replication": "even- and odd-numbered games",
        "seat_games": total,
        "items": items,
        "flagged": [e["id"] for e in items if e["flagged"]],
        "not_replicated": [e["id"] for e in items if e["flagged"] and not e["replicates"]],
        "usage": usage(seats_of, bot_uses, min_uses, offered),
    }


def _replicates(entry: dict, halves: list[Counter[Stratum]]) -> bool:
    """Whether each half of the run shows the effect on its own: the same sign as
    the whole run's and a p-value at most FDR."""
    found = [within_game_difference(cells) for cells in halves]
    return all(
        half is not None and half.p <= FDR and (half.difference > 0) == (entry["difference"] > 0)
        for half in found
    )


def _bot(record, seat: int) -> str:
    return record.bots[seat] if seat < len(record.bots) else ""


def usage(
    seats_of: Counter[str],
    bot_uses: Counter[tuple[str, str]],
    min_uses: int,
    offered: Sequence[str] | None = None,
) -> list[dict]:
    """Per bot: its seat-games, the components its seats never used and those they
    used fewer than min_uses times (with the count): what the run says little about.
    Without `offered`, "never" counts only components some other bot used."""
    everything = sorted(set(offered or ()) | {item for item, _ in bot_uses})
    rows = []
    for bot, seat_games in sorted(seats_of.items()):
        count = {item: bot_uses[item, bot] for item in everything}
        rows.append(
            {
                "bot": bot,
                "seat_games": seat_games,
                "offered": len(everything) if offered is not None else None,
                "used": sum(n > 0 for n in count.values()),
                "never": [item for item in everything if not count[item]],
                "rare": [
                    {"id": item, "uses": count[item]}
                    for item in sorted(everything, key=lambda i: (count[i], i))
                    if 0 < count[item] < min_uses
                ],
            }
        )
    return rows


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
                "rival": mean_interval(
                    [s for r in games if (s := r.outcome.rival_score) is not None]
                ),
                "margin": distribution(
                    [m for r in games if (m := margin(r)) is not None], max_bins
                ),
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
    options: Mapping[str, object] | None = None,
    offered: Sequence[str] | None = None,
) -> dict:
    """Every statistic of a run's records, as one JSON-ready dictionary.

    options: the run's game options (to find the bots' measured strength);
    offered: every component the games put on the table (see components)."""
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
        "seats_hold_different_bots": seats_hold_different_bots(records),
        "ties": tie_rate(records) if kind == "versus" else None,
        "scores": distribution([s for r in records for s in r.scores], max_bins),
        "seat_scores": seat_scores(records),
        "spread": spread(records, max_bins) if kind == "versus" else None,
        "margins": distribution(margins, max_bins) if margins else None,
        "turns": distribution([r.turns for r in records], max_bins),
        "strategies": strategies(records),
        "components": components(records, min_uses, offered),
        "bots": bot_strengths(
            game, len(records[0].scores), options or {}, [b for r in records for b in r.bots]
        ),
        "coverage": coverage(records),
        "solo": solo(records, max_bins),
        "team": team(records, difficulty_targets(game), max_bins=max_bins),
    }

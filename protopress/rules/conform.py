"""The conformance suite: what every game's engine must do, checked on played games.

A game passes when, over seeded games played by random and greedy bots at
every player count it allows:

- legal-actions: while the game runs a seat is to move and has a legal action;
  once it is over no seat is to move and no action is offered;
- illegal-refused: an action that is not legal (one legal elsewhere in the game,
  or a legal one with a part changed) is refused by `core.checked_apply` with
  IllegalAction, and the state is left as it was;
- copy-independent: a copy shows what its original shows; applying an action to
  a copy leaves the original playing as an untouched twin does, and playing on
  in the original leaves an earlier copy as it was (snapshots of the states'
  data, rules/snapshot.py, name what changed);
- deterministic: the same seed and bots play the same actions to the same scores;
- replay: the game's action log, written to JSON and read back, replays to the
  same scores;
- outcome: at the end one score per seat, the winners and the typed outcome
  agree with the scores and the game's declared outcome kinds;
- fast-paths: where the game offers a fast `action_values` or `best_actions`,
  they equal the by-the-book look-ahead (copy, apply, heuristic), and a
  `playout_step` plays `playout_policy`'s move, on every examined decision;
- seat-view twins: every hidden field the seat view declares, dealt again in a
  twin of a position, leaves greedy, greedy:3 and mcts:20 deciding the same.

Each check is a named function giving typed findings, each located by seed,
player count and decision. The work is bounded: `games` games per player count,
at most `decisions` decisions of each examined (spread over the whole game).
`assert_conforms` runs the suite from a designer's own tests. The checks are in
conform_checks.py, the values they share with the suite in conform_types.py.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.components.loader import load_catalog
from protopress.rules.conform_checks import (
    check_copy_independent,
    check_deterministic,
    check_fast_paths,
    check_illegal_refused,
    check_legal_actions,
    check_outcome,
    check_replay,
    check_seat_view_twins,
)
from protopress.rules.conform_types import Case, Check, Finding, Played, Subject, Walk
from protopress.rules.core import derive_seed
from protopress.rules.simulate import play
from protopress.rules.spec import GameSpec

__all__ = [
    "BOTS",
    "CHECKS",
    "DEFAULT_DECISIONS",
    "DEFAULT_GAMES",
    "CheckResult",
    "Finding",
    "NamedCheck",
    "Report",
    "Settings",
    "Skipped",
    "Subject",
    "assert_conforms",
    "cases",
    "run_suite",
    "subject_of",
]

BOTS = ("random", "greedy")  # the bots take turns, game by game and count by count
DEFAULT_GAMES = 2  # per player count: one game of each bot
DEFAULT_DECISIONS = 300  # decisions examined per game, spread over the game


# --- what the suite reports ---------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """A check's verdict over the games it examined, and the time it took."""

    check: str
    games: int
    seconds: float
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings

    def line(self) -> str:
        verdict = "ok" if self.ok else f"FAIL ({len(self.findings)})"
        return f"{self.check:<18} {verdict:<10} {self.games:>4} games {self.seconds:>7.2f} s"

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "ok": self.ok,
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "findings": [finding.to_json() for finding in self.findings],
        }


@dataclass(frozen=True)
class Skipped:
    """A player count the game would not set up with the options given, and why."""

    players: int
    reason: str


@dataclass(frozen=True)
class Report:
    """The suite's verdict on one game: each check's result, the counts skipped."""

    game: str
    results: tuple[CheckResult, ...]
    skipped: tuple[Skipped, ...] = ()

    @property
    def ok(self) -> bool:
        """Every check passed on at least one game played."""
        played = self.results[0].games if self.results else 0
        return played > 0 and all(result.ok for result in self.results)

    @property
    def findings(self) -> list[Finding]:
        return [finding for result in self.results for finding in result.findings]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ok": self.ok,
            "checks": [result.to_json() for result in self.results],
            "skipped": [dataclasses.asdict(skip) for skip in self.skipped],
        }


# --- what is checked, and how much ----------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """How much the suite plays: games per player count, decisions examined per game
    and the player counts (None: every count the game allows)."""

    games: int = DEFAULT_GAMES
    seed: int = 0
    decisions: int = DEFAULT_DECISIONS
    players: tuple[int, ...] | None = None


@dataclass(frozen=True)
class NamedCheck:
    name: str
    run: Check


CHECKS: tuple[NamedCheck, ...] = (
    NamedCheck("legal-actions", check_legal_actions),
    NamedCheck("illegal-refused", check_illegal_refused),
    NamedCheck("copy-independent", check_copy_independent),
    NamedCheck("deterministic", check_deterministic),
    NamedCheck("replay", check_replay),
    NamedCheck("outcome", check_outcome),
    NamedCheck("fast-paths", check_fast_paths),
    NamedCheck("seat-view-twins", check_seat_view_twins),
)


# --- running the suite --------------------------------------------------------------------


def subject_of(
    spec: GameSpec, catalog: Any = None, options: Mapping[str, object] | None = None
) -> Subject:
    """The spec's game with its own catalog (or the one given) and its typed options."""
    if catalog is None:
        if spec.catalog_path is None:
            raise ValueError(f"{spec.id} has no catalog of its own: give one")
        catalog = load_catalog(spec.catalog_path, display=spec.catalog_path.name)
    typed = spec.parse_options(options or {})
    return Subject(spec.id, spec.new_game, catalog, typed, spec)


def cases(spec_range: tuple[int, int], settings: Settings) -> list[Case]:
    """games games at each player count (the ones asked for, within the game's range)."""
    low, high = spec_range
    counts = settings.players or tuple(range(low, high + 1))
    outside = [count for count in counts if not low <= count <= high]
    if outside:
        raise ValueError(f"the game takes {low} to {high} players, not {outside[0]}")
    return [
        Case(
            derive_seed(settings.seed, "conform", players, index),
            players,
            (BOTS[(index + players) % len(BOTS)],) * players,
        )
        for players in counts
        for index in range(settings.games)
    ]


def run_suite(
    subject: Subject, settings: Settings | None = None, checks: Sequence[NamedCheck] = CHECKS
) -> Report:
    """Play the cases, then run every check on every game played; a game's error
    inside a check is a finding of that check, located where it happened. A player
    count whose setup the game refuses with ValueError (say, an option of the solo
    game at two players) is skipped and said so."""
    settings = settings or Settings()
    game = subject.new_game()
    start = time.perf_counter()
    played: list[Played] = []
    failed: list[Finding] = []
    refused: dict[int, str] = {}
    for case in cases((game.min_players, game.max_players), settings):
        if case.players not in refused:
            reason = _refusal(game, subject, case.players)
            if reason is not None:
                refused[case.players] = reason
        if case.players in refused:
            continue
        try:
            final, record, actions = play(
                game, subject.catalog, list(case.bots), case.seed, dict(subject.options)
            )
        except Exception as error:  # the game's own code failed: a finding, not a crash
            failed.append(Finding("play", case.seed, case.players, None, _raised(error)))
            continue
        played.append(Played(case, game, final, record, actions))
    results = [CheckResult("play", len(played) + len(failed), _since(start), tuple(failed))]
    for check in checks:
        start = time.perf_counter()
        findings: list[Finding] = []
        for one in played:
            walk = Walk(subject, one, settings.decisions)
            try:
                findings += check.run(subject, one, walk)
            except Exception as error:
                findings.append(one.finding(check.name, walk.decision, _raised(error)))
        results.append(CheckResult(check.name, len(played), _since(start), tuple(findings)))
    skipped = tuple(Skipped(players, reason) for players, reason in refused.items())
    return Report(subject.game_id, tuple(results), skipped)


def _refusal(game: Any, subject: Subject, players: int) -> str | None:
    """The game's reason for refusing to set up this many players, or None."""
    try:
        game.setup(subject.catalog, players, random.Random(0), dict(subject.options))
    except ValueError as error:
        return " ".join(str(error).split())[:200]
    except Exception:  # not a refusal but a failure: playing the game reports it
        return None
    return None


def _raised(error: Exception) -> str:
    text = " ".join(str(error).split())
    return f"raised {type(error).__name__}: {text[:200]}"


def _since(start: float) -> float:
    return time.perf_counter() - start


def assert_conforms(
    game: Any,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    decisions: int = DEFAULT_DECISIONS,
    players: Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    catalog: Any = None,
) -> Report:
    """Run the suite on a game and raise AssertionError listing the findings when it
    fails; for a designer's own tests. game is a GameSpec, an engine (class or
    instance) with a `spec`, or a Subject; the spec's own catalog is used unless
    one is given. Returns the report when every check passes."""
    if isinstance(game, Subject):
        subject = game
    else:
        spec = game if isinstance(game, GameSpec) else getattr(game, "spec", None)
        if not isinstance(spec, GameSpec):
            raise TypeError(f"expected a GameSpec, an engine with a spec or a Subject: {game!r}")
        subject = subject_of(spec, catalog, options)
    settings = Settings(games, seed, decisions, tuple(players) if players else None)
    report = run_suite(subject, settings)
    if not report.ok:
        shown = report.findings[:20]
        more = len(report.findings) - len(shown)
        lines = [str(finding) for finding in shown] + ([f"... and {more} more"] if more else [])
        if not shown:
            lines = ["no game could be set up: " + "; ".join(s.reason for s in report.skipped)]
        raise AssertionError(f"{subject.game_id} does not conform:\n" + "\n".join(lines))
    return report

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
`assert_conforms` runs the suite from a designer's own tests.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.components.loader import load_catalog
from protopress.rules.bot_support import bot_support
from protopress.rules.bots import reference_values
from protopress.rules.core import Action, IllegalAction, checked_apply, derive_seed
from protopress.rules.fairness import TwinsDiffer, check_twins
from protopress.rules.simulate import GameRecord, log_of, log_problems, outcome_of, play, replay
from protopress.rules.snapshot import Snapshots, first_difference, snapshot
from protopress.rules.spec import GameSpec, OutcomeKind

BOTS = ("random", "greedy")  # the bots take turns, game by game and count by count
DEFAULT_GAMES = 2  # per player count: one game of each bot
DEFAULT_DECISIONS = 300  # decisions examined per game, spread over the game
TOLERANCE = 1e-9  # a fast action value may differ from the reference by this much


# --- what the suite reports ---------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One way a game fails a check, located: which game (seed and seats) and which
    decision (None for a finding about the whole game)."""

    check: str
    seed: int
    players: int
    decision: int | None
    message: str

    def __str__(self) -> str:
        where = "" if self.decision is None else f", decision {self.decision}"
        return f"{self.check}: seed {self.seed}, {self.players} players{where}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


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
class Subject:
    """The game under test: a way to make a fresh engine, its catalog and options."""

    game_id: str
    new_game: Callable[[], Any]
    catalog: Any
    options: Mapping[str, object]
    spec: GameSpec | None


@dataclass(frozen=True)
class Case:
    """One seeded game of the suite."""

    seed: int
    players: int
    bots: tuple[str, ...]


@dataclass
class Played:
    """A case played once by simulate.play: the engine it was played on, its final
    state, record and actions. Checks walk it again from setup, so they can look at
    any decision."""

    case: Case
    game: Any
    final: Any
    record: GameRecord
    actions: list[Action]

    def finding(self, check: str, decision: int | None, message: str) -> Finding:
        return Finding(check, self.case.seed, self.case.players, decision, message)


class Walk:
    """The positions of a played game, replayed from setup; `decision` says where the
    walk is, so that an error raised by the game is located."""

    def __init__(self, subject: Subject, played: Played, examined: int):
        self.subject, self.played, self.decision = subject, played, 0
        self.examined = examined
        total = len(played.actions)
        self.stride = max(1, math.ceil(total / max(1, examined)))

    def again(self) -> Walk:
        """A new walk over the same decisions."""
        return Walk(self.subject, self.played, self.examined)

    def setup(self) -> Any:
        played = self.played
        return played.game.setup(
            self.subject.catalog,
            played.case.players,
            random.Random(played.case.seed),
            dict(self.subject.options),
        )

    def positions(self) -> Iterator[tuple[int, Any, Action | None]]:
        """(decision, live state, the action played there; None at the end) at every
        examined decision and the last position; the caller must not change the state
        in ways it does not undo (it is advanced by the played actions after)."""
        game, actions = self.played.game, self.played.actions
        state = self.setup()
        for index, action in enumerate(actions):
            self.decision = index
            if index % self.stride == 0:
                yield index, state, action
            game.apply(state, action)
        self.decision = len(actions)
        yield len(actions), state, None


Check = Callable[[Subject, Played, Walk], list[Finding]]


# --- the checks ---------------------------------------------------------------------------


def check_legal_actions(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """A seat is to move with a legal action iff the game runs; none after the end.
    (A game stopped at simulate's decision limit is running at its last position.)"""
    name, game, players = "legal-actions", played.game, played.case.players
    for index, state, action in walk.positions():
        over, seat = game.is_over(state), game.to_move(state)
        if action is None and over:  # the end
            legal = list(game.legal_actions(state))
            if seat is not None:
                return [played.finding(name, index, f"the game is over but seat {seat} is to move")]
            if legal:
                shown = _show(legal[0])
                return [played.finding(name, index, f"the game is over but offers {shown}")]
            continue
        if over:
            return [played.finding(name, index, "is_over is true while the game was played on")]
        if not isinstance(seat, int) or not 0 <= seat < players:
            message = f"the game runs but to_move is {seat!r}, not a seat of {players}"
            return [played.finding(name, index, message)]
        if not len(game.legal_actions(state)):
            return [played.finding(name, index, f"seat {seat} is to move with no legal action")]
    return []


def check_illegal_refused(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """An illegal action is refused by checked_apply with IllegalAction, state unchanged."""
    name, game = "illegal-refused", played.game
    rng = random.Random(derive_seed(played.case.seed, "illegal"))
    vocabulary, pictures = _Vocabulary(played.actions), Snapshots()
    for index, state, _ in walk.positions():
        legal = list(game.legal_actions(state))
        illegal = vocabulary.illegal(legal, rng)
        if illegal is None:
            continue
        before = pictures.of(state)
        try:
            checked_apply(game, state, illegal)
        except IllegalAction:
            pass
        else:
            return [played.finding(name, index, f"{_show(illegal)} is not legal but was applied")]
        moved = first_difference(before, pictures.of(state))
        if moved:
            message = f"refusing {_show(illegal)} changed {moved}"
            return [played.finding(name, index, message)]
    return []


class _Vocabulary:
    """The actions a game used, to make an illegal action from its own words."""

    def __init__(self, actions: Sequence[Action]):
        self.actions = list(dict.fromkeys(actions))

    def illegal(self, legal: list[Action], rng: random.Random) -> Action | None:
        """An action legal at another decision but not here, else a legal one with one
        part changed (to a word the game uses there, else to an unused one)."""
        allowed = set(legal)
        for _ in range(8):
            if not self.actions:
                break
            candidate = rng.choice(self.actions)
            if candidate not in allowed:
                return candidate
        for _ in range(8):
            if not legal:
                return None
            base = rng.choice(legal)
            if not isinstance(base, tuple) or not base:
                return None
            part = rng.randrange(len(base))
            words = [a[part] for a in self.actions if isinstance(a, tuple) and len(a) > part]
            for word in [*rng.sample(words, min(4, len(words))), _unused(base[part])]:
                changed = (*base[:part], word, *base[part + 1 :])
                if changed not in allowed:
                    return changed
        return None


def _unused(word: Any) -> Any:
    """A word no game uses in this place: far out of range, or text no action holds."""
    if isinstance(word, bool) or not isinstance(word, int | str):
        return "no-such-part"
    return word + 1_000_003 if isinstance(word, int) else word + "?"


@dataclass(frozen=True)
class Observation:
    """What a state shows the kit: whose decision, the end, the legal actions, the
    scores, and each seat's heuristic while the game runs."""

    to_move: int | None
    over: bool
    legal: tuple[Action, ...]
    scores: tuple[Any, ...]
    heuristics: tuple[float, ...]

    def difference(self, other: Observation) -> str:
        """The first thing other shows otherwise, in words ("" when none)."""
        for name, words in (
            ("to_move", "seat to move"),
            ("over", "end"),
            ("legal", "legal actions"),
            ("scores", "scores"),
            ("heuristics", "heuristic values"),
        ):
            if getattr(self, name) != getattr(other, name):
                return words
        return ""


def observe(game: Any, state: Any, players: int) -> Observation:
    over = game.is_over(state)
    heuristics = () if over else tuple(game.heuristic(state, seat) for seat in range(players))
    return Observation(
        game.to_move(state),
        over,
        tuple(game.legal_actions(state)),
        tuple(game.scores(state)),
        heuristics,
    )


def check_copy_independent(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """A copy shows what its original shows, and shares no data that either's play
    changes: applying the played action to a copy leaves the original playing as an
    untouched twin does, and playing on in the original leaves a copy made earlier
    showing what it showed.

    What the states show decides; snapshots (Snapshots) then locate the data that
    changed, in a second walk made only for a game that fails. A change of data
    alone is no finding: a cache shared by copies on purpose (filled by whichever
    reaches it first) changes data but never play.
    """
    found = _copy_walk(played, walk, None)
    if not found:
        return []
    located = _copy_walk(played, walk.again(), Snapshots())
    return located or found


def _copy_walk(played: Played, walk: Walk, pictures: Snapshots | None) -> list[Finding]:
    """check_copy_independent's walk; with pictures, its findings name the data changed."""
    name, game, players, actions = (
        "copy-independent",
        played.game,
        played.case.players,
        played.actions,
    )

    def moved(before: Any, state: Any) -> str:
        return "" if pictures is None else first_difference(before, pictures.of(state))

    def picture(state: Any) -> Any:
        return None if pictures is None else pictures.of(state)

    twin, twin_at = walk.setup(), 0  # the same game, never copied
    suspect: tuple[int, str] | None = None  # the last change a copy's play made to the original
    earlier: tuple[int, Any, Any, Observation] | None = None  # a copy made at a decision
    for index, state, action in walk.positions():
        for step in actions[twin_at:index]:
            game.apply(twin, step)
        twin_at = index
        seen = observe(game, state, players)
        shown = observe(game, twin, players).difference(seen)
        if earlier is None:  # no copy made yet: the twin must be the state itself
            where = shown or first_difference(snapshot(twin), snapshot(state))
            if where:
                message = f"a twin set up from the same seed differs in {where} (see deterministic)"
                return [played.finding(name, index, message)]
        elif shown and suspect is not None:
            made, change = suspect
            message = (
                f"{change}; from decision {index} it differs from an untouched twin in its {shown}"
            )
            return [played.finding(name, made, message)]
        elif shown:
            message = f"after copies were played the original differs from an untouched twin in its {shown}"
            return [played.finding(name, index, message)]
        if earlier is not None:  # the copy shows what it showed, and plays on as the original did
            made, kept, kept_before, kept_seen = earlier
            where = moved(kept_before, kept)
            shown = kept_seen.difference(observe(game, kept, players))
            if not shown:
                for step in actions[made:index]:
                    game.apply(kept, step)
                shown = seen.difference(observe(game, kept, players))
            if shown:
                what = f"{where}: played on, it differs in its {shown}" if where else shown
                message = f"playing on in the original from decision {made} changed a copy's {what}"
                return [played.finding(name, index, message)]
        if action is None:
            break
        trial, kept = state.copy(), state.copy()
        shown = seen.difference(observe(game, kept, players))
        if shown:
            return [played.finding(name, index, f"a copy differs from its original in its {shown}")]
        before = picture(state)  # after copying: a copy may mark what it now shares
        earlier = (index, kept, picture(kept), seen)
        game.apply(trial, action)
        where = moved(before, state)
        if where:
            suspect = (index, f"applying {_show(action)} to a copy changed the original's {where}")
    return []


def check_deterministic(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """Played again on a fresh engine with fresh bots: the same actions and scores."""
    name, case = "deterministic", played.case
    _, again, actions = play(
        subject.new_game(), subject.catalog, list(case.bots), case.seed, dict(subject.options)
    )
    for index, (first, second) in enumerate(zip(played.actions, actions, strict=False)):
        if first != second:
            message = f"played {_show(first)} the first time, {_show(second)} the second"
            return [played.finding(name, index, message)]
    if len(actions) != len(played.actions):
        message = f"{len(played.actions)} decisions the first time, {len(actions)} the second"
        return [played.finding(name, None, message)]
    if again.scores != played.record.scores:
        message = f"scores {played.record.scores} the first time, {again.scores} the second"
        return [played.finding(name, None, message)]
    return []


def check_replay(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """The action log, through JSON and back, replays to the same scores."""
    name, case, game, record = "replay", played.case, played.game, played.record
    version = getattr(subject.catalog, "version", "")
    log = log_of(
        game, subject.game_id, version, list(case.bots), case.seed, dict(subject.options),
        played.actions, record,
    )  # fmt: skip
    try:
        text = json.dumps(log)
    except (TypeError, ValueError) as error:
        return [played.finding(name, None, f"the action log is not JSON: {error}")]
    read = json.loads(text)
    engines = {subject.game_id: subject.spec} if subject.spec else {subject.game_id: None}
    problems = log_problems(read, engines)
    if problems:
        pointer, message = problems[0]
        return [played.finding(name, None, f"the action log at {pointer}: {message}")]
    try:
        state = replay(game, subject.catalog, read)
    except ValueError as error:
        return [played.finding(name, None, f"the log does not replay: {error}")]
    scores = list(game.scores(state))
    if scores != record.scores:
        message = f"the log replays to scores {scores}, the game ended with {record.scores}"
        return [played.finding(name, None, message)]
    return []


def check_outcome(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """At the end: one whole-number score per seat; winners and outcome agree with them."""
    if played.record.limit:
        return []  # stopped at the decision limit: there is no end to judge
    name, game, players = "outcome", played.game, played.case.players
    state = played.final
    scores, winners = list(game.scores(state)), list(game.winners(state))
    problems = _outcome_problems(subject, scores, winners, outcome_of(game, state), players)
    return [played.finding(name, None, problem) for problem in problems[:1]]


def _outcome_problems(
    subject: Subject, scores: list[Any], winners: list[Any], outcome: Any, players: int
) -> list[str]:
    if len(scores) != players:
        return [f"{len(scores)} scores for {players} seats"]
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        return [f"scores {scores!r} are not whole numbers"]
    if sorted(set(winners)) != winners or not all(w in range(players) for w in winners):
        return [f"winners {winners!r} are not distinct seats in order"]
    if tuple(outcome.scores) != tuple(scores) or tuple(outcome.winners) != tuple(winners):
        return [f"the outcome says scores {list(outcome.scores)} and winners "
                f"{list(outcome.winners)}, the game {scores} and {winners}"]  # fmt: skip
    declared = subject.spec.outcomes if subject.spec else tuple(OutcomeKind)
    if outcome.kind not in declared:
        kinds = ", ".join(kind.value for kind in declared)
        return [f"a {outcome.kind.value} outcome, but the spec declares {kinds}"]
    best = max(scores)
    if outcome.kind is OutcomeKind.VERSUS:
        if not winners:
            return ["a versus game without a winner"]
        beaten = [seat for seat in winners if scores[seat] != best]
        if beaten:
            return [f"seat {beaten[0]} wins with {scores[beaten[0]]}, below the top score {best}"]
    if outcome.kind is OutcomeKind.TEAM:
        if winners not in ([], list(range(players))):
            return [f"a team game's winners are every seat or none, not {winners}"]
        if outcome.team_won is not None and outcome.team_won != bool(winners):
            return [f"team_won is {outcome.team_won} but the winners are {winners}"]
    if outcome.kind is OutcomeKind.SOLO:
        if not set(winners) <= {0}:
            return [f"a solo game's winner is seat 0 or no one, not {winners}"]
        if outcome.solo_won is not None and outcome.solo_won != bool(winners):
            return [f"solo_won is {outcome.solo_won} but the winners are {winners}"]
    return []


# --- fast paths --------------------------------------------------------------------------


@dataclass(frozen=True)
class FastPaths:
    """What a game's BotSupport offers to make the bots faster, bound to its engine,
    each held to the book here.

    action_values(state, seat, actions): the heuristic after each action, as copy,
    apply and heuristic give it; best_actions(state, seat, actions): the actions of
    the highest of those, in order; playout_step(state, rng, legal): the position
    after playout_policy(state, rng)'s move, chosen with the same draws.
    """

    action_values: Callable[[Any, int, Sequence[Action]], list[float]] | None = None
    best_actions: Callable[[Any, int, Sequence[Action]], list[Action]] | None = None
    playout_policy: Callable[[Any, random.Random], Action] | None = None
    playout_step: Callable[[Any, random.Random, Sequence[Action]], Any] | None = None


def fast_paths(game: Any) -> FastPaths:
    """The fast paths of the game's BotSupport, bound to the engine."""
    support = bot_support(game)

    def bound(part: Callable[..., Any] | None) -> Any:
        return None if part is None else functools.partial(part, game)

    return FastPaths(
        bound(support.action_values),
        bound(support.best_actions),
        bound(support.playout_policy),
        bound(support.playout_step),
    )


def check_fast_paths(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """The fast paths give what the book gives: action_values the reference's values
    (within TOLERANCE), best_actions its argmax in order, playout_step the position
    after playout_policy's move, with the same draws."""
    name, game, players = "fast-paths", played.game, played.case.players
    fast = fast_paths(game)
    stepped = fast.playout_step is not None and fast.playout_policy is not None
    if fast.action_values is None and fast.best_actions is None and not stepped:
        return []
    for index, state, action in walk.positions():
        if action is None:
            break
        seat = game.to_move(state)
        legal = game.legal_actions(state)
        problem = ""
        if fast.action_values is not None or fast.best_actions is not None:
            problem = _judged_problem(fast, game, state, seat, legal)
        if not problem and stepped and len(legal) > 1:
            seed = derive_seed(played.case.seed, "rollout", index)
            problem = _step_problem(fast, game, state, players, seed)
        if problem:
            return [played.finding(name, index, problem)]
    return []


def _judged_problem(fast: FastPaths, game: Any, state: Any, seat: int, legal: Any) -> str:
    reference = reference_values(game, state, seat, legal)
    if fast.action_values is not None:
        values = list(fast.action_values(state, seat, legal))
        problem = _values_problem(list(legal), values, reference)
        if problem:
            return f"action_values: {problem}"
    if fast.best_actions is not None:
        top = max(reference)
        expected = [a for a, v in zip(legal, reference, strict=True) if v == top]
        found = list(fast.best_actions(state, seat, legal))
        if found != expected:
            return f"best_actions gives {_few(found)}, the highest values are {_few(expected)}"
    return ""


def _step_problem(fast: FastPaths, game: Any, state: Any, players: int, seed: int) -> str:
    assert fast.playout_policy is not None and fast.playout_step is not None
    by_book, stepping = state.copy(), state.copy()
    book_rng, step_rng = random.Random(seed), random.Random(seed)
    move = fast.playout_policy(by_book, book_rng)
    game.apply(by_book, move)
    after = fast.playout_step(stepping, step_rng, game.legal_actions(stepping))
    if book_rng.getstate() != step_rng.getstate():
        return f"playout_step draws otherwise than playout_policy choosing {_show(move)}"
    shown = observe(game, by_book, players).difference(observe(game, after, players))
    if shown:
        return f"playout_step's position differs from playout_policy's {_show(move)} in its {shown}"
    return ""


def _values_problem(legal: list[Action], values: list[float], reference: list[float]) -> str:
    if len(values) != len(reference):
        return f"{len(values)} values for {len(reference)} actions"
    for action, value, expected in zip(legal, values, reference, strict=True):
        if not abs(value - expected) <= TOLERANCE:
            return f"{_show(action)} is valued {value!r}, by the book {expected!r}"
    return ""


def _few(actions: list[Action]) -> str:
    shown = ", ".join(_show(a) for a in actions[:3])
    return f"[{shown}{', ...' if len(actions) > 3 else ''}] ({len(actions)})"


def _show(action: Any) -> str:
    return repr(action) if len(repr(action)) <= 80 else repr(action)[:77] + "..."


# --- seat views ---------------------------------------------------------------------------


TWIN_POSITIONS = 4  # positions of each game whose twins are checked (each runs three bots)


def check_seat_view_twins(subject: Subject, played: Played, walk: Walk) -> list[Finding]:
    """Every hidden field the game's seat view declares, dealt again in a twin of the
    position, leaves every bot's decision as it was (fairness.check_twins), at up to
    TWIN_POSITIONS positions of the game spread over it; a game that declares nothing
    hidden passes at once."""
    game = played.game
    if getattr(game, "seat_view", None) is None:
        return []
    step = max(1, math.ceil(len(played.actions) / TWIN_POSITIONS))
    due = 0  # the next decision whose twins are checked (check_twins leaves the state as it was)
    for index, state, action in walk.positions():
        if action is None or index < due:
            continue
        due = index + step
        try:
            check_twins(game, state, seed=derive_seed(played.case.seed, "twins", index))
        except TwinsDiffer as differ:
            return [played.finding("seat-view-twins", index, str(differ))]
    return []


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

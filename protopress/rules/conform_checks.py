"""The conformance suite's checks, one function each (conform.py names them, in
order, and runs them on every game played): legal actions, illegal actions
refused, copies independent, determinism, replay through the action log, the
outcome, the fast paths held to the book and the seat view's twins. Each takes
the game under test, a played game and a walk over its decisions, and gives
findings located by seed, player count and decision."""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.rules.bot_support import bot_support
from protopress.rules.bots import reference_values
from protopress.rules.conform_types import Finding, Played, Subject, Walk
from protopress.rules.core import Action, IllegalAction, checked_apply, derive_seed
from protopress.rules.fairness import TwinsDiffer, check_twins
from protopress.rules.simulate import log_of, log_problems, outcome_of, play, replay
from protopress.rules.snapshot import Snapshots, first_difference, snapshot
from protopress.rules.spec import OutcomeKind

TOLERANCE = 1e-9  # a fast action value may differ from the reference by this much


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

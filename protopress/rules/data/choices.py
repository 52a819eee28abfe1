"""Choices inside an action: a turn of several decisions, choices of two things at
once, of a zone of a row or of a player, and choices made by another player.

A `choose` step opens a decision in the middle of an action: its options are
written as the actions of `turn.choose` are (`each NAME from WHERE`, `if`, `do`),
and the action waits for the choice. The steps after it (the rest of its list, of
the `for` or `each_player` around it) wait too, in `DataState.later`, and run once
the chosen option's steps have run, innermost first: the rules read on as
written. `by: PLAYER` has that player choose (`my` stays the player whose action
it is); `optional: true` offers `skip` after the options. A choice with no option
to offer is not asked: the steps go on. An option chooses from a zone (a card,
logged by its id), a row of zones (`my.spires`: a pile, logged by its place), or a
list (`others`: a player, logged by seat number); `each: [a, b]` with `from: [A,
B]` chooses two things at once (a pile to take from and one to put on), offered
in that order, the first outermost. A turn's action can choose the same ways.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from protopress.rules.actions import action
from protopress.rules.core import IllegalAction, RulesFault
from protopress.rules.data.bags import place_in_row
from protopress.rules.data.expr import ExprError, Scope, compile_expression
from protopress.rules.data.load import Finding
from protopress.rules.data.model import (
    Asked,
    Choice,
    ChoiceOption,
    Compiled,
    DataState,
    Kind,
    Later,
    Step,
    Ty,
    Zone,
)

SKIP = "skip"  # the option an optional choice adds
STEP_LISTS = ("do", "then", "else", "each_player")


class ChoiceCompiler(Protocol):
    """What a choice needs of the rules compiler (rules/data/build.py)."""

    findings: list[Finding]
    kinds: dict[str, type]

    def expression(
        self, value: object, scope: Scope, pointer: str, *expected: Kind, resource: bool = False
    ) -> tuple[Compiled, Ty]: ...

    def steps(self, items: list[Any], pointer: str, scope: Scope, chosen: Any, depth: int) -> Step: ...  # fmt: skip

    def reserved(self, name: str, at: str) -> bool: ...

    def where(self, pointer: str) -> str: ...


# --- the typed actions (from the file alone) ---------------------------------


def names_of(given: Mapping[str, Any]) -> list[str]:
    """The names an option binds: `each: NAME` or `each: [A, B]`."""
    each = given.get("each")
    return [] if each is None else [each] if isinstance(each, str) else list(each)


def choice_kinds(turn: Mapping[str, Any], kinds: dict[str, type], findings: list[Finding]) -> None:
    """Add to kinds the typed action of each verb of the `choose` steps inside the turn's
    actions (and `skip`); a verb used with different numbers of choices is a finding."""
    for verb, given in turn["choose"].items():
        _walk(given.get("do", []), f"/turn/choose/{verb}/do", kinds, findings)


def has_choice(turn: Mapping[str, Any]) -> bool:
    """Whether a `choose` step is anywhere in the turn's actions."""
    found: dict[str, type] = {}
    choice_kinds(turn, found, [])
    return bool(found)


def _walk(steps: list[Any], at: str, kinds: dict[str, type], findings: list[Finding]) -> None:
    for i, step in enumerate(steps):
        here = f"{at}/{i}"
        options = step.get("choose")
        if isinstance(options, dict):
            if step.get("optional"):
                _kind(SKIP, [], f"{here}/optional", kinds, findings)
            for verb, given in options.items():
                if verb == SKIP:
                    message = f"{SKIP!r} is the option optional: true adds: choose another name"
                    findings.append(Finding(f"{here}/choose/{verb}", message, at_key=True))
                    continue
                _kind(verb, names_of(given), f"{here}/choose/{verb}", kinds, findings)
                _walk(given.get("do", []), f"{here}/choose/{verb}/do", kinds, findings)
        for key in STEP_LISTS:
            if isinstance(step.get(key), list):
                _walk(step[key], f"{here}/{key}", kinds, findings)


def _kind(verb: str, names: list[str], at: str, kinds: dict[str, type], findings: list[Finding]) -> None:  # fmt: skip
    problem = shape_problem(names)
    if problem:
        findings.append(Finding(f"{at}/each", problem))
        return
    known = kinds.get(verb)
    if known is None:
        kinds[verb] = make_kind(verb, names)
    elif len(known._fields) - 1 != len(names):  # type: ignore[attr-defined]
        message = f"{verb!r} chooses {len(known._fields) - 1} thing(s) elsewhere: one verb, one shape"  # type: ignore[attr-defined]  # fmt: skip
        findings.append(Finding(at, message, at_key=True))


def shape_problem(names: Sequence[str]) -> str:
    """What is wrong with the names an option binds ("" when nothing)."""
    if len(set(names)) != len(names):
        return "each names different things: a name twice"
    if "verb" in names:
        return "'verb' is a word of the rules language: choose another name"
    return ""


def make_kind(verb: str, fields: Sequence[str]) -> type:
    """The typed action of a verb choosing fields (logged as [verb, *fields])."""
    name = "".join(part.title() for part in verb.split("_"))
    made: type = action(namedtuple(name, [*fields, "verb"], defaults=[verb]))
    return made


# --- compiling an option -------------------------------------------------------


def compile_option(
    compiler: ChoiceCompiler, verb: str, given: Mapping[str, Any], at: str, scope: Scope
) -> ChoiceOption | None:
    """An option (or a turn's action) choosing each name from a row of zones or a list;
    None (and findings) when it cannot be compiled."""
    kind = compiler.kinds.get(verb)
    names = names_of(given)
    origin = given.get("from")
    origins = [] if origin is None else [origin] if isinstance(origin, str) else list(origin)
    if kind is None or len(names) != len(origins):
        if kind is not None:
            message = "`each` and `from` go together: as many names as places to choose from"
            compiler.findings.append(Finding(at, message))
        return None
    for key in ("onto", "touch", "match", "distinct"):
        if key in given:
            message = f"{key!r} goes with a card chosen from a zone, not with this choice"
            compiler.findings.append(Finding(f"{at}/{key}", message, at_key=True))
    inner, slots, sources, encoders = scope, [], [], []
    for k, (name, where) in enumerate(zip(names, origins, strict=True)):
        if compiler.reserved(name, f"{at}/each" + (f"/{k}" if len(names) > 1 else "")):
            return None
        pointer = f"{at}/from" + (f"/{k}" if isinstance(origin, list) else "")
        source, ty = compiler.expression(where, inner, pointer, Kind.ZONES, Kind.PLAYERS, Kind.LIST)  # fmt: skip
        if ty.kind is Kind.ZONES and ty.zone is not None:
            inner, slot = inner.bind(name, Ty(Kind.ZONE, ty.of, ty.zone), pile=True)
            encoders.append(_by_place(ty.zone))
        elif ty.kind in (Kind.PLAYERS, Kind.LIST):
            inner, slot = inner.bind(name, Ty(Kind.PLAYER if ty.kind is Kind.PLAYERS else Kind.ANY))
            encoders.append(_as_is)
        else:
            return None
        slots.append(slot)
        sources.append(source)
    condition = compiler.expression(given["if"], inner, f"{at}/if")[0] if "if" in given else None
    steps = compiler.steps(given["do"], f"{at}/do", inner, None, 0)
    return ChoiceOption(verb, tuple(slots), tuple(sources), tuple(encoders), condition, steps, kind)


def chooses_as_option(param: object, origin: object, scope: Scope) -> bool:
    """Whether an action chooses as a `choose` step's option does (choices.py): two
    things at once, or from a row of zones or a list of players."""
    if isinstance(param, list):
        return True
    if not isinstance(origin, str) or origin == "resources":
        return False
    try:
        kind = compile_expression(origin, scope)[1].kind
    except ExprError:
        return False
    return kind in (Kind.ZONES, Kind.PLAYERS, Kind.LIST)


def _by_place(zone: Zone) -> Callable[[Any], Any]:
    return lambda pile: place_in_row(zone, pile)


def _as_is(value: Any) -> Any:
    return value


def compile_choice(
    compiler: ChoiceCompiler, item: Mapping[str, Any], at: str, scope: Scope
) -> Step | None:
    """A `choose` step; None (and findings) when it is wrong."""
    if not at.startswith("/turn/choose/"):
        message = "a choice is made inside a turn's action (turn.choose), not here"
        compiler.findings.append(Finding(f"{at}/choose", message, at_key=True))
        return None
    options = []
    for verb, given in item["choose"].items():
        option = compile_option(compiler, verb, given, f"{at}/choose/{verb}", scope)
        if option is not None:
            options.append(option)
    by = None
    if "by" in item:
        by = compiler.expression(item["by"], scope, f"{at}/by", Kind.PLAYER)[0]
    skip = compiler.kinds.get(SKIP) if item.get("optional") else None
    return ask_step(Choice(tuple(options), skip, by), compiler.where(f"{at}/by"))


# --- playing a choice ------------------------------------------------------------


def ask_step(choice: Choice, where: str) -> Step:
    """The step that opens choice (when it has an option to offer); where: its `by`."""

    def ask(state: DataState, seat: int, env: list[Any]) -> None:
        if offered(choice, state, seat, env):
            chooser = seat if choice.by is None else choice.by(state, seat, env)
            if type(chooser) is not int or not 0 <= chooser < state.players:
                raise RulesFault(f"{where}: by: {chooser!r} is not a player")
            state.asked = Asked(choice, seat, chooser, env, len(state.later))

    return ask


def offered(choice: Choice, state: DataState, seat: int, env: list[Any]) -> list[Any]:
    """The actions of a choice, option by option (then `skip`, when optional)."""
    found = [found for option in choice.options for found in listed(option, state, seat, env)]
    if found and choice.skip is not None:
        found.append(choice.skip())
    return found


def listed(option: ChoiceOption, state: DataState, seat: int, env: list[Any]) -> list[Any]:
    kind = option.kind
    return [kind(*chosen) for chosen in _chosen(option, 0, (), state, seat, env)]


def _chosen(
    option: ChoiceOption, k: int, made: tuple[Any, ...], state: DataState, seat: int, env: list[Any]
) -> Iterator[tuple[Any, ...]]:
    """Each choice of the option, as logged, with its names bound in env when yielded."""
    if k == len(option.slots):
        if option.condition is None or option.condition(state, seat, env):
            yield made
        return
    slot, encode = option.slots[k], option.encoders[k]
    for value in list(option.sources[k](state, seat, env)):
        env[slot] = value
        yield from _chosen(option, k + 1, (*made, encode(value)), state, seat, env)


def bind(option: ChoiceOption, state: DataState, seat: int, env: list[Any], chosen: Any) -> bool:
    """Whether chosen is one of the option's actions; its names bound in env if so."""
    kind = option.kind
    return any(kind(*made) == chosen for made in _chosen(option, 0, (), state, seat, env))


def asked_actions(state: DataState) -> list[Any]:
    asked = state.asked
    assert asked is not None
    return offered(asked.choice, state, asked.seat, asked.env)


def answer(state: DataState, chosen: Any) -> None:
    """Make the open choice, run its option's steps, then the steps waiting on it
    (until another choice opens); IllegalAction when chosen is not offered."""
    asked = state.asked
    assert asked is not None
    choice, seat, env = asked.choice, asked.seat, asked.env
    if choice.skip is not None and type(chosen) is choice.skip:
        state.asked = None
    else:
        option = next((o for o in choice.options if type(chosen) is o.kind), None)
        if option is None or not bind(option, state, seat, env, chosen):
            raise IllegalAction(f"{chosen!r} is not a choice offered now")
        state.asked = None
        option.steps(state, seat, env)
    while state.asked is None and state.later:
        *rest, waiting = state.later
        state.later = tuple(rest)
        waiting.steps(state, waiting.seat, waiting.env)


def wait(state: DataState, steps: Step, seat: int, env: list[Any]) -> None:
    """steps to run after the open choice (and the steps it interrupted further in)."""
    asked = state.asked
    assert asked is not None
    later, base = state.later, asked.base
    state.later = (*later[:base], Later(steps, seat, env), *later[base:])


def in_turn(steps: list[Step]) -> Step:
    """Steps in order, the rest waiting when one of them opens a choice."""
    first = steps[0]
    if len(steps) == 1:
        return first
    rest = in_turn(steps[1:])

    def run(state: DataState, seat: int, env: list[Any]) -> None:
        first(state, seat, env)
        if state.asked is not None:
            wait(state, rest, seat, env)
        else:
            rest(state, seat, env)

    return run


Items = Callable[[DataState, int, list[Any]], Sequence[Any]]


def each_in_turn(items: Items, slot: int, test: Compiled | None, body: Step) -> Step:
    """A `for` whose body may open a choice: the items left wait for it."""

    def loop(values: list[Any], start: int) -> Step:
        def run(state: DataState, seat: int, env: list[Any]) -> None:
            for k in range(start, len(values)):
                env[slot] = values[k]
                if test is None or test(state, seat, env):
                    body(state, seat, env)
                if state.asked is not None:
                    if k + 1 < len(values):
                        wait(state, loop(values, k + 1), seat, env)
                    return

        return run

    def each(state: DataState, seat: int, env: list[Any]) -> None:
        loop(list(items(state, seat, env)), 0)(state, seat, env)

    return each


def every_player_in_turn(body: Step) -> Step:
    """`each_player` whose steps may open a choice: the players left wait for it."""

    def from_player(first: int) -> Step:
        def run(state: DataState, seat: int, env: list[Any]) -> None:
            for player in range(first, state.players):
                body(state, player, env)
                if state.asked is not None:
                    if player + 1 < state.players:
                        wait(state, from_player(player + 1), seat, env)
                    return

        return run

    return from_player(0)

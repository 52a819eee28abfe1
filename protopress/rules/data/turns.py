"""Turn structure: turns of up to N actions, turn order by a value, the last round a
player triggers, and rounds that end by passing each player's zone (a draft).

A round is every seat taking one turn. A simultaneous draft is played as turns in
seat order: each player picks one card from their hand (`seen: owner`) into a zone
of their own that only they see, so that no later seat learns an earlier pick; at
the round's end the hands pass and the `after_round` steps reveal the picks. The
seat view and the bots' determinisation follow from the zones' `seen` alone.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from protopress.components.suggest import did_you_mean
from protopress.rules.actions import action
from protopress.rules.data.load import Finding
from protopress.rules.data.model import Compiled, DataState, Kind, Step, TurnPlan, Zone

DONE = "done"  # the action that ends a turn of up to N actions
DIRECTIONS = {"left": 1, "right": -1}  # left: to the next seat in turn order


def turn_kinds(turn: Mapping[str, Any], zones: Mapping[str, Zone]) -> tuple[dict[str, type], list[Finding]]:  # fmt: skip
    """The action `done` when a turn has up to N actions, and the mistakes of `actions`
    and `pass` the file alone shows."""
    kinds: dict[str, type] = {}
    findings: list[Finding] = []
    if turn.get("actions", 1) > 1:
        if DONE in turn["choose"]:
            message = f"{DONE!r} is the action that ends a turn of up to N actions: choose another name"  # fmt: skip
            findings.append(Finding(f"/turn/choose/{DONE}", message, at_key=True))
        kinds[DONE] = action(namedtuple("Done", ["verb"], defaults=[DONE]))
    for phase, verbs in turn.get("phases", {}).items():
        for i, verb in enumerate(verbs):
            if verb not in turn["choose"] and verb not in kinds:
                hint = did_you_mean(verb, [*turn["choose"], *kinds])
                findings.append(Finding(f"/turn/phases/{phase}/{i}", f"{verb!r} is not an action of turn.choose{hint}"))  # fmt: skip
    if "phases" in turn:
        named = {verb for verbs in turn["phases"].values() for verb in verbs}
        for verb in turn["choose"]:
            if verb not in named:
                message = f"{verb!r} is in no phase: no one can ever take it"
                findings.append(Finding(f"/turn/choose/{verb}", message, at_key=True))
    return kinds, findings


def end_findings(turn: Mapping[str, Any], end: list[Any]) -> list[Finding]:
    """`last_turns` needs turns that go round the table in seat order."""
    if not isinstance(turn.get("order"), dict) and "phases" not in turn:
        return []
    message = "last_turns gives every other player one more turn in seat order: it needs order: clockwise and no phases"  # fmt: skip
    return [Finding(f"/end/{i}/last_turns", message, at_key=True)
            for i, item in enumerate(end) if isinstance(item, dict) and "last_turns" in item]  # fmt: skip


def pass_findings(turn: Mapping[str, Any], zones: Mapping[str, Zone]) -> list[Finding]:
    """The mistakes of `pass` the file alone shows."""
    findings: list[Finding] = []
    passed = turn.get("pass")
    if passed is not None:
        zone = zones.get(passed["zone"])
        if zone is None:
            hint = did_you_mean(passed["zone"], [n for n, z in zones.items() if z.each])
            findings.append(Finding("/turn/pass/zone", f"{passed['zone']!r} is not a zone{hint}"))
        elif not zone.each or zone.grid is not None or zone.piles > 1:
            message = f"{zone.name!r} is not a zone of each player: pass moves a hand to the next player"  # fmt: skip
            findings.append(Finding("/turn/pass/zone", message))
    return findings


def first_mover(turn: Mapping[str, Any]) -> int | None:
    """Seat 0 starts clockwise; an order by a value has no fixed first seat."""
    return None if isinstance(turn.get("order"), dict) else 0


Expression = Callable[[object, str, Kind], Compiled]  # (value, pointer, expected kind)
Steps = Callable[[list[Any], str], Step]  # (steps, pointer) -> compiled


def turn_plan(
    turn: Mapping[str, Any],
    end: Iterable[tuple[int, Any]],
    zones: Mapping[str, Zone],
    expression: Expression,
    steps: Steps,
) -> TurnPlan:
    """The compiled turn structure: `expression` and `steps` compile (and record the
    findings of) one expression or list of steps at a pointer; end: the `last_round`
    items of `end` with their index."""
    order, highest = None, False
    given = turn.get("order")
    if isinstance(given, dict):
        highest = "highest" in given
        key = "highest" if highest else "lowest"
        order = expression(given[key], f"/turn/order/{key}", Kind.NUMBER)
    passed, step = None, 1
    if "pass" in turn:
        zone = zones.get(turn["pass"]["zone"])
        if zone is not None and zone.each and zone.grid is None:
            passed, step = zone, DIRECTIONS[turn["pass"]["to"]]
    after = steps(turn["after_round"], "/turn/after_round") if "after_round" in turn else None
    last = tuple(
        expression(item["last_round"], f"/end/{i}/last_round", Kind.FLAG)
        for i, item in end
        if "last_round" in item
    )
    final = tuple(
        expression(item["last_turns"], f"/end/{i}/last_turns", Kind.FLAG)
        for i, item in end
        if "last_turns" in item
    )
    phases = tuple(frozenset(verbs) for verbs in turn.get("phases", {}).values())
    return TurnPlan(
        turn.get("actions", 1), order, highest, passed, step, after, last, phases, final
    )


def begin(plan: TurnPlan, state: DataState, env: list[Any]) -> None:
    """The first round's order (after setup), and its first seat."""
    if plan.order is not None:
        state.order = _ordered(plan, state, env)
        state.seat = state.order[0]


def end_action(plan: TurnPlan, state: DataState, seat: int, done: bool, env: list[Any]) -> bool:
    """After an action of seat (done: the action `done`): whether its turn is over. A
    turn over, the next seat moves; a round over, it ends (pass, after_round, order)."""
    if not done:
        state.acted += 1
        if state.acted < plan.actions:
            return False
    state.acted = 0
    state.turns += 1
    if plan.last_round and any(test(state, seat, env) for test in plan.last_round):
        state.last_round = True
    if state.final > 0:
        state.final -= 1
    elif plan.last_turns and state.final < 0 and any(test(state, seat, env) for test in plan.last_turns):  # fmt: skip
        state.final = state.players - 1  # every other player's turn, then the end
    if state.turns % (state.players * plan.turns_a_round):  # the round goes on
        place = state.turns % state.players
        state.seat = state.order[place] if state.order else (seat + 1) % state.players
        return True
    if plan.passed is not None:
        first, players = plan.passed.first, state.players
        zones = state.piles[first : first + players]
        state.piles[first : first + players] = [
            zones[(owner - plan.step) % players] for owner in range(players)
        ]
    if plan.after_round is not None:
        plan.after_round(state, 0, env)
    if plan.order is not None:
        state.order = _ordered(plan, state, env)
        state.seat = state.order[0]
    else:
        state.seat = (seat + 1) % state.players
    return True


def last_round_over(plan: TurnPlan, state: DataState) -> bool:
    """The last round was triggered and every seat has played its turns in it, or every
    other player has had a last turn after the player who triggered `last_turns`."""
    return state.final == 0 or (
        state.last_round
        and state.turns % (state.players * plan.turns_a_round) == 0
        and not state.acted
    )


def in_phase(plan: TurnPlan, state: DataState, verb: str) -> bool:
    """Whether the phase under way offers the action verb (every action without phases)."""
    if not plan.phases:
        return True
    return verb in plan.phases[state.turns // state.players % len(plan.phases)]


def _ordered(plan: TurnPlan, state: DataState, env: list[Any]) -> tuple[int, ...]:
    """Seats by their value of the order (lowest first, or highest); ties by seat."""
    assert plan.order is not None
    values = [plan.order(state, seat, env) for seat in range(state.players)]
    sign = -1 if plan.highest else 1
    return tuple(sorted(range(state.players), key=lambda seat: (sign * values[seat], seat)))

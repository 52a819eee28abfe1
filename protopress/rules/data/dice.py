"""Dice as data: a zone that is a pool of dice, and the `roll` step.

A dice zone declares how many dice it holds (`dice: 3`) and the faces of each
die (`faces: [sun, sun, moon, ...]`, ids of components of the kind it holds; by
default every component of that kind once). A face is a component like any
card, so expressions read its fields (`die.pips`, `die.good`) and actions
choose among the rolled faces (`each: die, from: pool`) and move them on.

`roll: ZONE` replaces what the zone holds with `n` (default: its `dice`)
freshly rolled faces, drawn through `state.chance` under the zone's name (one
draw showing every face, public when everyone sees the zone), so a game's
chance stays declared and the search bots see the roll as a chance node.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.expr import Scope
from protopress.rules.data.load import Finding
from protopress.rules.data.model import CardTable, Compiled, DataState, Kind, Seen, Step, Ty, Zone

MAX_ROLLED = 64  # faces one roll shows


class StepCompiler(Protocol):
    """What a construct's step needs of the rules compiler (rules/data/build.py)."""

    findings: list[Finding]

    def expression(
        self, value: object, scope: Scope, pointer: str, *expected: Kind, resource: bool = False
    ) -> tuple[Compiled, Ty]: ...

    def where(self, pointer: str) -> str: ...


def check_dice_zone(name: str, given: Mapping[str, Any], findings: list[Finding]) -> None:
    """What a zone's `dice` and `faces` need of the zone alone."""
    at = pointer_of(["zones", name])
    if "faces" in given and "dice" not in given:
        findings.append(Finding(at + "/faces", "faces go with dice: N (how many dice)"))
    if "dice" not in given:
        return
    for key in ("each", "slots", "setup", "shuffle", "refill"):
        if given.get(key):
            message = f"a zone of dice is one shared pool, rolled: it takes no {key!r}"
            findings.append(Finding(f"{at}/{key}", message, at_key=True))


def faces_of(zone: Zone, cards: CardTable) -> tuple[int, ...]:
    """The cards of a die's faces (every component of the zone's kind when not given)."""
    if not zone.faces:
        return tuple(card for card, kind in enumerate(cards.kinds) if kind == zone.kind)
    of_kind = {cards.ids[card]: card for card, kind in enumerate(cards.kinds) if kind == zone.kind}
    return tuple(of_kind[face] for face in zone.faces if face in of_kind)


def check_faces(zones: tuple[Zone, ...], cards: CardTable, findings: list[Finding]) -> None:
    """Each face of each dice zone is a component of the kind the zone holds."""
    for zone in zones:
        if zone.dice is None:
            continue
        of_kind = [cards.ids[card] for card, kind in enumerate(cards.kinds) if kind == zone.kind]
        for i, face in enumerate(zone.faces):
            if face not in of_kind:
                hint = did_you_mean(face, of_kind)
                message = f"{face!r} is not a {zone.kind} of this catalog{hint}"
                findings.append(Finding(pointer_of(["zones", zone.name, "faces", i]), message))


def roll_step(
    compiler: StepCompiler, item: Mapping[str, Any], at: str, scope: Scope
) -> Step | None:
    """The `roll: ZONE` step (with `n:`), or None after a finding."""
    _, ty = compiler.expression(item["roll"], scope, f"{at}/roll", Kind.ZONE)
    zone = ty.zone
    if zone is None:
        return None
    if zone.dice is None:
        message = f"{zone.name} is not a zone of dice: give it dice: N (and faces)"
        compiler.findings.append(Finding(f"{at}/roll", message))
        return None
    count = None
    if "n" in item:
        count = compiler.expression(item["n"], scope, f"{at}/n", Kind.NUMBER)[0]
    faces = faces_of(zone, scope.cards)
    if not faces:
        return None  # the catalog has none of its kind: found with the zone
    name, first, dice, public = zone.name, zone.first, zone.dice, zone.seen is Seen.EVERYONE
    where = compiler.where(f"{at}/roll")

    def roll(state: DataState, seat: int, env: list[Any]) -> None:
        n = dice if count is None else count(state, seat, env)
        if not 0 <= n <= MAX_ROLLED:
            raise RulesFault(f"{where}: roll: {n} dice (0 to {MAX_ROLLED} at a time)")
        state.piles[first][:] = state.chance.roll_dice(name, [faces] * n, public)

    return roll

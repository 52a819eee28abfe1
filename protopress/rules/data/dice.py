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

An action's `reroll: ZONE` (`times: N`) lets the player roll again any of the
pool's dice, up to N times after each `roll`: a decision listing each distinct
set of faces, then one chance draw of the dice chosen (`Reroll`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any, NamedTuple, Protocol

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.expr import Scope
from protopress.rules.data.load import Finding
from protopress.rules.data.model import (
    HOLE,
    CardTable,
    Compiled,
    DataState,
    Kind,
    Seen,
    Step,
    Ty,
    Zone,
)

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
        return tuple(card for card, kind in enumerate(cards.kinds)
                     if kind == zone.kind and card not in cards.turned)  # fmt: skip
    of_kind = {cards.ids[card]: card for card, kind in enumerate(cards.kinds)
               if kind == zone.kind and card not in cards.turned}  # fmt: skip
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


class DiceZone(NamedTuple):
    """A zone of dice and how many dice it rolls."""

    zone: Zone
    dice: int


def _dice_zone(compiler: StepCompiler, text: Any, pointer: str, scope: Scope) -> DiceZone | None:
    """The zone of dice that text names (None after a finding at pointer)."""
    _, ty = compiler.expression(text, scope, pointer, Kind.ZONE)
    zone = ty.zone
    if zone is None:
        return None
    if zone.dice is None:
        message = f"{zone.name} is not a zone of dice: give it dice: N (and faces)"
        compiler.findings.append(Finding(pointer, message))
        return None
    return DiceZone(zone, zone.dice)


def roll_step(
    compiler: StepCompiler, item: Mapping[str, Any], at: str, scope: Scope
) -> Step | None:
    """The `roll: ZONE` step (with `n:`), or None after a finding."""
    found = _dice_zone(compiler, item["roll"], f"{at}/roll", scope)
    if found is None:
        return None
    zone, dice = found
    count = None
    if "n" in item:
        count = compiler.expression(item["n"], scope, f"{at}/n", Kind.NUMBER)[0]
    faces = faces_of(zone, scope.cards)
    if not faces:
        return None  # the catalog has none of its kind: found with the zone
    name, first, public = zone.name, zone.first, zone.seen is Seen.EVERYONE
    where = compiler.where(f"{at}/roll")

    def roll(state: DataState, seat: int, env: list[Any]) -> None:
        n = dice if count is None else count(state, seat, env)
        if not 0 <= n <= MAX_ROLLED:
            raise RulesFault(f"{where}: roll: {n} dice (0 to {MAX_ROLLED} at a time)")
        state.piles[first][:] = state.chance.roll_dice(name, [faces] * n, public)
        state.rerolls.pop(name, None)  # a fresh roll: its rerolls start again

    return roll


# --- rerolling some dice of a pool ---

MAX_REROLLED = 6  # dice of a pool a reroll chooses among (at most 63 choices)


@dataclass(frozen=True)
class Reroll:
    """An action's `reroll: ZONE` (with `times: N`): the player chooses which of the
    pool's dice to roll again (each distinct set of faces once, logged as `six+six`),
    up to N times after each `roll` of the pool; then those dice are rolled."""

    zone: Zone
    faces: tuple[int, ...]  # each die's faces
    times: int
    ids: tuple[str, ...]  # every card's id
    slot: int  # env slot of the chosen faces (cards, in card order)
    where: str
    fields: tuple[str, ...] = ("dice",)

    def _pool(self, state: DataState) -> list[int]:
        pool = state.piles[self.zone.first]
        if len(pool) > MAX_REROLLED:
            raise RulesFault(f"{self.where}: reroll: {len(pool)} dice (at most {MAX_REROLLED})")
        return pool

    def choices(self, state: DataState, seat: int, env: list[Any]) -> Iterator[tuple[Any, ...]]:
        if state.rerolls.get(self.zone.name, 0) >= self.times:
            return
        held = Counter(self._pool(state))
        shown = sorted(held)
        for counts in product(*(range(held[face] + 1) for face in shown)):
            if any(counts):
                yield (
                    self._shown(
                        face for face, n in zip(shown, counts, strict=True) for _ in range(n)
                    ),
                )

    def _shown(self, faces: Iterable[int]) -> str:
        return "+".join(self.ids[face] for face in faces)

    def bind(self, state: DataState, seat: int, chosen: tuple[Any, ...], env: list[Any]) -> bool:
        if state.rerolls.get(self.zone.name, 0) >= self.times or not isinstance(chosen[0], str):
            return False
        by_id = {self.ids[face]: face for face in set(self._pool(state))}
        faces = [by_id.get(name, HOLE) for name in chosen[0].split("+")]
        want, held = Counter(faces), Counter(self._pool(state))
        if HOLE in want or any(held[face] < n for face, n in want.items()):
            return False
        if self._shown(sorted(faces)) != chosen[0]:
            return False  # one spelling per choice: faces in order
        env[self.slot] = tuple(sorted(faces))
        return True

    def step(self, state: DataState, seat: int, env: list[Any]) -> None:
        """Roll the chosen dice again: each goes back where it lay, showing a new face."""
        pool, chosen = state.piles[self.zone.first], env[self.slot]
        places: list[int] = []
        for face in chosen:
            places.append(next(i for i, die in enumerate(pool) if die == face and i not in places))
        rolled = state.chance.roll_dice(self.zone.name, [self.faces] * len(places),
                                        self.zone.seen is Seen.EVERYONE)  # fmt: skip
        for place, face in zip(places, rolled, strict=True):
            pool[place] = face
        state.rerolls[self.zone.name] = state.rerolls.get(self.zone.name, 0) + 1


def reroll_of(
    compiler: StepCompiler, given: Mapping[str, Any], at: str, scope: Scope
) -> Reroll | None:
    """An action's `reroll: ZONE` and `times` (None after a finding)."""
    found = _dice_zone(compiler, given["reroll"], f"{at}/reroll", scope)
    if found is None:
        return None
    zone, dice = found
    if dice > MAX_REROLLED:
        message = f"{zone.name} has {dice} dice: a reroll chooses among at most {MAX_REROLLED}"
        compiler.findings.append(Finding(f"{at}/reroll", message))
        return None
    faces = faces_of(zone, scope.cards)
    if not faces:
        return None
    return Reroll(zone, faces, given.get("times", 1), scope.cards.ids, scope.reserve(),
                  compiler.where(f"{at}/reroll"))  # fmt: skip

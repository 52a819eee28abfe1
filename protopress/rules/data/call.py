"""The escape hatch: a step `call: NAME` runs a Python function of the designer's, for
an effect the language cannot say. The function comes ONLY from the file named by
--rules-code FILE (protopress.rules.plugins loads it): a rules file alone never runs
code, and without the flag a `call` is a located problem saying so.

The function takes one argument, a `RulesView` of the game as the rules see it at
that step: the player whose rule runs, the pools of resources, the cards in each
zone by id and the options; it may change pools only (`gain`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.expr import Scope
from protopress.rules.data.load import Finding
from protopress.rules.data.model import HOLE, DataState, Step

Functions = Mapping[str, Callable[..., Any]]  # a --rules-code file's functions, by name


class RulesView:
    """The game at a `call` step, by the rules file's names. `seat` is the player the
    rules call `my`; every `seat=` argument defaults to it."""

    __slots__ = ("_ids", "_resources", "_scope", "_state", "seat")

    def __init__(self, state: DataState, seat: int, scope: Scope, ids: tuple[str, ...]):
        self._state, self.seat, self._scope, self._ids = state, seat, scope, ids
        self._resources = scope.resources

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def turns(self) -> int:
        """Turns completed, all seats."""
        return self._state.turns

    def option(self, name: str) -> Any:
        return self._state.options[name]

    def _place(self, resource: str) -> int:
        if resource not in self._resources:
            raise ValueError(f"{resource!r} is not a resource of these rules")
        return self._resources[resource]

    def amount(self, resource: str, seat: int | None = None) -> int:
        """How much of resource a player holds."""
        return self._state.pools[self._seat(seat)][self._place(resource)]

    def gain(self, resource: str, n: int = 1, seat: int | None = None) -> None:
        """A player gains n of resource (n below 0: loses it; never below none)."""
        if not isinstance(n, int) or isinstance(n, bool):
            raise ValueError(f"gain takes a whole number, not {n!r}")
        pool, place = self._state.pools[self._seat(seat)], self._place(resource)
        if pool[place] + n < 0:
            raise ValueError(f"the player holds {pool[place]} {resource}, cannot lose {-n}")
        pool[place] += n

    def cards(self, zone: str, seat: int | None = None) -> list[str | None]:
        """The ids of the cards in a zone (a player's own when the zone is each player's),
        bottom to top; None for an empty slot or cell."""
        found = self._scope.zones.get(zone)
        if found is None:
            raise ValueError(f"{zone!r} is not a zone of these rules")
        pile = self._state.piles[found.first + (self._seat(seat) if found.each else 0)]
        return [None if card == HOLE else self._ids[card] for card in pile]

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            return self.seat
        if not isinstance(seat, int) or not 0 <= seat < self._state.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self._state.players - 1}")
        return seat


def call_step(
    name: str, pointer: str, where: str, scope: Scope, functions: Functions | None,
    findings: list[Finding],
) -> Step | None:  # fmt: skip
    """The step running the function `name` of the --rules-code file; None (and a
    finding) without that file, or when the file has no such function."""
    if functions is None:
        findings.append(Finding(pointer, f"call: {name!r} runs Python: give the file that defines it with --rules-code FILE (a rules file alone never runs code)"))  # fmt: skip
        return None
    function = functions.get(name)
    if function is None:
        hint = did_you_mean(name, functions)
        known = "" if hint or not functions else f"; it defines {', '.join(sorted(functions))}"
        findings.append(Finding(pointer, f"{name!r} is not a function of the --rules-code file{hint}{known}"))  # fmt: skip
        return None
    ids = scope.cards.ids

    def call(state: DataState, seat: int, env: list[Any]) -> None:
        try:
            function(RulesView(state, seat, scope, ids))
        except (Exception, SystemExit) as error:  # the designer's code, whatever it raised
            raise RulesFault(f"{where}: call {name}: {type(error).__name__}: {error}") from None

    return call

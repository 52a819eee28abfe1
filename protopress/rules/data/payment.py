"""Payments with wildcards and trades: how a player pays a cost when the exact
resources are short.

A rules file's `payment: {wild: [lantern], trade: 2}` says: a `wild` resource
pays for any one missing resource, and `trade` alike resources (of one kind,
not wild) pay for one missing resource of another kind. A cost is paid in a
fixed order, so a game stays deterministic: first the exact resources, then
wild ones (in the order given), then trades, each from the resource the
player has the most of beyond the cost (ties: the first in resource order).

An action's own `pay: COST` leaves the way to the player instead: its legal actions
list each distinct way (`ways_to_pay`, that fixed order's first), logged as the
resources taken. Its `trade` is a trade with the supply as an action of its own:
`alike: N` (N of one kind for 1 of any other) or `give` and `get` (named resources).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.load import Finding
from protopress.rules.data.model import Compiled, DataState


@dataclass(frozen=True)
class Payment:
    """The places of the wild resources in a pool, and how many alike make a trade."""

    wild: tuple[int, ...] = ()
    trade: int | None = None

    def plan(self, pool: Sequence[int], counts: Sequence[tuple[int, int]]) -> list[int] | None:
        """How many of each resource paying counts takes from pool; None: it cannot."""
        take = [0] * len(pool)
        short = 0
        for place, n in counts:
            used = min(pool[place], n)
            take[place] += used
            short += n - used
        for place in self.wild:
            if not short:
                break
            used = min(pool[place] - take[place], short)
            take[place] += used
            short -= used
        trade = self.trade
        while short and trade:
            spare, best = trade - 1, -1
            for place, held in enumerate(pool):
                if place not in self.wild and held - take[place] > spare:
                    spare, best = held - take[place], place
            if best < 0:
                return None
            take[best] += trade
            short -= 1
        return None if short else take

    def pay(self, pool: list[int], counts: Sequence[tuple[int, int]]) -> bool:
        """Pay counts from pool; False (pool untouched) when it cannot."""
        take = self.plan(pool, counts)
        if take is None:
            return False
        for place, n in enumerate(take):
            pool[place] -= n
        return True


def payment_of(
    declared: Mapping[str, Any] | None, resources: Mapping[str, int], findings: list[Finding]
) -> Payment | None:
    """The rules file's `payment` (None when it has none: exact costs only)."""
    if declared is None:
        return None
    wild: list[int] = []
    for i, name in enumerate(declared.get("wild", ())):
        place = resources.get(name)
        if place is None:
            hint = did_you_mean(name, resources)
            findings.append(Finding(f"/payment/wild/{i}", f"{name!r} is not a resource of this catalog{hint}"))  # fmt: skip
        else:
            wild.append(place)
    if not resources:
        findings.append(Finding("/payment", "payment needs resources to pay with"))
    return Payment(tuple(wild), declared.get("trade"))


# --- a player choosing how to pay, and trades with the supply as actions ---

MAX_WAYS = 12  # ways to pay one cost an action offers
MAX_TRIED = 4096  # partial payments tried while listing them (a bound on the work)


def ways_to_pay(
    payment: Payment, pool: Sequence[int], counts: Sequence[tuple[int, int]]
) -> list[tuple[int, ...]]:
    """The distinct ways pool can pay counts, each as how many of each resource it
    takes: none when the fixed order (`Payment.plan`) cannot pay; else that way first,
    then the others, each unit of the cost paid by itself, a wild, or a trade of alike
    resources of another kind (never wild), in resource order; at most MAX_WAYS."""
    first = payment.plan(pool, counts)
    if first is None:
        return []
    found = {tuple(first): None}
    units = [place for place, n in counts for _ in range(n)]
    payers = {place: _payers(payment, place, len(pool)) for place in set(units)}
    take = [0] * len(pool)
    tried = 0

    def search(unit: int, lowest: int) -> None:
        nonlocal tried
        if len(found) >= MAX_WAYS or tried >= MAX_TRIED:
            return
        tried += 1
        if unit == len(units):
            found.setdefault(tuple(take), None)
            return
        place = units[unit]
        same = unit > 0 and units[unit - 1] == place  # alike units: payers in order only
        for index, (source, amount) in enumerate(payers[place]):
            if same and index < lowest:
                continue
            if take[source] + amount <= pool[source]:
                take[source] += amount
                search(unit + 1, index)
                take[source] -= amount

    search(0, 0)
    return list(found)


def _payers(payment: Payment, place: int, resources: int) -> list[tuple[int, int]]:
    """What may pay one unit of resource place: (the resource taken, how many)."""
    found = [(place, 1)] + [(wild, 1) for wild in payment.wild if wild != place]
    if payment.trade:
        found += [(other, payment.trade) for other in range(resources)
                  if other != place and other not in payment.wild]  # fmt: skip
    return found


def shown_payment(take: Sequence[int], names: Sequence[str]) -> str:
    """A way to pay as logged: each resource taken, in resource order (`wood+wood+pearl`)."""
    return "+".join(name for name, n in zip(names, take, strict=True) for _ in range(n))


@dataclass(frozen=True)
class PayChoice:
    """An action's `pay: COST`: the player chooses among the distinct ways to pay it,
    logged as the resources taken; the action is offered only when one way pays."""

    cost: Compiled  # the cost: a resource or a list of them
    need: Callable[[Any], list[tuple[int, int]]]  # Scope.need
    payment: Payment
    names: tuple[str, ...]  # the resources, in order
    slot: int  # env slot of the chosen way (how many of each resource)
    where: str
    fields: tuple[str, ...] = ("paid",)

    def _ways(self, state: DataState, seat: int, env: list[Any]) -> list[tuple[int, ...]]:
        cost = self.cost(state, seat, env)
        try:
            counts = self.need(() if cost is None else cost)
        except RulesFault as fault:
            raise RulesFault(f"{self.where}: pay: {fault}") from None
        return ways_to_pay(self.payment, state.pools[seat], counts)

    def choices(self, state: DataState, seat: int, env: list[Any]) -> Iterator[tuple[Any, ...]]:
        for take in self._ways(state, seat, env):
            yield (shown_payment(take, self.names),)

    def bind(self, state: DataState, seat: int, chosen: tuple[Any, ...], env: list[Any]) -> bool:
        for take in self._ways(state, seat, env):
            if (shown_payment(take, self.names),) == chosen:
                env[self.slot] = take
                return True
        return False

    def step(self, state: DataState, seat: int, env: list[Any]) -> None:
        """Pay the chosen way (before the action's `do` steps)."""
        pool = state.pools[seat]
        for place, n in enumerate(env[self.slot]):
            pool[place] -= n


@dataclass(frozen=True)
class AlikeTrade:
    """`trade: {alike: N}`: N alike resources of one kind to the supply for 1 of any
    other kind, logged as [verb, give, get]."""

    alike: int
    names: tuple[str, ...]
    slot: int  # env slot of (give, get) places
    fields: tuple[str, ...] = ("give", "get")

    def choices(self, state: DataState, seat: int, env: list[Any]) -> Iterator[tuple[Any, ...]]:
        pool, names = state.pools[seat], self.names
        for give, held in enumerate(pool):
            if held >= self.alike:
                yield from ((names[give], names[get]) for get in range(len(names)) if get != give)

    def bind(self, state: DataState, seat: int, chosen: tuple[Any, ...], env: list[Any]) -> bool:
        give, get = (self.names.index(n) if n in self.names else -1 for n in chosen)
        if give < 0 or get < 0 or give == get or state.pools[seat][give] < self.alike:
            return False
        env[self.slot] = (give, get)
        return True

    def step(self, state: DataState, seat: int, env: list[Any]) -> None:
        give, get = env[self.slot]
        pool = state.pools[seat]
        pool[give] -= self.alike
        pool[get] += 1


@dataclass(frozen=True)
class NamedTrade:
    """`trade: {give: COST, get: GAIN}`: exactly these resources to the supply for those,
    logged as [verb]; offered when the player holds what it gives."""

    give: tuple[tuple[int, int], ...]  # (resource place, how many)
    get: tuple[tuple[int, int], ...]
    fields: tuple[str, ...] = ()

    def choices(self, state: DataState, seat: int, env: list[Any]) -> Iterator[tuple[Any, ...]]:
        pool = state.pools[seat]
        if all(pool[place] >= n for place, n in self.give):
            yield ()

    def bind(self, state: DataState, seat: int, chosen: tuple[Any, ...], env: list[Any]) -> bool:
        return any(True for _ in self.choices(state, seat, env))

    def step(self, state: DataState, seat: int, env: list[Any]) -> None:
        pool = state.pools[seat]
        for place, n in self.give:
            pool[place] -= n
        for place, n in self.get:
            pool[place] += n


def trade_of(
    given: Mapping[str, Any], at: str, resources: Mapping[str, int], slot: int,
    findings: list[Finding],
) -> AlikeTrade | NamedTrade | None:  # fmt: skip
    """An action's `trade` (None after a finding): alike N, or give and get."""
    if not resources:
        findings.append(Finding(at, "a trade needs resources to trade"))
        return None
    names = tuple(resources)
    if "alike" in given:
        if "give" in given or "get" in given:
            findings.append(Finding(at, "a trade is alike: N (any kind), or give and get (named): not both"))  # fmt: skip
            return None
        return AlikeTrade(given["alike"], names, slot)
    missing = [key for key in ("give", "get") if key not in given]
    if missing:
        findings.append(Finding(at, f"a trade needs {missing[0]!r} (or alike: N)"))
        return None
    sides = []
    for key in ("give", "get"):
        listed = given[key] if isinstance(given[key], list) else [given[key]]
        counts: dict[int, int] = {}
        for i, name in enumerate(listed):
            place = resources.get(name)
            if place is None:
                hint = did_you_mean(name, resources)
                pointer = f"{at}/{key}" + (f"/{i}" if isinstance(given[key], list) else "")
                findings.append(Finding(pointer, f"{name!r} is not a resource of this catalog{hint}"))  # fmt: skip
            else:
                counts[place] = counts.get(place, 0) + 1
        sides.append(tuple(sorted(counts.items())))
    return NamedTrade(sides[0], sides[1])

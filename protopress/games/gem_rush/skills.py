"""Gem Rush skills: the catalog's skill effects, who holds which card, and
how often each may be used. Rulings: docs/rules/gem-rush.md.

Every effect op of the skill-card schema is interpreted here:

- extra_step, hand_limit, extra_draw, build_bonus, build_draw: numbers the
  game adds where the rule applies;
- substitute: payments (`payments`), reusing gem_rush_payment on each way
  the substituted gems could be read;
- reverse_one_way, tunnel_exit: extra movement links (`reverse_links`,
  `tunnel_exits`), read from the same Mine the engine moves dwarves on;
- discard_draw, keep_extra, warp_free, burn_from_discard: offered by the
  game and the room-effect interpreter when the skill is available.

A skill's `limit` (always, once-per-turn, once-per-game) is checked by
`offered`; `use` records a use, which in the Chaos Magic variant also obliges
the player to change skills at the end of the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, product
from typing import TYPE_CHECKING

from protopress.components import Component
from protopress.games.gem_rush.mine import OPPOSITE, Cell, Mine, neighbour
from protopress.games.gem_rush.payment import (
    DIAMOND_DUST,
    ECHOGLASS,
    ORICHALCUM,
    Card,
    Payment,
    can_pay,
    can_pay_from,
    counts,
    minimal_payments,
    orichalcum_bonus,
)

if TYPE_CHECKING:  # the state holds skills' tables: only annotations name it here
    from protopress.games.gem_rush.state import GemRushState

OPS = (
    "extra_step", "hand_limit", "substitute", "build_bonus", "build_draw", "reverse_one_way",
    "tunnel_exit", "extra_draw", "discard_draw", "keep_extra", "warp_free", "burn_from_discard",
)  # fmt: skip
LIMITS = ("always", "once-per-turn", "once-per-game")
GAME_BIT = 64  # used_game bit of (seat, skill): seat * GAME_BIT + skill


@dataclass(frozen=True)
class Effect:
    op: str
    amount: int = 0
    gem: str = ""  # build_bonus: the gem the payment must show ("" any); substitute: the gem spent
    as_: tuple[str, ...] = ()  # substitute: the gems it may pay for


@dataclass(frozen=True)
class Skill:
    id: str
    title: str
    limit: str
    effects: tuple[Effect, ...]
    ops: frozenset[str] = field(init=False, repr=False, compare=False)  # of the effects

    def __post_init__(self) -> None:
        object.__setattr__(self, "ops", frozenset(effect.op for effect in self.effects))

    @classmethod
    def from_component(cls, component: Component) -> Skill:
        effects = tuple(
            Effect(e["op"], e.get("amount", 0), e.get("gem", ""), tuple(e.get("as", ())))
            for e in component["effects"]
        )
        for effect in effects:
            if effect.op not in OPS:
                raise ValueError(f"skill {component.id}: unknown effect {effect.op!r}")
        return cls(component.id, component["title"], component["limit"], effects)

    def has(self, op: str) -> bool:
        return op in self.ops


def skill_cards(components: Iterable[Component], mode: str) -> tuple[Skill, ...]:
    """Every copy of every skill card; in Rush mode the Crisis-only ones are set aside
    (a skill whose only effect is burn_from_discard does nothing there)."""
    cards = []
    for component in components:
        skill = Skill.from_component(component)
        if mode == "rush" and all(e.op == "burn_from_discard" for e in skill.effects):
            continue
        cards.extend([skill] * component.count)
    return tuple(cards)


# --- holding and limits -----------------------------------------------------


def available(state: GemRushState, seat: int, k: int, next_turn: bool = False) -> bool:
    """Whether skill card k may still be used by seat (its limit not yet reached); with
    next_turn, at the start of seat's next turn (this turn's uses are forgotten)."""
    limit = state.table.skills[k].limit
    if limit == "once-per-turn":
        return next_turn or not state.used_turn >> k & 1
    if limit == "once-per-game":
        return not state.used_game >> (seat * GAME_BIT + k) & 1
    return True


def offered(
    state: GemRushState, seat: int, op: str, next_turn: bool = False
) -> list[tuple[int, Effect]]:
    """(skill card, effect) pairs of op that seat holds and may use now (or at the
    start of its next turn)."""
    found: list[tuple[int, Effect]] = []
    for k in state.skills[seat]:
        skill = state.table.skills[k]
        if skill.has(op) and available(state, seat, k, next_turn):
            found.extend((k, effect) for effect in skill.effects if effect.op == op)
    return found


def use(state: GemRushState, seat: int, k: int) -> None:
    """Record a use of skill card k by seat (limits; Chaos Magic's obligation)."""
    state.used_turn |= 1 << k
    state.used_game |= 1 << (seat * GAME_BIT + k)
    if seat == state.seat:
        state.skill_used = True


def use_op(state: GemRushState, seat: int, op: str) -> None:
    """Record a use of every available skill of seat with op."""
    for k, _ in offered(state, seat, op):
        use(state, seat, k)


def amount(state: GemRushState, seat: int, op: str, next_turn: bool = False) -> int:
    """The total amount of op that seat may use now (0 without such a skill)."""
    return sum(effect.amount for _, effect in offered(state, seat, op, next_turn))


def holds(state: GemRushState, seat: int, op: str, next_turn: bool = False) -> bool:
    return bool(offered(state, seat, op, next_turn))


# --- payments ---------------------------------------------------------------


def substitutes(
    state: GemRushState, seat: int, next_turn: bool = False
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Seat's substitutions as a hashable key: ((gem, gems it may pay for), ...)."""
    table: dict[str, set[str]] = {}
    for _, effect in offered(state, seat, "substitute", next_turn):
        table.setdefault(effect.gem, set()).update(effect.as_)
    return tuple(sorted((gem, tuple(sorted(gems))) for gem, gems in table.items()))


def _readings(card: tuple[str, ...], table: dict) -> tuple[tuple[str, ...], ...]:
    """Every way a card can be read when some of its gems may stand for others."""
    return tuple(sorted(set(product(*[(gem, *table.get(gem, ())) for gem in card]))))


@lru_cache(maxsize=1 << 14)
def means(hand: tuple, subs: tuple = ()) -> dict[str, int]:
    """How many of each gem hand shows, each gem counted also as every gem it may
    stand for (subs): at least as many of each gem as any reading of any of its
    cards shows. For within_means, counted once per hand (shared: never changed)."""
    table = dict(subs)
    return counts(g for card in hand for gem in card for g in (gem, *table.get(gem, ())))


def within_means(cost: tuple[str, ...], gems: dict[str, int]) -> bool:
    """False when no set of cards of the hand whose means are gems can pay cost, so that
    payments(cost, hand, subs) is empty (paying never needs fewer gems); a cheap
    test before the payments of each door."""
    return can_pay_from(_need(cost), gems)


class HandPayments(dict):
    """payments of one hand and its substitutions, by cost, found on first asking
    (hand_payments gives one per hand): listing a dwarf's builds asks them of every
    door in reach, and doors share few costs. A cost beyond the hand's means has
    none, found without a payment search (within_means)."""

    __slots__ = ("cards", "subs", "gems")

    def __init__(self, cards: tuple, subs: tuple):
        super().__init__()
        self.cards, self.subs, self.gems = cards, subs, means(cards, subs)

    def __missing__(self, cost: tuple[str, ...]) -> tuple[Payment, ...]:
        found = self[cost] = (
            payments(cost, self.cards, self.subs) if within_means(cost, self.gems) else ()
        )
        return found


@lru_cache(maxsize=1 << 14)
def hand_payments(cards: tuple, subs: tuple = ()) -> HandPayments:
    """The HandPayments of a hand (shared: only ever filled with what payments gives)."""
    return HandPayments(cards, subs)


@lru_cache(maxsize=1024)
def _need(cost: tuple[str, ...]) -> dict[str, int]:
    return counts(cost)  # shared: never changed


@lru_cache(maxsize=1 << 16)
def payments(cost: tuple[str, ...], hand: tuple, subs: tuple = ()) -> tuple[Payment, ...]:
    """Minimal payments of cost from hand (indices into hand), one per distinct set
    of cards paid.

    Only cards showing a gem that can help are looked at (a card without one is
    never part of a minimal payment: dropping it pays just as well).
    """
    useful = _useful(cost, subs)
    kept = sorted(
        (card, i) for i, card in enumerate(hand) if not useful.isdisjoint(card)
    )  # sorted, so that hands holding the same useful cards share one computation
    found = _payments(cost, tuple(card for card, _ in kept), subs)
    mapped = (Payment(tuple(sorted(kept[j][1] for j in p.cards)), p.bonus) for p in found)
    return tuple(sorted(mapped, key=lambda p: (len(p.cards), p.cards)))


class Bonuses(dict):
    """best_bonus of one hand and its substitutions, by cost, found on first asking:
    a door's answer read again without hashing the hand (bonuses gives one per hand).

    Without substitutions and without a card whose Orichalcum can earn a point,
    the answer is whether the whole hand pays (best_bonus: every payment earns
    nothing, and the hand's means are then exactly what it pays with), so
    within_means gives it; test_payment.py holds this to best_bonus. most: the
    most any payment of the hand earns (a payment's bonus is its cards' own, so
    at most the whole hand's)."""

    __slots__ = ("cards", "subs", "gems", "plain", "most")

    def __init__(self, cards: tuple, subs: tuple):
        super().__init__()
        self.cards, self.subs, self.gems = cards, subs, means(cards, subs)
        self.most = orichalcum_bonus(cards)
        self.plain = not subs and not self.most

    def __missing__(self, cost: tuple[str, ...]) -> int | None:
        if not within_means(cost, self.gems):
            found = None
        elif self.plain:
            found = 0
        else:
            found = best_bonus(cost, self.cards, self.subs)
        self[cost] = found
        return found


@lru_cache(maxsize=1 << 14)
def bonuses(cards: tuple, subs: tuple = ()) -> Bonuses:
    """The Bonuses of a hand (shared: only ever filled with what best_bonus gives)."""
    return Bonuses(cards, subs)


@lru_cache(maxsize=1 << 16)
def best_bonus(cost: tuple[str, ...], hand: tuple, subs: tuple = ()) -> int | None:
    """The largest bonus of the payments of cost from hand (None: hand cannot pay), as
    payments gives them, without mapping each to hand indices."""
    useful = _useful(cost, subs)
    kept = tuple(sorted(card for card in hand if not useful.isdisjoint(card)))
    if not any(ORICHALCUM in card and orichalcum_bonus((card,)) for card in kept):
        # every payment earns nothing (a payment's bonus is its cards' own): all that
        # is left is whether one exists, and one does when all the cards pay
        return 0 if _pays(cost, kept, subs) else None
    found = _payments(cost, kept, subs)
    return max(p.bonus for p in found) if found else None


def _pays(cost: tuple[str, ...], cards: tuple, subs: tuple) -> bool:
    """Whether cards pay cost, in some reading of their substitutable gems."""
    if not subs:
        return can_pay(cost, cards)
    table = dict(subs)
    readings = [_readings(card, table) for card in cards]
    return any(can_pay(cost, [*reading]) for reading in product(*readings))


@lru_cache(maxsize=256)
def _useful(cost: tuple[str, ...], subs: tuple) -> frozenset[str]:
    """Gems that can pay part of cost: its kinds, Diamond Dust, Echoglass, and
    gems a skill lets stand for one of its kinds."""
    kinds = set(cost)
    useful = kinds | {DIAMOND_DUST, ECHOGLASS}
    useful.update(gem for gem, stands_for in subs if kinds.intersection(stands_for))
    return frozenset(useful)


@lru_cache(maxsize=1 << 16)
def _payments(cost: tuple[str, ...], hand: tuple, subs: tuple) -> tuple[Payment, ...]:
    """Without substitutions: gem_rush_payment.minimal_payments. With them, a set of
    cards pays when some reading of its substitutable gems pays (can_pay on that
    reading), and is minimal when no card can be dropped; a substituted gem pays
    as the gem it stands for (Echoglass may copy it)."""
    if not subs or not cost:
        # one check of the whole hand first: most doors in reach are out of means
        found = minimal_payments(cost, hand) if can_pay(cost, hand) else []
    elif not within_means(cost, means(hand, subs)):
        found = []  # no reading of the whole hand pays, so no set of its cards does
    else:
        table, need = dict(subs), _need(cost)
        readings = [_readings(card, table) for card in hand]

        known: dict[tuple[int, ...], bool] = {}

        def pays(chosen: tuple[int, ...]) -> bool:
            found = known.get(chosen)
            if found is None:
                found = known[chosen] = any(
                    can_pay_from(need, counts(g for reading in r for g in reading))
                    for r in product(*(readings[i] for i in chosen))
                )
            return found

        found = []
        for size in range(1, min(len(hand), len(cost)) + 1):  # each card pays one gem or more
            for chosen in combinations(range(len(hand)), size):
                if pays(chosen) and not any(
                    pays(chosen[:k] + chosen[k + 1 :]) for k in range(size)
                ):
                    found.append(Payment(chosen, orichalcum_bonus([hand[i] for i in chosen])))
    distinct, seen = [], set()
    for payment in found:
        key = tuple(sorted(hand[i] for i in payment.cards))
        if key not in seen:
            seen.add(key)
            distinct.append(payment)
    return tuple(distinct)


def settle_payment(state: GemRushState, seat: int, cost: Sequence[str], cards: list[Card]) -> int:
    """Record the skills a payment relied on; return the build_bonus points it earns."""
    if state.skills[seat] and not can_pay(cost, cards):
        use_op(state, seat, "substitute")  # the payment needed a substitution
    bonus = 0
    for k, effect in offered(state, seat, "build_bonus"):
        if not effect.gem or any(effect.gem in card for card in cards):
            bonus += effect.amount
            use(state, seat, k)
    return bonus


# --- movement ---------------------------------------------------------------


def reverse_links(links: Mapping[Cell, Sequence[tuple[Cell, int]]]) -> dict[Cell, list[Cell]]:
    """Spelunker: for each one-way passage a -> b (b shows a wall), the link b -> a.

    links are every room's moves on the mine graph. A step a -> b with no step
    b -> a is a one-way passage (tunnel paths are symmetric, so b's side is a wall).
    """
    back: dict[Cell, list[Cell]] = {}
    for a, targets in links.items():
        for b, weight in targets:
            if weight and not any(c == a for c, _ in links.get(b, ())):
                back.setdefault(b, []).append(a)
    return back


def tunnel_exits(mine: Mine, start: Cell) -> list[Cell]:
    """Tunnel Rat: rooms where a dwarf leaving start may stop inside its tunnel chains.

    For each door of start that leads into a tunnel, the chain is walked as
    Mine.follow walks it; every door of every tunnel passed that opens onto a
    non-tunnel room (other than start) is an exit the dwarf may take for the
    same one step.
    """
    exits = []
    for edge in mine.cells[start].door_edges():
        cell, entered, seen = neighbour(start, edge), OPPOSITE[edge], set()
        while (placement := mine.cells.get(cell)) is not None and placement.tile.is_tunnel:
            if (cell, entered) in seen:
                break
            seen.add((cell, entered))
            for side in placement.door_edges():
                other = neighbour(cell, side)
                room = mine.cells.get(other)
                if (
                    room is not None
                    and not room.tile.is_tunnel
                    and other != start
                    and other not in exits
                ):
                    exits.append(other)
            out = placement.tunnel_exit(entered)
            if out is None:
                break
            cell, entered = neighbour(cell, out), OPPOSITE[out]
    return exits

"""Which components each seat used, recorded by the kit for rules that do not say.

The balance lab judges each component by the seats that used it (record extra
`used`: one list of component ids per seat). Rules written as data record it
themselves (rules/data/engine.py), and so may Python rules (docs/own-rules.md);
for any other game `play` watches the game with a `UseRecorder`, which reads only
what the contract gives the kit: the catalog's component ids, the typed actions
and the state's fields. A seat used a component when one of its own actions

- names it: a field of the action (followed into tuples) is the component's id; or
- brings it into a zone the seat owns: after the action the seat's zones hold the
  component and just before it they did not.

A zone the seat owns is the seat's part of a per-seat field of the state (a public
field that, once the game is set up, holds one entry per seat: a list, a tuple, a
set, a mapping, or an object whose public fields hold them, as a player's board or
tableau, but not a card), or its zone in the seat view's `Private` entries (a
hand). A card in a zone is named by its id: a string that is a component id, an
object (a named tuple too) whose `id` is one (its other fields are not read: a
card that produces wood does not name wood), or the ids inside a plain tuple or
list (a card made of gems names each gem). Cards kept as bare numbers (indices
into a table) name nothing: such rules record `used` themselves, as rules whose
shared rows of piles happen to be as many as the seats should.

Where the game's own record has `used`, that wins: the recorder is not run at all
when the record of the new game already has it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from protopress.rules.core import AnyGame
from protopress.rules.information import Private, SeatView
from protopress.rules.observe import public_names

ZONE_DEPTH = 3  # containers followed inside a seat's zone (a tower of spires of gems)
SCALARS = (int, float, bool, bytes, bytearray, type(None))
LEAVES = frozenset(SCALARS)  # the exact types of SCALARS: judged without isinstance
SEQUENCES = frozenset((list, tuple, set, frozenset))  # exact types, likewise

Zones = Callable[[Any], Sequence[Any]]  # a state's per-seat entries, in seat order


def component_ids(catalog: Any) -> frozenset[str]:
    """Every component id of a catalog (of any kind); none for what is no catalog."""
    kinds: Mapping[str, Iterable[Any]] = getattr(catalog, "components", None) or {}
    return frozenset(
        ident
        for components in kinds.values()
        for component in components
        if isinstance(ident := getattr(component, "id", None), str)
    )


def action_ids(action: Any, ids: frozenset[str]) -> set[str]:
    """The component ids an action names: its fields but the verb (a typed action's
    last field, a plain tuple's first), followed into tuples."""
    if not isinstance(action, tuple):
        return set()
    values = action[:-1] if hasattr(action, "_fields") else action[1:]
    found: set[str] = set()
    for value in values:
        _named(value, ids, found, ZONE_DEPTH)
    return found


def _named(value: Any, ids: frozenset[str], found: set[str], depth: int) -> None:
    """Add to found the ids value names: an id, an object whose `id` is one, or (depth
    allowing) those inside a list, tuple, set or mapping (keys and values). The
    recorder's hot path: the common types are told by their exact type first."""
    kind = type(value)
    if kind is str:
        if value in ids:
            found.add(value)
    elif kind in LEAVES:
        return
    elif kind in SEQUENCES:
        if depth:
            _named_in(value, ids, found, depth - 1)
    elif isinstance(value, SCALARS):
        return
    elif isinstance(ident := getattr(value, "id", None), str):  # a card: named by its id
        if ident in ids:
            found.add(ident)
    elif isinstance(value, (dict, Mapping)):
        if depth:
            _named_in(value.keys(), ids, found, depth - 1)
            _named_in(value.values(), ids, found, depth - 1)
    elif depth and isinstance(value, list | tuple | set | frozenset):  # a named tuple...
        _named_in(value, ids, found, depth - 1)


def _named_in(items: Iterable[Any], ids: frozenset[str], found: set[str], depth: int) -> None:
    for item in items:
        kind = type(item)
        if kind is str:
            if item in ids:
                found.add(item)
        elif kind in SEQUENCES:
            if depth:
                _named_in(item, ids, found, depth - 1)
        elif kind not in LEAVES:
            _named(item, ids, found, depth)


def _is_zone(value: Any) -> bool:
    return type(value) in SEQUENCES or isinstance(
        value, (list, tuple, set, frozenset, dict, Mapping)
    )


def _is_entry(value: Any) -> bool:
    """A seat's entry of a per-seat field: a zone, or an object (a player's board) that
    is no card (a card has an `id`: a row of as many cards as seats is no seat's)."""
    return (
        not isinstance(value, (str, *SCALARS))
        and not callable(value)
        and not isinstance(getattr(value, "id", None), str)
    )


class SeatZones(NamedTuple):
    """One place of a state where each seat has its own zones: how to read every seat's
    entry, and for entries that are objects (a player's board), the names of their
    fields that are zones (None: each entry is a zone itself)."""

    entries: Zones
    parts: tuple[str, ...] | None


def seat_zones(state: Any, players: int, view: SeatView[Any] | None) -> list[SeatZones]:
    """The per-seat fields of state (public fields holding one entry per seat) and the
    seat view's private zones (hands), each once, read from the state just set up."""
    found: list[SeatZones] = []
    known: set[int] = set()  # the ids of per-seat lists already found (a hand is both)
    getters: list[Zones] = [attrgetter(name) for name in public_names(state)]
    getters += [
        zones
        for entry in (() if view is None else view.hidden)
        if isinstance(entry, Private)
        for zones in (entry.zones, *entry.also)
    ]
    for entries in getters:
        value = entries(state)
        if (
            not isinstance(value, list | tuple)
            or len(value) != players
            or not all(_is_entry(entry) for entry in value)
            or id(value) in known
        ):
            continue
        known.add(id(value))
        first = value[0]
        parts = (
            None
            if _is_zone(first)
            else tuple(name for name in public_names(first) if _is_zone(getattr(first, name)))
        )
        found.append(SeatZones(entries, parts))
    return found


class UseRecorder:
    """Watches one game: per seat, the ids of the components it used (module docstring)."""

    __slots__ = ("ids", "zones", "used", "last")

    def __init__(self, ids: frozenset[str], zones: list[SeatZones], players: int):
        self.ids = ids
        self.zones = zones
        self.used: list[set[str]] = [set() for _ in range(players)]
        # (seat, what its zones held) after the last action: the state has not changed
        # since, so a seat moving again starts from it rather than looking again
        self.last: tuple[int, set[str]] | None = None

    @classmethod
    def watching(cls, game: AnyGame, catalog: Any, state: Any, players: int) -> UseRecorder | None:
        """A recorder for the game just set up in state; None when there is nothing to
        do: the game's record says `used` itself, or the catalog names no component."""
        ids = component_ids(catalog)
        if not ids or _records_use(game, state):
            return None
        return cls(ids, seat_zones(state, players, getattr(game, "seat_view", None)), players)

    def held(self, state: Any, seat: int) -> set[str]:
        """The component ids seat's zones hold now."""
        found: set[str] = set()
        ids = self.ids
        for entries, parts in self.zones:
            try:  # a field found at setup may be gone or of another shape by now
                entry = entries(state)[seat]
            except (AttributeError, IndexError, KeyError, TypeError):
                continue
            if parts is None:
                _named(entry, ids, found, ZONE_DEPTH)
            else:  # a player's object: its own id, and its zones
                _named(entry, ids, found, 0)
                for name in parts:
                    _named(getattr(entry, name, None), ids, found, ZONE_DEPTH)
        return found

    def apply(self, game: AnyGame, state: Any, seat: int, action: Any) -> None:
        """Apply seat's action to state, noting what it named and brought into seat's zones."""
        last = self.last
        before = last[1] if last is not None and last[0] == seat else self.held(state, seat)
        game.apply(state, action)
        after = self.held(state, seat)
        self.last = (seat, after)
        used = self.used[seat]
        used |= action_ids(action, self.ids)
        used |= after - before

    def record(self, extra: Mapping[str, Any]) -> dict[str, Any]:
        """The game's record with `used` added, sorted ids per seat (the game's own wins)."""
        if "used" in extra:
            return dict(extra)
        return {**extra, "used": [sorted(ids) for ids in self.used]}


def _records_use(game: AnyGame, state: Any) -> bool:
    """Whether the game's record says `used` itself (asked of the state just set up).
    A record that fails there is asked again at the end, where its error is the game's."""
    try:
        return "used" in game.record(state)
    except Exception:
        return False

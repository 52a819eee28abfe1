"""What one seat may see of a state, as JSON: the table a person plays at.

A game may say it itself with an optional `observation(state, seat)` method on its
engine (JSON-ready data). Without one, the view is derived from the state and the
engine's `seat_view` (rules/information.py), the same declaration the bots'
determinisation and the fairness checks read:

- every public field of the state is written out: numbers, text, lists, mappings,
  sets, named tuples, dataclasses and plain objects, followed recursively (bounded).
  Public means one rule, for every game: a name not starting with `_`, and, at the
  state's top level, not among the fields its spec declares the engine's bookkeeping
  (`GameSpec.internal_fields`: caches, copy-sharing marks), which no seat is shown;
- a list the seat view declares hidden from this seat (a face-down pile, another
  seat's private zone, another seat's secret cards) is written as
  {"hidden": NAME, "count": N} (with "shows": what the others see of each secret
  card, when the declaration says); a secret card held elsewhere as an object is
  written the same way, with count 1;
- never written: the state's chance (its generator would tell the dice and
  shuffles to come), functions, classes, and any field holding the game's typed
  actions (a cache of legal actions is the mover's to know, not the table's);
- `hidden` lists every hidden field with its size, including piles kept out of
  sight under a private slot name (a pile laid out when read).

Then a proof by twins: the view is taken again of states the seat cannot tell from
the real one (copies with chance re-seeded and every hidden field resampled from what
the seat sees, as a bot's determinisation does), and any part of the view that
differs between them is replaced by {"unseen": true}. What the declaration misses
(a cached score that read another seat's secret card) is dropped this way, whatever
the game; the price is that parts which differ by accident (a cache computed in one
copy and not yet in another) are not shown either.

Scores are given only once the game is over: a running score may be computed from
what a seat cannot see.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Mapping, Sequence
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any

from protopress.rules.chance import Chance
from protopress.rules.core import AnyGame, codec_of
from protopress.rules.information import (
    FaceDown,
    FaceDownEach,
    Private,
    SeatView,
    Secret,
    reseed,
)

TWINS = 2  # states the seat cannot tell from the real one, whose views must agree with it
TWIN_ATTEMPTS = 16  # determinisations drawn to find twins whose secret cards differ
TWINS_SEED = 0  # their hidden parts are drawn from what the seat sees alone, so any seed does
UNSEEN = {"unseen": True}  # a part of the view that differs between such states
OBSERVATION_DEPTH = 24  # nesting written before a value is cut ("...")
CUT = "..."


class _HoldsActions(Exception):
    """A field holds typed actions: left out of the view (see the module docstring)."""


KindOf = Callable[[Any], str | None]  # the component kind of a card, None when unknown


def observation(
    game: AnyGame, state: Any, seat: int, players: int, kind_of: KindOf | None = None
) -> dict[str, Any]:
    """The JSON view of state that seat (of players) may see: the game's own
    `observation` when its engine has one, else the view derived from its `seat_view`.
    kind_of: the component kind of a card, to name the kind of a hidden pile's backs
    (see derived_view). Nothing is scored before the end: a state's score may fill its
    caches, and the view must not change what it looks at."""
    over = game.is_over(state)
    table = _table(game, state, seat, kind_of)
    view: SeatView[Any] | None = getattr(game, "seat_view", None)
    if view is not None and view.hidden:
        for twin in twins(view, state, seat):
            table = agreed(table, _table(game, twin, seat, kind_of))
    return {
        "seat": seat,
        "players": players,
        "to_move": None if over else game.to_move(state),
        "over": over,
        "scores": list(game.scores(state)) if over else None,
        "winners": list(game.winners(state)) if over else None,
        **table,
    }


def twins(view: SeatView[Any], state: Any, seat: int) -> list[Any]:
    """TWINS states seat cannot tell from state, each with other secret cards than the
    real ones wherever another card could be there: a determinisation may deal a seat
    its real secret card again (one of two blueprints with the same entrance, half the
    time), and a twin that does proves nothing about what that card decides. Up to
    TWIN_ATTEMPTS are drawn; a secret no other card could stand for stays as it is."""
    real = _secrets(view, state, seat)
    rng = random.Random(TWINS_SEED)
    found: list[Any] = []
    fallback: list[Any] = []
    for _ in range(TWIN_ATTEMPTS):
        twin = state.copy()
        reseed(twin, rng.getrandbits(64))
        view.determinize(twin, seat, rng, lazily=False)
        dealt = _secrets(view, twin, seat)
        if all(a != b for a, b in zip(real, dealt, strict=True)):
            found.append(twin)
        elif len(fallback) < TWINS:
            fallback.append(twin)
        if len(found) == TWINS:
            return found
    return found + fallback[: TWINS - len(found)]


def _secrets(view: SeatView[Any], state: Any, seat: int) -> list[Any]:
    """The secret cards of the other seats, one entry per seat holding any."""
    held = []
    for entry in view.hidden:
        if isinstance(entry, Secret):
            held += [
                list(cards)
                for owner, cards in enumerate(entry.held(state))
                if owner != seat and cards
            ]
    return held


def _table(game: AnyGame, state: Any, seat: int, kind_of: KindOf | None) -> dict[str, Any]:
    own = getattr(game, "observation", None)
    return own(state, seat) if own is not None else derived_view(game, state, seat, kind_of)


def agreed(one: Any, other: Any) -> Any:
    """one, with every part that differs in other replaced by UNSEEN: followed into
    objects (a key other lacks: UNSEEN) and lists of the same length, else replaced whole."""
    if one == other:
        return one
    if isinstance(one, dict) and isinstance(other, dict):
        return {
            key: agreed(value, other[key]) if key in other else dict(UNSEEN)
            for key, value in one.items()
        }
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        return [agreed(a, b) for a, b in zip(one, other, strict=True)]
    return dict(UNSEEN)


def derived_view(
    game: AnyGame, state: Any, seat: int, kind_of: KindOf | None = None
) -> dict[str, Any]:
    """{"fields": the state's public fields with hidden ones replaced, "hidden": sizes,
    "fixed": the fields whose values are immutable (tuples, frozen dataclasses)}.

    A hidden pile whose cards are all of one kind (by kind_of) says that kind, so
    that its backs can be drawn: a seat knows what kind of card lies face down. Piles
    whose cards are pooled (the others' hands and their deck) say the kind of all
    of them together, so that it tells nothing of which card is where."""
    view: SeatView[Any] | None = getattr(game, "seat_view", None)
    hidden = _HiddenFrom(view, state, seat, kind_of or _no_kind)
    kinds = tuple(getattr(codec_of(game), "kinds", {}).values())
    writer = _Writer(hidden, kinds)
    fields: dict[str, Any] = {}
    fixed: list[str] = []
    for name in shown_fields(game, state):
        value = getattr(state, name)
        try:
            fields[name] = writer.write(value, 0)
        except (_HoldsActions, _Skip):
            continue
        if _immutable(value) and id(value) not in hidden.lists:
            fixed.append(name)
    return {"fields": fields, "hidden": hidden.summary, "fixed": fixed}


def _immutable(value: Any) -> bool:
    """A tuple, frozenset or frozen dataclass: a value replaced, never changed in place
    (most often a game's tables, read from its catalog)."""
    if isinstance(value, tuple | frozenset):
        return True
    params = getattr(type(value), "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


class _Skip(Exception):
    """A value never written (chance, code)."""


class _HiddenFrom:
    """The lists and secret cards of state that seat may not see, by identity."""

    def __init__(self, view: SeatView[Any] | None, state: Any, seat: int, kind_of: KindOf):
        self.kind_of = kind_of
        self.lists: dict[int, dict[str, Any]] = {}  # id of a hidden list -> what to write
        self.cards: dict[int, dict[str, Any]] = {}  # id of a secret card object -> what to write
        self.kept: list[Any] = []  # the objects by whose ids they are known stay alive
        self.summary: list[dict[str, Any]] = []
        for entry in () if view is None else view.hidden:
            self._declare(entry, state, seat)

    def _declare(self, entry: Any, state: Any, seat: int) -> None:
        if isinstance(entry, FaceDown):
            pile = entry.pile(state)
            self._hide(entry.name, pile, None, self._kind([pile]))
        elif isinstance(entry, FaceDownEach):
            for key, pile in entry.piles(state).items():
                self._hide(f"{entry.name}[{key}]", pile, None, self._kind([pile]))
        elif isinstance(entry, Private):
            is_open = entry.open is not None and entry.open(state)
            zones = entry.zones(state)
            others = [zone for owner, zone in enumerate(zones) if owner != seat and not is_open]
            pile = [] if entry.pool is None else entry.pool.pile(state)
            kind = self._kind([*others, pile])  # of all the cards pooled: the same in any twin
            if entry.pool is not None:
                self._hide(entry.pool.name, pile, None, kind)
            for owner, zone in enumerate(zones):
                if owner != seat and not is_open:
                    self._hide(entry.name, zone, owner, kind)
        elif isinstance(entry, Secret):
            shows = entry.shows
            for owner, cards in enumerate(entry.held(state)):
                if owner == seat or not cards:
                    continue
                faces = None if shows is None else [_plain(shows(card)) for card in cards]
                self._hide(entry.name, cards, owner, None, faces)
                for card, face in zip(cards, faces or [None] * len(cards), strict=True):
                    if not isinstance(card, str | int | float | bool) and card is not None:
                        written = {"hidden": entry.name, "count": 1}
                        self.cards[id(card)] = written | ({"shows": face} if shows else {})
                        self.kept.append(card)

    def _kind(self, piles: Sequence[Sequence[Any]]) -> str | None:
        """The one kind of every card of piles whose cards are pooled, else None."""
        kinds = {self.kind_of(card) for pile in piles for card in pile}
        return kinds.pop() if len(kinds) == 1 else None

    def _hide(
        self,
        name: str,
        cards: Sequence[Any],
        owner: int | None,
        kind: str | None,
        faces: list[Any] | None = None,
    ) -> None:
        written: dict[str, Any] = {"hidden": name, "count": len(cards)}
        if kind is not None:
            written["kind"] = kind
        if faces is not None:
            written["shows"] = faces
        self.lists[id(cards)] = written
        self.kept.append(cards)
        self.summary.append({"name": name, "count": len(cards), "seat": owner})


class _Writer:
    def __init__(self, hidden: _HiddenFrom, action_kinds: tuple[type, ...]):
        self.hidden = hidden
        self.action_kinds = action_kinds
        self.visiting: set[int] = set()

    def write(self, value: Any, depth: int) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, float):
            return value if value == value and abs(value) != float("inf") else str(value)
        if isinstance(value, Chance | random.Random) or _is_code(value):
            raise _Skip
        if self.action_kinds and isinstance(value, self.action_kinds):
            raise _HoldsActions
        key = id(value)
        if key in self.hidden.lists:
            return dict(self.hidden.lists[key])
        if isinstance(value, enum.Enum):
            return value.name
        if depth > OBSERVATION_DEPTH or key in self.visiting:
            return CUT
        self.visiting.add(key)
        try:
            return self._contents(value, depth + 1)
        finally:
            self.visiting.discard(key)

    def _contents(self, value: Any, depth: int) -> Any:
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
            return self._object(zip(value._fields, value, strict=True), depth)
        if isinstance(value, list | tuple):
            return self._items(value, depth)
        if isinstance(value, Mapping):
            return {key_text(k): v for k, v in self._pairs(value.items(), depth)}
        if isinstance(value, set | frozenset):
            return sorted(self._items(value, depth), key=repr)
        if isinstance(value, bytes | bytearray):
            raise _Skip
        if dataclasses.is_dataclass(value):
            pairs = ((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
            return self._object(((n, v) for n, v in pairs if not n.startswith("_")), depth)
        return self._object(((name, getattr(value, name)) for name in public_names(value)), depth)

    def _items(self, values: Any, depth: int) -> list[Any]:
        written = []
        for item in values:
            try:
                written.append(self.write(item, depth))
            except _Skip:
                continue
        return written

    def _pairs(self, pairs: Any, depth: int) -> list[tuple[Any, Any]]:
        written = []
        for key, item in pairs:
            try:
                written.append((key, self.write(item, depth)))
            except _Skip:
                continue
        return written

    def _object(self, pairs: Any, depth: int) -> dict[str, Any]:
        written: dict[str, Any] = {}
        for name, item in pairs:
            secret = self.hidden.cards.get(id(item))
            if secret is not None:  # a card held by an object's field (a table lists it openly)
                written[name] = dict(secret)
                continue
            try:
                written[name] = self.write(item, depth)
            except (_Skip, _HoldsActions):
                continue
        return written


def shown_fields(game: AnyGame, state: Any) -> list[str]:
    """The state's fields a seat is shown: its public names less the spec's
    internal_fields (the engine's bookkeeping)."""
    internal = set(getattr(getattr(game, "spec", None), "internal_fields", ()))
    return [name for name in public_names(state) if name not in internal]


def public_names(value: Any) -> list[str]:
    """The slots and instance attributes set on value not starting with `_`."""
    names: list[str] = []
    for base in type(value).__mro__:
        slots = base.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    names += list(getattr(value, "__dict__", ()))
    public = []
    for name in dict.fromkeys(names):
        if name.startswith("_") or not hasattr(value, name):
            continue
        public.append(name)
    return public


def key_text(key: Any) -> str:
    """A mapping's key as the view writes it: a cell (0, 1) as "[0, 1]"."""
    return str(_plain(key))


def _plain(value: Any) -> Any:
    """A key or a shown face as JSON: tuples as lists, anything else as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return str(value)


def _no_kind(card: Any) -> None:
    return None


def _is_code(value: Any) -> bool:
    return isinstance(value, FunctionType | BuiltinFunctionType | MethodType | ModuleType | type)

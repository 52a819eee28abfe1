"""Typed actions: each verb of a game is a small class, and one codec per game reads
and writes them for logs, replay, messages and the bots' explanations.

An action is a `typing.NamedTuple` whose last field is its verb, with the verb as
its default, declared with `@action`::

    @action
    class Burn(NamedTuple):
        source: str
        verb: Literal["burn"] = "burn"

    Burn(source="deck")            # reads as words: Burn(source='deck')
    Burn("deck") == Burn("deck")   # compared and hashed as the tuple it is (fast)

The verb is part of the tuple so that two verbs' actions never compare equal
(a plain NamedTuple compares as its fields alone), and last so that a verb is
never written at a call site. In a log an action is the list [verb, *fields]
(`ActionCodec.encode`), the form logs have always had, so old logs replay.

A field that names a component by its place rather than its id (the market slot
a card is built from) says where that place is with `@positions`, so that the
playtest table can let a person tap the component there::

    @positions(slot="market")           # state.market[slot]
    @action
    class Build(NamedTuple):
        slot: int
        verb: Literal["build"] = "build"

A zone is a path of the state's field names and list indices from the state's
top, and MOVER stands for the seat making the decision in a field with one
entry per seat: `@positions(spire=("spires", MOVER))` is state.spires[mover][spire].
A field whose value is not a number (a cell (column, row)) is a key of the mapping
at the zone: `@positions(cell=("mine", "cells"))` is state.mine.cells[cell]. A
zone may take another field's value with Field: `@positions(column=("sheets",
MOVER, Field("row")))` is state.sheets[mover][row][column].

An action with two positions (move the top gem of one spire onto another) is two
taps at the table, in the order of its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple, Protocol, TypeVar


class TypedAction(Protocol):
    """What `@action` makes of a NamedTuple: fields, the last of them its verb."""

    _fields: tuple[str, ...]
    _field_defaults: dict[str, Any]

    @property
    def verb(self) -> str: ...


_A = TypeVar("_A")


def action(cls: type[_A]) -> type[_A]:
    """Declare a NamedTuple as an action: its last field must be `verb`, defaulting to its
    verb. Gives it a repr without the verb (Burn(source='deck'))."""
    fields: tuple[str, ...] = getattr(cls, "_fields", ())
    defaults: Mapping[str, Any] = getattr(cls, "_field_defaults", {})
    if not fields or fields[-1] != "verb" or not isinstance(defaults.get("verb"), str):
        raise TypeError(
            f"{cls.__name__}: an action is a NamedTuple whose last field is "
            "verb: Literal['...'] = '...'"
        )

    def __repr__(self: Any) -> str:
        shown = ", ".join(
            f"{name}={value!r}" for name, value in zip(fields[:-1], self, strict=False)
        )
        return f"{cls.__name__}({shown})"

    cls.__repr__ = __repr__  # type: ignore[method-assign]
    return cls


class _Mover:
    """In a zone's path: the seat making the decision."""

    def __repr__(self) -> str:
        return "MOVER"


MOVER: Final = _Mover()


class Field(NamedTuple):
    """In a zone's path: the value of another of the action's fields (a grid's row, when
    the position is its column)."""

    name: str


ZonePath = tuple[str | int | _Mover | Field, ...]
_POSITIONS = "_positions"  # the class attribute @positions sets


def positions(**zones: str | ZonePath) -> Callable[[type[_A]], type[_A]]:
    """Declare the fields of an action that are a component's position in a zone of the
    state (its index in the list there): field=zone, a zone being a field name or a
    path (see the module docstring). A property of the action may be declared as a
    field is (a cell's index computed from its row and column)."""

    def declare(cls: type[_A]) -> type[_A]:
        fields: tuple[str, ...] = getattr(cls, "_fields", ())
        declared: dict[str, ZonePath] = {}
        for name, zone in zones.items():
            if name not in fields[:-1] and not isinstance(getattr(cls, name, None), property):
                raise TypeError(f"{cls.__name__}: @positions names {name!r}, not a field")
            path = (zone,) if isinstance(zone, str) else tuple(zone)
            for part in path:
                if isinstance(part, Field) and part.name not in fields[:-1]:
                    raise TypeError(f"{cls.__name__}: @positions: {part.name!r} is not a field")
            declared[name] = path
        setattr(cls, _POSITIONS, declared)
        return cls

    return declare


def positions_of(act: Any) -> Iterable[tuple[ZonePath, Hashable]]:
    """(zone, where) of each field of act declared a position, in field order, then of
    each property declared, in the declaration's order: where is an index into the list
    at the zone, or a key of the mapping there (a cell). A Field in the zone is given
    that field's value."""
    declared: Mapping[str, ZonePath] = getattr(type(act), _POSITIONS, {})
    names: tuple[str, ...] = getattr(act, "_fields", ())
    ordered = [name for name in names if name in declared]
    ordered += [name for name in declared if name not in names]
    for name in ordered:
        value = getattr(act, name)
        if value is None or isinstance(value, bool):
            continue
        zone = tuple(getattr(act, part.name) if isinstance(part, Field) else part
                     for part in declared[name])  # fmt: skip
        yield zone, value


def verb_of(cls: type) -> str:
    return getattr(cls, "_field_defaults", {})["verb"]


class UnknownAction(ValueError):
    """A logged action that is none of the game's: its verb or its shape is unknown."""


class PlainActions:
    """The codec of a game whose actions are plain tuples (verb first), as a designer's
    rules may still write them: logged as lists, read back as tuples."""

    def encode(self, act: Sequence[Any]) -> list[Any]:
        return _listed(tuple(act))

    def decode(self, raw: object) -> Any:
        if not isinstance(raw, list | tuple):
            raise UnknownAction(f"{raw!r} is not an action: expected a list")
        return _tupled(list(raw))

    @staticmethod
    def words(act: Any) -> str:
        return " ".join(map(str, act)) if isinstance(act, tuple) else str(act)


PLAIN_ACTIONS = PlainActions()


class ActionCodec:
    """A game's actions by verb: the one reading and writing of them.

    encode gives the JSON form [verb, *fields] (nested tuples as lists); decode reads
    that form back into the typed action (lists as tuples, all the way down), and
    words says an action in plain words for messages and explanations.
    """

    def __init__(self, kinds: Iterable[type]):
        self.kinds: dict[tuple[str, int], type] = {}
        for kind in kinds:
            key = (verb_of(kind), len(kind._fields) - 1)  # type: ignore[attr-defined]
            if key in self.kinds:
                raise TypeError(f"two actions have verb {key[0]!r} and {key[1]} fields")
            self.kinds[key] = kind

    def encode(self, act: Sequence[Any]) -> list[Any]:
        """[verb, *fields], JSON-ready."""
        values = list(act)
        return [_listed(values[-1]), *(_listed(value) for value in values[:-1])]

    def decode(self, raw: object) -> Any:
        """The typed action of a logged [verb, *fields]; UnknownAction naming what is wrong."""
        if not isinstance(raw, list | tuple) or not raw or not isinstance(raw[0], str):
            raise UnknownAction(f"{raw!r} is not an action: expected [verb, ...fields]")
        verb, fields = raw[0], [_tupled(value) for value in raw[1:]]
        kind = self.kinds.get((verb, len(fields)))
        if kind is None:
            verbs = sorted({v for v, _ in self.kinds})
            if verb in verbs:
                arities = sorted(n for v, n in self.kinds if v == verb)
                raise UnknownAction(
                    f"{raw!r}: {verb!r} takes {' or '.join(map(str, arities))} values, "
                    f"not {len(fields)}"
                )
            raise UnknownAction(f"{raw!r}: no action {verb!r}; actions: {', '.join(verbs)}")
        return kind(*fields)

    @staticmethod
    def words(act: Any) -> str:
        """The action in words: 'burn source=deck' (a plain tuple: its parts)."""
        names = getattr(act, "_fields", None)
        if not names:
            return PlainActions.words(act)
        values = list(act)
        parts = [str(values[-1])] + [
            f"{name}={value}" for name, value in zip(names[:-1], values[:-1], strict=False)
        ]
        return " ".join(parts)


def _listed(value: Any) -> Any:
    return [_listed(item) for item in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(item) for item in value) if isinstance(value, list) else value

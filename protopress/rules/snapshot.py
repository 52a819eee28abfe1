"""Snapshots of a state's data, to compare a state before and after something
that must not change it, and to say where it changed (state.players[0].built).

A picture follows a state's data recursively: numbers, text, lists, dicts, sets,
dataclasses, slotted and plain objects (bounded in depth and size). It reads
containers through the built-in types' own methods, so a list subclass that
watches its reads learns nothing from being pictured.
"""

from __future__ import annotations

import enum
import random
from types import BuiltinFunctionType, FunctionType, MappingProxyType, MethodType, ModuleType
from typing import Any

SNAPSHOT_NODES = 200_000  # a picture stops descending after this many values
SNAPSHOT_DEPTH = 40

_ATOMS = frozenset((type(None), bool, int, float, complex, str, bytes))
# The forms of a picture (Snapshots): (form, type name, contents).
SEQUENCE, MAPPING, SET, OBJECT, RAW, SAME, NAMED = (
    "seq",
    "map",
    "set",
    "obj",
    "raw",
    "same",
    "named",
)


class Snapshots:
    """Comparable pictures of states' data: numbers, text, lists, dicts, sets,
    dataclasses, slotted and plain objects, followed recursively (bounded in depth
    and size). Two states with equal pictures hold the same data.

    A picture is an atom itself, else (form, type name, contents), form one of
    SEQUENCE, MAPPING, SET, OBJECT (contents: (field, picture) pairs), RAW
    (compared as they are: a generator's state, bytes), SAME (a mutable object
    met before in this picture: its number) or NAMED (a class, function or enum
    member). An immutable object (a tuple, frozenset, frozen dataclass or read-only
    mapping holding only immutable ones) is pictured once for every picture this
    object takes, so a game's static tables cost once.
    """

    def __init__(self) -> None:
        self.frozen: dict[int, tuple[Any, Any]] = {}  # id -> (the object, kept alive; picture)

    def of(self, state: Any) -> Any:
        return _Picture(self.frozen).take(state, 0)


def snapshot(value: Any) -> Any:
    """One picture of value's data (Snapshots)."""
    return Snapshots().of(value)


class _Picture:
    def __init__(self, frozen: dict[int, tuple[Any, Any]]) -> None:
        self.frozen = frozen
        self.seen: dict[int, int] = {}  # id of a mutable object pictured -> its number
        self.visiting: set[int] = set()
        self.kept: list[Any] = []  # the mutable objects met stay alive: their ids stay theirs
        self.nodes = 0

    def take(self, value: Any, depth: int) -> Any:
        if type(value) in _ATOMS:
            return value
        key = id(value)
        known = self.frozen.get(key)
        if known is not None:
            return known[1]
        kind = type(value).__qualname__
        if key in self.seen:
            return (SAME, kind, self.seen[key])
        if key in self.visiting:  # a cycle
            return (SAME, kind, None)
        self.nodes += 1
        if self.nodes > SNAPSHOT_NODES or depth > SNAPSHOT_DEPTH:
            return (RAW, kind, "...")
        if isinstance(value, enum.Enum | type) or _is_code(value):
            name = getattr(value, "__qualname__", None) or getattr(value, "name", None)
            picture: tuple[str, str, Any] = (NAMED, kind, name)
            self.frozen[key] = (value, picture)
            return picture
        self.visiting.add(key)
        picture, fixed = self._contents(value, kind, depth + 1)
        self.visiting.discard(key)
        if fixed:
            self.frozen[key] = (value, picture)
        else:
            self.seen[key] = len(self.seen)
            self.kept.append(value)
        return picture

    def _fixed(self, value: Any) -> bool:
        """Whether value, already pictured, is immutable all the way down."""
        return type(value) in _ATOMS or id(value) in self.frozen

    def _contents(self, value: Any, kind: str, depth: int) -> tuple[Any, bool]:
        """value's picture, and whether it is immutable all the way down."""
        if isinstance(value, random.Random):
            return (RAW, kind, value.getstate()), False
        if isinstance(value, bytearray | memoryview):
            return (RAW, kind, bytes(value)), False
        # Read through the built-in types' own methods: a subclass that watches its
        # reads (or computes them) is pictured by what it holds, and learns nothing.
        if isinstance(value, tuple):
            items = tuple(self.take(item, depth) for item in tuple.__iter__(value))
            fixed = all(self._fixed(item) for item in tuple.__iter__(value))
            return (SEQUENCE, kind, items), fixed
        if isinstance(value, list):
            return (
                SEQUENCE,
                kind,
                tuple(self.take(item, depth) for item in list.__iter__(value)),
            ), False
        if isinstance(value, dict):
            pairs = tuple((self.take(k, depth), self.take(v, depth)) for k, v in dict.items(value))
            return (MAPPING, kind, pairs), False
        if isinstance(value, MappingProxyType):
            pairs = tuple((self.take(k, depth), self.take(v, depth)) for k, v in value.items())
            fixed = all(self._fixed(k) and self._fixed(v) for k, v in value.items())
            return (MAPPING, kind, pairs), fixed
        if isinstance(value, set | frozenset):
            own = list(set.__iter__(value) if isinstance(value, set) else frozenset.__iter__(value))
            members = sorted((self.take(item, depth) for item in own), key=repr)
            fixed = isinstance(value, frozenset) and all(self._fixed(item) for item in own)
            return (SET, kind, tuple(members)), fixed
        fields = self._fields(value, depth)
        params = getattr(type(value), "__dataclass_params__", None)
        fixed = bool(params is not None and params.frozen) and all(
            self._fixed(getattr(value, name)) for name, _ in fields
        )
        return (OBJECT, kind, fields), fixed

    def _fields(self, value: Any, depth: int) -> tuple[tuple[str, Any], ...]:
        """(name, picture) of each slot and instance attribute set on value."""
        fields = []
        names = _field_names(type(value)) + tuple(getattr(value, "__dict__", ()))
        for name in dict.fromkeys(names):
            try:
                field_value = getattr(value, name)
            except AttributeError:  # a slot never set
                continue
            fields.append((name, self.take(field_value, depth)))
        return tuple(fields)


def _field_names(cls: type) -> tuple[str, ...]:
    """The slots a class and its bases declare (kept per class)."""
    found = _SLOTS.get(cls)
    if found is None:
        names: list[str] = []
        for base in cls.__mro__:
            slots = base.__dict__.get("__slots__", ())
            names += [slots] if isinstance(slots, str) else list(slots)
        skip = ("__dict__", "__weakref__")
        found = _SLOTS[cls] = tuple(n for n in dict.fromkeys(names) if n not in skip)
    return found


_SLOTS: dict[type, tuple[str, ...]] = {}


def _is_code(value: Any) -> bool:
    """Functions, methods, modules: pictured by name, not followed."""
    return isinstance(value, FunctionType | BuiltinFunctionType | MethodType | ModuleType)


def first_difference(before: Any, after: Any, path: str = "state") -> str:
    """Where two pictures first differ, as a path into the state
    (state.players[0].built), or "" when they are equal."""
    if before == after:
        return ""
    if not (isinstance(before, tuple) and isinstance(after, tuple)):
        return path
    if before[:2] != after[:2] or before[0] not in (SEQUENCE, MAPPING, OBJECT):
        return path
    form, old, new = before[0], before[2], after[2]
    if len(old) != len(new):
        return f"{path} (length {len(old)} -> {len(new)})"
    for index, (a, b) in enumerate(zip(old, new, strict=True)):
        if a == b:
            continue
        if form == OBJECT:
            return first_difference(a[1], b[1], f"{path}.{a[0]}")
        if form == MAPPING:
            if a[0] != b[0]:
                return f"{path} (key {_short(a[0])} -> {_short(b[0])})"
            return first_difference(a[1], b[1], f"{path}[{_short(a[0])}]")
        return first_difference(a, b, f"{path}[{index}]")
    return path


def _short(picture: Any) -> str:
    if type(picture) in _ATOMS:
        return repr(picture)[:40]
    return f"<{picture[1]}>"

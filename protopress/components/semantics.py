"""Checks a JSON Schema cannot express: unique ids, declared totals, box
contents, symbol letters, and each game's own (its spec's `catalog_checks`,
modules defining CATALOG_CHECKS, such as the structure of a Gem Rush tunnel).

Each check reads the raw document defensively (it may also be schema-invalid)
and yields findings; together with the schema errors they are reported at once.
The helpers below (items_of, as_object, as_list, count_of) are for every
game's checks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from typing import Any

from protopress.components.explain import Located
from protopress.components.jsonpos import escape_token
from protopress.components.schemas import Kind, kinds
from protopress.components.suggest import did_you_mean
from protopress.games import builtin_ids, builtin_specs

CatalogCheck = Callable[[object], Iterator[Located]]  # the raw document -> located findings


def as_object(value: object) -> dict[str, Any]:
    """value when it is a JSON object, else an empty one (the schema reports what it is)."""
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[Any]:
    """value when it is a JSON list, else an empty one (the schema reports what it is)."""
    return value if isinstance(value, list) else []


def items_of(document: object, collection: str) -> Iterator[tuple[str, dict[str, Any]]]:
    items = document.get(collection) if isinstance(document, dict) else None
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield f"/{collection}/{index}", item


def count_of(item: Mapping[str, object]) -> int:
    count = item.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def known_ids(
    document: object, every: Mapping[str, Kind] | None = None
) -> dict[str, frozenset[str]]:
    """Ids declared in each collection, by kind name, for `refersTo`; every is
    the built-in and declared kinds (the built-in ones by default)."""
    every = kinds() if every is None else every
    known = {"collection": frozenset(kind.collection for kind in every.values())}
    for kind in every.values():
        known[kind.name] = frozenset(
            item["id"]
            for _, item in items_of(document, kind.collection)
            if isinstance(item.get("id"), str)
        )
    return known


def unique_ids(document: object, every: Mapping[str, Kind] | None = None) -> Iterator[Located]:
    every = kinds() if every is None else every
    collections = [(kind.name, kind.collection) for kind in every.values()]
    for name, collection in [*collections, ("part", "parts"), ("box", "boxes")]:
        first_seen: dict[str, str] = {}
        for pointer, item in items_of(document, collection):
            component_id = item.get("id")
            if not isinstance(component_id, str):
                continue
            if component_id in first_seen:
                yield Located(
                    pointer + "/id",
                    f"duplicate {name} id {component_id!r} (first used at {first_seen[component_id]})",
                )
            else:
                first_seen[component_id] = pointer


def declared_totals(document: object) -> Iterator[Located]:
    totals = document.get("totals") if isinstance(document, dict) else None
    if not isinstance(totals, dict):
        return
    for collection, declared in totals.items():
        if not isinstance(declared, int) or isinstance(declared, bool):
            continue
        actual = sum(count_of(item) for _, item in items_of(document, collection))
        if actual != declared:
            yield Located(
                f"/totals/{escape_token(collection)}",
                f"declares {declared} {collection} but the components add up to {actual} copies",
            )


def symbol_letters(document: object) -> Iterator[Located]:
    first_seen: dict[str, str] = {}
    for pointer, symbol in items_of(document, "symbols"):
        letter = symbol.get("letter")
        if isinstance(letter, str):
            if letter in first_seen:
                yield Located(
                    f"{pointer}/letter",
                    f"letter {letter!r} already stands for {first_seen[letter]}",
                )
            first_seen.setdefault(letter, repr(symbol.get("id")))


CHECKS = (declared_totals, symbol_letters)  # any game's; each game adds its own (game_checks)


def game_checks() -> tuple[CatalogCheck, ...]:
    """The registered games' own checks of their collections (their specs' catalog_checks)."""
    return _game_checks(builtin_ids())


@functools.cache
def _game_checks(games: tuple[str, ...]) -> tuple[CatalogCheck, ...]:
    modules = [module for spec in builtin_specs() for module in spec.catalog_checks]
    return tuple(check for module in modules for check in import_module(module).CATALOG_CHECKS)


def box_contents(document: object, every: Mapping[str, Kind] | None = None) -> Iterator[Located]:
    """A tuck box holds kinds that this catalog has components of."""
    every = kinds() if every is None else every
    present = [
        k.name for k in every.values() if any(True for _ in items_of(document, k.collection))
    ]
    for pointer, box in items_of(document, "boxes"):
        holds = box.get("holds")
        for index, name in enumerate(holds if isinstance(holds, list) else []):
            if not isinstance(name, str) or name in present:
                continue
            hint = did_you_mean(name, present) or (
                f"; kinds with components: {', '.join(present)}" if present else ""
            )
            yield Located(
                f"{pointer}/holds/{index}", f"{name!r} is not a kind of this catalog{hint}"
            )
        for key, low, high, positive in BOX_LENGTHS:
            yield from _length_in_range(f"{pointer}/{key}", box.get(key), low, high, positive)


BOX_LENGTHS = (("card_thickness", 0.0, 5.0, True), ("clearance", 0.0, 20.0, False))  # mm


def _length_in_range(
    pointer: str, value: object, low: float, high: float, positive: bool
) -> Iterator[Located]:
    from protopress.generators.units import parse_length, to_mm

    if not isinstance(value, str | int | float):
        return  # None (not given), or what the schema reports
    try:
        length = to_mm(parse_length(value))
    except (ValueError, TypeError):
        return  # the schema says what a length is
    if not (low < length if positive else low <= length) or length > high:
        above = "above" if positive else "from"
        yield Located(
            pointer, f"{value!r} is out of range: expected {above} {low:g} to {high:g} mm"
        )


def semantic_findings(document: object, every: Mapping[str, Kind] | None = None) -> list[Located]:
    """Every check's findings; every is the built-in and declared kinds."""
    return [
        *unique_ids(document, every),
        *box_contents(document, every),
        *(f for check in (*CHECKS, *game_checks()) for f in check(document)),
    ]

"""Checks a JSON Schema cannot express: unique ids, declared totals, and the
structural rules of the built-in games' components.

Each check reads the raw document defensively (it may also be schema-invalid)
and yields findings; together with the schema errors they are reported at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from protopress.components.explain import Located
from protopress.components.jsonpos import escape_token
from protopress.components.schemas import Kind, kinds
from protopress.components.suggest import did_you_mean

EDGES = "NESW"
MIN_TOWER_GEMS = 30  # DragonStone Mine: a complete tower holds 30 gems or more
GRID_SIZE = 4  # Stonespine Architects: the dungeon is 4x4


def _object(value: object) -> dict[str, Any]:
    """value when it is a JSON object, else an empty one (the schema reports what it is)."""
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    """value when it is a JSON list, else an empty one (the schema reports what it is)."""
    return value if isinstance(value, list) else []


def _items(document: object, collection: str) -> Iterator[tuple[str, dict[str, Any]]]:
    items = document.get(collection) if isinstance(document, dict) else None
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield f"/{collection}/{index}", item


def _count(item: Mapping[str, object]) -> int:
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
            for _, item in _items(document, kind.collection)
            if isinstance(item.get("id"), str)
        )
    return known


def unique_ids(document: object, every: Mapping[str, Kind] | None = None) -> Iterator[Located]:
    every = kinds() if every is None else every
    collections = [(kind.name, kind.collection) for kind in every.values()]
    for name, collection in [*collections, ("part", "parts"), ("box", "boxes")]:
        first_seen: dict[str, str] = {}
        for pointer, item in _items(document, collection):
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
        actual = sum(_count(item) for _, item in _items(document, collection))
        if actual != declared:
            yield Located(
                f"/totals/{escape_token(collection)}",
                f"declares {declared} {collection} but the components add up to {actual} copies",
            )


def tunnels(document: object) -> Iterator[Located]:
    for pointer, tile in _items(document, "room_tiles"):
        if tile.get("type") != "tunnel":
            continue
        doors = _object(tile.get("doors"))
        missing = [edge for edge in EDGES if edge not in doors]
        if missing:
            yield Located(
                f"{pointer}/doors", f"a tunnel has four doors; missing {', '.join(missing)}"
            )
        for edge, door in doors.items():
            if isinstance(door, dict) and (door.get("cost") or door.get("points")):
                yield Located(
                    f"{pointer}/doors/{escape_token(edge)}",
                    "the doors on a tunnel have no cost or points",
                )
        pairs = tile.get("tunnel")
        if isinstance(pairs, list):
            used = [edge for pair in pairs if isinstance(pair, list) for edge in pair]
            if not all(isinstance(edge, str) for edge in used):
                continue  # the schema says what an edge is
            if sorted(used) != sorted(EDGES):
                yield Located(
                    f"{pointer}/tunnel",
                    f"a tunnel's doors connect in two pairs using each edge once; found {'-'.join(used)}",
                )


def door_costs_are_standard(document: object) -> Iterator[Located]:
    """Special gems never pay a cost: Diamond Dust pays *as* a standard gem."""
    special = {
        gem.get("id")
        for _, gem in _items(document, "gems")
        if gem.get("special") is True and isinstance(gem.get("id"), str)
    }
    for pointer, tile in _items(document, "room_tiles"):
        doors = _object(tile.get("doors"))
        for edge, door in doors.items():
            cost = door.get("cost") if isinstance(door, dict) else None
            for index, gem in enumerate(cost if isinstance(cost, list) else []):
                if isinstance(gem, str) and gem in special:
                    yield Located(
                        f"{pointer}/doors/{escape_token(edge)}/cost/{index}",
                        f"{gem!r} is a special gem; door costs are paid in standard gems",
                    )


def chamber_capacity(document: object) -> Iterator[Located]:
    for pointer, card in _items(document, "chamber_cards"):
        printed, slots = card.get("elements"), card.get("slots")
        if isinstance(printed, list) and isinstance(slots, int) and len(printed) > slots:
            yield Located(
                f"{pointer}/elements",
                f"{len(printed)} printed elements but the chamber holds {slots} (printed ones count)",
            )


def blueprint_positions(document: object) -> Iterator[Located]:
    for pointer, card in _items(document, "blueprint_cards"):
        seen: dict[tuple, int] = {}
        positions = _list(card.get("positions"))
        for index, position in enumerate(positions):
            if not isinstance(position, dict):
                continue
            cell = (position.get("row"), position.get("col"))
            if not all(isinstance(n, int) for n in cell):
                continue  # the schema says what a row and a column are
            if cell in seen:
                yield Located(
                    f"{pointer}/positions/{index}",
                    f"row {cell[0]}, col {cell[1]} is already used by position {seen[cell]}",
                )
            seen.setdefault(cell, index)
        if card.get("entrance") is not None and card.get("entrance") == card.get("exit"):
            yield Located(f"{pointer}/exit", "the exit is on the same doorway as the entrance")


def tower_capacity(document: object) -> Iterator[Located]:
    for pointer, tower in _items(document, "towers"):
        spires = tower.get("spires")
        if not isinstance(spires, list) or not all(isinstance(s, int) for s in spires):
            continue
        if sum(spires) < MIN_TOWER_GEMS:
            yield Located(
                f"{pointer}/spires",
                f"the tower holds {sum(spires)} gems; "
                f"a complete tower holds at least {MIN_TOWER_GEMS}",
            )


def rival_deck(document: object) -> Iterator[Located]:
    """Solo mode swaps the diamond rival cards for the legendary ones."""
    copies = {"plain": 0, "diamond": 0, "legendary": 0}
    cards = list(_items(document, "rival_cards"))
    for _, card in cards:
        if isinstance(card.get("difficulty"), str) and card["difficulty"] in copies:
            copies[card["difficulty"]] += _count(card)
    if cards and copies["diamond"] != copies["legendary"]:
        yield Located(
            "/rival_cards",
            f"hard solo games swap the diamond cards for the legendary ones: "
            f"{copies['diamond']} diamond but {copies['legendary']} legendary",
        )


def symbol_letters(document: object) -> Iterator[Located]:
    first_seen: dict[str, str] = {}
    for pointer, symbol in _items(document, "symbols"):
        letter = symbol.get("letter")
        if isinstance(letter, str):
            if letter in first_seen:
                yield Located(
                    f"{pointer}/letter",
                    f"letter {letter!r} already stands for {first_seen[letter]}",
                )
            first_seen.setdefault(letter, repr(symbol.get("id")))


CHECKS = (
    declared_totals,
    tunnels,
    door_costs_are_standard,
    chamber_capacity,
    blueprint_positions,
    tower_capacity,
    rival_deck,
    symbol_letters,
)


def box_contents(document: object, every: Mapping[str, Kind] | None = None) -> Iterator[Located]:
    """A tuck box holds kinds that this catalog has components of."""
    every = kinds() if every is None else every
    present = [k.name for k in every.values() if any(True for _ in _items(document, k.collection))]
    for pointer, box in _items(document, "boxes"):
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
        *(f for check in CHECKS for f in check(document)),
    ]

"""Gem Rush's checks of its catalog collections that a schema cannot state, run
whenever a catalog is loaded (the spec's catalog_checks): tunnel tiles, door costs."""

from __future__ import annotations

from collections.abc import Iterator

from protopress.components.explain import Located
from protopress.components.jsonpos import escape_token
from protopress.components.semantics import as_object, items_of

EDGES = "NESW"  # the four edges of a room tile


def tunnels(document: object) -> Iterator[Located]:
    for pointer, tile in items_of(document, "room_tiles"):
        if tile.get("type") != "tunnel":
            continue
        doors = as_object(tile.get("doors"))
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
        for _, gem in items_of(document, "gems")
        if gem.get("special") is True and isinstance(gem.get("id"), str)
    }
    for pointer, tile in items_of(document, "room_tiles"):
        doors = as_object(tile.get("doors"))
        for edge, door in doors.items():
            cost = door.get("cost") if isinstance(door, dict) else None
            for index, gem in enumerate(cost if isinstance(cost, list) else []):
                if isinstance(gem, str) and gem in special:
                    yield Located(
                        f"{pointer}/doors/{escape_token(edge)}/cost/{index}",
                        f"{gem!r} is a special gem; door costs are paid in standard gems",
                    )


CATALOG_CHECKS = (tunnels, door_costs_are_standard)

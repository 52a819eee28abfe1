"""Stonespine Architects' checks of its catalog collections that a schema cannot
state, run whenever a catalog is loaded (the spec's catalog_checks): chamber
capacity, blueprint positions, the rival deck."""

from __future__ import annotations

from collections.abc import Iterator

from protopress.components.explain import Located
from protopress.components.semantics import as_list, count_of, items_of


def chamber_capacity(document: object) -> Iterator[Located]:
    for pointer, card in items_of(document, "chamber_cards"):
        printed, slots = card.get("elements"), card.get("slots")
        if isinstance(printed, list) and isinstance(slots, int) and len(printed) > slots:
            yield Located(
                f"{pointer}/elements",
                f"{len(printed)} printed elements but the chamber holds {slots} (printed ones count)",
            )


def blueprint_positions(document: object) -> Iterator[Located]:
    for pointer, card in items_of(document, "blueprint_cards"):
        seen: dict[tuple, int] = {}
        positions = as_list(card.get("positions"))
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


def rival_deck(document: object) -> Iterator[Located]:
    """Solo mode swaps the diamond rival cards for the legendary ones."""
    copies = {"plain": 0, "diamond": 0, "legendary": 0}
    cards = list(items_of(document, "rival_cards"))
    for _, card in cards:
        if isinstance(card.get("difficulty"), str) and card["difficulty"] in copies:
            copies[card["difficulty"]] += count_of(card)
    if cards and copies["diamond"] != copies["legendary"]:
        yield Located(
            "/rival_cards",
            f"hard solo games swap the diamond cards for the legendary ones: "
            f"{copies['diamond']} diamond but {copies['legendary']} legendary",
        )


CATALOG_CHECKS = (chamber_capacity, blueprint_positions, rival_deck)

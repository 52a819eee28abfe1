"""DragonStone Mine's checks of its catalog collections that a schema cannot
state, run whenever a catalog is loaded (the spec's catalog_checks): tower capacity."""

from __future__ import annotations

from collections.abc import Iterator

from protopress.components.explain import Located
from protopress.components.semantics import items_of

MIN_TOWER_GEMS = 30  # a complete tower holds 30 gems or more


def tower_capacity(document: object) -> Iterator[Located]:
    for pointer, tower in items_of(document, "towers"):
        spires = tower.get("spires")
        if not isinstance(spires, list) or not all(isinstance(s, int) for s in spires):
            continue
        if sum(spires) < MIN_TOWER_GEMS:
            yield Located(
                f"{pointer}/spires",
                f"the tower holds {sum(spires)} gems; "
                f"a complete tower holds at least {MIN_TOWER_GEMS}",
            )


CATALOG_CHECKS = (tower_capacity,)

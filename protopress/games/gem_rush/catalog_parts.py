"""What a Gem Rush game reads from its catalog: the room tiles (in stack order)
with their compiled abilities, the skill cards of each mode, the gem cards and the
gems. The engine reads them once per catalog (a catalog does not change once
loaded) and sets every game's Table up from them."""

from __future__ import annotations

from typing import Any, NamedTuple

from protopress.components import Catalog
from protopress.games.gem_rush import effects, skills
from protopress.games.gem_rush.mine import RoomTile, room_stack
from protopress.games.gem_rush.payment import gem_set
from protopress.games.gem_rush.state import APPRENTICE, RUSH_TARGET, RUSH_TARGET_LARGE, Table


class CatalogParts(NamedTuple):
    """What a game reads from a catalog."""

    catalog: Any  # held, so that its id is not reused while cached
    stack: tuple[RoomTile, ...]  # room_stack, in catalog order
    abilities: dict[str, tuple[effects.Step, ...]]
    skills: dict[str, tuple[skills.Skill, ...]]  # by mode, filled on first use
    cards: int
    gems: tuple[str, ...]  # the catalog's gems, standard then special


def read_parts(catalog: Catalog) -> CatalogParts:
    """The parts of catalog (the skill cards are read by mode as games need them)."""
    rooms = catalog.of_kind("room-tile")
    return CatalogParts(
        catalog=catalog,
        stack=tuple(room_stack(rooms)),
        abilities={c.id: effects.compile_ability(c.get("ability") or ()) for c in rooms},
        skills={},
        cards=sum(c.count for c in catalog.of_kind("gem-card")),
        gems=gem_set(catalog).all,
    )


def new_table(
    parts: CatalogParts, catalog: Catalog, players: int, options: dict[str, Any]
) -> Table:
    """The Table of a game for players with these (parsed) options; the target, unless
    an option names it, is Apprentice in Crisis and the Rush target for the players."""
    mode, variant = options["mode"], options["skills"]
    default = APPRENTICE if mode == "crisis" else RUSH_TARGET if players <= 4 else RUSH_TARGET_LARGE
    target = options.get("target", default)
    return Table(
        players=players,
        mode=mode,
        target=target,
        variant=variant,
        stop_at_target=options["stop_at_target"],
        skills=parts.skills.get(mode)
        or parts.skills.setdefault(mode, skills.skill_cards(catalog.of_kind("skill-card"), mode)),
        abilities=parts.abilities,
        cards=parts.cards,
        gems=parts.gems,
    )

"""DragonStone Mine set checks: the gem supply and the level-2 card costs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from protopress.components import Catalog, Component
from protopress.validators.findings import Check, Finding

DEFAULT_PLAYERS = 4  # the game is for up to four players when no score pad says


def bag(catalog: Catalog) -> dict[str, int]:
    """Gems in the bag, by colour id."""
    return {colour.id: colour.count for colour in catalog.of_kind("gem-colour")}


def towers_in_box(catalog: Catalog) -> list[Component]:
    return [tower for tower in catalog.of_kind("tower") if tower.count > 0]


def level_two_cards(catalog: Catalog) -> list[Component]:
    return [card for card in catalog.of_kind("action-card") if card["level"] == 2]


def gem_supply(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    supply = bag(catalog)
    total = sum(supply.values())
    colours = ", ".join(f"{colour} {n}" for colour, n in supply.items())
    yield Finding(
        "info",
        "gem_colours",
        f"the bag holds {total} gems: {colours}",
        "gem-supply",
        {"total": total, "colours": supply},
    )


def bag_fills_towers(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Warn when the bag cannot fill every tower at the largest player count."""
    players = max((pad["players"] for pad in catalog.of_kind("score-pad")), default=DEFAULT_PLAYERS)
    capacity = max((sum(tower["spires"]) for tower in towers_in_box(catalog)), default=0)
    total = sum(bag(catalog).values())
    if total < players * capacity:
        yield Finding(
            "warning",
            "gem_colours",
            f"the bag holds {total} gems but {players} towers of {capacity} hold "
            f"{players * capacity}",
            "bag-fills-towers",
            {"gems": total, "players": players, "tower_capacity": capacity},
        )


def unpayable_reasons(cost: Sequence[str], most_gems: int, supply: dict[str, int]) -> list[str]:
    """Why a cost cannot be paid. Cost gems are taken one at a time from spire
    tops (the engine's ruling: a spire may give two in a row), so the tower must
    hold at least as many gems as the cost, and the bag must hold enough of each
    colour for them to exist."""
    reasons = []
    if len(cost) > most_gems:
        reasons.append(f"it costs {len(cost)} gems but no tower holds more than {most_gems}")
    for colour, needed in Counter(cost).items():
        if supply.get(colour, 0) < needed:
            reasons.append(f"it costs {needed} {colour} but the bag holds {supply.get(colour, 0)}")
    return reasons


def level_two_costs(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Every level-2 card must be payable; the cost curve is information."""
    most_gems = max((sum(tower["spires"]) for tower in towers_in_box(catalog)), default=0)
    supply = bag(catalog)
    curve: Counter[int] = Counter()
    for card in level_two_cards(catalog):
        curve[len(card["cost"])] += card.count
        reasons = unpayable_reasons(card["cost"], most_gems, supply)
        if reasons:
            yield Finding(
                "error",
                card.id,
                f"'{card['title']}' cannot be paid: {'; '.join(reasons)}",
                "level-2-costs",
                {"cost": len(card["cost"]), "tower_gems": most_gems},
            )
    if curve:
        steps = ", ".join(
            f"{gems} gem{'s' if gems > 1 else ''}: {curve[gems]}" for gems in sorted(curve)
        )
        yield Finding(
            "info",
            "action_cards",
            f"level-2 cost curve (cards by gems in the cost): {steps}",
            "level-2-costs",
            {str(gems): curve[gems] for gems in sorted(curve)},
        )


CHECKS: tuple[Check, ...] = (
    Check("gem-supply", ("gem-colour",), gem_supply),
    Check("bag-fills-towers", ("gem-colour", "tower"), bag_fills_towers),
    Check("level-2-costs", ("action-card", "gem-colour", "tower"), level_two_costs),
)

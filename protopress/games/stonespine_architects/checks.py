"""Stonespine Architects set checks: chamber capacity, the chamber deck's doors
and gold, and whether each blueprint can be completed with what is in the box."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from protopress.components import Catalog, Component
from protopress.games.stonespine_architects.dungeon import (
    EDGES,
    MAX_ELEMENTS,
    SIZE,
    Doorway,
    open_dungeon,
    shortest_route,
)
from protopress.validators.findings import Check, Finding

CAPACITY = "chamber-capacity"
DOORS_AND_GOLD = "chamber-doors-and-gold"
BLUEPRINTS = "blueprint-achievability"

CHAMBERS = "chamber_cards"  # the component of deck-wide findings
MIN_EDGE_SHARE = 0.30  # below this, paths across that edge are hard to build
DEFAULT_GOLD_CAP = 30  # when the catalog's scoring table does not say
EDGE_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
PATTERNS = ("none", "dead end", "straight", "bend", "T", "cross")


def element_capacity(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Restates the loader's rule for catalogs built in memory."""
    for card in catalog.of_kind("chamber-card"):
        printed, slots = len(card["elements"]), card["slots"]
        data = {"printed": printed, "slots": slots}
        if slots > MAX_ELEMENTS:
            message = f"holds {slots} elements; a chamber holds at most {MAX_ELEMENTS}, printed ones included"
            yield Finding("error", card.id, message, CAPACITY, data)
        if printed > slots:
            message = (
                f"{printed} printed elements but the chamber holds {slots} (printed ones count)"
            )
            yield Finding("error", card.id, message, CAPACITY, data)


def door_pattern(doors: str) -> str:
    """One of PATTERNS: how many doors a card shows, and for two, whether opposite."""
    if len(doors) == 2:
        return "straight" if set(doors) in ({"N", "S"}, {"E", "W"}) else "bend"
    return {0: "none", 1: "dead end", 3: "T", 4: "cross"}[len(doors)]


def doors_and_gold(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """The chamber deck's doors and gold, every copy counted."""
    cards = catalog.of_kind("chamber-card")
    total = sum(card.count for card in cards)
    if not total:
        return
    shares = {edge: sum(c.count for c in cards if edge in c["doors"]) / total for edge in EDGES}
    listed = ", ".join(f"{edge} {share:.0%}" for edge, share in shares.items())
    rounded = {edge: round(share, 4) for edge, share in shares.items()}
    yield _deck("info", f"door share by edge over {total} cards: {listed}", rounded, total)
    for edge, share in shares.items():
        if share < MIN_EDGE_SHARE:
            message = (
                f"only {share:.0%} of chamber cards show a {EDGE_NAMES[edge]} door "
                f"(below {MIN_EDGE_SHARE:.0%}): paths through {EDGE_NAMES[edge]} edges are hard to build"
            )
            yield _deck("warning", message, {edge: rounded[edge]}, total)

    patterns = Counter({pattern: 0 for pattern in PATTERNS})
    for card in cards:
        patterns[door_pattern(card["doors"])] += card.count
    listed = ", ".join(f"{p} {n} ({n / total:.0%})" for p, n in patterns.items())
    yield _deck("info", f"door patterns: {listed}", dict(patterns), total)

    mean = sum(card["gold"] * card.count for card in cards) / total
    row, cap = mean * SIZE, _gold_cap(catalog)
    data = {"mean_gold": round(mean, 4), "row_gold": round(row, 4), "gold_cap": cap}
    message = f"mean gold {mean:.2f} per card; an average year row of {SIZE} cards pays {row:.2f} gold (cap {cap})"
    yield _deck("info", message, data, total)
    if row > cap:
        message = f"an average year row pays {row:.2f} gold, more than the {cap}-gold cap: the rest is lost"
        yield _deck("warning", message, data, total)


def _deck(severity: str, message: str, data: dict, total: int) -> Finding:
    return Finding(severity, CHAMBERS, message, DOORS_AND_GOLD, {"cards": total, **data})


def _gold_cap(catalog: Catalog) -> int:
    for table in catalog.of_kind("scoring-table"):
        cap = table.get("points", {}).get("gold_cap")
        if cap is not None:
            return cap
    return DEFAULT_GOLD_CAP


def blueprint_achievability(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Per blueprint: enough of each element in the box, slot elements only, a route."""
    tokens: Counter[str] = Counter()
    for token in catalog.of_kind("market-token"):
        tokens[token["element"]] += token.count
    # Chamber cards count once per copy however often they print an element:
    # a chamber matches one blueprint position at most.
    printed: Counter[str] = Counter()
    for card in catalog.of_kind("chamber-card"):
        for element in set(card["elements"]):
            printed[element] += card.count
    placement = {element.id: element.get("placement") for element in catalog.of_kind("element")}
    for blueprint in catalog.of_kind("blueprint-card"):
        yield from _supply(blueprint, tokens, printed)
        yield from _edge_elements(blueprint, placement)
        yield _route(blueprint)


def _supply(blueprint: Component, tokens: Counter, printed: Counter) -> Iterator[Finding]:
    demand = Counter(position["element"] for position in blueprint["positions"])
    for element, needed in demand.items():
        supply = tokens[element] + printed[element]
        if supply < needed:
            message = (
                f"needs {needed} chambers holding {element!r} but the box supplies {supply}: "
                f"{tokens[element]} market tokens and {printed[element]} chamber cards printing it"
            )
            data = {
                "demand": needed,
                "supply": supply,
                "tokens": tokens[element],
                "printed": printed[element],
            }
            yield Finding("error", blueprint.id, message, BLUEPRINTS, data)


def _edge_elements(blueprint: Component, placement: dict) -> Iterator[Finding]:
    cells: dict[str, list[str]] = {}
    for position in blueprint["positions"]:
        if placement.get(position["element"]) == "edge":
            cell = f"row {position['row']}, col {position['col']}"
            cells.setdefault(position["element"], []).append(cell)
    for element, at in cells.items():
        message = (
            f"asks for {element!r} at {' and '.join(at)}, but {element!r} sits on chamber edges "
            "and blueprint positions are chamber slots"
        )
        yield Finding("warning", blueprint.id, message, BLUEPRINTS, {"positions": len(at)})


def _route(blueprint: Component) -> Finding:
    """Geometry only: the shortest route on a dungeon whose chambers all show four doors."""
    entrance, exit = Doorway(**blueprint["entrance"]), Doorway(**blueprint["exit"])
    if entrance == exit:
        message = f"entrance and exit share doorway {entrance}: no through-route is possible"
        return Finding("info", blueprint.id, message, BLUEPRINTS, {"possible": False})
    chambers = shortest_route(open_dungeon(entrance, exit))
    message = (
        f"a through-route from entrance {entrance} to exit {exit} is possible; "
        f"the shortest crosses {chambers} chamber{'' if chambers == 1 else 's'}"
    )
    return Finding(
        "info", blueprint.id, message, BLUEPRINTS, {"possible": True, "chambers": chambers}
    )


CHECKS: tuple[Check, ...] = (
    Check(CAPACITY, needs=("chamber-card",), run=element_capacity),
    Check(DOORS_AND_GOLD, needs=("chamber-card",), run=doors_and_gold),
    Check(BLUEPRINTS, needs=("blueprint-card",), run=blueprint_achievability),
)

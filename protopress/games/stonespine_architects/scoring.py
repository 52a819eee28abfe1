"""Stonespine Architects: final scoring, usable on its own.

Every number comes from the catalog's `final-scoring` table and every path
from `protopress.games.stonespine_architects.dungeon` (the one source of truth for which
chambers connect). The rules engine (`stonespine.py`), the solo rival
(`stonespine_rival.py`) and `protopress score stonespine-architects` all score
through the functions here. Rulings: docs/rules/stonespine-architects.md.

A dungeon is a `dungeon.Dungeon`: each chamber's `elements` are its slot
elements, printed and placed; its `passages` the edges holding a secret
passage; its `stars` the chamber's reputation, the card's stars plus the stars
of the tokens placed on it (ruling "Token stars are chamber reputation").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, Protocol

from protopress.games.stonespine_architects.dungeon import (
    SIZE,
    Chamber,
    Doorway,
    Dungeon,
    PathScore,
    path_score,
)

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog, Component

SCORING_TABLE = "final-scoring"
CATEGORIES = (
    "priority",
    "goal",
    "challenges",
    "reputation",
    "blueprint",
    "paths",
)  # score pad order

# --- the components as the rules read them ---------------------------------


class ChamberCard(NamedTuple):
    id: str
    doors: frozenset[str]
    elements: tuple[str, ...]  # printed
    slots: int  # elements the card holds, printed ones counted
    stars: int
    gold: int
    symbol: str

    @classmethod
    def of(cls, component: Component) -> ChamberCard:
        return cls(
            component.id,
            frozenset(component["doors"]),
            tuple(component["elements"]),
            component["slots"],
            component["stars"],
            component["gold"],
            component["symbol"],
        )


class Token(NamedTuple):
    id: str
    element: str
    stars: int

    @classmethod
    def of(cls, component: Component) -> Token:
        return cls(component.id, component["element"], component.get("stars", 0))


class Condition(NamedTuple):
    op: str
    element: str | None = None
    at_least: int | None = None


class Challenge(NamedTuple):
    id: str
    points: int
    condition: Condition

    @classmethod
    def of(cls, component: Component) -> Challenge:
        cond = component["condition"]
        return cls(
            component.id,
            component["points"],
            Condition(cond["op"], cond.get("element"), cond.get("at_least")),
        )


def _missing(condition: Condition, what: str) -> ValueError:
    """A field the condition's op needs is missing (the catalog schema requires it)."""
    return ValueError(f"challenge condition {condition.op!r} has no {what}")


class Position(NamedTuple):
    row: int
    col: int
    element: str


class Blueprint(NamedTuple):
    id: str
    entrance: Doorway
    exit: Doorway
    positions: tuple[Position, ...]

    @classmethod
    def of(cls, component: Component) -> Blueprint:
        return cls(
            component.id,
            Doorway(component["entrance"]["side"], component["entrance"]["index"]),
            Doorway(component["exit"]["side"], component["exit"]["index"]),
            tuple(Position(p["row"], p["col"], p["element"]) for p in component["positions"]),
        )


class Goal(NamedTuple):
    id: str
    elements: tuple[str, ...]

    @classmethod
    def of(cls, component: Component) -> Goal:
        return cls(component.id, tuple(component["elements"]))


# --- the scoring table -------------------------------------------------------


def rank_points(ranks: Sequence[int], place: int | None) -> int:
    """Points for a 1-based place; None (no place) and places past the table score 0."""
    if place is None or not 1 <= place <= len(ranks):
        return 0
    return ranks[place - 1]


@dataclass(frozen=True)
class Scoring:
    """The final-scoring numbers plus the element kinds the counting needs."""

    priority: tuple[int, ...]
    goal: tuple[int, ...]
    solo_gold: tuple[int, ...]
    starting_gold: tuple[int, ...]
    blueprint_scale: Mapping[int, int]
    path_per_chamber: int
    gold_cap: int
    edge_elements: frozenset[str]  # placed on chamber edges (secret passages)
    elements: frozenset[str] = frozenset()  # every element id of the catalog
    challenges: Mapping[str, Challenge] = field(default_factory=dict)
    blueprints: Mapping[str, Blueprint] = field(default_factory=dict)

    @classmethod
    def of(cls, catalog: Catalog) -> Scoring:
        """The catalog's `final-scoring` table (or its only scoring table)."""
        tables = catalog.of_kind("scoring-table")
        table = next((t for t in tables if t.id == SCORING_TABLE), tables[0] if tables else None)
        if table is None:
            raise ValueError(f"{catalog.path}: no scoring table {SCORING_TABLE!r}")
        ranks, scales, points = (
            table.get("ranks", {}),
            table.get("scales", {}),
            table.get("points", {}),
        )
        needed = [
            *(
                f"ranks.{k}"
                for k in ("priority", "goal", "solo_gold", "starting_gold")
                if k not in ranks
            ),
            *(["scales.blueprint"] if "blueprint" not in scales else []),
            *(f"points.{k}" for k in ("path_per_chamber", "gold_cap") if k not in points),
        ]
        if needed:
            raise ValueError(
                f"{catalog.path}: scoring table {table.id!r} lacks {', '.join(needed)}"
            )
        elements = catalog.of_kind("element")
        return cls(
            priority=tuple(ranks["priority"]),
            goal=tuple(ranks["goal"]),
            solo_gold=tuple(ranks["solo_gold"]),
            starting_gold=tuple(ranks["starting_gold"]),
            blueprint_scale=MappingProxyType({int(k): v for k, v in scales["blueprint"].items()}),
            path_per_chamber=points["path_per_chamber"],
            gold_cap=points["gold_cap"],
            edge_elements=frozenset(e.id for e in elements if e.get("placement") == "edge"),
            elements=frozenset(e.id for e in elements),
            challenges=MappingProxyType(
                {c.id: Challenge.of(c) for c in catalog.of_kind("challenge-card")}
            ),
            blueprints=MappingProxyType(
                {b.id: Blueprint.of(b) for b in catalog.of_kind("blueprint-card")}
            ),
        )

    # counting on a dungeon

    def element_count(self, dungeon: Dungeon, element: str) -> int:
        """Elements of a kind, printed and placed; a secret passage counts once per edge."""
        if element in self.edge_elements:
            return sum(len(ch.passages) for row in dungeon.chambers for ch in row)
        return sum(ch.elements.count(element) for row in dungeon.chambers for ch in row)

    def holds(self, dungeon: Dungeon, row: int, col: int, element: str) -> bool:
        return self.chamber_holds(dungeon.chambers[row][col], element)

    def chamber_holds(self, chamber: Chamber, element: str) -> bool:
        """Whether a chamber shows the element (an edge element: any secret passage)."""
        if element in self.edge_elements:
            return bool(chamber.passages)
        return element in chamber.elements

    def full_row(self, rows: Iterable[Iterable[Chamber]], element: str) -> bool:
        """Whether every chamber of some row holds the element (loops, not
        generators, as the look-ahead asks this per action)."""
        holds = self.chamber_holds
        for row in rows:
            for chamber in row:
                if not holds(chamber, element):
                    break
            else:
                return True
        return False

    def blueprint_matches(self, dungeon: Dungeon, positions: Iterable[Position]) -> int:
        """Blueprint positions whose chamber holds the element shown there."""
        return sum(self.holds(dungeon, p.row, p.col, p.element) for p in positions)

    def blueprint_points(self, matches: int) -> int:
        """From the scale: counts it does not list (fewer than 4 matches) score 0."""
        return self.blueprint_scale.get(matches, 0)

    def path_points(self, paths: PathScore) -> int:
        return paths.score * self.path_per_chamber

    def condition_holds(
        self, condition: Condition, dungeon: Dungeon, paths: PathScore | None = None
    ) -> bool:
        return self.condition_met(condition, _DungeonFacts(self, dungeon, paths))

    def condition_met(self, condition: Condition, facts: Facts) -> bool:
        """A challenge condition judged on what facts tell of a dungeon (the one
        rule, for a dungeon and for the engine's boards)."""
        return condition_test(condition)(facts)

    def gold(self, amount: int) -> int:
        """A gold total on the track: never above the cap."""
        return min(amount, self.gold_cap)


def reads_rows(condition: Condition) -> bool:
    """Whether the condition's test reads the dungeon row by row (Facts.full_row);
    every other test reads totals: stars, element counts, the path score."""
    return condition.op == "full_row"


# what the conditions compare with their at_least, by op
_MEASURES: dict[str, Callable[[Facts], int]] = {
    "reputation": lambda facts: facts.reputation,
    "entrance_path": lambda facts: facts.paths.entrance,
    "exit_path": lambda facts: facts.paths.exit,
}


@functools.cache
def condition_test(condition: Condition) -> Callable[[Facts], bool]:
    """A challenge condition as a test of what facts tell of a dungeon, its op and
    fields read once: the look-ahead asks a board's conditions for every action."""
    op, element, at_least = condition
    if op == "element_count":
        if element is None:
            raise _missing(condition, "element")
        if at_least is None:
            raise _missing(condition, "at_least")
        return lambda facts: facts.count(element) >= at_least
    if op == "full_row":
        if element is None:
            raise _missing(condition, "element")
        return lambda facts: facts.full_row(element)
    if op == "through_route":
        return lambda facts: facts.paths.through_route
    measure = _MEASURES.get(op)
    if measure is None:
        raise ValueError(f"unknown challenge condition {op!r}")
    if at_least is None:
        raise _missing(condition, "at_least")
    return lambda facts: measure(facts) >= at_least


def reputation(dungeon: Dungeon) -> int:
    """Chamber reputation: every star in the dungeon, added and subtracted."""
    return sum(ch.stars for row in dungeon.chambers for ch in row)


class Facts(Protocol):
    """What the challenge conditions read of a dungeon."""

    @property
    def reputation(self) -> int: ...

    @property
    def paths(self) -> PathScore: ...

    def count(self, element: str) -> int: ...

    def full_row(self, element: str) -> bool: ...


class _DungeonFacts:
    """Facts of a Dungeon, counted when asked; the path graph only if a condition needs it."""

    __slots__ = ("_scoring", "_dungeon", "_paths")

    def __init__(self, scoring: Scoring, dungeon: Dungeon, paths: PathScore | None):
        self._scoring, self._dungeon, self._paths = scoring, dungeon, paths

    @property
    def reputation(self) -> int:
        return reputation(self._dungeon)

    @property
    def paths(self) -> PathScore:
        return self._paths or path_score(self._dungeon)

    def count(self, element: str) -> int:
        return self._scoring.element_count(self._dungeon, element)

    def full_row(self, element: str) -> bool:
        return self._scoring.full_row(self._dungeon.chambers, element)


# --- places ----------------------------------------------------------------


def goal_places(counts: Sequence[int], priority: Sequence[int]) -> list[int | None]:
    """1-based goal places per seat: most named elements first, ties to the higher
    priority (smaller position on the priority track); no named element, no place.

    counts[seat] is the seat's count, priority[seat] its position on the track.
    """
    eligible = sorted(
        (seat for seat, count in enumerate(counts) if count > 0),
        key=lambda seat: (-counts[seat], priority[seat]),
    )
    places: list[int | None] = [None] * len(counts)
    for place, seat in enumerate(eligible, 1):
        places[seat] = place
    return places


def solo_goal_place(player_count: int, rival_count: int) -> int | None:
    """Solo goal: first with more named elements than the rival; ties go to the rival."""
    if player_count <= 0:
        return None
    return 1 if player_count > rival_count else 2


def solo_gold_place(player_gold: int, rival_gold: int) -> int:
    """Solo final gold: first with more gold than the rival card shows; ties go to the rival."""
    return 1 if player_gold > rival_gold else 2


# --- a score sheet -----------------------------------------------------------


@dataclass(frozen=True)
class ScoreSheet:
    """One player's final score by category (the score pad's rows)."""

    paths: PathScore
    path_points: int
    reputation: int
    blueprint_matches: int | None  # None: no blueprint given
    blueprint_points: int
    priority_place: int | None
    priority_points: int
    goal_place: int | None
    goal_points: int
    challenge_points: int
    notes: Mapping[str, str] = field(default_factory=dict)  # categories the input lacked
    solo: bool = False  # the priority category is final gold against the rival

    @property
    def total(self) -> int:
        return (
            self.path_points
            + self.reputation
            + self.blueprint_points
            + self.priority_points
            + self.goal_points
            + self.challenge_points
        )

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "total": self.total,
            "paths": {
                "entrance": self.paths.entrance,
                "exit": self.paths.exit,
                "score": self.path_points,
            },
            "blueprint": {"matches": self.blueprint_matches, "score": self.blueprint_points},
            "reputation": {"score": self.reputation},
            "priority": {"place": self.priority_place, "score": self.priority_points},
            "goal": {"place": self.goal_place, "score": self.goal_points},
            "challenges": {"score": self.challenge_points},
        }
        for category, note in self.notes.items():
            result[category]["note"] = note
        return result


class _MissingType(Enum):
    MISSING = "missing"

    def __repr__(self) -> str:
        return "Missing"


Missing: Final = _MissingType.MISSING  # a category the input does not give (scores 0 with a note)
_Missing = Literal[_MissingType.MISSING]


def score_dungeon(
    scoring: Scoring,
    dungeon: Dungeon,
    *,
    blueprint: Iterable[Position] | None | _Missing = Missing,
    priority_place: int | None | _Missing = Missing,
    goal_place: int | None | _Missing = Missing,
    challenges: Iterable[int | Challenge] | int | _Missing = Missing,
    solo: bool = False,
    paths: PathScore | None = None,
) -> ScoreSheet:
    """Score a finished dungeon. Places are 1-based (None: no place).

    challenges: points as numbers (already judged) or `Challenge`s, scored when
    their condition holds. solo: priority_place is the final gold place against
    the rival (ranks.solo_gold) instead of the priority track. paths: the
    dungeon's path score when it is already known (the engine keeps its boards').
    """
    notes = {}
    if paths is None:
        paths = path_score(dungeon)
    matches = None
    if blueprint is Missing or blueprint is None:
        notes["blueprint"] = "no blueprint given"
    else:
        matches = scoring.blueprint_matches(dungeon, blueprint)
    if priority_place is Missing:
        notes["priority"] = "no final gold given" if solo else "no priority_place given"
        priority_place = None
    if goal_place is Missing:
        notes["goal"] = "no goal_place given"
        goal_place = None
    if challenges is Missing:
        notes["challenges"] = "no challenges given"
        challenges = ()
    return ScoreSheet(
        paths=paths,
        path_points=scoring.path_points(paths),
        reputation=reputation(dungeon),
        blueprint_matches=matches,
        blueprint_points=scoring.blueprint_points(matches) if matches is not None else 0,
        priority_place=priority_place,
        priority_points=rank_points(
            scoring.solo_gold if solo else scoring.priority, priority_place
        ),
        goal_place=goal_place,
        goal_points=rank_points(scoring.goal, goal_place),
        challenge_points=challenge_points(scoring, dungeon, challenges, paths),
        notes=MappingProxyType(notes),
        solo=solo,
    )


def challenge_points(
    scoring: Scoring,
    dungeon: Dungeon,
    challenges: Iterable[int | Challenge] | int,
    paths: PathScore | None = None,
) -> int:
    """Numbers count as given; challenge cards count when their condition holds."""
    if isinstance(challenges, int):
        return challenges
    total = 0
    for item in challenges:
        if isinstance(item, Challenge):
            if scoring.condition_holds(item.condition, dungeon, paths):
                total += item.points
        else:
            total += item
    return total


# --- protopress score stonespine-architects STATE.json -----------------------


def _scoring_for(catalog: Catalog) -> Scoring:
    cached = _SCORINGS.get(id(catalog))
    if cached is None or cached[0] is not catalog:
        cached = _SCORINGS[id(catalog)] = (catalog, Scoring.of(catalog))
    return cached[1]


_SCORINGS: dict[int, tuple[Catalog, Scoring]] = {}


def _known(scoring: Scoring, element: object, where: str) -> None:
    if scoring.elements and element not in scoring.elements:
        known = ", ".join(sorted(scoring.elements))
        raise ValueError(f"{where}: unknown element {element!r}; elements: {known}")


def _int(value: object, where: str, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        bound = f" of at least {low}" if low is not None else ""
        raise ValueError(f"{where}: expected an integer{bound}, found {value!r}")
    return value


def _place(value: object, where: str) -> int | None:
    """A 1-based place, or None: no place."""
    return None if value is None else _int(value, where, 1)


def _blueprint_of(scoring: Scoring, value: Any) -> tuple[Position, ...]:
    if isinstance(value, str):
        try:
            return scoring.blueprints[value].positions
        except KeyError:
            known = ", ".join(sorted(scoring.blueprints))
            raise ValueError(
                f"blueprint: no blueprint card {value!r}; blueprints: {known}"
            ) from None
    if not isinstance(value, list):
        raise ValueError("blueprint: expected a list of {row, col, element} or a blueprint id")
    positions = []
    for i, item in enumerate(value):
        where = f"blueprint[{i}]"
        if not isinstance(item, Mapping) or set(item) != {"row", "col", "element"}:
            raise ValueError(f"{where}: expected an object with row, col and element")
        row, col = (_int(item[k], f"{where}.{k}", 0) for k in ("row", "col"))
        if row >= SIZE or col >= SIZE:
            raise ValueError(f"{where}: row and col run from 0 to {SIZE - 1}")
        _known(scoring, item["element"], f"{where}.element")
        positions.append(Position(row, col, item["element"]))
    return tuple(positions)


def _challenges_of(scoring: Scoring, value: Any) -> list[int | Challenge] | int:
    if not isinstance(value, list):
        return _int(value, "challenges")
    items: list[int | Challenge] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            if item not in scoring.challenges:
                known = ", ".join(sorted(scoring.challenges))
                raise ValueError(
                    f"challenges[{i}]: no challenge card {item!r}; challenges: {known}"
                )
            items.append(scoring.challenges[item])
        else:
            items.append(_int(item, f"challenges[{i}]"))
    return items


def score_state(catalog: Catalog, state: object) -> dict[str, Any]:
    """The final score of one player's dungeon given as STATE (see the
    score-state-stonespine-architects schema), as JSON-ready data.

    Malformed dungeons raise dungeon.Dungeon.from_json's ValueError.
    """
    if not isinstance(state, Mapping):
        raise ValueError("expected a JSON object with chambers, entrance and exit")
    scoring = _scoring_for(catalog)
    dungeon = Dungeon.from_json(
        {k: state[k] for k in ("chambers", "entrance", "exit") if k in state}
    )
    for r, row in enumerate(dungeon.chambers):
        for c, chamber in enumerate(row):
            for element in chamber.elements:
                _known(scoring, element, f"chambers[{r}][{c}].elements")
    kwargs: dict[str, Any] = {}
    if "blueprint" in state:
        kwargs["blueprint"] = _blueprint_of(scoring, state["blueprint"])
    if "priority_place" in state:
        kwargs["priority_place"] = _place(state["priority_place"], "priority_place")
    if "goal_place" in state:
        kwargs["goal_place"] = _place(state["goal_place"], "goal_place")
    if "challenges" in state:
        kwargs["challenges"] = _challenges_of(scoring, state["challenges"])
    return score_dungeon(scoring, dungeon, **kwargs).to_json()


LABELS = {
    "priority": "Final priority",
    "goal": "Goal card",
    "challenges": "Challenge cards",
    "reputation": "Chamber reputation",
    "blueprint": "Blueprint",
    "paths": "Dungeon paths",
}


def _detail(category: str, part: dict) -> str:
    if "note" in part:
        return part["note"]
    if category == "paths":
        return f"entrance {part['entrance']}, exit {part['exit']}"
    if category == "blueprint":
        return f"{part['matches']} matches"
    if category in ("priority", "goal"):
        return "no place" if part["place"] is None else f"place {part['place']}"
    return ""


def format_score(result: dict) -> str:
    """The score pad's rows, in rulebook order, and the total."""
    lines = [f"{'category':<20}{'detail':<26}{'points':>6}"]
    for category in CATEGORIES:
        part = result[category]
        lines.append(f"{LABELS[category]:<20}{_detail(category, part):<26}{part['score']:>6}")
    lines.append(f"{'Total':<46}{result['total']:>6}")
    return "\n".join(lines)

"""Stonespine Architects: the dungeon path graph, the one source of truth for
which chambers connect. The rules engine scores dungeons with it and the
validators report with it. Rulings: docs/rules/stonespine-architects.md,
"Dungeon paths".

Cells are (row, col): row 0 is the year 1 row beside the frame's north side,
column 0 the west. The frame's doorways are the graph nodes "entrance" and
"exit". Constructors trust their caller (the engine builds many dungeons);
`Dungeon.from_json` checks untrusted input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, cast

import networkx as nx

SIZE = 4  # the dungeon is SIZE x SIZE chambers
MAX_ELEMENTS = 4  # per chamber, printed ones and secret passages included
EDGES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
ENTRANCE = "entrance"
EXIT = "exit"

Side = Literal["N", "E", "S", "W"]
Cell = tuple[int, int]
CELLS: tuple[Cell, ...] = tuple((row, col) for row in range(SIZE) for col in range(SIZE))


class Chamber(NamedTuple):
    """A chamber as scoring sees it. A named tuple, not a frozen dataclass: the
    look-ahead makes one per token it tries, and a tuple is made in a fifth of the time."""

    doors: frozenset[str] = frozenset()  # edges showing a printed door
    passages: frozenset[str] = frozenset()  # edges holding a secret passage
    elements: tuple[str, ...] = ()  # slot elements, printed and placed
    stars: int = 0

    def opens(self, edge: str) -> bool:
        """Whether a path can leave through this edge on its own (door or passage)."""
        return edge in self.doors or edge in self.passages


@dataclass(frozen=True, slots=True)
class Doorway:
    """A doorway on the frame; index runs west to east on N and S, north to south on E and W."""

    side: Side
    index: int

    @property
    def cell(self) -> Cell:
        """The chamber the doorway touches (through its edge on `side`)."""
        last = SIZE - 1
        return {
            "N": (0, self.index),
            "S": (last, self.index),
            "W": (self.index, 0),
            "E": (self.index, last),
        }[self.side]

    def __str__(self) -> str:
        return f"{self.side}{self.index}"


@dataclass(frozen=True, slots=True)
class Dungeon:
    chambers: tuple[tuple[Chamber, ...], ...]  # SIZE rows of SIZE, row 0 first
    entrance: Doorway
    exit: Doorway

    def chamber(self, cell: Cell) -> Chamber:
        return self.chambers[cell[0]][cell[1]]

    @classmethod
    def from_json(cls, obj: Any) -> Dungeon:
        """A dungeon from its JSON shape; ValueError names what is malformed and where.

        {"chambers": [[{"doors": "NS", "passages": "", "elements": [], "stars": 0}, ...]],
         "entrance": {"side": "N", "index": 1}, "exit": {"side": "S", "index": 2}}
        """
        _keys(obj, "dungeon", required={"chambers", "entrance", "exit"})
        rows = _list_of(obj["chambers"], SIZE, "chambers", "rows")
        chambers = tuple(
            tuple(
                _chamber(item, f"chambers[{r}][{c}]")
                for c, item in enumerate(_list_of(row, SIZE, f"chambers[{r}]", "chambers"))
            )
            for r, row in enumerate(rows)
        )
        return cls(chambers, _doorway(obj["entrance"], "entrance"), _doorway(obj["exit"], "exit"))


class PathScore(NamedTuple):  # a named tuple: made once per look-ahead action
    entrance: int  # chambers connected to the entrance
    exit: int  # chambers connected to the exit
    through_route: bool  # entrance and exit connected

    @property
    def score(self) -> int:
        """1 point per connected chamber per doorway: a through-route counts twice."""
        return self.entrance + self.exit


def _connects(here: Chamber, there: Chamber, edge: str) -> bool:
    """Neighbours connect through matching doors, or a secret passage on either side."""
    back = OPPOSITE[edge]
    return (edge in here.doors and back in there.doors) or (
        edge in here.passages or back in there.passages
    )


def path_graph(dungeon: Dungeon) -> nx.Graph:
    """Chamber cells plus "entrance" and "exit"; an edge wherever a path runs."""
    graph = nx.Graph()
    graph.add_nodes_from(CELLS)
    graph.add_nodes_from((ENTRANCE, EXIT))
    for row, col in CELLS:
        here = dungeon.chambers[row][col]
        if col + 1 < SIZE and _connects(here, dungeon.chambers[row][col + 1], "E"):
            graph.add_edge((row, col), (row, col + 1))
        if row + 1 < SIZE and _connects(here, dungeon.chambers[row + 1][col], "S"):
            graph.add_edge((row, col), (row + 1, col))
    for node, doorway in ((ENTRANCE, dungeon.entrance), (EXIT, dungeon.exit)):
        if dungeon.chamber(doorway.cell).opens(doorway.side):
            graph.add_edge(node, doorway.cell)
    return graph


def connected_chambers(dungeon: Dungeon, node: str) -> frozenset[Cell]:
    """The chamber cells connected to a doorway node ("entrance" or "exit")."""
    return _cells(nx.node_connected_component(path_graph(dungeon), node))


def has_through_route(dungeon: Dungeon) -> bool:
    """Whether the entrance and the exit are connected."""
    return nx.has_path(path_graph(dungeon), ENTRANCE, EXIT)


def path_score(dungeon: Dungeon) -> PathScore:
    graph = path_graph(dungeon)
    entrance = nx.node_connected_component(graph, ENTRANCE)
    through_route = EXIT in entrance
    out = entrance if through_route else nx.node_connected_component(graph, EXIT)
    return PathScore(len(_cells(entrance)), len(_cells(out)), through_route)


def flood_path_score(dungeon: Dungeon) -> PathScore:
    """path_score without building the graph, for the engine's look-ahead: the same
    _connects between neighbours, as bit masks (`Geometry`) flooded from each
    doorway (tests/games/stonespine_architects/test_fast.py checks it equals path_score)."""
    chambers = [chamber for row in dungeon.chambers for chamber in row]
    return geometry_path_score(Geometry.of(chambers), dungeon.entrance, dungeon.exit)


_SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}
_WEST_OF_EAST = sum(1 << cell for cell in range(SIZE * SIZE) if cell % SIZE < SIZE - 1)
_NORTH_OF_SOUTH = (1 << (SIZE * (SIZE - 1))) - 1
_ALL = (1 << (SIZE * SIZE)) - 1


class Geometry(NamedTuple):
    """Which edges of the chambers open, as masks with bit row * SIZE + col set
    where that chamber shows a door (doors) or holds a secret passage (passages)
    on the side, sides in the order N, E, S, W."""

    doors: tuple[int, int, int, int]
    passages: tuple[int, int, int, int]

    @classmethod
    def of(cls, chambers: Sequence[Chamber]) -> Geometry:
        """Of the chambers row by row (row 0 first, SIZE * SIZE of them)."""
        doors, passages = [0] * 4, [0] * 4
        for cell, chamber in enumerate(chambers):
            for edge in chamber.doors:
                doors[_SIDES[edge]] |= 1 << cell
            for edge in chamber.passages:
                passages[_SIDES[edge]] |= 1 << cell
        return cls(
            (doors[0], doors[1], doors[2], doors[3]),
            (passages[0], passages[1], passages[2], passages[3]),
        )

    def with_chamber(self, cell: int, chamber: Chamber) -> Geometry:
        """The geometry with the chamber in cell replaced."""
        bit, keep = 1 << cell, ~(1 << cell)
        doors, passages = chamber.doors, chamber.passages
        d, p = self.doors, self.passages
        return Geometry(
            (
                (d[0] & keep) | (bit if "N" in doors else 0),
                (d[1] & keep) | (bit if "E" in doors else 0),
                (d[2] & keep) | (bit if "S" in doors else 0),
                (d[3] & keep) | (bit if "W" in doors else 0),
            ),
            (
                (p[0] & keep) | (bit if "N" in passages else 0),
                (p[1] & keep) | (bit if "E" in passages else 0),
                (p[2] & keep) | (bit if "S" in passages else 0),
                (p[3] & keep) | (bit if "W" in passages else 0),
            ),
        )


def geometry_path_score(geometry: Geometry, entrance: Doorway, exit: Doorway) -> PathScore:
    """The path score of a geometry: the chambers each doorway reaches (_reached)."""
    reached, out, through_route = _reached(geometry, entrance, exit)
    return PathScore(reached.bit_count(), out.bit_count(), through_route)


def path_reach(geometry: Geometry, entrance: Doorway, exit: Doorway) -> int:
    """The mask of cells where a chamber changed may change the path score: the
    chambers either doorway reaches, their neighbours and the doorways' own. A
    chamber changed elsewhere neither opens onto a doorway nor connects to a
    reached chamber, so both floods go as before and the score stays (the
    look-ahead skips the score there)."""
    reached, out, _ = _reached(geometry, entrance, exit)
    chambers = reached | out
    east, west = (chambers & _WEST_OF_EAST) << 1, (chambers >> 1) & _WEST_OF_EAST
    south, north = (chambers << SIZE) & _ALL, chambers >> SIZE
    doorways = _DOORWAYS[entrance.side][entrance.index][1] | _DOORWAYS[exit.side][exit.index][1]
    return chambers | east | west | south | north | doorways


def _reached(geometry: Geometry, entrance: Doorway, exit: Doorway) -> tuple[int, int, bool]:
    """The masks of the chambers the entrance and the exit reach, and whether they
    meet: _connects for every pair of neighbours at once (east: a door each way or
    a passage on either side; likewise south), then a flood fill of the mask from
    each doorway."""
    (dn, de, ds, dw), (pn, pe, ps, pw) = geometry
    east = ((de & (dw >> 1)) | pe | (pw >> 1)) & _WEST_OF_EAST  # bit: connects to its east
    south = ((ds & (dn >> SIZE)) | ps | (pn >> SIZE)) & _NORTH_OF_SOUTH  # ... to its south
    opens = (dn | pn, de | pe, ds | ps, dw | pw)
    reached = _flood(_opening(entrance, opens), east, south)
    exit_open = _opening(exit, opens)
    through_route = bool(reached & exit_open)
    out = reached if through_route else _flood(exit_open, east, south)
    return reached, out, through_route


def _opening(doorway: Doorway, opens: tuple[int, ...]) -> int:
    """The bit of the doorway's chamber if that chamber opens onto the doorway, else 0."""
    side, bit = _DOORWAYS[doorway.side][doorway.index]
    return opens[side] & bit


# (side, bit of its chamber) of every doorway, by side and index: looked up by its
# fields, as hashing a Doorway (a dataclass) costs a Python call per path score
_DOORWAYS: dict[str, tuple[tuple[int, int], ...]] = {
    side: tuple(
        (_SIDES[side], 1 << (cell[0] * SIZE + cell[1]))
        for cell in (Doorway(cast(Side, side), index).cell for index in range(SIZE))
    )
    for side in EDGES
}


def _flood(reached: int, east: int, south: int) -> int:
    """The mask of chambers a path reaches from the chambers of the mask reached."""
    while reached:
        grown = (
            reached
            | ((reached & east) << 1)
            | ((reached >> 1) & east)
            | ((reached & south) << SIZE)
            | ((reached >> SIZE) & south)
        )
        if grown == reached:
            break
        reached = grown
    return reached


def _cells(component: set) -> frozenset[Cell]:
    return frozenset(node for node in component if isinstance(node, tuple))


def shortest_route(dungeon: Dungeon) -> int | None:
    """Chambers on the shortest entrance-to-exit route, or None without a route."""
    try:
        return nx.shortest_path_length(path_graph(dungeon), ENTRANCE, EXIT) - 1
    except nx.NetworkXNoPath:
        return None


def open_dungeon(entrance: Doorway, exit: Doorway) -> Dungeon:
    """Every chamber shows four doors: what the geometry allows at best."""
    chamber = Chamber(doors=frozenset(EDGES))
    return Dungeon(tuple((chamber,) * SIZE for _ in range(SIZE)), entrance, exit)


# from_json's checks of untrusted input (JSON values: Any until checked)


def _keys(obj: Any, where: str, required: set[str], optional: frozenset[str] = frozenset()) -> None:
    if not isinstance(obj, Mapping):
        raise ValueError(f"{where}: expected an object, found {type(obj).__name__}")
    missing = sorted(required - obj.keys())
    if missing:
        raise ValueError(f"{where}: missing {', '.join(map(repr, missing))}")
    unknown = sorted(set(obj) - required - optional)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}")


def _list_of(value: Any, length: int, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of {length} {what}")
    if len(value) != length:
        raise ValueError(f"{where}: expected {length} {what}, found {len(value)}")
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _edges(value: Any, where: str) -> frozenset[str]:
    if not isinstance(value, str) or any(letter not in EDGES for letter in value):
        raise ValueError(f"{where}: {value!r} may only use the letters N, E, S, W")
    if len(set(value)) != len(value):
        raise ValueError(f"{where}: {value!r} repeats an edge")
    return frozenset(value)


def _chamber(obj: Any, where: str) -> Chamber:
    _keys(obj, where, required={"doors"}, optional=frozenset({"passages", "elements", "stars"}))
    elements = obj.get("elements", [])
    if not isinstance(elements, list) or not all(isinstance(e, str) for e in elements):
        raise ValueError(f"{where}.elements: expected a list of element ids")
    stars = obj.get("stars", 0)
    if not _is_int(stars):
        raise ValueError(f"{where}.stars: expected an integer, found {stars!r}")
    chamber = Chamber(
        doors=_edges(obj["doors"], f"{where}.doors"),
        passages=_edges(obj.get("passages", ""), f"{where}.passages"),
        elements=tuple(elements),
        stars=stars,
    )
    held = len(chamber.elements) + len(chamber.passages)
    if held > MAX_ELEMENTS:
        raise ValueError(
            f"{where}: holds {held} elements counting secret passages; "
            f"a chamber holds at most {MAX_ELEMENTS}"
        )
    return chamber


def _doorway(obj: Any, where: str) -> Doorway:
    _keys(obj, where, required={"side", "index"})
    side, index = obj["side"], obj["index"]
    if not isinstance(side, str) or side not in OPPOSITE:
        raise ValueError(f"{where}.side: expected one of N, E, S, W, found {side!r}")
    if not _is_int(index) or not 0 <= index < SIZE:
        raise ValueError(f"{where}.index: expected 0 to {SIZE - 1}, found {index!r}")
    return Doorway(cast(Side, side), index)  # checked against OPPOSITE above

"""The Gem Rush mine: placed room tiles and the directed graph dwarves move on.

A step from room A to the neighbouring space exists when A shows a door on
that edge, whatever the neighbour shows (door to wall is a one-way passage).
Tunnels are never stopped in: entering one follows its paired door, and any
chain of tunnels, to the first non-tunnel space, for one step in all. A door
whose path ends in an empty space is a construction site with that door's
cost and points. Once two or more mine carts are placed, moving between any
two of them costs nothing.

The rules engine moves dwarves on this same graph; validators grow random
mines with it.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple, overload

import networkx as nx

from protopress.components import Component

EDGES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}  # (column, row); north is up

Cell = tuple[int, int]


def rotate(edge: str, quarter_turns: int) -> str:
    """The edge a printed edge faces after turning the tile clockwise."""
    return EDGES[(EDGES.index(edge) + quarter_turns) % 4]


# rotate's answers for every edge and quarter turn (-3 to 3): the mine reads them often
_TURNED = {(edge, q): rotate(edge, q) for edge in EDGES for q in range(-3, 4)}


def neighbour(cell: Cell, edge: str) -> Cell:
    dx, dy = STEP[edge]
    return cell[0] + dx, cell[1] + dy


@dataclass(frozen=True)
class Door:
    cost: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class RoomTile:
    """A room tile as printed (rotation 0)."""

    id: str
    title: str
    type: str
    doors: Mapping[str, Door]
    tunnel_pairs: Mapping[str, str]  # edge -> the edge it connects to (tunnels only)
    mine_cart: bool = False
    # type == "tunnel", kept as a field: the mine asks it at every step it follows
    is_tunnel: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_tunnel", self.type == "tunnel")

    @classmethod
    def from_component(cls, component: Component) -> RoomTile:
        doors = {
            edge: Door(tuple(door["cost"]), door["points"])
            for edge, door in component["doors"].items()
        }
        pairs = {}
        for first, second in component.get("tunnel") or ():
            pairs[first], pairs[second] = second, first
        return cls(
            id=component.id,
            title=component["title"],
            type=component["type"],
            doors=MappingProxyType(doors),
            tunnel_pairs=MappingProxyType(pairs),
            mine_cart=bool(component.get("mine_cart", False)),
        )


def room_counts(components: Iterable[Component]) -> list[tuple[RoomTile, int]]:
    """Every room tile with its number of copies, in catalog order."""
    return [(RoomTile.from_component(component), component.count) for component in components]


def room_stack(components: Iterable[Component]) -> list[RoomTile]:
    """Every copy of every room tile, in catalog order."""
    stack = []
    for tile, copies in room_counts(components):
        stack.extend([tile] * copies)
    return stack


@dataclass(frozen=True)
class Placement:
    tile: RoomTile
    rotation: int  # quarter turns clockwise
    # by table edge, read from the tile once (the mine asks them at every step)
    _doors: dict[str, Door] = field(init=False, repr=False, compare=False)
    _edges: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _exits: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        turn = self.rotation % 4
        doors = {_TURNED[edge, turn]: door for edge, door in self.tile.doors.items()}
        pairs = self.tile.tunnel_pairs
        exits = {_TURNED[a, turn]: _TURNED[b, turn] for a, b in pairs.items()}
        object.__setattr__(self, "_doors", doors)
        object.__setattr__(self, "_edges", tuple(doors))
        object.__setattr__(self, "_exits", exits)

    def door(self, edge: str) -> Door | None:
        """The door this placed tile shows on a table edge, if any."""
        return self._doors.get(edge)

    def door_edges(self) -> tuple[str, ...]:
        return self._edges

    def tunnel_exit(self, entered: str) -> str | None:
        return self._exits.get(entered)


class Site(NamedTuple):
    """An empty space reached through a door: building there costs the door (a
    NamedTuple, not a dataclass: the look-ahead makes thousands; sites sort by
    their fields in order, which for open sites is by (origin, edge))."""

    origin: Cell  # the room whose door leads here
    edge: str  # the edge of that door
    cell: Cell  # the empty space
    entry: str  # the new tile's edge facing back the way the builder came
    door: Door


class Arrival(NamedTuple):
    """Where a move through a door ends: a room, an empty space, or nowhere (a
    NamedTuple: one is made at every door followed)."""

    cell: Cell | None  # None when a tunnel loop leads nowhere
    entry: str = ""  # edge of cell facing back (for an empty space: the new tile's entry)
    empty: bool = False

    @property
    def space(self) -> Cell:
        """The cell reached, for an arrival known to reach one (a room or an empty space)."""
        if self.cell is None:
            raise ValueError("this move leads nowhere: a tunnel loop")
        return self.cell


class Mine:
    """Placed tiles by cell, with their open construction sites kept up to date."""

    def __init__(self) -> None:
        self.cells: dict[Cell, Placement] = {}
        self._open: dict[tuple[Cell, str], Arrival] = {}  # room door -> empty space it reaches
        self._by_target: dict[Cell, set[tuple[Cell, str]]] = {}
        self._sorted: list[tuple[Cell, str]] = []  # the keys of _open, sorted
        self._graph: nx.DiGraph | None = None

    def copy(self) -> Mine:
        other = Mine()
        other.cells = dict(self.cells)
        other._open = dict(self._open)
        other._sorted = list(self._sorted)
        other._by_target = {cell: set(doors) for cell, doors in self._by_target.items()}
        return other

    # ---- placing -------------------------------------------------------

    def place(self, cell: Cell, tile: RoomTile, rotation: int) -> set[Cell]:
        """Put tile at the empty space cell; the rooms whose doors now lead somewhere
        else: those whose door led into cell, and cell's own (no other door's way
        passes through an empty space, so no other changes)."""
        if cell in self.cells:
            raise ValueError(f"space {cell} already holds {self.cells[cell].tile.id}")
        self.cells[cell] = Placement(tile, rotation % 4)
        self._graph = None
        affected = self._by_target.pop(cell, set())
        if not tile.is_tunnel:
            affected |= {(cell, edge) for edge in self.cells[cell].door_edges()}
        for door in affected:
            if self._open.pop(door, None) is not None:
                del self._sorted[bisect.bisect_left(self._sorted, door)]
            self._track(*door)
        return {origin for origin, _ in affected}

    def _track(self, origin: Cell, edge: str) -> None:
        arrival = self.follow(origin, edge)
        if arrival.empty:
            self._open[(origin, edge)] = arrival
            bisect.insort(self._sorted, (origin, edge))
            self._by_target.setdefault(arrival.space, set()).add((origin, edge))

    def remove(self, cell: Cell) -> Placement:
        """Take a tile out of the mine (rare: open sites are rebuilt from scratch)."""
        placement = self.cells.pop(cell)
        self._graph = None
        self._open.clear()
        self._sorted.clear()
        self._by_target.clear()
        for origin, placed in self.cells.items():
            if not placed.tile.is_tunnel:
                for edge in placed.door_edges():
                    self._track(origin, edge)
        return placement

    # ---- moving --------------------------------------------------------

    def follow(self, origin: Cell, edge: str) -> Arrival:
        """Leave origin through edge and follow any tunnels to a room or an empty space."""
        seen = set()
        cell = neighbour(origin, edge)
        while True:
            entered = OPPOSITE[edge]
            placement = self.cells.get(cell)
            if placement is None:
                return Arrival(cell, entered, True)  # empty
            if not placement.tile.is_tunnel:
                return Arrival(cell, entered)
            exit_edge = placement.tunnel_exit(entered)
            if exit_edge is None or (cell, entered) in seen:
                return Arrival(None)
            edge = exit_edge
            seen.add((cell, entered))
            cell = neighbour(cell, edge)

    def sites(self) -> list[Site]:
        """Every open construction site, from any room, in a stable order."""
        return sorted(
            Site(origin, edge, arrival.space, arrival.entry, self._door(origin, edge))
            for (origin, edge), arrival in self._open.items()
        )

    def open_sites(self) -> Sequence[Site]:
        """The open sites in the order of sites(), made one at a time when indexed:
        choosing one of n at random costs no sorting and makes one Site."""
        return _OpenSites(self)

    def _site(self, index: int) -> Site:
        origin, edge = self._sorted[index]
        arrival = self._open[(origin, edge)]
        return Site(origin, edge, arrival.space, arrival.entry, self._door(origin, edge))

    def _door(self, origin: Cell, edge: str) -> Door:
        """The door of origin's tile on edge, for an edge known to show one."""
        door = self.cells[origin].door(edge)
        if door is None:
            raise ValueError(f"no door on the {edge} edge of {origin}")
        return door

    def follow_tunnel(self, cell: Cell, entered: str) -> Arrival:
        """Out the other side of the tunnel tile at cell, entered by its entered edge."""
        out = self.cells[cell].tunnel_exit(entered)
        if out is None:
            raise ValueError(f"the tile at {cell} is no tunnel entered by its {entered} edge")
        return self.follow(cell, out)

    def rooms(self) -> list[Cell]:
        return [cell for cell, placed in self.cells.items() if not placed.tile.is_tunnel]

    def graph(self) -> nx.DiGraph:
        """Rooms and construction sites as a directed graph weighted in movement steps."""
        if self._graph is None:
            self._graph = self._build_graph()
        return self._graph

    def _build_graph(self) -> nx.DiGraph:
        graph = nx.DiGraph()
        rooms = self.rooms()
        graph.add_nodes_from(rooms)
        for cell in rooms:
            for edge in self.cells[cell].door_edges():
                arrival = self.follow(cell, edge)
                if arrival.cell is not None and not arrival.empty:
                    graph.add_edge(cell, arrival.cell, weight=1, via=edge)
        for site in self.sites():
            graph.add_edge(site.origin, site, weight=1, via=site.edge)
        carts = [cell for cell in rooms if self.cells[cell].tile.mine_cart]
        if len(carts) >= 2:
            for a in carts:
                for b in carts:
                    if a != b:
                        graph.add_edge(a, b, weight=0, via="cart")
        return graph

    def reachable(self, start: Cell, steps: int) -> dict[Cell, int]:
        """Rooms reachable from start within steps, with the fewest steps to each."""
        lengths = nx.single_source_dijkstra_path_length(self.graph(), start, cutoff=steps)
        return {node: cost for node, cost in lengths.items() if not isinstance(node, Site)}

    def reachable_sites(self, start: Cell, steps: int) -> dict[Site, int]:
        """Construction sites reachable within steps (building is the last step)."""
        lengths = nx.single_source_dijkstra_path_length(self.graph(), start, cutoff=steps)
        return {node: cost for node, cost in lengths.items() if isinstance(node, Site)}


class _OpenSites(Sequence[Site]):
    """A read-only view of a mine's open sites in sorted order (see Mine.open_sites).
    A site is one door of one room (origin, edge), so sorting the doors sorts the
    sites the same way."""

    def __init__(self, mine: Mine) -> None:
        self._mine = mine

    def __len__(self) -> int:
        return len(self._mine._sorted)

    @overload
    def __getitem__(self, index: int) -> Site: ...

    @overload
    def __getitem__(self, index: slice) -> list[Site]: ...

    def __getitem__(self, index: int | slice) -> Site | list[Site]:
        if isinstance(index, slice):
            return [self._mine._site(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("site index out of range")
        return self._mine._site(index)


def legal_rotations(tile: RoomTile, entry: str) -> list[int]:
    """Rotations that put one of the tile's doors on the entry edge (one per door)."""
    return sorted((EDGES.index(entry) - EDGES.index(edge)) % 4 for edge in tile.doors)


def first_room(mine: Mine, stack: list[RoomTile], start: Cell, rng: random.Random) -> Cell:
    """Start the mine at start with the stack's top tile; while the tile is a tunnel,
    connect tiles until one is not. The cell of that first room."""
    first = stack.pop()
    mine.place(start, first, 0)
    if not first.is_tunnel:
        return start
    arrival = mine.follow(start, rng.choice(EDGES))
    while stack:
        if not arrival.empty:  # a tunnel loop: take any tunnel door onto empty space
            onto_empty = next(
                (
                    a
                    for cell, placed in mine.cells.items()
                    for edge in placed.door_edges()
                    if (a := mine.follow(cell, edge)).empty
                ),
                None,
            )
            if onto_empty is None:
                break
            arrival = onto_empty
        tile = stack.pop()
        mine.place(arrival.space, tile, rng.choice(legal_rotations(tile, arrival.entry)))
        if not tile.is_tunnel:
            return arrival.space
        arrival = mine.follow_tunnel(arrival.space, arrival.entry)
    raise ValueError("the room stack has no room tile that is not a tunnel to start the mine")

"""Seeded Monte Carlo of mines grown at random from a room stack.

A mine closes when no room has a door leading to an empty space (through
tunnels or not): nobody can build any more, even with Warpstone, although
room tiles remain in the stack. A dead end is a corridor leading nowhere:
rooms with a single connection and no open door, and the run of
two-connection rooms without open doors that leads to them.

A mine grows to at most GROWTH_LIMIT tiles. A stack that holds more (a catalog
may have up to 10,000 copies of each tile) is drawn from its copy counts
without being laid out, and the statistics then describe the first
GROWTH_LIMIT tiles of the stack: a mine that reaches the limit stays open.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from protopress.balance.intervals import wilson_interval
from protopress.games.gem_rush.mine import EDGES, Cell, Mine, RoomTile, Site, legal_rotations

GROWTH_LIMIT = 400  # tiles grown per mine at most: five times the built-in stack of 80


@dataclass(frozen=True)
class RoomStack:
    """A room stack as distinct tiles and their copies, in catalog order."""

    counts: tuple[tuple[RoomTile, int], ...]

    @classmethod
    def of(cls, stack: Sequence[RoomTile] | RoomStack) -> RoomStack:
        """Group a list of tiles (copies of a tile are the same object) into runs."""
        if isinstance(stack, RoomStack):
            return stack
        runs: list[tuple[RoomTile, int]] = []
        for tile in stack:
            if runs and runs[-1][0] is tile:
                runs[-1] = (tile, runs[-1][1] + 1)
            else:
                runs.append((tile, 1))
        return cls(tuple(runs))

    @property
    def total(self) -> int:
        return sum(copies for _, copies in self.counts)

    def draws(self, rng: random.Random, limit: int) -> _Draws:
        """The stack shuffled, to be drawn tile by tile, at most limit tiles of it."""
        if self.total <= limit:  # small: lay it out and shuffle, as a player would
            laid: list[RoomTile] = []
            for tile, copies in self.counts:
                laid.extend([tile] * copies)
            rng.shuffle(laid)
            return _Shuffled(laid)
        return _Sampled(self.counts, limit, rng)


class _Shuffled:
    def __init__(self, tiles: list[RoomTile]) -> None:
        self.tiles = tiles

    def __len__(self) -> int:
        return len(self.tiles)

    def pop(self) -> RoomTile:
        return self.tiles.pop()


class _Sampled:
    """Draws without replacement from copy counts: each draw picks one of the
    remaining copies uniformly, which orders the stack as a shuffle would. Work
    and memory depend on the distinct tiles and the draws, not on the copies."""

    def __init__(
        self, counts: tuple[tuple[RoomTile, int], ...], limit: int, rng: random.Random
    ) -> None:
        self.tiles = [tile for tile, _ in counts]
        self.left = [copies for _, copies in counts]
        self.total = sum(self.left)
        self.budget = limit
        self.rng = rng

    def __len__(self) -> int:
        return min(self.budget, self.total)

    def pop(self) -> RoomTile:
        if not len(self):
            raise IndexError("pop from an empty stack")
        pick = self.rng.randrange(self.total)
        for index, copies in enumerate(self.left):
            if pick < copies:
                self.left[index] -= 1
                self.total -= 1
                self.budget -= 1
                return self.tiles[index]
            pick -= copies
        raise RuntimeError("the stack holds fewer tiles than its total says")


_Draws = _Shuffled | _Sampled


@dataclass(frozen=True)
class GrownMine:
    closed: bool  # no open door remained while tiles were left in the stack
    placed: int  # tiles placed, the starting tile included
    longest_dead_end: int  # rooms in the longest corridor leading nowhere


@dataclass(frozen=True)
class GrowthStats:
    mines: int
    closed: int
    stack: int  # tiles in the stack
    limit: int  # tiles grown per mine at most (below stack: only the first ones were used)
    closed_low: float  # 95% Wilson interval of the closing rate
    closed_high: float
    mean_placed: float
    mean_dead_end: float
    longest_dead_end: int


def grow_mine(
    stack: Sequence[RoomTile] | RoomStack, rng: random.Random, limit: int = GROWTH_LIMIT
) -> tuple[Mine, GrownMine]:
    """Shuffle the stack and build until it runs out (or limit tiles are placed) or
    the mine closes."""
    draws = RoomStack.of(stack).draws(rng, limit)
    mine = Mine()
    first = draws.pop()
    mine.place((0, 0), first, 0)
    if first.is_tunnel:  # connect tiles to the tunnel until one is not a tunnel
        _extend(mine, (0, 0), rng.choice(EDGES), draws, rng)
    closed = False
    while draws:
        sites = mine.open_sites()
        if not sites:
            closed = True
            break
        site = rng.choice(sites)
        tile = draws.pop()
        mine.place(site.cell, tile, rng.choice(legal_rotations(tile, site.entry)))
        if tile.is_tunnel:
            _continue_through(mine, site.cell, site.entry, draws, rng)
    return mine, GrownMine(closed, len(mine.cells), longest_dead_end(mine))


def _continue_through(
    mine: Mine, cell: Cell, entered: str, stack: _Draws, rng: random.Random
) -> None:
    """A tunnel was just built: go on out the other side, building again if empty."""
    out = mine.cells[cell].tunnel_exit(entered)
    if out is None:
        raise ValueError(f"the tile at {cell} is no tunnel entered by its {entered} edge")
    _extend(mine, cell, out, stack, rng)


def _extend(mine: Mine, cell: Cell, edge: str, stack: _Draws, rng: random.Random) -> None:
    arrival = mine.follow(cell, edge)
    while arrival.empty and stack:
        tile = stack.pop()
        mine.place(arrival.space, tile, rng.choice(legal_rotations(tile, arrival.entry)))
        if not tile.is_tunnel:
            return
        arrival = mine.follow_tunnel(arrival.space, arrival.entry)


def longest_dead_end(mine: Mine) -> int:
    graph = mine.graph()
    links = nx.Graph()
    links.add_nodes_from(mine.rooms())
    links.add_edges_from((a, b) for a, b in graph.edges if not isinstance(b, Site))
    has_open_door = {site.origin for site in mine.sites()}
    longest = 0
    for end in links:
        if links.degree(end) != 1 or end in has_open_door:
            continue
        length, previous, current = 1, end, next(iter(links[end]))
        while links.degree(current) == 2 and current not in has_open_door:
            length += 1
            previous, current = current, next(n for n in links[current] if n != previous)
        if links.degree(current) == 1 and current not in has_open_door:
            length += 1  # the corridor is closed at both ends: all of it is dead
        longest = max(longest, length)
    return longest


def monte_carlo(
    stack: Sequence[RoomTile] | RoomStack, mines: int, seed: int, limit: int = GROWTH_LIMIT
) -> GrowthStats:
    rng = random.Random(seed)
    counts = RoomStack.of(stack)
    results = [grow_mine(counts, rng, limit)[1] for _ in range(mines)]
    closed = sum(result.closed for result in results)
    low, high = wilson_interval(closed, mines)
    return GrowthStats(
        mines=mines,
        closed=closed,
        stack=counts.total,
        limit=limit,
        closed_low=low,
        closed_high=high,
        mean_placed=sum(r.placed for r in results) / mines,
        mean_dead_end=sum(r.longest_dead_end for r in results) / mines,
        longest_dead_end=max(r.longest_dead_end for r in results),
    )

"""Seeded Monte Carlo of mines grown at random from a room stack.

A mine closes when no room has a door leading to an empty space (through
tunnels or not): nobody can build any more, even with Warpstone, although
room tiles remain in the stack. A dead end is a corridor leading nowhere:
rooms with a single connection and no open door, and the run of
two-connection rooms without open doors that leads to them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import networkx as nx

from protopress.balance.intervals import wilson_interval
from protopress.games.gem_rush.mine import EDGES, Cell, Mine, RoomTile, Site, legal_rotations


@dataclass(frozen=True)
class GrownMine:
    closed: bool  # no open door remained while tiles were left in the stack
    placed: int  # tiles placed, the starting tile included
    longest_dead_end: int  # rooms in the longest corridor leading nowhere


@dataclass(frozen=True)
class GrowthStats:
    mines: int
    closed: int
    closed_low: float  # 95% Wilson interval of the closing rate
    closed_high: float
    mean_placed: float
    mean_dead_end: float
    longest_dead_end: int


def grow_mine(stack: list[RoomTile], rng: random.Random) -> tuple[Mine, GrownMine]:
    """Shuffle the stack and build until it runs out or the mine closes."""
    stack = list(stack)
    rng.shuffle(stack)
    mine = Mine()
    first = stack.pop()
    mine.place((0, 0), first, 0)
    if first.is_tunnel:  # connect tiles to the tunnel until one is not a tunnel
        _extend(mine, (0, 0), rng.choice(EDGES), stack, rng)
    closed = False
    while stack:
        sites = mine.sites()
        if not sites:
            closed = True
            break
        site = rng.choice(sites)
        tile = stack.pop()
        mine.place(site.cell, tile, rng.choice(legal_rotations(tile, site.entry)))
        if tile.is_tunnel:
            _continue_through(mine, site.cell, site.entry, stack, rng)
    return mine, GrownMine(closed, len(mine.cells), longest_dead_end(mine))


def _continue_through(mine: Mine, cell: Cell, entered: str, stack, rng) -> None:
    """A tunnel was just built: go on out the other side, building again if empty."""
    out = mine.cells[cell].tunnel_exit(entered)
    if out is None:
        raise ValueError(f"the tile at {cell} is no tunnel entered by its {entered} edge")
    _extend(mine, cell, out, stack, rng)


def _extend(mine: Mine, cell: Cell, edge: str, stack, rng) -> None:
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


def monte_carlo(stack: list[RoomTile], mines: int, seed: int) -> GrowthStats:
    rng = random.Random(seed)
    results = [grow_mine(stack, rng)[1] for _ in range(mines)]
    closed = sum(result.closed for result in results)
    low, high = wilson_interval(closed, mines)
    return GrowthStats(
        mines=mines,
        closed=closed,
        closed_low=low,
        closed_high=high,
        mean_placed=sum(r.placed for r in results) / mines,
        mean_dead_end=sum(r.longest_dead_end for r in results) / mines,
        longest_dead_end=max(r.longest_dead_end for r in results),
    )

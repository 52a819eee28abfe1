"""Gem Rush mine graph: queries on a mine of all 80 tiles, and the mine-growth
Monte Carlo at 1,000 mines.

Baseline, measured in the same run: a breadth-first search in plain Python over
a precomputed adjacency dict of the same mine, the least any reachability
query could cost, in a process that imports nothing of protopress
(benchmarks/bare/bfs.py, given the graph as JSON). Ratios against it are
comparable across machines.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from figures import Figure, add_json_option, run_bare, write_json
from timing import best

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.mine import Mine, room_stack
from protopress.games.gem_rush.mine_growth import grow_mine, monte_carlo


def full_mine(seed: int) -> Mine:
    """Grow mines until one uses all 80 tiles."""
    stack = room_stack(load_catalog(builtin_catalog_path("gem-rush")).of_kind("room-tile"))
    rng = random.Random(seed)
    while True:
        mine, grown = grow_mine(stack, rng)
        if grown.placed == len(stack):
            return mine


def bare_bfs(rooms: list, graph, steps: int) -> float:
    """The bare BFS pair's best seconds a room, in a process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "graph.json"
        adjacency = [[node, list(graph.successors(node))] for node in graph]
        document = {"rooms": rooms, "adjacency": adjacency}
        path.write_text(json.dumps(document, default=str))  # a door by its text
        return run_bare("bfs.py", str(path), "--steps", str(steps))["per_room"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mines", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()

    mine = full_mine(args.seed)
    rooms = mine.rooms()
    graph = mine.graph()
    queries = 200

    def networkx_queries():
        for start in rooms[:queries]:
            mine.reachable(start, 3)
            mine.reachable_sites(start, 3)

    def rebuild():
        mine._graph = None
        mine.graph()

    n = min(queries, len(rooms))
    base = bare_bfs(rooms[:queries], graph, 3)
    query = best(networkx_queries, 5) / n
    build = best(rebuild, 5)
    print(f"mine: {len(mine.cells)} tiles, {len(rooms)} rooms, {len(mine.sites())} open sites")
    print(f"baseline BFS pair (plain dict):     {base * 1e6:8.1f} us per room")
    print(
        f"reachable + reachable_sites (k=3):  {query * 1e6:8.1f} us per room ({query / base:.1f}x)"
    )
    print(f"graph build from the placed tiles:  {build * 1e3:8.2f} ms ({build / base:.0f}x)")

    stack = room_stack(load_catalog(builtin_catalog_path("gem-rush")).of_kind("room-tile"))
    start = time.perf_counter()
    stats = monte_carlo(stack, args.mines, args.seed)
    elapsed = time.perf_counter() - start
    print(
        f"Monte Carlo: {args.mines} mines in {elapsed:.2f} s "
        f"({elapsed / args.mines * 1e3:.2f} ms per mine, {elapsed / args.mines / base:.0f}x "
        f"the baseline query); closed {stats.closed} ({stats.closed / args.mines:.1%}), "
        f"longest dead end {stats.longest_dead_end}"
    )
    bare = "bare BFS pair a room"
    write_json(args.json, [
        Figure("reachable + reachable_sites (k=3), a room", query * 1e6, "us", base * 1e6, bare),
        Figure("graph build from the placed tiles", build * 1e6, "us", base * 1e6, bare),
        Figure("Monte Carlo, a mine", elapsed / args.mines * 1e6, "us", base * 1e6, bare),
    ])  # fmt: skip


if __name__ == "__main__":
    main()

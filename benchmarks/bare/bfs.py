"""Baseline of mine_graph.py: a breadth-first search in plain Python over a
precomputed adjacency dict, twice from each start room (the pair of queries the
mine answers), best of --repeats; seconds a room.

The graph comes as JSON ({"rooms": [...], "adjacency": [[node, [node, ...]], ...]}),
its nodes turned back into (nested) tuples of numbers and text, as the
mine's cells and sites are tuples.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import deque
from pathlib import Path

from report import report


def tuples(value):
    return tuple(tuples(item) for item in value) if isinstance(value, list) else value


def bfs(adjacency, start, steps):
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if seen[node] < steps:
            for other in adjacency[node]:
                if other not in seen:
                    seen[other] = seen[node] + 1
                    queue.append(other)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", type=Path)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    document = json.loads(args.graph.read_text())
    rooms = [tuples(room) for room in document["rooms"]]
    adjacency = {
        tuples(node): [tuples(o) for o in others] for node, others in document["adjacency"]
    }
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for room in rooms:
            bfs(adjacency, room, args.steps)
            bfs(adjacency, room, args.steps)
        times.append(time.perf_counter() - start)
    report({"per_room": min(times) / len(rooms)})


if __name__ == "__main__":
    main()

"""Validate a generated catalog of 10,000 components: time and peak memory.

The generated catalog mixes Gem Rush room tiles (the richest kind: doors,
effect steps, conditions) with gem cards and Stonespine chamber cards, all with
references to resolve. Baseline: parsing the same file with json.loads, in a
process that imports nothing of protopress (benchmarks/bare/json_load.py).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from figures import Figure, add_json_option, run_bare, write_json

from protopress.components import builtin_catalog_path, load_catalog

STANDARD = ["fire-ruby", "obsidian", "permafrost", "star-tear", "electrum", "soulstone", "raw-hope"]


def generate(components: int, seed: int) -> dict:
    rng = random.Random(seed)
    rush = json.loads(builtin_catalog_path("gem-rush").read_text())
    spine = json.loads(builtin_catalog_path("stonespine-architects").read_text())
    tiles, cards, chambers = [], [], []
    for index in range(components):
        choice = index % 3
        if choice == 0:
            doors = {
                edge: {"cost": rng.sample(STANDARD, rng.randint(0, 3)), "points": rng.randint(0, 4)}
                for edge in rng.sample("NESW", rng.randint(1, 4))
            }
            ability = [
                {"op": "discard", "count": 1, "where": {"any": rng.sample(STANDARD, 2)}},
                {"op": "reveal", "count": 5},
                {"op": "keep", "count": "all", "where": {"none": "discarded"}},
            ]
            tiles.append(
                {
                    "id": f"room-{index}",
                    "title": f"Room {index}",
                    "type": "action",
                    "doors": doors,
                    "ability": ability,
                    "text": "Discard, reveal 5, keep.",
                }
            )
        elif choice == 1:
            cards.append({"id": f"card-{index}", "gems": rng.sample(STANDARD, 2)})
        else:
            template = rng.choice(spine["chamber_cards"])
            chambers.append(dict(template, id=f"chamber-{index}"))
    return {
        "game": "benchmark",
        "title": "Benchmark",
        "version": "1.0",
        "gems": rush["gems"],
        "elements": spine["elements"],
        "symbols": spine["symbols"],
        "room_tiles": tiles,
        "gem_cards": cards,
        "chamber_cards": chambers,
    }


def timed(function, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--components", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "benchmark.json"
        path.write_text(json.dumps(generate(args.components, args.seed), indent=2))
        load_catalog(path)  # warm up: compiles the schemas once per process

        best_baseline = run_bare("json_load.py", str(path), "--repeats", str(args.repeats))["best"]
        validate = timed(lambda: load_catalog(path), args.repeats)

        tracemalloc.start()
        load_catalog(path)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

        size = path.stat().st_size
    best_validate = min(validate)
    print(f"catalog: {args.components} components, {size / 1e6:.1f} MB")
    print(f"json.loads (baseline): best {best_baseline * 1000:.0f} ms")
    print(
        f"load_catalog:          best {best_validate * 1000:.0f} ms, "
        f"median {statistics.median(validate) * 1000:.0f} ms "
        f"({best_validate / best_baseline:.1f}x the baseline)"
    )
    print(f"peak memory while validating (tracemalloc): {peak / 1e6:.1f} MB")
    write_json(args.json, [
        Figure(f"load_catalog, {args.components} components", best_validate, "s", best_baseline,
               "json.loads, bare process"),
        Figure("peak memory while validating", peak / 1e6, "MB"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()

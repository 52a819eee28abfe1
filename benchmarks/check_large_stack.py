"""`protopress check` on Gem Rush with 10,000 copies of every room tile.

The documented count limit gives a 760,000-tile room stack. The mine-growth
check draws from the copy counts and grows each mine to at most GROWTH_LIMIT
tiles, so its time is about that of the built-in 80-tile stack times the
limit over 80. Before that bound, one run had not finished after 15 minutes
(the first mine alone had placed 11,682 tiles in 40 s, sorting every open
site on every step). Baseline, measured in the same run: the same checks on
the built-in catalog.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from figures import Figure, add_json_option, write_json

from protopress.components import builtin_catalog_path, load_catalog
from protopress.validators.registry import run_checks


def timed(path: Path) -> float:
    catalog = load_catalog(path)
    start = time.perf_counter()
    run_checks(catalog, seed=0)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_json_option(parser)
    args = parser.parse_args()
    document = json.loads(builtin_catalog_path("gem-rush").read_text(encoding="utf-8"))
    document.pop("$schema", None)
    document.get("totals", {}).pop("room_tiles", None)
    for room in document["room_tiles"]:
        room["count"] = 10_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rush.json"
        path.write_text(json.dumps(document))
        baseline = timed(builtin_catalog_path("gem-rush"))
        large = timed(path)
    print(f"baseline: checks on the built-in catalog (80 room tiles): {baseline:6.2f} s")
    print(f"checks with 10,000 copies of each room tile (760,000):   {large:6.2f} s")
    print(f"ratio: {large / baseline:.1f}x")
    write_json(args.json, [
        Figure("checks, 760,000 room tiles", large, "s", baseline, "checks, built-in catalog"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()

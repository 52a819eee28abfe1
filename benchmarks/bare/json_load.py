"""Baseline of validate_catalog.py: json.loads of a catalog file, best of --repeats."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from report import report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        json.loads(args.path.read_text())
        times.append(time.perf_counter() - start)
    report({"best": min(times)})


if __name__ == "__main__":
    main()

"""Shared timing helper for the benchmark scripts (run them from the checkout:
`.venv/bin/python benchmarks/<script>.py`, which puts this folder on the path)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(function: Callable[[], object], repeats: int) -> float:
    """The fastest of `repeats` timed calls, in seconds: the least disturbed by other work."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)

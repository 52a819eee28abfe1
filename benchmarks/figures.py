"""How a benchmark script hands its figures to benchmarks/run.py (standard library only).

Each script adds `--json FILE` with `add_json_option` and, after printing its
table as before, writes its figures with `write_json`: each a `Figure`, one
measurement beside the baseline it is read against, so that the runner
records the value, the baseline's value and their ratio. Run alone without
`--json`, a script prints as it always did.

`run_bare` runs a baseline script of benchmarks/bare/ in a fresh process: a
baseline imports nothing of protopress (only the standard library and the
third-party library it stands for), and the process refuses to report if it
did.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

BARE = Path(__file__).resolve().parent / "bare"


@dataclass(frozen=True)
class Figure:
    """One measurement and its baseline, in the same unit.

    `ratio` is value / baseline, whichever way is better: a time of 1.3x is
    30% slower than its baseline, a rate of 1.3x 30% faster (`better` says
    which way a figure improves)."""

    name: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_name: str | None = None
    better: Literal["lower", "higher"] = "lower"

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or self.baseline == 0:
            return None
        return self.value / self.baseline

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "ratio": self.ratio}


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        metavar="FILE",
        type=Path,
        help="also write the figures to FILE as JSON (what benchmarks/run.py records)",
    )


def write_json(
    path: Path | None,
    figures: Iterable[Figure],
    details: object = None,
) -> None:
    """The figures (and any details of the script's own) as JSON, when path is given."""
    if path is None:
        return
    document: dict[str, object] = {"figures": [figure.to_json() for figure in figures]}
    if details is not None:
        document["details"] = details
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def run_bare(script: str, *arguments: str) -> dict[str, float]:
    """What a baseline script of benchmarks/bare/ printed (one JSON object), run in a
    fresh process."""
    found = subprocess.run(
        [sys.executable, str(BARE / script), *arguments], capture_output=True, text=True
    )
    if found.returncode != 0:
        raise SystemExit(f"benchmarks/bare/{script} failed:\n{found.stderr[-2000:]}")
    result: dict[str, float] = json.loads(found.stdout)
    return result

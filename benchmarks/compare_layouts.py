"""The expanded elements of every built-in layout against those of a git revision.

A quick check, before the pixel comparison of compare_renders.py, that a
rewrite of the layouts (extends, fragments, repeat) expands to the same plain
elements, in the same order (or, reported apart, in another order: the same
output only where the reordered elements do not overlap, which the pixel
comparison shows). Lengths are compared in millimetres and numbers
to 1e-6 mm, so 36 and 36.0, or "3mm" and 3, are the same.

    python benchmarks/compare_layouts.py 7c610fd
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from protopress.generators.expand import LENGTH_KEYS
from protopress.generators.layout import builtin_layout_dirs, load_layout
from protopress.generators.units import parse_length, to_mm

ROOT = Path(__file__).resolve().parent.parent


def normal(element: dict) -> dict:
    """An element with lengths in mm, numbers rounded and `when` always a list."""
    result = {}
    for key, value in element.items():
        if key in LENGTH_KEYS and isinstance(value, str) and "{" not in value:
            value = to_mm(parse_length(value))
        if key == "when" and isinstance(value, str):
            value = [value]
        if isinstance(value, float | int) and not isinstance(value, bool):
            value = round(float(value), 6)
        result[key] = value
    return result


def sides(layout) -> dict:
    return {
        "front": [normal(e) for e in layout.front],
        "back": None if layout.back is None else [normal(e) for e in layout.back],
        "size": (round(layout.width, 6), round(layout.height, 6)),
        "safe": round(layout.safe, 6),
        "corner_radius": round(layout.corner_radius, 6),
        "fonts": sorted(layout.fonts),
    }


def old_files(revision: str, folder: Path) -> None:
    """The layout folders as they were at revision, written under folder."""
    for layouts in builtin_layout_dirs():
        relative = layouts.relative_to(ROOT)
        listing = subprocess.run(["git", "ls-tree", "--name-only", f"{revision}:{relative}"],
                                 cwd=ROOT, check=True, capture_output=True, text=True)  # fmt: skip
        for name in listing.stdout.split():
            if name.endswith(".json"):
                text = subprocess.run(["git", "show", f"{revision}:{relative}/{name}"], cwd=ROOT,
                                      check=True, capture_output=True).stdout  # fmt: skip
                (folder / relative).mkdir(parents=True, exist_ok=True)
                (folder / relative / name).write_bytes(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("revision")
    revision = parser.parse_args().revision
    differ = reordered = 0
    with tempfile.TemporaryDirectory() as folder:
        old_files(revision, Path(folder))
        for layouts in builtin_layout_dirs():
            for path in sorted(layouts.glob("*.json")):
                old = Path(folder) / path.relative_to(ROOT)
                if not old.is_file():
                    print(f"new: {path.relative_to(ROOT)}")
                    continue
                before, after = sides(load_layout(old)), sides(load_layout(path))
                for key in before:
                    if before[key] != after[key] and _sorted(before[key]) == _sorted(after[key]):
                        reordered += 1
                        print(f"reordered: {path.relative_to(ROOT)} {key}")
                    elif before[key] != after[key]:
                        differ += 1
                        print(f"differs: {path.relative_to(ROOT)} {key}")
                        _first_difference(before[key], after[key])
    print(f"differences: {differ}, sides with the same elements in another order: {reordered}")
    return 1 if differ else 0


def _sorted(elements):
    if not isinstance(elements, list):
        return elements
    return sorted(json.dumps(element, sort_keys=True) for element in elements)


def _first_difference(before, after) -> None:
    if not isinstance(before, list) or not isinstance(after, list):
        print(f"  before {before}\n  after  {after}")
        return
    for index, (a, b) in enumerate(zip(before, after, strict=False)):
        if a != b:
            print(f"  element {index}:\n  before {a}\n  after  {b}")
            return
    print(f"  {len(before)} elements before, {len(after)} after")


if __name__ == "__main__":
    sys.exit(main())

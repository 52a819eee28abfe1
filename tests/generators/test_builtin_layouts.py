"""Every built-in layout loads (valid against the schema, its fragments and parents
found) and expands to the same plain elements as when tests/data/layout-expansions.json
was written: a cheap guard that a rewrite of a layout did not change what it draws.

After a deliberate change to a layout, check the output by eye (and with
benchmarks/compare_renders.py), then rewrite the file:
    python tests/generators/test_builtin_layouts.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import protopress
from protopress.generators.expand import Deferred
from protopress.generators.layout import builtin_layout_files, load_layout

ROOT = Path(__file__).parents[2]
EXPECTED = ROOT / "tests" / "data" / "layout-expansions.json"


def fingerprint(path: Path) -> str:
    """A hash of everything a layout draws with: trim, safe zone, corners and elements."""
    layout = load_layout(path)
    assert not any(isinstance(e, Deferred) for e in (*layout.front, *(layout.back or ())))
    drawn = [layout.width, layout.height, layout.safe, layout.corner_radius, sorted(layout.fonts),
             layout.front, layout.back]  # fmt: skip
    text = json.dumps(drawn, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


PACKAGE_ROOT = Path(protopress.__file__).resolve().parent.parent  # installed or not


def _name(path: Path) -> str:
    return path.resolve().relative_to(PACKAGE_ROOT).as_posix()


@pytest.mark.parametrize("path", builtin_layout_files(), ids=_name)
def test_a_built_in_layout_expands_as_before(path):
    assert fingerprint(path) == json.loads(EXPECTED.read_text())[_name(path)]


def test_every_built_in_layout_is_guarded():
    assert sorted(json.loads(EXPECTED.read_text())) == sorted(map(_name, builtin_layout_files()))


if __name__ == "__main__":
    hashes = {_name(path): fingerprint(path) for path in builtin_layout_files()}
    EXPECTED.write_text(json.dumps(hashes, indent=2, sort_keys=True) + "\n")

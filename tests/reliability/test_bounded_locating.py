"""Locating problems is bounded work: a small catalog cannot make `validate` build a
pointer for every value (each repeats every key above it), nor list without end.

Each case runs `protopress validate` in a process limited to 1 GiB of address space
and 60 s; before positions were kept as a tree, the first two took tens of GB.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from protopress.components.problems import MAX_LOCATED, NOT_SHOWN

GIB = 1024**3


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def _validate(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "protopress", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited,
    )


def test_one_long_key_over_a_long_list(tmp_path):
    """1.2 MB: a key of a million characters over a list of 100,000 numbers."""
    path = tmp_path / "long.json"
    key = "x" * 1_000_000
    path.write_text(json.dumps({"game": "gem-rush", "title": "t", key: [0] * 100_000}))
    result = _validate(path)
    assert result.returncode == 1, result.stderr
    line = next(row for row in result.stdout.splitlines() if "unknown property" in row)
    # located at the key: '{"game": "gem-rush", "title": "t", ' is 35 characters, so column 36;
    # the key shortened in the pointer (and in the message)
    assert line.startswith(f"{path}:1:36 /{'x' * 60}...(1,000,000 characters): unknown property")
    assert len(line) < 1_000


def test_aliases_under_a_long_key(tmp_path):
    """31 KB of YAML: 76,500 values repeated by aliases under a key of 30,000 characters
    (within the 100,000 that aliases may repeat)."""
    path = tmp_path / "alias.yaml"
    lines = [
        "game: gem-rush",
        "title: t",
        "x0: &x0 [" + ",".join(["0"] * 50) + "]",
        "x1: &x1 [" + ",".join(["*x0"] * 50) + "]",
        f"? {'k' * 30_000}",
        ": [" + ",".join(["*x1"] * 30) + "]",
    ]
    path.write_text("\n".join(lines) + "\n")
    result = _validate(path)
    assert result.returncode == 1, result.stderr
    assert "unknown property 'x0'" in result.stdout
    assert f"/{'k' * 60}...(30,000 characters): unknown property" in result.stdout


def test_problems_beyond_the_limit_are_counted_in_one_line(tmp_path):
    """A catalog with 3,000 bad cards: the first MAX_LOCATED problems, then one line."""
    path = tmp_path / "many.json"
    cards = [{"id": f"c{i}", "title": "t", "count": "many"} for i in range(3_000)]
    path.write_text(
        json.dumps({"game": "dragonstone-mine", "title": "t", "cards": cards}, indent=1)
    )
    result = _validate(path)
    assert result.returncode == 1, result.stderr
    lines = [row for row in result.stdout.splitlines() if row.startswith(str(path))]
    assert len(lines) == MAX_LOCATED + 1
    last_line = path.read_text().rstrip().count("\n") + 1
    assert lines[-1] == f"{path}:{last_line}:1 /: {NOT_SHOWN}"  # at the end of the file


def test_duplicate_keys_beyond_the_limit_are_counted_in_one_line(tmp_path):
    path = tmp_path / "twice.json"
    members = ",\n".join('"a": 1' for _ in range(3_000))
    path.write_text('{"game": "gem-rush", "title": "t", "cards": [{\n' + members + "\n}]}\n")
    result = _validate(path)
    assert result.returncode == 1, result.stderr
    lines = [row for row in result.stdout.splitlines() if row.startswith(str(path))]
    assert len(lines) == MAX_LOCATED + 1
    # the first "a" is on line 2; each repeat, on lines 3 on, names it
    assert lines[0] == f"{path}:3:1 /cards/0/a: duplicate key (first at line 2, column 1)"
    assert lines[-1] == f"{path}:3002:1 /: {NOT_SHOWN}"

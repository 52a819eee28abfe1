"""A broken kind declaration is a located problem and exit 1 on every command that
reads the catalog, never an internal error: declarations are checked before any
schema is built from them.

Each case runs a real `protopress` process limited to 1 GiB of address space and
60 s. Before the declarations were checked first, a kind named `a/b`, a kind name
holding an ESC sequence, or `max_length: -1` gave exit 70 (`internal error:
ValueError: Resource '.../schemas/a/common.schema.json' is not present...`,
`Invalid URI reference ...`, `ValidationError: -1 is less than the minimum of 0`).
"""

from __future__ import annotations

import json
import resource

import pytest

from .reliability_helpers import run_protopress

GIB = 1024**3


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def _catalog(tmp_path, kind: str, fields: dict):
    """A catalog declaring one kind, its collection `tokens` with one token, all on line 1."""
    document = {
        "game": "t",
        "title": "T",
        "version": "1",
        "kinds": {kind: {"collection": "tokens", "fields": fields}},
        "tokens": [{"id": "a", "n": "x"}],
    }
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(document))
    return path


KIND_NAME = (
    "is not valid: a kind name is lower-case letters and digits, words joined by hyphens "
    "(e.g. resource-token)"
)
CASES = {
    "slash in the kind's name": ("a/b", {"n": {"type": "text"}}, "/kinds",
                                 f"'a/b' {KIND_NAME}"),
    "ESC sequence in the kind's name": ("a\x1b[31mred", {"n": {"type": "text"}}, "/kinds",
                                        f"'a\\x1b[31mred' {KIND_NAME}"),
    "negative text length": ("tok", {"n": {"type": "text", "max_length": -1}},
                             "/kinds/tok/fields/n/max_length", "expected at least 1, found -1"),
    "negative list length": ("tok", {"n": {"type": "list", "of": {"type": "text"},
                                           "max_length": -1}},
                             "/kinds/tok/fields/n/max_length", "expected at least 1, found -1"),
}  # fmt: skip
COMMANDS = {
    "validate": lambda path, tmp: ["validate", path],
    "check": lambda path, tmp: ["check", path],
    "render": lambda path, tmp: ["render", path, "-o", tmp / "out", "-q"],
    "schema": lambda path, tmp: ["schema", "--catalog", path, "-o", tmp / "schemas"],
    "export-table": lambda path, tmp: ["export-table", path, "--kind", "tok", "-o", tmp / "t.csv"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", CASES)
def test_a_broken_declaration_is_a_located_problem_on_every_command(tmp_path, case, command):
    kind, fields, pointer, message = CASES[case]
    path = _catalog(tmp_path, kind, fields)
    result = run_protopress(
        *COMMANDS[command](path, tmp_path), timeout=60, text=True, preexec_fn=_limited
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "internal error" not in result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    problems = [line for line in result.stdout.splitlines() if line.startswith(f"{path}:1:")]
    assert [line.split(" ", 1)[1] for line in problems] == [f"{pointer}: {message}"]
    assert not (tmp_path / "out").exists()
    assert not (tmp_path / "schemas").exists()
    assert not (tmp_path / "t.csv").exists()


def test_the_collection_of_a_refused_declaration_is_not_reported_again(tmp_path):
    """`tokens` is the refused kind's collection: only the kind's name is a problem."""
    path = _catalog(tmp_path, "A-Kind", {"n": {"type": "text"}})
    result = run_protopress("validate", path, timeout=60, text=True, preexec_fn=_limited)
    assert result.returncode == 1
    assert "unknown property" not in result.stdout
    assert f"/kinds: 'A-Kind' {KIND_NAME}" in result.stdout


def test_the_internal_error_line_escapes_control_characters(monkeypatch, capsys, tmp_path):
    """An error's text may quote a catalog's bytes: the line shows them escaped."""
    import sys

    import protopress.cli.catalog
    from protopress.cli import main

    def failing(path, display=None):
        raise RuntimeError(f"bad kind 'a\x1b[2Jb' in {display}\r\nsecond line")

    monkeypatch.setattr(protopress.cli.catalog, "load_catalog", failing)
    monkeypatch.chdir(tmp_path)
    _catalog(tmp_path, "t", {})
    monkeypatch.setattr(sys, "argv", ["protopress", "validate", "cat.json"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 70
    assert capsys.readouterr().err == (
        "protopress: internal error: RuntimeError: bad kind 'a\\x1b[2Jb' in cat.json\\x0d\\x0a"
        "second line (run again with --debug for the traceback)\n"
    )

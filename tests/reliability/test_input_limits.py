"""Input limits and exit codes, through real `protopress` processes: oversized,
over-deep and over-counted catalogs are refused with one located message (exit
1), never a traceback; an internal error is one line and exit 70."""

import json
import sys
from pathlib import Path

import pytest

from protopress import cli as cli_module
from protopress.components.loader import MAX_CATALOG_BYTES, MAX_JSON_DEPTH

from .reliability_helpers import run_protopress

MINI = Path(__file__).resolve().parents[1] / "data" / "mini-game" / "catalog.json"


def validate(path: Path):
    result = run_protopress("validate", path.name, cwd=path.parent)
    output = result.stdout.decode() + result.stderr.decode()
    assert "Traceback" not in output
    return result.returncode, output


def test_a_catalog_over_64_mib_is_refused_before_it_is_parsed(tmp_path):
    assert MAX_CATALOG_BYTES == 64 * 1024 * 1024
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:  # valid JSON, one byte too many
        stream.write(b"[")
        stream.write(b" " * (MAX_CATALOG_BYTES - 2))
        stream.write(b"]")
        stream.write(b" ")
    code, output = validate(path)
    assert code == 1
    assert output.startswith("huge.json:1:1")
    assert "file is larger than 64 MiB" in output.splitlines()[0]


def nested(levels: int) -> str:
    """A catalog whose card holds lists nested so that the document is `levels` deep
    (the catalog object, its card list and the card take three)."""
    inner = "[" * (levels - 3) + "]" * (levels - 3)
    return (
        '{"game": "deep", "title": "Deep", "version": "1", "cards": '
        f'[{{"id": "a", "title": "A", "text": "t", "deep": {inner}}}]}}'
    )


@pytest.mark.parametrize("levels", [MAX_JSON_DEPTH + 1, 100_000])
def test_json_nested_deeper_than_64_levels_is_refused_without_recursion(tmp_path, levels):
    path = tmp_path / "deep.json"
    path.write_text(nested(levels))
    code, output = validate(path)
    assert code == 1
    assert "JSON nested too deeply: expected at most 64 levels of lists and objects" in output


def test_json_nested_exactly_64_levels_is_read(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(nested(MAX_JSON_DEPTH))
    code, output = validate(path)
    assert code == 0, output  # generic cards may carry fields of their own
    assert "ok deep.json" in output


@pytest.mark.parametrize("count, code", [(10_000, 0), (10_001, 1)])
def test_a_component_has_at_most_10000_copies(tmp_path, count, code):
    document = json.loads(MINI.read_text())
    document.pop("$schema")
    document["cards"][0]["count"] = count
    path = tmp_path / "copies.json"
    path.write_text(json.dumps(document, indent=2))
    exit_code, output = validate(path)
    assert exit_code == code, output
    if code:
        assert "/cards/0/count: expected at most 10000, found 10001" in output


def test_usage_errors_exit_2_without_a_traceback(tmp_path):
    result = run_protopress("render", "no-such-game", "-o", tmp_path / "o")
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "o").exists()


def test_an_internal_error_is_one_line_and_exit_70(monkeypatch, capsys):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli_module, "cli", broken)
    monkeypatch.setattr(sys, "argv", ["protopress", "games"])
    with pytest.raises(SystemExit) as exit_:
        cli_module.main()
    assert exit_.value.code == 70
    assert (
        capsys.readouterr().err
        == "protopress: internal error: RuntimeError: a bug (run again with --debug for the traceback)\n"
    )

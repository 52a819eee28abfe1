"""A problem line is one line of plain text, whatever the input's keys hold."""

import json

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components.problems import Problem, printable


def test_control_characters_and_bidi_overrides_are_escaped():
    assert printable("a\x1b[2Jb\x07\u202e\x9b\n") == "a\\x1b[2Jb\\x07\\u202e\\x9b\\x0a"
    problem = Problem("f\x1b.json", 1, 2, "/cards/0/\x1b]0;owned\x07", "bad\rvalue")
    assert str(problem) == "f\\x1b.json:1:2 /cards/0/\\x1b]0;owned\\x07: bad\\x0dvalue"
    assert problem.to_json()["pointer"] == "/cards/0/\x1b]0;owned\x07"  # JSON escapes it itself


def test_an_escape_sequence_in_a_json_key_never_reaches_the_terminal(tmp_path):
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "\x1b[2J\x1b]0;pwned\x07": 1}],
               "\x1b[31mred": 1}  # fmt: skip
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(catalog))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b[31mred" in result.output

"""The terminal session cuts long lines between words to the terminal's width
(a pipe or a file gets the lines whole, as a transcript)."""

import io

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.solo_session import run_session, wrapped

from .test_solo_session import NORMAL

CATALOG = load_catalog(builtin_catalog_path("stonespine-architects"))


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_line_is_cut_between_words_and_keeps_its_indent():
    assert wrapped("aaa bbb ccc", 7) == "aaa bbb\nccc"
    assert wrapped("  aaaa bbbb-cc", 8) == "  aaaa\n  bbbb-cc"  # no cut at the hyphen
    assert wrapped("in /a/very/long/path/name.json.", 10) == "in\n/a/very/long/path/name.json."
    assert wrapped("short\n  also short", 12) == "short\n  also short"


def session(stdout, folder) -> str:
    stdin = io.StringIO("".join(a + "\n" for a in NORMAL[:6]))
    run_session(CATALOG, stdin, stdout, seed=3, save_path=folder / "s.json")
    return stdout.getvalue().replace(str(folder), "FOLDER")


@pytest.mark.parametrize("columns", [80, 40])
def test_the_terminal_gets_lines_of_its_width_and_a_pipe_whole_lines(
    tmp_path, monkeypatch, columns
):
    monkeypatch.setenv("COLUMNS", str(columns))
    piped = session(io.StringIO(), tmp_path / "piped")
    shown = session(Terminal(), tmp_path / "terminal")
    # a prompt's line ends at " > ", where the answer (echoed here) is typed
    lines = [line.split(" > ")[0] + " >" if " > " in line else line for line in shown.splitlines()]
    prompts = [line for line in piped.splitlines() if " > " in line]
    assert max(len(line.split(" > ")[0]) for line in prompts) > columns  # prompts are cut too
    assert max(len(line) for line in piped.splitlines()) > columns
    # every line fits, but a word longer than a line (a path), kept whole
    assert [line for line in lines if len(line) > columns and " " in line.strip()] == []
    # the same words in the same order: only where the lines break has changed
    assert shown.split() == piped.split()

import textwrap

import pytest

from protopress.components import InvalidInput, load_catalog


@pytest.fixture
def write_catalog(tmp_path):
    """Write a catalog text (dedented) to a file; return its path."""

    def write(text: str, name: str = "my-game.json"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return write


@pytest.fixture
def problems(write_catalog):
    """The problem lines of a catalog text, as the CLI prints them (file name only)."""

    def run(text: str) -> list[str]:
        path = write_catalog(text)
        try:
            load_catalog(path, display=path.name)
        except InvalidInput as invalid:
            return [str(problem) for problem in invalid.problems]
        return []

    return run


def position_of(text: str, marker: str, occurrence: int = 1, name: str = "my-game.json") -> str:
    """file:line:column of the first character of the n-th occurrence of marker in text."""
    index = -1
    for _ in range(occurrence):
        index = text.index(marker, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"{name}:{line}:{column}"


@pytest.fixture
def at():
    return position_of

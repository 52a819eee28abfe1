import textwrap

import pytest
from located import position_of

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


@pytest.fixture
def at():
    return position_of

"""Catalogs: any bytes in a catalog file are either a valid catalog or a list of
located problems (file, line, column, JSON pointer, message), in bounded time."""

import json
from pathlib import Path

import pytest
from fuzzing import (
    assert_clean_problems,
    fuzz_settings,
    hard_timeout,
    line_count,
    mutated_documents,
    smoke_settings,
)
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog

MINI = Path(__file__).parents[1] / "data" / "mini-game" / "catalog.json"
BASES = [json.loads(builtin_catalog_path(game).read_text()) for game in BUILTIN_GAMES] + [
    json.loads(MINI.read_text())
]
DISPLAY = "fuzzed.json"

catalog_bytes = st.one_of(
    mutated_documents(BASES),
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("catalogs")


def check_catalog(data: bytes, folder: Path) -> None:
    path = folder / "catalog.json"
    path.write_bytes(data)
    with hard_timeout():
        try:
            catalog = load_catalog(path, display=DISPLAY)
        except InvalidInput as invalid:
            assert_clean_problems(invalid.problems, DISPLAY, line_count(data))
            event("refused")
            return
    event("valid")
    assert catalog.game and catalog.components is not None


@pytest.mark.fuzz
@fuzz_settings()
@given(data=catalog_bytes)
def test_fuzz_catalogs(data, folder):
    check_catalog(data, folder)


@smoke_settings()
@given(data=catalog_bytes)
def test_smoke_catalogs(data, folder):
    check_catalog(data, folder)

"""Catalogs: any bytes in a catalog file are either a valid catalog or a list of
located problems (file, line, column, JSON pointer, message), in bounded time."""

import json
from pathlib import Path

import pytest
from fuzzing import (
    check_catalog_file,
    fuzz_settings,
    line_count,
    mutated_documents,
    smoke_settings,
)
from hypothesis import given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, builtin_catalog_path

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
    check_catalog_file(path, DISPLAY, line_count(data))


@pytest.mark.fuzz
@fuzz_settings()
@given(data=catalog_bytes)
def test_fuzz_catalogs(data, folder):
    check_catalog(data, folder)


@smoke_settings()
@given(data=catalog_bytes)
def test_smoke_catalogs(data, folder):
    check_catalog(data, folder)

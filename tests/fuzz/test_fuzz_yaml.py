"""YAML catalogs: any text in a .yaml catalog is a valid catalog or located problems
(file, line, column, pointer, message) in bounded time; and every JSON value written
by yamltext reads back as itself (so import's YAML output never changes a value)."""

import json
import re
from pathlib import Path

import pytest
from fuzzing import (
    check_catalog_file,
    fuzz_settings,
    json_values,
    smoke_settings,
)
from hypothesis import assume, given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, builtin_catalog_path
from protopress.components.loader import parse_json_text
from protopress.components.yamlsource import LOADERS, parse_yaml
from protopress.components.yamltext import yaml_text

MINI = Path(__file__).parents[1] / "data" / "mini-game" / "catalog.json"
BASES = [
    yaml_text(json.loads(path.read_text()))
    for path in [*(builtin_catalog_path(game) for game in BUILTIN_GAMES), MINI]
]
DISPLAY = "fuzzed.yaml"
YAML_PIECES = list("-:#&*!|>'\"[]{},?%@` \n\t~.0123456789eyn") + [
    "<<: ", "*a", "&a ", "!!python/object:os.system ", "no", "1_000", "2024-01-01", "\ud800",
    "\x00", "\r", "\u2028", "---\n", "...\n", "? ", "%YAML 1.1\n", "\\u0000", "[[[[[[[[",
]  # fmt: skip


@st.composite
def mutated_yaml(draw):
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 8))
        piece = draw(st.sampled_from(YAML_PIECES) | st.text(max_size=4))
        text = text[:at] + piece + text[at + cut :]
    return text


yaml_texts = st.one_of(mutated_yaml(), st.text(max_size=200))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("yaml")


def _lines(text: str) -> int:
    """Lines as YAML counts them (\\r, \\x85, \\u2028 and \\u2029 break lines too)."""
    return len(re.findall(r"\r\n|[\n\r\x85\u2028\u2029]", text)) + 1


def check_yaml_catalog(text: str, folder: Path) -> None:
    path = folder / "catalog.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    check_catalog_file(path, DISPLAY, _lines(text))


@pytest.mark.fuzz
@fuzz_settings()
@given(text=yaml_texts)
def test_fuzz_yaml_catalogs(text, folder):
    check_yaml_catalog(text, folder)


@smoke_settings()
@given(text=yaml_texts)
def test_smoke_yaml_catalogs(text, folder):
    check_yaml_catalog(text, folder)


def check_round_trip(value) -> None:
    try:
        as_json = json.dumps(value, ensure_ascii=False)
        as_json.encode("utf-8")
        assume(parse_json_text(as_json) == value)
    except (ValueError, UnicodeEncodeError):
        assume(False)  # not a JSON value protopress reads (a lone surrogate, 5000 digits)
    text = yaml_text(value)
    for loader in LOADERS.values():
        assert parse_yaml(text, loader)[0] == value, text


@pytest.mark.fuzz
@fuzz_settings()
@given(value=json_values)
def test_fuzz_yaml_text_reads_back(value):
    check_round_trip(value)


@smoke_settings(examples=100)
@given(value=json_values)
def test_smoke_yaml_text_reads_back(value):
    check_round_trip(value)

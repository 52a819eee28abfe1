"""Schema patterns mean the same under jsonschema (Python re) and jsonschema-rs
(ECMA-262): in Python a bare `$` also matches before a final newline."""

import json
import re

import pytest

from protopress.components import InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.schemas import (
    CATALOG_SCHEMA,
    fast_validator,
    resolving_ids,
    schema_documents,
    validator,
)
from protopress.components.semantics import known_ids


def _patterns(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            else:
                yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_every_pattern_that_ends_with_dollar_refuses_a_final_newline():
    for name, document in schema_documents().items():
        for pattern in _patterns(document):
            if pattern.endswith("$"):
                assert pattern.endswith("(?!\\n)$"), (name, pattern)
                assert re.search(pattern, "x\n") is None or "\\s" in pattern, (name, pattern)


def _gem_rush(tmp_path, change):
    document = json.loads(builtin_catalog_path("gem-rush").read_text())
    change(document)
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(document, indent=2))
    return document, path


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["gems"][0].update(colour="#ffffff\n"), "/gems/0/colour"),
        (
            lambda d: d["room_tiles"][0].update(id=d["room_tiles"][0]["id"] + "\n"),
            "/room_tiles/0/id",
        ),
    ],
    ids=["colour", "id"],
)
def test_a_trailing_newline_is_refused_by_both_validators(tmp_path, change, message):
    document, path = _gem_rush(tmp_path, change)
    with resolving_ids(known_ids(document)):
        assert not fast_validator(CATALOG_SCHEMA).is_valid(document)
        assert list(validator(CATALOG_SCHEMA).iter_errors(document))
    with pytest.raises(InvalidInput) as raised:
        load_catalog(path)
    assert any(problem.pointer == message for problem in raised.value.problems), raised.value

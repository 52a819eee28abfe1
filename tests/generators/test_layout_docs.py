"""docs/layouts.md and layout.schema.json list the same layout properties, element
types, attributes and repeat keys, and every documented example is a valid layout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from protopress.components.schemas import schema_documents
from protopress.generators.fonts import BUILTIN_FONTS
from protopress.generators.layout import load_layout

DOC = Path(__file__).parents[2] / "docs" / "layouts.md"
SCHEMA = schema_documents()["layout.schema.json"]
ELEMENT = SCHEMA["$defs"]["element"]


def table(heading: str) -> dict[str, list[str]]:
    """The rows of the first table under a heading: each first column's `names` (one row
    may name several), mapped to the `names` of its second column."""
    text = DOC.read_text().split(heading + "\n", 1)[1]
    first = re.search(r"^\|.*(?:\n\|.*)*", text, re.M).group(0)
    rows = [line.strip("|") for line in first.splitlines()[2:]]
    result = {}
    for row in rows:
        cells = [cell.strip() for cell in row.split("|")]
        for name in re.findall(r"`([^`]+)`", cells[0]):
            result[name] = re.findall(r"`([^`]+)`", cells[1])
    return result


def required_by_type() -> dict[str, set[str]]:
    found = {}
    for rule in ELEMENT["allOf"]:
        kind = rule["if"]["properties"].get("type", {}).get("const")
        if kind is None:  # a rule of several types (a gradient fill) or of a clip's shape
            continue
        then = rule["then"]
        found[kind] = set(then.get("required", []))
        for option in then.get("anyOf", []):  # a rect: bleed, or x, y, w, h
            found[kind] |= set(option.get("required", []))
    return found


def test_the_doc_lists_every_layout_property_of_the_schema():
    assert set(table("## Layout properties")) == set(SCHEMA["properties"])


def test_the_doc_lists_every_element_type_of_the_schema():
    assert list(table("## Elements")) == ELEMENT["properties"]["type"]["enum"]


def test_the_doc_lists_every_element_attribute_of_the_schema():
    assert set(table("### Attributes")) == set(ELEMENT["properties"])


def test_each_type_lists_only_schema_attributes_and_all_it_requires():
    documented = table("## Elements")
    for kind, required in required_by_type().items():
        assert set(documented[kind]) <= set(ELEMENT["properties"]), kind
        assert required <= set(documented[kind]), kind


def test_the_doc_lists_every_repeat_key_of_the_schema():
    assert set(table("### Repeat")) == set(SCHEMA["$defs"]["repeat"]["properties"])


def _examples() -> list[str]:
    return re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)


@pytest.mark.parametrize("index", range(len(_examples())))
def test_every_example_element_is_valid(tmp_path, index):
    """Each example: a whole layout, or elements one per line placed on a card."""
    text = _examples()[index]
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        elements = json.loads("[" + re.sub(r"\}\n\{", "},\n{", text.strip()) + "]")
        document = {"kind": "card", "size": {"width": 63, "height": 88}, "front": elements}
    for file in document.get("fonts", {}).values():  # the designer's own, read when drawn
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_bytes(BUILTIN_FONTS["sans"].read_bytes())  # a real font
    fragments = {"fragments": {"back": [], "slot": [], "badge": []}}
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "fragments.json").write_text(json.dumps(fragments))
    if "uses" not in document:
        document.setdefault("fragments", {}).setdefault("slot", [])
    path = tmp_path / "example.json"
    path.write_text(json.dumps(document))
    assert load_layout(path).kind

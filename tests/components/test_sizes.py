"""The standard sizes: one table, offered by the schema and listed in the docs."""

import re
from pathlib import Path

from protopress.components.schemas import schema_documents
from protopress.components.sizes import STANDARD_SIZES, trim_of

DOCS = Path(__file__).parents[2] / "docs" / "catalog-format.md"


def test_schema_offers_exactly_the_standard_sizes():
    size = schema_documents()["common.schema.json"]["$defs"]["size"]
    assert size["anyOf"][0]["enum"] == list(STANDARD_SIZES)


def test_docs_list_every_size_with_its_figures():
    text = DOCS.read_text()
    section = text.split("## Standard sizes", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| ([\d.]+ x [\d.]+) \|", section, re.M))
    assert rows == {name: f"{s.width:g} x {s.height:g}" for name, s in STANDARD_SIZES.items()}


def test_trim_of_names_and_dimensions():
    width, height, shape = trim_of("poker")
    assert (round(width / 72 * 25.4, 3), round(height / 72 * 25.4, 3), shape) == (
        63,
        88,
        "rectangle",
    )
    assert trim_of({"width": "1in", "height": 72, "shape": "hex"})[::2] == (72.0, "hex")

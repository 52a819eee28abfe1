"""Numeric and set conditions in `when`, read by patterns (never evaluated), with
the old forms unchanged and a located problem naming what was expected."""

from __future__ import annotations

import json
import re

import pytest
from face_drawing import face
from test_field_strictness import TEXT as DECLARED
from test_field_strictness import _project, invoke

from protopress.components.problems import InvalidInput
from protopress.components.schemas import schema_documents
from protopress.generators.conditions import field_tested, holds, is_condition
from protopress.generators.layout import load_layout

FIELDS = {"power": 4, "cost": "2", "tags": ["fire", "water"], "text": "Big fire", "flag": True,
          "limit": 4, "zero": 0}  # fmt: skip


@pytest.mark.parametrize(("condition", "expected"), [
    ("power > 3", True), ("power>3", True), ("power > 4", False), ("power >= 4", True),
    ("power < 4", False), ("power <= 4", True), ("power < 4.5", True), ("power > -1", True),
    ("!power > 3", False), ("!missing > 3", True), ("missing > 3", False),
    ("cost >= 2", True),  # a spreadsheet's text of a number
    ("text > 1", False), ("flag > 0", False),  # not numbers
    ("power >= {limit}", True), ("power > {limit}", False),
    ('tags contains "fire"', True), ("tags contains water", True), ('tags contains "fir"', False),
    ('text contains "fire"', True), ('!tags contains "earth"', True),
    ('zero contains "0"', False),
    ("power", True), ("zero", False), ("power=4", True), ("tags~fire", True), ("!tags~fire", False),
])  # fmt: skip
def test_conditions_worked_by_hand(condition, expected):
    assert is_condition(condition)
    assert holds(condition, FIELDS) is expected


def test_the_field_tested_is_the_path_before_the_comparison():
    assert [field_tested(c) for c in ("power > 3", 'tags contains "x"', "a.b=c", "!d~e")] == [
        "power", "tags", "a.b", "d"]  # fmt: skip
    assert field_tested("item.points >= 2") == "item.points"


@pytest.mark.parametrize("condition", ["power >> 3", "power > three", "a b", "tags contains",
                                       'tags contains "a"b"', "power => 3", ""])  # fmt: skip
def test_other_text_is_no_condition(condition):
    assert not is_condition(condition)


def test_the_schema_pattern_accepts_the_same_forms():
    pattern = re.compile(schema_documents()["layout.schema.json"]["$defs"]["condition"]["pattern"])
    samples = [*(c for c, _ in (("power > 3", 1), ('tags contains "fire"', 1), ("a=b c", 1),
                                ("{door}.side=N", 1), ("!x~{y}", 1))),
               "power >> 3", "power > three", "a b", "tags contains", "power => 3"]  # fmt: skip
    for sample in samples:
        assert bool(pattern.search(sample)) is is_condition(sample), sample


def test_an_element_is_drawn_by_its_comparison(tmp_path):
    elements = [{"type": "rect", "x": 0, "y": 0, "w": 5, "h": 5, "fill": "red", "when": w}
                for w in ("power > 3", "power > 5", 'tags contains "fire"', "!power > 3")]  # fmt: skip
    drawn = face(tmp_path, elements, {"power": 4, "tags": ["fire"]})
    assert len(drawn.ops) == 2


def test_a_condition_that_does_not_read_is_located_with_what_was_expected(tmp_path):
    layout = {
        "kind": "card",
        "size": "poker",
        "front": [{"type": "rect", "bleed": True, "fill": "red", "when": "power >> 3"}],
    }
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    (problem,) = error.value.problems
    assert problem.pointer == "/front/0/when"
    assert problem.message == (
        'expected a condition: a field (present and not empty, false or 0), "field=value", '
        '"field~value", a comparison with a number ("power > 3"; >=, <, <= too) or "field '
        'contains \\"text\\""; "!" in front negates; or a list of conditions that must all '
        "hold, found 'power >> 3'"
    )


def test_a_declared_kind_checks_the_field_a_comparison_tests(tmp_path):
    """The field check reads "value > 1" as a test of value, and "valeu > 1" of no field."""
    good = invoke("validate", _project(tmp_path, [{**DECLARED, "text": "{title}", "when": "value > 1"},
                                                  {**DECLARED, "text": "{title}",
                                                   "when": 'marks contains "x"'}]))  # fmt: skip
    assert good.exit_code == 0, good.output
    bad = invoke(
        "validate", _project(tmp_path, [{**DECLARED, "text": "{title}", "when": "valeu > 1"}])
    )
    assert bad.exit_code == 1
    assert "/front/0/when: 'valeu' is not a field of resource-token (did you mean 'value'?)" in (
        bad.output
    )

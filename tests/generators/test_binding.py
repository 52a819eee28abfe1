"""Binding layout templates to fields: look-ups only, conditions, list joining."""

from protopress.generators.binding import MISSING, fill, lookup, single, truthy

FIELDS = {
    "title": "Eddy",
    "doors": {"N": {"cost": ["fire-ruby", "obsidian"], "points": 2}},
    "walls": "NES",
    "rows": [{"cost": 3}, {"cost": 5}],
    "lines": ["Discard down to 4.", "Move up to 3 steps."],
    "zero": 0,
    "rare": True,
}


def test_lookups_walk_keys_and_list_positions_only():
    assert lookup(FIELDS, "doors.N.points") == 2
    assert lookup(FIELDS, "rows.1.cost") == 5
    assert lookup(FIELDS, "rows.2.cost") is MISSING
    assert lookup(FIELDS, "title.upper") is MISSING  # no attribute access, ever
    assert single("{doors.N.cost}", FIELDS) == ["fire-ruby", "obsidian"]
    assert single("x {title}", FIELDS) is MISSING


def test_templates_print_fields_and_lists():
    assert fill("{title}: {doors.N.points} pt", FIELDS) == "Eddy: 2 pt"
    assert fill("{doors.N.cost}", FIELDS) == "fire-ruby, obsidian"
    assert fill("{lines}", FIELDS, "\n") == "Discard down to 4.\nMove up to 3 steps."
    assert fill("{missing}|{rare}", FIELDS) == "|yes"
    assert fill("{__class__}", FIELDS) == ""


def test_when_conditions():
    assert truthy("title", FIELDS) and not truthy("zero", FIELDS) and truthy("!zero", FIELDS)
    assert (
        truthy("walls~E", FIELDS) and not truthy("walls~W", FIELDS) and truthy("!walls~W", FIELDS)
    )
    assert truthy("doors.N.cost~obsidian", FIELDS)
    assert truthy("doors.N.points=2", FIELDS) and not truthy("doors.N.points=3", FIELDS)
    assert not truthy("missing=", FIELDS) and truthy("!missing~x", FIELDS)

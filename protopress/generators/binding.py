"""Bind layout templates to component fields: "{title}", "{doors.N.points}".

Only field look-ups: no expressions, no attribute access, no format specs, so
a layout can never run code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.-]+)\}")
MISSING = object()


def lookup(fields: Mapping, path: str):
    """The value at a dotted path (keys, or list indices as digits), or MISSING."""
    value = fields
    for token in path.split("."):
        if isinstance(value, Mapping) and token in value:
            value = value[token]
        elif isinstance(value, (list, tuple)) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return MISSING
    return value


def as_text(value, separator: str = ", ") -> str:
    if value is MISSING or value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return separator.join(as_text(item) for item in value)
    if isinstance(value, Mapping):
        return ""
    return str(value)


def fill(template: str, fields: Mapping, separator: str = ", ") -> str:
    """The template with every {path} replaced by the field's text (lists joined by separator)."""
    return PLACEHOLDER.sub(
        lambda match: as_text(lookup(fields, match.group(1)), separator), template
    )


def single(template: str, fields: Mapping):
    """The raw value of a template that is exactly one {path} (MISSING otherwise)."""
    match = PLACEHOLDER.fullmatch(template)
    return lookup(fields, match.group(1)) if match else MISSING


def truthy(condition: str, fields: Mapping) -> bool:
    """A `when` condition, "!" in front negating it:

    - "field": the field is present and not empty, false or 0;
    - "field=value": the field's text equals value;
    - "field~value": the field (a string or a list) contains value, e.g. "doors~N";
    value may bind fields itself: "owner={catalog.game}".
    """
    negate = condition.startswith("!")
    condition = condition.lstrip("!")
    for operator in ("=", "~"):
        if operator in condition:
            path, _, expected = condition.partition(operator)
            expected = fill(expected, fields) if "{" in expected else expected
            value = lookup(fields, path)
            if value is MISSING or value is None:
                holds = False
            elif operator == "=":
                holds = as_text(value) == expected
            else:
                holds = expected in value if isinstance(value, (str, list, tuple)) else False
            return holds != negate
    value = lookup(fields, condition)
    empty = value is MISSING or value in (None, "", 0, False) or value == [] or value == {}
    return empty == negate

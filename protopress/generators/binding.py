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


def as_text(value) -> str:
    if value is MISSING or value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(as_text(item) for item in value)
    if isinstance(value, Mapping):
        return ""
    return str(value)


def fill(template: str, fields: Mapping) -> str:
    """The template with every {path} replaced by the field's text."""
    return PLACEHOLDER.sub(lambda match: as_text(lookup(fields, match.group(1))), template)


def single(template: str, fields: Mapping):
    """The raw value of a template that is exactly one {path} (MISSING otherwise)."""
    match = PLACEHOLDER.fullmatch(template)
    return lookup(fields, match.group(1)) if match else MISSING


def truthy(condition: str, fields: Mapping) -> bool:
    """A `when` condition: the field is present and not empty, false or 0 ("!" negates)."""
    negate = condition.startswith("!")
    value = lookup(fields, condition.lstrip("!"))
    present = (
        value is not MISSING and value not in (None, "", 0, False) and value != [] and value != {}
    )
    return present != negate

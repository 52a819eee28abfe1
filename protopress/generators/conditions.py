"""The conditions of `when`: whether a component's fields call for an element.

- ``field``: the field is present and not empty, false or 0;
- ``field=value``, ``field~value``: its text equals value, or it (a string or a
  list) contains value (binding.truthy);
- ``power > 3`` (``>=``, ``<``, ``<=``): the field is a number (or a text of
  one) and compares so with the number, which may be a ``{field}``;
- ``tags contains "fire"``: the field, a list, holds an item whose text is
  "fire", or the field, a string, contains it (the quotes may be left out of a
  single word);
- ``!`` in front negates any of them.

The condition is read by these patterns, never evaluated: no expressions, no
code from data. layout.schema.json's `condition` pattern accepts the same forms
(a test keeps the two together).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from protopress.generators.binding import MISSING, as_text, fill, lookup, truthy

_PATH = r"(?:[A-Za-z0-9_.-]|\{[A-Za-z0-9_.-]+\})+"
_BINDING = r"\{[A-Za-z0-9_.-]+\}"
COMPARISON = re.compile(
    rf"(?P<negate>!?)(?P<path>{_PATH})\s*(?P<operator>>=|<=|>|<)\s*"
    rf"(?P<value>-?\d+(?:\.\d+)?|{_BINDING})"
)
CONTAINS = re.compile(
    rf'(?P<negate>!?)(?P<path>{_PATH})\s+contains\s+(?P<value>"[^"{{}}]{{0,80}}"|[^\s"{{}}]{{1,80}}|{_BINDING})'
)
PLAIN = re.compile(rf"(?P<negate>!?)(?P<path>{_PATH})(?:[=~](?:[^{{}}]|{_BINDING}){{0,80}})?")
EXPECTED = (
    'a field, "field=value", "field~value", a comparison with a number ("power > 3"; '
    '>=, <, <= too) or "field contains \\"text\\""; "!" in front negates'
)


@dataclass(frozen=True)
class Comparison:
    negate: bool
    path: str
    operator: str  # >, >=, <, <= or contains
    value: str  # as written: a number, a text or a {field}


def comparison(condition: str) -> Comparison | None:
    """The comparison a condition writes, or None (a field, = or ~, or no condition)."""
    match = COMPARISON.fullmatch(condition) or CONTAINS.fullmatch(condition)
    if match is None:
        return None
    operator = match.groupdict().get("operator") or "contains"
    value = match["value"]
    if operator == "contains" and value.startswith('"'):
        value = value[1:-1]
    return Comparison(bool(match["negate"]), match["path"], operator, value)


def is_condition(condition: str) -> bool:
    """Whether text is a condition of one of the forms (the schema's pattern, read here)."""
    return any(p.fullmatch(condition) for p in (COMPARISON, CONTAINS, PLAIN))


def field_tested(condition: str) -> str:
    """The field path a condition tests ("power > 3": "power")."""
    match = PLAIN.match(condition)
    return match["path"] if match else condition


def holds(condition: str, fields: Mapping) -> bool:
    """Whether a condition holds for a component's fields."""
    found = comparison(condition)
    if found is None:
        return truthy(condition, fields)
    value = lookup(fields, found.path)
    expected = fill(found.value, fields) if "{" in found.value else found.value
    if found.operator == "contains":
        if isinstance(value, list | tuple):
            result = any(as_text(item) == expected for item in value)
        else:
            result = isinstance(value, str) and expected in value
    else:
        number, bound = _number(value), _number(expected)
        result = (
            number is not None and bound is not None and _compare(number, found.operator, bound)
        )
    return result != found.negate


def _compare(number: float, operator: str, bound: float) -> bool:
    return {">": number > bound, ">=": number >= bound, "<": number < bound,
            "<=": number <= bound}[operator]  # fmt: skip


def _number(value) -> float | None:
    """A field's number: a number, or a text of one (a spreadsheet cell); else None."""
    if value is MISSING or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None

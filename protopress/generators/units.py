"""Physical lengths. Everything is in PostScript points (1/72 in) until a
surface turns it into device units at the last step."""

from __future__ import annotations

import re

POINT = 1.0
INCH = 72.0
MM = INCH / 25.4
CM = 10 * MM

_UNITS = {"pt": POINT, "in": INCH, "mm": MM, "cm": CM}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|in|mm|cm)?\s*$")


def parse_length(value: str | float | int, default_unit: str = "mm") -> float:
    """Points from "3mm", "0.125in", "9pt", "1.2cm", or a bare number in default_unit."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value) * _UNITS[default_unit]
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"{value!r} is not a length (expected e.g. 3mm, 0.125in, 9pt)")
    number, unit = match.groups()
    return float(number) * _UNITS[unit or default_unit]


def mm(value: float) -> float:
    return value * MM


def to_mm(points: float) -> float:
    return points / MM


PAPER = {
    "a4": (210 * MM, 297 * MM),
    "letter": (8.5 * INCH, 11 * INCH),
}

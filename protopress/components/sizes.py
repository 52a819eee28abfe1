"""Standard component sizes and shapes, by name, in millimetres.

A layout's or a declared kind's `size` is one of these names or any width and
height. The figures and where they come from are listed in docs/catalog-format.md
("Standard sizes"); tests/components/test_sizes.py checks the two agree and that
the catalog schema offers exactly these names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MIN_SIZE_MM = 10.0  # smaller, no print service cuts it and no hand picks it up
MAX_SIZE_MM = 1000.0  # as the layouts' bound on any length
SHAPES = ("rectangle", "hex", "circle")


@dataclass(frozen=True)
class StandardSize:
    name: str
    width: float  # mm, trim
    height: float  # mm, trim
    shape: str = "rectangle"  # a hex is pointy-top: width across the flats
    note: str = ""


def _hex(name: str, across_flats: float, note: str) -> StandardSize:
    return StandardSize(name, across_flats, round(across_flats * 2 / math.sqrt(3), 2), "hex", note)


STANDARD_SIZES: dict[str, StandardSize] = {
    size.name: size
    for size in (
        StandardSize(
            "poker", 63, 88, note="about 2.5 x 3.5 in (63.5 x 88.9 mm), the common game card"
        ),
        StandardSize("bridge", 57, 89, note="about 2.25 x 3.5 in (57.2 x 88.9 mm)"),
        StandardSize("tarot", 70, 120, note="about 2.75 x 4.75 in (69.9 x 120.7 mm)"),
        StandardSize("mini", 44, 63, note="the mini card of most card sleeve makers"),
        StandardSize("mini-euro", 44, 68),
        StandardSize("euro", 59, 92),
        StandardSize("jumbo", 89, 127, note="3.5 x 5 in"),
        StandardSize("square", 70, 70, note="2.75 in square"),
        StandardSize("square-small", 63, 63, note="2.5 in square"),
        _hex("hex", 76.2, "3 in across the flats"),
        _hex("hex-small", 50.8, "2 in across the flats"),
        StandardSize("token", 25, 25, "circle", "1 in round chit"),
        StandardSize("token-large", 38, 38, "circle", "1.5 in round chit"),
    )
}


def standard_size(name: str) -> StandardSize | None:
    return STANDARD_SIZES.get(name)


def trim_of(size: str | Mapping[str, Any]) -> tuple[float, float, str]:
    """Width and height in points and the shape of a schema-valid `size`: a standard
    size's name or {"width", "height", "shape"}."""
    from protopress.generators.units import parse_length

    if isinstance(size, str):
        standard = STANDARD_SIZES[size]
        return standard.width * _MM, standard.height * _MM, standard.shape
    width, height = parse_length(size["width"]), parse_length(size["height"])
    return width, height, size.get("shape", "rectangle")


_MM = 72 / 25.4

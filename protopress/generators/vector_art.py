"""SVG art once loaded: a reportlab Drawing and its size, and its CMYK copy.

What faces and the PDF surface need of SVG art lives here, apart from the
loading (svg.py), so that a render without SVG art does not load svglib,
lxml and reportlab.graphics."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass

from reportlab.lib import colors

from protopress.generators.colours import Colour
from protopress.generators.separation import Separation


@dataclass(frozen=True, eq=False)
class VectorArt:
    """An SVG ready to draw: its Drawing and its own size in points (from its
    width and height, or its viewBox)."""

    drawing: object  # a reportlab Drawing
    width: float
    height: float
    notes: tuple[str, ...] = ()  # what svglib could not draw, for the warnings


def drawing_nodes(drawing) -> Iterator:
    """Every node of a drawing: groups, shapes, and svglib's gradient fills."""
    stack = [drawing]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(getattr(node, "contents", ()))


def cmyk_drawing(art: VectorArt, separation: Separation):
    """A copy of the art's drawing with every colour separated to CMYK as the
    layout's own colours are (a CMYK print file refuses RGB colours)."""
    drawing = copy.deepcopy(art.drawing)
    for node in drawing_nodes(drawing):
        for name in ("fillColor", "strokeColor"):
            value = getattr(node, name, None)
            if isinstance(value, colors.Color) and not isinstance(value, colors.CMYKColor):
                setattr(node, name, _cmyk(value, separation))
        if isinstance(getattr(node, "_rl_colors", None), list):  # svglib's gradients
            node._rl_colors = [_cmyk(value, separation) for value in node._rl_colors]
    return drawing


def _cmyk(value: colors.Color, separation: Separation) -> colors.CMYKColor:
    if isinstance(value, colors.CMYKColor):
        return value
    separated = separation.colour(Colour(value.red, value.green, value.blue))
    return colors.CMYKColor(*separated, alpha=value.alpha)

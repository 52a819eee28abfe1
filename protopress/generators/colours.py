"""Colours: #rrggbb or a CSS name in catalogs and layouts (CMYK on the page: see
separation.py)."""

from __future__ import annotations

from dataclasses import dataclass

from protopress.components.colournames import hex_of


@dataclass(frozen=True)
class Colour:
    r: float  # 0..1
    g: float
    b: float

    @classmethod
    def parse(cls, text: str) -> Colour:
        """#rrggbb or a CSS colour name; ValueError saying what was expected."""
        text = hex_of(text)
        r, g, b = (int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return cls(r, g, b)

    def rgb255(self) -> tuple[int, int, int]:
        return round(self.r * 255), round(self.g * 255), round(self.b * 255)


@dataclass(frozen=True)
class Gradient:
    """A fill that runs through colours: along a line turned `angle` degrees
    clockwise from left-to-right (linear), or out from the middle (radial)."""

    kind: str  # "linear" or "radial"
    colours: tuple[Colour, ...]
    stops: tuple[float, ...] | None = None  # where each colour is, 0 to 1; None: evenly
    angle: float = 0.0


BLACK = Colour(0, 0, 0)
WHITE = Colour(1, 1, 1)

"""Colours: #rrggbb in catalogs and layouts (CMYK on the page: see separation.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Colour:
    r: float  # 0..1
    g: float
    b: float

    @classmethod
    def parse(cls, text: str) -> Colour:
        text = text.strip()
        if len(text) != 7 or text[0] != "#":
            raise ValueError(f"{text!r} is not a colour (expected #rrggbb)")
        try:
            r, g, b = (int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
        except ValueError:
            raise ValueError(f"{text!r} is not a colour (expected #rrggbb)") from None
        return cls(r, g, b)

    def rgb255(self) -> tuple[int, int, int]:
        return round(self.r * 255), round(self.g * 255), round(self.b * 255)


BLACK = Colour(0, 0, 0)
WHITE = Colour(1, 1, 1)

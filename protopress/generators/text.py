"""Fit text into a box: wrap at word boundaries, shrink to fit down to a minimum
size, and report (never silently cut) what still does not fit."""

from __future__ import annotations

from dataclasses import dataclass

from protopress.generators.fonts import Font

SHRINK_STEP = 0.5  # points


@dataclass(frozen=True)
class FittedText:
    size: float
    leading: float  # line height in points
    lines: tuple[str, ...]
    fits: bool


def wrap(text: str, font: Font, size: float, width: float) -> tuple[list[str], bool]:
    """Lines of text no wider than width; False when a single word is wider."""
    lines, fits = [], True
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if font.width(candidate, size) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
            if font.width(word, size) > width:
                fits = False
        lines.append(line)
    return lines, fits


def fit_text(
    text: str,
    font: Font,
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float = 1.2,
) -> FittedText:
    """The largest size from size down to min_size at which text fits the box."""
    current = size
    while True:
        lines, fits = wrap(text, font, current, width)
        fits = fits and len(lines) * current * leading <= height + 1e-6
        if fits or current - SHRINK_STEP < min_size - 1e-9:
            return FittedText(current, current * leading, tuple(lines), fits)
        current -= SHRINK_STEP

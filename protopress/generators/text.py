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


# Advance widths add up (no kerning in reportlab's metrics): a line's width is its
# words' and spaces' widths summed, each word measured once. Within this of the
# box's width, where the sum's rounding could tip the choice, the line is measured
# whole, so that the lines are exactly those of measuring every candidate line.
_TIE = 1e-6  # points


def wrap(text: str, font: Font, size: float, width: float) -> tuple[list[str], bool]:
    """Lines of text no wider than width; False when a single word is wider."""
    lines, fits = [], True
    space = font.word_width(" ", size)
    for paragraph in text.split("\n"):
        line, line_width = "", 0.0
        for word in paragraph.split():
            word_width = font.word_width(word, size)
            if not line:
                line, line_width = word, word_width
            else:
                candidate, candidate_width = f"{line} {word}", line_width + space + word_width
                if abs(candidate_width - width) <= _TIE:
                    candidate_width = font.width(candidate, size)
                if candidate_width <= width:
                    line, line_width = candidate, candidate_width
                else:
                    lines.append(line)
                    line, line_width = word, word_width
            if word_width > width:
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

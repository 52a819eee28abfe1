"""Wrapping text at word boundaries: each line as long as fits, checked against
the lines' own measured widths (each word is measured once, lines are summed)."""

from __future__ import annotations

import random

import pytest

from protopress.generators.fonts import font
from protopress.generators.text import wrap

RULES = (
    "Discard a card. Reveal five cards and keep those that share no gem with it. Once per "
    "turn you may move one extra step through any door. WWW iii"
)
WORDS = RULES.split()


def _greedy(lines: list[str], text: str, face, size: float, width: float) -> None:
    """The lines hold text's words in order; each fits (or is one word), and the
    next line's first word would not have fitted after it."""
    assert " ".join(lines).split() == text.split()
    for number, line in enumerate(lines):
        assert face.width(line, size) <= width or len(line.split()) == 1
        if number + 1 < len(lines) and lines[number + 1]:
            longer = f"{line} {lines[number + 1].split()[0]}"
            assert face.width(longer, size) > width


@pytest.mark.parametrize("name", ["sans", "sans-bold"])
def test_each_line_is_as_long_as_fits(name):
    face = font(name)
    chance = random.Random(40)
    for _ in range(300):
        text = " ".join(chance.choice(WORDS) for _ in range(chance.randint(1, 30)))
        size, width = chance.choice([6, 8, 9.5, 12]), chance.uniform(20, 160)
        lines, _ = wrap(text, face, size, width)
        _greedy(lines, text, face, size, width)


def test_a_line_exactly_as_wide_as_the_box_stays_whole():
    face = font("sans")
    width = face.width("Discard a card.", 9)  # the box exactly as wide as these words
    assert wrap("Discard a card. Reveal", face, 9, width) == (["Discard a card.", "Reveal"], True)
    narrower = width - 0.001
    assert wrap("Discard a card.", face, 9, narrower) == (["Discard a", "card."], True)


def test_a_word_wider_than_the_box_has_a_line_of_its_own_and_does_not_fit():
    face = font("sans")
    wide = face.width("Reveal", 9) - 1
    assert wrap("a Reveal b", face, 9, wide) == (["a", "Reveal", "b"], False)

"""align start and end follow the text's direction: Hebrew and Arabic start on
the right, Latin on the left; left, center and right stay where they are."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from face_drawing import face, pixels

from protopress.generators.scripts import aligned, right_to_left

FONT = Path(__file__).parents[1] / "data" / "fonts" / "DejaVuSans-scripts.ttf"
BOX = {"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "size": 12, "font": "body"}


@pytest.mark.parametrize(("text", "rtl"), [
    ("שלום", True),
    ("مرحبا", True),
    ("123 שלום", True),  # digits are weak: the first strong letter decides
    ("Pay שלום", False),
    ("שלום Pay", True),
    ("", False),
    ("42!", False),
])  # fmt: skip
def test_the_first_strong_letter_sets_the_direction(text, rtl):
    assert right_to_left(text) is rtl


def test_start_and_end_resolve_by_direction_and_the_rest_stay():
    assert [aligned(a, "שלום") for a in ("start", "end", "left", "center", "right")] == [
        "right", "left", "left", "center", "right"]  # fmt: skip
    assert [aligned(a, "Hello") for a in ("start", "end")] == ["left", "right"]


def ink_columns(tmp_path, text: str, align: str) -> tuple[float, float]:
    """The leftmost and rightmost mm (x) holding ink in the text's row band."""
    shutil.copy(FONT, tmp_path / "Body.ttf")
    image = pixels(face(tmp_path, [{**BOX, "text": text, "align": align}],
                        fonts={"body": "Body.ttf"})).convert("L")  # fmt: skip
    dark = [
        x for x in range(image.width) for y in range(50, 150, 2) if image.getpixel((x, y)) < 128
    ]
    return min(dark) / 10, max(dark) / 10


@pytest.mark.parametrize("text", ["שלום עולם", "مرحبا بالعالم", "<b>שלום</b> עולם"])
def test_right_to_left_text_starts_on_the_right(tmp_path, text):
    left, right = ink_columns(tmp_path, text, "start")
    assert right > 53 and left > 25  # against the box's right edge (55 mm)
    left, right = ink_columns(tmp_path, text, "end")
    assert left < 7 and right < 35  # against its left edge (5 mm)


@pytest.mark.parametrize("text", ["Hello world", "Pay <b>three</b>"])
def test_left_to_right_text_starts_on_the_left(tmp_path, text):
    left, right = ink_columns(tmp_path, text, "start")
    assert left < 7 and right < 35
    left, right = ink_columns(tmp_path, text, "end")
    assert right > 53 and left > 25

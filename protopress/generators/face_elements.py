"""What every element reads: its place on the face, values from fields, art it could not find."""

from __future__ import annotations

from collections.abc import Sized
from typing import Any, TypeVar

from protopress.generators.assets import AssetPolicy
from protopress.generators.binding import fill, single
from protopress.generators.colours import BLACK, Colour
from protopress.generators.fonts import Font
from protopress.generators.units import parse_length

MAX_COUNT = 100  # rows, columns: as the schema's bound on literal counts
MAX_ITEMS = 1000  # icons, markers and table rows one element draws from a field's list


class FieldError(ValueError):
    """A layout element met a value of the wrong type or size (often through a
    field): reported at the element's key in the layout, never a crash."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


class ElementDrawing:
    """The state every kind of element draws with, and the helpers they share.

    FaceBuilder (face_builder.py) sets it up; each layer below it (shapes, images,
    icons, text, tables) adds the elements of one concern.
    """

    layout: Any  # a Layout
    catalog: Any
    bleed: float
    assets: AssetPolicy | None
    placeholders: bool
    _missing: list[tuple[str, str]]  # (key, message) of the element being built
    # What is the same for every card of the layout, worked out at its first card:
    # the builder lives for one render of one layout (a preview's, for one load of
    # the catalog), so nothing here outlives the files it was read from.
    _lengths: dict[tuple[type, str | int | float], float]  # (type, as written): points
    _fonts: dict[str, Font]  # a font name of the layout: its font, its file looked at once
    _colours: dict[str, Colour]  # a colour written in the layout (not a {field}): parsed

    def _length(self, value) -> float:
        """parse_length of a length as the layout writes it, parsed once per builder.
        The type is part of the key: True == 1, but True is no length."""
        kind = type(value)
        if kind is not str and kind is not int and kind is not float:
            return parse_length(value)
        key = (kind, value)
        found = self._lengths.get(key)
        if found is None:
            found = self._lengths[key] = parse_length(value)
        return found

    def _font(self, name: str) -> Font:
        """The layout's font of that name (KeyError when it has none), resolved once per
        builder: a layout's own font file is looked at (os.stat) once, not per text."""
        found = self._fonts.get(name)
        if found is None:
            found = self._fonts[name] = self.layout.font(name)
        return found

    def _missing_art(self, key: str, message: str) -> None:
        """An image or icon that cannot be drawn: raised as a problem of the face, or
        (with placeholders) kept for the face's problems while a placeholder is drawn."""
        if not self.placeholders:
            raise FieldError(key, message)
        self._missing.append((key, message))

    def _colour(self, value, fields, key: str = "colour") -> Colour | None:
        """colour(), a colour written in the layout itself parsed once per builder
        (one bound to a field is the component's, read every time)."""
        if not value or not isinstance(value, str) or value.startswith("{"):
            return colour(value, fields, key)
        found = self._colours.get(value)
        if found is None:
            found = colour(value, fields, key)
            assert found is not None  # a colour written out, or a FieldError
            self._colours[value] = found
        return found

    def _at(self, element, key) -> float:
        return self._length(element[key]) + self.bleed

    def _box(self, element):
        return (self._at(element, "x"), self._at(element, "y"),
                self._length(element["w"]), self._length(element["h"]))  # fmt: skip

    def _stroke(self, element, fields) -> tuple[Colour, float]:
        return self._colour(element.get("stroke"), fields, "stroke") or BLACK, element.get(
            "stroke_width", 0.5
        )


def shown(value) -> str:
    """A value for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def count(value, fields, key: str = "count") -> int:
    """A whole number from a layout: literal, or a {field} holding one (0 when missing).

    A field's number is bounded like a literal one (0 to MAX_COUNT), before
    anything is drawn: a card could otherwise ask for millions of lines.
    """
    if isinstance(value, int):
        return value
    found = single(value, fields)
    if not isinstance(found, int) or isinstance(found, bool):
        return 0
    if not 0 <= found <= MAX_COUNT:
        raise FieldError(key, f"{value} is {found}; expected 0 to {MAX_COUNT}")
    return found


Items = TypeVar("Items", bound=Sized)


def bounded_items(items: Items, key: str) -> Items:
    """A field's list of things to draw, at most MAX_ITEMS of them."""
    if len(items) > MAX_ITEMS:
        raise FieldError(key, f"{len(items)} items to draw; expected at most {MAX_ITEMS}")
    return items


def colour(value, fields, key: str = "colour") -> Colour | None:
    """The colour an element's key gives (a bound field may hold anything):
    a wrong value is a FieldError at that key."""
    if not value:
        return None
    text = fill(value, fields) if value.startswith("{") else value
    try:
        return Colour.parse(text) if text else None
    except ValueError as error:
        raise FieldError(key, str(error)) from None

"""Rich text markup: inline icons and bold or italic spans.

- ``:id:`` an icon: the catalog component with that id, drawn at the text's size;
- ``<b>…</b>`` bold, ``<i>…</i>`` italic (they nest);
- ``<span color="red" size="12" font="display">…</span>`` a colour, a size in
  points and a font of the layout (any of the three; an inner span's win);
- ``\\:`` a literal colon, ``\\<`` a literal ``<``, ``\\\\`` a backslash.

Anything else is text: a ``<`` that does not open or close ``b``, ``i`` or ``span``, a
colon not followed by an id and a closing colon ("10:30", "Cost: 2"). The
markup is parsed here into spans; it never reaches an XML or HTML parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Icon", "MarkupError", "Span", "has_markup", "parse", "plain"]

TOKEN = re.compile(
    r"\\([\\:<])|:([a-z0-9][a-z0-9_-]*):|<(/?)(?:([bi])|(span)(\s[^<>]*)?)>", re.IGNORECASE
)
ATTRIBUTE = re.compile(r'\s*([a-z]+)\s*=\s*"([^"]*)"\s*', re.IGNORECASE)
SPAN_ATTRIBUTES = {"color": "colour", "colour": "colour", "size": "size", "font": "font"}
MIN_SIZE, MAX_SIZE = 1, 200  # points, as a text element's size
MARKS = ("\\", ":", "<")


@dataclass(frozen=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False
    colour: str | None = None  # as written: a name or #rrggbb (checked where it is drawn)
    size: float | None = None  # points
    font: str | None = None  # a font name of the layout


@dataclass(frozen=True)
class _Open:
    """A tag open around the text: b, i, or a span with its attributes."""

    tag: str
    attributes: tuple[tuple[str, str | float], ...] = ()


@dataclass(frozen=True)
class Icon:
    id: str
    bold: bool = False  # the style around it: the icon follows the text's size
    italic: bool = False


Piece = Span | Icon


class MarkupError(ValueError):
    """Markup that cannot be read: a span closed that was never opened, or left open."""


def has_markup(text: str) -> bool:
    """Whether text may hold markup (cheap: plain text is drawn without parsing)."""
    return any(mark in text for mark in MARKS) and TOKEN.search(text) is not None


def parse(text: str) -> tuple[Piece, ...]:
    """The pieces of text: spans of styled text and icons, in reading order."""
    pieces: list[Piece] = []
    open_tags: list[_Open] = []
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            tags = {tag.tag for tag in open_tags}
            style = dict(a for tag in open_tags for a in tag.attributes)  # inner ones win
            colour, size, font = style.get("colour"), style.get("size"), style.get("font")
            pieces.append(Span("".join(buffer), "b" in tags, "i" in tags,
                               None if colour is None else str(colour),
                               None if size is None else float(size),
                               None if font is None else str(font)))  # fmt: skip
            buffer.clear()

    at = 0
    for match in TOKEN.finditer(text):
        buffer.append(text[at : match.start()])
        at = match.end()
        escaped, icon, closing, style_tag, span_tag, attributes = match.groups()
        tag = style_tag or span_tag
        if escaped is not None:
            buffer.append(escaped)
        elif icon is not None:
            flush()
            tags = {tag.tag for tag in open_tags}
            pieces.append(Icon(icon, "b" in tags, "i" in tags))
        else:
            tag = tag.lower()
            flush()
            if closing and attributes and attributes.strip():
                raise MarkupError(f"</{tag}> takes no attributes")
            if not closing:
                if tag != "span" and any(t.tag == tag for t in open_tags):
                    raise MarkupError(f"<{tag}> opened again inside <{tag}>")
                open_tags.append(_Open(tag, _attributes(tag, attributes or "")))
            elif not open_tags or open_tags[-1].tag != tag:
                raise MarkupError(f"</{tag}> closes a <{tag}> that is not open")
            else:
                open_tags.pop()
    buffer.append(text[at:])
    if open_tags:
        raise MarkupError(f"<{open_tags[-1].tag}> is not closed (write \\< for a literal '<')")
    flush()
    return tuple(piece for piece in pieces if not isinstance(piece, Span) or piece.text)


def _attributes(tag: str, written: str) -> tuple[tuple[str, str | float], ...]:
    """A span's colour, size and font, as written in its tag (b and i take none)."""
    if tag != "span":
        return ()
    found: dict[str, str | float] = {}
    at = 0
    for match in ATTRIBUTE.finditer(written):
        if match.start() != at:
            break
        at = match.end()
        name, value = match.group(1).lower(), match.group(2)
        if name not in SPAN_ATTRIBUTES:
            raise MarkupError(f"<span> has no attribute {name!r}; it takes color, size and font")
        found[SPAN_ATTRIBUTES[name]] = _size(value) if name == "size" else value
    if at != len(written) or not found:
        raise MarkupError(f'<span{written}> is not read: write <span color="red" size="12" '
                          f'font="name"> with any of the three')  # fmt: skip
    return tuple(found.items())


def _size(value: str) -> float:
    try:
        size = float(value)
    except ValueError:
        size = float("nan")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise MarkupError(f"<span size={value!r}> is not a size: expected points, "
                          f"{MIN_SIZE} to {MAX_SIZE}")  # fmt: skip
    return size


def plain(pieces: tuple[Piece, ...]) -> str:
    """The text without markup or icons (for messages and glyph checks)."""
    return "".join(piece.text for piece in pieces if isinstance(piece, Span))

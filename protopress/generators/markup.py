"""Rich text markup: inline icons and bold or italic spans.

- ``:id:`` an icon: the catalog component with that id, drawn at the text's size;
- ``<b>…</b>`` bold, ``<i>…</i>`` italic (they nest);
- ``\\:`` a literal colon, ``\\<`` a literal ``<``, ``\\\\`` a backslash.

Anything else is text: a ``<`` that does not open or close ``b`` or ``i``, a
colon not followed by an id and a closing colon ("10:30", "Cost: 2"). The
markup is parsed here into spans; it never reaches an XML or HTML parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Icon", "MarkupError", "Span", "has_markup", "parse", "plain"]

TOKEN = re.compile(r"\\([\\:<])|:([a-z0-9][a-z0-9_-]*):|<(/?)([bi])>", re.IGNORECASE)
MARKS = ("\\", ":", "<")


@dataclass(frozen=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False


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
    open_tags: list[str] = []
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            pieces.append(Span("".join(buffer), "b" in open_tags, "i" in open_tags))
            buffer.clear()

    at = 0
    for match in TOKEN.finditer(text):
        buffer.append(text[at : match.start()])
        at = match.end()
        escaped, icon, closing, tag = match.groups()
        if escaped is not None:
            buffer.append(escaped)
        elif icon is not None:
            flush()
            pieces.append(Icon(icon, "b" in open_tags, "i" in open_tags))
        else:
            tag = tag.lower()
            flush()
            if not closing:
                if tag in open_tags:
                    raise MarkupError(f"<{tag}> opened again inside <{tag}>")
                open_tags.append(tag)
            elif not open_tags or open_tags[-1] != tag:
                raise MarkupError(f"</{tag}> closes a <{tag}> that is not open")
            else:
                open_tags.pop()
    buffer.append(text[at:])
    if open_tags:
        raise MarkupError(f"<{open_tags[-1]}> is not closed (write \\< for a literal '<')")
    flush()
    return tuple(piece for piece in pieces if not isinstance(piece, Span) or piece.text)


def plain(pieces: tuple[Piece, ...]) -> str:
    """The text without markup or icons (for messages and glyph checks)."""
    return "".join(piece.text for piece in pieces if isinstance(piece, Span))

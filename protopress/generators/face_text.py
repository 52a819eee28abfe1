"""Text on a face: plain, rich and shaped, fitted to its box, and the warnings it gives."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from protopress.components.loader import file_positions
from protopress.components.suggest import did_you_mean
from protopress.generators.binding import PLACEHOLDER, as_text, fill, lookup
from protopress.generators.colours import BLACK, Colour
from protopress.generators.expand import Origin
from protopress.generators.face import TextOp
from protopress.generators.face_elements import FieldError, shown
from protopress.generators.face_icons import IconDrawing
from protopress.generators.fonts import BUILTIN_FONTS, DEFAULT_FONT
from protopress.generators.markup import Icon, MarkupError, Span, has_markup, parse, plain
from protopress.generators.rich import Family, RichTextOp
from protopress.generators.rich import fit as fit_rich
from protopress.generators.scripts import (
    IconItem,
    Item,
    ShapedTextOp,
    Styled,
    aligned,
    fit_shaped,
    lacks_shaped,
    needs_shaping,
)
from protopress.generators.text import fit_text
from protopress.generators.units import to_mm

if TYPE_CHECKING:
    from protopress.components.jsonpos import SourceMap
    from protopress.components.yamlsource import YamlSourceMap

# One text box: shrink-to-fit lays the text out at each half-point size, so a
# field of megabytes took minutes; an A4 page of 6 pt text holds about 20,000.
MAX_TEXT_CHARACTERS = 20_000
MAX_LISTED = 5  # missing characters named in one warning


class TextDrawing(IconDrawing):
    """The builder's text boxes: shrunk to fit, warned when they do not."""

    _origin: Origin | None  # where the element being built was written
    _positions: dict[Path, SourceMap | YamlSourceMap]  # of the layout files

    def _text(self, element, fields, warnings, component_id, box=None, size=None, font=None,
              valign=None):  # fmt: skip
        """A text box; box (x, y, w, h in face points) and the rest override the element."""
        template = element["text"]
        if not isinstance(template, str):  # a repeat's {index} alone binds the number itself
            template = f"{template:g}"
        text = fill(template, fields, element.get("separator", ", "))
        if not text.strip():
            return []
        if len(text) > MAX_TEXT_CHARACTERS:  # shrink-to-fit lays text out at every size
            raise FieldError("text", f"{len(text)} characters to draw in one text box; "
                                     f"expected at most {MAX_TEXT_CHARACTERS}")  # fmt: skip
        face_font = self._font(font or element.get("font", DEFAULT_FONT))
        if box is None:
            x, y = self._at(element, "x"), self._at(element, "y")
            w, h = self._length(element["w"]), self._length(element["h"])
        else:
            x, y, w, h = box
        size = size or element.get("size", 10)
        if has_markup(text):
            return self._rich_text(text, element, fields, warnings, component_id,
                                   (x, y, w, h), size, font, valign)  # fmt: skip
        _glyph_warnings([(text, face_font)], element, fields, warnings, component_id)
        if needs_shaping(text):
            return [self._shaped((Styled(text, face_font),), text, element, fields, warnings,
                                 component_id, (x, y, w, h), size, valign)]  # fmt: skip
        fitted = fit_text(
            text, face_font, w, h, size, element.get("min_size", min(6, size)),
            element.get("leading", 1.2),
        )  # fmt: skip
        if not fitted.fits:
            warnings.append(self._overflow(component_id, text, element, (w, h), fitted.size))
        block = len(fitted.lines) * fitted.leading
        valign = valign or element.get("valign", "top")
        top = y + {"top": 0, "middle": (h - block) / 2, "bottom": h - block}[valign]
        ascent = face_font.ascent(fitted.size)
        gap = (fitted.leading - fitted.size) / 2  # half the extra leading above each line
        runs = []
        align = aligned(element.get("align", "left"), text)
        for index, line in enumerate(fitted.lines):
            width = face_font.width(line, fitted.size)
            offset = {"left": 0, "center": (w - width) / 2, "right": w - width}
            runs.append(
                (
                    x + offset[align],
                    top + index * fitted.leading + gap + ascent,
                    line,
                )
            )
        return [
            TextOp(
                tuple(runs),
                face_font,
                fitted.size,
                self._colour(element.get("colour"), fields, "colour") or BLACK,
            )
        ]

    def _rich_text(self, text, element, fields, warnings, component_id, box, size, font, valign):
        """Text with markup: spans and inline icons, laid out by Paragraph."""
        try:
            pieces = parse(text)
        except MarkupError as error:
            raise FieldError("text", f"{shown(text)}: {error}") from None
        ids = sorted({piece.id for piece in pieces if isinstance(piece, Icon)})
        found = {icon_id: self._inline_icon(icon_id, element) for icon_id in ids}
        if None in found.values():  # unknown icons, drawn as their name in red: [fier?]
            pieces = tuple(
                Span(f"[{p.id}?]", p.bold, p.italic, colour="red")
                if isinstance(p, Icon) and found[p.id] is None
                else p
                for p in pieces
            )
        icons = tuple((icon_id, icon) for icon_id, icon in found.items() if icon is not None)
        font_name = font or element.get("font", DEFAULT_FONT)
        family = self._family(font_name)
        spans = [p for p in pieces if isinstance(p, Span)]
        fonts = self._span_fonts(spans)
        families = dict(fonts)

        def family_of(span: Span) -> Family:
            return family if span.font is None else families[span.font]

        _glyph_warnings([(s.text, family_of(s).drawn(s.bold, s.italic)) for s in spans], element,
                        fields, warnings, component_id)  # fmt: skip
        slanted = sorted({span.font or font_name for span in spans
                          if family_of(span).slanted(span.bold, span.italic)})  # fmt: skip
        warnings.extend(f"{component_id}: <i> is drawn slanted: the layout has no italic of the "
                        f"font {name!r} (add one as {name.removesuffix('-bold')}-italic under "
                        f"fonts)" for name in slanted)  # fmt: skip
        if any(needs_shaping(span.text) for span in spans):
            by_id = dict(icons)
            items: tuple[Item, ...] = tuple(
                IconItem(by_id[p.id]) if isinstance(p, Icon)
                else Styled(p.text, family_of(p).drawn(p.bold, p.italic),
                            family_of(p).slanted(p.bold, p.italic)) for p in pieces
            )  # fmt: skip
            return [self._shaped(items, text, element, fields, warnings, component_id, box,
                                 size, valign)]  # fmt: skip
        x, y, w, h = box
        sized = any(span.size is not None for span in spans)
        op = RichTextOp(
            x, y, w, h, pieces, icons, family,
            size, element.get("leading", 1.2), aligned(element.get("align", "left"), plain(pieces)),
            valign or element.get("valign", "top"), self._colour(element.get("colour"), fields, "colour") or BLACK,
            fonts=fonts, written_size=size if sized else None,
        )  # fmt: skip
        fitted, laid = fit_rich(op, element.get("min_size", min(6, size)))
        if not laid.fits:
            warnings.append(self._overflow(component_id, text, element, (w, h), fitted.size))
        return [fitted]

    def _shaped(self, items, text, element, fields, warnings, component_id, box, size,
                valign) -> ShapedTextOp:  # fmt: skip
        """Text with right-to-left letters or combining marks: bidi-ordered, shaped lines."""
        x, y, w, h = box
        leading = element.get("leading", 1.2)
        fitted = fit_shaped(items, w, h, size, element.get("min_size", min(6, size)), leading)
        if not fitted.fits:
            warnings.append(self._overflow(component_id, text, element, (w, h), fitted.size))
        line_height = fitted.size * leading
        block = len(fitted.lines) * line_height
        valign = valign or element.get("valign", "top")
        top = y + {"top": 0, "middle": (h - block) / 2, "bottom": h - block}[valign]
        first = next(item.font for item in items if isinstance(item, Styled))
        ascent, gap = first.ascent(fitted.size), (line_height - fitted.size) / 2
        letters = "".join(item.text for item in items if isinstance(item, Styled))
        align = aligned(element.get("align", "left"), letters)
        lines = tuple(
            (x + {"left": 0, "center": (w - line.width) / 2, "right": w - line.width}[align],
             top + index * line_height + gap + ascent, line)
            for index, line in enumerate(fitted.lines)
        )  # fmt: skip
        return ShapedTextOp(
            lines, fitted.size, self._colour(element.get("colour"), fields) or BLACK
        )

    def _span_fonts(self, spans: list[Span]) -> tuple[tuple[str, Family], ...]:
        """The families <span font=...> names, each a font of the layout; a span's
        colour is checked here too: both are problems at the element's text."""
        for span in spans:
            if span.colour is not None:
                try:
                    Colour.parse(span.colour)
                except ValueError as error:
                    raise FieldError("text", f"<span color={span.colour!r}>: {error}") from None
        names = sorted({span.font for span in spans if span.font is not None})
        known = set(BUILTIN_FONTS) | set(self.layout.fonts)
        for name in names:
            if name not in known:
                raise FieldError("text", f"<span font={name!r}>: unknown font{did_you_mean(name, known)}; "
                                         f"fonts: {', '.join(sorted(known))}")  # fmt: skip
        return tuple((name, self._family(name)) for name in names)

    def _overflow(self, component_id: str, text: str, element, box, size: float) -> str:
        """The warning for text that does not fit its box even at its minimum size,
        naming the element (where it was written, its name) and the fields it shows."""
        w, h = box
        where = []
        if self._origin is not None:
            where.append(self._written_at(self._origin))
        if element.get("name"):
            where.append(f"element {element['name']!r}")
        names = list(dict.fromkeys(PLACEHOLDER.findall(str(element.get("text", "")))))
        if names:
            where.append(f"field{'s' * (len(names) > 1)} {', '.join(map(repr, names))}")
        return (f"{component_id}: text {text[:40]!r} does not fit its "
                f"{to_mm(w):.0f}x{to_mm(h):.0f} mm box even at {size:g} pt"
                + (f" ({', '.join(where)})" if where else ""))  # fmt: skip

    def _written_at(self, origin: Origin) -> str:
        """file:line:column /pointer of an element (each file read once to find it)."""
        try:
            if origin.path not in self._positions:
                self._positions[origin.path] = file_positions(origin.path)
            line, column = self._positions[origin.path].locate(origin.pointer)
        except (OSError, ValueError):  # the file changed or went since it was loaded
            line, column = 1, 1
        return f"{origin.display}:{line}:{column} {origin.pointer}"

    def _family(self, name: str) -> Family:
        """A font and its bold, italic and bold italic: `NAME-bold` and the like
        where the layout or the built-in fonts have them, else the font itself."""
        base = name.removesuffix("-italic").removesuffix("-bold")
        bold, italic = name != base and "bold" in name[len(base) :], name.endswith("-italic")

        def variant(b: bool, i: bool):
            wanted = base + ("-bold" if b else "") + ("-italic" if i else "")
            try:
                return self._font(wanted)
            except KeyError:
                return self._font(name)

        return Family(variant(bold, italic), variant(True, italic), variant(bold, True),
                      variant(True, True), leaning=italic)  # fmt: skip


def _glyph_warnings(texts, element, fields, warnings: list, component_id: str) -> None:
    """Characters a text's font has no glyph for: one warning per field (or the
    layout's own text) naming each character, never a silent empty box."""
    lacking: dict[tuple[str, str], list[str]] = {}
    for text, text_font in texts:
        lacks = lacks_shaped(text, text_font) if needs_shaping(text) else text_font.lacks(text)
        for char in lacks:
            found = lacking.setdefault((_field_of(char, element, fields), text_font.file_name), [])
            if char not in found:
                found.append(char)
    for (where, font_file), chars in lacking.items():
        named = ", ".join(
            f"{char!r} U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}"
            for char in chars[:MAX_LISTED]
        )
        more = f" and {len(chars) - MAX_LISTED} more" if len(chars) > MAX_LISTED else ""
        warnings.append(f"{component_id}: {where} has characters the font {font_file} has no "
                        f"glyph for: {named}{more} (they would print as the font's missing-glyph box, or blank)")  # fmt: skip


def _field_of(char: str, element, fields) -> str:
    """The field of a text template that brings char, or the template itself."""
    template = str(element.get("text", ""))
    for name in PLACEHOLDER.findall(template):
        if char in as_text(lookup(fields, name)):
            return f"field {name!r}"
    return f"text {template[:40]!r}"

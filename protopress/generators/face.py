"""One side of one component as drawing operations, ready for any surface.

A face is built once from a layout and a component, in points, with its origin
at the top-left corner of the bleed box and y growing down. The PDF and PNG
surfaces draw the same operations, so their output matches.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sized
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from protopress.components.explain import Located
from protopress.components.loader import file_positions, locate_in_file
from protopress.components.problems import InvalidInput, Problem
from protopress.components.suggest import did_you_mean, nearest
from protopress.generators.assets import AssetPolicy, MissingAsset
from protopress.generators.binding import (
    MISSING,
    PLACEHOLDER,
    as_text,
    fill,
    lookup,
    single,
    truthy,
)
from protopress.generators.colours import BLACK, Colour, Gradient
from protopress.generators.conditions import holds
from protopress.generators.expand import LayoutProblem, Origin
from protopress.generators.fonts import BUILTIN_FONTS, DEFAULT_FONT, Font
from protopress.generators.markup import Icon, MarkupError, Span, has_markup, parse, plain
from protopress.generators.rich import Family, InlineIcon, RichTextOp
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
from protopress.generators.shapes import outline, regular_polygon, scaled, star_outline
from protopress.generators.text import fit_text
from protopress.generators.units import parse_length, to_mm
from protopress.generators.vector_art import VectorArt

if TYPE_CHECKING:
    from protopress.components.jsonpos import SourceMap
    from protopress.components.yamlsource import YamlSourceMap

Contour = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0
    radius: float = 0.0


@dataclass(frozen=True)
class LineOp:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = BLACK
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()
    cap: str = "butt"  # the ends: butt (at the end point), round or square (past it)


@dataclass(frozen=True)
class EllipseOp:
    """The ellipse inscribed in the box x, y, w, h."""

    x: float
    y: float
    w: float
    h: float
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True)
class PolygonOp:
    contours: tuple[Contour, ...]  # even-odd fill
    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True)
class TextOp:
    runs: tuple[tuple[float, float, str], ...]  # (x, baseline y, text) per line
    font: Font
    size: float
    colour: Colour = BLACK


@dataclass(frozen=True)
class ImageOp:
    path: Path
    x: float  # where the picture is drawn (it may reach past the box with cover)
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None  # the box, when cropped
    # an SVG's drawing (the path names it: faces with the same ops share a form)
    art: VectorArt | None = field(default=None, compare=False)
    mask: RectOp | EllipseOp | PolygonOp | None = None  # the shape the picture is cut to


@dataclass(frozen=True)
class FaceOp:
    """Another face drawn inside this one, clipped to this face's box, scaled by
    scale; (x, y) is the top-left corner of the box it then covers. turn is 0,
    90 (a quarter clockwise: its top edge runs down the right side) or -90
    (anticlockwise), as in PdfFaces.place. A print service's product of another
    size takes a layout's face this way."""

    face: Face
    x: float
    y: float
    scale: float = 1.0
    turn: int = 0


@dataclass(frozen=True)
class GroupOp:
    """One element's drawing seen through its `opacity` and turned by its `rotate`:
    turn degrees clockwise about (cx, cy), face points."""

    ops: tuple[Op, ...]
    opacity: float = 1.0
    turn: float = 0.0
    cx: float = 0.0
    cy: float = 0.0


Op = (
    RectOp | LineOp | EllipseOp | PolygonOp | TextOp | RichTextOp | ShapedTextOp | ImageOp | FaceOp
    | GroupOp
)  # fmt: skip


@dataclass(frozen=True)
class Face:
    name: str  # e.g. "room-tile/eddy/front"
    width: float  # bleed box, points
    height: float
    bleed: float
    ops: tuple[Op, ...]
    warnings: tuple[str, ...] = field(default=(), compare=False)
    # images and icons drawn as placeholders (FaceBuilder with placeholders=True)
    problems: tuple[Problem, ...] = field(default=(), compare=False)

    @property
    def trim(self) -> tuple[float, float]:
        return self.width - 2 * self.bleed, self.height - 2 * self.bleed

    @property
    def drawing(self) -> tuple:
        """What the face draws, without the names of it and of the faces inside
        it: faces equal by this look alike (every card's back on a product)."""
        ops = tuple(
            (op.face.drawing, op.x, op.y, op.scale, op.turn) if isinstance(op, FaceOp) else op
            for op in self.ops
        )
        return self.width, self.height, self.bleed, ops


class FieldError(ValueError):
    """A layout element met a value of the wrong type or size (often through a
    field): reported at the element's key in the layout, never a crash."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


class FaceProblem(InvalidInput[Problem], ValueError):
    """A component's face cannot be drawn: a problem located at its element in the
    layout (file, line, pointer), naming the component. A ValueError too, so that
    what shows a face beside its problems (the local pages) shows this one."""


PLACEHOLDER_INK = Colour(0.85, 0.1, 0.1)  # a missing image's crossed box and name
PLACEHOLDER_PAPER = Colour(1.0, 0.93, 0.93)


class FaceBuilder:
    """Builds faces from one layout; icons look ids up in the catalog's collections.

    With placeholders, a missing image draws a crossed box with its name and an
    unknown `:icon:` in text draws `[icon?]`; each is a located problem in the
    face's `problems`, and the face is built all the same (render writes
    everything, then exits 1 listing them). Without, they raise FaceProblem. An
    image that is there but refused (outside the catalog's folder, damaged, too
    large) raises either way.
    """

    def __init__(
        self,
        layout,
        catalog,
        bleed: float,
        assets: AssetPolicy | None = None,
        placeholders: bool = False,
    ):
        self.layout = layout
        self.catalog = catalog
        self.bleed = bleed
        self.assets = assets
        self.placeholders = placeholders
        self._missing: list[tuple[str, str]] = []  # (key, message) of the element being built
        self._icons: dict[tuple[str, str], IconLook] = {}
        self._origin: Origin | None = None  # where the element being built was written
        self._positions: dict[Path, SourceMap | YamlSourceMap] = {}  # of the layout files
        if assets is not None:
            assets.check_fonts(layout)

    def build(self, component, side: str) -> Face:
        fields = context(component, self.catalog)
        ops: list[Op] = []
        warnings: list[str] = []
        try:
            elements = self.layout.elements(side, fields, warnings, component.id)
        except LayoutProblem as problem:  # bound repeats past the face's bounds
            raise self._located(side, problem.origin, "", problem.message, component) from None
        problems: list[Problem] = []
        for element, origin in elements:
            if "when" in element and not _holds(element["when"], fields):
                continue
            self._origin = origin  # what the element's warnings name
            try:
                drawn = self._element(element, fields, warnings, component.id)
                ops.extend(self._seen(element, drawn) if _GROUPED & element.keys() else drawn)
            except FieldError as error:
                raise self._located(side, origin, f"/{error.key}", str(error), component) from None
            finally:
                missing, self._missing = self._missing, []
            for key, message in missing:
                problems += self._located(side, origin, f"/{key}", message, component).problems
        width, height = self.layout.width + 2 * self.bleed, self.layout.height + 2 * self.bleed
        name = f"{component.kind}/{component.id}/{side}"
        return Face(name, width, height, self.bleed, tuple(ops), tuple(warnings), tuple(problems))

    def _missing_art(self, key: str, message: str) -> None:
        """An image or icon that cannot be drawn: raised as a problem of the face, or
        (with placeholders) kept for the face's problems while a placeholder is drawn."""
        if not self.placeholders:
            raise FieldError(key, message)
        self._missing.append((key, message))

    def _located(
        self, side: str, origin: Origin | None, key: str, message: str, component
    ) -> FaceProblem:
        """A problem of one component at its element (and key, a pointer suffix) in
        the file where the element was written."""
        source = origin.path if origin is not None else self.layout.source
        pointer = origin.pointer if origin is not None else f"/{side}"
        finding = Located(f"{pointer}{key}", f"{component.kind} {component.id!r}: {message}")
        try:
            return FaceProblem(locate_in_file(str(source), source, [finding]))
        except (OSError, ValueError):
            return FaceProblem([Problem(str(source), 1, 1, finding.pointer, finding.message)])

    def _seen(self, element: Mapping, drawn: list[Op]) -> list[Op]:
        """An element's ops under its opacity and rotation: one GroupOp about its centre."""
        if not drawn:
            return drawn
        cx, cy = self._centre(element, drawn)
        group = GroupOp(tuple(drawn), float(element.get("opacity", 1.0)),
                        float(element.get("rotate", 0.0)), cx, cy)  # fmt: skip
        return [group]

    def _centre(self, element: Mapping, drawn: list[Op]) -> tuple[float, float]:
        """Where an element turns: the middle of its box (a bleed rect: the face's),
        of a line, or of the icons it drew."""
        if element.get("bleed"):
            return (self.layout.width / 2 + self.bleed, self.layout.height / 2 + self.bleed)
        if "w" in element and "h" in element:
            x, y, w, h = self._box(element)
            return x + w / 2, y + h / 2
        if element["type"] == "line":
            ends = [self._at(element, key) for key in ("x", "y", "x2", "y2")]
            return (ends[0] + ends[2]) / 2, (ends[1] + ends[3]) / 2
        points = [p for op in drawn for p in _corners(op)]
        if not points:  # nothing with a place of its own: the element's corner
            return self._at(element, "x"), self._at(element, "y")
        xs, ys = [x for x, _ in points], [y for _, y in points]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    # ---- elements ------------------------------------------------------

    def _element(self, element: Mapping, fields, warnings, component_id):
        kind = element["type"]
        if kind in ("rect", "line"):
            return [self._rect(element, fields) if kind == "rect" else self._line(element, fields)]
        if kind in ("ellipse", "polygon", "star"):
            return [self._figure(element, fields)]
        if kind in ("icon", "icons", "grid", "markers"):
            shapes = {"icon": self._icon, "icons": self._icons_row, "grid": self._grid,
                      "markers": self._markers}[kind]  # fmt: skip
            return shapes(element, fields)
        if kind in ("text", "table", "legend", "image"):
            written = {"text": self._text, "table": self._table, "legend": self._legend,
                       "image": self._image}[kind]  # fmt: skip
            return written(element, fields, warnings, component_id)
        raise ValueError(f"unknown element type {kind!r}")  # the schema refuses it first

    def _at(self, element, key) -> float:
        return parse_length(element[key]) + self.bleed

    def _rect(self, element, fields) -> RectOp:
        if element.get("bleed"):
            box = (
                0.0,
                0.0,
                self.layout.width + 2 * self.bleed,
                self.layout.height + 2 * self.bleed,
            )
        else:
            box = (
                self._at(element, "x"),
                self._at(element, "y"),
                parse_length(element["w"]),
                parse_length(element["h"]),
            )
        return RectOp(
            *box,
            fill=paint(element.get("fill"), fields),
            stroke=colour(element.get("stroke"), fields, "stroke"),
            stroke_width=element.get("stroke_width", 0.5 if "stroke" in element else 0.0),
            radius=parse_length(element.get("radius", 0)),
        )

    def _line(self, element, fields) -> LineOp:
        return LineOp(
            self._at(element, "x"),
            self._at(element, "y"),
            self._at(element, "x2"),
            self._at(element, "y2"),
            stroke=colour(element.get("stroke"), fields, "stroke") or BLACK,
            stroke_width=element.get("stroke_width", 0.5),
            dash=tuple(element.get("dash", ())),
            cap=element.get("cap", "butt"),
        )

    def _figure(self, element, fields) -> EllipseOp | PolygonOp:
        """An ellipse, regular polygon or star inscribed in the element's box."""
        box = self._box(element)
        fill = paint(element.get("fill"), fields)
        stroke = colour(element.get("stroke"), fields, "stroke")
        width = element.get("stroke_width", 0.5 if "stroke" in element else 0.0)
        if element["type"] == "ellipse":
            return EllipseOp(box[0], box[1], box[2], box[3], fill, stroke, width)
        if element["type"] == "polygon":
            corners = regular_polygon(element["sides"], box)
        else:
            corners = star_outline(element["points"], element.get("inner", 0.5), box)
        return PolygonOp((corners,), fill, stroke, width)

    def _clip_shape(self, element, box) -> RectOp | EllipseOp | PolygonOp:
        """The shape an image is cut to, in its box: an ellipse, a polygon (sides), a
        star (points, inner) or a rect (rounded by radius)."""
        shape = element["clip"]
        if shape == "rect":
            return RectOp(
                box[0], box[1], box[2], box[3], radius=parse_length(element.get("radius", 0))
            )
        return self._figure({**element, "type": shape, "fill": None, "stroke": None}, {})

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
        face_font = self.layout.font(font or element.get("font", DEFAULT_FONT))
        if box is None:
            x, y = self._at(element, "x"), self._at(element, "y")
            w, h = parse_length(element["w"]), parse_length(element["h"])
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
                colour(element.get("colour"), fields, "colour") or BLACK,
            )
        ]

    def _rich_text(self, text, element, fields, warnings, component_id, box, size, font, valign):
        """Text with markup: spans and inline icons, laid out by Paragraph."""
        try:
            pieces = parse(text)
        except MarkupError as error:
            raise FieldError("text", f"{_shown(text)}: {error}") from None
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

        _glyph_warnings([(s.text, family_of(s).pick(s.bold, s.italic)) for s in spans], element,
                        fields, warnings, component_id)  # fmt: skip
        upright = sorted({span.font or font_name for span in spans if span.italic
                          and family_of(span).pick(span.bold, True) == family_of(span).regular})  # fmt: skip
        warnings.extend(f"{component_id}: <i> prints upright: the layout has no italic of the "
                        f"font {name!r} (add one as {name.removesuffix('-bold')}-italic under "
                        f"fonts)" for name in upright)  # fmt: skip
        if any(needs_shaping(span.text) for span in spans):
            by_id = dict(icons)
            items: tuple[Item, ...] = tuple(
                IconItem(by_id[p.id]) if isinstance(p, Icon)
                else Styled(p.text, family_of(p).pick(p.bold, p.italic)) for p in pieces
            )  # fmt: skip
            return [self._shaped(items, text, element, fields, warnings, component_id, box,
                                 size, valign)]  # fmt: skip
        x, y, w, h = box
        sized = any(span.size is not None for span in spans)
        op = RichTextOp(
            x, y, w, h, pieces, icons, family,
            size, element.get("leading", 1.2), aligned(element.get("align", "left"), plain(pieces)),
            valign or element.get("valign", "top"), colour(element.get("colour"), fields, "colour") or BLACK,
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
        return ShapedTextOp(lines, fitted.size, colour(element.get("colour"), fields) or BLACK)

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
                return self.layout.font(wanted)
            except KeyError:
                return self.layout.font(name)

        return Family(variant(bold, italic), variant(True, italic), variant(bold, True),
                      variant(True, True))  # fmt: skip

    def _inline_icon(self, icon_id: str, element) -> InlineIcon | None:
        """The icon `:id:` names: from the element's `icons` collections, or from
        every catalog collection whose components have shapes; None when there is
        none (with placeholders: the problem is kept)."""
        names = element.get("icons")
        names = [names] if isinstance(names, str) else names or self._icon_collections()
        for name in names:
            for item in self._collection(name, "icons"):
                if item.get("id") == icon_id:
                    look = _icon_of(name, item)
                    if look.file is None or self.assets is None:
                        return InlineIcon(look.shape, look.colour)
                    path = self._icon_file(look, "text")
                    return InlineIcon(look.shape, look.colour, path, self.assets.size(path),
                                      self.assets.art(path))  # fmt: skip
        known = [str(i.get("id")) for n in names for i in self._collection(n, "icons")]
        match = nearest(icon_id, known)
        hint = f" (did you mean ':{match}:'?)" if match else ""
        self._missing_art(
            "text",
            f"unknown icon ':{icon_id}:'{hint}; icons come "
            f"from {', '.join(names) or 'no collection'} (write \\: for a literal colon)",
        )
        return None

    def _icon_collections(self) -> list[str]:
        if not hasattr(self, "_icon_names"):
            self._icon_names = [
                name for name, items in self.catalog.document.items()
                if isinstance(items, list) and items
                and all(isinstance(item, dict) and ("shape" in item or "icon" in item)
                        for item in items)
            ]  # fmt: skip
        return self._icon_names

    def _icon(self, element, fields):
        shape = fill(element["shape"], fields)
        size = parse_length(element["icon_size"])
        fill_colour = colour(element.get("fill"), fields, "fill") or BLACK
        look = IconLook(shape, fill_colour)
        if "from" in element:  # the shape names a component whose icon is drawn
            if not shape:
                return []
            look = self._lookup_icon(element["from"], shape)
            fill_colour = colour(element.get("fill"), fields, "fill") or look.colour
        return [self._drawn_icon(look, self._at(element, "x"), self._at(element, "y"), size,
                                 fill_colour, element, fields, "from" if "from" in element else "shape")]  # fmt: skip

    def _icons_row(self, element, fields):
        items = single(element["items"], fields)
        if items is MISSING or not isinstance(items, (list, tuple)):
            return []
        items = bounded_items(items, "items")
        size = parse_length(element["icon_size"])
        gap = parse_length(element.get("gap", 1))
        x, y = self._at(element, "x"), self._at(element, "y")
        ops = []
        column = element.get("direction") == "column"
        for item in items:
            look = self._lookup_icon(element["from"], str(item))
            ops.append(self._drawn_icon(look, x, y, size, look.colour, element, fields, "from"))
            if column:
                y += size + gap
            else:
                x += size + gap
        return ops

    def _drawn_icon(self, look: IconLook, x, y, size, fill_colour, element, fields, key) -> Op:
        """A component's icon in the square (x, y, size): its picture, contained and
        centred, when it names one, else its shape in fill_colour."""
        if look.file is None or self.assets is None:
            return self._shape_op(look.shape, x, y, size, fill_colour, element, fields, key)
        path = self._icon_file(look, key)
        return fitted_image(self.assets.size(path), (x, y, size, size), "contain", "center",
                            "middle")(path, self.assets.art(path))  # fmt: skip

    def _icon_file(self, look: IconLook, key: str) -> Path:
        """The checked picture file an icon names (relative to the catalog's folder)."""
        assert self.assets is not None and look.file is not None
        try:
            return self.assets.resolve(look.file)
        except ValueError as error:
            raise FieldError(key, f"the icon of {look.name}: {error}") from None

    def _shape_op(self, shape, x, y, size, fill_colour, element, fields, key) -> PolygonOp:
        stroke = colour(element.get("stroke"), fields, "stroke")
        try:
            shape_outline = outline(shape)
        except KeyError as error:
            raise FieldError(key, error.args[0]) from None
        return PolygonOp(
            tuple(tuple(contour) for contour in scaled(shape_outline, x, y, size)),
            fill=fill_colour,
            stroke=stroke,
            stroke_width=element.get("stroke_width", 0.6 if stroke else 0.0),
        )

    def _lookup_icon(self, collection: str, item_id: str) -> IconLook:
        key = (collection, item_id)
        if key not in self._icons:
            items = self._collection(collection)
            found = next((c for c in items if c.get("id") == item_id), None)
            self._icons[key] = (
                IconLook("circle", BLACK) if found is None else _icon_of(collection, found)
            )
        return self._icons[key]

    def _collection(self, name: str, key: str = "from") -> list[dict]:
        """The components of a catalog collection that icons and legends draw from."""
        items = self.catalog.document.get(name, [])
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise FieldError(key, f"{name!r} is not a collection of components of the catalog")
        return items

    # ---- tables, grids and lists -----------------------------------------

    def _box(self, element):
        return (self._at(element, "x"), self._at(element, "y"),
                parse_length(element["w"]), parse_length(element["h"]))  # fmt: skip

    def _stroke(self, element, fields) -> tuple[Colour, float]:
        return colour(element.get("stroke"), fields, "stroke") or BLACK, element.get(
            "stroke_width", 0.5
        )

    def _grid(self, element, fields):
        """A grid of rows x columns cells (score sheets, blueprints)."""
        rows = count(element["rows"], fields, "rows")
        columns = count(element["columns"], fields, "columns")
        if not rows or not columns:
            return []
        x, y, w, h = self._box(element)
        stroke, width = self._stroke(element, fields)
        ops: list[Op] = (
            [RectOp(x, y, w, h, fill=colour(element.get("fill"), fields, "fill"))]
            if "fill" in element
            else []
        )
        for row in range(rows + 1):
            ops.append(LineOp(x, y + h * row / rows, x + w, y + h * row / rows, stroke, width))
        for column in range(columns + 1):
            ops.append(
                LineOp(x + w * column / columns, y, x + w * column / columns, y + h, stroke, width)
            )
        return ops

    def _table(self, element, fields, warnings, component_id):
        """Row labels down the left, one column per player, a header and a total row."""
        labels = single(element["labels"], fields)
        columns = count(element["columns"], fields, "columns")
        if labels is MISSING or not labels or not columns:
            return []
        if not isinstance(labels, (list, tuple)):
            raise FieldError("labels", f"expected a list of row labels, found {_shown(labels)}")
        labels = bounded_items(labels, "labels")
        total = element.get("total", True)
        if isinstance(total, str):
            total = truthy(total.strip("{}"), fields)
        rows = [""] + [str(label) for label in labels] + (["Total"] if total else [])
        x, y, w, h = self._box(element)
        label_width = parse_length(element["label_width"]) if "label_width" in element else w * 0.4
        cell_w = (w - label_width) / columns
        row_h = h / len(rows)
        stroke, width = self._stroke(element, fields)
        ops = []
        for index in range(len(rows) + 1):
            ops.append(LineOp(x, y + index * row_h, x + w, y + index * row_h, stroke, width))
        for index in range(columns + 1):
            cx = x + label_width + index * cell_w
            ops.append(LineOp(cx, y, cx, y + h, stroke, width))
        ops.append(LineOp(x, y, x, y + h, stroke, width))
        size = element.get("size", 9)
        header = element.get("header", "Player")
        cells = [(label, x, y + i * row_h, label_width) for i, label in enumerate(rows) if label]
        cells += [
            (f"{header} {c + 1}", x + label_width + c * cell_w, y, cell_w) for c in range(columns)
        ]
        for text, cx, cy, cw in cells:
            ops.extend(self._text({"x": 0, "y": 0, "w": 0, "h": 0, "text": text}, fields, warnings,
                                  component_id, box=(cx + 1.2, cy, cw - 2.4, row_h), size=size,
                                  font=element.get("font", "sans-bold" if text == "Total" else "sans"),
                                  valign="middle"))  # fmt: skip
        return ops

    def _markers(self, element, fields):
        """Icons placed in the cells of a grid by row and column (blueprint positions)."""
        items = single(element["items"], fields)
        rows = count(element["rows"], fields, "rows")
        columns = count(element["columns"], fields, "columns")
        if items is MISSING or not isinstance(items, (list, tuple)) or not rows or not columns:
            return []
        items = bounded_items(items, "items")
        x, y, w, h = self._box(element)
        cell_w, cell_h = w / columns, h / rows
        size = (
            parse_length(element["icon_size"])
            if "icon_size" in element
            else min(cell_w, cell_h) * 0.7
        )
        row_key, col_key = element.get("row_key", "row"), element.get("col_key", "col")
        item_key = element.get("item_key", "element")
        ops = []
        for item in items:
            if not isinstance(item, dict) or item_key not in item:
                continue
            look = self._lookup_icon(element["from"], str(item[item_key]))
            cx = x + (_position(item, col_key) + 0.5) * cell_w - size / 2
            cy = y + (_position(item, row_key) + 0.5) * cell_h - size / 2
            ops.append(self._drawn_icon(look, cx, cy, size, look.colour, element, fields, "from"))
        return ops

    def _legend(self, element, fields, warnings, component_id):
        """One line per component of a collection: its icon, then text bound to its fields."""
        source = fill(element["from"], fields)  # a collection, or a {field} naming one
        collection = self._collection(source)
        wanted = single(element["items"], fields) if "items" in element else MISSING
        if wanted is MISSING:
            chosen = list(collection)
        elif isinstance(wanted, (list, tuple)):
            chosen = [c for c in collection if c.get("id") in wanted]
        else:
            raise FieldError("items", f"expected a list of ids, found {_shown(wanted)}")
        if not chosen:
            return []
        chosen = bounded_items(chosen, "from")
        x, y, w, h = self._box(element)
        line_h = (
            parse_length(element["line_height"]) if "line_height" in element else h / len(chosen)
        )
        icon = min(parse_length(element.get("icon_size", 6)), line_h * 0.9)
        ops = []
        for index, entry in enumerate(chosen):
            top = y + index * line_h
            look = self._lookup_icon(source, str(entry.get("id")))
            ops.append(self._drawn_icon(look, x, top + (line_h - icon) / 2, icon, look.colour,
                                        element, fields, "from"))  # fmt: skip
            ops.extend(self._text({"x": 0, "y": 0, "w": 0, "h": 0, "text": element["text"]},
                                  {**entry, "catalog": fields.get("catalog")}, warnings, component_id,
                                  box=(x + icon + 2, top, w - icon - 2, line_h),
                                  size=element.get("size", 8), font=element.get("font", DEFAULT_FONT),
                                  valign="middle"))  # fmt: skip
        return ops

    def _image(self, element, fields, warnings, component_id):
        if self.assets is None:
            return []
        label = fill(element["path"], fields)
        box = self._box(element)
        try:
            path = self.assets.resolve(label)
        except MissingAsset as error:
            self._missing_art("path", str(error))
            return self._placeholder(label, box)
        except ValueError as error:  # refused: located at the element's path, naming the component
            raise FieldError("path", str(error)) from None
        fit = element.get("fit", "contain")
        size, art = self.assets.size(path), self.assets.art(path)
        placed = fitted_image(size, box, fit, aligned(element.get("align", "center"), ""),
                              element.get("valign", "middle"))(path, art)  # fmt: skip
        if "clip" in element:
            placed = replace(placed, mask=self._clip_shape(element, box))
        warnings.extend(
            art_warnings(f"{component_id}: image {label!r}", size, art, box, fit, placed)
        )
        return [placed]

    def _placeholder(self, label: str, box) -> list[Op]:
        """A crossed box with the image's name, where the image would go."""
        x, y, w, h = box
        ops: list[Op] = [
            RectOp(x, y, w, h, PLACEHOLDER_PAPER, PLACEHOLDER_INK, 1.0),
            LineOp(x, y, x + w, y + h, PLACEHOLDER_INK, 1.0),
            LineOp(x, y + h, x + w, y, PLACEHOLDER_INK, 1.0),
        ]
        name_font = self.layout.font(DEFAULT_FONT)
        size = min(8.0, h / 4)
        width = name_font.width(label, size)
        if width > w * 0.9:
            size *= w * 0.9 / width
            width = name_font.width(label, size)
        if size >= 3:  # smaller, no one reads it: the box and its cross still show
            baseline = y + (h + name_font.ascent(size)) / 2
            run = ((x + (w - width) / 2, baseline, label),)
            ops += [RectOp(x + (w - width) / 2 - 1, y + (h - size) / 2 - 1, width + 2, size + 2,
                           PLACEHOLDER_PAPER),  # the name stays readable over the cross
                    TextOp(run, name_font, size, PLACEHOLDER_INK)]  # fmt: skip
        return ops


PRINT_DPI = 300  # below this a raster picture prints visibly soft


def art_warnings(name: str, size, art: VectorArt | None, box, fit: str, placed: ImageOp):
    """What a designer should hear about a placed picture: stretched out of its
    shape, printing below PRINT_DPI (rasters only: vectors are sharp at any
    size), or an SVG with parts svglib could not draw."""
    found: list[str] = []
    shape = (
        f"an SVG of {size[0]:g}x{size[1]:g} pt"
        if art is not None
        else f"{size[0]}x{size[1]} pixels"
    )
    if min(size[0], size[1], box[2], box[3], placed.w, placed.h) <= 0:
        return found  # nothing of it is drawn: no shape to keep, no resolution to judge
    if fit == "stretch" and abs(size[0] / size[1] - box[2] / box[3]) > 0.01 * size[0] / size[1]:
        found.append(f"{name} is stretched out of shape ({shape} into a "
                     f"{to_mm(box[2]):.0f}x{to_mm(box[3]):.0f} mm box)")  # fmt: skip
    if art is None:
        dpi = min(size[0] / (placed.w / 72), size[1] / (placed.h / 72))
        if dpi < PRINT_DPI - 1e-6:
            found.append(f"{name} prints at {int(dpi + 1e-6)} dpi at its drawn size "
                         f"({size[0]}x{size[1]} pixels over {to_mm(placed.w):.0f}x"
                         f"{to_mm(placed.h):.0f} mm); {PRINT_DPI} dpi or more prints sharp")  # fmt: skip
    else:
        found.extend(f"{name}: part of the SVG is not drawn ({note})" for note in art.notes[:3])
    return found


def fitted_image(size: tuple[float, float], box, fit: str, align: str, valign: str):
    """Where a picture of size (pixels, or an SVG's own size) goes in box: whole
    (contain), filling it and cropped (cover) or stretched to it (stretch);
    align and valign place it."""
    x, y, w, h = box
    if fit == "stretch":
        return lambda path, art=None: ImageOp(path, x, y, w, h, art=art)
    scale = (min if fit == "contain" else max)(w / size[0], h / size[1])
    pw, ph = size[0] * scale, size[1] * scale
    px = x + {"left": 0, "center": (w - pw) / 2, "right": w - pw}[align]
    py = y + {"top": 0, "middle": (h - ph) / 2, "bottom": h - ph}[valign]
    clip = box if fit == "cover" else None
    return lambda path, art=None: ImageOp(path, px, py, pw, ph, clip, art)


MAX_LISTED = 5  # missing characters named in one warning


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


def _shown(value) -> str:
    """A value for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class IconLook:
    """How a component's icon looks: its shape and colour, or its own picture."""

    shape: str
    colour: Colour
    file: str | None = None  # an image or SVG file, relative to the catalog's folder
    name: str = ""  # the component, for messages: "symbols 'fire'"


def _icon_of(collection: str, found: dict) -> IconLook:
    """The shape and colour a catalog component gives its icon, and its picture
    when it names one (`"icon": "icons/fire.svg"`)."""
    shape, value, file = found.get("shape", "circle"), found.get("colour"), found.get("icon")
    name = f"{collection} {found.get('id')!r}"
    if not isinstance(shape, str):
        raise FieldError("from", f"{name} has shape {_shown(shape)}; expected a shape name")
    if value is not None and not isinstance(value, str):
        raise FieldError("from", f"{name} has colour {_shown(value)}; expected e.g. '#1f77b4'")
    if file is not None and (not isinstance(file, str) or not file):
        raise FieldError("from", f"{name} has icon {_shown(file)}; expected an image file's path")
    return IconLook(shape, colour(value, {}, "from") or BLACK, file, name)


def _position(item: dict, key: str) -> float:
    """A marker's row or column: a number (0 when absent)."""
    value = item.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FieldError(
            "items", f"expected a number for {key!r} of a marker, found {_shown(value)}"
        )
    return value


def _holds(when, fields) -> bool:
    """A `when`: one condition, or a list of conditions that must all hold."""
    conditions = [when] if isinstance(when, str) else when
    return all(holds(condition, fields) for condition in conditions)


_GROUPED = frozenset({"opacity", "rotate"})  # keys that draw an element as a GroupOp
MAX_COUNT = 100  # rows, columns: as the schema's bound on literal counts
MAX_ITEMS = 1000  # icons, markers and table rows one element draws from a field's list
# One text box: shrink-to-fit lays the text out at each half-point size, so a
# field of megabytes took minutes; an A4 page of 6 pt text holds about 20,000.
MAX_TEXT_CHARACTERS = 20_000


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


def _corners(op: Op) -> list[tuple[float, float]]:
    """The points that bound an icon's drawing: a shape's corners, a picture's box."""
    if isinstance(op, PolygonOp):
        return [point for contour in op.contours for point in contour]
    if isinstance(op, ImageOp):
        return [(op.x, op.y), (op.x + op.w, op.y + op.h)]
    return []


def paint(value, fields) -> Colour | Gradient | None:
    """A shape's fill: a colour, or a gradient ({"linear": [...], "angle": 90} or
    {"radial": [...]}, each colour a name, #rrggbb or a {field})."""
    if not isinstance(value, Mapping):
        return colour(value, fields, "fill")
    kind = "linear" if "linear" in value else "radial"
    colours = tuple(colour(c, fields, "fill") or BLACK for c in value[kind])
    stops = tuple(value["stops"]) if "stops" in value else None
    return Gradient(kind, colours, stops, float(value.get("angle", 0)))


def context(component, catalog) -> dict:
    """The fields a template can use: the component's own, plus id, count, kind, catalog."""
    return {
        **component.fields,
        "id": component.id,
        "count": component.count,
        "kind": component.kind,
        "catalog": {
            "title": catalog.title,
            "version": catalog.version,
            "game": catalog.game,
            "style": dict(catalog.document.get("style", {})),
        },
    }

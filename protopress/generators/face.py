"""One side of one component as drawing operations, ready for any surface.

A face is built once from a layout and a component, in points, with its origin
at the top-left corner of the bleed box and y growing down. The PDF and PNG
surfaces draw the same operations, so their output matches.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from protopress.components.explain import Located
from protopress.components.loader import locate_in_file
from protopress.components.problems import InvalidInput, Problem
from protopress.components.suggest import nearest
from protopress.generators.assets import AssetPolicy
from protopress.generators.binding import (
    MISSING,
    PLACEHOLDER,
    as_text,
    fill,
    lookup,
    single,
    truthy,
)
from protopress.generators.colours import BLACK, Colour
from protopress.generators.expand import LayoutProblem, Origin
from protopress.generators.fonts import DEFAULT_FONT, Font
from protopress.generators.markup import Icon, MarkupError, Span, has_markup, parse
from protopress.generators.rich import Family, InlineIcon, RichTextOp
from protopress.generators.rich import fit as fit_rich
from protopress.generators.scripts import (
    IconItem,
    Item,
    ShapedTextOp,
    Styled,
    fit_shaped,
    lacks_shaped,
    needs_shaping,
)
from protopress.generators.shapes import outline, scaled
from protopress.generators.text import fit_text
from protopress.generators.units import parse_length, to_mm
from protopress.generators.vector_art import VectorArt

Contour = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = None
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


@dataclass(frozen=True)
class PolygonOp:
    contours: tuple[Contour, ...]  # even-odd fill
    fill: Colour | None = None
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


Op = RectOp | LineOp | PolygonOp | TextOp | RichTextOp | ShapedTextOp | ImageOp | FaceOp


@dataclass(frozen=True)
class Face:
    name: str  # e.g. "room-tile/eddy/front"
    width: float  # bleed box, points
    height: float
    bleed: float
    ops: tuple[Op, ...]
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def trim(self) -> tuple[float, float]:
        return self.width - 2 * self.bleed, self.height - 2 * self.bleed


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


class FaceBuilder:
    """Builds faces from one layout; icons look ids up in the catalog's collections."""

    def __init__(self, layout, catalog, bleed: float, assets: AssetPolicy | None = None):
        self.layout = layout
        self.catalog = catalog
        self.bleed = bleed
        self.assets = assets
        self._icons: dict[tuple[str, str], tuple[str, Colour]] = {}
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
        for element, origin in elements:
            if "when" in element and not _holds(element["when"], fields):
                continue
            try:
                ops.extend(self._element(element, fields, warnings, component.id))
            except FieldError as error:
                raise self._located(side, origin, f"/{error.key}", str(error), component) from None
        width, height = self.layout.width + 2 * self.bleed, self.layout.height + 2 * self.bleed
        name = f"{component.kind}/{component.id}/{side}"
        return Face(name, width, height, self.bleed, tuple(ops), tuple(warnings))

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

    # ---- elements ------------------------------------------------------

    def _element(self, element: Mapping, fields, warnings, component_id):
        kind = element["type"]
        if kind in ("rect", "line"):
            return [self._rect(element, fields) if kind == "rect" else self._line(element, fields)]
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
            fill=colour(element.get("fill"), fields, "fill"),
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
        )

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
            warnings.append(_overflow(component_id, text, w, h, fitted.size))
        block = len(fitted.lines) * fitted.leading
        valign = valign or element.get("valign", "top")
        top = y + {"top": 0, "middle": (h - block) / 2, "bottom": h - block}[valign]
        ascent = face_font.ascent(fitted.size)
        gap = (fitted.leading - fitted.size) / 2  # half the extra leading above each line
        runs = []
        for index, line in enumerate(fitted.lines):
            width = face_font.width(line, fitted.size)
            offset = {"left": 0, "center": (w - width) / 2, "right": w - width}
            runs.append(
                (
                    x + offset[element.get("align", "left")],
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
        icons = tuple((icon_id, self._inline_icon(icon_id, element)) for icon_id in ids)
        family = self._family(font or element.get("font", DEFAULT_FONT))
        spans = [p for p in pieces if isinstance(p, Span)]
        _glyph_warnings([(s.text, family.pick(s.bold, s.italic)) for s in spans], element,
                        fields, warnings, component_id)  # fmt: skip
        if any(needs_shaping(span.text) for span in spans):
            by_id = dict(icons)
            items: tuple[Item, ...] = tuple(
                IconItem(by_id[p.id]) if isinstance(p, Icon)
                else Styled(p.text, family.pick(p.bold, p.italic)) for p in pieces
            )  # fmt: skip
            return [self._shaped(items, text, element, fields, warnings, component_id, box,
                                 size, valign)]  # fmt: skip
        x, y, w, h = box
        op = RichTextOp(
            x, y, w, h, pieces, icons, family,
            size, element.get("leading", 1.2), element.get("align", "left"),
            valign or element.get("valign", "top"), colour(element.get("colour"), fields, "colour") or BLACK,
        )  # fmt: skip
        fitted, laid = fit_rich(op, element.get("min_size", min(6, size)))
        if not laid.fits:
            warnings.append(_overflow(component_id, text, w, h, fitted.size))
        return [fitted]

    def _shaped(self, items, text, element, fields, warnings, component_id, box, size,
                valign) -> ShapedTextOp:  # fmt: skip
        """Text with right-to-left letters or combining marks: bidi-ordered, shaped lines."""
        x, y, w, h = box
        leading = element.get("leading", 1.2)
        fitted = fit_shaped(items, w, h, size, element.get("min_size", min(6, size)), leading)
        if not fitted.fits:
            warnings.append(_overflow(component_id, text, w, h, fitted.size))
        line_height = fitted.size * leading
        block = len(fitted.lines) * line_height
        valign = valign or element.get("valign", "top")
        top = y + {"top": 0, "middle": (h - block) / 2, "bottom": h - block}[valign]
        first = next(item.font for item in items if isinstance(item, Styled))
        ascent, gap = first.ascent(fitted.size), (line_height - fitted.size) / 2
        align = element.get("align", "left")
        lines = tuple(
            (x + {"left": 0, "center": (w - line.width) / 2, "right": w - line.width}[align],
             top + index * line_height + gap + ascent, line)
            for index, line in enumerate(fitted.lines)
        )  # fmt: skip
        return ShapedTextOp(lines, fitted.size, colour(element.get("colour"), fields) or BLACK)

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

    def _inline_icon(self, icon_id: str, element) -> InlineIcon:
        """The icon `:id:` names: from the element's `icons` collections, or from
        every catalog collection whose components have shapes."""
        names = element.get("icons")
        names = [names] if isinstance(names, str) else names or self._icon_collections()
        for name in names:
            for item in self._collection(name, "icons"):
                if item.get("id") == icon_id:
                    shape, icon_colour = _icon_of(name, item)
                    return InlineIcon(shape, icon_colour)
        known = [str(i.get("id")) for n in names for i in self._collection(n, "icons")]
        match = nearest(icon_id, known)
        hint = f" (did you mean ':{match}:'?)" if match else ""
        raise FieldError(
            "text",
            f"unknown icon ':{icon_id}:'{hint}; icons come "
            f"from {', '.join(names) or 'no collection'} (write \\: for a literal colon)",
        )

    def _icon_collections(self) -> list[str]:
        if not hasattr(self, "_icon_names"):
            self._icon_names = [
                name for name, items in self.catalog.document.items()
                if isinstance(items, list) and items
                and all(isinstance(item, dict) and "shape" in item for item in items)
            ]  # fmt: skip
        return self._icon_names

    def _icon(self, element, fields):
        shape = fill(element["shape"], fields)
        size = parse_length(element["icon_size"])
        fill_colour = colour(element.get("fill"), fields, "fill") or BLACK
        if "from" in element:  # the shape names a component whose icon is drawn
            if not shape:
                return []
            shape, looked_up = self._lookup_icon(element["from"], shape)
            fill_colour = colour(element.get("fill"), fields, "fill") or looked_up
        return [self._shape_op(shape, self._at(element, "x"), self._at(element, "y"), size,
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
            shape, item_colour = self._lookup_icon(element["from"], str(item))
            ops.append(self._shape_op(shape, x, y, size, item_colour, element, fields, "from"))
            if column:
                y += size + gap
            else:
                x += size + gap
        return ops

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

    def _lookup_icon(self, collection: str, item_id: str) -> tuple[str, Colour]:
        key = (collection, item_id)
        if key not in self._icons:
            items = self._collection(collection)
            found = next((c for c in items if c.get("id") == item_id), None)
            self._icons[key] = ("circle", BLACK) if found is None else _icon_of(collection, found)
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
            shape, item_colour = self._lookup_icon(element["from"], str(item[item_key]))
            cx = x + (_position(item, col_key) + 0.5) * cell_w - size / 2
            cy = y + (_position(item, row_key) + 0.5) * cell_h - size / 2
            ops.append(self._shape_op(shape, cx, cy, size, item_colour, element, fields, "from"))
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
            shape, item_colour = self._lookup_icon(source, str(entry.get("id")))
            ops.append(self._shape_op(shape, x, top + (line_h - icon) / 2, icon, item_colour,
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
        try:
            path = self.assets.resolve(label)
        except ValueError as error:  # located at the element's path, naming the component
            raise FieldError("path", str(error)) from None
        box = self._box(element)
        fit = element.get("fit", "contain")
        size, art = self.assets.size(path), self.assets.art(path)
        placed = fitted_image(size, box, fit, element.get("align", "center"),
                              element.get("valign", "middle"))(path, art)  # fmt: skip
        warnings.extend(
            art_warnings(f"{component_id}: image {label!r}", size, art, box, fit, placed)
        )
        return [placed]


PRINT_DPI = 300  # below this a raster picture prints visibly soft


def art_warnings(name: str, size, art: VectorArt | None, box, fit: str, placed: ImageOp):
    """What a designer should hear about a placed picture: stretched out of its
    shape, printing below PRINT_DPI (rasters only: vectors are sharp at any
    size), or an SVG with parts svglib could not draw."""
    found = []
    shape = (
        f"an SVG of {size[0]:g}x{size[1]:g} pt"
        if art is not None
        else f"{size[0]}x{size[1]} pixels"
    )
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


def _overflow(component_id: str, text: str, w: float, h: float, size: float) -> str:
    """The warning for text that does not fit its box even at its minimum size."""
    return (f"{component_id}: text {text[:40]!r} does not fit its "
            f"{to_mm(w):.0f}x{to_mm(h):.0f} mm box even at {size:g} pt")  # fmt: skip


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


def _icon_of(collection: str, found: dict) -> tuple[str, Colour]:
    """The shape and colour a catalog component gives its icon."""
    shape, value = found.get("shape", "circle"), found.get("colour")
    name = f"{collection} {found.get('id')!r}"
    if not isinstance(shape, str):
        raise FieldError("from", f"{name} has shape {_shown(shape)}; expected a shape name")
    if value is not None and not isinstance(value, str):
        raise FieldError("from", f"{name} has colour {_shown(value)}; expected e.g. '#1f77b4'")
    return shape, colour(value, {}, "from") or BLACK


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
    return all(truthy(condition, fields) for condition in conditions)


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

"""Icons on a face: a catalog component's shape or picture, alone, in a row, or inline in text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from protopress.components.suggest import nearest
from protopress.generators.binding import MISSING, fill, single
from protopress.generators.colours import BLACK, Colour
from protopress.generators.face import Contour, Op, PolygonOp
from protopress.generators.face_elements import FieldError, bounded_items, colour, shown
from protopress.generators.face_images import ImageDrawing, fitted_image
from protopress.generators.rich import InlineIcon
from protopress.generators.shapes import outline, scaled

Contours = tuple[Contour, ...]


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
        raise FieldError("from", f"{name} has shape {shown(shape)}; expected a shape name")
    if value is not None and not isinstance(value, str):
        raise FieldError("from", f"{name} has colour {shown(value)}; expected e.g. '#1f77b4'")
    if file is not None and (not isinstance(file, str) or not file):
        raise FieldError("from", f"{name} has icon {shown(file)}; expected an image file's path")
    return IconLook(shape, colour(value, {}, "from") or BLACK, file, name)


class IconDrawing(ImageDrawing):
    """The builder's icons, looked up by id in the catalog's collections."""

    _icons: dict[tuple[str, str], IconLook]  # (collection, id): looked up once per builder
    _outlines: dict[tuple[str, float, float, float], Contours]  # (shape, x, y, size): drawn

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
        size = self._length(element["icon_size"])
        fill_colour = self._colour(element.get("fill"), fields, "fill") or BLACK
        look = IconLook(shape, fill_colour)
        if "from" in element:  # the shape names a component whose icon is drawn
            if not shape:
                return []
            look = self._lookup_icon(element["from"], shape)
            fill_colour = self._colour(element.get("fill"), fields, "fill") or look.colour
        return [self._drawn_icon(look, self._at(element, "x"), self._at(element, "y"), size,
                                 fill_colour, element, fields, "from" if "from" in element else "shape")]  # fmt: skip

    def _icons_row(self, element, fields):
        items = single(element["items"], fields)
        if items is MISSING or not isinstance(items, (list, tuple)):
            return []
        items = bounded_items(items, "items")
        size = self._length(element["icon_size"])
        gap = self._length(element.get("gap", 1))
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
        stroke = self._colour(element.get("stroke"), fields, "stroke")
        return PolygonOp(
            self._outline(shape, x, y, size, key),
            fill=fill_colour,
            stroke=stroke,
            stroke_width=element.get("stroke_width", 0.6 if stroke else 0.0),
        )

    def _outline(self, shape: str, x: float, y: float, size: float, key: str) -> Contours:
        """A shape's outline in the square (x, y, size), computed once per builder: an
        icon sits in the same place on every card of a layout."""
        place = (shape, x, y, size)
        found = self._outlines.get(place)
        if found is None:
            try:
                shape_outline = outline(shape)
            except KeyError as error:
                raise FieldError(key, error.args[0]) from None
            found = tuple(tuple(contour) for contour in scaled(shape_outline, x, y, size))
            self._outlines[place] = found
        return found

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

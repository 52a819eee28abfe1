"""Shapes and gradients on a face: rects, lines, ellipses, regular polygons and stars."""

from __future__ import annotations

from collections.abc import Mapping

from protopress.generators.colours import BLACK, Colour, Gradient
from protopress.generators.face import EllipseOp, LineOp, PolygonOp, RectOp
from protopress.generators.face_elements import ElementDrawing, colour
from protopress.generators.shapes import regular_polygon, star_outline


class ShapeDrawing(ElementDrawing):
    """The builder's shapes: each in the element's box, filled with a colour or a gradient."""

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
                self._length(element["w"]),
                self._length(element["h"]),
            )
        return RectOp(
            *box,
            fill=self._paint(element.get("fill"), fields),
            stroke=self._colour(element.get("stroke"), fields, "stroke"),
            stroke_width=element.get("stroke_width", 0.5 if "stroke" in element else 0.0),
            radius=self._length(element.get("radius", 0)),
        )

    def _line(self, element, fields) -> LineOp:
        return LineOp(
            self._at(element, "x"),
            self._at(element, "y"),
            self._at(element, "x2"),
            self._at(element, "y2"),
            stroke=self._colour(element.get("stroke"), fields, "stroke") or BLACK,
            stroke_width=element.get("stroke_width", 0.5),
            dash=tuple(element.get("dash", ())),
            cap=element.get("cap", "butt"),
        )

    def _figure(self, element, fields) -> EllipseOp | PolygonOp:
        """An ellipse, regular polygon or star inscribed in the element's box."""
        box = self._box(element)
        fill = self._paint(element.get("fill"), fields)
        stroke = self._colour(element.get("stroke"), fields, "stroke")
        width = element.get("stroke_width", 0.5 if "stroke" in element else 0.0)
        if element["type"] == "ellipse":
            return EllipseOp(box[0], box[1], box[2], box[3], fill, stroke, width)
        if element["type"] == "polygon":
            corners = regular_polygon(element["sides"], box)
        else:
            corners = star_outline(element["points"], element.get("inner", 0.5), box)
        return PolygonOp((corners,), fill, stroke, width)

    def _paint(self, value, fields) -> Colour | Gradient | None:
        """paint(), a colour written in the layout parsed once per builder."""
        return (
            paint(value, fields)
            if isinstance(value, Mapping)
            else self._colour(value, fields, "fill")
        )

    def _clip_shape(self, element, box) -> RectOp | EllipseOp | PolygonOp:
        """The shape an image is cut to, in its box: an ellipse, a polygon (sides), a
        star (points, inner) or a rect (rounded by radius)."""
        shape = element["clip"]
        if shape == "rect":
            return RectOp(
                box[0], box[1], box[2], box[3], radius=self._length(element.get("radius", 0))
            )
        return self._figure({**element, "type": shape, "fill": None, "stroke": None}, {})


def paint(value, fields) -> Colour | Gradient | None:
    """A shape's fill: a colour, or a gradient ({"linear": [...], "angle": 90} or
    {"radial": [...]}, each colour a name, #rrggbb or a {field})."""
    if not isinstance(value, Mapping):
        return colour(value, fields, "fill")
    kind = "linear" if "linear" in value else "radial"
    colours = tuple(colour(c, fields, "fill") or BLACK for c in value[kind])
    stops = tuple(value["stops"]) if "stops" in value else None
    return Gradient(kind, colours, stops, float(value.get("angle", 0)))

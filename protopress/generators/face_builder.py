"""Builds a face: walks a layout's elements, each drawn by the layer of its concern."""

from __future__ import annotations

from collections.abc import Mapping

from protopress.components.explain import Located
from protopress.components.loader import locate_in_file
from protopress.components.problems import InvalidInput, Problem
from protopress.generators.assets import AssetPolicy
from protopress.generators.conditions import holds
from protopress.generators.expand import LayoutProblem, Origin
from protopress.generators.face import Face, GroupOp, ImageOp, Op, PolygonOp
from protopress.generators.face_elements import FieldError
from protopress.generators.face_tables import TableDrawing

_GROUPED = frozenset({"opacity", "rotate"})  # keys that draw an element as a GroupOp


class FaceProblem(InvalidInput[Problem], ValueError):
    """A component's face cannot be drawn: a problem located at its element in the
    layout (file, line, pointer), naming the component. A ValueError too, so that
    what shows a face beside its problems (the local pages) shows this one."""


class FaceBuilder(TableDrawing):
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
        self._missing = []
        self._icons = {}
        self._origin = None
        self._positions = {}
        self._lengths = {}
        self._fonts = {}
        self._colours = {}
        self._outlines = {}
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


def _holds(when, fields) -> bool:
    """A `when`: one condition, or a list of conditions that must all hold."""
    conditions = [when] if isinstance(when, str) else when
    return all(holds(condition, fields) for condition in conditions)


def _corners(op: Op) -> list[tuple[float, float]]:
    """The points that bound an icon's drawing: a shape's corners, a picture's box."""
    if isinstance(op, PolygonOp):
        return [point for contour in op.contours for point in contour]
    if isinstance(op, ImageOp):
        return [(op.x, op.y), (op.x + op.w, op.y + op.h)]
    return []


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

"""Tables, grids, markers and legends on a face: elements that lay out many cells."""

from __future__ import annotations

from protopress.generators.binding import MISSING, fill, single, truthy
from protopress.generators.face import LineOp, Op, RectOp
from protopress.generators.face_elements import FieldError, bounded_items, count, shown
from protopress.generators.face_text import TextDrawing
from protopress.generators.fonts import DEFAULT_FONT


class TableDrawing(TextDrawing):
    """The builder's elements of many cells, each cell's text and icons drawn as the
    text and icon elements draw theirs."""

    def _grid(self, element, fields):
        """A grid of rows x columns cells (score sheets, blueprints)."""
        rows = count(element["rows"], fields, "rows")
        columns = count(element["columns"], fields, "columns")
        if not rows or not columns:
            return []
        x, y, w, h = self._box(element)
        stroke, width = self._stroke(element, fields)
        ops: list[Op] = (
            [RectOp(x, y, w, h, fill=self._colour(element.get("fill"), fields, "fill"))]
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
            raise FieldError("labels", f"expected a list of row labels, found {shown(labels)}")
        labels = bounded_items(labels, "labels")
        total = element.get("total", True)
        if isinstance(total, str):
            total = truthy(total.strip("{}"), fields)
        rows = [""] + [str(label) for label in labels] + (["Total"] if total else [])
        x, y, w, h = self._box(element)
        label_width = self._length(element["label_width"]) if "label_width" in element else w * 0.4
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
            self._length(element["icon_size"])
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
            raise FieldError("items", f"expected a list of ids, found {shown(wanted)}")
        if not chosen:
            return []
        chosen = bounded_items(chosen, "from")
        x, y, w, h = self._box(element)
        line_h = (
            self._length(element["line_height"]) if "line_height" in element else h / len(chosen)
        )
        icon = min(self._length(element.get("icon_size", 6)), line_h * 0.9)
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


def _position(item: dict, key: str) -> float:
    """A marker's row or column: a number (0 when absent)."""
    value = item.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FieldError(
            "items", f"expected a number for {key!r} of a marker, found {shown(value)}"
        )
    return value

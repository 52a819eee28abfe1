"""From a kind's JSON Schema to columns and cells: what each header means and how
each cell's text becomes a value of the field's type (and back)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protopress.components.declared import DeclaredKind, kind_schema
from protopress.components.loader import (
    parse_json_text,
)
from protopress.components.schemas import (
    Kind,
    kinds,
    schema_documents,
)
from protopress.components.suggest import did_you_mean, nearest
from protopress.designer.table_files import (
    EMPTY_TEXT,
    JSON_NUMBER,
    JSON_SUFFIX,
    LIST_SUFFIX,
    InvalidTable,
    Row,
    Table,
    TableError,
    TableProblem,
    cell_text,
    column_letter,
    is_empty,
)

INTEGER = re.compile(r"[-+]?\d+")
JSON_INTEGER = re.compile(r"-?(?:0|[1-9]\d*)")
SAFE_KEY = re.compile(r"[^.\s:\[\]]+")  # a key that can be a segment of a dotted header
TRUE_WORDS = {"true", "yes", "1"}
FALSE_WORDS = {"false", "no", "0"}
MAX_DIGITS = 4300  # the longest integer text int() converts (sys.get_int_max_str_digits)

# --------------------------------------------------------------------------
# Walking the kind's schema


@dataclass(frozen=True)
class SchemaNode:
    """A subschema and the file its local $refs resolve in."""

    schema: object
    file: str


FREE_NODE = SchemaNode(True, "")


def _resolve(node: SchemaNode) -> SchemaNode:
    for _ in range(32):
        schema = node.schema
        if not (isinstance(schema, dict) and "$ref" in schema):
            return node
        file, _, fragment = schema["$ref"].partition("#")
        file = file or node.file
        target = schema_documents()[file]
        for token in filter(None, fragment.split("/")):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = SchemaNode(target, file)
    return node


def _types(schema: object) -> set[str] | None:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind is None:
        return None
    return {kind} if isinstance(kind, str) else set(kind)


def _is_structure(node: SchemaNode) -> bool:
    """An object or a list: a value that holds other values."""
    types = _types(_resolve(node).schema)
    return bool(types and types <= {"object", "array"})


def holds_structures(node: SchemaNode) -> bool:
    """An object, or a list of objects or lists: its cell is JSON text."""
    node = _resolve(node)
    schema = node.schema
    types = _types(schema)
    if types == {"object"}:
        return True
    return (
        types == {"array"}
        and isinstance(schema, dict)
        and _is_structure(SchemaNode(schema.get("items", True), node.file))
    )


def _name_allowed(key: str, names: SchemaNode) -> bool:
    schema = _resolve(names).schema
    if not isinstance(schema, dict):
        return schema is not False
    if "enum" in schema and key not in schema["enum"]:
        return False
    return not ("pattern" in schema and not re.search(schema["pattern"], key))


def child_node(node: SchemaNode, key: str) -> SchemaNode | None:
    """The schema of property key of an object node; None when it cannot exist."""
    node = _resolve(node)
    schema = node.schema
    if schema is False:
        return None
    if not isinstance(schema, dict):
        return FREE_NODE
    types = _types(schema)
    if types is not None and "object" not in types:
        return None
    properties = schema.get("properties", {})
    if key in properties:
        return SchemaNode(properties[key], node.file)
    for pattern, sub in schema.get("patternProperties", {}).items():
        if re.search(pattern, key):
            return SchemaNode(sub, node.file)
    if "propertyNames" in schema and not _name_allowed(
        key, SchemaNode(schema["propertyNames"], node.file)
    ):
        return None
    extra = schema.get("additionalProperties", True)
    if extra is False:
        return None
    return FREE_NODE if extra is True else SchemaNode(extra, node.file)


def known_names(node: SchemaNode) -> list[str]:
    """Property names an object node declares (for did-you-mean)."""
    node = _resolve(node)
    schema = node.schema if isinstance(node.schema, dict) else {}
    names = list(schema.get("properties", {}))
    if "propertyNames" in schema:
        enum = _resolve(SchemaNode(schema["propertyNames"], node.file)).schema
        if isinstance(enum, dict):
            names += [name for name in enum.get("enum", []) if isinstance(name, str)]
    return names


def kind_node(kind: Kind) -> SchemaNode:
    """The schema of one component of kind: a built-in schema file, or the one a
    catalog's declaration gives (its $refs name built-in files only)."""
    if isinstance(kind, DeclaredKind):
        return SchemaNode(kind_schema(kind, {}), kind.schema_file)
    return SchemaNode(schema_documents()[kind.schema_file], kind.schema_file)


def resolve_kind(kind: str, declared: Mapping[str, DeclaredKind] | None = None) -> Kind:
    """A kind by its name (room-tile) or its collection (room_tiles): a built-in one or
    one the catalog declares (declared); TableError if unknown."""
    known = {**kinds(), **(declared or {})}
    if kind in known:
        return known[kind]
    for candidate in known.values():
        if candidate.collection == kind:
            return candidate
    hint = did_you_mean(kind, known)
    if not declared:
        hint += "; a kind a catalog declares is known when the catalog is given (-o)"
    raise TableError(f"unknown kind {kind!r}{hint}")


# --------------------------------------------------------------------------
# Converting cells


class BadCell(Exception):
    """A cell that cannot be converted; the message says what was expected."""


class _NoMatch(BadCell):
    """A value outside an enum: kept as it is, so the schema explains it (with did-you-mean)."""

    def __init__(self, fallback: object) -> None:
        super().__init__("no match")
        self.fallback = fallback


def _found(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _expected(what: str, value: object) -> BadCell:
    return BadCell(f"expected {what}, found {_found(value)}")


def _integer(value: object) -> int:
    if isinstance(value, bool):
        raise _expected("an integer", value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise _expected("an integer", value)
    text = cell_text(value)
    if INTEGER.fullmatch(text):
        return _whole(text, "an integer")
    if JSON_NUMBER.fullmatch(text) and math.isfinite(float(text)) and float(text).is_integer():
        return int(float(text))
    raise _expected("an integer", value)


def _whole(text: str, what: str) -> int:
    """int(text) for a text of digits; BadCell past the digits Python converts."""
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise BadCell(f"expected {what}, found a number of {digits} digits")
    return int(text)


def _number(value: object) -> int | float:
    if isinstance(value, bool):
        raise _expected("a number", value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise _expected("a number", value)
    text = cell_text(value)
    if INTEGER.fullmatch(text):
        return _whole(text, "a number")
    if JSON_NUMBER.fullmatch(text.lstrip("+")) and math.isfinite(float(text)):
        return float(text)
    raise _expected("a number", value)


def _boolean(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = cell_text(value).lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise _expected("true or false", value)


def _string(value: object) -> str:
    text = cell_text(value)
    return "" if text == EMPTY_TEXT else text


def _free(value: object) -> str | int | float | bool:
    """A field the schema leaves open: numbers and true/false convert, the rest is text."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else cell_text(value)
    text = cell_text(value)
    if text == EMPTY_TEXT:
        return ""
    if JSON_INTEGER.fullmatch(text) and len(text.lstrip("-")) <= MAX_DIGITS:
        return int(text)
    if JSON_NUMBER.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _json(value: object) -> Any:
    if isinstance(value, bool | int) or (isinstance(value, float) and math.isfinite(value)):
        return value  # an xlsx number or boolean is already a JSON value
    if not isinstance(value, str):  # a date or time cell
        raise _expected("JSON text", value)
    try:
        return parse_json_text(value)
    except json.JSONDecodeError as error:
        raise BadCell(f"invalid JSON: {error.msg} (character {error.pos + 1})") from None
    except ValueError as error:  # nested too deeply
        raise BadCell(str(error)) from None


def _enum(value: object, options: list[object]) -> object:
    for option in options:  # the very value, type included (1 is not True)
        if type(option) is type(value) and option == value:
            return option
    text = cell_text(value)
    for option in options:
        if cell_text(option) == text:
            return option
    if INTEGER.fullmatch(text) and len(text) <= MAX_DIGITS and any(type(o) is int for o in options):
        raise _NoMatch(int(text))
    raise _NoMatch(text)


def _list(value: object, items: SchemaNode) -> list[Any]:
    text = cell_text(value)
    if text.startswith("["):
        parsed = _json(text)
        if not isinstance(parsed, list):
            raise _expected("a list", value)
        return parsed
    if _is_structure(items):
        raise _expected("a list written as JSON, such as [{...}]", value)
    parts = [part.strip() for part in text.split("+")]
    if len(parts) > 1 and not all(parts):
        raise BadCell(f"an empty item in the list {_found(text)} (items are joined by '+')")
    result = []
    for number, part in enumerate(parts, start=1):
        try:
            result.append(_by_schema(part, items))
        except _NoMatch as no_match:
            result.append(no_match.fallback)
        except BadCell as bad:
            where = f" (item {number} of {_found(text)})" if len(parts) > 1 else ""
            raise BadCell(f"{bad}{where}") from None
    return result


def _object(value: object) -> Any:
    text = cell_text(value)
    if not text.startswith("{"):
        raise _expected('an object written as JSON, such as {"key": 1}', value)
    return _json(text)


def _by_schema(value: object, node: SchemaNode) -> object:
    """The cell value converted to what the schema expects (raises BadCell, _NoMatch)."""
    node = _resolve(node)
    schema = node.schema
    if not isinstance(schema, dict):
        return _free(value)
    if "const" in schema:
        return _enum(value, [schema["const"]])
    if "enum" in schema:
        return _enum(value, schema["enum"])
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            return _any(value, [SchemaNode(option, node.file) for option in schema[keyword]])
    types = _types(schema)
    if types is None or len(types) != 1:
        return _free(value)
    (kind,) = types
    if kind == "integer":
        return _integer(value)
    if kind == "number":
        return _number(value)
    if kind == "boolean":
        return _boolean(value)
    if kind == "array":
        return _list(value, SchemaNode(schema.get("items", True), node.file))
    if kind == "object":
        return _object(value)
    if kind == "null":
        return _enum(value, [None])
    return _string(value)


def _any(value: object, options: list[SchemaNode]) -> object:
    no_match, failures = None, []
    for option in options:
        try:
            return _by_schema(value, option)
        except _NoMatch as error:
            no_match = no_match or error
        except BadCell as error:
            failures.append(str(error))
    if no_match is not None:
        raise no_match
    expected = [f.removeprefix("expected ").rsplit(", found ", 1)[0] for f in failures]
    raise _expected(" or ".join(expected), value)


# --------------------------------------------------------------------------
# Columns


@dataclass(frozen=True)
class Column:
    index: int
    header: str
    path: tuple[str, ...]
    mode: str  # "auto" (by the schema), "list" (header ends with []), "json" (:json)
    node: SchemaNode

    @property
    def field(self) -> str:
        return ".".join(self.path)


def _parse_header(header: str) -> tuple[str, str]:
    if header.endswith(JSON_SUFFIX):
        return header[: -len(JSON_SUFFIX)].strip(), "json"
    if header.endswith(LIST_SUFFIX):
        return header[: -len(LIST_SUFFIX)].strip(), "list"
    return header, "auto"


def _column(index: int, header: str, root: SchemaNode, kind: Kind) -> Column | str:
    """The column a header names, or a message saying why it cannot be one."""
    base, mode = _parse_header(header)
    path = tuple(segment.strip() for segment in base.split("."))
    if not all(path):
        return f"{header!r} is not a field name (dotted headers look like doors.N.cost)"
    node = root
    for depth, segment in enumerate(path):
        child = child_node(node, segment)
        if child is None:
            parent = ".".join(path[:depth])
            types = _types(_resolve(node).schema)
            if parent and types is not None and "object" not in types:
                return f"unknown column {header!r}: {parent!r} is not an object, so {base!r} is not a field"
            names = known_names(node)
            match = nearest(segment, names)
            hint = f" (did you mean {'.'.join((*path[:depth], match))!r}?)" if match else ""
            if not match and 0 < len(names) <= 12:
                hint = "; expected " + ", ".join(repr(name) for name in names)
            where = f"{parent!r}" if parent else f"a {kind.name}"
            return f"unknown column {header!r}: {segment!r} is not a field of {where}{hint}"
        node = child
    return Column(index, header, path, mode, node)


def _columns(table: Table, kind: Kind) -> tuple[list[Column], list[TableProblem], set[str]]:
    """The table's columns, header problems, and the required fields it has no column for.

    A missing required column is not a header problem: table_to_components
    converts what is there, import_table reports it once (not on every row).
    """
    root = kind_node(kind)
    columns, problems = [], []
    seen: dict[tuple, Column] = {}
    for index, header in enumerate(table.header):
        if not header:
            if any(not is_empty(row.values[index]) for row in table.rows):
                problems.append(
                    table.problem(table.header_row, index, "this column has values but no header")
                )
            continue
        column = _column(index, header, root, kind)
        if isinstance(column, str):
            problems.append(table.problem(table.header_row, index, column))
            continue
        if column.path in seen:
            first = seen[column.path]
            problems.append(
                table.problem(
                    table.header_row,
                    index,
                    f"column {header!r} repeats column {column_letter(first.index)}",
                )
            )
            continue
        seen[column.path] = column
        columns.append(column)
    for column in columns:
        for other in columns:
            if len(other.path) < len(column.path) and column.path[: len(other.path)] == other.path:
                problems.append(
                    table.problem(
                        table.header_row,
                        column.index,
                        f"column {column.header!r} sets part of column {other.header!r} "
                        f"({column_letter(other.index)}); keep one of them",
                    )
                )
    present = {column.path[0] for column in columns}
    root_schema = _resolve(root).schema
    required = (
        root_schema.get("required", []) if table.header and isinstance(root_schema, dict) else []
    )
    missing = {name for name in required if name not in present}
    return columns, problems, missing


def convert_cell(value: object, column: Column) -> object:
    if column.mode == "json":
        return _json(value)
    node = column.node
    if column.mode == "list":
        resolved = _resolve(node)
        schema = resolved.schema
        items = (
            SchemaNode(schema.get("items", True), resolved.file)
            if isinstance(schema, dict) and _types(schema) == {"array"}
            else FREE_NODE
        )
        return _list(value, items)
    try:
        return _by_schema(value, node)
    except _NoMatch as no_match:
        return no_match.fallback


def cell_value(value: object) -> object:
    """A cell value with surrounding whitespace removed from text."""
    return value.strip() if isinstance(value, str) else value


def _ordered(item: dict, kind: Kind) -> dict:
    """id, count, then the schema's property order, then the other fields as given."""
    order = dict.fromkeys(["id", "count", *known_names(kind_node(kind))])
    rank = {name: position for position, name in enumerate(order)}
    return dict(sorted(item.items(), key=lambda pair: rank.get(pair[0], len(rank))))


@dataclass
class Converted:
    components: list[dict]
    rows: list[Row]  # the row of each component
    columns: list[Column]
    problems: list[TableProblem]
    missing: set[str]  # required fields without a column
    bad_cells: set[tuple[int, int]]  # (row, column) that could not be converted


def convert_table(table: Table, kind: Kind) -> Converted:
    columns, problems, missing = _columns(table, kind)
    if not table.header:
        problems.append(table.problem(1, 0, "the table is empty: expected a header row"))
    components, rows, bad = [], [], set()
    for row in table.rows:
        item: dict = {}
        for column in columns:
            value = cell_value(row.values[column.index])
            if is_empty(value):
                continue
            try:
                converted = convert_cell(value, column)
            except BadCell as error:
                problems.append(table.problem(row.number, column.index, str(error)))
                bad.add((row.number, column.index))
                continue
            target = item
            for key in column.path[:-1]:
                target = target.setdefault(key, {})
                if not isinstance(target, dict):  # a header conflict, reported already
                    break
            else:
                target[column.path[-1]] = converted
        components.append(_ordered(item, kind))
        rows.append(row)
    return Converted(components, rows, columns, problems, missing, bad)


def table_to_components(table: Table, kind: str) -> list[dict]:
    """One component per non-empty row, each cell converted by the kind's schema.

    Raises InvalidTable with every header and conversion problem at once.
    Whether the components are valid (ranges, references, required fields) is
    import_table's business.
    """
    converted = convert_table(table, resolve_kind(kind))
    if converted.problems:
        raise InvalidTable(converted.problems)
    return converted.components

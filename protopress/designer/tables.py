"""Spreadsheets to catalogs and back.

A designer keeps a deck in a spreadsheet: one row per component, one column
per field. `import_table` turns a .csv or .xlsx table into a catalog
collection, converting each cell by the kind's JSON Schema and reporting every
problem at its cell (`cards.xlsx:Sheet1!D14: expected an integer, found 'two'`);
`export_table` writes a collection back as a table, so that importing it again
gives exactly the same components. The table format is described in
docs/spreadsheets.md.

openpyxl (the `excel` extra) is imported only when an .xlsx file is read or
written; CSV needs nothing beyond the standard library.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protopress.atomic import write_atomic
from protopress.components.catalog import Catalog
from protopress.components.declared import DeclaredKind, all_kinds, declared_kinds
from protopress.components.loader import (
    Syntax,
    catalog_findings,
    locate,
    parse_source_file,
)
from protopress.components.problems import InvalidInput, Problem, printable
from protopress.components.schemas import (
    CATALOG_SCHEMA,
    Kind,
    schema_documents,
)
from protopress.designer.table_cells import (
    FREE_NODE,
    SAFE_KEY,
    BadCell,
    Column,
    Converted,
    SchemaNode,
    cell_value,
    child_node,
    convert_cell,
    convert_table,
    holds_structures,
    kind_node,
    known_names,
    resolve_kind,
)
from protopress.designer.table_files import (
    EMPTY_TEXT,
    EXACT_FLOAT_INT,
    EXCEL_SUFFIXES,
    JSON_SUFFIX,
    LIST_SUFFIX,
    NEW_CATALOG_SCHEMA,
    NEW_CATALOG_VERSION,
    TABLE_SUFFIXES,
    InvalidTable,
    Row,
    Table,
    TableError,
    TableProblem,
    cell_text,
    column_letter,
    is_empty,
    no_excel,
    openpyxl_module,
    quote_formula,
    read_table,
)
from protopress.designer.table_url import fetched_table_file, is_url
from protopress.files import read_text_again

# --------------------------------------------------------------------------
# Importing into a catalog


def _slug(stem: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[:64].strip("-")
    return slug or "my-game"


def _title(stem: str) -> str:
    # a file name's bytes that are not UTF-8 come as surrogate escapes: show them as U+FFFD
    stem = stem.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    words = re.sub(r"[-_\s]+", " ", stem).strip()
    return (words[:1].upper() + words[1:] if words else "My Game")[:80]


def new_catalog(stem: str, schema: str | None = NEW_CATALOG_SCHEMA) -> dict:
    """An empty catalog named after a file stem, naming schema (for an editor) unless None."""
    return {
        **({"$schema": schema} if schema is not None else {}),
        "game": _slug(stem),
        "title": _title(stem),
        "version": NEW_CATALOG_VERSION,
    }


def _place(document: dict, collection: str, components: list[dict]) -> dict:
    """document with collection set to components, in catalog order when it is new."""
    if collection in document:
        return {key: components if key == collection else value for key, value in document.items()}
    order = list(schema_documents()[CATALOG_SCHEMA]["properties"])
    if collection not in order:  # a declared kind's: after everything
        return {**document, collection: components}
    rank = order.index(collection)
    result, placed = {}, False
    for key, value in document.items():
        if not placed and key in order and order.index(key) > rank:
            result[collection] = components
            placed = True
        result[key] = value
    if not placed:
        result[collection] = components
    return result


def catalog_text(document: Mapping, syntax: Syntax = Syntax.JSON) -> str:
    """The catalog file's text: indented JSON, or YAML (for a .yaml or .yml target)."""
    if syntax is Syntax.YAML:
        from protopress.components.yamltext import yaml_text

        return yaml_text(document)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


class _CellMap:
    """Finds the cell of a JSON pointer inside the imported collection."""

    def __init__(self, table: Table, converted: Converted, collection: str):
        self.table = table
        self.converted = converted
        self.collection = collection
        self.id_column = next((c for c in converted.columns if c.path == ("id",)), None)

    def row_of(self, tokens: list[str]) -> Row | None:
        if len(tokens) < 2 or tokens[0] != self.collection or not tokens[1].isdigit():
            return None
        index = int(tokens[1])
        rows = self.converted.rows
        return rows[index] if index < len(rows) else None

    def column_of(self, rest: list[str], message: str) -> tuple[Column | None, list[str]]:
        columns = self.converted.columns
        best = max(
            (c for c in columns if tuple(rest[: len(c.path)]) == c.path),
            key=lambda c: len(c.path),
            default=None,
        )
        if best is not None:
            return best, rest[len(best.path) :]
        required = re.match(r"missing required property '([^']*)'", message)
        if required:
            wanted = (*rest, required.group(1))
            for column in columns:
                if column.path[: len(wanted)] == wanted:
                    return column, []
        for column in columns:
            if column.path[: len(rest)] == tuple(rest):
                return column, []
        return self.id_column, []

    def address_of(self, pointer: str) -> str | None:
        """The cell address of a pointer (for messages that mention other components)."""
        tokens = _tokens(pointer)
        row = self.row_of(tokens)
        if row is None:
            return None
        column, _ = self.column_of(tokens[2:], "")
        return self.table.address(row.number, column.index if column else None)

    def header_problem(self, problem: Problem) -> TableProblem | None:
        """A problem of one field of the imported collection at its column's header
        (`cards.csv!C1`: a name typed wrong there is wrong in every row), else None."""
        tokens = _tokens(problem.pointer)
        if len(tokens) != 3 or self.row_of(tokens) is None:
            return None
        column = next((c for c in self.converted.columns if c.path[:1] == (tokens[2],)), None)
        if column is None:
            return None
        return self.table.problem(self.table.header_row, column.index, problem.message,
                                  problem.pointer)  # fmt: skip

    def problem(self, pointer: str, message: str) -> TableProblem | None:
        tokens = _tokens(pointer)
        if not tokens or tokens[0] != self.collection:
            return None
        message = re.sub(
            rf"/{re.escape(self.collection)}/\d+(?:/[^\s)'\"]*)?",
            lambda match: self.address_of(match.group(0)) or match.group(0),
            message,
        )
        if len(tokens) == 1:
            return self.table.problem(None, None, message, pointer)
        row = self.row_of(tokens)
        if row is None:
            return self.table.problem(None, None, message, pointer)
        rest = tokens[2:]
        column, inner = self.column_of(rest, message)
        if column is None:
            return self.table.problem(row.number, None, message, pointer)
        if (row.number, column.index) in self.converted.bad_cells:
            return None  # the conversion problem of this cell says it already
        required = re.match(r"missing required property '([^']*)'", message)
        if not rest and required and required.group(1) in self.converted.missing:
            return None  # reported once, at the header
        if inner and (column.mode == "json" or holds_structures(column.node)):
            message = f"{''.join('/' + t for t in inner)}: {message}"
        return self.table.problem(row.number, column.index, message, pointer)


def imported_count(document: Mapping, kind: str) -> int:
    """How many components of kind a document from import_table holds: the
    table's rows, whatever other collections come before it in the catalog."""
    return len(document.get(resolve_kind(kind, declared_kinds(document)).collection) or [])


Review = Callable[[Catalog], Sequence[Problem]]  # what the layouts say of the imported catalog


@dataclass(frozen=True)
class Imported:
    """A table imported into a catalog document, and what the review said of it:
    problems in the kind's collection at their cells (a field no layout uses at its
    column's header), the rest where they are (a layout's binding, in the layout)."""

    document: dict
    review: list[TableProblem | Problem]


def import_table(
    path: Path | str,
    kind: str,
    sheet: str | None = None,
    output: Path | str | None = None,
    display: str | None = None,
) -> dict:
    """The catalog document of import_reviewed, without a review."""
    return import_reviewed(path, kind, sheet, output, display).document


def import_reviewed(
    path: Path | str,
    kind: str,
    sheet: str | None = None,
    output: Path | str | None = None,
    display: str | None = None,
    review: Review | None = None,
    *,
    record: bool = False,
    origin: str | None = None,
) -> Imported:
    """The catalog document with the table's components as the kind's collection.

    path is a .csv or .xlsx file, or an http(s) address of one (see table_url.py;
    FetchError when it cannot be fetched).

    When output is an existing catalog, only that kind's collection is replaced
    (or added); otherwise a new catalog is named after output's file stem (or
    the table's). The document is validated like any catalog: problems inside
    the collection are reported at their cells, the rest at the catalog's
    file:line. With output, the catalog is written atomically, and only when
    valid. Raises InvalidTable, InvalidInput (output is not a catalog), TableError.

    review (e.g. the layouts' field checks) is given the valid catalog; what it
    finds is located at the table's cells where it can be, and never stops the import.
    With record, the catalog names the table as the kind's source (`sources`, for
    watch and preview to follow; origin: the address a fetched table came from) and,
    when it names none, the `layouts` folder beside it.
    """
    if isinstance(path, str) and is_url(path):
        with fetched_table_file(path) as local:
            shown = display or printable(path)
            return import_reviewed(local, kind, sheet, output, shown, review, record=record,
                                   origin=path)  # fmt: skip
    path = Path(path)
    target = Path(output) if output is not None else None
    base, source, syntax = _base_catalog(target, path)
    kind_ = resolve_kind(kind, declared_kinds(base))
    table = read_table(path, sheet, display)
    converted = convert_table(table, kind_)
    problems: list[TableProblem | Problem] = list(converted.problems)
    problems += [
        table.problem(table.header_row, None, f"no {name!r} column: every {kind_.name} needs one")
        for name in converted.missing
    ]
    if not table.header or "id" in converted.missing:
        raise InvalidTable(problems)

    document = _place(base, kind_.collection, converted.components)
    if record and target is not None:
        document = _recorded(document, target, kind_.name, origin or path, sheet)
    text = catalog_text(document, syntax)
    if source is None:
        source = _Written(str(target or f"{_slug((target or path).stem)}.json"), text)

    findings = catalog_findings(document)
    cells = _CellMap(table, converted, kind_.collection)
    elsewhere = []
    for finding in findings:
        if _tokens(finding.pointer)[:1] == [kind_.collection]:
            problem = cells.problem(finding.pointer, finding.message)
            if problem is not None:
                problems.append(problem)
        else:
            elsewhere.append(finding)
    problems += locate(source.name, source.text, elsewhere, syntax)
    if problems:
        raise InvalidTable(problems)
    if target is not None:
        write_atomic(target, text.encode("utf-8"))
    found: list[TableProblem | Problem] = []
    if review is not None and target is not None:
        declared = declared_kinds(document)
        catalog = Catalog.from_document(target, document, all_kinds(declared), declared)
        found = [cells.header_problem(p) or p for p in review(catalog)]
    return Imported(document, found)


LAYOUTS_FOLDER = "layouts"  # the folder `protopress new` writes the layouts to


def _recorded(
    document: dict, target: Path, kind: str, table: Path | str, sheet: str | None
) -> dict:
    """document naming the table as kind's source, relative to the catalog (a table
    outside the catalog's folder, or one sheet of several, is not named: watch could
    not follow it), and the layouts folder beside the catalog if it names none."""
    added: dict = {}
    if "layouts" not in document and (target.parent / LAYOUTS_FOLDER).is_dir():
        added["layouts"] = LAYOUTS_FOLDER
    if isinstance(table, str) and is_url(table):
        written: str | None = table
    else:
        folder, found = target.parent.resolve(), Path(table).resolve()
        inside = found.is_relative_to(folder) and sheet is None
        written = found.relative_to(folder).as_posix() if inside else None
    if written is not None:
        added["sources"] = {**(document.get("sources") or {}), kind: written}
    if "sources" in document or not added:
        return {**document, **added}
    # new keys go with the catalog's own settings, before its components
    head = [key for key in document if key in _SETTINGS]
    at = list(document).index(head[-1]) + 1 if head else 0
    items = list(document.items())
    return dict(items[:at] + list(added.items()) + items[at:])


_SETTINGS = ("$schema", "game", "title", "version", "description", "layouts")


@dataclass(frozen=True)
class _Written:
    """A catalog's text and the name its problems are located in."""

    name: str
    text: str


def _base_catalog(
    target: Path | None, table: Path
) -> tuple[dict[str, Any], _Written | None, Syntax]:
    """The catalog import_table adds to (the existing target's, else a new one), the
    target as written when it exists, and how the target is written."""
    source = None
    syntax = Syntax.of(target) if target is not None else Syntax.JSON
    if target is not None and target.exists():
        source_name = str(target)
        if syntax is Syntax.YAML:
            message = (
                "import rewrites the whole catalog and would drop this YAML file's comments: "
                "import into a new file (.yaml or .json) instead"
            )
            raise InvalidInput([Problem(source_name, 1, 1, "", message)])
        base = parse_source_file(target, source_name)
        if not isinstance(base, dict):
            raise InvalidInput(
                [Problem(source_name, 1, 1, "", "expected a catalog (a JSON object)")]
            )
        source = _Written(source_name, read_text_again(target))
    else:
        base = new_catalog((target or table).stem, _schema_beside(target))
    return base, source, syntax


def _schema_beside(target: Path | None) -> str | None:
    """The $schema of a new catalog written to target: the catalog schema in a schemas
    folder beside it, if one is there (`protopress new` and `protopress schema
    --output-dir schemas` write them); else none, for a $schema must name a file."""
    if target is None or not (target.parent / NEW_CATALOG_SCHEMA).is_file():
        return None
    return NEW_CATALOG_SCHEMA


# --------------------------------------------------------------------------
# Exporting


def _is_scalar(value: object) -> bool:
    return isinstance(value, str | int | float | bool) and not (
        isinstance(value, float) and not math.isfinite(value)
    )


def _stored(value: object, excel: bool) -> object:
    """What reading the cell back gives (before conversion)."""
    if not excel:
        return value
    if isinstance(value, str):
        return value.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(value, float) and value.is_integer() and abs(value) < EXACT_FLOAT_INT:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > EXACT_FLOAT_INT:
        return float(value)
    return value


def _same(a: object, b: object) -> bool:
    """Equal as JSON, types included (1, 1.0 and true differ)."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError):
        return False


def _item_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _candidates(value: object, excel: bool) -> list[object]:
    """Cell values that may stand for value, the most natural first."""
    if isinstance(value, str):
        return [value if value else EMPTY_TEXT]
    if isinstance(value, bool):
        return [value] if excel else [_item_text(value)]
    if isinstance(value, int | float):
        return [value, _item_text(value)] if excel else [_item_text(value)]
    if isinstance(value, list):
        found: list[object] = []
        if value and all(_is_scalar(item) for item in value):
            found.append("+".join(_item_text(item) for item in value))
        found.append(json.dumps(value, ensure_ascii=False))
        return found
    return [json.dumps(value, ensure_ascii=False)]


def _encode(value: object, column: Column, excel: bool) -> object:
    """The cell for value in column, or None when the column cannot hold it."""
    candidates = (
        [json.dumps(value, ensure_ascii=False)]
        if column.mode == "json"
        else _candidates(value, excel)
    )
    for candidate in candidates:
        stored = cell_value(_stored(candidate, excel))
        if is_empty(stored):
            continue
        try:
            if _same(convert_cell(stored, column), value):
                return candidate
        except BadCell:
            continue
    return None


def _flattens(values: list) -> bool:
    return bool(values) and all(
        isinstance(v, dict) and v and all(SAFE_KEY.fullmatch(k) for k in v) for v in values
    )


def _key_order(values: list[dict], node: SchemaNode, first: tuple[str, ...] = ()) -> list[str]:
    order = list(first) + known_names(node)
    seen = {key for value in values for key in value}
    keys = [key for key in dict.fromkeys(order) if key in seen]
    for value in values:
        keys += [key for key in value if key not in keys]
    return keys


@dataclass(frozen=True)
class _Leaf:
    """One column of an export, nested objects flattened: where its values are, their
    schema, and per component the value and whether the component has one."""

    path: tuple[str, ...]
    node: SchemaNode
    values: list[object]
    present: list[bool]


def _leaves(
    items: Sequence[dict | None],
    node: SchemaNode,
    prefix: tuple[str, ...],
    first: tuple[str, ...] = (),
) -> list[_Leaf]:
    """A leaf for every column.

    items holds one dict per component (None where the component lacks this
    object); a leaf's values and present say, per component, what its cell holds.
    """
    result: list[_Leaf] = []
    for key in _key_order([item for item in items if item is not None], node, first):
        child = child_node(node, key) or FREE_NODE
        present = [item is not None and key in item for item in items]
        values = [item[key] if item is not None and key in item else None for item in items]
        if _flattens([value for value, given in zip(values, present, strict=True) if given]):
            result += _leaves(
                [v if given else None for v, given in zip(values, present, strict=True)],
                child,
                (*prefix, key),
            )
        else:
            result.append(_Leaf((*prefix, key), child, values, present))
    return result


def _export_rows(items: list[dict], kind: Kind, excel: bool) -> tuple[list[str], list[list]]:
    root = kind_node(kind)
    if not items:
        return list(dict.fromkeys(["id", *known_names(root)])), []
    columns_cells: list[tuple[str, list[object]]] = []
    for leaf in _leaves(items, root, (), ("id", "count")):
        base = ".".join(leaf.path)
        attempts = [(base, "auto")]
        if all(isinstance(v, list) for v, p in zip(leaf.values, leaf.present, strict=True) if p):
            attempts.append((base + LIST_SUFFIX, "list"))
        attempts.append((base + JSON_SUFFIX, "json"))
        for header, mode in attempts:
            column = Column(len(columns_cells), header, leaf.path, mode, leaf.node)
            cells = [
                _encode(value, column, excel) if given else None
                for value, given in zip(leaf.values, leaf.present, strict=True)
            ]
            if all(
                cell is not None for cell, given in zip(cells, leaf.present, strict=True) if given
            ):
                columns_cells.append((header, cells))
                break
        else:
            raise TableError(f"cannot write the values of {base!r} as cells")
    headers = [h for h, _ in columns_cells]
    rows = [[cells[i] for _, cells in columns_cells] for i in range(len(items))]
    return headers, rows


def _catalog_of(
    catalog: Catalog | Mapping[str, Any] | Path | str,
) -> tuple[Mapping[str, Any], Mapping[str, DeclaredKind]]:
    """The document and the declared kinds of a Catalog, a document or a catalog file."""
    if isinstance(catalog, Mapping):
        return catalog, declared_kinds(dict(catalog))
    if not isinstance(catalog, Catalog):
        from protopress.components.loader import load_catalog

        catalog = load_catalog(catalog)
    return catalog.document, catalog.declared


def export_table(
    catalog: Catalog | Mapping[str, Any] | Path | str,
    kind: str,
    path: Path | str,
    display: str | None = None,
) -> list[str]:
    """Write a kind's components as a .csv or .xlsx table; return its header.

    catalog is a Catalog, a catalog document, or a catalog file's path. One row
    per component: id and count first, then the schema's property order,
    nested objects as dotted headers, lists joined by "+", lists of objects as
    JSON text. Importing the table gives back exactly the same components.
    """
    path = Path(path)
    document, declared = _catalog_of(catalog)
    kind_ = resolve_kind(kind, declared)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise TableError(f"{display or path}: a table is a .csv or .xlsx file")
    items = list(document.get(kind_.collection) or [])
    excel = suffix in EXCEL_SUFFIXES
    if excel and openpyxl_module() is None:
        raise no_excel("writing")
    header, rows = _export_rows(items, kind_, excel)
    data = _xlsx_bytes(kind_.collection, header, rows) if excel else _csv_bytes(header, rows)
    write_atomic(path, data)
    return header


def _csv_bytes(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if cell is None else quote_formula(cell) for cell in row])
    return buffer.getvalue().encode("utf-8")


def _xlsx_bytes(title: str, header: list[str], rows: list[list]) -> bytes:
    openpyxl = openpyxl_module()
    if openpyxl is None:  # export_table checks first; here for the type
        raise no_excel("writing")
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31])
    sheet.freeze_panes = "A2"
    for index, name in enumerate(header):
        longest = max(
            [len(name)] + [len(cell_text(row[index])) for row in rows if row[index] is not None]
        )
        sheet.column_dimensions[column_letter(index)].width = min(max(8, longest + 2), 60)
    bold = Font(bold=True)
    cells = []
    for name in header:
        cell = WriteOnlyCell(sheet, value=name)
        cell.font = bold
        cells.append(cell)
    sheet.append(cells)
    for row in rows:
        values = []
        for value in row:
            cell = WriteOnlyCell(sheet, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, even when it starts with "="
            values.append(cell)
        sheet.append(values)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()

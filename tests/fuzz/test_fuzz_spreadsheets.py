"""Spreadsheet imports: any CSV text (random headers and cells) or workbook
imports into a valid catalog or is refused with every problem at its cell,
as `protopress import` does, in bounded time."""

import csv
import datetime
import io
import json
from pathlib import Path

import pytest
from fuzzing import (
    ODD_STRINGS,
    fuzz_settings,
    hard_timeout,
    mutated_documents,
    printable,
    smoke_settings,
)
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path
from protopress.components.problems import Problem
from protopress.components.schemas import kinds, schema_documents
from protopress.designer import TableError, import_table
from protopress.designer.table_files import TableProblem

KINDS = sorted(kinds())


def _fields(kind: str) -> list[str]:
    """Headers a table of this kind may have: fields, dotted nested ones, suffixes."""
    schema = schema_documents()[kinds()[kind].schema_file]
    names = ["id", "count", *schema.get("properties", {})]
    nested = [f"{name}.{sub}" for name in names for sub in ("N", "cost", "points", "0", "base")]
    return names + nested + [f"{name}[]" for name in names] + [f"{name}:json" for name in names]


CELLS = [
    "",
    '""',
    "0",
    "1",
    "-1",
    "2",
    "3.5",
    "1e400",
    "NaN",
    "007",
    "10000",
    "10001",
    "1000000000",
    "99999999999999999999999999",
    "1" * 5000,
    "true",
    "no",
    "[]",
    "[1, 2]",
    "[{",
    "{}",
    '{"a": 1}',
    '[{"op": "draw", "count": 2}]',
    "[" * 200 + "]" * 200,
    "[" * 5000,
    "fire-ruby+obsidian",
    "fire-ruby + ",
    "+",
    "a+b+c",
    "red+red",
    "N",
    "NES",
    "action",
    "monster",
    "=SUM(A1)",
    " padded ",
]

cells = st.one_of(st.sampled_from(CELLS), st.sampled_from(ODD_STRINGS), st.text(max_size=30))


@st.composite
def tables(draw):
    """(kind, rows) with a header of plausible and implausible field names."""
    kind = draw(st.sampled_from(KINDS))
    fields = _fields(kind)
    header = draw(
        st.lists(st.one_of(st.sampled_from(fields), st.sampled_from(fields), cells), max_size=10)
    )
    if draw(st.booleans()):
        header = ["id", *header]
    width = len(header)
    rows = draw(
        st.lists(
            st.lists(cells, min_size=max(0, width - 2), max_size=width + 2),
            max_size=6,
        )
    )
    return kind, [header, *rows]


@st.composite
def csv_files(draw):
    kind, rows = draw(tables())
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator="\n").writerows(rows)
    text = buffer.getvalue()
    how = draw(st.sampled_from(["plain"] * 6 + ["bom", "truncate", "quote", "latin1", "bytes"]))
    if how == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "quote":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + '"' + text[at:]
    data = text.encode("utf-8", "surrogatepass")
    if how == "bom":
        data = b"\xef\xbb\xbf" + data
    elif how == "latin1":
        data = text.encode("latin-1", "replace")
    elif how == "bytes":
        data = draw(st.binary(max_size=100))
    return kind, data


BASE_CATALOGS = [json.loads(builtin_catalog_path(game).read_text()) for game in BUILTIN_GAMES]
outputs = st.one_of(
    st.none(),
    st.just("new"),
    st.sampled_from(BUILTIN_GAMES),
    mutated_documents(BASE_CATALOGS, max_tree=2, text_rate=3),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


def _prepare_output(output, folder: Path) -> Path | None:
    target = folder / "catalog.json"
    if target.exists():
        target.unlink()
    if output is None:
        return None
    if output == "new":
        return target
    if isinstance(output, str):
        target.write_bytes(builtin_catalog_path(output).read_bytes())
    else:
        target.write_bytes(output)
    return target


def check_import(path: Path, kind: str, output, folder: Path, sheet=None) -> None:
    target = _prepare_output(output, folder)
    before = target.read_bytes() if target is not None and target.exists() else None
    with hard_timeout():
        try:
            document = import_table(path, kind, sheet=sheet, output=target)
        except TableError as error:  # a usage error: exit 2
            assert str(error).strip()
            printable(str(error))
            event("refused: table error")
        except InvalidInput as invalid:  # exit 1, every problem at its cell or line
            assert invalid.problems
            for problem in invalid.problems:
                assert isinstance(problem, TableProblem | Problem), problem
                assert problem.message.strip(), problem
                line = str(problem)
                printable(line)
                if isinstance(problem, TableProblem):
                    assert line.startswith(path.name) or line.startswith(str(path)), line
            if target is not None and before is not None:
                assert target.read_bytes() == before, "nothing is written when invalid"
            event("refused: problems")
        else:
            assert isinstance(document, dict)
            if target is not None:
                json.loads(target.read_text(encoding="utf-8"))  # valid JSON written
            event("imported")


@pytest.mark.fuzz
@fuzz_settings()
@given(table=csv_files(), output=outputs)
def test_fuzz_csv_imports(table, output, folder):
    kind, data = table
    path = folder / "cards.csv"
    path.write_bytes(data)
    check_import(path, kind, output, folder)


@smoke_settings()
@given(table=csv_files(), output=outputs)
def test_smoke_csv_imports(table, output, folder):
    kind, data = table
    path = folder / "cards.csv"
    path.write_bytes(data)
    check_import(path, kind, output, folder)


# --- workbooks ---------------------------------------------------------------------

xlsx_values = st.one_of(
    cells,
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.dates(min_value=datetime.date(1900, 3, 1)),
    st.datetimes(min_value=datetime.datetime(1900, 3, 1)),
)


@st.composite
def xlsx_files(draw):
    openpyxl = pytest.importorskip("openpyxl")
    kind, rows = draw(tables())
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = draw(st.sampled_from(["Sheet1", "cards", "x" * 31]))
    for number, row in enumerate(rows):
        values = row if number == 0 else [draw(st.one_of(st.just(v), xlsx_values)) for v in row]
        clean = []
        for value in values:
            if isinstance(value, str):  # openpyxl refuses control characters in cells
                value = "".join(ch for ch in value if ch >= " " or ch in "\t\n")
                value = value.encode("utf-8", "replace").decode("utf-8")
            clean.append(value)
        sheet.append(clean)
    buffer = io.BytesIO()
    workbook.save(buffer)
    data = buffer.getvalue()
    if draw(st.integers(0, 9)) == 0:  # a damaged file
        at = draw(st.integers(0, 10**6)) % (len(data) + 1)  # the length varies (timestamps)
        data = data[:at] + draw(st.binary(max_size=20)) + data[at + 1 :]
    sheet_name = draw(st.sampled_from([None, None, "Sheet1", "cards", "Missing"]))
    return kind, data, sheet_name


@pytest.mark.fuzz
@fuzz_settings(scale=0.2)
@given(table=xlsx_files(), output=st.sampled_from([None, "new"]))
def test_fuzz_xlsx_imports(table, output, folder):
    kind, data, sheet = table
    path = folder / "cards.xlsx"
    path.write_bytes(data)
    check_import(path, kind, output, folder, sheet=sheet)


@smoke_settings(examples=3)
@given(table=xlsx_files(), output=st.sampled_from([None, "new"]))
def test_smoke_xlsx_imports(table, output, folder):
    kind, data, sheet = table
    path = folder / "cards.xlsx"
    path.write_bytes(data)
    check_import(path, kind, output, folder, sheet=sheet)

"""docs/reliability.md states each bound with its figure: every row of its bound
tables is checked against the constant the code enforces, so the document and the
code cannot drift apart. A row is mapped to the figures it must show (written from
the constants), or listed as holding no figure of ours; a new row or table must be
mapped here before the test passes again."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest
import svglib.svglib

from protopress.components.jsonpos import MAX_SHOWN_TOKEN
from protopress.components.loader import MAX_CATALOG_BYTES, MAX_JSON_DEPTH
from protopress.components.problems import MAX_LOCATED
from protopress.components.schemas import schema_documents
from protopress.components.sizes import MIN_SIZE_MM
from protopress.components.yamlsource import MAX_DEPTH as MAX_YAML_DEPTH
from protopress.designer.table_files import MAX_TABLE_COLUMNS, MAX_TABLE_ROWS, MAX_XLSX_UNPACKED
from protopress.files import MAX_SOURCE_BYTES
from protopress.generators.assets import MAX_IMAGE_PIXELS
from protopress.generators.face_elements import MAX_COUNT, MAX_ITEMS
from protopress.generators.face_text import MAX_TEXT_CHARACTERS
from protopress.generators.layout import MAX_FONT_BYTES
from protopress.generators.limits import (
    CHARSTRING_WORK_PER_BYTE,
    MAX_CMAP_CODE_POINTS,
    MAX_EXPANDED,
    MAX_EXPANSION_STEPS,
    MAX_PAGE_AREA_M2,
    MAX_PAGES_PER_RENDER,
    MAX_SUBROUTINE_NESTING,
    MAX_SVG_ELEMENTS,
    MAX_SVG_NUMBER,
    MAX_SVG_PIXELS,
    MIN_CHARSTRING_WORK,
    MIN_SVG_SIZE,
)
from protopress.generators.preflight import MAX_PDF_BYTES
from protopress.generators.render import MAX_COPIES_PER_KIND
from protopress.generators.separation import MAX_PROFILE_BYTES
from protopress.generators.svg import MAX_EMBEDDED_PIXELS, MAX_SVG_BYTES
from protopress.rules.data.build import MAX_STEP_DEPTH
from protopress.rules.data.check import CHECK_GAMES, TURN_CAP
from protopress.rules.data.expr import MAX_DEPTH as MAX_EXPRESSION_DEPTH
from protopress.rules.data.expr import MAX_NUMBER, MAX_TEXT
from protopress.rules.data.load import MAX_RULES_BYTES

ROOT = Path(__file__).parents[1]
DOCUMENT = ROOT / "docs" / "reliability.md"
MAX_COPIES_OF_A_COMPONENT = schema_documents()["common.schema.json"]["$defs"]["count"]["maximum"]


def mib(size: int) -> str:
    assert size % 2**20 == 0, size
    return f"{size // 2**20} MiB"


def megapixels(pixels: int) -> str:
    assert pixels % 10**6 == 0, pixels
    return f"{pixels // 10**6} megapixels"


def power_of_ten(number: float) -> str:
    exponent = round(math.log10(number))
    assert 10**exponent == number, number
    return f"10^{exponent}"


@dataclass(frozen=True)
class Figure:
    """Text a row must hold, written from a constant; in its limit cell unless the
    figure is stated in the message (`refused with`)."""

    text: str
    in_message: bool = False


INPUT_LIMITS = {
    "a catalog or layout file, JSON or YAML": [Figure(mib(MAX_CATALOG_BYTES))],
    "nesting of lists and objects": [Figure(f"{MAX_JSON_DEPTH} levels"),
                                     Figure(f"{MAX_YAML_DEPTH} levels")],
    "copies of one component (`count`)": [Figure(f"{MAX_COPIES_OF_A_COMPONENT:,}")],
    "an image": [Figure(megapixels(MAX_IMAGE_PIXELS))],
    "an SVG image": [Figure(mib(MAX_SVG_BYTES)),
                     Figure(f"held to {megapixels(MAX_EMBEDDED_PIXELS)}", in_message=True)],
    "a layout's font file": [Figure(mib(MAX_FONT_BYTES))],
    "a PDF to preflight": [Figure(mib(MAX_PDF_BYTES))],
    "an ICC profile (`--icc-profile`)": [Figure(mib(MAX_PROFILE_BYTES))],
    "copies of one kind in one render": [
        Figure(f"{MAX_COPIES_PER_KIND:,} (each component has at most "
               f"{MAX_COPIES_OF_A_COMPONENT:,}")],
    "pages of one render (all its PDFs, a preset's too)": [
        Figure(f"{MAX_PAGES_PER_RENDER:,} pages and {MAX_PAGE_AREA_M2:,} square metres")],
    "elements of one face, after expansion": [
        Figure(f"{MAX_EXPANDED:,} elements and {MAX_EXPANSION_STEPS:,} expansion steps")],
    "an SVG's elements": [
        Figure(f"{MAX_SVG_ELEMENTS:,} in the file, and {MAX_SVG_ELEMENTS:,} drawn"),
        Figure(f"svglib's {svglib.svglib.MAX_USE_EXPANSIONS:,} expansions")],
    "pictures an SVG draws": [Figure(megapixels(MAX_SVG_PIXELS))],
    "numbers in an SVG": [
        Figure(f"{MIN_SVG_SIZE:g} to {power_of_ten(MAX_SVG_NUMBER)} pt, every number at most "
               f"{power_of_ten(MAX_SVG_NUMBER)}")],
    "a CFF font's charstrings, while converted": [
        Figure(f"nested at most {MAX_SUBROUTINE_NESTING} deep"),
        Figure(f"at most {CHARSTRING_WORK_PER_BYTE} bytes of charstrings run per byte of the "
               f"file, at least {MIN_CHARSTRING_WORK:,}")],
    "a font's character map": [Figure(f"{MAX_CMAP_CODE_POINTS:,} code points")],
    "a layout's trim size": [Figure(f"at least {MIN_SIZE_MM:g} mm")],
    "the text of one text box, fields bound in": [
        Figure(f"{MAX_TEXT_CHARACTERS:,} characters")],
    "a file read again to locate its problems, a catalog the preview shows, a `solo --save` "
    "file refused, a balance run read back": [Figure(f"the same {mib(MAX_SOURCE_BYTES)}")],
    "a spreadsheet to import": [
        Figure(f"{MAX_TABLE_ROWS:,} rows, {MAX_TABLE_COLUMNS:,} columns"),
        Figure(f"unpacks to at most {mib(MAX_XLSX_UNPACKED)}")],
    "problems located in one file": [
        Figure(f"{MAX_LOCATED:,}, and a key of more than {MAX_SHOWN_TOKEN} characters")],
    "a rules file of data (`--rules FILE.yaml`), YAML or JSON": [
        Figure(f"{MAX_RULES_BYTES // 1024} KiB"), Figure(f"nested at most {MAX_YAML_DEPTH} levels"),
        Figure(f"larger than {MAX_RULES_BYTES // 1024} KiB", in_message=True)],
    "an expression of a rules file": [
        Figure(f"{MAX_TEXT} characters, nested at most {MAX_EXPRESSION_DEPTH} levels, whole "
               f"numbers at most {MAX_NUMBER:,}"),
        Figure(f"at most {MAX_EXPRESSION_DEPTH} levels", in_message=True)],
    "steps of a rules file inside `if`, `for` and `each_player`": [
        Figure(f"{MAX_STEP_DEPTH} levels"), Figure(f"at most {MAX_STEP_DEPTH} levels", in_message=True)],
    "the games `check --rules` plays": [
        Figure(f"{CHECK_GAMES} games of random bots, each at most {TURN_CAP:,} turns"),
        Figure(f"{CHECK_GAMES} of {CHECK_GAMES} random games did not end within {TURN_CAP} turns",
               in_message=True)],
}  # fmt: skip

BOUND_FIELD_VALUES = {
    "grid or markers `rows`/`columns`, table `columns`": [Figure(f"0 to {MAX_COUNT}")],
    "icons `items`, markers `items`, table `labels`, legend entries": [Figure(f"{MAX_ITEMS:,}")],
    "the text of one text box": [Figure(f"{MAX_TEXT_CHARACTERS:,} characters")],
}

# The local pages' gate: its two figures (64 KiB, 32 levels) and messages are checked
# against protopress.web.server by tests/web/test_shared_network.py:
# test_the_limits_in_this_document_are_the_gates; the other checks hold no figure.
WEB_GATE_TEST = ROOT / "tests" / "web" / "test_shared_network.py"
GATE_CHECKED_BY_THE_WEB_TEST = ("a request body is at most ", "a request body nests ")
GATE_WITHOUT_FIGURES = ("the Host header names ", "the browser holds ", "a change (any method")


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: dict[str, tuple[str, ...]]  # by the first cell


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip().strip("|").split(" | "))


def tables(text: str) -> list[Table]:
    """Every Markdown table of the text: its header and its rows by their first cell."""
    found: list[Table] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        starts = line.startswith("|") and not (index and lines[index - 1].startswith("|"))
        if not starts:
            continue
        header = _cells(line)
        rows: dict[str, tuple[str, ...]] = {}
        for row in lines[index + 2 :]:
            if not row.startswith("|"):
                break
            cells = _cells(row)
            assert len(cells) == len(header), f"a row with {len(cells)} cells: {row}"
            assert cells[0] not in rows, f"two rows start {cells[0]!r}"
            rows[cells[0]] = cells
        found.append(Table(header, rows))
    return found


BOUND_TABLES = {
    ("input", "limit", "refused with"): INPUT_LIMITS,
    ("layout value bound to a field", "limit"): BOUND_FIELD_VALUES,
}
# tables that state no bound: exit codes, the fuzzing rounds, and the gate (above)
OTHER_TABLES = {
    ("exit code", "meaning"),
    ("surface (test)", "examples", "rate", "reached rendering"),
    ("surface (test)", "examples", "rate", "valid", "reached rendering"),
    ("check", "refused with"),
}


def test_every_table_of_the_document_is_a_bound_table_or_named_as_none():
    headers = [table.header for table in tables(DOCUMENT.read_text())]
    assert len(headers) == len(set(headers)), headers
    assert set(headers) == set(BOUND_TABLES) | OTHER_TABLES


@pytest.mark.parametrize("header", sorted(BOUND_TABLES), ids=lambda header: header[0])
def test_every_bound_in_the_document_is_the_code_s_constant(header):
    (table,) = [t for t in tables(DOCUMENT.read_text()) if t.header == header]
    figures = BOUND_TABLES[header]
    assert set(table.rows) == set(figures), (
        "rows of the document without a figure here, and figures of rows it no longer has: "
        f"{sorted(set(table.rows) - set(figures))}, {sorted(set(figures) - set(table.rows))}"
    )
    for first, cells in table.rows.items():
        for figure in figures[first]:
            cell = cells[2] if figure.in_message else cells[1]
            assert figure.text in cell, f"{first!r}: the code says {figure.text!r}; {cell!r}"


def test_the_gate_s_figures_are_checked_by_the_web_test_and_its_other_rows_hold_none():
    (gate,) = [t for t in tables(DOCUMENT.read_text()) if t.header == ("check", "refused with")]
    checked = [row for row in gate.rows if row.startswith(GATE_CHECKED_BY_THE_WEB_TEST)]
    without = [row for row in gate.rows if row.startswith(GATE_WITHOUT_FIGURES)]
    assert len(checked) == len(GATE_CHECKED_BY_THE_WEB_TEST)
    assert len(without) == len(GATE_WITHOUT_FIGURES)
    assert len(gate.rows) == len(checked) + len(without), sorted(gate.rows)
    web_test = WEB_GATE_TEST.read_text()
    assert "def test_the_limits_in_this_document_are_the_gates" in web_test
    assert 'f"at most {MAX_BODY_BYTES // 1024} KiB" in section' in web_test
    assert 'f"at most {MAX_BODY_NESTING} levels" in section' in web_test


def test_a_figure_the_code_does_not_have_is_caught():
    """The check itself: a document saying 65 MiB for the catalog's 64 is refused."""
    wrong = DOCUMENT.read_text().replace(
        f"| a catalog or layout file, JSON or YAML | {mib(MAX_CATALOG_BYTES)} |",
        f"| a catalog or layout file, JSON or YAML | {mib(MAX_CATALOG_BYTES + 2**20)} |",
    )
    (table,) = [t for t in tables(wrong) if t.header == ("input", "limit", "refused with")]
    cell = table.rows["a catalog or layout file, JSON or YAML"][1]
    assert INPUT_LIMITS["a catalog or layout file, JSON or YAML"][0].text not in cell

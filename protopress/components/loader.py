"""Load a catalog file: parse (JSON, or YAML for .yaml and .yml), validate against
the schemas, run the semantic checks, and locate every problem by line, column
and JSON pointer."""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from protopress.components.catalog import Catalog
from protopress.components.declared import (
    all_kinds,
    declaration_findings,
    declared_kinds,
    declared_schemas,
    refused_collections,
)
from protopress.components.explain import Located, explain
from protopress.components.jsonpos import SourceMap, escape_token, source_map
from protopress.components.problems import MAX_LOCATED, NOT_SHOWN, InvalidInput, Problem
from protopress.components.schemas import CATALOG_SCHEMA, schema_errors
from protopress.components.semantics import known_ids, semantic_findings
from protopress.files import MAX_SOURCE_BYTES, NotRegularFile, read_regular, read_text_again

if TYPE_CHECKING:
    from protopress.components.yamlsource import YamlSourceMap

MAX_CATALOG_BYTES = MAX_SOURCE_BYTES
# Lists and objects inside each other: the built-in catalogs need 7 levels. Deeper
# documents are refused before anything recursive (schema checks, locating) sees them.
MAX_JSON_DEPTH = 64


def load_catalog(path: Path | str, display: str | None = None) -> Catalog:
    """The catalog at path; raises InvalidInput listing every problem.

    OSError (a missing or unreadable file) propagates: that is the caller's
    usage error, not a problem of the catalog. display names the file in
    messages (default: the path as given).
    """
    path = Path(path)
    name = display or str(path)
    document = parse_source_file(path, name)
    findings = catalog_findings(document)
    if findings:
        raise InvalidInput(locate_in_file(name, path, findings))
    declared = declared_kinds(document)
    return Catalog.from_document(path, document, all_kinds(declared), declared)


def catalog_findings(document: object) -> list[Located]:
    """Every problem of a parsed catalog: its schema (with the kinds it declares),
    the semantic checks and the checks of its declarations."""
    declared = declared_kinds(document)
    every = all_kinds(declared)
    known = known_ids(document, every)
    extra = declared_schemas(declared, refused_collections(document, declared))
    errors = schema_errors(document, known, CATALOG_SCHEMA, extra)
    return [
        *(f for error in errors for f in explain(error)),
        *semantic_findings(document, every),
        *declaration_findings(document, declared),
    ]


def load_document(
    path: Path,
    schema_file: str,
    display: str | None = None,
    *,
    ids: Callable[[Any], Mapping[str, frozenset[str]]] | None = None,
    extra_checks: Callable[[Any], Iterable[Located]] | None = None,
) -> Any:
    """A JSON document valid against one of the schema files, or InvalidInput (the
    value is Any, as every parsed document here: the schema says what it holds).

    ids(document) gives the ids `refersTo` resolves against; extra_checks(document)
    gives findings beyond the schema. Both are optional.
    """
    name = display or str(path)
    document = parse_source_file(path, name)
    known = ids(document) if ids else {}
    errors = schema_errors(document, known, schema_file)
    findings = [f for error in errors for f in explain(error)]
    if extra_checks:
        findings += extra_checks(document)
    if findings:
        raise InvalidInput(locate_in_file(name, path, findings))
    return document


def read_limited(path: Path, limit: int = MAX_CATALOG_BYTES) -> bytes:
    """The file's bytes, but no more than limit + 1 of them (enough to see it is too large).

    Raises NotRegularFile for a FIFO, a device or a folder, before reading.
    """
    return read_regular(path, limit)


class Syntax(enum.Enum):
    """How a catalog or layout file is written: by its name's suffix."""

    JSON = "json"
    YAML = "yaml"

    @classmethod
    def of(cls, path: Path | str) -> Syntax:
        return cls.YAML if Path(path).suffix.lower() in YAML_SUFFIXES else cls.JSON


YAML_SUFFIXES = (".yaml", ".yml")
SOURCE_SUFFIXES = (".json", *YAML_SUFFIXES)  # the files a catalog or a layout may be


def parse_source_file(path: Path, name: str) -> Any:
    """The document of a catalog or layout file: YAML for .yaml and .yml, else JSON.

    The same limits and the same located problems for both (see parse_json_file
    and components/yamlsource.py).
    """
    if Syntax.of(path) is Syntax.JSON:
        return parse_json_file(path, name)
    # yamlsource.py loads PyYAML: imported for YAML files only, not by every run
    from protopress.components.yamlsource import YamlRefused, parse_yaml

    try:
        return parse_yaml(_read_text(path, name))[0]
    except YamlRefused as refused:
        raise InvalidInput(
            [Problem(name, p.line, p.column, p.pointer, p.message) for p in refused.problems]
        ) from None


def source_positions(text: str, syntax: Syntax) -> SourceMap | YamlSourceMap:
    """Where each value of a text that parsed without problems is written."""
    if syntax is Syntax.JSON:
        return source_map(text)
    from protopress.components.yamlsource import parse_yaml  # as in parse_source_file

    return parse_yaml(text)[1]


def file_positions(path: Path) -> SourceMap | YamlSourceMap:
    """source_positions of a catalog or layout file, read again to locate a problem."""
    return source_positions(read_text_again(path), Syntax.of(path))


def _read_text(path: Path, name: str) -> str:
    """The text of a file within MAX_CATALOG_BYTES, or InvalidInput (too large, not UTF-8,
    not a regular file)."""
    try:
        data = read_limited(path)
    except NotRegularFile as error:
        raise InvalidInput([Problem(name, 1, 1, "", f"{error.kind}, not a regular file")]) from None
    if len(data) > MAX_CATALOG_BYTES:
        limit = MAX_CATALOG_BYTES // (1024 * 1024)
        raise InvalidInput([Problem(name, 1, 1, "", f"file is larger than {limit} MiB")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InvalidInput([Problem(name, line, column, "", "file is not UTF-8 text")]) from None
    return text


def parse_json_file(path: Path, name: str) -> Any:
    """The JSON document in a file; syntax errors and duplicate keys are problems.

    Every JSON file protopress reads comes through here, with the same limits: at
    most MAX_CATALOG_BYTES, at most MAX_JSON_DEPTH levels of lists and objects,
    and only what JSON has (no NaN or Infinity, no number a float or int() cannot
    hold, no lone surrogate); each is a located problem, not an exception.
    """
    text = _read_text(path, name)
    duplicates: list[bool] = []

    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            duplicates.append(True)
        return result

    try:
        document = json.loads(
            text, object_pairs_hook=pairs_to_dict, parse_constant=_constant, parse_float=_finite
        )
    except json.JSONDecodeError as error:
        raise InvalidInput(
            [Problem(name, error.lineno, error.colno, "", f"invalid JSON: {error.msg}")]
        ) from None
    except ValueError:  # NaN, Infinity, 1e400, or an integer too long to convert
        offset, message = _bad_number(text)
        line, column = _line_column(text, offset)
        raise InvalidInput([Problem(name, line, column, "", f"invalid JSON: {message}")]) from None
    except RecursionError:
        raise InvalidInput([too_deep(name, text)]) from None
    if nesting_exceeds(document):
        raise InvalidInput([too_deep(name, text)])
    surrogate = lone_surrogate(document, text)
    if surrogate is not None:
        line, column = _line_column(text, surrogate)
        raise InvalidInput([Problem(name, line, column, "", f"invalid JSON: {_SURROGATE_MESSAGE}")])
    if duplicates:
        positions = source_map(text)
        problems = [
            Problem(
                name,
                *d.again,
                d.pointer,
                f"duplicate key (first at line {d.first[0]}, column {d.first[1]})",
            )
            for d in positions.duplicates[:MAX_LOCATED]
        ]
        if len(positions.duplicates) > MAX_LOCATED:
            problems.append(not_shown(name, text))
        raise InvalidInput(problems)
    return document


def parse_json_text(text: str) -> Any:
    """A JSON value from text (a spreadsheet cell, say); ValueError when invalid or too deep.

    The message says what is wrong and where (character N); json.JSONDecodeError
    is a ValueError too.
    """
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError:
        raise
    except ValueError:
        offset, message = _bad_number(text)
        raise ValueError(f"invalid JSON: {message} (character {offset + 1})") from None
    except RecursionError:
        value = None
    else:
        if not nesting_exceeds(value):
            surrogate = lone_surrogate(value, text)
            if surrogate is not None:
                raise ValueError(f"invalid JSON: {_SURROGATE_MESSAGE} (character {surrogate + 1})")
            return value
    offset, _ = _deepest(text)
    raise ValueError(
        f"JSON nested too deeply (more than {MAX_JSON_DEPTH} levels of lists and objects, "
        f"character {offset + 1})"
    )


def _constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


# Python reads these, JSON does not have them (and a 4301-digit integer is more
# than int() converts, 1e400 more than a float holds); found only after
# json.loads has refused.
_NUMBER_TOKEN = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"|-?Infinity|NaN|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'
)


def _bad_number(text: str) -> tuple[int, str]:
    """Offset and description of the first NaN, Infinity or out-of-range number in text."""
    for match in _NUMBER_TOKEN.finditer(text):
        token = match.group()
        if token.startswith('"'):
            continue
        if token in ("NaN", "Infinity", "-Infinity"):
            return match.start(), f"{token} is not a JSON value (expected a number)"
        digits = len(token.lstrip("-"))
        if token.lstrip("-").isdigit() and digits > 4300:
            return match.start(), f"a number of {digits} digits; expected at most 4300"
        if not token.lstrip("-").isdigit() and not math.isfinite(float(token)):
            shown = token if len(token) <= 20 else token[:17] + "..."
            return match.start(), f"{shown} is too large for a number (at most about 1.8e308)"
    return 0, "a value that is not JSON"


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_SURROGATE_MESSAGE = "a \\u escape of half a character (a lone surrogate); expected a whole one"


def lone_surrogate(document: object, text: str) -> int | None:
    """Offset of a \\uD800-\\uDFFF escape that is not half of a pair, when the document
    holds such a half character (no UTF-8 text, so no schema check or output, can hold it).
    """
    if not _SURROGATE_ESCAPE.search(text):
        return None
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                match = _LONE_SURROGATE.search(text)
                return match.start() if match else 0
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def nesting_exceeds(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether lists and objects nest more than limit levels deep (without recursion)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]')


def _deepest(text: str, limit: int = MAX_JSON_DEPTH) -> tuple[int, str]:
    """Offset and JSON pointer of the first list or object nested deeper than limit.

    A scan of the text alone (strings skipped), so that it works where parsing
    gave up; (0, "") when nothing is that deep.
    """
    frames: list[list] = []  # per open container: [is_object, key or index]
    last_string = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if len(frames) >= limit:
                pointer = "".join("/" + escape_token(key) for _, key in frames)
                return match.start(), pointer
            frames.append([token == "{", "" if token == "{" else 0])
        elif token in "]}":
            if frames:
                frames.pop()
        elif token == ",":
            if frames and not frames[-1][0]:
                frames[-1][1] += 1
        elif token == ":":
            if frames and frames[-1][0] and last_string is not None:
                try:
                    frames[-1][1] = json.loads(last_string)
                except ValueError:
                    frames[-1][1] = last_string[1:-1]
        else:
            last_string = token
    return 0, ""


def too_deep(name: str, text: str) -> Problem:
    """The problem of a document that nests too deeply, at its first too-deep value."""
    offset, pointer = _deepest(text)
    line, column = _line_column(text, offset)
    return Problem(
        name,
        line,
        column,
        pointer,
        f"JSON nested too deeply: expected at most {MAX_JSON_DEPTH} levels of lists and objects",
    )


def locate(
    name: str, text: str, findings: list[Located], syntax: Syntax = Syntax.JSON
) -> list[Problem]:
    """Each finding as a problem at its line and column: at most MAX_LOCATED of them,
    and one more line at the end of the file saying that others are not shown."""
    positions = source_positions(text, syntax)
    problems = {
        Problem(name, *positions.locate(f.pointer, key=f.at_key), f.pointer, f.message)
        for f in findings[:MAX_LOCATED]
    }
    if len(findings) > MAX_LOCATED:
        problems.add(not_shown(name, text))
    return sorted(problems)


def not_shown(name: str, text: str) -> Problem:
    """The line that closes a list of MAX_LOCATED problems when the file has more."""
    return Problem(name, text.rstrip().count("\n") + 1, 1, "", NOT_SHOWN)


def locate_in_file(name: str, path: Path, findings: list[Located]) -> list[Problem]:
    """locate, in the catalog or layout file at path (read again: only problems need it)."""
    return locate(name, read_text_again(path), findings, Syntax.of(path))

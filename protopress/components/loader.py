"""Load a catalog file: parse, validate against the schemas, run the semantic
checks, and locate every problem by line, column and JSON pointer."""

from __future__ import annotations

import json
from pathlib import Path

from protopress.components.catalog import Catalog
from protopress.components.explain import Located, explain
from protopress.components.jsonpos import source_map
from protopress.components.problems import InvalidInput, Problem
from protopress.components.schemas import CATALOG_SCHEMA, kinds, schema_errors
from protopress.components.semantics import known_ids, semantic_findings

MAX_CATALOG_BYTES = 64 * 1024 * 1024


def load_catalog(path: Path | str, display: str | None = None) -> Catalog:
    """The catalog at path; raises InvalidInput listing every problem.

    OSError (a missing or unreadable file) propagates: that is the caller's
    usage error, not a problem of the catalog. display names the file in
    messages (default: the path as given).
    """
    path = Path(path)
    document = load_document(
        path, CATALOG_SCHEMA, display, ids=known_ids, extra_checks=semantic_findings
    )
    return Catalog.from_document(path, document, kinds())


def load_document(
    path: Path, schema_file: str, display: str | None = None, *, ids=None, extra_checks=None
):
    """A JSON document valid against one of the schema files, or InvalidInput.

    ids(document) gives the ids `refersTo` resolves against; extra_checks(document)
    gives findings beyond the schema. Both are optional.
    """
    name = display or str(path)
    document = parse_json_file(path, name)
    known = ids(document) if ids else {}
    findings = [f for error in schema_errors(document, known, schema_file) for f in explain(error)]
    if extra_checks:
        findings += extra_checks(document)
    if findings:
        raise InvalidInput(locate(name, path.read_text(encoding="utf-8-sig"), findings))
    return document


def parse_json_file(path: Path, name: str):
    """The JSON document in a file; syntax errors and duplicate keys are problems."""
    data = path.read_bytes()
    if len(data) > MAX_CATALOG_BYTES:
        limit = MAX_CATALOG_BYTES // (1024 * 1024)
        raise InvalidInput([Problem(name, 1, 1, "", f"file is larger than {limit} MiB")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InvalidInput([Problem(name, line, column, "", "file is not UTF-8 text")]) from None
    duplicates = []

    def pairs_to_dict(pairs):
        result = dict(pairs)
        if len(result) != len(pairs):
            duplicates.append(True)
        return result

    try:
        document = json.loads(text, object_pairs_hook=pairs_to_dict)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            [Problem(name, error.lineno, error.colno, "", f"invalid JSON: {error.msg}")]
        ) from None
    except RecursionError:
        raise InvalidInput([Problem(name, 1, 1, "", "JSON nested too deeply")]) from None
    if duplicates:
        positions = source_map(text)
        raise InvalidInput(
            [
                Problem(
                    name,
                    *d.again,
                    d.pointer,
                    f"duplicate key (first at line {d.first[0]}, column {d.first[1]})",
                )
                for d in positions.duplicates
            ]
        )
    return document


def locate(name: str, text: str, findings: list[Located]) -> list[Problem]:
    positions = source_map(text)
    problems = {
        Problem(name, *positions.locate(f.pointer, key=f.at_key), f.pointer, f.message)
        for f in findings
    }
    return sorted(problems)

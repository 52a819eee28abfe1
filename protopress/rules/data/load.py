"""Read a rules file: YAML or JSON with every value's line and column, checked
against the rules schema; every problem located in the file, as catalogs' are.

A rules file is data: reading it never runs code and never reads another file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from protopress.components.jsonpos import pointer_of, shown_token
from protopress.components.problems import InvalidInput, Problem
from protopress.components.suggest import did_you_mean
from protopress.components.yamlsource import YamlRefused, YamlSourceMap, parse_yaml
from protopress.files import NotRegularFile, read_regular

MAX_RULES_BYTES = 256 * 1024  # a rules file is a page or two; more is a mistake
RULES_SUFFIXES = (".yaml", ".yml", ".json")
SCHEMA_FILE = "rules.schema.json"


def is_rules_file(reference: str) -> bool:
    """Whether a --rules reference names a rules file (data), not Python."""
    return reference.lower().endswith(RULES_SUFFIXES)


@dataclass(frozen=True)
class Finding:
    """One problem at a JSON pointer of the rules file; column_offset moves it right
    of the value's start (a place inside an expression), at_key to the value's key."""

    pointer: str
    message: str
    column_offset: int = 0
    at_key: bool = False


class RulesProblems(Exception):
    """Findings gathered while compiling a rules file (located by `RulesSource.invalid`)."""

    def __init__(self, findings: list[Finding]):
        self.findings = findings
        super().__init__("; ".join(f.message for f in findings))


@dataclass(frozen=True)
class RulesSource:
    """A rules file that passed its schema: its document and where each value is written."""

    path: Path
    name: str  # the file as messages name it
    text: str
    document: dict[str, Any]
    positions: YamlSourceMap = field(repr=False)

    def locate(self, finding: Finding) -> Problem:
        line, column = self.positions.locate(finding.pointer, key=finding.at_key)
        if finding.column_offset:
            lines = self.text.splitlines()
            quoted = 0 < line <= len(lines) and lines[line - 1][column - 1 : column] in "\"'"
            column += finding.column_offset + (1 if quoted else 0)
        return Problem(self.name, line, column, finding.pointer, finding.message)

    def invalid(self, findings: list[Finding]) -> InvalidInput[Problem]:
        return InvalidInput(sorted({self.locate(f) for f in findings}))


def read_rules(path: Path, name: str | None = None) -> RulesSource:
    """The rules file at path, valid against the schema, or InvalidInput locating
    every problem. OSError (missing, unreadable) propagates: a usage error."""
    shown = name or str(path)
    try:
        data = read_regular(path, MAX_RULES_BYTES)
    except NotRegularFile as error:
        raise InvalidInput(
            [Problem(shown, 1, 1, "", f"{error.kind}, not a regular file")]
        ) from None
    if len(data) > MAX_RULES_BYTES:
        message = (
            f"file is larger than {MAX_RULES_BYTES // 1024} KiB: a rules file is a page or two"
        )
        raise InvalidInput([Problem(shown, 1, 1, "", message)])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidInput([Problem(shown, line, 1, "", "file is not UTF-8 text")]) from None
    try:  # JSON is YAML: one reader, the same limits and the same positions for both
        document, positions = parse_yaml(text)
    except YamlRefused as refused:
        raise InvalidInput(
            [Problem(shown, p.line, p.column, p.pointer, p.message) for p in refused.problems]
        ) from None
    source = RulesSource(path, shown, text, {}, positions)
    findings = schema_findings(document)
    if findings:
        raise source.invalid(findings)
    assert isinstance(document, dict)  # the schema says so
    return RulesSource(path, shown, text, document, positions)


@cache
def rules_schema() -> dict[str, Any]:
    text = resources.files("protopress.rules.data").joinpath(SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> Any:
    return jsonschema.Draft202012Validator(rules_schema())


def schema_findings(document: object) -> list[Finding]:
    """The schema's errors in words: what was found, what was expected, where."""
    return [_finding(error) for error in _leaves(_validator().iter_errors(document))][:200]


def _leaves(errors: Iterator[Any]) -> Iterator[Any]:
    """The most telling error of each: inside a oneOf, the branch of the value's type."""
    for error in errors:
        if error.validator == "oneOf" and error.context:
            same_type = [e for e in error.context if e.validator != "type"]
            if same_type:
                yield from _leaves(iter([min(same_type, key=lambda e: len(e.path))]))
                continue
        yield error


_TYPES = {
    "object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
    "boolean": "true or false",
}  # fmt: skip


def _finding(error: Any) -> Finding:
    pointer = pointer_of(error.absolute_path)
    kind, expected = error.validator, error.validator_value
    found = _shown(error.instance)
    if kind == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(known))
        key = extra[0] if extra else ""
        where = pointer_of([*error.absolute_path, key])
        hint = did_you_mean(key, known)
        allowed = f"; expected one of {', '.join(known)}" if known and not hint else ""
        return Finding(where, f"unknown key {shown_token(key)!r}{hint}{allowed}", at_key=True)
    if kind == "required":
        missing = [name for name in expected if name not in error.instance]
        return Finding(pointer, f"missing {missing[0]!r}" if missing else error.message)
    if kind == "type":
        names = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(_TYPES.get(str(n), str(n)) for n in names)
        return Finding(pointer, f"expected {wanted}, found {found}")
    if kind == "oneOf":
        if error.schema.get("title") == "expression":
            return Finding(pointer, f"{found} is not an expression: write it as text "
                           '(in quotes when it holds ": ", "[" or "{")')  # fmt: skip
        return Finding(pointer, f"{found} is not {_describe(error.schema)}")
    if kind in ("enum", "const"):
        choices = expected if kind == "enum" else [expected]
        hint = did_you_mean(str(error.instance), map(str, choices))
        wanted = ", ".join(map(json.dumps, choices))
        return Finding(pointer, f"expected {wanted}, found {found}{hint}")
    if kind == "pattern":
        return Finding(
            pointer,
            f"{found} is not a name: lower-case letters, digits and _ (or -), from a letter",
        )
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return Finding(pointer, f"expected a number {word} {expected}, found {found}")
    if kind in ("maxLength", "maxItems", "maxProperties"):
        what = {"maxLength": "characters", "maxItems": "items", "maxProperties": "entries"}[kind]
        return Finding(pointer, f"too long: at most {expected} {what}")
    if kind in ("minLength", "minItems", "minProperties"):
        return Finding(pointer, "must not be empty")
    if kind == "uniqueItems":
        return Finding(pointer, "lists the same item twice")
    return Finding(pointer, error.message)


def _describe(schema: dict[str, Any]) -> str:
    kinds = []
    for option in schema.get("oneOf", ()):
        if "$ref" in option:
            kinds.append(option["$ref"].rsplit("/", 1)[-1].replace("expression", "an expression"))
        else:
            kinds.append(_TYPES.get(option.get("type", ""), "a value"))
    return " or ".join(kinds) or "valid here"


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


NAME = re.compile(r"^[a-z][a-z0-9_]*$")

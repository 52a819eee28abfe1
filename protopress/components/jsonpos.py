"""Where each value of a JSON text sits: JSON pointer to line and column.

The standard library parses fast but forgets positions, so catalogs are parsed
with it and this scan runs only when a problem must be located.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
_STRINGS = json.JSONDecoder()  # raw_decode at a quote: the string and the index past it


def escape_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_of(path: Iterable[str | int]) -> str:
    """The JSON pointer of a path of keys and indices ("" for the root)."""
    return "".join("/" + escape_token(token) for token in path)


@dataclass
class Duplicate:
    pointer: str
    first: tuple[int, int]
    again: tuple[int, int]


@dataclass
class SourceMap:
    """Positions (1-based line and column) of values and of object keys."""

    text: str
    values: dict[str, int] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def locate(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value at pointer (of its key when key is set).

        A pointer that does not exist falls back to its nearest existing parent.
        """
        table = self.keys if key and pointer in self.keys else self.values
        while pointer not in table and pointer:
            pointer = pointer.rsplit("/", 1)[0]
            table = self.values
        return self.line_column(table.get(pointer, 0))


def source_map(text: str) -> SourceMap:
    """Scan a JSON text that the standard library has already accepted."""
    result = SourceMap(text)
    _scan_value(text, _skip(text, 0), "", result)
    return result


def _skip(text: str, index: int) -> int:
    return _match(_WHITESPACE, text, index)


def _match(pattern: re.Pattern[str], text: str, index: int) -> int:
    """The end of pattern matched at index; the text is JSON already accepted, so it matches."""
    found = pattern.match(text, index)
    if found is None:
        raise ValueError(f"not JSON at character {index + 1}")
    return found.end()


def _scan_value(text: str, index: int, pointer: str, result: SourceMap) -> int:
    result.values[pointer] = index
    char = text[index]
    if char == "{":
        return _scan_object(text, index, pointer, result)
    if char == "[":
        return _scan_array(text, index, pointer, result)
    if char == '"':
        return _STRINGS.raw_decode(text, index)[1]
    return _match(_SCALAR, text, index)


def _scan_object(text: str, index: int, pointer: str, result: SourceMap) -> int:
    index = _skip(text, index + 1)
    seen: dict[str, int] = {}
    if text[index] == "}":
        return index + 1
    while True:
        key_start = index
        key: str
        key, index = _STRINGS.raw_decode(text, index)
        child = pointer + "/" + escape_token(key)
        if key in seen:
            result.duplicates.append(
                Duplicate(child, result.line_column(seen[key]), result.line_column(key_start))
            )
        seen[key] = key_start
        result.keys[child] = key_start
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        index = _skip(text, _scan_value(text, index, child, result))
        if text[index] == "}":
            return index + 1
        index = _skip(text, index + 1)  # past the comma


def _scan_array(text: str, index: int, pointer: str, result: SourceMap) -> int:
    index = _skip(text, index + 1)
    if text[index] == "]":
        return index + 1
    position = 0
    while True:
        index = _skip(text, _scan_value(text, index, f"{pointer}/{position}", result))
        position += 1
        if text[index] == "]":
            return index + 1
        index = _skip(text, index + 1)

"""Where each value of a JSON text sits: JSON pointer to line and column.

The standard library parses fast but forgets positions, so catalogs are parsed
with it and this scan runs only when a problem must be located.

Positions are kept as a tree (one `Position` per value, its key a token of
its parent's), never as a table of every value's pointer: a pointer repeats
every key above it, so a small file (one long key over a long list) would
make gigabytes of pointers. A pointer is built only for a problem, and a key
longer than MAX_SHOWN_TOKEN characters is shortened in it.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from protopress.components.problems import MAX_LOCATED

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
_STRINGS = json.JSONDecoder()  # raw_decode at a quote: the string and the index past it


MAX_SHOWN_TOKEN = 120  # a key longer than this is shortened in the pointers shown


def escape_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def shown_token(token: str | int) -> str:
    """A pointer's token as shown: escaped, and a key of more than MAX_SHOWN_TOKEN
    characters cut to its start and its length (a pointer names a place to look)."""
    return escape_token(_shortened(str(token)))


def _shortened(key: str) -> str:
    if len(key) <= MAX_SHOWN_TOKEN:
        return key
    return f"{key[: MAX_SHOWN_TOKEN // 2]}...({len(key):,} characters)"


def pointer_of(path: Iterable[str | int]) -> str:
    """The JSON pointer of a path of keys and indices ("" for the root), long keys shortened."""
    return "".join("/" + shown_token(token) for token in path)


def tokens_of(pointer: str) -> list[str]:
    """The keys and indices a JSON pointer names, unescaped (none for the root)."""
    if not pointer.startswith("/"):
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


Where = TypeVar("Where")  # a position: an offset into a text, or (line, column)


class Position(Generic[Where]):
    """Where one value is written (and its key, in an object); its children by key or index."""

    __slots__ = ("parent", "token", "at", "key_at", "children")

    def __init__(
        self, parent: Position[Where] | None, token: str | int, at: Where, key_at: Where | None
    ):
        self.parent = parent
        self.token = token
        self.at = at
        self.key_at = key_at
        self.children: dict[str, Position[Where]] | list[Position[Where]] | None = None

    def add(self, token: str | int, at: Where, key_at: Where | None = None) -> Position[Where]:
        """A new child: a member (token a key) of an object or an item (an index) of a list."""
        child = Position(self, token, at, key_at)
        if isinstance(token, str):
            if not isinstance(self.children, dict):
                self.children = {}
            self.children.setdefault(token, child)
        else:
            if not isinstance(self.children, list):
                self.children = []
            self.children.append(child)
        return child

    def pointer(self) -> str:
        """This value's JSON pointer (long keys shortened: see shown_token)."""
        tokens = []
        node: Position[Where] | None = self
        while node is not None and node.parent is not None:
            tokens.append(node.token)
            node = node.parent
        return pointer_of(reversed(tokens))

    def child_pointer(self, token: str | int) -> str:
        return self.pointer() + "/" + shown_token(token)

    def find(self, pointer: str) -> tuple[Position[Where], bool]:
        """The position at pointer below this one, or its nearest existing parent (False)."""
        node = self
        for token in tokens_of(pointer):
            children = node.children
            child = None
            if isinstance(children, dict):
                child = children.get(token)
                if child is None and token.endswith(" characters)"):  # a long key, shortened
                    child = next(
                        (c for k, c in children.items() if _shortened(k) == token and k != token),
                        None,
                    )
            elif isinstance(children, list) and token.isdigit() and int(token) < len(children):
                child = children[int(token)]
            if child is None:
                return node, False
            node = child
        return node, True

    def locate(self, pointer: str, key: bool) -> Where:
        """Where the value at pointer is written (its key when key is set and it has one);
        a pointer that does not exist falls back to its nearest existing parent."""
        node, exact = self.find(pointer)
        if key and exact and node.key_at is not None:
            return node.key_at
        return node.at


@dataclass
class Duplicate:
    pointer: str
    first: tuple[int, int]
    again: tuple[int, int]


@dataclass
class SourceMap:
    """Positions (1-based line and column) of values and of object keys."""

    text: str
    root: Position[int] = field(default_factory=lambda: Position(None, "", 0, None))
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
        return self.line_column(self.root.locate(pointer, key))


def source_map(text: str) -> SourceMap:
    """Scan a JSON text that the standard library has already accepted."""
    result = SourceMap(text)
    start = _skip(text, 0)
    result.root.at = start
    _scan_value(text, start, result.root, result)
    return result


def _skip(text: str, index: int) -> int:
    return _match(_WHITESPACE, text, index)


def _match(pattern: re.Pattern[str], text: str, index: int) -> int:
    """The end of pattern matched at index; the text is JSON already accepted, so it matches."""
    found = pattern.match(text, index)
    if found is None:
        raise ValueError(f"not JSON at character {index + 1}")
    return found.end()


def _scan_value(text: str, index: int, here: Position[int], result: SourceMap) -> int:
    char = text[index]
    if char == "{":
        return _scan_object(text, index, here, result)
    if char == "[":
        return _scan_array(text, index, here, result)
    if char == '"':
        return _STRINGS.raw_decode(text, index)[1]
    return _match(_SCALAR, text, index)


def _scan_object(text: str, index: int, here: Position[int], result: SourceMap) -> int:
    index = _skip(text, index + 1)
    seen: dict[str, int] = {}
    if text[index] == "}":
        return index + 1
    while True:
        key_start = index
        key: str
        key, index = _STRINGS.raw_decode(text, index)
        if key in seen and len(result.duplicates) <= MAX_LOCATED:
            result.duplicates.append(
                Duplicate(
                    here.child_pointer(key),
                    result.line_column(seen[key]),
                    result.line_column(key_start),
                )
            )
        seen[key] = key_start
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        child = here.add(key, index, key_start)  # the first of duplicate keys stays
        index = _skip(text, _scan_value(text, index, child, result))
        if text[index] == "}":
            return index + 1
        index = _skip(text, index + 1)  # past the comma


def _scan_array(text: str, index: int, here: Position[int], result: SourceMap) -> int:
    index = _skip(text, index + 1)
    if text[index] == "]":
        return index + 1
    position = 0
    while True:
        index = _skip(text, _scan_value(text, index, here.add(position, index), result))
        position += 1
        if text[index] == "]":
            return index + 1
        index = _skip(text, index + 1)

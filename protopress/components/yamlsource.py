"""YAML catalogs and layouts: the same JSON values, read safely, with every
value's line and column kept.

Only what JSON has comes out: objects with text keys, lists, strings, numbers,
true, false and null. A plain (unquoted) scalar is read as JSON reads it:
`null` (and `~` or nothing), `true`, `false`, or a JSON number; any other plain
scalar is text, except those a YAML 1.1 or 1.2 reader turns into something
else (yes/no/on/off, True, NULL, 1_000, 0o17, 0x1f, 017, +1, .5, .inf,
2024-05-01, 1:30): each of those is a located problem, so that no reader of the
file sees a different value from the one protopress sees. Tags (`!!python/...`,
`!!str`, `!custom`) are refused, merge keys (`<<`) too; aliases are followed but
may repeat at most MAX_ALIASED_VALUES values in all (a "billion laughs" file
stops there), and lists and objects nest at most MAX_DEPTH levels.

Nothing is constructed by PyYAML: its composer gives the node tree (with the
start mark of each node) and this module turns nodes into values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import yaml
from yaml.composer import Composer
from yaml.error import Mark
from yaml.events import AliasEvent, CollectionStartEvent, Event, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from protopress.components.jsonpos import Position
from protopress.components.problems import MAX_LOCATED, NOT_SHOWN

MAX_DEPTH = 64  # as MAX_JSON_DEPTH: levels of lists and objects
MAX_ALIASED_VALUES = (
    100_000  # values repeated by aliases, in all (each alias counts its whole value)
)
MAX_INTEGER_DIGITS = 4300  # as for JSON: more than int() converts


@dataclass
class YamlProblem:
    line: int  # 1-based
    column: int
    pointer: str
    message: str


class YamlRefused(ValueError):
    """The text is no YAML document protopress reads; carries its located problems."""

    def __init__(self, problems: list[YamlProblem]):
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


@dataclass
class YamlSourceMap:
    """Positions (1-based line and column) of values and keys, as jsonpos.SourceMap."""

    root: Position[tuple[int, int]] = field(
        default_factory=lambda: Position(None, "", (1, 1), None)
    )

    def locate(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value at pointer (of its key when key is set); a
        pointer that does not exist falls back to its nearest existing parent."""
        return self.root.locate(pointer, key)


def parse_yaml(
    text: str, loader_class: Callable[[str], _Composing] | None = None
) -> tuple[object, YamlSourceMap]:
    """The JSON value a YAML text holds and where each part of it is written.

    Raises YamlRefused with every problem found (a syntax error, a tag, a bomb or
    a too-deep document stops at the first). loader_class: LOADERS names them
    (the default is the fastest there is).
    """
    loader, chosen = None, loader_class or _Loader
    try:
        loader = chosen(text)
        node = loader.get_single_node()
    except _Stop as stop:
        raise YamlRefused([stop.problem]) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = error.problem or error.context or "not YAML"
        if "nesting depth" in what:  # libyaml's own bound (deeper than ours)
            what = _TOO_DEEP
            raise YamlRefused([YamlProblem(line, column, "", what)]) from None
        if what.startswith("but ") and error.context:  # "expected one document, but found ..."
            what = f"{error.context}, {what}"
        raise YamlRefused([YamlProblem(line, column, "", f"invalid YAML: {what}")]) from None
    except UnicodeEncodeError as error:  # libyaml is given UTF-8: a lone surrogate
        line, column = _line_column(text, error.start)
        message = "invalid YAML: a lone surrogate is not allowed in YAML text"
        raise YamlRefused([YamlProblem(line, column, "", message)]) from None
    except yaml.reader.ReaderError as error:
        offset = error.position
        if chosen is not _PurePythonLoader:  # libyaml counts bytes of UTF-8
            offset = len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))
        line, column = _line_column(text, offset)
        message = f"invalid YAML: character U+{error.character:04X} is not allowed in YAML text"
        raise YamlRefused([YamlProblem(line, column, "", message)]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise YamlRefused([YamlProblem(1, 1, "", "the file holds no YAML document")])
    converter = _Converter(loader.written_tags)
    converter.positions.root.at = _position(node.start_mark)
    try:
        value = converter.value(node, converter.positions.root, 1)
    except _Stop as stop:
        raise YamlRefused([stop.problem]) from None
    if converter.unreported:
        converter.problems.append(YamlProblem(text.rstrip().count("\n") + 1, 1, "", NOT_SHOWN))
    if converter.problems:
        raise YamlRefused(converter.problems)
    return value, converter.positions


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


class _Stop(Exception):
    def __init__(self, problem: YamlProblem):
        self.problem = problem


class _Mark(Protocol):
    """Where a node or an event starts (0-based), from either parser: PyYAML's Mark or
    libyaml's, two classes with the same line and column."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


_Where = Position[tuple[int, int]]  # where a value is written: (line, column), 1-based


def _at(mark: _Mark, pointer: str, message: str) -> YamlProblem:
    return YamlProblem(mark.line + 1, mark.column + 1, pointer, message)


class _Alias(Node):
    """Where an alias is written, and the node it repeats: a node itself, so that the
    composer puts it into lists and objects as it puts any node."""

    def __init__(self, node: Node, start_mark: _Mark) -> None:
        # The stubs type a node's marks as PyYAML's Mark; under libyaml they are its own
        # Mark class (as the stubs say of events), with the same line and column.
        super().__init__(node.tag, None, start_mark, start_mark)  # type: ignore[arg-type]
        self.node = node


class _Composing(Composer, BaseResolver):
    """PyYAML's composer without any constructor: no tag is resolved to a type,
    nothing is built from the text. Counts depth while composing, so that deep
    nesting stops before the composer's recursion goes deep, and keeps each
    node's written tag (refused when converted)."""

    # Given by the parser class mixed in before this one (PyYAML's or libyaml's).
    peek_event: Callable[[], Event | None]
    dispose: Callable[[], None]

    def __init__(self) -> None:
        Composer.__init__(self)
        BaseResolver.__init__(self)
        self._depth = 0
        self.written_tags: dict[Node, str] = {}  # the nodes written with a tag

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self.peek_event()
        # The composer composes a node only where the parser has one next, and both
        # parsers mark every event.
        assert isinstance(event, AliasEvent | ScalarEvent | CollectionStartEvent)
        assert event.start_mark is not None
        if isinstance(event, AliasEvent):
            return _Alias(_composed(Composer.compose_node(self, parent, index)), event.start_mark)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Stop(_too_deep(event.start_mark, ""))
        try:
            node = _composed(Composer.compose_node(self, parent, index))
        finally:
            self._depth -= 1
        if event.tag is not None:
            self.written_tags[node] = event.tag
        return node


def _composed(node: Node | None) -> Node:
    """The node PyYAML's composer made (its stubs allow None; it returns one for every event)."""
    assert node is not None
    return node


class _PurePythonLoader(Reader, Scanner, Parser, _Composing):
    def __init__(self, text: str):
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        _Composing.__init__(self)


_Loader: Callable[[str], _Composing]
if yaml.__with_libyaml__:  # libyaml's parser (C) is about ten times faster; the same events
    from yaml._yaml import CParser

    class _LibyamlLoader(CParser, _Composing):
        def __init__(self, text: str):
            CParser.__init__(self, text)
            _Composing.__init__(self)

        def get_single_node(self) -> Node | None:  # the Python composer's, over libyaml's events
            return Composer.get_single_node(self)

    _Loader = _LibyamlLoader
else:
    _Loader = _PurePythonLoader


_TOO_DEEP = f"YAML nested too deeply: expected at most {MAX_DEPTH} levels of lists and objects"


def _too_deep(mark: _Mark, pointer: str) -> YamlProblem:
    return _at(mark, pointer, _TOO_DEEP)


LOADERS: dict[str, Callable[[str], _Composing]] = {"python": _PurePythonLoader, "libyaml": _Loader}

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")

# Plain scalars that YAML 1.1 or 1.2 readers take for something other than text
# (what JSON reads is matched before these).
_NOT_JSON = [
    (re.compile(r"yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|True|TRUE|False|FALSE"),
     "a boolean to YAML 1.1 readers", "true or false, or text in quotes"),
    (re.compile(r"Null|NULL"), "null to YAML readers", "null, or text in quotes"),
    (re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"),
     "infinity or not-a-number, which JSON has not", "a number, or text in quotes"),
    (re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
                r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?"),
     "a date to YAML readers", "the date in quotes"),
    (re.compile(r"[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+"
                r"(?:\.[0-9_]*)?)"),
     "a number in a YAML-only notation", "the number as JSON writes it, or text in quotes"),
    (re.compile(r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?"),
     "a number in a YAML-only notation", "the number as JSON writes it, or text in quotes"),
    (re.compile(r"="), "a value key to YAML 1.1 readers", "text in quotes"),
]  # fmt: skip

_NULLS = ("", "~", "null")
_BOOLEANS = {"true": True, "false": False}


class _Converter:
    """Nodes to JSON values, collecting located problems and positions."""

    def __init__(self, written_tags: dict[Node, str]) -> None:
        self.written_tags = written_tags
        self.positions = YamlSourceMap()
        self.problems: list[YamlProblem] = []
        self.unreported = 0  # problems beyond MAX_LOCATED, counted
        self._aliased = 0
        self._open: list[Node] = []  # the nodes being converted, to catch an alias into itself

    def value(self, node: Node, where: _Where, depth: int, aliased: bool = False) -> object:
        """The JSON value of node, written at where (the parent made its Position)."""
        if isinstance(node, _Alias):
            if any(node.node is open_node for open_node in self._open):
                raise _Stop(
                    _at(node.start_mark, where.pointer(), "an alias repeats a value it is part of")
                )
            return self.value(node.node, where, depth, aliased=True)
        if aliased:
            self._aliased += 1
            if self._aliased > MAX_ALIASED_VALUES:
                raise _Stop(
                    _at(node.start_mark, where.pointer(), f"aliases repeat more than "
                        f"{MAX_ALIASED_VALUES:,} values in all; write the values out or repeat fewer")
                )  # fmt: skip
        written_tag = self.written_tags.get(node)
        if written_tag is not None:
            tag = written_tag.replace("tag:yaml.org,2002:", "!!")
            message = f"YAML tag {tag!r} is not allowed: write plain values, lists and objects"
            raise _Stop(_at(node.start_mark, where.pointer(), message))
        if isinstance(node, ScalarNode):
            return self._scalar(node, where)
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(node.start_mark, where.pointer()))
        self._open.append(node)
        try:
            if isinstance(node, SequenceNode):
                return [
                    self.value(
                        item, where.add(index, _position(item.start_mark)), depth + 1, aliased
                    )
                    for index, item in enumerate(node.value)
                ]
            assert isinstance(node, MappingNode)
            return self._mapping(node, where, depth, aliased)
        finally:
            self._open.pop()

    def _mapping(
        self, node: MappingNode, where: _Where, depth: int, aliased: bool
    ) -> dict[str, object]:
        result: dict[str, object] = {}
        first: dict[str, tuple[int, int]] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, where)
            if key is None:
                continue
            here = _position(_mark(key_node))
            if key in first:
                message = f"duplicate key (first at line {first[key][0]}, column {first[key][1]})"
                self.report(YamlProblem(*here, where.child_pointer(key), message))
                continue
            first[key] = here
            child = where.add(key, _position(value_node.start_mark), here)
            result[key] = self.value(value_node, child, depth + 1, aliased)
        return result

    def _key(self, node: Node, parent: _Where) -> str | None:
        """The text of a key, or None (and a problem) for a key JSON could not have."""
        target = node.node if isinstance(node, _Alias) else node
        mark = _mark(node)
        if target in self.written_tags:
            self.value(target, parent, 0)  # refuses the tag
        if not isinstance(target, ScalarNode):
            self.report(_at(mark, parent.pointer(), "a key must be text, not a list or an object"))
            return None
        if _is_plain(target) and target.value == "<<":
            message = "merge keys (<<) are not read: write the keys out"
            self.report(_at(mark, parent.child_pointer(target.value), message))
            return None
        value = self._scalar(target, parent, mark, key=target.value)
        if isinstance(value, str):
            return value
        if value is not _REFUSED:
            message = f"a key must be text: write {target.value!r} in quotes"
            self.report(_at(mark, parent.child_pointer(target.value), message))
        return None

    def report(self, problem: YamlProblem) -> None:
        """Keep problem, unless MAX_LOCATED are kept already (then count it)."""
        if len(self.problems) < MAX_LOCATED:
            self.problems.append(problem)
        else:
            self.unreported += 1

    def _scalar(
        self, node: ScalarNode, where: _Where, mark: _Mark | None = None, key: str | None = None
    ) -> object:
        """The value of a scalar at where (of its key, when key is given: a key's text)."""
        text = node.value
        mark = mark or node.start_mark
        if not _is_plain(node):  # quoted or a block: always text
            if any("\ud800" <= char <= "\udfff" for char in text):
                self.report(_at(mark, _pointer(where, key), "a \\u escape of half a character "
                                "(a lone surrogate); expected a whole one"))  # fmt: skip
                return _REFUSED
            return text
        if text in _NULLS:
            return None
        if text in _BOOLEANS:
            return _BOOLEANS[text]
        number = _JSON_NUMBER.fullmatch(text)
        if number:
            return self._number(text, number, _pointer(where, key), mark)
        for pattern, what, instead in _NOT_JSON:
            if pattern.fullmatch(text):
                message = f"{text!r} is {what}; write {instead}"
                self.report(_at(mark, _pointer(where, key), message))
                return _REFUSED
        return text

    def _number(self, text: str, match: re.Match[str], pointer: str, mark: _Mark) -> object:
        if match.group(1) is None and match.group(2) is None:
            digits = len(text.lstrip("-"))
            if digits > MAX_INTEGER_DIGITS:
                message = f"a number of {digits} digits; expected at most {MAX_INTEGER_DIGITS}"
                self.report(_at(mark, pointer, message))
                return _REFUSED
            return int(text)
        value = float(text)
        if not math.isfinite(value):
            shown = text if len(text) <= 20 else text[:17] + "..."
            message = f"{shown} is too large for a number (at most about 1.8e308)"
            self.report(_at(mark, pointer, message))
            return _REFUSED
        return value


_REFUSED = object()  # a scalar already reported as a problem


def plain_is_text(text: str) -> bool:
    """Whether text written as a plain (unquoted) scalar reads back as that same text."""
    node = ScalarNode("", text, _NO_MARK, _NO_MARK, style=None)
    converter = _Converter({})
    return converter._scalar(node, converter.positions.root) == text and not converter.problems


_NO_MARK = Mark("", 0, 0, 0, None, 0)


def _pointer(where: _Where, key: str | None) -> str:
    """The pointer of the value at where, or of its member key (built for a problem only)."""
    return where.pointer() if key is None else where.child_pointer(key)


def _is_plain(node: ScalarNode) -> bool:
    return not node.style  # None from PyYAML's parser, "" from libyaml's


def _mark(node: Node) -> _Mark:
    return node.start_mark


def _position(mark: _Mark) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1

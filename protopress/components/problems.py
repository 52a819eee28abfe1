"""Problems found in an input file, located by line, column and JSON pointer."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Generic, Protocol, TypeVar

MAX_LOCATED = 1_000  # problems located and shown per file; one more line says so
NOT_SHOWN = f"more problems are not shown: only the first {MAX_LOCATED:,} are located"

# C0 controls, DEL and C1 controls (a terminal acts on ESC sequences), and the
# bidirectional overrides that make text read differently from what it is
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """text safe to print on a terminal: control characters as \\xNN or \\uNNNN."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    pointer: str
    message: str

    def __str__(self) -> str:
        """One line, whatever the file's keys and values hold (see printable)."""
        where = f"{printable(self.file)}:{self.line}:{self.column} {printable(self.pointer or '/')}"
        return f"{where}: {printable(self.message)}"

    def to_json(self) -> dict:
        return asdict(self)


class Reported(Protocol):
    """What every kind of problem gives its reader: one line (str), the message, the
    JSON pointer of the catalog value it is about, and a JSON form. Problem is one;
    the designer's TableProblem (a cell of a spreadsheet) is another."""

    @property
    def pointer(self) -> str: ...

    @property
    def message(self) -> str: ...

    def to_json(self) -> dict: ...


_P = TypeVar("_P", bound=Reported)


class InvalidInput(Exception, Generic[_P]):
    """An input file is not valid; carries every problem found in it: Problems (a
    line and column of a file), or what a subclass carries (InvalidTable: cells of a
    spreadsheet too). An `except` clause cannot say which, so problems caught
    there are typed Any."""

    problems: list[_P]

    def __init__(self: InvalidInput[Problem], problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))

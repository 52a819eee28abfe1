"""Problems found in an input file, located by line, column and JSON pointer."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

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


class InvalidInput(Exception):
    """An input file is not valid; carries every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))

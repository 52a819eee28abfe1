"""Problems found in an input file, located by line, column and JSON pointer."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column} {self.pointer or '/'}: {self.message}"

    def to_json(self) -> dict:
        return asdict(self)


class InvalidInput(Exception):
    """An input file is not valid; carries every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))

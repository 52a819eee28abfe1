"""What a render wrote, in a few lines: per game and for the whole job
(games, files, PDF pages, total size, where)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Written:
    """The files one game's render wrote, and where."""

    game: str
    folder: Path
    files: tuple[Path, ...]


def pdf_pages(path: Path) -> int:
    """Pages of a PDF the render just wrote (0 if it cannot be read back)."""
    from pypdf import PdfReader  # loaded only to count pages for the summary
    from pypdf.errors import PyPdfError

    try:
        return len(PdfReader(path).pages)
    except (OSError, PyPdfError):
        return 0


def human_size(size: int) -> str:
    """1234567 -> '1.2 MB' (powers of 1000, as file managers show)."""
    amount: float = size  # stays the int size while the unit is bytes
    for unit in ("bytes", "kB", "MB", "GB"):
        if amount < 1000 or unit == "GB":
            return f"{amount} {unit}" if unit == "bytes" else f"{amount:.1f} {unit}"
        amount /= 1000
    raise AssertionError("unreachable")


def _counts(files: Sequence[Path]) -> tuple[int, int, int]:
    """(files, PDF pages, bytes) of files that exist."""
    present = [path for path in files if path.is_file()]
    pages = sum(pdf_pages(path) for path in present if path.suffix == ".pdf")
    return len(present), pages, sum(path.stat().st_size for path in present)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def game_line(written: Written) -> str:
    files, pages, size = _counts(written.files)
    return (
        f"{written.game}: {_plural(files, 'file')}, {_plural(pages, 'PDF page')}, "
        f"{human_size(size)} in {written.folder}"
    )


def closing_summary(games: Sequence[Written]) -> str:
    """One line for the whole job: games, files, pages, total size, where."""
    files = pages = size = 0
    for game in games:
        counted = _counts(game.files)
        files, pages, size = files + counted[0], pages + counted[1], size + counted[2]
    folders = [game.folder for game in games]
    if len(folders) > 1:
        common = Path(os.path.commonpath([str(folder) for folder in folders]))
        where = f"{common}{os.sep} (a folder per game)"
    elif folders:
        where = str(folders[0])
    else:
        where = "nowhere"
    return (
        f"done: {_plural(len(games), 'game')}, {_plural(files, 'file')}, "
        f"{_plural(pages, 'PDF page')}, {human_size(size)} in {where}"
    )

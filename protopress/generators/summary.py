"""What a render wrote, in a few lines: per game and for the whole job
(games, files, PDF pages, total size, where)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from protopress.words import plural


@dataclass(frozen=True)
class Written:
    """The files one game's render wrote, and where; the pages of each PDF among
    them as the renderer drew them (the files are not read back to count them)."""

    game: str
    folder: Path
    files: tuple[Path, ...]
    pdf_pages: Mapping[Path, int]


def human_size(size: int) -> str:
    """1234567 -> '1.2 MB' (powers of 1000, as file managers show)."""
    amount: float = size  # stays the int size while the unit is bytes
    for unit in ("bytes", "kB", "MB", "GB"):
        if amount < 1000 or unit == "GB":
            return f"{amount} {unit}" if unit == "bytes" else f"{amount:.1f} {unit}"
        amount /= 1000
    raise AssertionError("unreachable")


def _counts(written: Written) -> tuple[int, int, int]:
    """(files, PDF pages, bytes) of the written files that exist."""
    present = [path for path in written.files if path.is_file()]
    pages = sum(written.pdf_pages.get(path, 0) for path in present)
    return len(present), pages, sum(path.stat().st_size for path in present)


def game_line(written: Written) -> str:
    files, pages, size = _counts(written)
    return (
        f"{written.game}: {plural(files, 'file')}, {plural(pages, 'PDF page')}, "
        f"{human_size(size)} in {written.folder}"
    )


def closing_summary(games: Sequence[Written]) -> str:
    """One line for the whole job: games, files, pages, total size, where."""
    files = pages = size = 0
    for game in games:
        counted = _counts(game)
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
        f"done: {plural(len(games), 'game')}, {plural(files, 'file')}, "
        f"{plural(pages, 'PDF page')}, {human_size(size)} in {where}"
    )

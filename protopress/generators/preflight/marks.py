"""Crop marks on sheets: every trim line marked on both sides, and the pages
that carry none or marks of their own (duplex backs, tiled boards, tuck
boxes), known by their page labels."""

from __future__ import annotations

import math
from collections.abc import Set
from typing import NamedTuple

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from protopress.generators.page_labels import BACK_LABEL, BOX_LABEL, MAP_LABEL, TILE_LABEL
from protopress.generators.preflight.report import (
    TOLERANCE,
    PreflightCheck,
    box_of,
    distinct,
    mm,
)
from protopress.generators.preflight.scan import PageScan
from protopress.generators.units import MM
from protopress.words import plural

MARK_MAX_LENGTH = 20 * MM  # a longer stroke is not a crop mark
_SIDES = (
    ("top", "bottom", "x"),
    ("bottom", "top", "x"),
    ("left", "right", "y"),
    ("right", "left", "y"),
)


class Stroke(NamedTuple):
    """A straight stroke along one axis: where it crosses the other, and its two ends."""

    position: float
    low: float
    high: float


ASSEMBLY_LABELS = (TILE_LABEL, MAP_LABEL, BOX_LABEL)  # pages with marks of their own


def back_pages(reader: PdfReader) -> set[int]:
    """The 1-based numbers of duplex back pages, known by their page labels
    (protopress labels sheet pages "front N" and "back N")."""
    return labelled_pages(reader, (BACK_LABEL,))


def labelled_pages(reader: PdfReader, prefixes: tuple[str, ...]) -> set[int]:
    """The 1-based numbers of the pages whose label starts with one of prefixes."""
    try:
        labels = reader.page_labels
    except (PyPdfError, KeyError, TypeError, ValueError):
        return set()
    return {number for number, label in enumerate(labels, 1) if label.startswith(prefixes)}


def crop_marks(
    pages,
    scans: list[PageScan],
    required: bool,
    backs: Set[int] = frozenset(),
    assembly: Set[int] = frozenset(),
) -> list[PreflightCheck]:
    """Sheets (pages without TrimBox): every trim line marked on both sides.
    Duplex back pages (see :func:`back_pages`) carry no marks by design; the
    pages of a tiled board and a tuck box's die-line carry marks of their own."""
    checks, failed, sheets, marked, unmarked, unmarked_backs = [], False, 0, 0, [], []
    for number, (page, scan) in enumerate(zip(pages, scans, strict=True), 1):
        if not is_sheet(page):
            continue
        if number in assembly:
            sheets += 1
            continue
        sheets += 1
        problems = _mark_problems(scan.segments, page.mediabox)
        if problems is None and number in backs:
            unmarked_backs.append(number)
        elif problems is None:
            if required:
                checks.append(PreflightCheck("crop marks", False, "no crop marks", number))
                failed = True
            else:
                unmarked.append(number)
        elif problems:
            checks.extend(PreflightCheck("crop marks", False, p, number) for p in problems)
            failed = True
        else:
            marked += 1
    if not sheets:
        checks.append(PreflightCheck("crop marks", True, "no sheets (every page has a TrimBox)"))
    elif marked and not failed:
        message = f"{plural(marked, 'sheet')} marked at every trim corner"
        checks.insert(0, PreflightCheck("crop marks", True, message))
    if unmarked:
        pages_list = ", ".join(map(str, unmarked))
        message = f"no crop marks on {plural(len(unmarked), 'sheet')} (page {pages_list})"
        checks.append(PreflightCheck("crop marks", True, message))
    if assembly:
        message = (
            f"{plural(len(assembly), 'page')} of a tiled board or a tuck box: alignment "
            "marks and die-lines, not sheet crop marks"
        )
        checks.append(PreflightCheck("crop marks", True, message))
    if unmarked_backs:
        pages_list = ", ".join(map(str, unmarked_backs))
        message = (
            f"no crop marks on {plural(len(unmarked_backs), 'duplex back page')}, "
            f"as intended (page {pages_list})"
        )
        checks.append(PreflightCheck("crop marks", True, message))
    return checks


def is_sheet(page) -> bool:
    """A page cut up by hand: no TrimBox, or one that is the whole paper (PDF/X
    sheets carry TrimBox = MediaBox, as PDF/X wants a TrimBox on every page)."""
    if "/TrimBox" not in page:
        return True
    return all(
        abs(a - b) < TOLERANCE
        for a, b in zip(box_of(page["/TrimBox"]), box_of(page.mediabox), strict=True)
    )


def _mark_problems(segments, media) -> list[str] | None:
    """None when the page has no marks, else the missing ones (empty: complete).

    Marks are short straight strokes: vertical ones above and below the
    marked area, horizontal ones left and right of it; the area spans the
    marks' own coordinates. Positions are reported in mm from the top left."""
    vertical: list[Stroke] = []
    horizontal: list[Stroke] = []
    long_vertical: list[Stroke] = []
    long_horizontal: list[Stroke] = []
    for x0, y0, x1, y1 in segments:
        short = math.hypot(x1 - x0, y1 - y0) <= MARK_MAX_LENGTH
        if abs(x1 - x0) < TOLERANCE and y0 != y1:
            (vertical if short else long_vertical).append(Stroke(x0, min(y0, y1), max(y0, y1)))
        elif abs(y1 - y0) < TOLERANCE and x0 != x1:
            (horizontal if short else long_horizontal).append(Stroke(y0, min(x0, x1), max(x0, x1)))
    # a mark stands alone: a tick ending on a longer line (a ruler's) is not one
    vertical = [v for v in vertical if not _ends_on(v, long_horizontal)]
    horizontal = [h for h in horizontal if not _ends_on(h, long_vertical)]
    if not vertical or not horizontal:
        return None  # without both there is no marked area to place marks around
    left_x, right_x = min(v[0] for v in vertical), max(v[0] for v in vertical)
    low_y, high_y = min(h[0] for h in horizontal), max(h[0] for h in horizontal)
    top = [x for x, low, _ in vertical if low >= high_y - TOLERANCE]
    left = [y for y, _, high in horizontal if high <= left_x + TOLERANCE]
    # A cut's far end may be marked inside the area, beside an empty slot of a
    # part-filled sheet: a short stroke inside on a line marked at the top (or
    # left) counts as its bottom (or right) mark; other strokes inside are art.
    sides = {
        "top": top,
        "bottom": [
            x
            for x, low, high in vertical
            if high <= low_y + TOLERANCE or (low < high_y - TOLERANCE and _on(x, top))
        ],
        "left": left,
        "right": [
            y
            for y, low, high in horizontal
            if low >= right_x - TOLERANCE or (high > left_x + TOLERANCE and _on(y, left))
        ],
    }
    if not any(sides.values()):
        return None
    problems = []
    if not sides["top"] and not sides["bottom"]:
        problems.append("no vertical crop marks above or below the marked area")
    if not sides["left"] and not sides["right"]:
        problems.append("no horizontal crop marks left or right of the marked area")
    for side, other, axis in _SIDES:
        for position in distinct(sides[other]):
            if not any(abs(position - p) < TOLERANCE for p in sides[side]):
                at = position - float(media.left) if axis == "x" else float(media.top) - position
                problems.append(f"{side} crop mark missing at {axis} = {mm(at)} mm")
    return problems


def _on(position: float, positions: list[float]) -> bool:
    return any(abs(position - p) < TOLERANCE for p in positions)


def _ends_on(segment: Stroke, across: list[Stroke]) -> bool:
    """Whether an end of segment lies on one of the perpendicular lines across."""
    position, low, high = segment
    return any(
        abs(end - at) < TOLERANCE and start - TOLERANCE <= position <= stop + TOLERANCE
        for at, start, stop in across
        for end in (low, high)
    )

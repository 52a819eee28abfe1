"""A font file's character map, measured from its raw bytes before any font library
reads it.

fontTools and reportlab turn every range of a cmap subtable into one entry per
code point: a 4 KB TrueType file whose format 12 group runs from 0 to 2^32 - 1
made them walk four billion code points, and format 4 segments may overlap. The
ranges are summed here, straight from the table directory, so such a file is
refused before a library expands it. Truncated or odd data is left to the
libraries, which refuse it themselves.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from protopress.generators.limits import MAX_CMAP_CODE_POINTS

__all__ = ["cmap_problem", "mapped_code_points"]


def cmap_problem(data: bytes) -> str | None:
    """Why the font's cmap maps too many code points to be read, or None."""
    if mapped_code_points(data) <= MAX_CMAP_CODE_POINTS:
        return None
    return f"its character map (cmap) maps more than {MAX_CMAP_CODE_POINTS:,} code points"


def mapped_code_points(data: bytes) -> int:
    """The code points the cmap subtables of every font in data map, summed (each
    subtable counted once, however many encodings name it); the count stops once
    it passes MAX_CMAP_CODE_POINTS."""
    total = 0
    seen: set[int] = set()
    for cmap in _cmap_tables(data):
        for offset in _subtable_offsets(data, cmap):
            if offset in seen:
                continue
            seen.add(offset)
            total += _subtable_code_points(data, offset)
            if total > MAX_CMAP_CODE_POINTS:
                return total
    return total


def _u16(data: bytes, at: int) -> int:
    return struct.unpack_from(">H", data, at)[0] if at + 2 <= len(data) else 0


def _u32(data: bytes, at: int) -> int:
    return struct.unpack_from(">I", data, at)[0] if at + 4 <= len(data) else 0


def _cmap_tables(data: bytes) -> Iterator[int]:
    """Where each font's cmap table starts: one font, or each of a collection's."""
    if data[:4] == b"ttcf":
        fonts = [_u32(data, 12 + 4 * i) for i in range(min(_u32(data, 8), len(data) // 4))]
    else:
        fonts = [0]
    for start in fonts:
        tables = _u16(data, start + 4)
        for index in range(min(tables, len(data) // 16)):
            record = start + 12 + 16 * index
            if data[record : record + 4] == b"cmap":
                yield _u32(data, record + 8)


def _subtable_offsets(data: bytes, cmap: int) -> Iterator[int]:
    for index in range(min(_u16(data, cmap + 2), len(data) // 8)):
        record = cmap + 4 + 8 * index
        if record + 8 > len(data):
            return
        yield cmap + _u32(data, record + 4)


def _subtable_code_points(data: bytes, at: int) -> int:
    """Code points one subtable maps, as the libraries expand it (ranges in full)."""
    match _u16(data, at):
        case 4:  # segments of 16-bit code points, which may overlap
            segments = _u16(data, at + 6) // 2
            ends, starts = at + 14, at + 16 + 2 * segments
            return sum(
                max(0, _u16(data, ends + 2 * i) - _u16(data, starts + 2 * i) + 1)
                for i in range(min(segments, len(data) // 2))
            )
        case 8 | 12 | 13:  # groups of 32-bit ranges
            count_at = at + 12 + 8192 if _u16(data, at) == 8 else at + 12  # 8: is32[8192] first
            return _group_code_points(data, count_at)
        case 10:  # a trimmed array of 32-bit code points, as far as the data holds them
            return min(_u32(data, at + 16), len(data) // 2)
        case 14:  # variation sequences: default ranges and explicit mappings
            return _variation_code_points(data, at)
        case _:  # formats 0, 2 and 6 map at most 65,536 code points by their structure
            return 0


def _group_code_points(data: bytes, count_at: int) -> int:
    total = 0
    groups = _u32(data, count_at)
    for index in range(min(groups, len(data) // 12)):
        group = count_at + 4 + 12 * index
        if group + 12 > len(data):
            break
        start, end = _u32(data, group), _u32(data, group + 4)
        total += max(0, end - start + 1)
        if total > MAX_CMAP_CODE_POINTS:
            break
    return total


def _variation_code_points(data: bytes, at: int) -> int:
    total = 0
    for index in range(min(_u32(data, at + 6), len(data) // 11)):
        record = at + 10 + 11 * index
        if record + 11 > len(data):
            break
        default, explicit = _u32(data, record + 3), _u32(data, record + 7)
        if default:  # ranges of a start and up to 255 more code points
            ranges = at + default
            for entry in range(ranges + 4, ranges + 4 + 4 * min(_u32(data, ranges), len(data)), 4):
                if entry + 4 > len(data):
                    break
                total += data[entry + 3] + 1
        if explicit:  # one code point a mapping, five bytes each
            total += min(_u32(data, at + explicit), len(data) // 5)
        if total > MAX_CMAP_CODE_POINTS:
            break
    return total

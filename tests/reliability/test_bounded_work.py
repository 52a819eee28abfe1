"""Work is bounded, not only bytes: a small layout, SVG, font or catalog cannot ask
for millions of elements, gigapixels, billions of steps or pages.

Each hostile case runs `protopress render` in a process limited to 1 GiB of address
space and a timeout; before the bounds, each ran for minutes or ran out of memory.
The figures are protopress.generators.limits'.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from protopress.generators.limits import (
    MAX_EXPANDED,
    MAX_EXPANSION_STEPS,
    MAX_PAGE_AREA_M2,
    MAX_PAGES_PER_RENDER,
)

from .reliability_helpers import environment

GIB = 1024**3
TIMEOUT = 120  # seconds: far above the few the bounded cases take, far below the unbounded


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def _render(catalog: Path, *extra: str) -> subprocess.CompletedProcess:
    """`protopress render` of catalog (with the layouts beside it) into its folder's
    `out`, held to 1 GiB."""
    command = [sys.executable, "-m", "protopress", "render", str(catalog), "--layouts",
               str(catalog.parent / "layouts"), "-o", str(catalog.parent / "out"), *extra]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                          preexec_fn=_limited, env=environment())  # fmt: skip


def _game(folder: Path, cards: list[dict], layout: dict) -> Path:
    """A catalog of generic cards with layouts/card.json; returns the catalog's path."""
    catalog = folder / "cat.json"
    catalog.write_text(json.dumps({"game": "t", "title": "T", "version": "1", "cards": cards}))
    (folder / "layouts").mkdir()
    (folder / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    return catalog


def _one_line(result: subprocess.CompletedProcess, start: str) -> str:
    """The one output line that starts with start (no traceback anywhere)."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = [
        line for line in (result.stdout + result.stderr).splitlines() if line.startswith(start)
    ]
    assert len(lines) == 1, result.stdout + result.stderr
    return lines[0]


# ---- layouts: elements per face after fields are bound -------------------------------

RECT = {"type": "rect", "x": 1, "y": 1, "w": 1, "h": 1, "fill": "#000000"}


def test_repeats_bound_to_fields_are_bounded_through_nested_fragments(tmp_path):
    """Three levels of "count": "{n}" with n = 100: a million elements on one face
    (literal nesting was refused at 20,000, bound nesting was not)."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"one": [{**RECT, "repeat": {"count": "{n}"}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{**RECT, "type": "rect"},
                        {"type": "fragment", "use": "two", "repeat": {"count": "{n}"}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 100}], layout)
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, str(tmp_path / "layouts" / "card.json"))
    # the element that binds the count, in the layout: its line and pointer
    assert line.endswith(f":3 /front/1: card 'c1': expands to more than {MAX_EXPANDED} elements")
    assert not (tmp_path / "out").exists()


def test_the_same_nesting_within_the_bound_is_drawn(tmp_path):
    """20 x 20 x 20 = 8,000 elements (and the rectangle): drawn."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"one": [{**RECT, "repeat": {"count": "{n}"}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{"type": "fragment", "use": "two", "repeat": {"count": "{n}"}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 20}], layout)
    result = _render(catalog, "--layout", "per-card")
    assert result.returncode == 0, result.stdout + result.stderr


def test_repeats_of_empty_fragments_are_bounded_in_steps(tmp_path):
    """Repeats that make no element still take steps: 1000 x {n} x 1000 placements of
    an empty fragment (10^9 with n = 1000) stop at the bound on steps."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"zero": [],
                            "one": [{"type": "fragment", "use": "zero", "repeat": {"count": 1000}}],
                            "two": [{"type": "fragment", "use": "one", "repeat": {"count": "{n}"}}]},
              "front": [{"type": "fragment", "use": "two", "repeat": {"count": 1000}}]}  # fmt: skip
    catalog = _game(tmp_path, [{"id": "c1", "title": "C", "n": 1000}], layout)
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, str(tmp_path / "layouts" / "card.json"))
    assert line.endswith(f" /fragments/two/0: card 'c1': expands through more than "
                         f"{MAX_EXPANSION_STEPS} repetitions and fragments")  # fmt: skip


# ---- pages per render ----------------------------------------------------------------


def test_pages_are_bounded_before_anything_is_drawn(tmp_path):
    """A declared 1000 x 1000 mm token, 10,000 copies (each within its limits): 24 A4
    tiles and a page map each on sheets, and a page each for print houses, 260,000
    pages in all (it ran four minutes, then ran out of memory)."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "big-token.json").write_text(json.dumps(
        {"kind": "big-token", "front": [RECT]}))  # fmt: skip
    catalog = tmp_path / "cat.json"
    catalog.write_text(json.dumps({
        "game": "t", "title": "T", "version": "1",
        "kinds": {"big-token": {"collection": "tokens", "layout": "layouts/big-token.json",
                                "size": {"width": "1000mm", "height": "1000mm"}, "fields": {}}},
        "tokens": [{"id": "t1", "count": 10_000}]}))  # fmt: skip
    result = _render(catalog)
    assert result.returncode == 1, result.stderr
    line = _one_line(result, "protopress: t: ")
    # A4 less 12 mm margins, overlapping 10 mm: a window of 186 x 273 mm, steps of 176 x
    # 263 mm; 1006 mm (bleed included) is 6 columns by 4 rows: 24 tiles, 25 pages a copy
    # on sheets, one more per card: 26 x 10,000. Paper: 250,000 A4 pages (0.06237 m²)
    # and 10,000 pages of 1006 x 1006 mm (1.012 m²): 25,713 m².
    assert line == (
        f"protopress: t: 260000 pages (25,713 square metres of paper) to print; a render "
        f"prints at most {MAX_PAGES_PER_RENDER} pages and {MAX_PAGE_AREA_M2:,} square metres "
        "(big-token: 10000 copies of 1000 x 1000 mm, 260000 pages; render fewer copies, "
        "or sheets or per-card pages alone)"
    )
    assert not (tmp_path / "out").exists()


def test_page_area_alone_is_bounded(tmp_path):
    """6,000 per-card pages of 1 m² each: few pages, but 6,000 m² of paper."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "big-token.json").write_text(json.dumps(
        {"kind": "big-token", "front": [RECT]}))  # fmt: skip
    catalog = tmp_path / "cat.json"
    catalog.write_text(json.dumps({
        "game": "t", "title": "T", "version": "1",
        "kinds": {"big-token": {"collection": "tokens", "layout": "layouts/big-token.json",
                                "size": {"width": "994mm", "height": "994mm"}, "fields": {}}},
        "tokens": [{"id": "t1", "count": 6_000}]}))  # fmt: skip
    result = _render(catalog, "--layout", "per-card")
    assert result.returncode == 1, result.stderr
    line = _one_line(result, "protopress: t: ")
    # 994 mm and 3 mm of bleed each side: 1 m x 1 m a page
    assert line.startswith("protopress: t: 6000 pages (6,000 square metres of paper) to print")

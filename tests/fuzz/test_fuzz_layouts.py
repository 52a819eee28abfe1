"""Layouts: any bytes in a layout file are either refused with located problems,
or a layout that renders (per-card PDF, sometimes PNGs) or is refused with a
message, as `protopress render --layouts` does, in bounded time."""

import json
from pathlib import Path

import pytest
from fuzzing import (
    assert_clean_problems,
    fuzz_settings,
    hard_timeout,
    line_count,
    mutated_documents,
    printable,
    smoke_settings,
    tally,
)
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.catalog import Catalog
from protopress.components.schemas import kinds
from protopress.generators.layout import builtin_layout_files, load_layout
from protopress.generators.render import RenderOptions, TextDoesNotFit, render_catalog

MINI = Path(__file__).parents[1] / "data" / "mini-game"
LAYOUT_FILES = builtin_layout_files() + [MINI / "layouts" / "card.json"]
BASES = {path.stem: json.loads(path.read_text()) for path in LAYOUT_FILES}


def _small_catalogs() -> dict[str, Catalog]:
    """Per kind, a catalog holding the first two components of that kind (fast to draw)."""
    result = {}
    for path in [builtin_catalog_path(game) for game in BUILTIN_GAMES] + [MINI / "catalog.json"]:
        catalog = load_catalog(path)
        document = {key: value for key, value in catalog.document.items() if key != "totals"}
        for kind in catalog.components:
            small = dict(document)
            small[kinds()[kind].collection] = list(document[kinds()[kind].collection])[:2]
            result.setdefault(kind, Catalog.from_document(path, small, kinds()))
    return result


CATALOGS = _small_catalogs()

layout_cases = st.tuples(
    st.sampled_from(sorted(BASES)),
    st.data(),
    st.sampled_from(["per-card"] * 4 + ["sheets"]),
    st.sampled_from([False] * 9 + [True]),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("layouts")


def check_layout(kind: str, data: bytes, mode: str, png: bool, folder: Path) -> None:
    layouts = folder / "layouts"
    layouts.mkdir(exist_ok=True)
    for old in layouts.iterdir():
        old.unlink()
    path = layouts / f"{kind}.json"
    path.write_bytes(data)
    display = f"{kind}.json"
    with hard_timeout():
        try:
            load_layout(path, display=display)
        except InvalidInput as invalid:
            assert_clean_problems(invalid.problems, display, line_count(data))
            event("layout refused")
            return
        event("layout loaded")
        options = RenderOptions(
            output_dir=folder / "out", layout=mode, png=png, dpi=72, layouts_dir=layouts
        )
        try:  # what protopress render does with a catalog and this layout
            render_catalog(CATALOGS[kind], options, only={kind: set()})
            event("rendered")
            tally("rendered")
        except TextDoesNotFit:
            raise AssertionError("not --strict: text that does not fit is a warning") from None
        except InvalidInput as invalid:
            for problem in invalid.problems:
                printable(str(problem))
        except ValueError as error:  # reported as `protopress: GAME: message`, exit 1
            assert str(error).strip()
            printable(str(error))
            event(f"render refused: {str(error)[:40]}")


def _case(case):
    kind, data, mode, png = case
    document = data.draw(mutated_documents([BASES[kind]]))
    return kind, document, mode, png


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=20)
@given(case=layout_cases)
def test_fuzz_layouts(case, folder):
    check_layout(*_case(case), folder)


@smoke_settings()
@given(case=layout_cases)
def test_smoke_layouts(case, folder):
    check_layout(*_case(case), folder)

"""Fuzzing that reaches rendering: `protopress render CATALOG --layouts DIR` on
layouts of the schema's shape bound to hostile card fields, on damaged real
fonts and images, and on special files in the place of a font or an image.

Each example must keep the contract (deep.assert_render_contract): exit 0, 1
or 2 within a time limit, never a traceback or an internal error, located
problems for invalid input, nothing half-written. Whether the example reached
rendering (exit 0 with PDFs written) is an event: `pytest -m fuzz
--hypothesis-show-statistics` prints the share per surface.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from deep import (
    ATTRIBUTES,
    ELEMENT_TYPES,
    OPTIONAL,
    REQUIRED,
    SPECIAL_KINDS,
    VERA,
    _image_bytes,
    assert_render_contract,
    catalogs,
    damaged_fonts,
    damaged_images,
    dumps,
    layouts,
    make_special,
)
from fuzzing import Hang, fuzz_settings, hard_timeout, smoke_settings, tally
from hypothesis import event as _event
from hypothesis import given
from hypothesis import strategies as st

from protopress.cli import cli

HANG = 120  # seconds an example may take (the longest seen took 67 s on a busy machine)
GOOD_PNG = _image_bytes("PNG", 8, 8, "RGB")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("deep")


@contextlib.contextmanager
def _project(workdir: Path):
    """A fresh folder for one example: catalog.json, layouts/, art/ and out/."""
    root = Path(tempfile.mkdtemp(dir=workdir))
    (root / "layouts").mkdir()
    (root / "art").mkdir()
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def event(text: str) -> None:
    """Record a hypothesis event (outside a hypothesis test: nothing)."""
    with contextlib.suppress(Exception):
        _event(text)


def render(root: Path, png: bool, mode: str) -> bool:
    """Run `protopress render` on the project in root and check the contract."""
    out = root / "out"
    args = ["render", str(root / "catalog.json"), "--layouts", str(root / "layouts"),
            "-o", str(out), "--layout", mode, "-q"]  # fmt: skip
    if png:
        args += ["--png", "--dpi", "72"]
    try:
        with hard_timeout(HANG):
            result = CliRunner().invoke(cli, args, prog_name="protopress", catch_exceptions=False)
    except Hang:
        raise AssertionError(f"no answer after {HANG} s: protopress {args}") from None
    outcome = assert_render_contract(result.exit_code, result.stdout, result.stderr, out)
    reached = "rendered" if outcome.rendered else f"refused: exit {outcome.exit_code}"
    event(reached)
    tally(reached)
    if outcome.exit_code == 1 and not result.stdout.strip():
        event("refused with a message, not a located problem")
    return outcome.rendered


modes = st.tuples(
    st.sampled_from([False] * 4 + [True]), st.sampled_from(["per-card"] * 3 + ["sheets"])
)


def _write(root: Path, catalog: dict, layout: dict) -> None:
    (root / "catalog.json").write_text(dumps(catalog))
    (root / "layouts" / "card.json").write_text(dumps(layout))


# --------------------------------------------------------------------------
# Surface 1: layouts of the schema's shape, values bound to hostile fields


def check_layout_case(case, workdir: Path) -> bool:
    catalog, layout, (png, mode) = case
    with _project(workdir) as root:
        _write(root, catalog, layout)
        (root / "art" / "c0.png").write_bytes(GOOD_PNG)
        return render(root, png, mode)


layout_cases = st.tuples(catalogs(), layouts(), modes)


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=HANG)
@given(case=layout_cases)
def test_fuzz_bound_layouts(case, workdir):
    check_layout_case(case, workdir)


@smoke_settings(examples=8)
@given(case=layout_cases)
def test_smoke_bound_layouts(case, workdir):
    check_layout_case(case, workdir)


def test_the_generated_layouts_use_every_element_and_attribute_of_the_schema():
    drawn: set[str] = set()
    for element_type in ELEMENT_TYPES:
        drawn.update(REQUIRED[element_type], OPTIONAL[element_type])
    drawn.update({"type", "name", "when", "repeat", "rotate", "opacity", "bleed", "use", "with"})
    assert drawn == set(ATTRIBUTES), set(ATTRIBUTES) ^ drawn


# --------------------------------------------------------------------------
# Surface 2: a layout's font file, damaged or special


@st.composite
def font_cases(draw):
    catalog = draw(catalogs())
    layout = draw(layouts(font_names=("display",), must_have="text"))
    layout["fonts"] = {"display": "fonts/Display.ttf"}
    for element in layout["front"]:
        if element["type"] == "text":
            element["font"] = "display"
    if draw(st.integers(0, 9)) == 0:
        font = ("special", draw(st.sampled_from(SPECIAL_KINDS)))
    else:
        font = draw(damaged_fonts())
    return catalog, layout, font, draw(modes)


def check_font_case(case, workdir: Path) -> bool:
    catalog, layout, (how, data), (png, mode) = case
    with _project(workdir) as root:
        _write(root, catalog, layout)
        fonts = root / "layouts" / "fonts"
        fonts.mkdir()
        if how == "special":
            make_special(data, fonts / "Display.ttf")
        else:
            (fonts / "Display.ttf").write_bytes(data)
        event(f"font: {how.split('+')[0]}")
        return render(root, png, mode)


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=HANG)
@given(case=font_cases())
def test_fuzz_font_files(case, workdir):
    check_font_case(case, workdir)


@smoke_settings(examples=8)
@given(case=font_cases())
def test_smoke_font_files(case, workdir):
    check_font_case(case, workdir)


def test_an_undamaged_font_case_renders(tmp_path):
    catalog = {"game": "fuzz-game", "title": "F", "version": "1", "cards": [{"id": "c0"}]}
    layout = {"kind": "card", "size": "poker", "fonts": {"display": "fonts/Display.ttf"},
              "front": [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{id}",
                         "font": "display"}]}  # fmt: skip
    case = (catalog, layout, ("none", VERA.read_bytes()), (False, "per-card"))
    assert check_font_case(case, tmp_path)


# --------------------------------------------------------------------------
# Surface 3: card art, damaged or special


@st.composite
def image_cases(draw):
    catalog = draw(catalogs(images=True))
    layout = draw(layouts(must_have="image"))
    images = {}
    for name in ("c0.png", "c1.png", "c2.png"):
        if draw(st.integers(0, 9)) == 0:
            images[name] = ("special", draw(st.sampled_from(SPECIAL_KINDS)))
        else:
            images[name] = draw(damaged_images())
    return catalog, layout, images, draw(modes)


def check_image_case(case, workdir: Path) -> None:
    catalog, layout, images, (png, mode) = case
    with _project(workdir) as root:
        _write(root, catalog, layout)
        for name, (how, data) in images.items():
            if how == "special":
                make_special(data, root / "art" / name)
            else:
                (root / "art" / name).write_bytes(data)
        make_special("loop", root / "art" / "special")
        event(f"image: {images['c0.png'][0].split('/')[-1]}")
        render(root, png, mode)


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=HANG)
@given(case=image_cases())
def test_fuzz_image_files(case, workdir):
    check_image_case(case, workdir)


@smoke_settings(examples=8)
@given(case=image_cases())
def test_smoke_image_files(case, workdir):
    check_image_case(case, workdir)

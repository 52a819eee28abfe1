"""Fragments and repeats bound to fields: layouts that extend others (a built-in
kind, a parent file, a chain, a circle, a missing or outside file), take
fragments from their own `fragments` and from fragment files they `uses`, and
place fragments inside fragments, each under `repeat` with `count: "{field}"`,
a name a fragment's `with` binds, or `each` over a list, nested; the cards'
fields hold hostile counts (0, the bounds and one past them, 10^9, 2^63,
negative, fractional, text, lists, null) and the placements hostile positions.

Each `protopress render` must keep deep.assert_render_contract: exit 0, 1 or 2
within the time limit, never a traceback or an internal error, located problems
for invalid input (the expansion bounds name the element that binds the count),
nothing half-written. Whether the example reached rendering is an event and a
tally.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from deep import Outcome, assert_render_contract
from fuzzing import Hang, fuzz_settings, hard_timeout, smoke_settings, tally
from hypothesis import event as _event
from hypothesis import given
from hypothesis import strategies as st

from protopress.cli import cli
from protopress.generators.limits import MAX_EXPANDED, MAX_EXPANSION_STEPS

HANG = 120  # seconds a render may take on a busy machine

COUNT_FIELDS = ["n0", "n1", "n2"]
FRAGMENTS = ["f0", "f1", "f2", "f3"]
NAMES = ["a", "b", "c"]  # element names, for extends to replace and remove
WITH_NAMES = ["k", "m"]  # names a fragment's `with` binds
# around the bounds: 1000 repetitions per element, MAX_EXPANDED elements per face
HOSTILE_COUNTS = [0, 1, 2, 3, 7, 20, 21, 30, 100, 141, 142, 999, 1000, 1001, 5000,
                  MAX_EXPANDED, MAX_EXPANDED + 1, MAX_EXPANSION_STEPS + 1, 10**6, 10**9, 2**31,
                  2**53 + 1, 2**63, 10**30, 10**300, -1, -1000, -(2**63), 0.5, 1.5, 99.9, -0.0,
                  1e308, "3", "100", "1e3", "NaN", "inf", "", " 2", "{n0}", "\x1b[2J", None,
                  True, False, [], [1, 2], {"n": 1}, "x" * 5000]  # fmt: skip
# counts that two or three nested repeats multiply past MAX_EXPANDED
LARGE_COUNTS = [100, 142, 1000, 10**6, 10**9, 2**63]
POSITIONS = [0, 2, 5, "3mm", "{n0}", "{k}", "{index}", "{number}"]
HOSTILE_POSITIONS = [-5, 1000, 1001, -1001, "nope", None, "{n0.x}"]


# how often, in a hundred, a choice is a mistake: the same for every choice of one example
RATE = st.shared(st.sampled_from([0, 0, 0, 1, 3, 10]), key="mistake rate")


@st.composite
def mostly(draw, sound, hostile):
    """The sound values, or the hostile ones at the example's mistake rate (at 0 the
    example's only hostility is in the counts its fields hold)."""
    return draw(hostile if draw(st.integers(1, 100)) <= draw(RATE) else sound)


def _binding(names: list[str]):
    return st.sampled_from(names).map(lambda name: "{" + name + "}")


COUNT = st.one_of(
    _binding(COUNT_FIELDS),
    _binding(COUNT_FIELDS),
    _binding(COUNT_FIELDS),
    _binding(WITH_NAMES),  # a name a fragment's `with` binds (or nothing does)
    mostly(
        st.one_of(_binding(["index", "number", "item.n"]), st.sampled_from([0, 1, 5, 30, 1000])),
        st.one_of(
            _binding(["item", "n0.0", "nope", "id"]),
            st.sampled_from([1001, -1, 2.5, "5", "", None, [], {}]),
        ),
    ),
)
COLUMNS = mostly(st.sampled_from([1, 3, 40]), st.sampled_from([0, -1, "{n2}"]))
COUNTED = st.fixed_dictionaries(
    {"count": COUNT},
    optional={"dx": st.sampled_from([0, 1, -2, "1mm", "{n1}"]),
              "dy": st.sampled_from([0, 1, "0.5mm"]),
              "columns": COLUMNS,
              "row_dy": st.sampled_from([0, 2])},
)  # fmt: skip
EACH = st.fixed_dictionaries(
    {"each": _binding(["l0", "l1", "n0", "k", "item", "nope"])},
    optional={"dy": st.sampled_from([0, 1])},
)
REPEAT = mostly(
    st.one_of(COUNTED, COUNTED, EACH),
    st.sampled_from([{}, {"count": 2, "each": "{l0}"}, {"count": "{n0}", "dx": "{n0}"}]),
)


@st.composite
def leaf_elements(draw):
    """A plain element: a rectangle, a text or an icon, maybe repeated and named."""
    shape = draw(st.sampled_from(["rect", "text", "icon"]))
    element: dict = {"type": shape, "x": draw(st.sampled_from(POSITIONS[:4])),
                     "y": draw(st.sampled_from(POSITIONS[:4]))}  # fmt: skip
    if shape == "rect":
        element.update(w=1, h=1, fill=draw(st.sampled_from(["#000000", "{k}", "{m}"])))
    elif shape == "text":
        element.update(w=20, h=5, text=draw(st.sampled_from(
            ["{index}", "{number}/{n0}", "{k} {m}", "{item}", "{item.n}", "x"])))  # fmt: skip
    else:
        element.update(icon_size=2, shape=draw(st.sampled_from(["circle", "star", "{k}"])))
    return _decorate(draw, element)


def _decorate(draw, element: dict, repeat: int = 2) -> dict:
    """Maybe a repeat (unless one in repeat + 1), a name and a condition."""
    if draw(st.integers(0, repeat)):
        element["repeat"] = draw(REPEAT)
    if draw(st.integers(0, 4)) == 0:
        element["name"] = draw(st.sampled_from(NAMES))
    if draw(st.integers(0, 5)) == 0:
        element["when"] = draw(st.sampled_from(["n0", "!n1", "k", "item", "n2=3"]))
    return element


@st.composite
def placements(draw, fragments: list[str]):
    """A fragment element: which fragment, its `with` bindings, position and repeat."""
    use = mostly(st.sampled_from(fragments), st.sampled_from([*FRAGMENTS, "nope"]))
    element: dict = {"type": "fragment", "use": draw(use)}
    if draw(st.integers(0, 2)):
        element["with"] = draw(st.dictionaries(
            st.sampled_from(WITH_NAMES + ["n0", "index"]),
            st.one_of(_binding(COUNT_FIELDS + WITH_NAMES + ["index", "item"]),
                      st.sampled_from(HOSTILE_COUNTS[:20] + ["#ff0000", "{n0}{n1}"])),
            max_size=2))  # fmt: skip
    for key in ("x", "y"):
        if draw(st.booleans()):
            element[key] = draw(mostly(st.sampled_from(POSITIONS),
                                       st.sampled_from(HOSTILE_POSITIONS)))  # fmt: skip
    return _decorate(draw, element, repeat=7)  # a placement repeated nests repeats


@st.composite
def element_lists(draw, fragments: list[str], max_size: int = 4):
    """Elements placing the fragments named (or, as a mistake, any: a circle, or none)."""
    if not fragments:
        return draw(st.lists(leaf_elements(), max_size=max_size))
    return draw(st.lists(st.one_of(leaf_elements(), placements(fragments)), max_size=max_size))


def _after(name: str, defined: list[str]) -> list[str]:
    return [other for other in defined if FRAGMENTS.index(other) > FRAGMENTS.index(name)]


@st.composite
def fragment_tables(draw, names: list[str], defined: list[str]):
    """Named fragments: each places only defined ones after it in FRAGMENTS, so that
    they nest up to four deep (and, as a mistake, any: itself, a circle, an unknown one)."""
    return {name: draw(element_lists(_after(name, defined), max_size=3)) for name in names}


EXTENDS = [None, "card", "parent.json", "parent.json", "common/grand.json"]
HOSTILE_EXTENDS = ["card.json", "missing.json", "../outside.json", "/etc/passwd", "", 7]


@st.composite
def layout_files(draw):
    """The layouts folder: card.json, maybe parent.json (itself maybe extending
    common/grand.json or card.json, a circle) and a fragment file it `uses`."""
    files: dict[str, object] = {}
    card: dict = {"kind": "card"}
    extends = draw(mostly(st.sampled_from(EXTENDS), st.sampled_from(HOSTILE_EXTENDS)))
    if extends is not None:
        card["extends"] = extends
    if extends is None or draw(st.integers(0, 3)) == 0:
        card["size"] = draw(st.sampled_from(["poker", "mini", {"width": "40mm",
                                                               "height": "40mm"}]))  # fmt: skip
    from_files: list[str] = []
    if draw(st.booleans()):
        card["uses"] = draw(mostly(
            st.sampled_from([["common/frags.json"], ["common/frags.json", "common/more.json"]]),
            st.sampled_from([["missing.json"], ["../outside.json"], "common/frags.json"])))  # fmt: skip
        from_files = FRAGMENTS[1:] if "common/frags.json" in card["uses"] else []
    own = draw(st.sampled_from([FRAGMENTS, FRAGMENTS, FRAGMENTS[:1], FRAGMENTS[:2],
                                FRAGMENTS[1:3], []]))  # fmt: skip
    defined = [name for name in FRAGMENTS if name in own or name in from_files]
    if own:
        card["fragments"] = draw(fragment_tables(own, defined))
    if extends is None or draw(st.booleans()):
        card["front"] = draw(element_lists(defined))
    if draw(st.integers(0, 3)) == 0:
        card["back"] = draw(element_lists(defined, max_size=2))
    if extends is not None and draw(st.integers(0, 3)) == 0:
        card["remove"] = draw(st.lists(mostly(st.sampled_from(NAMES + ["frame", "title"]),
                                              st.just("zz")), max_size=2, unique=True))  # fmt: skip
    files["card.json"] = card
    parent: dict = {"kind": "card", "size": "poker",
                    "front": draw(element_lists(FRAGMENTS[:2], max_size=3))}  # fmt: skip
    if draw(st.booleans()):
        parent["fragments"] = draw(fragment_tables(FRAGMENTS[:2], FRAGMENTS[:2]))
    if draw(st.integers(0, 4)) == 0:
        parent["extends"] = draw(mostly(st.sampled_from(["common/grand.json", "card"]),
                                        st.sampled_from(["card.json", "parent.json"])))  # fmt: skip
    files["parent.json"] = parent
    files["common/grand.json"] = {"kind": "card", "size": "mini", "extends": draw(
        mostly(st.just("card"), st.sampled_from(["../parent.json", "../card.json"]))),
        "front": []}  # fmt: skip
    files["common/frags.json"] = {"fragments": draw(fragment_tables(FRAGMENTS[1:], defined))}
    files["common/more.json"] = {"fragments": draw(fragment_tables(FRAGMENTS[2:], defined))}
    return files


@st.composite
def bound_catalogs(draw):
    """One to three cards whose count fields hold hostile values (and lists to repeat over)."""
    cards = []
    for index in range(draw(st.integers(1, 3))):
        card: dict = {"id": f"c{index}", "title": "C"}
        for name in COUNT_FIELDS:
            if draw(st.integers(0, 5)):
                card[name] = draw(st.one_of(st.sampled_from(HOSTILE_COUNTS), st.integers(0, 12),
                                            st.sampled_from(LARGE_COUNTS),
                                            st.sampled_from(LARGE_COUNTS)))  # fmt: skip
        for name in ("l0", "l1"):
            if draw(st.booleans()):
                card[name] = draw(st.one_of(
                    st.lists(st.fixed_dictionaries({"n": st.sampled_from(HOSTILE_COUNTS[:12])}),
                             max_size=4),
                    st.sampled_from([[], [1] * 1001, [[1, 2]] * 30, "abc", 5])))  # fmt: skip
        cards.append(card)
    return {"game": "fuzz-repeats", "title": "Fuzz", "version": "1", "cards": cards}


def event(text: str) -> None:
    with contextlib.suppress(Exception):
        _event(text)


def _write(path: Path, document: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=True))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("bound-repeats")


def check_repeat_case(case, workdir: Path) -> Outcome:
    catalog, files, mode = case
    root = Path(tempfile.mkdtemp(dir=workdir))
    try:
        _write(root / "cat.json", catalog)
        _write(root / "outside.json", {"kind": "card", "size": "poker", "front": []})
        for name, document in files.items():
            _write(root / "layouts" / name, document)
        out = root / "out"
        args = ["render", str(root / "cat.json"), "--layouts", str(root / "layouts"),
                "-o", str(out), "--layout", mode, "-q"]  # fmt: skip
        try:
            with hard_timeout(HANG):
                result = CliRunner().invoke(cli, args, prog_name="protopress",
                                            catch_exceptions=False)  # fmt: skip
        except Hang:
            raise AssertionError(f"no answer after {HANG} s: protopress {args}") from None
        outcome = assert_render_contract(result.exit_code, result.stdout, result.stderr, out)
        reached = "rendered" if outcome.rendered else f"refused: exit {outcome.exit_code}"
        event(reached)
        tally(reached)
        if "expands" in outcome.output:
            event("refused at an expansion bound")
        return outcome
    finally:
        shutil.rmtree(root, ignore_errors=True)


repeat_cases = st.tuples(bound_catalogs(), layout_files(),
                         st.sampled_from(["per-card"] * 3 + ["sheets"]))  # fmt: skip


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=HANG)
@given(case=repeat_cases)
def test_fuzz_bound_repeats(case, workdir):
    check_repeat_case(case, workdir)


@smoke_settings(examples=8)
@given(case=repeat_cases)
def test_smoke_bound_repeats(case, workdir):
    check_repeat_case(case, workdir)


def test_a_nesting_past_the_bound_is_refused_and_one_within_it_is_drawn(tmp_path):
    """The generator's own shape reaches both sides of the bound: three nested
    counts of 100 are refused at the element binding the count, 20 are drawn."""
    frag = {"type": "fragment", "use": "f1", "repeat": {"count": "{n0}"}}
    files = {
        "card.json": {"kind": "card", "extends": "parent.json", "uses": ["common/frags.json"],
                      "fragments": {"f0": [frag]},
                      "front": [{"type": "fragment", "use": "f0", "repeat": {"count": "{n0}"}}]},
        "parent.json": {"kind": "card", "size": "poker", "front": []},
        "common/frags.json": {"fragments": {"f1": [{"type": "rect", "x": 0, "y": 0, "w": 1,
                                                    "h": 1, "repeat": {"count": "{n0}"}}]}},
    }  # fmt: skip
    refused = {"game": "g", "title": "G", "version": "1", "cards": [{"id": "c0", "n0": 100}]}
    outcome = check_repeat_case((refused, files, "per-card"), tmp_path)
    assert outcome.exit_code == 1
    text = json.dumps(files["card.json"], indent=1)
    line = text[: text.index('"front"')].count("\n") + 2  # the first element of the front
    assert (f"card.json:{line}:3 /front/0: card 'c0': expands to more than {MAX_EXPANDED} "
            "elements" in outcome.output), outcome.output  # fmt: skip
    drawn = {"game": "g", "title": "G", "version": "1", "cards": [{"id": "c0", "n0": 20}]}
    assert check_repeat_case((drawn, files, "per-card"), tmp_path).rendered

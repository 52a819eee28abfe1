"""Declared kinds: a catalog's own `kinds` (names, collections, sizes, layouts,
fields of every type with max_length, minimum, maximum, enum, default, lists of
lists and references, required fields) with hostile and mistaken values, and
components of those kinds holding values of the declared type or of any other,
through `validate`, `check`, `render`, `schema --catalog` and `export-table`.

Each command must exit 0, 1 or 2 within a time limit, never with a traceback or
an internal error; exit 1 with located problems (`file:line:column /pointer:`)
or a one-line refusal; nothing half-written (no temporary, no output file or
folder left by a refusal); no control character from the catalog reaching the
terminal. Whether the example was valid (`validate` exit 0) and whether it
reached rendering (`render` exit 0 with a PDF) are events and tallies.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzing import Hang, fuzz_settings, hard_timeout, scalars, smoke_settings, tally
from hypothesis import event as _event
from hypothesis import given
from hypothesis import strategies as st

from protopress.cli import cli

HANG = 120  # seconds one command may take (a render on a busy machine included)

SOUND_KIND_NAMES = ["tok", "resource-token", "tile2", "a" * 40]
HOSTILE_KIND_NAMES = ["a/b", "A-Kind", "a\x1b[31mred", "", "card", "symbol", "catalog",
                      "common", "a" * 41, "a b", "-a", "a--b", "tok-", "\u00e9t\u00e9",
                      "\u202etok", "tok\n", "0", "..", "layout", "kinds"]  # fmt: skip
SOUND_COLLECTIONS = ["tokens", "tiles", "markers"]
HOSTILE_COLLECTIONS = ["tokens", "cards", "symbols", "kinds", "game", "title", "", "a/b",
                       "to\x1bkens", "~1", "$schema", None, 1, ["tokens"]]  # fmt: skip
SOUND_FIELD_NAMES = ["n", "value", "gives", "label", "flag", "rows", "side", "cost_2"]
HOSTILE_FIELD_NAMES = ["id", "count", "title", "a/b", "", "~1", "x" * 200, "\x1b[2J", "$ref",
                       "n-1", "N", "\u202en"]  # fmt: skip
TYPES = ["text", "number", "integer", "boolean", "list", "reference"]
HOSTILE_TYPES = ["string", "object", "", "Text", None, 1, ["text"], {"type": "text"}]
SOUND_LIMITS = [1, 2, 3, 10, 2000, 10000]
HOSTILE_LIMITS = [10001, 0, -1, 2**63, 10**30, 1.5, "5", None, True]
HOSTILE_BOUNDS = [2**63, -(2**63), 1e308, -1e308, 0.5, "1", None, True, [], {}]
HOSTILE_TARGETS = ["cards", "nope", "", "kinds", "game", 1, None, ["symbols"]]
SOUND_SIZES = ["token", "poker", "mini", {"width": "30mm", "height": "30mm"},
               {"width": "40mm", "height": "40mm", "shape": "circle"}]  # fmt: skip
HOSTILE_SIZES = ["nope", "", 40, None, []]
LENGTHS = ["30mm", "10mm", "9.99mm", "1000mm", "1001mm", "2000mm", "1in", 30, 0, -5,
           "-5mm", "nan mm", "1e308mm", "inf", "", None, True]  # fmt: skip
SHAPES = ["rectangle", "circle", "hex", "star", "", None]
HOSTILE_LAYOUT_PATHS = ["layouts/missing.json", "../kind.json", "/etc/passwd", "layouts", "",
                        "layouts/kind.yaml", "layouts/../../kind.json", 1, None]  # fmt: skip
ODD_KEYS = [("maxLength", 3), ("pattern", "(a+)+$"), ("$ref", "http://example.com/x"),
            ("format", "email"), ("minLength", -1), ("items", {"type": "string"}),
            ("additionalProperties", True), ("if", {}), ("unknown", 1)]  # fmt: skip
SYMBOL_IDS = ["sun", "moon"]
SOUND_IDS = ["a", "b", "c", "d"]
HOSTILE_IDS = ["a", "A B", "", "a" * 100, "\x1b[31m", "sun", 1, None, "a/b"]
HOSTILE_TEXTS = ["\x1b[31mred", "\u202eevil", "<b>open", ":sun:", "{n}", "\x00", "x" * 2001]


@st.composite
def hostile(draw, rate: int) -> bool:
    """True about rate times in a hundred: this choice is a mistake."""
    return draw(st.integers(1, 100)) <= rate


@st.composite
def field_specs(draw, rate: int, targets: list, depth: int = 0):
    """A field declaration of a known type with keys that fit it (a mistake now and
    then, more often at a higher rate)."""
    mistake = hostile(rate)
    spec: dict = {"type": draw(st.sampled_from(HOSTILE_TYPES) if draw(mistake) else
                               st.sampled_from(TYPES if depth < 2 else TYPES[:4]))}  # fmt: skip
    if draw(mistake):
        del spec["type"]
    kind = spec.get("type")
    if kind in ("text", "list") and draw(st.booleans()) or draw(mistake):
        spec["max_length"] = draw(st.sampled_from(HOSTILE_LIMITS) if draw(mistake) else
                                  st.sampled_from(SOUND_LIMITS))  # fmt: skip
    if kind in ("number", "integer") or draw(mistake):
        low = draw(st.integers(-20, 20))
        if draw(st.booleans()):
            spec["minimum"] = draw(st.sampled_from(HOSTILE_BOUNDS)) if draw(mistake) else low
        if draw(st.booleans()):
            spec["maximum"] = (draw(st.sampled_from(HOSTILE_BOUNDS)) if draw(mistake) else
                               low + draw(st.integers(0 if not draw(mistake) else -5, 100)))  # fmt: skip
    if kind == "list" or draw(mistake):
        if draw(mistake):
            if draw(st.booleans()):
                spec["of"] = draw(st.one_of(scalars, st.just({})))
        else:
            spec["of"] = draw(field_specs(rate, targets, depth + 1))
    if kind == "reference" or draw(mistake):
        if not draw(mistake):
            spec["to"] = draw(st.sampled_from(targets))
        elif draw(st.booleans()):
            spec["to"] = draw(st.sampled_from(HOSTILE_TARGETS))
    if draw(st.integers(0, 3)) == 0 and kind in ("text", "integer", "number", "reference"):
        choices = st.one_of(sound_values(spec, targets), hostile_values(spec)) if draw(
            mistake) else sound_values(spec, targets)  # fmt: skip
        spec["enum"] = draw(st.lists(choices, min_size=1, max_size=4, unique_by=repr))
        if draw(mistake):
            spec["enum"] = draw(st.one_of(scalars, st.just([])))
    if draw(st.integers(0, 2)) == 0:
        spec["default"] = draw(hostile_values(spec) if draw(mistake) else
                               sound_values(spec, targets))  # fmt: skip
    if draw(st.integers(0, 5)) == 0:
        spec["description"] = draw(scalars if draw(mistake) else st.text(max_size=20))
    if draw(mistake):
        key, value = draw(st.sampled_from(ODD_KEYS))
        spec[key] = value
    return spec


def _bound(spec: dict, key: str, default: int) -> int:
    value = spec.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 10**6:
        return int(value)
    return default


def sound_values(spec: object, targets: list, ids: tuple = ("a", "b")):
    """Values of a field's declared type within its bounds (any text, bidi and
    control characters included)."""
    if not isinstance(spec, dict):
        return scalars
    if isinstance(spec.get("enum"), list) and spec["enum"]:
        return st.sampled_from(spec["enum"])
    kind = spec.get("type")
    limit = spec.get("max_length")
    limit = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None
    if kind == "text":
        return st.text(max_size=min(limit or 30, 30))
    if kind in ("integer", "number"):
        low = _bound(spec, "minimum", -10)
        high = max(low, _bound(spec, "maximum", low + 100))
        if kind == "integer":
            return st.integers(low, high)
        return st.floats(low, high, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "reference":
        return st.sampled_from(SYMBOL_IDS if spec.get("to") == "symbols" else list(ids))
    if kind == "list":
        return st.lists(sound_values(spec.get("of"), targets, ids), max_size=min(limit or 4, 4))
    return scalars


def hostile_values(spec: object, depth: int = 0):
    """Values of a field's type at and past its bounds, or of another type."""
    kind = spec.get("type") if isinstance(spec, dict) else None
    limit = spec.get("max_length") if isinstance(spec, dict) else None
    limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else None
    edges = [limit, limit + 1] if limit and 0 < limit < 3000 else []
    if kind == "text":
        return st.one_of(st.sampled_from(HOSTILE_TEXTS),
                         st.sampled_from([2000, 2001, *edges]).map(lambda n: "x" * n), scalars)  # fmt: skip
    if kind in ("integer", "number"):
        return st.one_of(st.sampled_from([2**53 + 1, 2**63, 10**30, -(10**30), 1e308, 0.5]),
                         st.integers(-200, 200), scalars)  # fmt: skip
    if kind == "reference":
        return st.one_of(st.sampled_from(["nope", "SUN", "", "a/b", "\x1b"]), scalars)
    if kind == "list" and depth < 3:
        item = st.one_of(hostile_values(spec.get("of"), depth + 1), scalars)
        sizes = [0, 1000, 1001, *edges]
        return st.one_of(
            st.lists(item, max_size=4),
            st.tuples(st.sampled_from(sizes), item).map(lambda pair: [pair[1]] * pair[0]),
            scalars,
        )
    return scalars


@st.composite
def sizes(draw, rate: int):
    if not draw(hostile(rate)):
        return draw(st.sampled_from(SOUND_SIZES))
    if draw(st.booleans()):
        return draw(st.sampled_from(HOSTILE_SIZES))
    size = {}
    for key, options in (("width", LENGTHS), ("height", LENGTHS), ("shape", SHAPES)):
        if draw(st.integers(0, 5)):
            size[key] = draw(st.sampled_from(options))
    return size


@st.composite
def declarations(draw, rate: int, collection: object, targets: list):
    """One kind's declaration: its collection, maybe a size, a layout, fields, required."""
    mistake = hostile(rate)
    declaration: dict = {"collection": collection}
    if draw(st.integers(0, 2)):
        declaration["size"] = draw(sizes(rate))
    if draw(st.booleans()):
        declaration["layout"] = draw(st.sampled_from(HOSTILE_LAYOUT_PATHS) if draw(mistake)
                                     else st.just("layouts/kind.json"))  # fmt: skip
    if draw(mistake):
        declaration["fields"] = draw(st.one_of(scalars, st.lists(scalars, max_size=2)))
    else:
        names = st.one_of(st.sampled_from(HOSTILE_FIELD_NAMES)) if draw(mistake) else \
            st.sampled_from(SOUND_FIELD_NAMES)  # fmt: skip
        declaration["fields"] = draw(st.dictionaries(names, field_specs(rate, targets), max_size=4))
    if draw(st.booleans()):
        names = list(declaration["fields"]) if isinstance(declaration["fields"], dict) else []
        declaration["required"] = draw(
            st.one_of(st.lists(st.sampled_from(names + ["nope", "id", "count", ""]), max_size=3),
                      scalars) if draw(mistake) else
            st.lists(st.sampled_from(names or ["id"]), max_size=3, unique=True))  # fmt: skip
    if draw(st.integers(0, 4)) == 0:
        declaration["description"] = draw(scalars if draw(mistake) else st.text(max_size=20))
    if draw(mistake):
        declaration[draw(st.sampled_from(["colour", "fieldz", "Collection"]))] = draw(scalars)
    return declaration


@st.composite
def components(draw, rate: int, declaration: dict, targets: list, index: int):
    """A component of a declared kind: its fields' values of the declared type, mostly."""
    mistake = hostile(rate)
    fields = declaration.get("fields")
    fields = fields if isinstance(fields, dict) else {}
    required = declaration.get("required")
    required = set(required) if isinstance(required, list) else set()
    component: dict = {"id": draw(st.sampled_from(HOSTILE_IDS)) if draw(mistake) else
                       SOUND_IDS[index]}  # fmt: skip
    if draw(st.integers(0, 3)) == 0:
        component["count"] = draw(st.sampled_from([0, 10000, 10001, -1, "2", 1.5]) if draw(
            mistake) else st.sampled_from([1, 2, 3]))  # fmt: skip
    for name, spec in fields.items():
        if name in required or draw(st.integers(0, 3)):
            component[name] = draw(hostile_values(spec) if draw(mistake) else
                                   sound_values(spec, targets))  # fmt: skip
    if draw(mistake):
        component[draw(st.sampled_from(["valeu", "titel", "\x1b"]))] = draw(scalars)
    return component


@st.composite
def layouts_of(draw, rate: int, kind: str, declaration: dict):
    """A layout of the kind binding its declared fields (and, as a mistake, others)."""
    fields = declaration.get("fields")
    names = [n for n in fields if isinstance(n, str)] if isinstance(fields, dict) else []
    names = (names or ["id"]) + ["id", "count"]
    mistake = hostile(rate)

    def bound():
        return st.sampled_from(names + (["titel", "n.0", "gives.x"] if draw(mistake) else [])).map(
            lambda name: "{" + name + "}")  # fmt: skip

    front: list = [{"type": "rect", "bleed": True, "fill": "#fbf6ea"}]
    for _ in range(draw(st.integers(1, 4))):
        shape = draw(st.sampled_from(["text", "repeat", "icons", "position", "when"]))
        if shape == "text":
            front.append({"type": "text", "x": 2, "y": 2, "w": 20, "h": 6, "text": draw(bound())})
        elif shape == "repeat":
            front.append({"type": "rect", "x": 1, "y": 1, "w": 1, "h": 1, "fill": "#000000",
                          "repeat": draw(st.one_of(
                              st.fixed_dictionaries({"count": bound()}),
                              st.fixed_dictionaries({"each": bound()})))})  # fmt: skip
        elif shape == "icons":
            front.append({"type": "icons", "x": 1, "y": 8, "icon_size": 3, "items": draw(bound()),
                          "from": draw(st.sampled_from(["symbols", "tokens", "tiles"]))})  # fmt: skip
        elif shape == "position":
            front.append({"type": "rect", "x": draw(bound()), "y": 3, "w": 2, "h": 2})
        else:
            front.append({"type": "text", "x": 2, "y": 10, "w": 20, "h": 6, "text": "!",
                          "when": draw(st.sampled_from(names))})  # fmt: skip
    layout: dict = {"kind": kind, "front": front}
    if draw(st.integers(0, 2)) == 0:
        layout["size"] = draw(st.sampled_from(["token", "poker"]))
    return layout


@st.composite
def declared_catalogs(draw):
    """A catalog of one to three declared kinds, their components, and a layout of the
    first; how many mistakes it holds depends on a rate drawn first (none at 0)."""
    rate = draw(st.sampled_from([0, 0, 1, 3, 10, 30, 60]))
    count = draw(st.integers(1, 3))
    names = [draw(st.sampled_from(HOSTILE_KIND_NAMES)) if draw(hostile(rate)) else
             SOUND_KIND_NAMES[index] for index in range(count)]  # fmt: skip
    names = list(dict.fromkeys(names))
    collections = [draw(st.sampled_from(HOSTILE_COLLECTIONS)) if draw(hostile(rate)) else
                   SOUND_COLLECTIONS[index] for index in range(len(names))]  # fmt: skip
    targets = ["symbols", *[c for c in collections if isinstance(c, str)]]
    kinds: dict = {}
    document: dict = {
        "game": "fuzz-kinds",
        "title": "Fuzz",
        "version": "1",
        "symbols": [
            {"id": "sun", "name": "Sun", "shape": "circle", "colour": "#e0a020"},
            {"id": "moon", "name": "Moon", "shape": "crescent", "colour": "#4060a0"},
        ],
    }
    for name, collection in zip(names, collections, strict=True):
        kinds[name] = draw(declarations(rate, collection, targets))
        if isinstance(collection, str) and collection not in document:
            document[collection] = [
                draw(components(rate, kinds[name], targets, index))
                for index in range(draw(st.integers(0 if draw(hostile(rate)) else 1, 4)))
            ]
    document["kinds"] = kinds
    if draw(hostile(rate // 4)):
        document["kinds"] = draw(st.one_of(scalars, st.just([])))
    first = names[0]
    layout = draw(layouts_of(rate, first, kinds[first]))
    command_kind = draw(st.sampled_from([*names, "nope", "card"]) if draw(hostile(rate)) else
                        st.just(first))  # fmt: skip
    event(f"mistake rate {rate}%")
    return document, first, layout, command_kind


# --------------------------------------------------------------------------
# The commands and what each must show


def _file_name(kind: str) -> str | None:
    """The kind's layout file name in a `--layouts` folder, if it can be a file name."""
    if not kind or "/" in kind or "\x00" in kind or kind in (".", "..") or len(kind) > 100:
        return None
    return f"{kind}.json"


# a pointer may hold spaces: a key "A B", or a long key shortened as "xxx...(200 characters)"
LOCATED = re.compile(r"^\S.*?:\d+:\d+ (/.*?)?: \S")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def assert_command_contract(command: str, exit_code: int, stdout: str, stderr: str,
                            written: list[Path]) -> None:  # fmt: skip
    """Exit 0, 1 or 2, no traceback, located problems or a refusal for exit 1, control
    characters escaped, and no output left by a refusal."""
    output = stdout + stderr
    assert "Traceback" not in output, output[-3000:]
    assert "internal error" not in output, output[-3000:]
    assert exit_code in (0, 1, 2), (command, exit_code, output[-3000:])
    assert not CONTROL.search(output), f"a control character reached the terminal: {output!r}"
    if exit_code != 0:
        assert output.strip(), f"{command}: exit {exit_code} without a word"
        leftovers = [path for path in written if path.exists() or path.is_symlink()]
        assert not leftovers, (command, leftovers, output[-2000:])
    if exit_code == 1:
        lines = [line for line in stdout.splitlines() if line.strip()]
        refusals = [line for line in stderr.splitlines() if line.startswith("protopress: ")]
        assert lines or refusals, (command, output[-3000:])
        for line in lines:
            if command == "check" and re.match(r"^(error|warning|info) ", line):
                continue  # a design check's finding
            if command == "check" and re.match(r"^\d+ errors?, ", line):
                continue
            assert LOCATED.match(line), f"{command}: not located: {line!r}"


def event(text: str) -> None:
    with contextlib.suppress(Exception):
        _event(text)


def run(args: list[str]) -> tuple[int, str, str]:
    try:
        with hard_timeout(HANG):
            result = CliRunner().invoke(cli, args, prog_name="protopress", catch_exceptions=False)
    except Hang:
        raise AssertionError(f"no answer after {HANG} s: protopress {args}") from None
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("declared-kinds")


def check_declared_case(case, workdir: Path) -> None:
    document, first, layout, command_kind = case
    root = Path(tempfile.mkdtemp(dir=workdir))
    try:
        catalog = root / "cat.json"
        catalog.write_text(json.dumps(document, indent=1, ensure_ascii=True))
        layouts = root / "layouts"
        layouts.mkdir()
        (layouts / "kind.json").write_text(json.dumps(layout, indent=1, ensure_ascii=True))
        given_layouts = root / "given"
        given_layouts.mkdir()
        name = _file_name(first)
        if name:
            (given_layouts / name).write_text(json.dumps(layout, indent=1, ensure_ascii=True))
        code, out, err = run(["validate", str(catalog)])
        assert_command_contract("validate", code, out, err, [])
        valid = code == 0
        event("valid" if valid else f"validate: exit {code}")
        tally("valid" if valid else "refused")
        code, out, err = run(["check", str(catalog), "--layouts", str(given_layouts)])
        assert_command_contract("check", code, out, err, [])
        schemas = root / "schemas"
        code, out, err = run(["schema", "--catalog", str(catalog), "-o", str(schemas)])
        assert_command_contract("schema", code, out, err, [schemas])
        if code == 0:
            for path in schemas.iterdir():
                json.loads(path.read_text())  # every schema written is whole
        table = root / "table.csv"
        code, out, err = run(["export-table", str(catalog), "--kind", command_kind,
                              "-o", str(table)])  # fmt: skip
        assert_command_contract("export-table", code, out, err, [table])
        out_dir = root / "out"
        args = ["render", str(catalog), "-o", str(out_dir), "-q", "--layout", "per-card"]
        if name and len(first) % 2:
            args[2:2] = ["--layouts", str(given_layouts)]
        code, out, err = run(args)
        assert_command_contract("render", code, out, err, [out_dir])
        pdfs = sorted(out_dir.rglob("*.pdf")) if out_dir.exists() else []
        for pdf in pdfs:  # every PDF written is whole, and no temporary is left
            data = pdf.read_bytes()
            assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), pdf
        if out_dir.exists():
            assert not list(out_dir.rglob("*.tmp")), sorted(out_dir.rglob("*"))
        reached = "rendered" if code == 0 and pdfs else f"render: exit {code}"
        event(reached)
        tally(reached)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=5 * HANG)
@given(case=declared_catalogs())
def test_fuzz_declared_kinds(case, workdir):
    check_declared_case(case, workdir)


@smoke_settings(examples=8)
@given(case=declared_catalogs())
def test_smoke_declared_kinds(case, workdir):
    check_declared_case(case, workdir)

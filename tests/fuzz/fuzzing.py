"""Shared pieces of the fuzz tests: settings, a hard time limit, and strategies
that mutate JSON documents structurally and as text and bytes.

Every surface has two tests: `test_fuzz_*` (marked `fuzz`, deselected by
default; `pytest -m fuzz`, scaled by PROTOPRESS_FUZZ_EXAMPLES) and
`test_smoke_*` (a handful of derandomized examples in the default suite).
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import json
import os
import re
import signal
import time

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from protopress.components import InvalidInput, load_catalog
from protopress.components.problems import Problem

EXAMPLES = int(os.environ.get("PROTOPRESS_FUZZ_EXAMPLES", "200"))
SMOKE_EXAMPLES = 6
HANG_SECONDS = 60  # an example that runs longer than this is a hang

_QUIET = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.filter_too_much,
    HealthCheck.large_base_example,
]


def fuzz_settings(scale: float = 1.0, deadline_seconds: float = 10.0, **more) -> settings:
    """Settings of a fuzz run: PROTOPRESS_FUZZ_EXAMPLES (times scale) examples."""
    return settings(
        **more,
        max_examples=max(1, int(EXAMPLES * scale)),
        deadline=datetime.timedelta(seconds=deadline_seconds),
        suppress_health_check=_QUIET,
        print_blob=True,
    )


def smoke_settings(examples: int = SMOKE_EXAMPLES) -> settings:
    """A few reproducible examples for the default suite (no deadline: CI may be slow)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


class Hang(BaseException):
    """An example ran longer than HANG_SECONDS (a BaseException: nothing swallows it)."""


@contextlib.contextmanager
def hard_timeout(seconds: float = HANG_SECONDS):
    """Interrupt the block with Hang after seconds (SIGALRM; the main thread only)."""

    def alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        tally("example")


def tally(what: str) -> None:
    """With PROTOPRESS_FUZZ_TALLY=FOLDER, a line per example (and per reach event)
    in FOLDER/<test>.txt, so a long run's count, rate and reach can be read
    while it runs (hypothesis prints its statistics only at the end)."""
    folder = os.environ.get("PROTOPRESS_FUZZ_TALLY")
    if folder:
        test = os.environ.get("PYTEST_CURRENT_TEST", "test").split("::")[-1].split(" ")[0]
        with open(os.path.join(folder, f"{test}.txt"), "a") as handle:
            handle.write(f"{time.time():.1f} {what}\n")


# --------------------------------------------------------------------------
# What a clean refusal looks like


def printable(text: str) -> None:
    """The text can be written to a UTF-8 terminal (no lone surrogates)."""
    text.encode("utf-8")


def assert_clean_problems(problems, display: str, text_lines: int | None = None) -> None:
    """Problems that name the file, a real line and column, a JSON pointer and a message."""
    assert problems, "an invalid input must come with at least one problem"
    for problem in problems:
        assert isinstance(problem, Problem), problem
        assert problem.file == display, problem
        assert isinstance(problem.line, int) and problem.line >= 1, problem
        assert isinstance(problem.column, int) and problem.column >= 1, problem
        if text_lines is not None:
            assert problem.line <= text_lines + 1, problem
        assert problem.pointer == "" or problem.pointer.startswith("/"), problem
        assert isinstance(problem.message, str) and problem.message.strip(), problem
        line = str(problem)
        assert line.startswith(f"{display}:{problem.line}:{problem.column} "), line
        printable(line)


def line_count(data: bytes) -> int:
    return data.count(b"\n") + 1


def check_catalog_file(path, display: str, text_lines: int) -> None:
    """load_catalog on a fuzzed file: a catalog, or clean located problems, in time."""
    with hard_timeout():
        try:
            catalog = load_catalog(path, display=display)
        except InvalidInput as invalid:
            assert_clean_problems(invalid.problems, display, text_lines)
            event("refused")
            return
    event("valid")
    assert catalog.game and catalog.components is not None


# --------------------------------------------------------------------------
# Values


ODD_STRINGS = [
    "",
    " ",
    "\t\n",
    "\u0000",
    "\ud800",  # a lone surrogate (written as an escape in the JSON text)
    "\udfff\ud800",
    "\u202e\u0645\u0631\u062d\u0628\u0627",  # right-to-left override, Arabic
    "e\u0301\u0301\u0301",  # combining accents
    "\U0001f48e\U0001f9cc",  # emoji
    "\ufeff",
    "\uffff",
    "a" * 5000,
    "{title}",
    "{catalog.style.accent}",
    "{",
    "}{",
    "../../../../etc/passwd",
    "/",
    "~",
    "~0~1",
    "NaN",
    "1e999",
    "-0",
    "0x10",
    "true",
    "null",
    "[]",
    '""',
    "=1+1",
    "%s%n",
    "fire-ruby",
    "fire-rubby",
    "FIRE-RUBY",
    "monster",
    "red",
    "N",
    "NESW",
    "NNNN",
    "X",
    "hand",
    "all",
    "2",
    "smiley",
]

HUGE_INTEGERS = [
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    12,
    20,
    21,
    100,
    1000,
    1001,
    9999,
    10000,
    10001,
    10**9,
    -(10**9),
    2**31,
    2**53 + 1,
    2**63,
    -(2**63) - 1,
    2**64,
    10**30,
    -(10**30),
    10**300,
]

FLOATS = [0.5, -0.0, 1.5, 2.0, 1e-300, 5e-324, 1e308, -1e308, 1.7976931348623157e308]

# Tokens that json.dumps cannot write on its own: put into the document as
# placeholders, then swapped into the text.
RAW_TOKENS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "1e-400",
    "1E+2",
    "-0",
    "0.0",
    "1" * 5000,  # past Python's 4300-digit limit for int()
    "-" + "9" * 4301,
    "1" + "0" * 400 + ".5",
    '"\\ud800"',
    '"\\udc00\\ud800"',
    '"\\u0000"',
    '"' + "\\n" * 300 + '"',
]


def _deep(kind: str, depth: int) -> str:
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    return '[{"a":' * (depth // 2) + "[]" + "}]" * (depth // 2)


_PLACEHOLDER = "\u0001raw{}\u0001"


class Raw:
    """Text put into a JSON document as it is (see serialize)."""

    def __init__(self, text: str):
        self.text = text


keys = st.one_of(
    st.sampled_from(
        ["id", "count", "title", "kind", "type", "x", "y", "w", "h", "text", "$schema"]
    ),
    st.sampled_from(ODD_STRINGS),
    st.text(max_size=12),
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(HUGE_INTEGERS),
    st.integers(),
    st.sampled_from(FLOATS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(ODD_STRINGS),
    st.text(max_size=40),
)

json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=5),
    max_leaves=15,
)


@st.composite
def raw_values(draw):
    if draw(st.booleans()):
        return Raw(draw(st.sampled_from(RAW_TOKENS)))
    depth = draw(st.sampled_from([63, 64, 65, 100, 200, 499, 500, 990, 1000, 5000, 100_000]))
    return Raw(_deep(draw(st.sampled_from(["list", "object", "mixed"])), depth))


def weird_values(strings_in_document=()):
    """Any JSON value, leaning to the ones that break programs."""
    options = [json_values, scalars, raw_values()]
    if strings_in_document:
        options.append(st.sampled_from(sorted(strings_in_document)))
    return st.one_of(*options)


# --------------------------------------------------------------------------
# Structural mutations of a document


def _children(node):
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


def pick_path(draw, document, containers_only=False) -> list:
    """A path from the root: each step goes deeper with probability 3/4."""
    path, node = [], document
    while True:
        children = _children(node)
        if not children or draw(st.integers(0, 3)) == 0:
            break
        key = children[draw(st.integers(0, len(children) - 1))]
        child = node[key]
        if containers_only and not isinstance(child, dict | list):
            break
        path.append(key)
        node = child
    return path


def _get(document, path):
    for key in path:
        document = document[key]
    return document


def strings_of(document) -> set[str]:
    found, stack = set(), [document]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            found.update(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


MUTATIONS = ["replace", "delete", "add_key", "duplicate_item", "wrap", "swap", "empty", "number"]


@st.composite
def mutate_tree(draw, document):
    """The document with one structural change (the argument is not modified)."""
    document = copy.deepcopy(document)
    mutation = draw(st.sampled_from(MUTATIONS))
    strings = strings_of(document)
    path = pick_path(draw, document)
    if not path:
        if mutation in ("replace", "wrap", "empty"):
            return draw(weird_values(strings))
        path = []
    parent = _get(document, path[:-1]) if path else None
    key = path[-1] if path else None
    target = _get(document, path)
    if mutation == "replace" and parent is not None:
        parent[key] = draw(weird_values(strings))
    elif mutation == "delete" and parent is not None:
        del parent[key]
    elif mutation == "add_key":
        node = target if isinstance(target, dict) else parent
        if isinstance(node, dict):
            new_key = draw(st.one_of(keys, st.sampled_from(sorted(strings) or ["k"])))
            if node and draw(st.booleans()):  # a near miss of an existing key
                existing = sorted(node)[draw(st.integers(0, len(node) - 1))]
                new_key = draw(
                    st.sampled_from(
                        [existing + "s", existing[:-1], existing.upper(), " " + existing]
                    )
                )
            node[new_key] = draw(weird_values(strings))
    elif mutation == "duplicate_item":
        node = target if isinstance(target, list) else parent
        if isinstance(node, list) and node:
            node.append(copy.deepcopy(node[draw(st.integers(0, len(node) - 1))]))
    elif mutation == "wrap" and parent is not None:
        parent[key] = draw(st.sampled_from([[target], {"value": target}, [target, target]]))
    elif mutation == "swap" and parent is not None:
        other = pick_path(draw, document)
        parent[key] = copy.deepcopy(_get(document, other))
    elif mutation == "empty" and parent is not None:
        parent[key] = draw(st.sampled_from([[], {}, "", 0, None, False]))
    elif mutation == "number" and parent is not None:
        parent[key] = draw(st.one_of(st.sampled_from(HUGE_INTEGERS), st.sampled_from(FLOATS)))
    return document


def serialize(document, indent) -> str:
    """JSON text of a document that may hold Raw values."""
    raws: list[str] = []

    def encode(value):
        if isinstance(value, Raw):
            raws.append(value.text)
            return _PLACEHOLDER.format(len(raws) - 1)
        if isinstance(value, dict):
            return {k: encode(v) for k, v in value.items()}
        if isinstance(value, list):
            return [encode(v) for v in value]
        return value

    text = json.dumps(encode(document), indent=indent, ensure_ascii=False)
    for index, raw in enumerate(raws):
        text = text.replace(json.dumps(_PLACEHOLDER.format(index), ensure_ascii=False), raw, 1)
    return text


_KEY = re.compile(r'"([^"\\]{1,40})"\s*:')


@st.composite
def mutate_text(draw, text: str) -> str:
    """JSON text with a change that breaks its syntax or repeats a key."""
    how = draw(
        st.sampled_from(
            ["duplicate_key", "truncate", "delete", "insert", "replace", "trailing", "comment"]
        )
    )
    at = draw(st.integers(0, max(0, len(text) - 1)))
    if how == "duplicate_key":
        matches = list(_KEY.finditer(text))
        if matches:
            match = matches[draw(st.integers(0, len(matches) - 1))]
            value = draw(st.sampled_from(["null", "1", '"x"', "[]", "{}"]))
            return text[: match.start()] + f'"{match.group(1)}": {value}, ' + text[match.start() :]
        return text
    if how == "truncate":
        return text[:at]
    if how == "delete":
        return text[:at] + text[at + 1 :]
    piece = draw(
        st.one_of(
            st.sampled_from(list('{}[],:"\\ \n') + ["/*", "//", "'", "\x00"]), st.text(max_size=3)
        )
    )
    if how == "insert":
        return text[:at] + piece + text[at:]
    if how == "replace":
        return text[:at] + piece + text[at + 1 :]
    if how == "comment":
        return "// a comment\n" + text
    return text + draw(st.sampled_from([",", "}", "]", " x", "\n\n", "{}", "\x00"]))


@st.composite
def to_bytes(draw, text: str) -> bytes:
    """The text as bytes: UTF-8 mostly; sometimes a BOM, bad bytes, or another encoding."""
    how = draw(st.sampled_from(["utf8"] * 6 + ["bom", "bad", "utf16", "latin1", "surrogate"]))
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if how == "utf16":
        return text.encode("utf-16", "surrogatepass")
    if how == "latin1":
        return text.encode("latin-1", "replace")
    data = text.encode("utf-8", "surrogatepass")
    if how in ("bad", "surrogate"):
        at = draw(st.integers(0, len(data)))
        junk = draw(
            st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xf4\x90\x80\x80"])
        )
        data = data[:at] + junk + data[at:]
    return data


@st.composite
def mutated_documents(draw, bases: list, max_tree: int = 4, text_rate: int = 5):
    """Bytes of a mutated base document: tree changes, then sometimes text and byte changes.

    One example in text_rate (about) also has its text mangled.
    """
    document = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(0, max_tree))):
        document = draw(mutate_tree(document))
    text = serialize(document, draw(st.sampled_from([None, 2])))
    if draw(st.integers(0, text_rate - 1)) == 0:
        for _ in range(draw(st.integers(1, 3))):
            text = draw(mutate_text(text))
    return draw(to_bytes(text))

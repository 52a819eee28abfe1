"""Every command, every path argument, every kind of special file: no exit 70, no hang.

Input paths given a FIFO, /dev/zero, a folder, a dangling link or a link loop
must be refused as invalid input (1) or a usage error (2), without reading the
special file forever. Output paths are allowed to succeed where writing there
is sound (a device takes the bytes directly), but never end in an internal
error or a traceback. Each case runs as a real process with a timeout.
"""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path

from .reliability_helpers import environment, protopress_command

TIMEOUT = 40  # seconds; a case that takes longer has hung on its special file
KINDS = ("fifo", "zero", "folder", "dangling", "loop")

# (command words with {} where the special path goes, whether that path is an input)
CATALOG = str(builtin_catalog_path("gemstone-caverns"))
CASES = [
    (["validate", "{}"], True),
    (["check", "{}"], True),
    (["diff", "{}", CATALOG], True),
    (["diff", CATALOG, "{}"], True),
    (["render", "{}", "-o", "{out}"], True),
    (["render", "gemstone-caverns", "--kind", "die", "--layouts", "{}", "-o", "{out}"], True),
    (["preflight", "{}"], True),
    (["pay", "--cost", "fire-ruby", "--hand", "fire-ruby", "--catalog", "{}"], True),
    (["import", "{}", "--kind", "card", "-o", "{out}/catalog.json"], True),
    (["export-table", "{}", "--kind", "card", "-o", "{out}/cards.csv"], True),
    (["simulate", "gemstone-caverns", "--games", "1", "--catalog", "{}"], True),
    (["simulate", "gemstone-caverns", "--games", "1", "--rules", "{}"], True),
    (["balance", "gemstone-caverns", "--games", "1", "--workers", "1", "--catalog", "{}"], True),
    (["replay", "{}"], True),
    (["score", "gemstone-caverns", "{}"], True),
    (["score", "gemstone-caverns", "{state}", "--catalog", "{}"], True),
    (["solo", "stonespine-architects", "--resume", "{}"], True),
    (["watch", "{}"], True),
    (["preview", "{}", "--port", "0"], True),
    (["new", "{}"], False),
    (["schema", "--output-dir", "{}"], False),
    (["render", "gemstone-caverns", "--kind", "die", "-o", "{}"], False),
    (["simulate", "gemstone-caverns", "--games", "1", "--log-dir", "{}"], False),
    (["balance", "gemstone-caverns", "--games", "1", "--workers", "1", "--json", "{}"], False),
    (["export-table", CATALOG, "--kind", "die", "-o", "{}"], False),
    (["solo", "stonespine-architects", "--save", "{}"], False),
]
# Watched and served inputs wait for a FIFO or a device by design (watch reports
# the problem every round and keeps watching): a folder or a link still is refused.
LONG_RUNNING = {"watch", "preview"}


@pytest.fixture(scope="module")
def specials(tmp_path_factory):
    root = tmp_path_factory.mktemp("specials")
    paths = {}
    fifo = root / "pipe.json"
    os.mkfifo(fifo)
    paths["fifo"] = fifo
    paths["zero"] = Path("/dev/zero")
    folder = root / "folder.json"
    folder.mkdir()
    (folder / "inside.txt").write_text("not empty")
    paths["folder"] = folder
    dangling = root / "dangling.json"
    dangling.symlink_to(root / "nothing-here.json")
    paths["dangling"] = dangling
    loop_a, loop_b = root / "loop-a.json", root / "loop-b.json"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    paths["loop"] = loop_a
    state = root / "state.json"
    state.write_text('{"grid": ["AB..", "...."]}')
    paths["state"] = state
    return paths


def _cases():
    for words, is_input in CASES:
        for kind in KINDS:
            if words[0] in LONG_RUNNING and kind in ("fifo", "zero"):
                continue
            if not is_input and kind == "fifo":
                continue  # a FIFO output waits for its reader, as a shell redirection does
            yield words, is_input, kind


def _run(words, kind, specials, out: Path):
    args = [
        w.replace("{}", str(specials[kind]))
        .replace("{out}", str(out))
        .replace("{state}", str(specials["state"]))
        for w in words
    ]
    try:
        done = subprocess.run(
            protopress_command(*args),
            env=environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT,
            cwd=out,
        )
    except subprocess.TimeoutExpired:
        return args, None, b""
    return args, done.returncode, done.stderr + done.stdout


def test_no_special_file_ends_in_an_internal_error_or_a_hang(specials, tmp_path):
    cases = list(_cases())
    outs = []
    for index in range(len(cases)):
        out = tmp_path / f"case-{index}"
        out.mkdir()
        outs.append(out)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(
            pool.map(
                lambda c: _run(c[1][0], c[1][2], specials, c[0]), zip(outs, cases, strict=True)
            )
        )
    failures = []
    for (words, is_input, kind), (args, code, output) in zip(cases, results, strict=True):
        legit = not is_input or (kind == "folder" and "--layouts" in words)  # a folder of layouts
        expected = (0, 1, 2) if legit else (1, 2)
        if code not in expected or b"Traceback" in output:
            shown = output.decode(errors="replace").strip().splitlines()[-1:] or [""]
            failures.append(f"{kind}: protopress {' '.join(args)} -> {code}: {shown[0][:200]}")
    assert not failures, "\n".join(failures)

"""A render killed at any moment (SIGKILL: no handler runs) leaves every print
file either as it was or complete and new, never torn; the next render removes
the temporaries a killed one left behind."""

import io
import random
import signal
import subprocess
import time

import pytest
from PIL import Image
from pypdf import PdfReader

from protopress.atomic import temporary_target

from .reliability_helpers import (
    environment,
    files_under,
    needs_sigkill,
    protopress_command,
    run_protopress,
    stalling_command,
)

pytestmark = [pytest.mark.kill, needs_sigkill]

GAME = "dragonstone-mine"  # about 65 files (PDFs and PNGs) in well under a second
NEW = ("--png", "--dpi", "72")  # the render that gets killed
OLD = (*NEW, "--bleed", "2mm")  # the previous version on disk: every file differs
KILLS = 20
SEED = 20240607


def render(out, options):
    return protopress_command("render", GAME, "-o", out, *options)


def check_complete(files: dict[str, bytes]) -> None:
    """Every reference file opens: PDFs with pypdf, PNGs decode to the last
    pixel, the README and parts list are whole UTF-8 text ending in a newline."""
    for name, data in files.items():
        if name.endswith(".pdf"):
            assert len(PdfReader(io.BytesIO(data)).pages) > 0, name
        elif name.endswith((".txt", ".csv")):
            assert data.decode("utf-8").endswith("\n"), name
        else:
            assert name.endswith(".png"), name
            with Image.open(io.BytesIO(data)) as image:
                image.load()


def restore(out, files: dict[str, bytes]) -> None:
    """Put the previous version back (hidden temporaries stay, as a kill left them)."""
    for name, data in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)


def split(out):
    """(visible files, hidden temporaries) under out: relative path -> bytes."""
    visible, hidden = {}, {}
    for name, data in files_under(out).items():
        (hidden if name.rsplit("/", 1)[-1].startswith(".") else visible)[name] = data
    return visible, hidden


def target_of(hidden_name: str) -> tuple[str, int | None]:
    folder, _, base = hidden_name.rpartition("/")
    parsed = temporary_target(base)
    assert parsed is not None, f"{hidden_name} is not a temporary of write_atomic"
    return (f"{folder}/{parsed[0]}" if folder else parsed[0]), parsed[1]


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(old files, new files, seconds a whole new render takes) from real renders."""
    root = tmp_path_factory.mktemp("versions")
    old = run_protopress("render", GAME, "-o", root / "old", *OLD)
    assert old.returncode == 0, old.stderr.decode()
    started = time.monotonic()
    new = run_protopress("render", GAME, "-o", root / "new", *NEW)
    duration = time.monotonic() - started
    assert new.returncode == 0, new.stderr.decode()
    old_files, new_files = files_under(root / "old"), files_under(root / "new")
    assert old_files.keys() == new_files.keys()
    # every file differs, but for the parts list, which no render option changes
    assert all(old_files[name] != new_files[name] for name in old_files if name != "parts.csv")
    assert any(name.endswith(".pdf") for name in new_files)
    assert any(name.endswith(".png") for name in new_files)
    check_complete(old_files)
    check_complete(new_files)
    return old_files, new_files, duration


def test_a_render_killed_at_random_moments_never_leaves_a_torn_file(tmp_path, versions):
    old, new, duration = versions
    out = tmp_path / "out"
    restore(out, old)
    rng = random.Random(SEED)
    delays = sorted(rng.uniform(0.05, 1.0) * duration for _ in range(KILLS))
    outcomes = []
    for delay in delays:
        restore(out, old)
        stale_before = set(split(out)[1])
        process = subprocess.Popen(
            render(out, NEW),
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            process.wait(timeout=delay)
            killed = False
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
            killed = True
        when = f"killed at {delay:.3f} s of {duration:.3f} s" if killed else "finished"
        visible, hidden = split(out)
        assert visible.keys() == old.keys(), when  # nothing lost, nothing half-named
        written = 0
        for name, data in visible.items():
            assert data in (old[name], new[name]), f"{name} is torn ({when})"
            # a file both versions share (the parts list) says nothing of how far it got
            written += data == new[name] != old[name]
        for name in hidden:
            target, pid = target_of(name)
            assert target in new, f"{name}: a temporary of no file of the render ({when})"
            assert pid == process.pid or name in stale_before, f"{name} ({when})"
        if written:  # the render got as far as writing: it cleaned up first
            assert not stale_before & set(hidden), f"stale temporaries kept ({when})"
        if not killed:
            assert process.returncode == 0 and visible == new and not hidden
        outcomes.append((killed, written))
    assert any(killed for killed, _ in outcomes), "every render finished before its kill"
    # the next complete render restores order: every file new, no temporary left
    finished = run_protopress("render", GAME, "-o", out, *NEW)
    assert finished.returncode == 0, finished.stderr.decode()
    assert files_under(out) == new


@pytest.mark.parametrize("stall_at", [1, 7, 40])
def test_a_kill_in_the_middle_of_a_write_leaves_a_hidden_temporary_the_next_render_removes(
    tmp_path, versions, stall_at
):
    old, new, _ = versions
    out = tmp_path / "out"
    restore(out, old)
    command = stalling_command(stall_at, "render", GAME, "-o", out, *NEW)
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as stderr:
        process = subprocess.Popen(
            command, env=environment(), stdout=subprocess.PIPE, stderr=stderr
        )
    try:
        for line in process.stdout:
            if line.strip() == b"torn":
                break
        else:
            process.wait()
            said = errors.read_text(errors="replace")[-2000:]
            pytest.fail(f"the render ended before its write number {stall_at}: {said}")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
    visible, hidden = split(out)
    assert visible.keys() == old.keys()
    assert all(data in (old[name], new[name]) for name, data in visible.items())
    (name,) = hidden  # the file being written when the process died
    target, pid = target_of(name)
    assert pid == process.pid
    assert visible[target] == old[target]  # its target is untouched
    assert hidden[name] == new[target][: len(new[target]) // 2]  # the torn half, hidden
    finished = run_protopress("render", GAME, "-o", out, *NEW)
    assert finished.returncode == 0, finished.stderr.decode()
    assert files_under(out) == new  # every file complete, the temporary gone

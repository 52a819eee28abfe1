"""`protopress balance --workers 2` stopped by a signal leaves no process behind.

A real balance run is started in a new session, so that every process it starts
(two workers and multiprocessing's resource tracker) is found by its session id
in /proc. Once the workers run, the signal is sent; the test then checks the exit
status (128 + the signal's number; 130 for Ctrl-C), that no process of the session
is left (within a bounded wait), and that no file is half-written: SIGTERM and
SIGHUP write nothing, Ctrl-C writes the games played so far, whole and flagged
partial. Before, SIGTERM and SIGHUP ended the parent at once and left the workers
and the resource tracker running.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from protopress.balance import run_balance
from protopress.signals import Stopped, deferred_stops, raise_if_stopped, stopping_on_signals

from .reliability_helpers import environment, protopress_command

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or not hasattr(signal, "SIGHUP"),
    reason="needs /proc and POSIX signals",
)

GIB = 1024**3
BOUND = 60  # seconds for anything awaited here: only reached when something is wrong
POLL = 0.05


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as from a terminal, whatever ran pytest


def _stat(pid: str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name: state, ppid, pgrp, session."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # gone meanwhile
        return None
    return text[text.rindex(")") + 2 :].split()


def _processes(field: int, value: int) -> dict[int, str]:
    """Every process (zombies too) whose stat field (1: parent, 3: session) is value,
    with its command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat(entry)
        if fields is not None and int(fields[field]) == value:
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                command = b""
            found[int(entry)] = command.decode(errors="replace")
    return found


def session_processes(session: int) -> dict[int, str]:
    return _processes(3, session)


def children_of(parent: int) -> dict[int, str]:
    return _processes(1, parent)


def wait_until(condition, what: str):
    deadline = time.monotonic() + BOUND
    while not (result := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {BOUND} s: {what}")
        time.sleep(POLL)
    return result


def start_balance(tmp_path) -> subprocess.Popen:
    """A balance run far too long to end by itself: 100,000 games on two workers."""
    args = ("balance", "gem-rush", "--games", 100_000, "--workers", 2)
    args += ("--json", tmp_path / "run.json", "--report", tmp_path / "run.pdf")
    return subprocess.Popen(
        protopress_command(*args),
        env=environment(),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_limited,
    )


def workers_running(balance: subprocess.Popen) -> bool:
    """Both workers started by the balance process run (they are spawned Pythons)."""
    processes = session_processes(balance.pid)
    workers = [pid for pid, command in processes.items() if "spawn_main" in command]
    return len(workers) >= 2


SIGNALS = {
    "SIGTERM": (signal.SIGTERM, 143),
    "SIGHUP": (signal.SIGHUP, 129),
    "SIGINT": (signal.SIGINT, 130),
}


def _stop_and_check(tmp_path, balance: subprocess.Popen, send) -> tuple[str, str]:
    """Send the signal once the workers run; the output, once no process is left."""
    try:
        wait_until(lambda: workers_running(balance), "the workers run")
        send()
        out, err = balance.communicate(timeout=BOUND)
        wait_until(lambda: not session_processes(balance.pid), "no process of the session left")
    finally:  # a failed test leaves nothing running either
        with contextlib.suppress(ProcessLookupError):
            os.killpg(balance.pid, signal.SIGKILL)  # the session's group: workers included
        balance.wait(BOUND)
    return out.decode(), err.decode()


@pytest.mark.parametrize("name", SIGNALS)
def test_a_signal_stops_balance_and_every_process_it_started(tmp_path, name):
    signum, status = SIGNALS[name]
    balance = start_balance(tmp_path)
    out, err = _stop_and_check(tmp_path, balance, lambda: os.kill(balance.pid, signum))
    assert balance.returncode == status, err
    assert "Traceback" not in err and "internal error" not in err
    kept = kept_games(tmp_path)  # the store keeps every chunk that finished, whole
    left = sorted(path.name for path in tmp_path.iterdir())
    store = ["run.games.jsonl"] if kept else []
    resume = (
        f"; {kept} games kept in {tmp_path / 'run.games.jsonl'}: the same command plays the rest"
    )
    if signum == signal.SIGINT:  # the games played so far, written whole
        assert left == ["run.json", "run.pdf", *store], left
        data = json.loads((tmp_path / "run.json").read_text())
        assert data["partial"] is True
        assert data["covered"] == len(data["records"]) < 100_000
        assert kept == data["covered"]
        assert (tmp_path / "run.pdf").read_bytes().startswith(b"%PDF-")
        assert f"interrupted: these numbers cover {data['covered']} of 100000 games" in err
    else:
        assert left == store, left  # nothing else written, no temporary either
        assert err.splitlines()[-1] == (
            f"stopped by {name}: the workers are stopped, nothing written"
            + (resume if kept else "")
        )


def test_a_hangup_of_the_whole_process_group_stops_balance_cleanly(tmp_path):
    """A terminal that closes sends SIGHUP to every process of its foreground group:
    the workers and the resource tracker leave the stopping to balance."""
    balance = start_balance(tmp_path)
    out, err = _stop_and_check(tmp_path, balance, lambda: os.killpg(balance.pid, signal.SIGHUP))
    assert balance.returncode == 129, err
    kept = kept_games(tmp_path)
    resume = (
        f"; {kept} games kept in {tmp_path / 'run.games.jsonl'}: the same command plays the rest"
    )
    assert err.splitlines() == [
        "stopped by SIGHUP: the workers are stopped, nothing written" + (resume if kept else "")
    ]
    assert [path.name for path in tmp_path.iterdir()] == (["run.games.jsonl"] if kept else [])


def kept_games(folder) -> int:
    """The games in the run's store, each on a whole line after the header (0: no store)."""
    store = folder / "run.games.jsonl"
    if not store.exists():
        return 0
    text = store.read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert json.loads(lines[0])["format"] == "protopress-balance-store/1"
    indexes = [json.loads(line)["index"] for line in lines[1:]]
    assert len(set(indexes)) == len(indexes) > 0
    return len(indexes)


def _stop_after_first_chunk(done: int, total: int) -> None:
    """A progress callback that stops the run as SIGTERM does, once a chunk is in."""
    raise Stopped(signal.SIGTERM)


def assert_no_process_left() -> None:
    assert multiprocessing.active_children() == []  # the workers, joined
    assert not [
        pid for pid, command in children_of(os.getpid()).items() if "resource_tracker" in command
    ]  # and the resource tracker, ended and reaped


def test_stopped_on_local_workers_ends_them_and_propagates():
    with pytest.raises(Stopped):
        run_balance("gem-rush", "gem-rush", 200, 2, ["random"], 1, workers=2, chunk=2,
                    progress=_stop_after_first_chunk)  # fmt: skip
    assert_no_process_left()


def test_a_run_that_ends_leaves_no_process_either():
    run = run_balance("gem-rush", "gem-rush", 4, 2, ["random"], 1, workers=2, chunk=2)
    assert run.covered == 4 and not run.partial
    assert_no_process_left()


def test_stopped_on_a_dask_cluster_cancels_the_run_s_chunks():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        with pytest.raises(Stopped):
            run_balance("gem-rush", "gem-rush", 200, 2, ["random"], 1, chunk=2,
                        scheduler=cluster.scheduler_address,
                        progress=_stop_after_first_chunk)  # fmt: skip
        # the chunks not played are cancelled: the scheduler forgets them
        wait_until(lambda: not cluster.scheduler.tasks, "the scheduler holds no task")


@pytest.fixture
def own_handlers():
    """The test process's handlers as they were: a Stopped leaves its own installed."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


def test_a_deferred_signal_is_raised_where_the_code_looks_for_it(own_handlers):
    reached = []
    with pytest.raises(Stopped) as stopped, stopping_on_signals(), deferred_stops():
        os.kill(os.getpid(), signal.SIGTERM)
        reached.append("after the signal")  # not cut short here
        raise_if_stopped()
        reached.append("after the check")
    assert reached == ["after the signal"]
    assert (stopped.value.name, stopped.value.exit_status) == ("SIGTERM", 143)
    os.kill(os.getpid(), signal.SIGTERM)  # a second signal while stopping: ignored


def test_a_deferred_ctrl_c_is_raised_when_the_block_ends():
    reached = []
    with pytest.raises(KeyboardInterrupt), deferred_stops():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("the rest of the block")
    assert reached == ["the rest of the block"]

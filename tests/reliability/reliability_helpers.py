"""Shared helpers of the reliability tests: real `protopress` processes."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import protopress

SOURCE = Path(protopress.__file__).resolve().parent.parent  # what the tests import

HAS_SIGKILL = hasattr(signal, "SIGKILL")


needs_sigkill = pytest.mark.skipif(not HAS_SIGKILL, reason="this platform has no SIGKILL")


def protopress_command(*args) -> list[str]:
    """`python -m protopress ARGS` with the interpreter running the tests."""
    return [sys.executable, "-m", "protopress", *(str(a) for a in args)]


def environment(hash_seed: int | str | None = None) -> dict[str, str]:
    """The tests' environment, without a terminal's colours, with this hash seed."""
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = str(hash_seed)
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE), env.get("PYTHONPATH")]))
    return env


def run_protopress(*args, hash_seed=None, cwd: Path | None = None, timeout: float = 120, **kwargs):
    """Run protopress to the end; return the CompletedProcess (bytes)."""
    return subprocess.run(
        protopress_command(*args),
        env=environment(hash_seed),
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        **kwargs,
    )


def files_under(folder: Path) -> dict[str, bytes]:
    """Every file under folder by its relative POSIX path, with its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


STALLING = textwrap.dedent(
    """
    import os, runpy, sys, time

    real_fdopen, writes, stall_at = os.fdopen, [0], int(sys.argv[1])

    class Stalling:
        '''Writes half of the file, says so, then hangs until killed.'''

        def __init__(self, stream):
            self.stream = stream
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.stream.close()
        def fileno(self):
            return self.stream.fileno()
        def flush(self):
            self.stream.flush()
        def write(self, data):
            self.stream.write(data[: len(data) // 2])
            self.stream.flush()
            print("torn", flush=True)
            time.sleep(300)

    def fdopen(fd, *args, **kwargs):
        stream = real_fdopen(fd, *args, **kwargs)
        writes[0] += 1
        return Stalling(stream) if writes[0] == stall_at else stream

    os.fdopen = fdopen
    sys.argv = ["protopress", *sys.argv[2:]]
    runpy.run_module("protopress", run_name="__main__", alter_sys=True)
    """
)


def stalling_command(write_number: int, *args) -> list[str]:
    """`python -m protopress ARGS`, except that its write_number-th atomic write
    writes half of its data, prints "torn" and hangs (until the test kills it)."""
    return [sys.executable, "-c", STALLING, str(write_number), *(str(a) for a in args)]

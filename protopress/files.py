"""Reading inputs and choosing outputs without surprises from special files.

An input must be a regular file: a FIFO would block the reader forever and
/dev/zero never ends, so both are refused before a byte is read. An output
must not be one of the inputs, or a run would overwrite the data it reads.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, NamedTuple

__all__ = [
    "NotRegularFile",
    "data_dir",
    "open_regular",
    "read_regular",
    "read_text_again",
    "output_clashes",
    "Clash",
]

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS |= getattr(os, "O_BINARY", 0)


class NotRegularFile(OSError):
    """An input that is a FIFO, a device, a socket or a folder."""

    def __init__(self, path: Path | str, mode: int):
        kind = _kind(mode)
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", str(path))
        self.kind = kind


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def is_stream(path: Path | str) -> bool:
    """Whether writing to path feeds a stream (a device, a FIFO, a socket or a standard
    stream such as /dev/stdout), not a file kept on disk beside which others may go."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # a new file, or one the write itself will refuse
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def open_regular(path: Path | str) -> BinaryIO:
    """path opened for reading, after checking (on the open file) that it is regular.

    The file is opened non-blocking, so a FIFO with no writer does not hang the
    open itself; regular files then read as usual.
    """
    handle = os.open(path, _READ_FLAGS)
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
        if hasattr(os, "set_blocking"):
            os.set_blocking(handle, True)
        return open(handle, "rb")  # the caller closes it
    except BaseException:
        os.close(handle)
        raise


def read_regular(path: Path | str, limit: int) -> bytes:
    """A regular file's bytes, but no more than limit + 1 (enough to see it is too large)."""
    with open_regular(path) as stream:
        return stream.read(limit + 1)


MAX_SOURCE_BYTES = 64 * 1024 * 1024  # a catalog, layout or table: the limit of every first read


def read_text_again(path: Path | str, limit: int = MAX_SOURCE_BYTES) -> str:
    """The text of a file read before (to locate the problems found in it), read
    with the same bound: the file may have grown or been replaced since."""
    return read_regular(path, limit).decode("utf-8-sig", errors="replace")


def _same_file(first: Path, second: Path) -> bool:
    """Whether two names lead to one regular (or not yet existing) file; devices
    and FIFOs (/dev/null, /dev/stdout) can take any number of outputs."""
    for path in (first, second):
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(os.stat(path).st_mode):
                return False
    with contextlib.suppress(OSError):
        return os.path.samefile(first, second)
    with contextlib.suppress(OSError, RuntimeError):
        return first.resolve() == second.resolve()
    return False


class Clash(NamedTuple):
    """An output that would overwrite an input or another output."""

    path: Path
    message: str


def output_clashes(
    outputs: Iterable[Path | str | None], inputs: Iterable[Path | str | None]
) -> list[Clash]:
    """The outputs that are one of the inputs (or another output), by any name: a
    link, a relative path, a hard link. Inputs that are not files (a built-in
    game's name) are ignored."""
    written = [Path(o) for o in outputs if o is not None]
    sources = [Path(i) for i in inputs if i is not None]
    clashes = []
    for index, output in enumerate(written):
        for source in sources:
            if _same_file(output, source):
                clashes.append(
                    Clash(output, f"is also an input ({source}); choose another output file")
                )
        for other in written[index + 1 :]:
            if _same_file(output, other):
                clashes.append(
                    Clash(other, f"is written twice (also as {output}); choose two files")
                )
    return clashes


class InUse(OSError):
    """Another protopress process holds the lock of this file."""


@contextlib.contextmanager
def exclusive(path: Path | str, what: str):
    """Hold an advisory lock on path for the block: a second process that asks
    for the same path is refused at once (InUse) instead of silently losing the
    first one's writes. The lock is a hidden `.NAME.lock` file beside path,
    removed afterwards; where the platform has no flock, the block runs unlocked.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    target = Path(path)
    lock = target.with_name(f".{target.name}.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InUse(
                errno.EBUSY, f"{what} is in use by another protopress process", str(target)
            ) from None
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                lock.unlink()
    finally:
        os.close(handle)


def data_dir() -> Path:
    """The user's data directory for protopress (not created)."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        # the XDG spec ignores relative paths
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "protopress"

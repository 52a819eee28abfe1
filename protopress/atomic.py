"""Write files so that a reader never sees a half-written one.

A file is written to a temporary file in the same folder, flushed to disk, then
renamed over its target in one step: a reader (or a later run) sees the old
file or the new one, never a mix, even if the process is killed mid-write.

The temporary file is named `.<target name>.<pid>-<random>.tmp`: hidden, next to
its target, and marked with the writing process. A process killed between the
write and the rename (SIGKILL, a power cut) leaves it behind;
`remove_stale_temporaries` lets the next run clean up the temporaries of the
files it owns, once their writer is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "STALE_AFTER",
    "remove_stale_temporaries",
    "temporary_target",
    "write_atomic",
]

STALE_AFTER = 15 * 60  # seconds: a temporary this old is stale whoever wrote it

# .<target>.<pid>-<hex>.tmp (this module), or .<target>.<8 chars>.tmp (older
# versions, which used tempfile.mkstemp)
_TEMPORARY = re.compile(
    r"\.(?P<target>.+)\.(?:(?P<pid>[0-9]+)-[0-9a-f]{8}|[a-z0-9_]{8})\.tmp", re.DOTALL
)
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
_FLAGS |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write data to path via a temporary file in the same folder, then rename.

    A new file gets the usual permissions (0o666 less the umask, as open()
    gives); a replaced file keeps its permission bits. Only a regular file (or
    a link to one) is ever replaced: a character device or FIFO (/dev/null, a
    pipe, or a link to one) and /dev/stdout-style links to a process's own
    descriptors are written directly, as a shell redirection would; any other
    kind of file is refused.
    """
    path = Path(path)
    if _write_special(path, data):
        return
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode) & 0o777  # never set-id bits
    except OSError:
        mode = None
    handle, temporary = _create_temporary(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            if mode is not None:
                _chmod(stream.fileno(), temporary, mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(path.parent)


# /dev/stdout -> /proc/self/fd/1, /dev/fd/2, ...: the writer's own descriptors
_OWN_DESCRIPTOR = re.compile(r"/(?:proc/self|dev)/fd/(?P<fd>[0-9]+)")
_MAX_LINKS = 40  # as the kernel's own limit on a chain of links


def _write_special(path: Path, data: bytes) -> bool:
    """Write to a special target directly and return True; False for a regular
    file or a new one, which write_atomic replaces by renaming."""
    descriptor = _own_descriptor(path)
    if descriptor is not None:
        _flush_std_streams()
        _write_all(descriptor, data)
        return True
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False  # a new file (a dangling link is replaced like any link)
    if stat.S_ISREG(mode):
        return False
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file, device or FIFO"
        raise OSError(errno.EINVAL, f"cannot write over {kind}", str(path))
    handle = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        _write_all(handle, data)
    finally:
        os.close(handle)
    return True


def _own_descriptor(path: Path) -> int | None:
    """The descriptor number when path is, or links to, /proc/self/fd/N or /dev/fd/N."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        match = _OWN_DESCRIPTOR.fullmatch(current)
        if match is not None:
            return int(match.group("fd"))
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or not there): the chain ends
            return None
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    return None


def _flush_std_streams() -> None:
    """Text already printed goes out before bytes written to the same descriptor."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view) :]


def _create_temporary(path: Path) -> tuple[int, Path]:
    for _ in range(100):
        temporary = path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temporary, _FLAGS, 0o666), temporary  # the umask applies
        except FileExistsError:
            continue
        except OSError as error:  # no such folder, not allowed: said of the file asked for
            raise type(error)(error.errno, error.strerror, str(path)) from None
    raise FileExistsError(f"no free temporary file name next to {path}")


def _chmod(handle: int, temporary: Path, mode: int) -> None:
    with contextlib.suppress(OSError):  # a file system without modes keeps its own
        if hasattr(os, "fchmod"):
            os.fchmod(handle, mode)
        else:  # Windows
            os.chmod(temporary, mode)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; elsewhere there is nothing to do)."""
    if sys.platform == "win32":
        return
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def temporary_target(name: str) -> tuple[str, int | None] | None:
    """(target name, writer's pid or None) of a temporary file's name, else None."""
    match = _TEMPORARY.fullmatch(name)
    if match is None:
        return None
    pid = match.group("pid")
    return match.group("target"), int(pid) if pid is not None else None


def _alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (True when unknown)."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32" or pid <= 0:
        return True  # os.kill(pid, 0) would terminate it on Windows: rely on age
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, as another user
        return True
    return True


def remove_stale_temporaries(
    folder: Path | str, owns: Callable[[str], bool], max_age: float = STALE_AFTER
) -> list[Path]:
    """Delete the temporaries left in folder by killed writers of files that
    owns(target name) claims; return them.

    A temporary is stale when the process that wrote it no longer runs, or when
    it is older than max_age seconds (temporaries of older versions, which carry
    no pid, and of writers on other machines). Temporaries of running writers,
    of other files, and anything that is not a regular file are left alone.
    """
    folder = Path(folder)
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        found = temporary_target(entry.name)
        if found is None or not owns(found[0]):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        pid = found[1]
        if (pid is not None and not _alive(pid)) or now - info.st_mtime > max_age:
            try:
                os.unlink(entry.path)
            except OSError:  # gone already, or not ours to remove: harmless
                continue
            removed.append(Path(entry.path))
    return sorted(removed)

"""Stopping cleanly on SIGTERM and SIGHUP, as Ctrl-C (SIGINT) already does.

Python's default for SIGTERM and SIGHUP ends the process at once: no `finally`
runs, so a command's worker processes are left running. Within
`stopping_on_signals()` either signal raises `Stopped` in the main thread
instead, which unwinds like KeyboardInterrupt: the code that started workers
stops them, and the command exits with the conventional status (128 + the
signal's number: 143 for SIGTERM, 129 for SIGHUP).

An exception raised by a signal handler can land anywhere, even between two
lock acquisitions inside `concurrent.futures.wait`, leaving a lock held that a
pool's own thread then waits on for ever. Code that waits on other threads
therefore runs within `deferred_stops()`: there a signal (Ctrl-C too) is only
recorded, and `raise_if_stopped()`, called where nothing is half-done, raises
it. `held` keeps signals waiting while something must not be cut short.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# the signals that ask a process to stop (Windows has SIGTERM only, and never sends it)
STOPPING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Stopped(BaseException):
    """A signal asked the process to stop. A BaseException, as KeyboardInterrupt is, so
    that no `except Exception` takes it for an error and goes on."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        """The status a shell shows for a process ended by this signal."""
        return 128 + self.signum


class _Signals:
    """What the handlers share: signal handlers belong to the whole process."""

    stopping = False  # within stopping_on_signals: SIGTERM and SIGHUP raise Stopped
    stopped = False  # Stopped was raised: a second signal is ignored
    deferring = False  # within deferred_stops: signals are recorded, not raised
    recorded: int | None = None  # the signal deferred_stops recorded


def _raise_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    _Signals.stopped = True
    raise Stopped(signum)


def _on_signal(signum: int, frame: object) -> None:
    if _Signals.stopped and signum != signal.SIGINT:
        return  # stopping already: let the clean-up finish
    if _Signals.deferring:
        _Signals.recorded = _Signals.recorded or signum
        return
    _raise_for(signum)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within this block SIGTERM and SIGHUP raise Stopped in the main thread, once: a
    second signal while stopping is ignored, so that the clean-up is not cut short.
    Elsewhere than the main thread (where no handler may be set) it does nothing."""
    if not _in_main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _on_signal) for signum in STOPPING_SIGNALS}
    _Signals.stopping, _Signals.stopped = True, False
    try:
        yield
    finally:
        _Signals.stopping = False
        if not _Signals.stopped:  # once stopping, a second signal stays ignored
            for signum, handler in previous.items():
                signal.signal(signum, handler)


@contextmanager
def deferred_stops() -> Iterator[None]:
    """Within this block Ctrl-C (and SIGTERM and SIGHUP within stopping_on_signals)
    is only recorded: raise_if_stopped() raises it, and so does leaving the block."""
    if not _in_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_signal)
    _Signals.deferring, _Signals.recorded = True, None
    try:
        yield
    finally:
        _Signals.deferring = False
        signal.signal(signal.SIGINT, previous)
        raise_if_stopped()  # even over an exception: the signal says what to do now


def raise_if_stopped() -> None:
    """Raise what deferred_stops recorded: KeyboardInterrupt for Ctrl-C, else Stopped."""
    recorded, _Signals.recorded = _Signals.recorded, None
    if recorded is not None:
        _raise_for(recorded)


@contextmanager
def held(*signums: int) -> Iterator[None]:
    """Within this block these signals wait (blocked in this thread); one that arrives
    is delivered when the block ends. A process started within the block starts with
    them blocked. Where signals cannot be blocked (Windows) it does nothing."""
    if not hasattr(signal, "pthread_sigmask") or not signums:
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signums)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)

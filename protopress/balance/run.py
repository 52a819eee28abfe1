"""Run many games in parallel: chunks of games on a local process pool, or on a
Dask distributed cluster.

Game i is seeded from derive_seed(seed, "game", i) exactly as
protopress.rules.simulate.simulate seeds it, and plays the same bots, so a run's
records are the same whatever the number of workers, the chunk size or the
machine that played each chunk. Workers load the catalog themselves from its
path or built-in id (nothing unpicklable crosses a process boundary), so the
pool works with the "spawn" start method that macOS and Windows use; it is
used everywhere, so every platform behaves alike.

Ctrl-C (KeyboardInterrupt) stops the workers and returns the games finished so
far, flagged partial: `run.partial` and `run.covered` say how many games the
statistics cover. protopress.signals.Stopped (SIGTERM or SIGHUP, within
`stopping_on_signals`) stops the local workers and the resource tracker, or
closes the Dask client (the cluster then drops the run's chunks), and
propagates: nothing is returned.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from pathlib import Path

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import builtin_ids
from protopress.rules.bot_names import make_bot
from protopress.rules.core import derive_seed
from protopress.rules.plugins import resolve_spec
from protopress.rules.simulate import GameRecord, play, seats
from protopress.signals import (
    STOPPING_SIGNALS,
    deferred_stops,
    held,
    raise_if_stopped,
)

FORMAT = "protopress-balance/1"
SCHEDULER_ADDRESS = re.compile(
    r"inproc://\S+|((tcp|tls|ws|wss|ucx)://)?[A-Za-z0-9_.\-\[\]:]+:\d{1,5}/?"
)
CONNECT_TIMEOUT = 10  # seconds to reach a scheduler before saying it cannot be reached
MAX_CHUNK = 20  # games per chunk at most: Ctrl-C and progress are never far away
CHUNKS_PER_WORKER = 16  # at least this many chunks per worker when there are games enough
CHECK_STOP = 0.2  # seconds between looks for a Ctrl-C, SIGTERM or SIGHUP while workers play

Progress = Callable[[int, int], None]
HANGUP = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()  # not on Windows


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message names the extra."""


@dataclass
class BalanceRun:
    """The records of a balance run and how they were made."""

    game: str
    catalog: str  # as given: a built-in game id or a catalog path
    catalog_version: str
    players: int
    bots: list[str]  # per seat (before rotation)
    seed: int
    options: dict
    games: int  # games asked for
    records: list[GameRecord] = field(default_factory=list)  # sorted by index
    rotate: bool = False  # game i seats the bots rotated by i places
    partial: bool = False  # interrupted: the records cover `covered` of `games`
    workers: int = 1  # how it ran (not part of the results)
    elapsed: float = 0.0  # seconds (not part of the results)

    @property
    def covered(self) -> int:
        return len(self.records)

    def to_json(self, records: bool = True) -> dict:
        """The run's results: the same for the same inputs however it ran."""
        data = {
            "format": FORMAT,
            "game": self.game,
            "catalog": self.catalog,
            "catalog_version": self.catalog_version,
            "players": self.players,
            "bots": list(self.bots),
            "rotate": self.rotate,
            "seed": self.seed,
            "options": dict(self.options),
            "games": self.games,
            "covered": self.covered,
            "partial": self.partial,
        }
        if records:
            data["records"] = [record.to_json() for record in self.records]
        return data

    @classmethod
    def from_json(cls, data: dict) -> BalanceRun:
        if data.get("format") != FORMAT:
            raise ValueError(
                f"not a balance run (format {data.get('format')!r}, expected {FORMAT})"
            )
        if "records" not in data:
            raise ValueError("the balance run was written without its game records")
        return cls(
            game=data["game"],
            catalog=data["catalog"],
            catalog_version=data["catalog_version"],
            players=data["players"],
            bots=list(data["bots"]),
            seed=data["seed"],
            options=dict(data["options"]),
            games=data["games"],
            records=[GameRecord.from_json(r) for r in data["records"]],
            rotate=data.get("rotate", False),
            partial=data.get("partial", False),
        )


@dataclass(frozen=True)
class Chunk:
    """Games start..stop-1 of a run: everything a worker needs, and picklable."""

    game: str
    catalog: str  # resolved: a built-in id or an absolute path
    bots: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, object], ...]
    start: int
    stop: int
    rotate: bool = False
    rules: str | None = None  # a designer's --rules reference, loaded again by each worker
    rules_code: str | None = None  # its --rules-code file (a rules file of data's functions)


_CATALOGS: dict[tuple, object] = {}  # per process: each catalog file loaded once


def _catalog(reference: str):
    """The catalog a reference names, loaded again only when its file changed."""
    path = builtin_catalog_path(reference) if reference in builtin_ids() else Path(reference)
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(path)
    return _CATALOGS[key]


def seat_bots(bots: tuple[str, ...] | list[str], index: int, rotate: bool) -> list[str]:
    """Game index's bot per seat: as given, or rotated index places (seat s plays bots[s - i])."""
    bots = list(bots)
    if not rotate:
        return bots
    shift = index % len(bots)
    return bots[-shift:] + bots[:-shift] if shift else bots


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play one chunk's games (in a worker): the records, in index order."""
    game = resolve_spec(chunk.game, chunk.rules, chunk.rules_code).new_game()
    catalog = _catalog(chunk.catalog)
    options = dict(chunk.options)
    records = []
    for index in range(chunk.start, chunk.stop):
        bots = seat_bots(chunk.bots, index, chunk.rotate)
        _, record, _ = play(game, catalog, bots, derive_seed(chunk.seed, "game", index), options)
        record.index = index
        records.append(record)
    return records


def _resolve(catalog) -> tuple[str, str]:
    """(reference for workers, display) from a built-in id, a path or a loaded Catalog."""
    if hasattr(catalog, "path") and hasattr(catalog, "components"):
        path = Path(catalog.path)
        builtin = {str(builtin_catalog_path(g)): g for g in builtin_ids()}
        game = builtin.get(str(path))
        return (game, game) if game else (str(path.resolve()), str(path))
    text = str(catalog)
    if Path(text).is_file():
        return str(Path(text).resolve()), text
    if text in builtin_ids():
        return text, text
    raise ValueError(f"no such catalog file or built-in game: {text}")


def chunk_size(games: int, workers: int) -> int:
    """Small enough for every worker to get many chunks, at most MAX_CHUNK games."""
    return max(1, min(MAX_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER))))


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_balance(
    game_id: str,
    catalog,
    games: int,
    players: int,
    bots: list[str],
    seed: int,
    options: dict | None = None,
    workers: int | None = 1,
    progress: Progress | None = None,
    scheduler: str | None = None,
    *,
    rotate: bool = False,
    chunk: int | None = None,
    rules: str | None = None,
    rules_code: str | None = None,
) -> BalanceRun:
    """Play `games` games of game_id and return their records.

    catalog: a built-in game id, a catalog path, or a loaded Catalog (workers
    reload it from its path). bots: per seat, the last repeated for the rest.
    workers: processes (None or 0: one per CPU; 1: in this process).
    progress(games done, total) is called after each chunk. scheduler: the
    address of a Dask distributed scheduler to run the chunks on instead.
    rotate: game i seats the bots rotated by i places, so that mixed bots play
    every seat equally often. chunk: games per chunk (default: see chunk_size).
    rules: a designer's rules reference (see protopress.rules.plugins) for game_id;
    rules_code: the Python file of a rules file's `call` steps (--rules-code).
    Raises ValueError on bad input, before any worker starts.
    """
    options = dict(options or {})
    reference, display = _resolve(catalog)
    try:
        spec = resolve_spec(game_id, rules, rules_code)
    except KeyError as error:
        raise ValueError(str(error)) from None
    game = spec.new_game()
    options = spec.parse_options(options)  # OptionError (a ValueError) names a bad one
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game_id} takes {game.min_players} to {game.max_players} players")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    seat_list = seats(list(bots), players)
    for name in set(seat_list):
        make_bot(name, 0)  # ValueError naming the bots on an unknown one
    loaded = _catalog(reference)
    if loaded.game != game_id:
        raise ValueError(f"{display} is a catalog of {loaded.game}, not {game_id}")
    game.setup(loaded, players, random.Random(seed), options)  # options checked here
    workers = workers or cpu_count()
    frozen = tuple(sorted(options.items()))

    def plan(size: int) -> list[Chunk]:
        size = chunk or size
        return [
            Chunk(
                game_id,
                reference,
                tuple(seat_list),
                seed,
                frozen,
                start,
                min(start + size, games),
                rotate,
                rules,
                rules_code,
            )
            for start in range(0, games, size)
        ]

    run = BalanceRun(
        game_id,
        display,
        loaded.version,
        players,
        seat_list,
        seed,
        options,
        games,
        rotate=rotate,
        workers=workers,
    )
    started = time.perf_counter()
    if not games:
        done: list = []
        interrupted = False
    elif scheduler:
        done, interrupted = _on_cluster(scheduler, plan, games, progress)
    elif workers == 1:
        done, interrupted = _in_process(plan(chunk_size(games, 1)), games, progress)
    else:
        done, interrupted = _on_pool(plan(chunk_size(games, workers)), games, workers, progress)
    run.elapsed = time.perf_counter() - started
    run.records = sorted((r for records in done for r in records), key=lambda r: r.index)
    run.partial = interrupted or run.covered < games
    return run


def _report(progress: Progress | None, done: list, total: int) -> None:
    if progress is not None:
        progress(sum(len(records) for records in done), total)


def _in_process(chunks: list[Chunk], total: int, progress) -> tuple[list, bool]:
    done: list[list[GameRecord]] = []
    try:
        for chunk in chunks:
            done.append(play_chunk(chunk))
            _report(progress, done, total)
    except KeyboardInterrupt:
        return done, True
    return done, False


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_pool(chunks: list[Chunk], total: int, workers: int, progress) -> tuple[list, bool]:
    done: list[list[GameRecord]] = []
    context = multiprocessing.get_context("spawn")
    # multiprocessing's resource tracker ignores Ctrl-C and SIGTERM; started with the
    # hangup held, it never sees one either (a terminal's hangup reaches the whole
    # process group): this process stops it with the workers
    with held(*HANGUP):
        resource_tracker.ensure_running()
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(chunks)),
        mp_context=context,
        initializer=_ignore_interrupts,
    )
    futures: list[Future] = []
    collected: set[Future] = set()
    interrupted = False
    try:
        with deferred_stops():  # a signal is raised between waits, never inside one
            # workers are started while submitting: they start with Ctrl-C and a hangup
            # held, so that neither reaches them, even during their start-up; here either
            # is delivered when the block ends
            with held(signal.SIGINT, *HANGUP):
                futures = [pool.submit(play_chunk, chunk) for chunk in chunks]
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, CHECK_STOP, return_when=FIRST_COMPLETED)
                raise_if_stopped()
                for future in finished:
                    done.append(future.result())  # a worker's error is raised here
                    collected.add(future)
                    _report(progress, done, total)
    except BaseException as error:  # Ctrl-C, SIGTERM, a worker's error: stop the others now
        # a second Ctrl-C is dropped; SIGTERM or SIGHUP waits: neither cuts this short
        with _sigint_ignored(), held(*STOPPING_SIGNALS):
            _stop_workers(pool)  # the pool then fails the chunks not finished: none is cancelled
            pool.shutdown(wait=True)
            _stop_resource_tracker()
        if not isinstance(error, KeyboardInterrupt):
            raise
        interrupted = True
        done += [  # chunks that finished while we stopped count too
            f.result()
            for f in futures
            if f not in collected and f.done() and not f.cancelled() and f.exception() is None
        ]
    else:
        pool.shutdown(wait=True)
        _stop_resource_tracker()  # a run that ends leaves no process behind either
    return done, interrupted


@contextmanager
def _sigint_ignored():
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the worker processes now: the chunks they were playing are dropped."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.join(timeout=5)


def _stop_resource_tracker() -> None:
    """End multiprocessing's resource tracker once the workers are gone, and wait for it:
    it would outlive this process by a moment and, orphaned, be left to init to reap.
    The next pool starts a new one."""
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)  # CPython 3.8+
    if stop is not None:
        stop()


def _on_cluster(address: str, plan, total: int, progress) -> tuple[list, bool]:
    """The chunks on a Dask distributed cluster, sized for its threads."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise MissingExtra(
            "running on a cluster needs Dask distributed: pip install 'protopress[cluster]'"
        ) from None
    if not SCHEDULER_ADDRESS.fullmatch(address):
        raise ValueError(
            f"{address!r} is not a Dask scheduler address (e.g. tcp://10.0.0.5:8786 or host:8786)"
        )
    done: list[list[GameRecord]] = []
    try:
        client = Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ValueError(
            f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT} s: {error}"
        ) from None
    with client:
        threads = sum(client.nthreads().values()) or 1
        futures = client.map(play_chunk, plan(chunk_size(total, threads)), pure=False)
        try:
            for future in as_completed(futures, loop=client.loop):
                done.append(future.result())
                _report(progress, done, total)
        except KeyboardInterrupt:
            client.cancel(futures)
            return done, True

    return done, False

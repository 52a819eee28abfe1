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

A run can be given the records of games already played (`kept`, from a store:
balance/store.py): it plays only the others, and `on_records` sees each chunk's
records as they come in, so that a store keeps them even when the run stops.
Given `estimate`, the run says how long the rest will take once its first
games are played: each chunk comes back with the seconds its worker spent on
it, and the first games are played one a chunk so that the figures come soon
(balance/estimate.py).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from pathlib import Path

from protopress.balance.estimate import (
    SINGLE_GAME_CHUNKS,
    WARM_UP_CPU,
    RunEstimate,
    RunSample,
    SamplePlan,
    TimedChunk,
    estimate_run,
)
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
RecordsIn = Callable[[list[GameRecord]], None]
SayEstimate = Callable[[RunEstimate], None]
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
    cpu: float = 0.0  # the workers' CPU seconds for the games played (not part of the results)

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
    record_use: bool = True  # the kit records components used where the rules do not


_CATALOGS: dict[tuple, object] = {}  # per process: each catalog file loaded once


def catalog_file(reference: str) -> Path:
    """The file of a resolved catalog reference: a built-in game id or a path."""
    return builtin_catalog_path(reference) if reference in builtin_ids() else Path(reference)


def _catalog(reference: str):
    """The catalog a reference names, loaded again only when its file changed."""
    path = catalog_file(reference)
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


@dataclass(frozen=True)
class Played:
    """A chunk's records, in index order, and the seconds its worker took to play them:
    on the wall clock and in CPU time of the worker (which other work does not move)."""

    records: list[GameRecord]
    seconds: float
    warming: bool = False  # its worker was still filling its caches: see WARM_UP_CPU
    cpu: float = 0.0  # the CPU seconds of the worker's thread for the same games (a Dask
    # worker's threads share a process)


_SPENT = [0.0]  # CPU seconds this process has spent on chunks


def play_chunk(chunk: Chunk) -> Played:
    """Play one chunk's games (in a worker), timed with the chunk's own setup."""
    started, cpu = time.perf_counter(), time.thread_time()
    warming = _SPENT[0] < WARM_UP_CPU
    game = resolve_spec(chunk.game, chunk.rules, chunk.rules_code).new_game()
    catalog = _catalog(chunk.catalog)
    options = dict(chunk.options)
    records = []
    for index in range(chunk.start, chunk.stop):
        bots = seat_bots(chunk.bots, index, chunk.rotate)
        seed = derive_seed(chunk.seed, "game", index)
        _, record, _ = play(game, catalog, bots, seed, options, record_use=chunk.record_use)
        record.index = index
        records.append(record)
    seconds, spent = time.perf_counter() - started, time.thread_time() - cpu
    _SPENT[0] += spent
    return Played(records, seconds, warming, spent)


def resolve_catalog(catalog) -> tuple[str, str]:
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
    kept: Sequence[GameRecord] = (),
    on_records: RecordsIn | None = None,
    estimate: SayEstimate | None = None,
    rules_code: str | None = None,
    record_use: bool = True,
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
    kept: records of games of this run already played (by index; others are
    ignored): only the other games are played, and progress counts those.
    on_records(records) is called in this process with each chunk's records.
    estimate(RunEstimate) is called once, when the first games played say how
    long the rest will take.
    record_use: for rules whose record does not say `used`, the kit records which
    components each seat used (rules/used.py); False spares its cost (up to a fifth of
    the time of the cheapest games) and leaves such records without `used`.
    Raises ValueError on bad input, before any worker starts.
    """
    options = dict(options or {})
    reference, display = resolve_catalog(catalog)
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

    def games_from(start: int, stop: int) -> Chunk:
        return Chunk(
            game_id,
            reference,
            tuple(seat_list),
            seed,
            frozen,
            start,
            stop,
            rotate,
            rules,
            rules_code,
            record_use,
        )

    kept_records = {r.index: r for r in kept if 0 <= r.index < games}
    to_play = [index for index in range(games) if index not in kept_records]

    def plan(size: int, at_once: int) -> list[Chunk]:
        """Chunks of size games (the first ones of one game, when estimating)."""
        size = chunk or size
        singles = SINGLE_GAME_CHUNKS * at_once if estimate is not None and not chunk else 0
        return [games_from(index, index + 1) for index in to_play[:singles]] + [
            games_from(start, min(start + size, stop))
            for first, stop in _spans(to_play[singles:])
            for start in range(first, stop, size)
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
    timing = _Timing(estimate, SamplePlan.for_run(len(to_play), players, rotate), to_play)
    collected = _Collected(len(to_play), progress, on_records, timing)
    if not to_play:
        interrupted = False
    elif scheduler:
        interrupted = _on_cluster(scheduler, plan, len(to_play), collected)
    elif workers == 1:
        interrupted = _in_process(plan(chunk_size(len(to_play), 1), 1), collected)
    else:
        at_once = min(workers, cpu_count())
        chunks = plan(chunk_size(len(to_play), workers), at_once)
        interrupted = _on_pool(chunks, workers, collected, at_once)
    run.elapsed = time.perf_counter() - started
    run.cpu = sum(done.cpu for done in collected.done)
    played = [r for done in collected.done for r in done.records]
    run.records = sorted([*kept_records.values(), *played], key=lambda r: r.index)
    run.partial = interrupted or run.covered < games
    return run


def _spans(indexes: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive game indexes as (first, stop) pairs."""
    spans: list[tuple[int, int]] = []
    for index in indexes:
        if spans and spans[-1][1] == index:
            spans[-1] = (spans[-1][0], index + 1)
        else:
            spans.append((index, index + 1))
    return spans


class _Timing:
    """When and what to say of the run's duration, from the chunks' own seconds."""

    def __init__(self, say: SayEstimate | None, plan: SamplePlan, order: Sequence[int]):
        self.say, self.plan = say, plan
        self.sample = RunSample(order)
        self.workers = 1  # the processes (or cluster threads) that play at once

    def played(self, done: Played, count: int, total: int) -> None:
        if self.say is None:  # said, or not asked for: nothing more to time
            return
        indexes = [record.index for record in done.records]
        chunk = TimedChunk(len(done.records), done.cpu, done.seconds)
        self.sample.add(indexes, chunk, timed=not done.warming)
        if count >= total:
            return
        if self.plan.enough(self.sample.chunks, self.workers):
            say, self.say = self.say, None  # once
            say(estimate_run(self.sample.sample(), total - count, self.workers))


class _Collected:
    """The chunks as they come in: their records kept and handed on, counted for
    progress, timed for the estimate."""

    def __init__(
        self, total: int, progress: Progress | None, on_records: RecordsIn | None, timing: _Timing
    ):
        self.total, self.progress, self.on_records = total, progress, on_records
        self.timing = timing
        self.done: list[Played] = []
        self.count = 0

    def add(self, done: Played, report: bool = True) -> None:
        """Keep a chunk; report: call progress and the estimate (not once the run is stopping)."""
        self.done.append(done)
        self.count += len(done.records)
        if self.on_records is not None:
            self.on_records(done.records)
        if report:
            if self.progress is not None:
                self.progress(self.count, self.total)
            self.timing.played(done, self.count, self.total)


def _in_process(chunks: list[Chunk], collected: _Collected) -> bool:
    try:
        for chunk in chunks:
            collected.add(play_chunk(chunk))
    except KeyboardInterrupt:
        return True
    return False


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_pool(chunks: list[Chunk], workers: int, collected: _Collected, at_once: int) -> bool:
    collected.timing.workers = min(at_once, len(chunks))
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
    taken: set[Future] = set()
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
                    done = future.result()  # a worker's error is raised here
                    taken.add(future)  # before its records go on: progress may stop the run
                    collected.add(done)
    except BaseException as error:  # Ctrl-C, SIGTERM, a worker's error: stop the others now
        # a second Ctrl-C is dropped; SIGTERM or SIGHUP waits: neither cuts this short
        with _sigint_ignored(), held(*STOPPING_SIGNALS):
            _stop_workers(pool)  # the pool then fails the chunks not finished: none is cancelled
            pool.shutdown(wait=True)
            _stop_resource_tracker()
        if not isinstance(error, KeyboardInterrupt):
            raise
        interrupted = True
        for future in futures:  # chunks that finished while we stopped count too
            if future in taken or not future.done() or future.cancelled():
                continue
            if future.exception() is None:
                collected.add(future.result(), report=False)
    else:
        pool.shutdown(wait=True)
        _stop_resource_tracker()  # a run that ends leaves no process behind either
    return interrupted


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


def _on_cluster(address: str, plan, total: int, collected: _Collected) -> bool:
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
    try:
        client = Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ValueError(
            f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT} s: {error}"
        ) from None
    with client:
        threads = sum(client.nthreads().values()) or 1
        collected.timing.workers = threads
        futures = client.map(play_chunk, plan(chunk_size(total, threads), threads), pure=False)
        try:
            for future in as_completed(futures, loop=client.loop):
                collected.add(future.result())
        except KeyboardInterrupt:
            client.cancel(futures)
            return True

    return False

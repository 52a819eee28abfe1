"""Parallel runs: the same records whatever the workers, partial results on Ctrl-C,
and the same chunks on a Dask cluster."""

import json
import sys

import pytest

from protopress.balance.run import (
    BalanceRun,
    MissingExtra,
    chunk_size,
    run_balance,
    seat_bots,
)
from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.registry import game_for
from protopress.rules.simulate import simulate

GAME = "dragonstone-mine"
OPTIONS = {"level": "1"}


def as_json(records):
    return [record.to_json() for record in records]


@pytest.fixture(scope="module")
def expected():
    """simulate()'s records for the run below: what every way of running must give."""
    catalog = load_catalog(builtin_catalog_path(GAME))
    return as_json(simulate(game_for(GAME), catalog, ["random"] * 3, 30, 11, OPTIONS))


def test_one_and_two_workers_give_the_records_of_simulate(expected):
    seen = []
    one = run_balance(GAME, GAME, 30, 3, ["random"], 11, OPTIONS, workers=1)
    two = run_balance(
        GAME,
        GAME,
        30,
        3,
        ["random"],
        11,
        OPTIONS,
        workers=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert as_json(one.records) == expected
    assert as_json(two.records) == expected
    assert [r.index for r in two.records] == list(range(30))
    assert not one.partial and not two.partial and two.covered == 30
    assert one.to_json() == two.to_json()  # how it ran is not part of the results
    assert two.workers == 2 and two.elapsed > 0
    assert seen[-1] == (30, 30) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(seen) == -(-30 // chunk_size(30, 2))  # one call per chunk


def test_the_catalog_may_be_a_path_or_a_loaded_catalog(expected, tmp_path):
    path = builtin_catalog_path(GAME)
    by_path = run_balance(GAME, str(path), 30, 3, ["random"], 11, OPTIONS, workers=1, chunk=7)
    loaded = run_balance(GAME, load_catalog(path), 30, 3, ["random"], 11, OPTIONS, workers=1)
    assert as_json(by_path.records) == expected == as_json(loaded.records)
    assert by_path.catalog == str(path) and loaded.catalog == GAME
    copy = tmp_path / "my-mine.json"
    copy.write_bytes(path.read_bytes())
    mine = run_balance(GAME, str(copy), 6, 3, ["random"], 11, OPTIONS, workers=2, chunk=2)
    assert as_json(mine.records) == expected[:6]  # the workers load the file themselves
    document = json.loads(copy.read_text())
    copy.write_text(json.dumps({**document, "version": "2.0.0"}))
    changed = run_balance(GAME, str(copy), 2, 3, ["random"], 11, OPTIONS, workers=1)
    assert changed.catalog_version == "2.0.0"  # a changed file is loaded again


def interrupt_after(chunks: int):
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == chunks:
            raise KeyboardInterrupt

    return progress, calls


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_returns_the_games_finished_so_far(expected, workers):
    progress, calls = interrupt_after(2)
    run = run_balance(
        GAME, GAME, 30, 3, ["random"], 11, OPTIONS, workers=workers, progress=progress, chunk=3
    )
    assert run.partial and run.games == 30
    assert 6 <= run.covered < 30 and run.covered == len(run.records)
    assert calls[-1] == 6
    by_index = {r["index"]: r for r in expected}
    assert as_json(run.records) == [by_index[r.index] for r in run.records]
    assert [r.index for r in run.records] == sorted({r.index for r in run.records})  # once each
    assert run.to_json(records=False)["covered"] == run.covered


def test_rotation_seats_every_bot_everywhere():
    assert seat_bots(["greedy", "random", "random"], 0, True) == ["greedy", "random", "random"]
    assert seat_bots(["greedy", "random", "random"], 1, True) == ["random", "greedy", "random"]
    assert seat_bots(["greedy", "random", "random"], 5, True) == ["random", "random", "greedy"]
    assert seat_bots(["a", "b"], 3, False) == ["a", "b"]
    run = run_balance(GAME, GAME, 4, 2, ["greedy", "random"], 3, {"level": "2"}, rotate=True)
    assert [r.bots for r in run.records] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert run.bots == ["greedy", "random"] and run.rotate


def test_a_run_round_trips_through_json(expected):
    run = run_balance(GAME, GAME, 5, 3, ["random"], 11, OPTIONS, workers=1)
    again = BalanceRun.from_json(run.to_json())
    assert again.to_json() == run.to_json()
    assert as_json(again.records) == expected[:5]
    with pytest.raises(ValueError, match="without its game records"):
        BalanceRun.from_json(run.to_json(records=False))
    with pytest.raises(ValueError, match="not a balance run"):
        BalanceRun.from_json({"format": "protopress-log/1"})


def test_no_games_is_an_empty_complete_run():
    run = run_balance(GAME, GAME, 0, 2, ["random"], 1, workers=2)
    assert run.records == [] and not run.partial


@pytest.mark.parametrize(
    "call, message",
    [
        (dict(game_id="chess"), "no game 'chess'"),
        (dict(players=9), "dragonstone-mine takes 2 to 5 players"),
        (dict(bots=["clever"]), "unknown bot 'clever'"),
        (dict(options={"speed": "fast"}), "unknown option 'speed'"),
        (
            dict(catalog="gemstone-caverns"),
            "is a catalog of gemstone-caverns, not dragonstone-mine",
        ),
        (dict(catalog="no/such/file.json"), "no such catalog file or built-in game"),
        (dict(games=-1), "cannot be negative"),
    ],
)
def test_bad_input_is_refused_before_any_worker_starts(call, message):
    arguments = dict(
        game_id=GAME,
        catalog=GAME,
        games=2,
        players=3,
        bots=["random"],
        seed=1,
        options={},
        workers=2,
    )
    with pytest.raises(ValueError, match=message):
        run_balance(**{**arguments, **call})


def test_chunks_stay_small_and_give_every_worker_many():
    assert chunk_size(10_000, 2) == 20
    assert chunk_size(64, 2) == 2
    assert chunk_size(3, 8) == 1


def test_a_cluster_without_dask_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(MissingExtra, match=r"pip install 'protopress\[cluster\]'"):
        run_balance(GAME, GAME, 2, 3, ["random"], 1, OPTIONS, scheduler="tcp://127.0.0.1:1")


def test_a_dask_cluster_gives_the_local_results(expected):
    distributed = pytest.importorskip("distributed")
    seen = []
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        run = run_balance(
            GAME,
            GAME,
            30,
            3,
            ["random"],
            11,
            OPTIONS,
            progress=lambda done, total: seen.append(done),
            scheduler=cluster.scheduler_address,
        )
    assert as_json(run.records) == expected
    assert not run.partial and seen[-1] == 30

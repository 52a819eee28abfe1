"""A balance run's store: extended and resumed runs give the bytes of one long run,
a store of other settings is refused, a damaged one is said where."""

import json

import pytest
from click.testing import CliRunner

from protopress.balance import run_balance, summarize_run, write_json
from protopress.balance.store import GameStore, StoreError, settings_for, store_beside
from protopress.cli import cli
from protopress.games import spec_for

GAME = "stonespine-architects"
PLAYERS = 2
BOTS = ["greedy", "random"]
SEED = 7
GAMES = 12


def settings(seed=SEED, bots=BOTS, rotate=True):
    return settings_for(spec_for(GAME), GAME, PLAYERS, bots, rotate, seed, {})


def run(games, store=None, **kwargs):
    """A run of the test's settings, its games kept in store when given."""
    return run_balance(GAME, GAME, games, PLAYERS, BOTS, SEED, {}, workers=1, rotate=True,
                       kept=store.below(games) if store else (),
                       on_records=store.add if store else None, **kwargs)  # fmt: skip


def json_bytes(result, path):
    write_json(path, result, summarize_run(result))
    return path.read_bytes()


@pytest.fixture(scope="module")
def long_run(tmp_path_factory):
    """One run of all the games, without a store: what every grown run must write."""
    return json_bytes(run(GAMES), tmp_path_factory.mktemp("long") / "long.json")


def test_an_extended_run_plays_only_the_new_games_and_writes_the_bytes_of_one_long_run(
    long_run, tmp_path
):
    path = tmp_path / "run.games.jsonl"
    store = GameStore.open(path, settings())
    first = run(5, store)
    assert first.covered == 5 and len(path.read_text().splitlines()) == 1 + 5  # header, games
    played = []
    store = GameStore.open(path, settings())  # read back from the file, as a new command does
    assert [r.index for r in store.below(GAMES)] == [0, 1, 2, 3, 4]
    grown = run(GAMES, store, progress=lambda done, total: played.append((done, total)))
    assert played[-1] == (GAMES - 5, GAMES - 5)  # only the seven new games were played
    assert json_bytes(grown, tmp_path / "grown.json") == long_run


def test_an_interrupted_run_resumes_where_it_stopped(long_run, tmp_path):
    path = tmp_path / "run.games.jsonl"
    store = GameStore.open(path, settings())
    chunks = []

    def stop_after_two_chunks(records):
        store.add(records)
        chunks.append(records)
        if len(chunks) == 2:
            raise KeyboardInterrupt

    stopped = run_balance(GAME, GAME, GAMES, PLAYERS, BOTS, SEED, {}, workers=1, rotate=True,
                          chunk=3, on_records=stop_after_two_chunks)  # fmt: skip
    assert stopped.partial and stopped.covered == 6
    with path.open("ab") as stream:  # a record cut short by a crash mid-write
        stream.write(b'{"index": 6, "seed": 12')
    store = GameStore.open(path, settings())
    assert sorted(store.records) == list(range(6))  # the cut line is dropped ...
    assert path.read_bytes().endswith(b"\n")  # ... and cut from the file
    resumed = run(GAMES, store)
    assert json_bytes(resumed, tmp_path / "resumed.json") == long_run
    assert len(path.read_text().splitlines()) == 1 + GAMES


def test_games_kept_out_of_order_are_not_played_again(long_run, tmp_path):
    """A pool finishes chunks in any order: the store may hold games 0-2 and 7-9."""
    path = tmp_path / "run.games.jsonl"
    store = GameStore.open(path, settings())
    full = run(GAMES)
    store.add(r for r in full.records if r.index in (0, 1, 2, 7, 8, 9))
    played = []
    store = GameStore.open(path, settings())
    resumed = run_balance(GAME, GAME, GAMES, PLAYERS, BOTS, SEED, {}, workers=1, rotate=True,
                          kept=store.below(GAMES), on_records=played.extend)  # fmt: skip
    assert sorted(r.index for r in played) == [3, 4, 5, 6, 10, 11]
    assert json_bytes(resumed, tmp_path / "resumed.json") == long_run


def test_a_store_of_other_settings_is_refused_saying_what_differs(tmp_path):
    path = tmp_path / "run.games.jsonl"
    GameStore.open(path, settings()).add(run(2).records)
    with pytest.raises(StoreError) as refused:
        GameStore.open(path, settings(seed=8, bots=["random"] * 2))
    message = str(refused.value)
    assert "bots greedy,random, not random,random; seed 7, not 8" in message
    assert "--fresh" in message and "\n" not in message
    fresh = GameStore.open(path, settings(seed=8), fresh=True)
    assert fresh.records == {}
    assert GameStore.open(path, settings()).records.keys() == {0, 1}  # not replaced yet


def test_a_damaged_store_is_refused_with_its_line(tmp_path):
    path = tmp_path / "run.games.jsonl"
    GameStore.open(path, settings()).add(run(3).records)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1] + "not json\n" + lines[3])
    with pytest.raises(StoreError, match=r"run.games.jsonl:3: not a game record"):
        GameStore.open(path, settings())
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(StoreError, match=r"run.games.jsonl:1: not a balance store"):
        GameStore.open(path, settings())


def test_another_catalog_file_is_another_store(tmp_path):
    from protopress.components import builtin_catalog_path

    copy = tmp_path / "catalog.json"
    text = builtin_catalog_path(GAME).read_text()
    copy.write_text(text)
    same = settings_for(spec_for(GAME), str(copy), PLAYERS, BOTS, True, SEED, {})
    assert same == settings()  # the same bytes under another name
    copy.write_text(text.replace('"version"', '"version" ', 1))
    other = settings_for(spec_for(GAME), str(copy), PLAYERS, BOTS, True, SEED, {})
    assert settings().differences(other) == ["another catalog file"]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_balance_grows_its_run_from_the_store_beside_the_json(tmp_path):
    common = ["balance", GAME, "--players", PLAYERS, "--bot", "greedy", "--bot", "random",
              "--rotate", "--seed", SEED, "--workers", 1]  # fmt: skip
    first = invoke(*common, "--games", 5, "--json", tmp_path / "run.json")
    assert first.exit_code == 0, first.output
    assert store_beside(tmp_path / "run.json") == tmp_path / "run.games.jsonl"
    grown = invoke(*common, "--games", GAMES, "--json", tmp_path / "run.json")
    assert grown.exit_code == 0, grown.output
    assert f"run.games.jsonl: 5 games kept, {GAMES - 5} to play" in grown.stderr
    once = invoke(*common, "--games", GAMES, "--json", tmp_path / "once.json")
    assert once.exit_code == 0, once.output
    assert (tmp_path / "run.json").read_bytes() == (tmp_path / "once.json").read_bytes()

    other = invoke(*common[:-4], "--seed", 8, "--workers", 1, "--games", 3,
                   "--json", tmp_path / "run.json")  # fmt: skip
    assert other.exit_code == 1
    assert "run.games.jsonl holds games played with seed 7, not 8" in other.output
    afresh = invoke(*common[:-4], "--seed", 8, "--workers", 1, "--games", 3,
                    "--json", tmp_path / "run.json", "--fresh")  # fmt: skip
    assert afresh.exit_code == 0, afresh.output
    header = json.loads((tmp_path / "run.games.jsonl").read_text().splitlines()[0])
    assert header["seed"] == 8


def test_store_options_are_refused_where_they_mean_nothing(tmp_path):
    fresh = invoke("balance", GAME, "--games", 2, "--fresh")
    assert fresh.exit_code == 2 and "--fresh starts a store afresh" in fresh.output
    same = invoke("balance", GAME, "--games", 2, "--json", tmp_path / "a.json",
                  "--store", tmp_path / "a.json")  # fmt: skip
    assert same.exit_code == 2 and "is also an output" in same.output


def test_a_store_that_cannot_be_written_stops_the_run_with_one_line(tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    store = GameStore.open(folder / "run.games.jsonl", settings())
    folder.rmdir()  # the folder the store was to be written in is gone
    with pytest.raises(StoreError, match=r"run.games.jsonl: cannot write the store: "):
        run(3, store)

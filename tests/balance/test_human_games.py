"""Games people played at the playtest table, added to a balance store as human games
(`balance --add-replay`): marked human, refused when they are of another game or
unfinished, and kept apart from the bots' statistics."""

import json
from pathlib import Path

from click.testing import CliRunner

from protopress.balance.store import GameStore
from protopress.cli import cli
from protopress.components import load_catalog
from protopress.rules.plugins import load_rules
from protopress.web.table import PERSON, PlayTable, TableSetup

ROOT = Path(__file__).parents[2]
RULES = str(ROOT / "examples" / "cottage-market" / "rules.py")
CATALOG = str(ROOT / "examples" / "cottage-market" / "catalog.json")
GAME = ["cottage-market", "--rules", RULES, "--catalog", CATALOG, "--option", "rounds=1"]
RUN = ["--bot", "greedy", "--seed", "3", "--workers", "1", "--games", "4"]

# A one-round game (seed 0) by hand: the market is cottage, cottage, woodcutter (cost:
# gold); the person (seat 0, 2 gold) builds the woodcutter in slot 2, scoring its 0
# points + 1 for a card built = 1; greedy (seat 1) takes a gold and builds nothing: 0.
PLAYED = {
    "format": "protopress-log/1",
    "game": "cottage-market",
    "catalog": CATALOG,
    "catalog_version": "0.1.0",
    "players": 2,
    "bots": [PERSON, "greedy"],
    "seed": 0,
    "options": {"rounds": 1, "start_gold": 2},
    "rules": RULES,
    "limit": False,
    "actions": [["build", 2], ["take", "gold"]],
    "scores": [1, 0],
}


def invoke(*args):
    return CliRunner().invoke(cli, ["balance", *map(str, args)])


def write_log(tmp_path: Path, name: str, **changes) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(PLAYED | changes))
    return path


def bot_store(tmp_path: Path, name: str = "run.games.jsonl") -> Path:
    store = tmp_path / name
    made = invoke(*GAME, *RUN, "--store", store)
    assert made.exit_code == 0, made.output
    return store


def add(store: Path, *logs: Path):
    return invoke("cottage-market", "--rules", RULES, "--store", store,
                  *[arg for log in logs for arg in ("--add-replay", log)])  # fmt: skip


def test_a_finished_table_game_joins_the_store_marked_human(tmp_path):
    store = bot_store(tmp_path)
    bots_before = GameStore.existing(store).records
    added = add(store, write_log(tmp_path, "game.json"))
    assert added.exit_code == 0, added.output
    assert "added to" in added.output and "as human game 1 (a person at seat 0; scores 1, 0)" in (
        added.output
    )
    kept = GameStore.existing(store)
    assert kept.records == bots_before  # the bots' games as they were
    (human,) = kept.human
    assert human.people == (0,)
    assert human.record.scores == [1, 0] and human.record.winners == [0]
    assert human.record.bots == [PERSON, "greedy"] and human.record.decisions == 2
    assert human.record.extra["built"] == [["woodcutter"], []]
    line = json.loads(store.read_text().splitlines()[-1])
    assert line["human"] == [0]


def test_the_report_counts_human_games_apart_from_the_bots_numbers(tmp_path):
    store = bot_store(tmp_path)
    assert add(store, write_log(tmp_path, "game.json")).exit_code == 0
    with_human = invoke(*GAME, *RUN, "--store", store, "--json", tmp_path / "with.json")
    assert with_human.exit_code == 0, with_human.output
    alone = invoke(*GAME, *RUN, "--json", tmp_path / "alone.json")  # a store of bots alone
    assert alone.exit_code == 0, alone.output
    summary = json.loads((tmp_path / "with.json").read_text())["summary"]
    human = summary.pop("human_games")
    assert human == {
        "games": 1,
        "in_statistics": False,
        "people": {"seats": 1, "wins": 1, "mean_score": 1},
        "bots": {"seats": 1, "wins": 0, "mean_score": 0},
    }
    # every other number is the bots' four games, as without the human game
    assert summary == json.loads((tmp_path / "alone.json").read_text())["summary"]
    assert summary["games"] == 4
    assert (
        "1 game played by people at the table is kept apart (every other figure is the "
        "bots' games alone): the people's seats won 1 of 1 (mean score 1), the bots' seats "
        "at those tables 0 of 1 (mean score 0)."
    ) in with_human.output
    # a settled store keeps the human game after the bots' games
    assert json.loads(store.read_text().splitlines()[-1])["human"] == [0]


def test_the_log_a_table_writes_joins_the_store(tmp_path):
    spec = load_rules(RULES)
    catalog = load_catalog(CATALOG)
    options = spec.parse_options({"rounds": 1})
    setup = TableSetup(spec.id, CATALOG, catalog.version, (PERSON, "greedy"), 0, options, RULES)
    table = PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")
    table.play(["build", 2], 0)
    table.bot_move(1)
    assert table.over
    log = tmp_path / "table.json"
    log.write_text(json.dumps(table.replay_log()))
    added = add(bot_store(tmp_path), log)
    assert added.exit_code == 0, added.output
    assert "a person at seat 0; scores 1, 0" in added.output


def test_a_game_of_other_options_rules_or_players_is_refused_in_one_line(tmp_path):
    store = bot_store(tmp_path)
    two_rounds = write_log(tmp_path, "two.json", options={"rounds": 2, "start_gold": 2})
    refused = add(store, two_rounds)
    assert refused.exit_code == 1
    assert refused.output.strip().splitlines() == [
        f"{two_rounds}: the store holds games of another game: the log has options "
        "rounds=2,start_gold=2, not rounds=1,start_gold=2"
    ]
    three = invoke(*GAME, "--players", 3, *RUN, "--store", tmp_path / "three.jsonl")
    assert three.exit_code == 0, three.output
    refused = add(tmp_path / "three.jsonl", write_log(tmp_path, "game.json"))
    assert refused.exit_code == 1 and "the log has players 2, not 3" in refused.output
    builtin = invoke("dragonstone-mine", *RUN, "--store", tmp_path / "dragon.jsonl")
    assert builtin.exit_code == 0, builtin.output
    refused = add(tmp_path / "dragon.jsonl", write_log(tmp_path, "game.json"))
    assert refused.exit_code == 1
    assert "game cottage-market, not dragonstone-mine" in refused.output
    assert GameStore.existing(store).human == []


def test_an_unfinished_game_a_bot_game_or_one_added_twice_is_refused(tmp_path):
    store = bot_store(tmp_path)
    unfinished = write_log(tmp_path, "half.json", actions=[["build", 2]], scores=[1, 0])
    refused = add(store, unfinished)
    assert refused.exit_code == 1
    assert "the game is unfinished (it ends after 1 actions)" in refused.output
    bots = write_log(tmp_path, "bots.json", bots=["greedy", "greedy"])
    refused = add(store, bots)
    assert refused.exit_code == 1 and "no seat was a person's" in refused.output
    once = write_log(tmp_path, "game.json")
    again = write_log(tmp_path, "again.json")  # the same game in another file
    refused = add(store, once, again)
    assert refused.exit_code == 1
    assert "holds this game already (human game 1)" in refused.output
    assert len(GameStore.existing(store).human) == 1  # the first was added


def test_adding_needs_a_store_and_plays_nothing(tmp_path):
    log = write_log(tmp_path, "game.json")
    missing = add(tmp_path / "none.jsonl", log)
    assert missing.exit_code == 1 and "no store there yet" in missing.output
    no_store = invoke("cottage-market", "--rules", RULES, "--add-replay", log)
    assert no_store.exit_code == 2 and "give --store FILE" in no_store.output
    games = invoke("cottage-market", "--rules", RULES, "--store", tmp_path / "s.jsonl",
                   "--games", 5, "--add-replay", log)  # fmt: skip
    assert games.exit_code == 2 and "plays none: leave out --games" in games.output

"""Dockside Dice (examples/dockside-dice), a dice game as data, through every command:
render, simulate and replay, balance, conform, the search bot; and its rules worked
by hand on a game's first turns."""

import json
import random
from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components.loader import load_catalog
from protopress.rules.data.spec import data_spec

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "dockside-dice"
RULES = str(EXAMPLE / "rules.yaml")
FISH, SALT, ROPE, PEARL = range(4)  # the resources: the catalog's symbols, in order


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_it_renders(tmp_path):
    result = invoke("render", EXAMPLE / "catalog.json", "--layouts", EXAMPLE / "layouts",
                    "-o", tmp_path)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "card-sheets.pdf").is_file() and (tmp_path / "face-sheets.pdf").is_file()


def test_simulate_then_replay_gives_the_same_scores(tmp_path):
    result = invoke("simulate", "dockside-dice", "--rules", RULES, "--games", "4", "--players", "3",
                    "--bot", "greedy", "--bot", "random", "--log-dir", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    run = json.loads(result.output)
    for index in (0, 3):
        replayed = invoke("replay", tmp_path / f"game-{index:05d}.json", "--rules", RULES)
        assert replayed.exit_code == 0, replayed.output
        for seat, score in enumerate(run["games"][index]["scores"]):
            assert f"seat {seat}: {score}" in replayed.output


def test_balance_on_worker_processes(tmp_path):
    out = tmp_path / "run.json"
    result = invoke("balance", "dockside-dice", "--rules", RULES, "--games", "8", "--players", "4",
                    "--workers", "2", "--bot", "greedy", "--bot", "random", "--json", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["covered"] == 8


def test_conform_passes():
    result = invoke("conform", "dockside-dice", "--rules", RULES, "--games", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "dockside-dice conforms"


def test_the_search_bot_plays_it():
    result = invoke("simulate", "dockside-dice", "--rules", RULES, "--games", "1",
                    "--bot", "mcts:30", "--bot", "random", "--option", "rounds=3", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    assert game["decisions"] == 6 and not game["limit"]  # 3 rounds of 2 turns


def test_greedy_beats_random():
    result = invoke("simulate", "dockside-dice", "--rules", RULES, "--games", "40",
                    "--bot", "greedy", "--bot", "random", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    wins = sum(game["scores"][0] > game["scores"][1] for game in json.loads(result.output)["games"])
    assert wins > 24  # more than 60%: greedy (seat 0, no starting pearl) wins most games


def test_the_first_turn_worked_by_hand():
    """Two players. Setup: three orders face up; seat 1 (not the first) starts with a
    pearl. Seat 0's turn starts with the dice empty: 3 dice (players + 1) are rolled,
    each one of the six faces fish, fish, salt, salt, rope, pearl. Seat 0 sells the
    first die: it gains that good, and 1 renown (the quay holds none of it yet, fewer
    than 2), and the die lies on the quay."""
    spec = data_spec(Path(RULES))
    game = spec.new_game()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    state = game.setup(catalog, 2, random.Random(5), {})
    assert state.pools == [[0, 0, 0, 0], [0, 0, 0, 1]]
    assert len(state.piles[game.layout.zones[1].first]) == 3  # the market
    model = game.model(catalog)
    dice, quay = model.zone("dice").first, model.zone("quay").first
    assert len(state.piles[dice]) == 3 and state.piles[quay] == []
    die = state.piles[dice][0]
    good = model.resources.index(model.cards.fields["good"][die])
    sells = [a for a in game.legal_actions(state) if game.actions.encode(a)[0] == "sell"]
    chosen = next(a for a in sells if game.actions.encode(a)[1] == model.cards.ids[die])
    game.apply(state, chosen)
    expected = [0, 0, 0, 0]
    expected[good] = 1
    assert state.pools[0] == expected and state.tracks == [[1], [0]]
    assert state.piles[quay] == [die] and len(state.piles[dice]) == 2

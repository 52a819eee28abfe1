"""Cottage Market's rules.yaml through every command: simulate and replay exactly,
balance on worker processes, conform, and the search bot."""

import json
import re
from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"
RULES = str(EXAMPLE / "rules.yaml")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_simulate_then_replay_gives_the_same_scores(tmp_path):
    result = invoke("simulate", "cottage-market", "--rules", RULES, "--games", "6", "--players", "3",
                    "--bot", "greedy", "--bot", "random", "--log-dir", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    run = json.loads(result.output)
    assert run["options"] == {"rounds": 12, "start_gold": 2}
    for index in (0, 5):
        replayed = invoke("replay", tmp_path / f"game-{index:05d}.json", "--rules", RULES)
        assert replayed.exit_code == 0, replayed.output
        for seat, score in enumerate(run["games"][index]["scores"]):
            assert f"seat {seat}: {score}" in replayed.output


def test_an_option_reaches_the_rules():
    """rounds=1 with 2 players: two turns, so two decisions in every game."""
    result = invoke("simulate", "cottage-market", "--rules", RULES, "--games", "3",
                    "--option", "rounds=1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert {game["decisions"] for game in json.loads(result.output)["games"]} == {2}


def test_a_bad_option_is_refused_before_a_game():
    result = invoke("simulate", "cottage-market", "--rules", RULES, "--option", "rounds=0")
    assert result.exit_code in (1, 2) and "rounds" in result.output


def test_balance_on_worker_processes(tmp_path):
    out = tmp_path / "run.json"
    result = invoke("balance", "cottage-market", "--rules", RULES, "--games", "8",
                    "--workers", "2", "--bot", "greedy", "--bot", "random", "--json", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"] == "cottage-market"


def test_conform_passes():
    result = invoke("conform", "cottage-market", "--rules", RULES, "--games", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "cottage-market conforms"


def test_the_search_bot_plays_it():
    result = invoke("simulate", "cottage-market", "--rules", RULES, "--games", "1",
                    "--bot", "mcts:40", "--bot", "random", "--option", "rounds=4", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    assert game["decisions"] == 8 and not game["limit"]


HIDDEN_HANDS = """
rules: 1
game: cottage-market
players: {min: 2, max: 4}
resources: {kind: symbol}
zones:
  deck: {holds: card, seen: nobody, setup: all, shuffle: true}
  hand: {holds: card, seen: owner, each: true}
  table: {holds: card, seen: everyone, each: true}
setup:
  - {deal: deck, to: hand, n: 3}
turn:
  start: [{draw: deck, to: my.hand}]
  choose:
    play: {each: card, from: my.hand, if: card.points > 0, do: [{move: card, to: my.table}]}
    toss: {each: card, from: my.hand, distinct: true, do: [{discard: card}, {gain: gold}]}
end:
  - empty(deck)
score:
  cards: sum(card.points for card in my.table)
  gold: my.gold
"""


def test_a_game_with_hidden_hands_conforms(tmp_path):
    """Hands seen by their owner: the seat view's twins check holds (no bot reads them)."""
    (tmp_path / "catalog.json").write_text((EXAMPLE / "catalog.json").read_text())
    (tmp_path / "rules.yaml").write_text(HIDDEN_HANDS)
    result = invoke("conform", "cottage-market", "--rules", tmp_path / "rules.yaml")
    assert result.exit_code == 0, result.output
    assert "seat-view-twins    ok" in result.output


def test_replay_shows_named_score_lines(tmp_path):
    """Score lines named in the rules file: replay shows each seat's lines; they add up."""
    (tmp_path / "catalog.json").write_text((EXAMPLE / "catalog.json").read_text())
    (tmp_path / "rules.yaml").write_text(HIDDEN_HANDS)
    rules, logs = tmp_path / "rules.yaml", tmp_path / "logs"
    result = invoke(
        "simulate", "cottage-market", "--rules", rules, "--games", "1", "--log-dir", logs
    )
    assert result.exit_code == 0, result.output
    replayed = invoke("replay", logs / "game-00000.json", "--rules", rules)
    assert replayed.exit_code == 0, replayed.output
    for seat in (0, 1):
        line = next(line for line in replayed.output.splitlines() if f"seat {seat}:" in line)
        total, cards, gold = map(
            int, re.fullmatch(r"\s*seat \d: (\d+) \(cards (\d+), gold (\d+)\)", line).groups()
        )
        assert total == cards + gold

"""The tools around data rules: the `used` record the balance lab reads, `protopress new`'s
rules.yaml, `protopress check`'s bounded simulation, and --rules-code."""

import json
import random
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.balance.stats import components
from protopress.cli import cli, main
from protopress.components.loader import load_catalog
from protopress.designer.scaffold import RulesWritten, new_project
from protopress.rules.data.check import check_play
from protopress.rules.data.spec import data_spec
from protopress.rules.plugins import load_rules
from protopress.rules.simulate import play

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"

# symbols gold, wood; cards in catalog order: ant (1), bee (2 copies), cat (1)
TINY = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"}],
    "cards": [{"id": "ant", "title": "Ant", "cost": ["gold"], "points": 1},
              {"id": "bee", "title": "Bee", "count": 2, "cost": ["wood"], "points": 3},
              {"id": "cat", "title": "Cat", "cost": [], "points": 5}],
}  # fmt: skip

DRAW_AND_TOSS = """
rules: 1
game: tiny
players: {min: 2, max: 2}
zones:
  deck: {holds: card, seen: nobody, setup: all}
  hand: {holds: card, seen: owner, each: true}
turn:
  choose:
    draw: {do: [{draw: deck, to: my.hand}]}
    toss: {each: card, from: my.hand, do: [{discard: card}]}
end: [turns >= 3]
score: count(my.hand)
"""


def tiny_game(tmp_path, text):
    (tmp_path / "catalog.json").write_text(json.dumps(TINY))
    (tmp_path / "rules.yaml").write_text(text)
    spec = data_spec(tmp_path / "rules.yaml")
    return spec.new_game(), load_catalog(tmp_path / "catalog.json")


def test_used_keeps_a_card_that_left_the_seats_zones(tmp_path):
    # The deck, not shuffled, is [ant, bee, bee, cat]: its top is cat.
    # Turn 1, seat 0 draws cat; turn 2, seat 1 draws bee; turn 3, seat 0 tosses cat.
    # Seat 0's hand ends empty, yet cat entered it: used is [cat] and [bee].
    game, catalog = tiny_game(tmp_path, DRAW_AND_TOSS)
    state = game.setup(catalog, 2, random.Random(1), {})
    assert state.used == [frozenset(), frozenset()]  # nothing dealt at setup
    draw = game.actions.decode(["draw"])
    game.apply(state, draw)
    game.apply(state, draw)
    game.apply(state, game.actions.decode(["toss", "cat"]))
    assert game.is_over(state)
    record = game.record(state)
    assert record["hand"] == [[], ["bee"]]
    assert record["used"] == [["cat"], ["bee"]]


def test_a_copy_does_not_share_used_with_its_original(tmp_path):
    game, catalog = tiny_game(tmp_path, DRAW_AND_TOSS)
    state = game.setup(catalog, 2, random.Random(1), {})
    copy = state.copy()
    game.apply(copy, game.actions.decode(["draw"]))
    cat = 2  # cards are numbered in catalog order: ant 0, bee 1, cat 2
    assert state.used == [frozenset(), frozenset()] and copy.used[0] == frozenset({cat})


def test_the_balance_lab_reads_component_effects_of_a_data_game():
    """Cottage Market's rules.yaml says nothing of `used`, yet each game's record has it:
    a built card never leaves `built`, so used is the distinct ids of the built cards."""
    spec = data_spec(EXAMPLE / "rules.yaml")
    catalog = load_catalog(EXAMPLE / "catalog.json")
    game = spec.new_game()
    records = [play(game, catalog, ["greedy", "random"], seed)[1] for seed in range(8)]
    for record in records:
        assert record.extra["used"] == [sorted(set(built)) for built in record.extra["built"]]
    found = components(records)
    assert found is not None
    built = {card for r in records for seat in r.extra["built"] for card in seat}
    assert {entry["id"] for entry in found["items"]} == built


# --- protopress new ------------------------------------------------------------------


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_new_writes_a_rules_file_of_data_that_plays(tmp_path):
    folder = tmp_path / "my-game"
    result = invoke("new", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "rules.yaml").is_file() and not (folder / "rules.py").exists()
    assert "--rules rules.yaml" in (folder / "README.md").read_text()
    played = invoke("simulate", "my-game", "--rules", folder / "rules.yaml", "--catalog",
                    folder / "catalog.json", "--games", "40", "--bot", "greedy", "--bot", "random",
                    "--json")  # fmt: skip
    assert played.exit_code == 0, played.output
    games = json.loads(played.output)["games"]
    # 10 rounds of 2 players: 20 turns, unless the market empties first
    assert all(game["decisions"] <= 20 for game in games)
    greedy_wins = sum(game["winners"] == [0] for game in games)
    assert greedy_wins > 20  # measured: 163 of 200 (81.5%) against random's 18


def test_the_new_rules_file_works_as_its_comment_says(tmp_path):
    """A Woodcutter built gives 2 wood at its owner's turn start; a Quarry 1 stone, or 2
    beside a Woodcutter; 7 resources left score 7 // 3 = 2 points."""
    folder = tmp_path / "mine"
    new_project(folder, rules=RulesWritten.DATA)
    spec = data_spec(folder / "rules.yaml")
    catalog = load_catalog(folder / "catalog.json")
    game = spec.new_game()
    state = game.setup(catalog, 2, random.Random(3), {})
    model = game.model(catalog)
    ids, built = model.cards.ids, game.layout.zones[2]
    assert built.name == "built"
    state.piles[built.first] = [ids.index("woodcutter"), ids.index("quarry")]
    gold, wood, stone = (model.resources.index(name) for name in ("gold", "wood", "stone"))
    before = state.pools[0][:]
    game.apply(state, game.actions.decode(["take", "gold"]))  # seat 0: +1 gold
    game.apply(state, game.actions.decode(["take", "gold"]))  # seat 1; then seat 0 produces
    after = state.pools[0]
    assert after[gold] - before[gold] == 1
    assert after[wood] - before[wood] == 2  # the Woodcutter
    assert after[stone] - before[stone] == 2  # the Quarry, beside a Woodcutter
    state.pools[1] = [3, 2, 2]  # 7 resources, no card built
    assert dict(game.score_lines(state, 1)) == {"cards": 0, "leftovers": 2}


def test_new_with_rules_python_or_none(tmp_path):
    assert invoke("new", tmp_path / "py", "--with-rules", "python").exit_code == 0
    assert (tmp_path / "py" / "rules.py").is_file() and not (
        tmp_path / "py" / "rules.yaml"
    ).exists()
    assert invoke("new", tmp_path / "bare", "--with-rules", "none").exit_code == 0
    assert not {"rules.py", "rules.yaml"} & {p.name for p in (tmp_path / "bare").iterdir()}
    wrong = invoke("new", tmp_path / "x", "--with-rules", "lua")
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output


def test_a_title_with_quotes_and_colons_still_gives_valid_rules(tmp_path):
    folder = tmp_path / "odd"
    new_project(folder, 'Dragons: "Fire" & #1 \u2728', rules=RulesWritten.DATA)
    spec = data_spec(folder / "rules.yaml")
    assert spec.title == 'Dragons: "Fire" & #1 \u2728'


# --- protopress check --rules ----------------------------------------------------------


def cottage(tmp_path, *edits):
    tmp_path = tmp_path / "game"
    shutil.copytree(EXAMPLE, tmp_path)
    text = (EXAMPLE / "rules.yaml").read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    (tmp_path / "rules.yaml").write_text(text)
    return invoke("check", tmp_path / "catalog.json", "--rules", tmp_path / "rules.yaml")


def test_check_plays_the_example_without_a_rules_finding(tmp_path):
    result = cottage(tmp_path)
    assert result.exit_code == 0, result.output
    assert (
        "info cottage-market: 24 of 24 random games of 2 players ended within 1000 turns"
        in result.output
    )
    assert "rules.yaml:" not in result.output


def test_a_game_that_cannot_end_is_an_error_naming_each_end_condition(tmp_path):
    # turns can never reach 100000 within 1000 turns; resources are never negative.
    # The end conditions are on lines 48 and 49 of the example, at column 5.
    result = cottage(tmp_path, ("  - turns >= option.rounds * players\n  - empty(market)",
                                "  - turns >= 100000\n  - total(my.resources) < 0"))  # fmt: skip
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if "rules.yaml" in line]
    said = "this end condition never held: 24 of 24 random games did not end within 1000 turns"
    assert lines == [
        f"error {tmp_path / 'game' / 'rules.yaml'}:48:5 /end/0: {said}",
        f"error {tmp_path / 'game' / 'rules.yaml'}:49:5 /end/1: {said}",
    ]


def test_an_end_condition_after_a_last_round_is_named_at_its_own_place(tmp_path):
    # A last_round item first (it never triggers either), then the two conditions: they
    # are items 1 and 2 of `end`, on lines 49 and 50.
    result = cottage(tmp_path, ("  - turns >= option.rounds * players\n  - empty(market)",
                                "  - {last_round: turns < 0}\n  - turns >= 100000\n"
                                "  - total(my.resources) < 0"))  # fmt: skip
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if "rules.yaml" in line]
    said = "this end condition never held: 24 of 24 random games did not end within 1000 turns"
    assert lines == [
        f"error {tmp_path / 'game' / 'rules.yaml'}:49:5 /end/1: {said}",
        f"error {tmp_path / 'game' / 'rules.yaml'}:50:5 /end/2: {said}",
    ]


def test_an_action_no_one_can_take_is_a_warning_at_its_name(tmp_path):
    result = cottage(tmp_path, ("  choose:\n", "  choose:\n    hoard: {if: 'total(my.resources) < 0', do: []}\n"))  # fmt: skip
    assert result.exit_code == 0, result.output  # a warning: the game still plays
    assert (
        f"warning {tmp_path / 'game' / 'rules.yaml'}:33:5 /turn/choose/hoard: no one could take this "
        "action in 24 random games: it was never allowed"
    ) in result.output.splitlines()


def test_check_rules_refuses_python_rules_and_wrong_players():
    python = invoke("check", EXAMPLE / "catalog.json", "--rules", EXAMPLE / "rules.py")
    assert python.exit_code == 2 and "rules file of data" in python.output
    many = invoke(
        "check", EXAMPLE / "catalog.json", "--rules", EXAMPLE / "rules.yaml", "--players", "9"
    )
    assert many.exit_code == 2 and "2 to 4 players" in many.output


# --- call: NAME, with --rules-code FILE -----------------------------------------------

TITHE_RULES = """
rules: 1
game: tiny
players: {min: 2, max: 3}
resources: {kind: symbol}
zones:
  deck: {holds: card, seen: nobody, setup: all}
setup:
  - each_player: [{gain: gold, n: 2}]
turn:
  choose:
    tithe: {do: [{call: tithe}]}
end: [turns >= 1]
score: "0"
"""

TITHE_CODE = '''
def tithe(rules):
    """Each other player who has gold gives the player 1."""
    for seat in range(rules.players):
        if seat != rules.seat and rules.amount("gold", seat) > 0:
            rules.gain("gold", -1, seat)
            rules.gain("gold", 1)


def broken(rules):
    rules.gain("gold", -99)
'''


def tithe_game(tmp_path, rules=TITHE_RULES, code=TITHE_CODE):
    (tmp_path / "catalog.json").write_text(json.dumps(TINY))
    (tmp_path / "rules.yaml").write_text(rules)
    (tmp_path / "code.py").write_text(code)
    return tmp_path / "rules.yaml", tmp_path / "code.py"


def test_a_call_runs_the_function_of_the_rules_code_file(tmp_path):
    # 3 players start with 2 gold each: [2, 2, 2]. Seat 0's tithe takes 1 gold from
    # seats 1 and 2: [2 + 2, 2 - 1, 2 - 1] = [4, 1, 1]; gold is resource 0.
    rules, code = tithe_game(tmp_path)
    spec = load_rules(str(rules), str(code))
    game = spec.new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state = game.setup(catalog, 3, random.Random(1), {})
    game.apply(state, game.actions.decode(["tithe"]))
    assert [pool[0] for pool in state.pools] == [4, 1, 1] and game.is_over(state)


def test_without_rules_code_a_call_is_a_located_problem_and_no_code_runs(tmp_path):
    # the call is on line 12 (the text starts with a newline), its name at column 25
    rules, code = tithe_game(tmp_path, code="open(__file__ + '.ran', 'w').close()\n")
    result = invoke("simulate", "tiny", "--rules", rules, "--games", "1")
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0] == (
        f"{rules}:12:25 /turn/choose/tithe/do/0/call: call: 'tithe' runs Python: give the file "
        "that defines it with --rules-code FILE (a rules file alone never runs code)"
    )
    assert not Path(str(code) + ".ran").exists()


def test_simulate_replay_conform_and_balance_take_rules_code(tmp_path):
    rules, code = tithe_game(tmp_path)
    logs = tmp_path / "logs"
    played = invoke("simulate", "tiny", "--rules", rules, "--rules-code", code, "--games", "2",
                    "--players", "3", "--log-dir", logs)  # fmt: skip
    assert played.exit_code == 0, played.output
    replayed = invoke("replay", logs / "game-00000.json", "--rules", rules, "--rules-code", code)
    assert replayed.exit_code == 0, replayed.output
    conformed = invoke("conform", "tiny", "--rules", rules, "--rules-code", code, "--games", "1")
    assert conformed.exit_code == 0, conformed.output
    balanced = invoke("balance", "tiny", "--rules", rules, "--rules-code", code, "--games", "4",
                      "--workers", "2", "--json", tmp_path / "run.json")  # fmt: skip
    assert balanced.exit_code == 0, balanced.output  # the workers load the code file too
    assert json.loads((tmp_path / "run.json").read_text())["games"] == 4


def test_an_unknown_function_is_a_located_problem_with_a_suggestion(tmp_path):
    rules, code = tithe_game(tmp_path, TITHE_RULES.replace("call: tithe", "call: tythe"))
    result = invoke("simulate", "tiny", "--rules", rules, "--rules-code", code, "--games", "1")
    assert result.exit_code == 1
    assert "/turn/choose/tithe/do/0/call: 'tythe' is not a function of the --rules-code file (did you mean 'tithe'?)" in result.output  # fmt: skip


def test_a_function_that_fails_is_a_rules_fault_naming_the_step(tmp_path, capsys, monkeypatch):
    rules, code = tithe_game(tmp_path, TITHE_RULES.replace("call: tithe", "call: broken"))
    argv = ["protopress", "simulate", "tiny", "--rules", str(rules), "--rules-code", str(code)]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert f"{rules}:12:25: call broken: ValueError: the player holds 2 gold, cannot lose 99" in err
    assert "Traceback" not in err


def test_rules_code_needs_a_rules_file_of_data(tmp_path):
    rules, code = tithe_game(tmp_path)
    python = invoke("simulate", "cottage-market", "--rules", EXAMPLE / "rules.py", "--rules-code", code)  # fmt: skip
    assert python.exit_code == 2 and "goes with a rules file of data" in python.output
    alone = invoke("simulate", "cottage-market", "--rules-code", code)
    assert alone.exit_code == 2 and "goes with --rules FILE.yaml" in alone.output
    missing = invoke("simulate", "tiny", "--rules", rules, "--rules-code", tmp_path / "no.py")
    assert missing.exit_code == 2 and "no such rules code file" in missing.output


def test_check_takes_rules_code_and_refuses_it_alone(tmp_path):
    rules, code = tithe_game(tmp_path)
    alone = invoke("check", tmp_path / "catalog.json", "--rules-code", code)
    assert alone.exit_code == 2 and "go with --rules FILE.yaml" in alone.output
    checked = invoke("check", tmp_path / "catalog.json", "--rules", rules, "--rules-code", code)
    assert "info tiny: 24 of 24 random games of 2 players ended within 1000 turns" in checked.output


def test_score_of_a_data_game_is_a_usage_error_as_for_python_rules_without_a_state():
    """`score` scores a state file of a game whose rules define score_state; neither
    Cottage Market's rules.py nor its rules.yaml has one (replay shows the lines)."""
    for rules in ("rules.yaml", "rules.py"):
        result = invoke(
            "score", "cottage-market", EXAMPLE / "catalog.json", "--rules", EXAMPLE / rules
        )
        assert result.exit_code == 2 and "has no score state to score" in result.output


def test_a_player_compares_as_its_seat_number(tmp_path):
    # every player after the first starts with 1 gold: 3 players give [0, 1, 1]
    rules = TITHE_RULES.replace(
        "  - each_player: [{gain: gold, n: 2}]",
        "  - each_player: [{if: my > 0, then: [{gain: gold}]}]",
    )
    rules_path, code = tithe_game(tmp_path, rules)
    game = load_rules(str(rules_path), str(code)).new_game()
    state = game.setup(load_catalog(tmp_path / "catalog.json"), 3, random.Random(1), {})
    assert [pool[0] for pool in state.pools] == [0, 1, 1]


def test_a_game_where_no_action_is_ever_allowed_is_named_stuck(tmp_path):
    # the only action needs turns < 0: no game gets past setup, so turns >= 1 never holds.
    # In the text (after its first empty line): line 12 the action, line 13 `end: [turns >= 1]`.
    rules, code = tithe_game(tmp_path, TITHE_RULES.replace("{do: [{call: tithe}]}", "{if: turns < 0, do: []}"))  # fmt: skip
    game = data_spec(rules).new_game()
    played = check_play(game, load_catalog(tmp_path / "catalog.json"), 2, games=3)
    assert played.ended == 0
    assert [str(found) for found in played.findings] == [
        f"error {rules}:13:7 /end/0: this end condition never held: 3 of 3 random games did not "
        "end within 1000 turns (3 stopped with no action allowed and the game not over)",
        f"warning {rules}:12:5 /turn/choose/tithe: no one could take this action in 3 random "
        "games: it was never allowed",
    ]

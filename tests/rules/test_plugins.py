"""A designer's own rules: the docs' example game through every command, by path,
by module and by entry point; and every built-in spec reaching every command."""

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress import games as registry
from protopress.balance import run_balance, summarize_run
from protopress.cli import cli
from protopress.games import BUILTIN_GAMES, builtin_spec, spec_for
from protopress.rules.plugins import RulesError, load_rules, resolve_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cottage-market"
RULES = str(EXAMPLE / "rules.py")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_example_game_simulates_and_replays_exactly(tmp_path):
    result = invoke("simulate", "cottage-market", "--rules", RULES, "--games", "20",
                    "--bot", "greedy", "--bot", "random", "--log-dir", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    run = json.loads(result.output)
    assert run["options"] == {"rounds": 12, "start_gold": 2}
    greedy = sum(g["winners"] == [0] for g in run["games"])
    assert greedy > 10  # building beats taking at random
    for index in (0, 7):
        log = tmp_path / f"game-{index:05d}.json"
        replayed = invoke("replay", log, "--rules", RULES)
        assert replayed.exit_code == 0, replayed.output
        scores = run["games"][index]["scores"]
        assert (
            f"seat 0: {scores[0]}" in replayed.output and f"seat 1: {scores[1]}" in replayed.output
        )


def test_the_example_game_balances_the_same_with_one_and_two_workers():
    catalog = str(EXAMPLE / "catalog.json")
    runs = [
        run_balance(
            "cottage-market",
            catalog,
            60,
            2,
            ["greedy", "random"],
            5,
            {"rounds": "6"},
            workers=workers,
            rules=RULES,
            rotate=True,
        )  # fmt: skip
        for workers in (1, 2)
    ]
    one, two = (summarize_run(run) for run in runs)
    assert [r.to_json() for r in runs[0].records] == [r.to_json() for r in runs[1].records]
    assert one == two
    assert runs[0].options == {"rounds": 6, "start_gold": 2}


def test_balance_command_runs_the_example(tmp_path):
    out = tmp_path / "run.json"
    result = invoke("balance", "cottage-market", "--rules", RULES, "--games", "40",
                    "--workers", "1", "--json", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"] == "cottage-market"


def test_loaded_by_module_name_and_by_name_in_the_module(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    assert load_rules("rules:SPEC").id == "cottage-market"
    assert load_rules("rules").id == "cottage-market"
    with pytest.raises(RulesError, match="expected CottageMarket to be a protopress.rules.spec"):
        load_rules(f"{RULES}:CottageMarket")  # an engine class without a spec attribute


def test_loaded_through_an_entry_point(cottage_market_installed):
    """An installed package's game: name = game id, value = module:SPEC."""
    assert "cottage-market" in registry.installed_ids()
    assert "cottage_market_rules" not in sys.modules  # listing does not import it
    assert spec_for("cottage-market").title == "Cottage Market"
    result = invoke("simulate", "cottage-market", "--games", "3")
    assert result.exit_code == 0, result.output
    assert "cottage-market: 3 games, 2 players" in result.output


def test_rules_problems_are_reported_not_raised(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("raise RuntimeError('boom')\n")
    result = invoke("simulate", "cottage-market", "--rules", bad)
    assert result.exit_code == 1
    assert "the rules file failed while loading: RuntimeError: boom" in result.output
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    result = invoke("simulate", "cottage-market", "--rules", empty)
    assert (
        result.exit_code == 1
        and "expected SPEC to be a protopress.rules.spec.GameSpec" in result.output
    )
    result = invoke("simulate", "cottage-market", "--rules", tmp_path / "missing.py")
    assert result.exit_code == 2 and "no such rules file" in result.output
    result = invoke("simulate", "gem-rush", "--rules", RULES)
    assert (
        result.exit_code == 1
        and "holds the rules of 'cottage-market', not 'gem-rush'" in result.output
    )
    with pytest.raises(RulesError):
        resolve_spec("gem-rush", RULES)


def test_a_catalog_never_loads_rules(tmp_path):
    """Nothing in a catalog names code: a --catalog of the example game without --rules
    is an unknown game, and the rules file is not imported."""
    result = invoke("simulate", "cottage-market", "--catalog", EXAMPLE / "catalog.json")
    assert result.exit_code == 2 and "no game 'cottage-market'" in result.output


HINT = " (run again with --debug for the traceback)"


def test_debug_shows_the_traceback_of_an_internal_error(monkeypatch, capsys):
    from protopress import cli as package

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("protopress.cli.catalog.load_catalog", broken)
    for argv, shows in (
        (["protopress", "games"], False),
        (["protopress", "--debug", "games"], True),
    ):
        monkeypatch.setattr(sys, "argv", argv)
        with pytest.raises(SystemExit) as exit_info:
            package.main()
        assert exit_info.value.code == 70
        err = capsys.readouterr().err
        assert err.strip().endswith("RuntimeError: a bug" + ("" if shows else HINT))
        assert ("Traceback (most recent call last)" in err) is shows


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_every_builtin_spec_reaches_every_command(game, tmp_path):
    spec = builtin_spec(game)
    listed = json.loads(invoke("games", "--json").output)
    entry = next(e for e in listed if e["game"] == game)
    assert entry["players"] == [spec.min_players, spec.max_players]
    assert set(entry["options"]) == {o.name for o in spec.options}
    assert invoke("validate", game).exit_code == 0
    players = max(2, spec.min_players)
    sim = invoke("simulate", game, "--games", "1", "--players", players, "--log-dir", tmp_path)
    assert sim.exit_code == 0, sim.output
    assert invoke("replay", tmp_path / "game-00000.json").exit_code == 0
    bal = invoke("balance", game, "--games", "2", "--players", players, "--workers", "1")
    assert bal.exit_code == 0, bal.output
    assert spec.layouts_dir is not None and spec.catalog_path is not None
    assert spec.checks and all(
        m.startswith(f"protopress.games.{spec.folder.name}.") for m in spec.checks
    )


def test_the_example_rules_are_the_skeleton_that_new_writes(tmp_path):
    from protopress.designer.scaffold import rules_skeleton

    written = rules_skeleton("cottage-market", "Cottage Market", "examples/cottage-market")
    assert written == (EXAMPLE / "rules.py").read_text()


def test_new_with_rules_makes_a_project_that_simulates(tmp_path):
    folder = tmp_path / "my-game"
    result = invoke("new", folder, "--with-rules")
    assert result.exit_code == 0, result.output
    assert "--rules rules.py" in (folder / "README.md").read_text()
    played = invoke("simulate", "my-game", "--rules", folder / "rules.py",
                    "--catalog", folder / "catalog.json", "--games", "5", "--bot", "greedy")  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "my-game: 5 games, 2 players" in played.output

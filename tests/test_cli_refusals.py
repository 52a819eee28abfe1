"""Command-line refusals found by the second hardening round: each one reproduced."""

import json

from click.testing import CliRunner

from protopress.balance.run import BalanceRun
from protopress.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_scheduler_that_is_no_address_is_a_usage_error_at_once():
    result = invoke("balance", "gemstone-caverns", "--games", "2", "--scheduler", "not a url")
    assert result.exit_code == 2
    assert "'not a url' is not a Dask scheduler address" in result.output


def test_an_interrupted_balance_run_exits_130_after_writing_what_it_has(monkeypatch, tmp_path):
    def interrupted(game_id, catalog, games, players, bots, seed, options, **kwargs):
        return BalanceRun(game_id, game_id, "1", players, bots, seed, options, games,
                          records=[], partial=True)  # fmt: skip

    monkeypatch.setattr("protopress.balance.run_balance", interrupted)
    out = tmp_path / "run.json"
    result = invoke("balance", "gemstone-caverns", "--games", "10", "--json", out)
    assert result.exit_code == 130
    assert "interrupted: these numbers cover 0 of 10 games" in result.output
    assert json.loads(out.read_text())["partial"] is True


def test_a_truncated_log_is_refused_even_when_its_scores_match(tmp_path):
    invoke("simulate", "gemstone-caverns", "--games", "1", "--log-dir", tmp_path)
    path = tmp_path / "game-00000.json"
    log = json.loads(path.read_text())
    log["actions"] = log["actions"][:1]
    log["scores"] = [0, 0]  # what the first action leaves
    path.write_text(json.dumps(log))
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert "the log ends after 1 actions, before the game is over" in result.output


def test_solo_with_more_players_is_refused_not_ignored():
    result = invoke("simulate", "stonespine-architects", "--solo", "--players", "3")
    assert result.exit_code == 2
    assert "--solo is one player against the rival, not --players 3" in result.output
    assert invoke("simulate", "stonespine-architects", "--solo", "--games", "1").exit_code == 0


def test_resuming_a_missing_save_is_a_usage_error(tmp_path):
    result = invoke("solo", "stonespine-architects", "--resume", tmp_path / "nope.json")
    assert result.exit_code == 2
    assert "no such saved session to resume" in result.output


def test_simulate_refuses_a_catalog_of_another_game(tmp_path):
    from protopress.components import builtin_catalog_path

    result = invoke("simulate", "gem-rush", "--catalog", builtin_catalog_path("gemstone-caverns"))
    assert result.exit_code == 1
    assert "a catalog of gemstone-caverns, not of gem-rush" in result.output


def test_a_seat_beyond_the_games_players_is_named():
    # was "dragonstone-mine takes 2 to 5 players": no word of the --seat 7 that asked for 8
    result = invoke("play", "dragonstone-mine", "--seat", "7", "--web")
    assert result.exit_code == 2
    assert "--seat 7: dragonstone-mine takes 2 to 5 players, so its seats are 0 to 4" in (
        result.output
    )


def test_balance_outputs_in_a_missing_folder_are_refused_before_any_game(tmp_path):
    # was "nowhere/run.games.jsonl: cannot write the store: ...", of a file not asked for,
    # or, with --store elsewhere, the report lost after every game was played
    for option in ("--report", "--json", "--store"):
        target = tmp_path / "nowhere" / "run.out"
        result = invoke("balance", "gemstone-caverns", "--games", "2", option, target)
        assert result.exit_code == 2
        assert f"{option} {target}: no folder {target.parent}" in result.output
    assert not (tmp_path / "nowhere").exists()

"""protopress balance from the command line."""

import json

from click.testing import CliRunner

from protopress.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_balance_prints_a_summary_and_writes_the_same_json_for_any_worker_count(tmp_path):
    common = ["balance", "dragonstone-mine", "--games", "24", "--players", "2", "--seed", "5",
              "--option", "level=2"]  # fmt: skip
    one = invoke(
        *common, "--workers", "1", "--json", tmp_path / "one.json", "--report", tmp_path / "r.pdf"
    )
    assert one.exit_code == 0, one.output
    assert "games" in one.stdout
    two = invoke(*common, "--workers", "2", "--json", tmp_path / "two.json")
    assert two.exit_code == 0, two.output
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()
    assert json.loads((tmp_path / "one.json").read_text())["game"] == "dragonstone-mine"
    assert (tmp_path / "r.pdf").stat().st_size > 1000


def test_balance_usage_errors():
    assert invoke("balance", "chess").exit_code == 2
    wrong = invoke("balance", "dragonstone-mine", "--players", "7", "--games", "2")
    assert wrong.exit_code == 2

"""An error in a designer's rules names the rules: the file, the line, the method and the
exception, exit 1; never "internal error" (exit 70), a usage error (exit 2) or a silent
exit. The rules are the example game's, each with one fault written in."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"
PLAY = "    def to_move(self, state: MarketState) -> int | None:\n"
SCORES = "    def scores(self, state: MarketState) -> list[int]:\n"
APPLY = "    def apply(self, state: MarketState, action: MarketAction) -> None:\n"


def _rules(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """The example's rules with old replaced by new; the line new's last line lands on."""
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    text = (EXAMPLE / "rules.py").read_text()
    assert old in text
    written = text.replace(old, new)
    path = tmp_path / "rules.py"
    path.write_text(written)
    line = written[: written.index(new) + len(new)].count("\n")
    return path, line


def _run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "protopress", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _simulate(rules: Path) -> subprocess.CompletedProcess[str]:
    return _run("simulate", "cottage-market", "--rules", rules, "--games", "2")


def test_an_exception_in_to_move_names_the_file_line_and_method(tmp_path):
    rules, line = _rules(tmp_path, PLAY, PLAY + "        {}['seat']\n")
    result = _simulate(rules)
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"protopress: {rules}:{line}: the rules' to_move raised KeyError: 'seat'\n"
    )


def test_none_from_scores_is_named(tmp_path):
    rules, _ = _rules(tmp_path, SCORES, SCORES + "        return None  # type: ignore\n")
    result = _simulate(rules)
    assert result.returncode == 1, result.stderr
    assert (
        f"protopress: {rules}: the rules' scores returned None; expected a list of whole "
        "numbers, one per seat" in result.stderr
    )


def test_a_value_error_in_apply_is_the_rules_not_a_usage_error(tmp_path):
    rules, line = _rules(tmp_path, APPLY, APPLY + "        raise ValueError('no such card')\n")
    result = _simulate(rules)
    assert result.returncode == 1, result.stderr
    assert "Usage:" not in result.stderr
    assert f"{rules}:{line}: the rules' apply raised ValueError: no such card" in result.stderr


def test_a_type_error_in_balance_workers_is_named(tmp_path):
    rules, line = _rules(tmp_path, SCORES, SCORES + "        len(5)\n")
    result = _run("balance", "cottage-market", "--rules", rules, "--games", "4", "--workers", "2")
    assert result.returncode == 1, result.stderr
    assert f"{rules}:{line}: the rules' scores raised TypeError: " in result.stderr
    assert "internal error" not in result.stderr


@pytest.mark.parametrize("where", ["module", "method"])
def test_sys_exit_in_the_rules_is_named_not_obeyed(tmp_path, where):
    if where == "module":
        rules, _ = _rules(tmp_path, "MARKET = 3", "import sys\nsys.exit(3)\nMARKET = 3")
        expected = f"{rules}: the rules file failed while loading: it called sys.exit(3)"
    else:
        rules, line = _rules(tmp_path, PLAY, PLAY + "        raise SystemExit(3)\n")
        expected = f"{rules}:{line}: the rules' to_move called sys.exit(3)"
    result = _simulate(rules)
    assert result.returncode == 1, result.stderr
    assert expected in result.stderr


def test_illegal_actions_stay_the_contract(tmp_path):
    """IllegalAction from apply is the rules' word, not a fault: replay reports the action."""
    rules, _ = _rules(tmp_path, PLAY, PLAY)  # the example as it is
    logs = tmp_path / "logs"
    assert (
        _run(
            "simulate", "cottage-market", "--rules", rules, "--games", "1", "--log-dir", logs
        ).returncode
        == 0
    )
    log = logs / "game-00000.json"
    text = log.read_text()
    assert '["take", "gold"]' in text  # the seeded game takes gold at some point
    log.write_text(text.replace('["take", "gold"]', '["take", "mithril"]', 1))
    result = _run("replay", log, "--rules", rules)
    assert result.returncode == 1, result.stderr
    assert "take resource=mithril is not legal" in result.stderr

"""Game options: declared once, parsed once, typed in logs, refused with a reason."""

import json

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.games import builtin_spec
from protopress.rules.options import Option, OptionError, OptionType, parse_options

FLAG = Option("fast", OptionType.FLAG, "a flag", default=False)
WHOLE = Option("target", OptionType.WHOLE, "points", minimum=1, maximum=100)
CHOICE = Option("mode", OptionType.CHOICE, "a mode", default="crisis", choices=("crisis", "rush"))
DECLARED = (FLAG, WHOLE, CHOICE)


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("False", False), ("yes", True), ("off", False), ("1", True), ("0", False)],
)
def test_flags_read_the_usual_words(text, value):
    assert FLAG.parse(text) is value
    assert FLAG.parse(value) is value  # typed values pass through


def test_whole_numbers_from_text_or_numbers_within_the_range():
    assert WHOLE.parse("60") == 60 and WHOLE.parse(60) == 60 and WHOLE.parse(" 7 ") == 7
    for bad in ("0", "101", "6.5", "sixty", "", True, 2.0, "1" * 20):
        with pytest.raises(
            OptionError, match="option target: expected a whole number from 1 to 100"
        ):
            WHOLE.parse(bad)


def test_choices_case_insensitive_with_a_suggestion():
    assert CHOICE.parse("Rush") == "rush"
    with pytest.raises(
        OptionError, match=r"expected one of crisis, rush, found 'rsh' \(did you mean 'rush'\?\)"
    ):
        CHOICE.parse("rsh")


def test_bad_flag_names_what_it_accepts():
    with pytest.raises(OptionError, match="option fast: expected true or false, found 'maybe'"):
        FLAG.parse("maybe")


def test_defaults_filled_and_game_decided_options_left_out():
    assert parse_options(DECLARED, {}) == {"fast": False, "mode": "crisis"}
    assert parse_options(DECLARED, {"target": "9"}) == {
        "fast": False,
        "mode": "crisis",
        "target": 9,
    }


def test_unknown_option_names_the_known_ones():
    with pytest.raises(
        OptionError,
        match=r"unknown option 'taget' \(did you mean 'target'\?\); options: fast, target, mode",
    ):
        parse_options(DECLARED, {"taget": "1"})


def test_gem_rush_target_and_stop_at_target_from_the_command_line(tmp_path):
    """The two defects: target=60 was refused, stop_at_target=false acted as true."""
    runner = CliRunner()
    common = ["simulate", "gem-rush", "--games", "2", "--players", "2", "--log-dir", str(tmp_path)]
    result = runner.invoke(
        cli, [*common, "--option", "target=60", "--option", "stop_at_target=false", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["options"] == {
        "mode": "crisis", "target": 60, "skills": "normal", "stop_at_target": False,
    }  # fmt: skip
    log = json.loads((tmp_path / "game-00000.json").read_text())
    assert log["options"]["target"] == 60 and log["options"]["stop_at_target"] is False
    replayed = runner.invoke(cli, ["replay", str(tmp_path / "game-00000.json")])
    assert replayed.exit_code == 0, replayed.output
    assert f"seat 0: {log['scores'][0]}" in replayed.output


def test_stop_at_target_really_stops_when_true():
    """With a low target, stop_at_target=true ends Crisis games earlier than false."""
    spec = builtin_spec("gem-rush")
    game = spec.new_game()
    from protopress.components import builtin_catalog_path, load_catalog
    from protopress.rules.simulate import simulate

    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    stop = simulate(game, catalog, ["random"] * 2, 5, 3, {"target": "5", "stop_at_target": "true"})
    play_on = simulate(game, catalog, ["random"] * 2, 5, 3, {"target": "5", "stop_at_target": "no"})
    assert sum(r.turns for r in stop) < sum(r.turns for r in play_on)


def test_bad_option_is_a_usage_error_naming_it():
    result = CliRunner().invoke(cli, ["simulate", "dragonstone-mine", "--option", "level=3"])
    assert result.exit_code == 2
    assert (
        "dragonstone-mine: option level: expected one of smiley, 1, 2, found '3'" in result.output
    )


def test_log_with_a_bad_typed_option_is_located(tmp_path):
    path = tmp_path / "log.json"
    runner = CliRunner()
    runner.invoke(cli, ["simulate", "dragonstone-mine", "--games", "1", "--log-dir", str(tmp_path)])
    log = json.loads((tmp_path / "game-00000.json").read_text())
    assert log["options"] == {"level": "smiley", "turn_limit": 5000}
    path.write_text(json.dumps(log | {"options": {"level": "smiley", "turn_limit": 0}}))
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "/options/turn_limit: option turn_limit: expected a whole number from 1" in result.output

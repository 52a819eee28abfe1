"""Score states (`protopress score GAME STATE.json`) and action logs
(`protopress replay LOG.json`): any bytes give a score, or a clear refusal with
exit code 1 (or 2 for a game without score states), never a traceback."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzing import (
    assert_clean_problems,
    fuzz_settings,
    hard_timeout,
    line_count,
    mutated_documents,
    printable,
    smoke_settings,
)
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.cli import cli
from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.loader import load_document
from protopress.rules.core import derive_seed
from protopress.rules.registry import game_for, game_module
from protopress.rules.simulate import log_of, play, seats

SCORED = ("gemstone-caverns", "dragonstone-mine", "stonespine-architects")
CATALOGS = {game: load_catalog(builtin_catalog_path(game)) for game in BUILTIN_GAMES}


def _chamber(doors, elements=(), stars=None):
    chamber = {"doors": doors}
    if elements:
        chamber["elements"] = list(elements)
    if stars is not None:
        chamber["stars"] = stars
    return chamber


STATES = {
    "gemstone-caverns": [
        {"grid": ["AAA", "ABA", "AAA"]},
        {"grid": ["AB..C", "ABBCC", ".....", "DDDD.", "....."]},
    ],
    "dragonstone-mine": [
        {"level": "2", "spires": [["red"] * 5, [], [], [], [], []], "loose": ["blue"]},
        {
            "level": "smiley",
            "spires": [["red", "yellow", "green", "blue", "purple"], ["red"], [], [], [], []],
            "capacities": [5, 5, 5, 5, 5, 5],
        },
    ],
    "stonespine-architects": [
        {
            "chambers": [
                [_chamber("NS", ["monster"], 2), _chamber("EW"), _chamber(""), _chamber("NESW")]
                for _ in range(4)
            ],
            "entrance": {"side": "N", "index": 0},
            "exit": {"side": "S", "index": 3},
            "blueprint": "the-plunging-stair",
            "goal_place": 1,
            "priority_place": 2,
            "challenges": ["monster-pen", "through-the-mountain", 3],
        },
        {
            "chambers": [[_chamber("NS", ["trap", "altar"]) for _ in range(4)] for _ in range(4)],
            "entrance": {"side": "W", "index": 1},
            "exit": {"side": "E", "index": 2},
            "blueprint": [{"row": 0, "col": 0, "element": "trap"}],
            "challenges": 4,
        },
    ],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("states")


def check_score_state(game: str, data: bytes, folder: Path) -> None:
    """The library path of `protopress score`: load_document, score_state, format_score."""
    path = folder / "state.json"
    path.write_bytes(data)
    module = game_module(game)
    with hard_timeout():
        try:
            state = load_document(path, f"score-state-{game}.schema.json", "state.json")
            result = module.score_state(CATALOGS[game], state)
        except InvalidInput as invalid:
            assert_clean_problems(invalid.problems, "state.json", line_count(data))
            event("refused: problems")
            return
        except ValueError as error:  # printed as `STATE.json: message`, exit 1
            assert str(error).strip()
            printable(str(error))
            event("refused: ValueError")
            return
        text = module.format_score(result)
        json.dumps(result)
    printable(text)
    event("scored")


state_cases = st.sampled_from(SCORED).flatmap(
    lambda game: st.tuples(st.just(game), mutated_documents(STATES[game]))
)


@pytest.mark.fuzz
@fuzz_settings()
@given(case=state_cases)
def test_fuzz_score_states(case, folder):
    check_score_state(*case, folder)


@smoke_settings()
@given(case=state_cases)
def test_smoke_score_states(case, folder):
    check_score_state(*case, folder)


# --- the command, every game (gem-rush has no score state) -------------------------


def run_cli(args) -> tuple[int, str]:
    """Exit code and output of protopress args; a crash (any exception) fails the test.

    OSError is what main() turns into `protopress: ...` with exit 1.
    """
    try:
        result = CliRunner().invoke(cli, args, prog_name="protopress", catch_exceptions=False)
    except OSError as error:
        return 1, f"protopress: {error}"
    output = result.output
    assert "Traceback" not in output, output
    assert result.exit_code in (0, 1, 2), (result.exit_code, output)
    printable(output)
    return result.exit_code, output


def check_score_command(game: str, data: bytes, folder: Path) -> None:
    path = folder / "cli-state.json"
    path.write_bytes(data)
    with hard_timeout():
        code, output = run_cli(["score", game, str(path), "--json"])
    if game == "gem-rush":
        assert code == 2, output
    elif code == 1:
        assert "cli-state.json" in output, output


command_cases = st.sampled_from(BUILTIN_GAMES).flatmap(
    lambda game: st.tuples(
        st.just(game),
        mutated_documents([s for states in STATES.values() for s in states])
        if game == "gem-rush"
        else mutated_documents(STATES[game]),
    )
)


@pytest.mark.fuzz
@fuzz_settings(scale=0.2)
@given(case=command_cases)
def test_fuzz_score_command(case, folder):
    check_score_command(*case, folder)


@smoke_settings()
@given(case=command_cases)
def test_smoke_score_command(case, folder):
    check_score_command(*case, folder)


# --- action logs ------------------------------------------------------------------


def _log(game: str, players: int, options: dict) -> dict:
    engine = game_for(game)
    bots = seats(["random"], players)
    seed = derive_seed(7, "game", 0)
    _, record, actions = play(engine, CATALOGS[game], bots, seed, options)
    return log_of(engine, game, CATALOGS[game].version, bots, seed, options, actions, record)


LOGS = [
    _log("gemstone-caverns", 2, {}),
    _log("dragonstone-mine", 2, {"level": "2"}),
    _log("gem-rush", 2, {}),
    _log("stonespine-architects", 1, {"solo": "true", "difficulty": "normal"}),
]


def check_replay(data: bytes, folder: Path) -> None:
    path = folder / "log.json"
    path.write_bytes(data)
    with hard_timeout():
        code, output = run_cli(["replay", str(path)])
    event(f"exit {code}")
    if code == 1:
        assert output.strip(), "a refusal says why"


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=30)
@given(data=mutated_documents(LOGS, max_tree=3))
def test_fuzz_action_logs(data, folder):
    check_replay(data, folder)


@smoke_settings()
@given(data=mutated_documents(LOGS, max_tree=3))
def test_smoke_action_logs(data, folder):
    check_replay(data, folder)

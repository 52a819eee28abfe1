"""Golden greedy playthroughs of Stonespine Architects: seeded games recorded once
(solo at both difficulties and multiplayer); the bots must still choose the same
actions and reach the same scores. The engine's fast look-ahead paths must not
change a decision: a speed change that alters one shows up here. Regenerate
deliberately with PROTOPRESS_REGENERATE_GOLDEN=1 (and say why in the commit)."""

import json
import os
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.core import codec_of
from protopress.rules.registry import game_for
from protopress.rules.simulate import play, replay

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "solo-normal-1": (["greedy"], 1, {}),
    "solo-normal-2": (["greedy"], 2, {}),
    "solo-normal-3": (["greedy"], 3, {}),
    "solo-normal-4": (["greedy"], 4, {}),
    "solo-hard-5": (["greedy"], 5, {"difficulty": "hard"}),
    "solo-hard-6": (["greedy"], 6, {"difficulty": "hard"}),
    "solo-greedy2-7": (["greedy:2"], 7, {}),
    "two-greedy-8": (["greedy", "greedy"], 8, {}),
    "three-mixed-9": (["greedy", "random", "greedy"], 9, {}),
    "five-greedy-10": (["greedy"] * 5, 10, {}),
}


def _played(name: str) -> dict:
    bots, seed, options = CASES[name]
    game = game_for("stonespine-architects")
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    _, record, actions = play(game, catalog, bots, seed, options)
    encode = codec_of(game).encode  # the log form: [verb, *fields]
    return {"actions": [encode(action) for action in actions], "scores": record.scores}


@pytest.mark.parametrize("name", sorted(CASES))
def test_greedy_games_replay_exactly(name):
    path = GOLDEN / f"{name}.json"
    if os.environ.get("PROTOPRESS_REGENERATE_GOLDEN") == "1":
        path.write_text(json.dumps(_played(name), indent=None) + "\n")
    assert _played(name) == json.loads(path.read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_golden_log_replays_through_the_codec_as_typed_actions(name):
    """The logs hold [verb, *fields]: each reads back as one of the game's typed actions
    (not a bare tuple), writes back to the same list, and the game replays to its scores."""
    game = game_for("stonespine-architects")
    codec = codec_of(game)
    golden = json.loads((GOLDEN / f"{name}.json").read_text())
    decoded = [codec.decode(raw) for raw in golden["actions"]]
    assert all(type(action) is not tuple for action in decoded)
    assert [codec.encode(action) for action in decoded] == golden["actions"]
    bots, seed, options = CASES[name]
    log = {"players": len(bots), "seed": seed, "options": options, "actions": golden["actions"]}
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    assert game.scores(replay(game, catalog, log)) == golden["scores"]

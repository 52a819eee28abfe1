"""Golden playthroughs: seeded games recorded once; replaying them must give the
same actions' legality and the same final scores. A rules change that alters
them shows up here. Regenerate deliberately with PROTOPRESS_REGENERATE_GOLDEN=1."""

import json
import os
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.core import codec_of
from protopress.rules.registry import game_for
from protopress.rules.simulate import log_of, play, replay

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "gemstone-caverns": ("gemstone-caverns", ["greedy", "random", "random"], 11, {}),
    "dragonstone-mine-smiley": ("dragonstone-mine", ["greedy", "random"], 12, {"level": "smiley"}),
    "dragonstone-mine-level-1": ("dragonstone-mine", ["random", "greedy", "random"], 13, {"level": "1"}),
    "dragonstone-mine-level-2": ("dragonstone-mine", ["greedy", "greedy"], 14, {"level": "2"}),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game_id, bots, seed, options = CASES[name]
    game = game_for(game_id)
    catalog = load_catalog(builtin_catalog_path(game_id))
    path = GOLDEN / f"{name}.json"
    if os.environ.get("PROTOPRESS_REGENERATE_GOLDEN") == "1":
        _, record, actions = play(game, catalog, bots, seed, options)
        log = log_of(game, game_id, catalog.version, bots, seed, options, actions, record)
        path.write_text(json.dumps(log, indent=1) + "\n")
    log = json.loads(path.read_text())
    state = replay(game, catalog, log)
    assert game.is_over(state)
    assert game.scores(state) == log["scores"]
    # and the bots, given the same seed, still choose the same actions
    _, record, actions = play(game, catalog, log["bots"], log["seed"], log["options"])
    assert [codec_of(game).encode(action) for action in actions] == log["actions"]
    assert record.scores == log["scores"]

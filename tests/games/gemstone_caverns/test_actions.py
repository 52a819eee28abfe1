"""Gemstone Caverns' typed actions: the log form logs have always had, old logs read
back as typed actions, and messages that show an action in words."""

import json
import random
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns import lookahead
from protopress.games.gemstone_caverns.actions import ACTIONS, PASS, Arrange, Pass, Place
from protopress.games.gemstone_caverns.spec import SPEC
from protopress.rules.actions import UnknownAction
from protopress.rules.core import IllegalAction, checked_apply, codec_of

GAME = SPEC.new_game()
TESTS = Path(__file__).resolve().parents[2]
T_SHAPE = ((0, 0), (0, 1), (0, 2), (1, 1))


def golden_logs() -> list[Path]:
    """Every golden playthrough of this game, wherever the tests keep them."""
    found = [
        path
        for path in sorted(TESTS.glob("**/golden/*.json"))
        if json.loads(path.read_text()).get("game") == SPEC.id
    ]
    assert found, "no golden playthrough of Gemstone Caverns"
    return found


def test_the_engine_declares_its_codec():
    assert codec_of(GAME) is ACTIONS


def test_the_log_form_is_the_verb_then_the_fields():
    assert ACTIONS.encode(Place(quarter_turns=1, row=0, column=-2)) == ["place", 1, 0, -2]
    assert ACTIONS.encode(PASS) == ["pass"]
    assert ACTIONS.encode(Arrange(T_SHAPE, ("ruby", "ruby", "topaz", "ruby"))) == [
        "arrange",
        [[0, 0], [0, 1], [0, 2], [1, 1]],
        ["ruby", "ruby", "topaz", "ruby"],
    ]


def test_logged_actions_read_back_as_typed_actions():
    place = ACTIONS.decode(["place", 2, -1, 6])
    assert type(place) is Place and place == Place(2, -1, 6) and place.column == 6
    arrange = ACTIONS.decode(["arrange", [[0, 0], [0, 1], [0, 2], [1, 1]], ["a", "b", "c", "d"]])
    assert type(arrange) is Arrange and arrange.cells == T_SHAPE
    assert type(ACTIONS.decode(["pass"])) is Pass
    with pytest.raises(UnknownAction, match="'place' takes 3 values, not 2"):
        ACTIONS.decode(["place", 0, 0])


@pytest.mark.parametrize("path", golden_logs(), ids=lambda path: path.name)
def test_every_golden_log_replays_through_the_codec_to_typed_actions(path):
    log = json.loads(path.read_text())
    catalog = load_catalog(builtin_catalog_path(log["catalog"]))
    state = GAME.setup(catalog, log["players"], random.Random(log["seed"]), log["options"])
    for raw in log["actions"]:
        action = ACTIONS.decode(raw)
        assert type(action) is not tuple and type(action) in (Arrange, Place, Pass)
        assert ACTIONS.encode(action) == raw  # and back to the same log entry
        checked_apply(GAME, state, action)
    assert GAME.is_over(state) and GAME.scores(state) == log["scores"]


def test_an_illegal_action_is_shown_in_words():
    catalog = load_catalog(builtin_catalog_path(SPEC.id))
    state = GAME.setup(catalog, 1, random.Random(0), {})
    state.rolled = ("moonstone", "topaz", "emerald", "diamond")
    checked_apply(GAME, state, Arrange(T_SHAPE, ("diamond", "emerald", "moonstone", "topaz")))
    # a T lying flat reaches 3 columns to the right of its corner: from column -3 none
    # of its boxes is on the grid
    with pytest.raises(IllegalAction, match=r"^place quarter_turns=0 row=0 column=-3 is not legal"):
        checked_apply(GAME, state, Place(0, 0, -3))
    with pytest.raises(IllegalAction, match=r"^no box of the grid under place quarter_turns=0"):
        GAME.apply(state, Place(0, 0, -3))
    with pytest.raises(IllegalAction, match="unknown action place 0 0 0"):
        GAME.apply(state, ("place", 0, 0, 0))  # a bare tuple is none of the game's actions


def test_the_look_ahead_refuses_an_action_of_the_wrong_kind_in_words():
    catalog = load_catalog(builtin_catalog_path(SPEC.id))
    state = GAME.setup(catalog, 2, random.Random(0), {})  # the dice are rolled, not arranged
    with pytest.raises(IllegalAction, match="^pass is no arrangement of the roll"):
        lookahead.action_values(GAME, state, 0, [PASS])
    with pytest.raises(IllegalAction, match="^place quarter_turns=0 row=0 column=0 is no arr"):
        lookahead.best_actions(GAME, state, 0, [*GAME.legal_actions(state), Place(0, 0, 0)])
    checked_apply(GAME, state, GAME.legal_actions(state)[0])
    with pytest.raises(IllegalAction, match="^place quarter_turns=0 row=9 column=9 is no place"):
        lookahead.action_values(GAME, state, 0, [Place(0, 9, 9)])

"""Gem Rush's typed actions: each verb and shape in the rules' words, the log form
they have always had, and every golden log read back as typed actions."""

import json
from pathlib import Path

import pytest

from games.gem_rush.test_rules import GAME, act, scenario
from protopress.games.gem_rush.actions import (
    ACTIONS,
    BUILDS,
    KINDS,
    MOVES,
    Build,
    Burn,
    BurnFromHand,
    ChooseSkill,
    ChooseX,
    Draw,
    DrawFrom,
    DrawFromDiscard,
    EndMove,
    Move,
    RiftWarp,
    Warp,
    WarpBuild,
)
from protopress.rules.actions import UnknownAction
from protopress.rules.core import IllegalAction

GOLDEN = sorted((Path(__file__).parents[2] / "rules" / "golden").glob("gem-rush-*.json"))


@pytest.mark.parametrize(
    ("typed", "logged"),
    [
        (Burn("deck"), ["burn", "deck"]),
        (Burn("discard"), ["burn", "discard"]),
        (BurnFromHand(seat=2, card=0), ["burn", 2, 0]),
        (Warp((4, 0), 1), ["warp", [4, 0], 1]),
        (RiftWarp((4, 0)), ["warp", [4, 0]]),
        (Draw(), ["draw"]),
        (DrawFromDiscard(), ["draw", "discard"]),
        (DrawFrom("deck"), ["draw-from", "deck"]),
        (Build((0, -1), "N", (0, 2)), ["build", [0, -1], "N", [0, 2]]),
        (WarpBuild((0, 0), "S", (1,)), ["warp-build", [0, 0], "S", [1]]),
        (EndMove(), ["end-move"]),
        (ChooseSkill("tunneler"), ["skill", "tunneler"]),
        (ChooseX(3), ["x", 3]),
    ],
)
def test_an_action_logs_as_its_verb_then_its_fields_and_reads_back(typed, logged):
    """One verb with two shapes is two classes: the shape tells them apart in a log."""
    assert ACTIONS.encode(typed) == logged
    decoded = ACTIONS.decode(logged)
    assert type(decoded) is type(typed) and decoded == typed


def test_actions_read_as_words():
    assert repr(BurnFromHand(seat=2, card=0)) == "BurnFromHand(seat=2, card=0)"
    assert repr(Build((0, -1), "N", (0, 2))) == "Build(origin=(0, -1), edge='N', cards=(0, 2))"
    assert ACTIONS.words(Burn("deck")) == "burn source=deck"
    assert ACTIONS.words(EndMove()) == "end-move"


def test_two_verbs_never_compare_equal():
    assert Burn("deck") != DrawFrom("deck")
    assert Warp((1, 0), 0) != BurnFromHand(1, 0)  # the same values, another verb


def test_an_unknown_shape_is_refused_in_words():
    with pytest.raises(UnknownAction, match="'burn' takes 1 or 2 values, not 3"):
        ACTIONS.decode(["burn", 0, 0, 0])


def test_listed_actions_are_interned():
    """Listing the legal actions twice gives the very same values (built once)."""
    state = scenario({(0, 0): "gem-pockets-1", (1, 0): "gem-pockets-4"}, hands=[["electrum"]])
    first = GAME.legal_actions(state)
    state.touch()
    again = GAME.legal_actions(state)
    assert first == again and all(a is b for a, b in zip(first, again, strict=True))
    assert MOVES[(1, 0)] is MOVES[(1, 0)] == Move((1, 0))
    assert BUILDS[(0, 0), "N", (0,)] == Build((0, 0), "N", (0,))


def test_an_illegal_action_is_named_in_words():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]])
    with pytest.raises(IllegalAction, match=r"^move cell=\(9, 9\) is not legal for seat 0"):
        act(state, Move((9, 9)))


def test_apply_refuses_a_plain_tuple():
    """Only the typed actions are Gem Rush's: the log form is read through the codec."""
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]])
    with pytest.raises(IllegalAction, match="is not a Gem Rush action"):
        GAME.apply(state, ("end-move",))
    assert state.phase == "move"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_every_golden_log_replays_through_the_codec_to_typed_actions(path):
    log = json.loads(path.read_text())
    decoded = [ACTIONS.decode(raw) for raw in log["actions"]]
    assert decoded and all(type(a) is not tuple and type(a) in KINDS for a in decoded)
    assert [ACTIONS.encode(a) for a in decoded] == log["actions"]


def test_a_decoded_action_of_the_wrong_type_is_refused_in_words():
    """A hand-edited log may hold any values: apply names what is wrong."""
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]])
    with pytest.raises(IllegalAction, match="'north' is no \\(column, row\\) cell"):
        GAME.apply(state, ACTIONS.decode(["move", "north"]))

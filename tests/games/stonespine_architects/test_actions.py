"""Stonespine Architects' typed actions: one class per verb and shape, read from and
written to the log's [verb, *fields] form, and said in words."""

import pytest

from protopress.games.stonespine_architects.actions import (
    ACTIONS,
    Buy,
    Keep,
    Pass,
    PassClaiming,
    Place,
    PutInSlot,
    PutOnEdge,
)
from protopress.rules.actions import UnknownAction
from protopress.rules.core import codec_of
from protopress.rules.registry import game_for


@pytest.mark.parametrize(
    ("logged", "typed"),
    [
        (["place", "mine-shaft", 2], Place(card_id="mine-shaft", column=2)),
        (["keep", "wyrms-den"], Keep(card_id="wyrms-den")),
        (["buy", "market-3", 1], Buy(market_card_id="market-3", row=1)),
        (["put", 0, 1, 3], PutInSlot(token_index=0, row=1, col=3)),
        (["put", 1, 0, 3, "E"], PutOnEdge(token_index=1, row=0, col=3, edge="E")),
        (["pass", "deep-vault"], PassClaiming(challenge_id="deep-vault")),
        (["pass"], Pass()),
    ],
)
def test_a_logged_action_reads_back_as_its_shape_and_writes_back_the_same(logged, typed):
    decoded = ACTIONS.decode(logged)
    assert type(decoded) is type(typed) and decoded == typed
    assert ACTIONS.encode(typed) == logged


def test_the_engine_declares_the_codec():
    assert codec_of(game_for("stonespine-architects")) is ACTIONS


def test_actions_of_two_verbs_with_the_same_fields_differ():
    """The verb is part of the value: a keep and a claim of one id are two actions."""
    assert Keep("x") != PassClaiming("x") and len({Keep("x"), PassClaiming("x")}) == 2
    assert Place("x", 0) != Buy("x", 0)


def test_actions_read_in_words():
    assert repr(PutOnEdge(1, 0, 3, "E")) == "PutOnEdge(token_index=1, row=0, col=3, edge='E')"
    assert ACTIONS.words(Place("mine-shaft", 2)) == "place card_id=mine-shaft column=2"
    assert ACTIONS.words(Pass()) == "pass"


def test_an_unknown_shape_is_named():
    with pytest.raises(UnknownAction, match="'put' takes 3 or 4 values, not 2"):
        ACTIONS.decode(["put", 0, 1])
    with pytest.raises(UnknownAction, match="no action 'draft'; actions: buy, keep, pass, place"):
        ACTIONS.decode(["draft", "x"])

"""Typed actions and their codec: the words, the JSON form of logs, and old logs read back."""

from __future__ import annotations

from typing import Literal, NamedTuple

import pytest

from protopress.rules.actions import (
    MOVER,
    PLAIN_ACTIONS,
    ActionCodec,
    Field,
    UnknownAction,
    action,
    positions,
    positions_of,
)


@action
class Burn(NamedTuple):
    """Burn the top card of a pile."""

    source: str
    verb: Literal["burn"] = "burn"


@action
class BurnFrom(NamedTuple):
    """Burn another player's card: the same verb, another shape."""

    owner: int
    index: int
    verb: Literal["burn"] = "burn"


@action
class Discard(NamedTuple):
    source: str
    verb: Literal["discard"] = "discard"


@action
class Build(NamedTuple):
    at: tuple[int, int]
    paid: tuple[str, ...]
    verb: Literal["build"] = "build"


CODEC = ActionCodec([Burn, BurnFrom, Discard, Build])


def test_an_action_reads_as_words_and_compares_as_its_values():
    assert repr(Burn(source="deck")) == "Burn(source='deck')"
    assert Burn("deck") == Burn(source="deck")
    assert Burn("deck") != Discard("deck")  # the verb is part of the value
    assert {Burn("deck"): 1}[Burn("deck")] == 1
    assert Burn("deck").source == "deck" and Burn("deck").verb == "burn"


def test_the_log_form_is_the_verb_then_the_fields():
    assert CODEC.encode(Burn("deck")) == ["burn", "deck"]
    assert CODEC.encode(BurnFrom(2, 0)) == ["burn", 2, 0]
    assert CODEC.encode(Build((3, 4), ("ruby", "ruby"))) == ["build", [3, 4], ["ruby", "ruby"]]


def test_old_logs_read_back_as_typed_actions():
    """Logs have always held [verb, *fields]: the same lists decode to the typed values."""
    burned = CODEC.decode(["burn", "deck"])
    assert type(burned) is Burn and burned == Burn("deck")
    assert type(CODEC.decode(["burn", 1, 2])) is BurnFrom  # the shape tells the two apart
    assert CODEC.decode(["build", [3, 4], ["ruby"]]) == Build((3, 4), ("ruby",))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (["fly"], "no action 'fly'; actions: build, burn, discard"),
        (["burn", 1, 2, 3], "'burn' takes 1 or 2 values, not 3"),
        ([], "is not an action"),
        ("burn", "is not an action"),
    ],
)
def test_an_unknown_action_says_what_is_wrong(raw, message):
    with pytest.raises(UnknownAction, match=message):
        CODEC.decode(raw)


def test_words_name_the_verb_and_the_fields():
    assert CODEC.words(BurnFrom(owner=2, index=0)) == "burn owner=2 index=0"
    assert CODEC.words(("take", "gold")) == "take gold"  # a plain tuple: its parts


def test_an_action_must_end_with_its_verb():
    class NoVerb(NamedTuple):
        source: str

    with pytest.raises(TypeError, match="last field is verb"):
        action(NoVerb)
    with pytest.raises(TypeError, match="two actions have verb 'burn' and 1 fields"):

        @action
        class Again(NamedTuple):
            pile: str
            verb: Literal["burn"] = "burn"

        ActionCodec([Burn, Again])


def test_plain_tuples_round_trip():
    assert PLAIN_ACTIONS.encode(("place", (1, 2), 3)) == ["place", [1, 2], 3]
    assert PLAIN_ACTIONS.decode(["place", [1, 2], 3]) == ("place", (1, 2), 3)


def test_positions_say_which_fields_are_places_and_where():
    @positions(index=("hands", MOVER), owner="seats")
    @action
    class Steal(NamedTuple):
        owner: int
        index: int
        verb: Literal["steal"] = "steal"

    assert list(positions_of(Steal(1, 4))) == [(("seats",), 1), (("hands", MOVER), 4)]
    assert Steal(1, 4) == (1, 4, "steal")  # the action itself is unchanged
    assert list(positions_of(BurnFrom(1, 4))) == []  # nothing declared


def test_a_position_that_is_no_number_is_a_key():
    @positions(cell=("mine", "cells"))
    @action
    class Walk(NamedTuple):
        cell: tuple[int, int]
        verb: Literal["walk"] = "walk"

    assert list(positions_of(Walk((-1, 2)))) == [(("mine", "cells"), (-1, 2))]


def test_a_zone_may_take_another_field_s_value_and_a_property_is_a_position():
    @positions(column=("sheets", MOVER, Field("row")), box=("boxes",))
    @action
    class Mark(NamedTuple):
        row: int
        column: int
        verb: Literal["mark"] = "mark"

        @property
        def box(self) -> int:
            return self.row * 8 + self.column

    assert list(positions_of(Mark(2, 5))) == [
        (("sheets", MOVER, 2), 5),  # sheets[mover][2][5]
        (("boxes",), 21),  # a property after the fields
    ]


def test_positions_refuse_a_field_value_of_no_field():
    with pytest.raises(TypeError, match="'line' is not a field"):

        @positions(column=("sheets", Field("line")))
        @action
        class Mark(NamedTuple):
            row: int
            column: int
            verb: Literal["mark"] = "mark"


def test_positions_refuse_a_name_that_is_no_field():
    with pytest.raises(TypeError, match="names 'slot', not a field"):

        @positions(slot="market")
        @action
        class Take(NamedTuple):
            index: int
            verb: Literal["take"] = "take"

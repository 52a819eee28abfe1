"""The seat's view of a state (rules/observe.py), on a small hand-made game: what each
seat sees is written out, what it may not see is a count, and nothing else leaks."""

import json
import random
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from protopress.rules.actions import ActionCodec, action
from protopress.rules.chance import SharedChance
from protopress.rules.information import FaceDown, Private, SeatView, Secret
from protopress.rules.observe import observation


@action
class Play(NamedTuple):
    card: str
    verb: Literal["play"] = "play"


class Goal:
    """A secret card kept as an object (like a blueprint)."""

    def __init__(self, ident: str, side: str):
        self.id, self.side = ident, side


@dataclass
class Toy:
    chance: SharedChance
    deck: list[str]
    hands: list[list[str]]
    goals: list[Goal]
    discards: list[str] = field(default_factory=list)
    legal_cache: list[Play] = field(default_factory=list)
    _private_note: str = "not for the page"
    turns: int = 0
    over: bool = False

    def copy(self) -> "Toy":
        return self


class ToyGame:
    id = "toy"
    actions = ActionCodec([Play])
    seat_view = SeatView(
        (
            Private("hands", lambda s: s.hands, pool=FaceDown("deck", lambda s: s.deck)),
            Secret(
                "goals",
                lambda s: [(goal,) for goal in s.goals],
                lambda s, seat, cards: None,
                lambda s: [],
                shows=lambda goal: goal.side,
            ),
        )
    )

    def is_over(self, state):
        return state.over

    def to_move(self, state):
        return None if state.over else 0

    def scores(self, state):
        return [len(hand) for hand in state.hands]

    def winners(self, state):
        return [0]


def toy() -> Toy:
    return Toy(
        chance=SharedChance(random.Random(5)),
        deck=["ash", "birch", "cedar"],
        hands=[["oak", "elm"], ["yew", "fir", "pine"]],
        goals=[Goal("north-goal", "north"), Goal("south-goal", "south")],
        discards=["willow"],
        legal_cache=[Play("oak"), Play("elm")],
    )


def test_the_seat_sees_its_own_hand_and_counts_of_the_rest():
    view = observation(ToyGame(), toy(), 0)
    fields = view["fields"]
    assert fields["hands"] == [["oak", "elm"], {"hidden": "hands", "count": 3}]
    assert fields["deck"] == {"hidden": "deck", "count": 3}
    assert fields["discards"] == ["willow"]
    assert fields["goals"][0] == {"id": "north-goal", "side": "north"}
    assert fields["goals"][1] == {"hidden": "goals", "count": 1, "shows": "south"}
    assert view["to_move"] == 0 and view["over"] is False and view["scores"] is None


def test_nothing_hidden_chance_actions_or_private_slots_reaches_the_view():
    text = json.dumps(observation(ToyGame(), toy(), 1))
    for secret in ("oak", "elm", "ash", "birch", "cedar", "north-goal"):
        assert f'"{secret}"' not in text
    assert "yew" in text and "south-goal" in text  # seat 1's own
    fields = json.loads(text)["fields"]
    assert set(fields) == {"deck", "hands", "goals", "discards", "turns", "over"}


def test_the_kind_of_a_hidden_pile_is_said_when_its_cards_share_one():
    kinds = {"ash": "tree", "birch": "tree", "cedar": "tree", "yew": "tree", "fir": "bush"}
    view = observation(ToyGame(), toy(), 0, kinds.get)
    assert view["fields"]["deck"] == {"hidden": "deck", "count": 3, "kind": "tree"}
    assert "kind" not in view["fields"]["hands"][1]  # yew, fir, pine: not one kind


def test_the_scores_are_shown_once_the_game_is_over():
    state = toy()
    state.over = True
    view = observation(ToyGame(), state, 0)
    assert view["scores"] == [2, 3] and view["winners"] == [0] and view["to_move"] is None


def test_a_game_may_give_its_own_observation():
    class Open(ToyGame):
        def observation(self, state, seat):
            return {"fields": {"mine": state.hands[seat]}, "hidden": []}

    view = observation(Open(), toy(), 1)
    assert view["fields"] == {"mine": ["yew", "fir", "pine"]} and view["seat"] == 1

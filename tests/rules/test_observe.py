"""The seat's view of a state (rules/observe.py), on a small hand-made game: what each
seat sees is written out, what it may not see is a count, and nothing else leaks."""

import json
import random
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import known_ids, spec_for
from protopress.rules.actions import ActionCodec, action
from protopress.rules.chance import SharedChance
from protopress.rules.information import FaceDown, Private, SeatView, Secret
from protopress.rules.observe import observation
from protopress.rules.spec import GameSpec


@action
class Play(NamedTuple):
    card: str
    verb: Literal["play"] = "play"


class Goal(NamedTuple):
    """A secret card (like a blueprint): the others see its side only."""

    id: str
    side: str


GOALS = (Goal("north-goal", "north"), Goal("south-goal", "south"), Goal("east-goal", "north"))


@dataclass
class Board:
    hand: list[str]
    goal: Goal
    goal_letters: int | None = None  # a cache that reads the secret goal

    def copy(self) -> "Board":
        return Board(list(self.hand), self.goal, self.goal_letters)


@dataclass
class Toy:
    chance: SharedChance
    deck: list[str]
    boards: list[Board]
    goals: tuple[Goal, ...] = GOALS  # the game's table of every goal: open to all
    discards: list[str] = field(default_factory=list)
    legal_cache: list[Play] = field(default_factory=list)
    _private_note: str = "not for the page"
    turns: int = 0
    over: bool = False

    def copy(self) -> "Toy":
        return Toy(
            self.chance.share(), list(self.deck), [b.copy() for b in self.boards], self.goals,
            list(self.discards), list(self.legal_cache), self._private_note, self.turns,
            self.over,
        )  # fmt: skip


def _deal_goal(state: Toy, seat: int, goals) -> None:
    (state.boards[seat].goal,) = goals
    state.boards[seat].goal_letters = None


class ToyGame:
    id = "toy"
    actions = ActionCodec([Play])
    seat_view = SeatView(
        (
            Private(
                "hands",
                lambda s: [b.hand for b in s.boards],
                pool=FaceDown("deck", lambda s: s.deck),
            ),
            Secret(
                "goals",
                lambda s: [(b.goal,) for b in s.boards],
                _deal_goal,
                lambda s: [g for g in GOALS if g not in {b.goal for b in s.boards}],
                shows=lambda goal: goal.side,
            ),
        )
    )

    def is_over(self, state):
        return state.over

    def to_move(self, state):
        return None if state.over else 0

    def scores(self, state):
        return [len(board.hand) for board in state.boards]

    def winners(self, state):
        return [0]


def toy() -> Toy:
    return Toy(
        chance=SharedChance(random.Random(5)),
        deck=["ash", "birch", "cedar"],
        boards=[Board(["oak", "elm"], GOALS[0]), Board(["yew", "fir", "pine"], GOALS[2], 9)],
        discards=["willow"],
        legal_cache=[Play("oak"), Play("elm")],
    )


def test_the_seat_sees_its_own_hand_and_counts_of_the_rest():
    view = observation(ToyGame(), toy(), 0, 2)
    fields = view["fields"]
    mine, theirs = fields["boards"]
    assert mine == {
        "hand": ["oak", "elm"],
        "goal": {"id": "north-goal", "side": "north"},
        "goal_letters": None,
    }
    assert theirs["hand"] == {"hidden": "hands", "count": 3}
    assert theirs["goal"] == {"hidden": "goals", "count": 1, "shows": "north"}
    assert fields["deck"] == {"hidden": "deck", "count": 3}
    assert fields["discards"] == ["willow"]
    assert view["to_move"] == 0 and view["over"] is False and view["scores"] is None


def test_a_cache_that_read_a_hidden_card_is_not_shown():
    # seat 1's goal_letters (9) was worked out from its secret goal: seat 0 may not see it,
    # though the declaration does not name it; seat 1 sees it
    theirs = observation(ToyGame(), toy(), 0, 2)["fields"]["boards"][1]
    assert theirs["goal_letters"] == {"unseen": True}
    assert observation(ToyGame(), toy(), 1, 2)["fields"]["boards"][1]["goal_letters"] == 9


def test_nothing_hidden_chance_actions_or_private_slots_reaches_the_view():
    text = json.dumps(observation(ToyGame(), toy(), 1, 2)["fields"]["boards"])
    for secret in ("oak", "elm", "north-goal"):
        assert f'"{secret}"' not in text
    assert "yew" in text and "east-goal" in text  # seat 1's own
    fields = observation(ToyGame(), toy(), 1, 2)["fields"]
    assert fields["deck"] == {"hidden": "deck", "count": 3}
    assert set(fields) == {"deck", "boards", "goals", "discards", "turns", "over"}
    assert fields["goals"][0] == {"id": "north-goal", "side": "north"}  # the open table
    assert observation(ToyGame(), toy(), 1, 2)["fixed"] == ["goals"]  # a tuple: a table


def test_the_kind_of_a_hidden_pile_is_said_when_its_cards_share_one():
    trees = dict.fromkeys(("ash", "birch", "cedar", "yew", "fir", "pine", "oak", "elm"), "tree")
    view = observation(ToyGame(), toy(), 0, 2, trees.get)
    assert view["fields"]["deck"] == {"hidden": "deck", "count": 3, "kind": "tree"}
    assert view["fields"]["boards"][1]["hand"] == {"hidden": "hands", "count": 3, "kind": "tree"}
    view = observation(ToyGame(), toy(), 0, 2, (trees | {"yew": "bush"}).get)
    # the deck holds only trees, but is pooled with seat 1's hand, which holds a bush
    assert view["fields"]["deck"] == {"hidden": "deck", "count": 3}


def test_the_scores_are_shown_once_the_game_is_over():
    state = toy()
    state.over = True
    view = observation(ToyGame(), state, 0, 2)
    assert view["scores"] == [2, 3] and view["winners"] == [0] and view["to_move"] is None


def test_a_game_may_give_its_own_observation():
    class Open(ToyGame):
        def observation(self, state, seat):
            return {"fields": {"mine": state.boards[seat].hand}, "hidden": []}

    view = observation(Open(), toy(), 1, 2)
    assert view["fields"] == {"mine": ["yew", "fir", "pine"]} and view["seat"] == 1


def test_the_fields_a_spec_declares_internal_are_never_shown():
    class Declared(ToyGame):
        spec = GameSpec(
            id="toy", title="Toy", min_players=2, max_players=2, engine=ToyGame,
            internal_fields=("legal_cache", "turns"),
        )  # fmt: skip

    fields = observation(Declared(), toy(), 0, 2)["fields"]
    assert set(fields) == {"deck", "boards", "goals", "discards", "over"}
    # without the declaration the same state shows its turns (the actions' cache never)
    assert "turns" in observation(ToyGame(), toy(), 0, 2)["fields"]


def _dragonstone_midgame() -> tuple[object, object]:
    spec = spec_for("dragonstone-mine")
    game = spec.new_game()
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    state = game.setup(catalog, 2, random.Random(3), spec.parse_options({"level": "1"}))
    chooser = random.Random(4)
    for _ in range(30):
        game.apply(state, chooser.choice(game.legal_actions(state)))
    game.legal_actions(state)
    game.scores(state)  # fills every tower's cached score
    return game, state


def test_dragonstone_s_view_holds_no_cached_scores_and_all_it_draws():
    game, state = _dragonstone_midgame()
    assert all(cell[0] is not None for cell in state.tower_points)  # the cache is full
    fields = observation(game, state, 0, 2)["fields"]
    assert not {"tower_points", "owned", "legal"} & set(fields)
    # everything a seat sees of the game is still there: the towers, the loose gems,
    # the bag, the hands (the other's as a count), the deck as a count, the cards laid
    # out, the decision under way, the rules' tables
    assert {
        "rules", "turns", "seat", "spires", "loose", "bag", "bag_total", "hands", "deck",
        "discards", "face_up", "pending", "decision", "held", "used", "paid", "final",
        "extra", "over", "ended_by",
    } == set(fields)  # fmt: skip
    assert fields["spires"] == json.loads(json.dumps(state.spires))
    assert fields["hands"][0] == state.hands[0]
    assert fields["hands"][1] == {"hidden": "hands", "count": len(state.hands[1])}


@pytest.mark.parametrize("game_id", known_ids())
def test_each_declared_internal_field_is_a_field_of_the_game_s_state(game_id):
    spec = spec_for(game_id)
    game = spec.new_game()
    catalog = load_catalog(builtin_catalog_path(game_id))
    players = max(2, spec.min_players)
    state = game.setup(catalog, players, random.Random(1), spec.parse_options({}))
    for name in spec.internal_fields:  # a misspelt name would hide nothing
        assert hasattr(state, name), f"{game_id}: {name} is not a field of its state"

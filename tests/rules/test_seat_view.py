"""The seat view's determinisation on a small hand-made table: what the seat sees
stays, what it cannot see is dealt again from what it could be, and two tables
the seat cannot tell apart give the same imagined table for one generator."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from protopress.rules.information import FaceDown, Private, SeatView, Secret


@dataclass
class Table:
    hands: list[list[str]]
    deck: list[str]
    goals: list[str] = field(default_factory=list)  # one secret goal a seat
    supply: tuple[str, ...] = ()  # every goal in the box
    seen: dict[int, list[str]] = field(default_factory=dict)  # owner -> cards seat 0 saw
    peeked: int = 0  # cards on top of the deck that seat 0 saw

    def copy(self) -> Table:
        return Table(
            [hand[:] for hand in self.hands],
            self.deck[:],
            self.goals[:],
            self.supply,
            self.seen,
            self.peeked,
        )


GOALS = ("r1", "r2", "r3", "b1", "b2")


def colour(goal: str) -> str:
    """What the others see of a goal: its colour, the name's first letter."""
    return goal[0]


def deal_goal(table: Table, seat: int, goals) -> None:
    (table.goals[seat],) = goals


VIEW = SeatView(
    (
        Private(
            "hands",
            lambda t: t.hands,
            pool=FaceDown("deck", lambda t: t.deck, known_on_top=lambda t, seat: t.peeked),
            known=lambda t, seat, owner: t.seen.get(owner, []),
        ),
        Secret(
            "goals",
            lambda t: [(goal,) for goal in t.goals],
            deal_goal,
            lambda t: [goal for goal in t.supply if goal not in t.goals],
            shows=colour,
        ),
    )
)


def imagined(table: Table, seed: int = 1) -> Table:
    copy = table.copy()
    VIEW.determinize(copy, 0, random.Random(seed))
    return copy


def test_the_seat_keeps_its_own_hand_and_the_others_keep_their_sizes():
    table = Table([["a", "b"], ["c", "d", "e"], ["f"]], ["g", "h", "i"])
    seen = imagined(table)
    assert seen.hands[0] == ["a", "b"]
    assert [len(hand) for hand in seen.hands] == [2, 3, 1] and len(seen.deck) == 3
    # the others' cards and the deck are the same cards, dealt again
    assert sorted(seen.hands[1] + seen.hands[2] + seen.deck) == list("cdefghi")


def test_two_tables_the_seat_cannot_tell_apart_are_imagined_alike():
    table = Table([["a", "b"], ["c", "d", "e"], ["f"]], ["g", "h", "i"])
    twin = Table([["a", "b"], ["i", "f", "c"], ["h"]], ["e", "d", "g"])
    assert imagined(table, 7) == imagined(twin, 7)
    # a card the seat holds is never imagined elsewhere
    other = imagined(Table([["a", "c"], ["b", "d", "e"], ["f"]], ["g", "h", "i"]), 7)
    assert "c" not in other.hands[1] + other.hands[2] + other.deck


def test_a_card_the_seat_has_seen_in_another_hand_stays_there():
    """Seat 0 saw d go into seat 1's hand (taken face up): d stays in its place, and
    only c, e and the deck are pooled."""
    table = Table([["a"], ["c", "d", "e"]], ["f", "g"], seen={1: ["d"]})
    for seed in range(20):
        seen = imagined(table, seed)
        assert seen.hands[1][1] == "d"
        assert sorted(seen.hands[1][::2] + seen.deck) == ["c", "e", "f", "g"]
    twin = Table([["a"], ["g", "d", "f"]], ["e", "c"], seen={1: ["d"]})
    assert imagined(table, 3) == imagined(twin, 3)


def test_cards_seen_on_top_of_the_deck_stay_on_top():
    """Seat 0 peeked at the top two cards (the list's end): they stay; the rest of
    the deck is pooled with the others' hands."""
    table = Table([["a"], ["b", "c"]], ["d", "e", "f", "g"], peeked=2)
    for seed in range(20):
        seen = imagined(table, seed)
        assert seen.deck[2:] == ["f", "g"]
        assert sorted(seen.hands[1] + seen.deck[:2]) == ["b", "c", "d", "e"]
    twin = Table([["a"], ["e", "d"]], ["c", "b", "f", "g"], peeked=2)
    assert imagined(table, 5) == imagined(twin, 5)


def test_a_secret_is_dealt_again_among_the_cards_of_the_colour_it_shows():
    """Goals r1, r2, r3 (red) and b1, b2 (blue): seat 0 holds r1; seat 1 shows red,
    seat 2 blue. Seat 1's could be r2 or r3 (not r1: seat 0 holds it), seat 2's
    b1 or b2; both appear over a few seeds, and never another colour."""
    table = Table([[], [], []], [], goals=["r1", "r2", "b1"], supply=GOALS)
    found = Counter()
    for seed in range(40):
        seen = imagined(table, seed)
        assert seen.goals[0] == "r1"
        found[seen.goals[1], seen.goals[2]] += 1
    assert set(found) == {("r2", "b1"), ("r3", "b1"), ("r2", "b2"), ("r3", "b2")}
    twin = Table([[], [], []], [], goals=["r1", "r3", "b2"], supply=GOALS)
    assert imagined(table, 9) == imagined(twin, 9)


def test_one_field_alone_is_dealt_again_when_named():
    """determinize(only=NAME) deals again that field alone (as for a twin)."""
    table = Table([["a"], ["b", "c"]], ["d", "e"], goals=["r1", "r2"], supply=GOALS)
    copy = table.copy()
    VIEW.determinize(copy, 0, random.Random(4), only="goals")
    assert copy.hands == table.hands and copy.deck == table.deck
    assert VIEW.fields(table) == ["hands", "goals"]


def test_a_pile_laid_out_when_read_cannot_keep_cards_seen_on_top():
    with pytest.raises(ValueError, match="shuffled whole"):
        FaceDown("deck", lambda t: t.deck, laid_out_when_read=True, known_on_top=lambda t, s: 1)

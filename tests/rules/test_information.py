"""The kit's shuffles draw exactly what random.Random's would, and a pile shuffled
for a seat copy forgets its real order (copies' chance: tests/rules/test_chance.py)."""

import random

from protopress.rules.information import (
    canonical,
    shuffle,
    shuffled,
)


def test_shuffle_draws_and_orders_as_random_shuffle_does():
    for size in range(70):
        for seed in range(25):
            ours, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            shuffle(cards, ours)
            theirs.shuffle(expected)
            assert cards == expected
            assert ours.getstate() == theirs.getstate()  # the same draws: what follows agrees


def test_shuffled_piles_forget_their_order():
    cards = [(3, "b"), (1, "a"), (2, "c"), (1, "a")]
    assert canonical(cards) == [(1, "a"), (1, "a"), (2, "c"), (3, "b")]
    assert shuffled(cards, random.Random(5)) == shuffled(cards[::-1], random.Random(5))


def test_canonical_orders_components_by_id_and_anything_else_by_text():
    class Card:
        def __init__(self, id):
            self.id = id

    cards = [Card("b"), Card("a"), Card("c")]
    assert [card.id for card in canonical(cards)] == ["a", "b", "c"]
    assert canonical([{"x": 2}, {"x": 1}]) == [{"x": 1}, {"x": 2}]

"""SharedRng draws exactly what plain generators would: copies share one until
either draws, a re-seeded one is made on first use, and nothing a copy draws
reaches the original (or the other way round)."""

import random

from protopress.rules.information import (
    SharedRng,
    canonical,
    reseed,
    seat_copy,
    shuffle,
    shuffled,
)


class Toy(SharedRng):
    __slots__ = ()

    def copy(self):
        new = Toy.__new__(Toy)
        self.share_rng(new)
        return new


def draws(state, n=5):
    rng = state if isinstance(state, random.Random) else state.rng
    return [rng.random() for _ in range(n)]


def test_copies_draw_what_clones_of_the_generator_would():
    rng = random.Random(4)
    rng.random()
    state = Toy(rng)
    expected = random.Random()
    expected.setstate(rng.getstate())
    first, second = state.copy(), state.copy()
    want = draws(expected)
    assert draws(first) == want
    assert draws(second) == want  # first's draws did not advance the shared one
    assert draws(state) == want
    again = state.copy()  # of a state that has drawn
    assert draws(again) == draws(state)


def test_reseeded_states_draw_from_the_seed_and_copies_too():
    state = Toy(random.Random(1))
    reseed(state, 99)
    copies = [state.copy() for _ in range(3)]
    want = draws(random.Random(99))
    assert [draws(c) for c in copies] == [want] * 3
    assert draws(state) == want
    state.rng = random.Random(7)  # set by hand: drawn from as given
    assert draws(state) == draws(random.Random(7))


def test_random_walks_of_copies_match_plain_generators():
    rng = random.Random(12)
    for _ in range(300):
        seed = rng.getrandbits(32)
        state, plain = Toy(random.Random(seed)), [random.Random(seed)]
        states = [state]
        for _ in range(20):
            k = rng.randrange(len(states))
            if rng.random() < 0.4:
                states.append(states[k].copy())
                twin = random.Random()
                twin.setstate(plain[k].getstate())
                plain.append(twin)
            elif rng.random() < 0.1:
                new_seed = rng.getrandbits(16)
                reseed(states[k], new_seed)
                plain[k] = random.Random(new_seed)
            else:
                assert states[k].rng.random() == plain[k].random()


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


def test_a_seat_copy_leaves_the_state_its_own_generator():
    """The copy is re-seeded at once, so a state no other copy shared a generator
    with keeps drawing from it without cloning it; one that was shared still clones."""
    rng = random.Random(8)
    state = Toy(rng)
    expected = random.Random()
    expected.setstate(rng.getstate())
    imagined = seat_copy(object(), state, 0, random.Random(1))
    assert not state.rng_shared and state.rng is rng  # no clone made
    assert draws(state) == draws(expected)
    assert draws(imagined) != draws(state)  # the copy's chance is its own
    plain = state.copy()  # shared with a plain copy: the seat copy leaves it shared
    seat_copy(object(), state, 0, random.Random(2))
    assert state.rng_shared and draws(plain) == draws(state)

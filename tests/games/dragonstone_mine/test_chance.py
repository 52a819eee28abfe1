"""The tape of a generator's words draws exactly what clones of the generator
would: copies read the same numbers from where they were made, re-seeded states
what random.Random(seed) gives, whatever order the copies draw in."""

import random

import pytest

from protopress.games.dragonstone_mine.chance import Chance
from protopress.rules.information import reseed


class Toy(Chance):
    __slots__ = ()

    def copy(self):
        new = Toy.__new__(Toy)
        self.share_chance(new)
        return new


def clone(rng):
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def test_draws_and_shuffles_are_the_generators():
    for seed in range(200):
        state, plain = Toy(random.Random(seed)), random.Random(seed)
        for n in (1, 2, 3, 7, 64, 65, 200, 2**31, 2**32 - 1):
            assert state.below(n) == plain.randrange(n)
        cards, expected = list(range(seed % 60)), list(range(seed % 60))
        state.shuffle(cards)
        plain.shuffle(expected)
        assert cards == expected
        assert state.below(1000) == plain.randrange(1000)  # the same draws: what follows agrees


def test_random_walks_of_copies_match_clones_of_the_generator():
    rng = random.Random(12)
    for _ in range(300):
        seed = rng.getrandbits(32)
        states, plain = [Toy(random.Random(seed))], [random.Random(seed)]
        for _ in range(30):
            k = rng.randrange(len(states))
            roll = rng.random()
            if roll < 0.3:
                states.append(states[k].copy())
                plain.append(clone(plain[k]))
            elif roll < 0.4:
                new_seed = rng.getrandbits(16)
                reseed(states[k], new_seed)
                plain[k] = random.Random(new_seed)
            elif roll < 0.5:
                cards, expected = list(range(rng.randrange(40))), []
                expected[:] = cards
                states[k].shuffle(cards)
                plain[k].shuffle(expected)
                assert cards == expected
            else:
                n = rng.randrange(1, 300)
                assert states[k].below(n) == plain[k].randrange(n)


def test_a_generator_drawn_from_outside_before_the_first_draw_is_read_from_there():
    """Setup shuffles the deck with the generator itself, after the state holds it:
    the tape reads its first word only when the state first draws."""
    rng, plain = random.Random(3), random.Random(3)
    state = Toy(rng)
    rng.shuffle(deck := list(range(30)))
    plain.shuffle(list(range(30)))
    assert deck and state.below(50) == plain.randrange(50)


@pytest.mark.parametrize("n", [0, -1, 2**32])
def test_a_draw_out_of_range_is_refused(n):
    with pytest.raises(ValueError, match="draw below"):
        Toy(random.Random(1)).below(n)


def test_a_states_generator_is_the_one_at_its_place_and_the_state_follows_it():
    for seed in range(50):
        plain = random.Random(seed)
        state = Toy(random.Random(seed))
        for _ in range(seed % 7):
            assert state.below(90) == plain.randrange(90)
        other = state.copy()  # shares the tape
        rng = state.rng  # the state's own from now on
        assert rng.getstate() == plain.getstate()
        twin = clone(plain)
        assert rng.random() == plain.random()  # drawn outside the state ...
        assert state.below(77) == plain.randrange(77)  # ... which continues after it
        assert other.below(77) == twin.randrange(77)  # the copy kept its own place
        reseed(other, seed)
        other.below(5)
        assert other.rng.getstate() == (lambda r: (r.randrange(5), r.getstate())[1])(
            random.Random(seed)
        )

"""Chance through its one interface draws exactly what plain generators would:
named draws are random.Random's same calls, copies draw what clones of the
generator would (shared until one draws, or read from one tape), re-seeded
states what random.Random(seed) gives, and the record names the public draws
since it was last observed, never the private ones."""

import random

import pytest

from protopress.rules.chance import SharedChance, Shown, TapeChance, observe
from protopress.rules.information import reseed, seat_copy

KINDS = [SharedChance, TapeChance]


class Toy:
    """A state whose one field is its chance."""

    __slots__ = ("chance",)

    def __init__(self, chance):
        self.chance = chance

    def copy(self):
        return Toy(self.chance.share())


def clone(rng):
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def draws(state, n=5):
    return [state.chance.below(1000) for _ in range(n)]


def plain_draws(rng, n=5):
    return [rng.randrange(1000) for _ in range(n)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_seeded_sequence_of_named_draws_is_random_randoms_same_calls(kind):
    chance, plain = kind(random.Random(2024)), random.Random(2024)
    assert chance.roll("die", 6) == plain.randrange(6) + 1
    faces = ["gem", "skull", "pick", "pick"]
    assert chance.choice("face", faces) == plain.choice(faces)
    cards, expected = list(range(12)), list(range(12))
    chance.shuffle("deck", cards)
    plain.shuffle(expected)
    assert cards == expected
    bag = {"red": 3, "blue": 0, "green": 5}
    pick = plain.randrange(8)  # red for 0 to 2, green for 3 to 7
    assert chance.draw("gem", bag, 8) == ("red" if pick < 3 else "green")
    assert chance.below(10**6) == plain.randrange(10**6)  # what follows agrees


def test_a_bag_draw_counts_through_the_bag_in_its_order():
    # random.Random(0).randrange(10) is 6: past 2 reds and 3 blues, the second green
    assert random.Random(0).randrange(10) == 6
    bag = {"red": 2, "blue": 3, "green": 5}
    assert SharedChance(random.Random(0)).draw("gem", bag, 10) == "green"
    assert TapeChance(random.Random(0)).draw("gem", bag, 10) == "green"


@pytest.mark.parametrize("kind", KINDS)
def test_draws_and_shuffles_are_the_generators(kind):
    for seed in range(200):
        chance, plain = kind(random.Random(seed)), random.Random(seed)
        for n in (1, 2, 3, 7, 64, 65, 200, 2**31, 2**32 - 1):
            assert chance.below(n) == plain.randrange(n)
        cards, expected = list(range(seed % 60)), list(range(seed % 60))
        chance.shuffle("deck", cards)
        plain.shuffle(expected)
        assert cards == expected
        assert chance.below(1000) == plain.randrange(1000)


@pytest.mark.parametrize("kind", KINDS)
def test_a_copy_shares_until_it_draws(kind):
    rng = random.Random(4)
    rng.random()
    state = Toy(kind(rng))
    expected = clone(rng)
    first, second = state.copy(), state.copy()
    want = plain_draws(expected)
    assert draws(first) == want
    assert draws(second) == want  # first's draws did not advance the shared one
    assert draws(state) == want
    again = state.copy()  # of a state that has drawn
    assert draws(again) == draws(state)


def test_a_shared_generator_is_cloned_only_by_the_copy_that_draws():
    rng = random.Random(6)
    state = Toy(SharedChance(rng))
    copy = state.copy()
    assert state.chance.shared and copy.chance.shared
    copy.chance.below(10)
    assert not copy.chance.shared and copy.chance.rng is not rng
    assert state.chance.shared  # still reads rng, unadvanced: it clones on its own draw
    assert rng.getstate() == random.Random(6).getstate()


@pytest.mark.parametrize("kind", KINDS)
def test_reseeded_states_draw_from_the_seed_and_copies_too(kind):
    state = Toy(kind(random.Random(1)))
    reseed(state, 99)
    copies = [state.copy() for _ in range(3)]
    want = plain_draws(random.Random(99))
    assert [draws(c) for c in copies] == [want] * 3
    assert draws(state) == want
    state.chance.rng = random.Random(7)  # set by hand: drawn from as given
    assert draws(state) == plain_draws(random.Random(7))


@pytest.mark.parametrize("kind", KINDS)
def test_random_walks_of_copies_match_clones_of_the_generator(kind):
    rng = random.Random(12)
    for _ in range(300):
        seed = rng.getrandbits(32)
        states, plain = [Toy(kind(random.Random(seed)))], [random.Random(seed)]
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
                cards = list(range(rng.randrange(40)))
                expected = list(cards)
                states[k].chance.shuffle("pile", cards)
                plain[k].shuffle(expected)
                assert cards == expected
            else:
                n = rng.randrange(1, 300)
                assert states[k].chance.below(n) == plain[k].randrange(n)


@pytest.mark.parametrize("kind", KINDS)
def test_a_generator_drawn_from_outside_before_the_first_draw_is_read_from_there(kind):
    """Setup shuffles with the generator itself after the state holds it."""
    rng, plain = random.Random(3), random.Random(3)
    chance = kind(rng)
    rng.shuffle(deck := list(range(30)))
    plain.shuffle(list(range(30)))
    assert deck and chance.below(50) == plain.randrange(50)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, -1])
def test_a_draw_below_nothing_is_refused(kind, n):
    with pytest.raises(ValueError, match="draw below"):
        kind(random.Random(1)).below(n)


def test_a_tape_draw_beyond_a_word_is_refused():
    with pytest.raises(ValueError, match="draw below"):
        TapeChance(random.Random(1)).below(2**32)


@pytest.mark.parametrize("kind", KINDS)
def test_a_states_generator_is_the_one_at_its_place_and_the_state_follows_it(kind):
    for seed in range(50):
        plain = random.Random(seed)
        state = Toy(kind(random.Random(seed)))
        for _ in range(seed % 7):
            assert state.chance.below(90) == plain.randrange(90)
        other = state.copy()
        rng = state.chance.rng  # the state's own from now on
        assert rng.getstate() == plain.getstate()
        twin = clone(plain)
        assert rng.random() == plain.random()  # drawn outside the state ...
        assert state.chance.below(77) == plain.randrange(77)  # ... which continues after it
        assert other.chance.below(77) == twin.randrange(77)  # the copy kept its own place
        reseed(other, seed)
        other.chance.below(5)
        expected = random.Random(seed)
        expected.randrange(5)
        assert other.chance.rng.getstate() == expected.getstate()


@pytest.mark.parametrize("kind", KINDS)
def test_the_record_names_the_public_draws_since_the_last_observation(kind):
    state = Toy(kind(random.Random(5)))
    plain = random.Random(5)
    die = plain.randrange(6) + 1
    assert state.chance.roll("die", 6) == die
    state.chance.shuffle("deck", [1, 2, 3, 4])  # private: not recorded
    plain.shuffle([1, 2, 3, 4])
    secret = state.chance.choice("blueprint", "abc", public=False)  # dealt face down
    assert secret == plain.choice("abc")
    gem = "red" if plain.randrange(4) < 1 else "blue"
    assert state.chance.draw("gem", {"red": 1, "blue": 3}, 4) == gem
    laid = [1, 2, 3]
    state.chance.shuffle("market", laid, public=True)  # laid out face up
    assert observe(state) == (Shown("die", die), Shown("gem", gem), Shown("market", tuple(laid)))
    assert observe(state) == ()  # taken: nothing new since
    state.chance.choice("blueprint", "abc", public=False)
    assert observe(state) == ()


@pytest.mark.parametrize("kind", KINDS)
def test_a_copy_and_a_reseeded_chance_start_with_nothing_shown(kind):
    state = Toy(kind(random.Random(5)))
    state.chance.roll("die", 6)
    assert observe(state.copy()) == ()
    reseed(state, 3)
    assert observe(state) == ()
    assert observe(object()) == ()  # a state without chance shows nothing


def test_a_seat_copy_leaves_the_state_its_own_generator():
    """The copy is re-seeded at once, so a state no other copy shared a generator
    with keeps drawing from it without cloning it; one that was shared still clones."""
    rng = random.Random(8)
    state = Toy(SharedChance(rng))
    expected = clone(rng)
    imagined = seat_copy(object(), state, 0, random.Random(1))
    assert not state.chance.shared and state.chance.rng is rng  # no clone made
    assert draws(state) == plain_draws(expected)
    assert draws(imagined) != draws(state)  # the copy's chance is its own
    plain = state.copy()  # shared with a plain copy: the seat copy leaves it shared
    seat_copy(object(), state, 0, random.Random(2))
    assert state.chance.shared and draws(plain) == draws(state)

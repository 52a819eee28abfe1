"""Snapshots of a state's data: equal for the same data, and a change located."""

import random

from protopress.rules.snapshot import Snapshots, first_difference, snapshot


class Slotted:
    __slots__ = ("hands", "seen", "unset")

    def __init__(self):
        self.hands = {"a": [1, 2], "b": [3]}
        self.seen = {("x", 1)}


def test_a_snapshot_locates_a_change_deep_in_a_state():
    state = Slotted()
    before = snapshot(state)
    assert snapshot(state) == before
    state.hands["a"][1] = 5
    assert first_difference(before, snapshot(state)) == "state.hands['a'][1]"
    state.hands["a"][1] = 2
    state.seen.add(("y", 2))
    assert first_difference(before, snapshot(state)) == "state.seen"
    state.seen.discard(("y", 2))
    state.hands["b"].append(4)
    assert first_difference(before, snapshot(state)) == "state.hands['b'] (length 1 -> 2)"


def test_a_snapshot_tells_a_shared_list_from_two_equal_ones():
    one = [1]
    shared, apart = Slotted(), Slotted()
    shared.hands, apart.hands = {"a": one, "b": one}, {"a": [1], "b": [1]}
    assert snapshot(shared) != snapshot(apart)


class Watched(list):
    """A list that notes each read, as a game may to know what a look-ahead used."""

    reads = 0

    def __iter__(self):
        Watched.reads += 1
        return super().__iter__()

    def __getitem__(self, index):
        Watched.reads += 1
        return super().__getitem__(index)


def test_a_snapshot_reads_what_a_list_holds_without_its_own_methods():
    state = Slotted()
    state.hands = {"a": Watched([1, Watched([2])])}
    before = snapshot(state)
    assert Watched.reads == 0
    list.append(list.__getitem__(state.hands["a"], 1), 3)
    assert first_difference(before, snapshot(state)) == "state.hands['a'][1] (length 1 -> 2)"
    assert Watched.reads == 0


def test_pictures_agree_while_the_data_stays_whatever_was_met_before():
    """The first picture learns which objects are immutable; later ones read them from
    memory, and an object met twice is pictured the same way each time."""
    table = (1, ("a", frozenset({2, 3})))
    hand = [1]
    state = Slotted()
    state.hands = {"x": table, "y": table, "l": hand, "m": hand}
    shots = Snapshots()
    first = shots.of(state)
    assert shots.of(state) == first == snapshot(state)
    hand.append(2)
    assert first_difference(first, shots.of(state)) == "state.hands['l'] (length 1 -> 2)"


def test_a_generator_drawn_from_is_a_change():
    state = Slotted()
    state.hands = {"rng": random.Random(1)}
    before = snapshot(state)
    state.hands["rng"].random()
    assert first_difference(before, snapshot(state)) == "state.hands['rng']"


def test_a_cycle_is_pictured_without_end():
    loop: list = []
    loop.append(loop)
    assert snapshot(loop) == snapshot(loop)

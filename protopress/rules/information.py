"""What a seat may know: look-ahead copies that carry no knowledge of the real future.

A bot that looks ahead on a plain copy of the state rolls the dice the game
will roll and draws the cards that really lie on top of the deck. A *seat
copy* is a copy whose chance is re-seeded from the bot's own generator and
whose hidden information is resampled consistently with what the seat sees
(a determinisation). The game declares what is hidden once, in its engine's
`determinize(state, seat, rng)`: shuffle what the seat cannot see (deck
orders, the other players' private hands where they are private), keeping
everything it can see. A game without hidden information needs no
`determinize`: re-seeding its chance is all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from operator import attrgetter
from typing import Any


def seat_copy(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of state as seat may imagine it: chance re-seeded, hidden information resampled."""
    alone = getattr(state, "rng_shared", None) is False  # a SharedRng no copy shares
    copy = state.copy()
    reseed(copy, rng.getrandbits(64))
    if alone:  # the copy shared the generator, and has a new one: the state draws
        state.rng_shared = False  # from its own again, with no clone first
    determinize = getattr(game, "determinize", None)
    if determinize is not None:
        determinize(copy, seat, rng)
    return copy


def reseed(state: Any, seed: int) -> None:
    """Give state a generator of its own, seeded from seed (the copy forgets the real one):
    by its `seed_rng` when it has one (a SharedRng, or a game's own kind of chance)."""
    seed_rng = getattr(state, "seed_rng", None)
    if seed_rng is not None:
        seed_rng(seed)
    else:
        state.rng = random.Random(seed)


class SharedRng:
    """A state's random generator, for states that copy often and draw seldom.

    A copy shares the generator until one of them draws (then that one draws from
    a clone), and a re-seeded generator is made only when first drawn from. The
    draws are those of a plain copy: only the cloning and seeding are saved.
    """

    __slots__ = ("_rng", "rng_shared", "rng_seed")

    def __init__(self, rng: random.Random):
        self._rng: random.Random | None = rng
        self.rng_shared = False  # _rng is shared with a copy: clone it before drawing
        self.rng_seed: int | None = None  # with _rng None: the seed to make it from

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self.rng_seed)
        elif self.rng_shared:  # the shared generator is never advanced: clone it first
            own = random.Random.__new__(random.Random)  # unseeded: setstate fills it
            own.setstate(self._rng.getstate())
            self._rng, self.rng_shared = own, False
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self.rng_shared, self.rng_seed = rng, False, None

    def seed_rng(self, seed: int) -> None:
        """From now on draw from random.Random(seed), made when first needed."""
        self._rng, self.rng_shared, self.rng_seed = None, False, seed

    def share_rng(self, new: SharedRng) -> None:
        """Give the copy new this state's generator, shared until one of them draws."""
        new._rng, new.rng_seed, new.rng_shared = self._rng, self.rng_seed, False
        if self._rng is not None:
            self.rng_shared = new.rng_shared = True


def canonical(cards: list, key: Callable[[Any], Any] | None = None) -> list:
    """The cards in an order that depends only on which cards they are, so that a
    shuffle from the bot's generator cannot carry the real, hidden order.

    Sorted by key when the caller knows the order (say `attrgetter("id")` for
    cards without an order of their own: no failed attempt first), else by
    their own order (numbers, ids, tuples of them), else by `id` (a catalog's
    components: copies of one design share their id and are alike), else by
    their text.
    """
    if key is not None:
        return sorted(cards, key=key)
    try:
        return sorted(cards)
    except TypeError:
        pass
    try:
        return sorted(cards, key=attrgetter("id"))
    except (AttributeError, TypeError):
        return sorted(cards, key=repr)


def shuffled(cards: Iterable, rng: random.Random, key: Callable[[Any], Any] | None = None) -> list:
    """The cards in an order drawn from rng alone, for a pile the seat cannot see.

    Put in canonical order (by key, when given) before shuffling: shuffled from
    its real order, two hidden orders would give two imagined ones for one seed
    of the bot, and the bot's choice could still follow the order it must not know.
    """
    pool = canonical(list(cards), key)
    shuffle(pool, rng)
    return pool


def shuffle(cards: list, rng: random.Random) -> None:
    """rng.shuffle(cards), the same draws and the same order, in half the time.

    random.shuffle calls a Python method per card to draw an index below i + 1;
    here that draw (CPython's _randbelow_with_getrandbits: getrandbits of the
    bit length, again while too large) is inlined, each position's bound and bit
    length read from a table kept per pile size. Every look-ahead shuffles
    the hidden piles, so this is a visible share of a greedy game.
    tests/rules/test_information.py holds it to rng.shuffle.
    """
    steps = _STEPS.get(len(cards))
    if steps is None:
        steps = _STEPS[len(cards)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1)
        )
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        cards[i], cards[r] = cards[r], cards[i]


_STEPS: dict[
    int, tuple[tuple[int, int, int], ...]
] = {}  # shuffle's (position, bound, bits) by size


def redeal(hands: Sequence[MutableSequence], pile: MutableSequence, rng: random.Random) -> None:
    """Pool the hands and the pile, shuffle, and deal each hand and the pile their sizes again.

    For the hands a seat cannot see and the pile they could have come from:
    what the seat knows (how many cards each holds) stays true, and what the
    seat does not know (which card is where) leaves no trace in the result.
    """
    sizes = [len(hand) for hand in hands]
    if not any(sizes):  # most often no hidden hand holds a card: the pile alone, the same draws
        pile[:] = shuffled(pile, rng)
        return
    pool = shuffled([card for hand in hands for card in hand] + list(pile), rng)
    start = 0
    for hand, size in zip(hands, sizes, strict=True):
        hand[:] = pool[start : start + size]
        start += size
    pile[:] = pool[start:]

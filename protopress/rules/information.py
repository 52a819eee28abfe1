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
from collections.abc import MutableSequence, Sequence
from typing import Any


def seat_copy(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of state as seat may imagine it: chance re-seeded, hidden information resampled."""
    copy = state.copy()
    reseed(copy, rng.getrandbits(64))
    determinize = getattr(game, "determinize", None)
    if determinize is not None:
        determinize(copy, seat, rng)
    return copy


def reseed(state: Any, seed: int) -> None:
    """Give state a generator of its own, seeded from seed (the copy forgets the real one)."""
    state.rng = random.Random(seed)
    if hasattr(state, "rng_shared"):  # engines that share the generator copy-on-write
        state.rng_shared = False


def shuffle_hidden(cards: MutableSequence, rng: random.Random) -> None:
    """Shuffle a pile whose order nobody sees, in place."""
    rng.shuffle(cards)


def redeal(hands: Sequence[MutableSequence], pile: MutableSequence, rng: random.Random) -> None:
    """Pool the hands and the pile, shuffle, and deal each hand and the pile their sizes again.

    For the hands a seat cannot see and the pile they could have come from:
    what the seat knows (how many cards each holds) stays true.
    """
    sizes = [len(hand) for hand in hands]
    pool = [card for hand in hands for card in hand] + list(pile)
    rng.shuffle(pool)
    start = 0
    for hand, size in zip(hands, sizes, strict=True):
        hand[:] = pool[start : start + size]
        start += size
    pile[:] = pool[start:]

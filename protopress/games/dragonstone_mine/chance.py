"""The game's chance: one tape of the generator's words, read by every copy.

Look-ahead trials and the search's worlds are copies of a state that draw
what a clone of its generator would (as `information.SharedRng` gives the
other games). Cloning a Mersenne Twister costs about 14 µs (`getstate` builds
625 integers), and here the first trial of most decisions draws, so a
search's playouts spent a tenth of their time cloning. Instead, every state
sharing a generator reads one list of its 32-bit words, each from its own
place on it: a copy takes the tape and the place, and the first state to reach
a new place draws that word for all. A draw below n is CPython's
`Random._randbelow_with_getrandbits` word for word (`getrandbits(k)` for
k <= 32 is the next word shifted right by 32 - k), and a shuffle is
`Random.shuffle`'s, so every game, draw and decision is what it was
(tests/games/dragonstone_mine/test_chance.py).
"""

from __future__ import annotations

import random


class Tape:
    """The words a generator gives, made from a seed when first read."""

    __slots__ = ("source", "seed", "words", "start")

    def __init__(self, source: random.Random | None, seed: int | None = None):
        self.source, self.seed = source, seed
        self.words: list[int] = []
        self.start: tuple | None = None  # a given generator's state before its first word

    def word(self, at: int) -> int:
        """The at-th word; a new one (at == len(words)) is drawn from the generator."""
        words = self.words
        if at < len(words):
            return words[at]
        source = self.source
        if source is None:
            source = self.source = random.Random(self.seed)
        elif not words and self.seed is None:
            self.start = source.getstate()  # once a tape: to give a generator (Chance.rng)
        word = source.getrandbits(32)
        words.append(word)
        return word


class Chance:
    """A state's place on its tape; copies share the tape (`share_chance`)."""

    __slots__ = ("tape", "at")

    def __init__(self, rng: random.Random):
        self.tape, self.at = Tape(rng), 0

    @property
    def rng(self) -> random.Random:
        """A generator at this state's place, which the state draws from from now on
        (for callers outside the engine: it replays the words the state has read)."""
        tape = self.tape
        if tape.seed is not None:
            own = random.Random(tape.seed)
        else:
            own = random.Random.__new__(random.Random)  # unseeded: setstate fills it
            assert tape.source is not None  # a tape without a seed has its generator
            start = tape.start if tape.words else tape.source.getstate()
            assert start is not None  # kept when the first word was drawn
            own.setstate(start)
        for _ in range(self.at):
            own.getrandbits(32)
        self.tape, self.at = Tape(own), 0
        return own

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.tape, self.at = Tape(rng), 0

    def seed_rng(self, seed: int) -> None:
        """From now on draw what random.Random(seed) would (information.reseed)."""
        self.tape, self.at = Tape(None, seed), 0

    def share_chance(self, new: Chance) -> None:
        new.tape, new.at = self.tape, self.at

    def below(self, n: int) -> int:
        """random.Random.randrange(n) of the generator at this state's place."""
        if not 0 < n < 1 << 32:
            raise ValueError(f"a draw below {n}: expected 1 to 2**32 - 1")
        shift, tape, at = 32 - n.bit_length(), self.tape, self.at
        r = tape.word(at) >> shift
        at += 1
        while r >= n:
            r = tape.word(at) >> shift
            at += 1
        self.at = at
        return r

    def shuffle(self, cards: list) -> None:
        """random.Random.shuffle(cards): the same draws, the same order."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

"""A state's chance, declared once: every random draw goes through one `Chance`, by name.

A game keeps its chance as `state.chance`, made in `setup` from the generator
that setup receives (`SharedChance(rng)`), and draws through it with a name
for what the draw is: a die (`roll`, `choice`), a shuffle (`shuffle`), a draw
from a bag (`draw`), each saying whether what it shows is seen by every seat
(`public`). A die or a bag draw shows itself to every seat unless told
otherwise; a shuffle hides its order unless told otherwise.

From that the kit knows, with no hook of the game's:
- how a bot's look-ahead copy forgets the real future: `reseed` gives the
  copy's chance a generator of its own (rules/information.seat_copy);
- what chance has shown every seat since the last decision: the public draws,
  by name and result, kept in order (`shown`) until the search takes them
  (`observe`): the search keeps a branch below each move per answer (a chance
  node, rules/mcts.py), and a private draw (a shuffle, a card dealt face down)
  never splits it.

The draws are those of random.Random on the same generator, call for call:
`roll(name, n)` is `randrange(n) + 1`, `choice` is `choice`, `shuffle` is
`shuffle`, `below` is `randrange(n)`, so a game that drew from a plain
generator draws the same numbers through its Chance
(tests/rules/test_chance.py).

Copies are cheap: `share()` gives a copy's Chance, which draws what a clone of
the generator would. Two kinds keep that promise: `SharedChance` shares the
generator itself until one of them draws (then that one clones it first), and
`TapeChance` shares one tape of the generator's 32-bit words that every copy
reads from its own place (cloning a Mersenne Twister costs about 14 us; a game
whose copies nearly all draw, DragonStone Mine's look-ahead trials, saves it).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


class Shown(NamedTuple):
    """A public draw: its name and what it showed every seat."""

    name: str
    value: Hashable


class Chance:
    """A state's chance: named draws, and the record of the public ones.

    A kind of chance gives `below(n)` (random.Random.randrange(n) of its
    generator at this state's place), `share`, `reseed` and `rng`; the named
    draws are built on `below`.
    """

    __slots__ = ("shown",)

    def __init__(self) -> None:
        # the public draws since this Chance was made or last observed (None: none)
        self.shown: list[Shown] | None = None

    # --- what a kind of chance provides ---------------------------------------

    def below(self, n: int) -> int:
        """random.Random.randrange(n) of the generator at this state's place (unnamed:
        for a kind's own use and for draws the named ones build on)."""
        raise NotImplementedError

    def share(self) -> Chance:
        """The Chance of a copy of the state: it draws what a clone of this one would."""
        raise NotImplementedError

    def reseed(self, seed: int) -> None:
        """From now on draw what random.Random(seed) would (a look-ahead copy forgets
        the real future); the record of what was shown is cleared."""
        raise NotImplementedError

    @property
    def rng(self) -> random.Random:
        """A generator at this state's place, which the state draws from from now on
        (for callers outside the engine that need a plain generator)."""
        raise NotImplementedError

    # --- the named draws ------------------------------------------------------

    def roll(self, name: str, sides: int, public: bool = True) -> int:
        """A die of sides faces numbered from 1: randrange(sides) + 1."""
        value = self.below(sides) + 1
        if public:
            self._show(name, value)
        return value

    def choice(self, name: str, faces: Sequence[T], public: bool = True) -> T:
        """One of faces, each as likely (a die with faces of its own): random.Random.choice."""
        value = faces[self.below(len(faces))]
        if public:
            self._show(name, value)  # faces are hashable
        return value

    def roll_dice(
        self, name: str, dice: Sequence[Sequence[T]], public: bool = True
    ) -> tuple[T, ...]:
        """One face of each die, in order (each die a sequence of faces): `choice` per
        die, recorded as one draw showing the tuple."""
        below = self.below
        rolled = tuple(faces[below(len(faces))] for faces in dice)
        if public:
            self._show(name, rolled)
        return rolled

    def shuffle(self, name: str, items: list[Any], public: bool = False) -> None:
        """items shuffled in place (random.Random.shuffle); public: every seat sees the
        order (cards laid out face up), and it is recorded."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]
        if public:
            self._show(name, tuple(items))

    def draw(self, name: str, counts: Mapping[K, int], total: int, public: bool = True) -> K:
        """One item from a bag holding counts[item] of each (total in all), each piece as
        likely: randrange(total) counted through the bag in its order. The caller
        takes the piece out of its bag."""
        pick = self.below(total)
        for item, count in counts.items():
            if pick < count:
                if public:
                    self._show(name, item)
                return item
            pick -= count
        raise ValueError(f"{name}: the bag holds fewer pieces than {total}")

    def _show(self, name: str, value: Hashable) -> None:
        shown = self.shown
        if shown is None:
            self.shown = [Shown(name, value)]
        else:
            shown.append(Shown(name, value))


def observe(state: Any) -> tuple[Shown, ...]:
    """What chance has shown every seat of state since the last observation (the
    public named draws, in order), and the record cleared: the search's chance
    nodes. A state without a Chance shows nothing."""
    chance: Chance | None = getattr(state, "chance", None)
    if chance is None or chance.shown is None:
        return ()
    shown, chance.shown = tuple(chance.shown), None
    return shown


class SharedChance(Chance):
    """Chance from a generator that copies share until one of them draws (then that
    one clones it first); a re-seeded generator is made only when first drawn
    from. The draws are those of a plain copy: only the cloning and seeding are saved.
    """

    __slots__ = ("_rng", "shared", "seed")

    def __init__(self, rng: random.Random):
        Chance.__init__(self)
        self._rng: random.Random | None = rng
        self.shared = False  # _rng is shared with a copy: clone it before drawing
        self.seed: int | None = None  # with _rng None: the seed to make it from

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self.seed)
        elif self.shared:  # the shared generator is never advanced: clone it first
            own = random.Random.__new__(random.Random)  # unseeded: setstate fills it
            own.setstate(self._rng.getstate())
            self._rng, self.shared = own, False
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self.shared, self.seed = rng, False, None

    def reseed(self, seed: int) -> None:
        self._rng, self.shared, self.seed, self.shown = None, False, seed, None

    def share(self) -> SharedChance:
        new = SharedChance.__new__(SharedChance)
        new._rng, new.seed, new.shared, new.shown = self._rng, self.seed, False, None
        if self._rng is not None:
            self.shared = new.shared = True
        return new

    def unshare(self) -> None:
        """This Chance is the only one reading its generator again (its one copy was
        re-seeded): it draws with no clone first."""
        self.shared = False

    def below(self, n: int) -> int:
        # CPython's Random._randbelow_with_getrandbits, which randrange, choice and
        # shuffle use: getrandbits of the bit length, again while too large
        if n < 1:
            raise ValueError(f"a draw below {n}: expected 1 or more")
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def roll_dice(
        self, name: str, dice: Sequence[Sequence[T]], public: bool = True
    ) -> tuple[T, ...]:
        # below inlined per die: a game that rolls every turn rolls in every playout
        getrandbits = self.rng.getrandbits
        rolled = []
        for faces in dice:
            n = len(faces)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            rolled.append(faces[r])
        result = tuple(rolled)
        if public:
            self._show(name, result)
        return result

    def shuffle(self, name: str, items: list[Any], public: bool = False) -> None:
        shuffle(items, self.rng)
        if public:
            self._show(name, tuple(items))


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


class _Tape:
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
            self.start = source.getstate()  # once a tape: to give a generator (rng)
        word = source.getrandbits(32)
        words.append(word)
        return word


class TapeChance(Chance):
    """Chance from one tape of the generator's 32-bit words that every copy reads from
    its own place: a copy takes the tape and the place, and the first state to
    reach a new place draws that word for all. A draw below n is CPython's
    `Random._randbelow_with_getrandbits` word for word (`getrandbits(k)` for
    k <= 32 is the next word shifted right by 32 - k), so the draws are those of
    `SharedChance`, with no clone of the generator ever made."""

    __slots__ = ("tape", "at")

    def __init__(self, rng: random.Random):
        Chance.__init__(self)
        self.tape, self.at = _Tape(rng), 0

    @property
    def rng(self) -> random.Random:
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
        self.tape, self.at = _Tape(own), 0
        return own

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.tape, self.at = _Tape(rng), 0

    def reseed(self, seed: int) -> None:
        self.tape, self.at, self.shown = _Tape(None, seed), 0, None

    def share(self) -> TapeChance:
        new = TapeChance.__new__(TapeChance)
        new.tape, new.at, new.shown = self.tape, self.at, None
        return new

    def below(self, n: int) -> int:
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

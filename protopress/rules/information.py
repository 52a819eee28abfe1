"""What a seat may know: look-ahead copies that carry no knowledge of the real future.

A bot that looks ahead on a plain copy of the state rolls the dice the game
will roll and draws the cards that really lie on top of the deck. A *seat
copy* is a copy whose chance is re-seeded from the bot's own generator and
whose hidden information is resampled consistently with what the seat sees
(a determinisation). The game declares once, as its engine's `seat_view` (a
`SeatView`), what each seat cannot see: face-down piles (`FaceDown`), zones
private to their owner (`Private`: hands) and cards dealt face down from a
known supply (`Secret`: blueprints, skills to choose from). The determinisation
is derived from that declaration, the same for every bot, and
rules/fairness.check_twins varies every declared field to prove that no bot
reads one. A game without hidden information declares nothing: re-seeding its
chance is all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, TypeVar, overload

from protopress.rules.chance import Chance, SharedChance, shuffle


def seat_copy(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of state as seat may imagine it: chance re-seeded, hidden information resampled."""
    chance = getattr(state, "chance", None)
    alone = chance if isinstance(chance, SharedChance) and not chance.shared else None
    copy = state.copy()
    reseed(copy, rng.getrandbits(64))
    if alone is not None:  # the copy shared the generator, and has a new one: the state
        alone.unshare()  # draws from its own again, with no clone first
    view: SeatView[Any] | None = getattr(game, "seat_view", None)
    if view is not None:
        view.determinize(copy, seat, rng)
    return copy


def judged_in_sight(game: Any, state: Any, seat: int) -> bool:
    """Whether the game's seat view says that its fast `action_values` judges seat's
    decision from what seat sees alone (`SeatView.in_sight`): then the state itself
    gives what a seat copy would."""
    view: SeatView[Any] | None = getattr(game, "seat_view", None)
    return view is not None and view.in_sight is not None and view.in_sight(state, seat)


def reseed(state: Any, seed: int) -> None:
    """Give state's chance a generator of its own, seeded from seed (the copy forgets
    the real one): its `Chance` (rules/chance.py) re-seeded, or, for a state that
    keeps a plain generator as `rng` instead, a new one."""
    chance = getattr(state, "chance", None)
    if isinstance(chance, Chance):
        chance.reseed(seed)
    else:
        state.rng = random.Random(seed)


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


# --- the seat view: what each seat sees, declared once ---------------------------

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class FaceDown(Generic[S]):
    """A pile every seat knows the cards of but none the order (a deck, a face-down stack).

    pile: the state's own list (a copy's own: it is shuffled in place). key: the
    cards' canonical order where they have none of their own (`canonical`).
    laid_out_when_read: the state reads the pile through a `HiddenPile` (a
    `LaidOutWhenRead` state): a seat copy then only gives it a seed, and the pile
    is shuffled when first read (most look-aheads read few of a game's piles).
    known_on_top(state, seat): how many cards on top (the list's end) seat has
    seen and that still lie there (a peek): they stay, the rest is shuffled.
    """

    name: str
    pile: Callable[[S], list[Any]]
    key: Callable[[Any], Any] | None = None
    laid_out_when_read: bool = False
    known_on_top: Callable[[S, int], int] | None = None

    def __post_init__(self) -> None:
        if self.laid_out_when_read and self.known_on_top is not None:
            raise ValueError(f"{self.name}: a pile laid out when read is shuffled whole")

    def names(self, state: S) -> list[str]:
        return [self.name]

    def resample(self, state: S, seat: int, draw: _Draw, only: str | None = None) -> None:
        if draw.lazily and self.laid_out_when_read:
            draw.seeds[self.name] = draw.rng.getrandbits(64)
            return
        cards = self.pile(state)
        if self.known_on_top is None:
            cards[:] = shuffled(cards, draw.rng, self.key)
            return
        below = len(cards) - self.known_on_top(state, seat)
        cards[:below] = shuffled(cards[:below], draw.rng, self.key)

    def top(self, state: S, seat: int) -> int:
        """How many cards on top seat knows (kept out of a pool)."""
        return 0 if self.known_on_top is None else self.known_on_top(state, seat)


@dataclass(frozen=True, slots=True)
class FaceDownEach(Generic[S]):
    """Face-down piles kept by name in one mapping (Stonespine's token pile of each
    element): each is a `FaceDown` named `NAME[KEY]`, in the mapping's order."""

    name: str
    piles: Callable[[S], Mapping[str, list[Any]]]
    key: Callable[[Any], Any] | None = None
    laid_out_when_read: bool = False

    def names(self, state: S) -> list[str]:
        return [f"{self.name}[{element}]" for element in self.piles(state)]

    def resample(self, state: S, seat: int, draw: _Draw, only: str | None = None) -> None:
        if draw.lazily and self.laid_out_when_read:  # the names alone: no pile is read
            for element in self.piles(state):
                name = f"{self.name}[{element}]"
                if only is None or only == name:
                    draw.seeds[name] = draw.rng.getrandbits(64)
            return
        for element, cards in self.piles(state).items():
            if only is None or only == f"{self.name}[{element}]":
                cards[:] = shuffled(cards, draw.rng, self.key)


@dataclass(frozen=True, slots=True)
class Private(Generic[S]):
    """A zone of each seat (a hand) that its owner sees and the others do not, though
    they see how many cards it holds.

    zones: every seat's zone, in seat order (the state's own lists, changed in
    place). pool: the face-down pile the hidden cards could as well lie in (the
    deck they were drawn from): the others' zones and the pile are pooled and
    dealt again by their sizes. open: when every seat sees every zone (Gem
    Rush's Crisis, played with open hands): then only the pool's order is hidden.
    known(state, seat, owner): the cards of owner's zone that seat has
    legitimately seen there (taken face up, or in a hand it passed on): they stay
    where they are, and only the others are pooled. also: more zones of each seat
    hidden alike and pooled with these (a hand and a face-down pick beside it):
    resampled apart, two zones pooled with one pile would each carry into the
    other's result what the first left in the pile.
    """

    name: str
    zones: Callable[[S], Sequence[list[Any]]]
    pool: FaceDown[S] | None = None
    open: Callable[[S], bool] | None = None
    known: Callable[[S, int, int], Sequence[Any]] | None = None
    also: tuple[Callable[[S], Sequence[list[Any]]], ...] = ()

    def names(self, state: S) -> list[str]:
        return [self.name]

    def resample(self, state: S, seat: int, draw: _Draw, only: str | None = None) -> None:
        zones = self.zones(state)
        groups = (zones, *(more(state) for more in self.also))
        others = (
            []
            if self.open is not None and self.open(state)
            else [cards for group in groups for owner, cards in enumerate(group) if owner != seat]
        )
        pool = self.pool
        if not others:  # nothing private to another seat: the pool's order alone is hidden
            if pool is not None:
                pool.resample(state, seat, draw)
            return
        pile: list[Any] = [] if pool is None else pool.pile(state)
        top = 0 if pool is None else pool.top(state, seat)
        if self.known is None and not top:
            redeal(others, pile, draw.rng)
            return
        # what seat knows stays where it is; the rest is pooled and dealt again by place
        places: list[tuple[list[Any], int]] = []
        unknown: list[Any] = []
        for owner, cards in (pair for group in groups for pair in enumerate(group)):
            if owner == seat:
                continue
            known = self.known if cards is zones[owner] else None
            seen = Counter(known(state, seat, owner)) if known is not None else Counter()
            for i, card in enumerate(cards):
                if seen[card] > 0:
                    seen[card] -= 1
                else:
                    places.append((cards, i))
                    unknown.append(card)
        below = len(pile) - top
        dealt = shuffled(unknown + pile[:below], draw.rng, None if pool is None else pool.key)
        for (cards, i), card in zip(places, dealt, strict=False):
            cards[i] = card
        pile[:below] = dealt[len(places) :]


@dataclass(frozen=True, slots=True)
class Secret(Generic[S]):
    """Cards dealt face down to each seat from a supply every seat knows (Stonespine's
    blueprints, Gem Rush's skills dealt to choose from): the owner knows its own,
    the others only what `shows` shows of each (a blueprint's entrance, marked on
    the dungeon), and that they are none of the cards they see.

    held: each seat's cards still secret, in seat order. deal(state, seat, cards):
    give seat those cards instead of its secret ones, in the same places.
    out_of_play: the supply's cards no seat holds (still in the box, never shown);
    read, never changed: derive it from the supply and the cards dealt.
    shows: what the others see of a card (hashable, with an order of its own);
    None: nothing. key: the cards' canonical order, as for `FaceDown`.
    """

    name: str
    held: Callable[[S], Sequence[Sequence[Any]]]
    deal: Callable[[S, int, Sequence[Any]], None]
    out_of_play: Callable[[S], Sequence[Any]]
    shows: Callable[[Any], Any] | None = None
    key: Callable[[Any], Any] | None = None

    def names(self, state: S) -> list[str]:
        return [self.name]

    def resample(self, state: S, seat: int, draw: _Draw, only: str | None = None) -> None:
        held = self.held(state)
        owners = [owner for owner, cards in enumerate(held) if owner != seat and cards]
        if not owners:
            return
        shows = self.shows or _nothing
        faces = [[shows(card) for card in held[owner]] for owner in owners]
        # the cards each face the others show could be (only the faces shown: a card
        # of another face could not be there), shuffled face by face in canonical order
        classes: dict[Any, list[Any]] = {face: [] for row in faces for face in row}
        for cards in (*(held[owner] for owner in owners), self.out_of_play(state)):
            for card in cards:
                pool = classes.get(shows(card))
                if pool is not None:
                    pool.append(card)
        rng = draw.rng
        dealt = {face: shuffled(classes[face], rng, self.key) for face in canonical(list(classes))}
        for owner, row in zip(owners, faces, strict=True):
            self.deal(state, owner, [dealt[face].pop() for face in row])


def _nothing(card: Any) -> None:
    return None


@dataclass(slots=True)
class _Draw:
    """One determinisation's generator, and the seeds of the piles it leaves to be
    laid out when read (lazily: a seat copy's; else all are shuffled at once)."""

    rng: random.Random
    lazily: bool
    seeds: dict[str, int] = field(default_factory=dict)


Hidden = FaceDown[S] | FaceDownEach[S] | Private[S] | Secret[S]


@dataclass(frozen=True, slots=True)
class SeatView(Generic[S]):
    """What each seat of a game sees, declared once on the engine as `seat_view`.

    Everything not declared hidden is open to every seat. The kit derives the
    bots' determinisation from it (`determinize`), and fairness.check_twins varies
    every declared field to prove that no bot reads a hidden one.

    in_sight(state, seat): optional, with a fast `action_values`: whether that
    judges seat's decision from what seat sees alone (no hidden field read, no
    chance drawn); the greedy bot then judges it on the state without a seat copy.
    check_twins holds it to that: the same decision whatever the hidden fields.
    """

    hidden: tuple[Hidden[S], ...]
    in_sight: Callable[[S, int], bool] | None = None

    def fields(self, state: S) -> list[str]:
        """The names of the hidden fields of state, in declaration order."""
        return [name for entry in self.hidden for name in entry.names(state)]

    def determinize(
        self, state: S, seat: int, rng: random.Random, only: str | None = None, lazily: bool = True
    ) -> None:
        """Resample in state (a copy) what seat cannot see, consistently with what it
        sees: every hidden field in declaration order, or only the one named.

        Every pool is put in canonical order before it is shuffled, so that two
        states seat cannot tell apart give the same result for one rng. lazily:
        piles laid out when read get a seed now (eagerly: shuffled now, as for
        a twin state that must be complete).
        """
        draw = _Draw(rng, lazily)
        if only is None:
            for entry in self.hidden:
                entry.resample(state, seat, draw)
        else:
            for entry in self.hidden:
                if only in entry.names(state):
                    entry.resample(state, seat, draw, only)
        if isinstance(state, LaidOutWhenRead):  # the seeds of the piles laid out when read
            if only is None:
                state.unshuffled = draw.seeds
            elif only in state.unshuffled or draw.seeds:
                kept = {k: v for k, v in state.unshuffled.items() if k != only}
                state.unshuffled = kept | draw.seeds


class LaidOutWhenRead:
    """A state whose face-down piles a seat copy lays out only when first read: each
    read through a `HiddenPile` (or `laid_out`), `unshuffled` holding the seed of
    each pile not laid out yet, by its name in the seat view. The state's class
    declares the `unshuffled` slot and sets it to {} at setup."""

    __slots__ = ()
    unshuffled: dict[str, int]  # never changed in place: copies share it

    def laid_out(self, name: str, pile: list[Any]) -> list[Any]:
        """pile, shuffled in place first if it is still unshuffled: from canonical
        order with its own seed, so every copy lays it out alike whenever it reads it."""
        seed = self.unshuffled.get(name)
        if seed is not None:
            pile[:] = shuffled(pile, random.Random(seed))
            self.forget_seed(name)
        return pile

    def forget_seed(self, name: str) -> None:
        """The pile name counts as laid out (read, or set anew)."""
        if name in self.unshuffled:  # the slot is the state class's own (see above)
            self.unshuffled = {k: v for k, v in self.unshuffled.items() if k != name}  # type: ignore[misc]


class HiddenPile:
    """A face-down pile of a `LaidOutWhenRead` state, kept in the slot of its name with
    a leading underscore: read, it is first laid out if still unshuffled; set, it
    counts as laid out."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.slot = name, f"_{name}"

    @overload
    def __get__(self, state: None, owner: type | None = None) -> HiddenPile: ...
    @overload
    def __get__(self, state: LaidOutWhenRead, owner: type | None = None) -> list[Any]: ...
    def __get__(
        self, state: LaidOutWhenRead | None, owner: type | None = None
    ) -> HiddenPile | list[Any]:
        if state is None:
            return self
        return state.laid_out(self.name, getattr(state, self.slot))

    def __set__(self, state: LaidOutWhenRead, pile: list[Any]) -> None:
        setattr(state, self.slot, pile)
        state.forget_seed(self.name)

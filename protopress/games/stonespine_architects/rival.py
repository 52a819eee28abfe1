"""Stonespine Architects solo mode: the automated rival, as pure logic.

No I/O and no game loop: the rival is a small object that a driver asks and
tells things. Two drivers use it: the virtual solo game in `stonespine.py`
(bots, `simulate`) and an interactive session at the table, where the cards
and tokens are physical and the person reports what was revealed or drawn.
Rulings: docs/rules/stonespine-architects.md ("Solo mode").

A year with the rival, driver's view:

    card = rival.begin_year()            # reveal the top rival card (or pass the
                                         # card turned over at the table)
    # construction, each turn: the player places one card and keeps one; the
    # cards neither placed nor kept are offered to the rival
    taken = rival.offer_chambers(cards)  # those showing its symbol go to its pile
    # improvement: after counting gold, and again after every purchase
    verdict = rival.market_verdict(gold) # VISIT, COLLECT or PASS
    # COLLECT: draw the elements rival.card_tokens() from the supply, then
    rival.collect(tokens)                # and the player discards the challenge
    lowest_challenge([points, ...])      # at this index of the face-up display
    # the player passes: the rival takes every token left on the market
    rival.take_market(tokens)
    gold = gold_after_pass(year, gold)   # 0 in years 1-3, unchanged in year 4
    # the end: the player's sheet, the rival's reputation and who won
    result = score_solo(scoring, dungeon, rival, gold=..., goal_elements=..., ...)

Everything the rival owns is plain data (`RivalCard`, `ChamberCard`, `Token`),
`copy()` is shallow, and `to_json()` shows its piles.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from protopress.games.stonespine_architects.dungeon import Dungeon, PathScore
from protopress.games.stonespine_architects.rulebook import CHALLENGE_YEARS
from protopress.games.stonespine_architects.scoring import (
    Challenge,
    ChamberCard,
    Position,
    ScoreSheet,
    Scoring,
    Token,
    score_dungeon,
    solo_goal_place,
    solo_gold_place,
)
from protopress.games.stonespine_architects.spec import DIFFICULTIES

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog, Component

# Rival card difficulties in each deck: normal removes the legendary cards,
# hard swaps the diamond cards for the legendary ones.
DECKS = {"normal": ("plain", "diamond"), "hard": ("plain", "legendary")}

VISIT = "visit"  # the player has more gold than the rival card: buy or pass
COLLECT = "collect"  # not more gold: the rival collects its card's tokens, the
#                      player discards the lowest challenge, then must pass
PASS = "pass"  # the rival has collected this year: the player must pass


@dataclass(frozen=True, slots=True)
class RivalCard:
    id: str
    title: str
    symbol: str  # chamber cards with this symbol go to the rival's pile
    gold: int  # the player needs more gold than this to visit the market
    tokens: tuple[str, ...]  # elements collected when the player does not beat the gold
    difficulty: str  # plain, diamond or legendary
    base: int  # base reputation
    counts: str  # condition: "chambers" or "tokens"
    element: str | None  # condition: the token element counted
    points: int  # condition: reputation per counted item

    @classmethod
    def of(cls, component: Component) -> RivalCard:
        reputation = component["reputation"]
        condition = reputation["condition"]
        return cls(
            id=component.id,
            title=component.get("title", component.id),
            symbol=component["symbol"],
            gold=component["gold"],
            tokens=tuple(component["tokens"]),
            difficulty=component["difficulty"],
            base=reputation["base"],
            counts=condition["counts"],
            element=condition.get("element"),
            points=condition["points"],
        )


def rival_cards(catalog: Catalog) -> tuple[RivalCard, ...]:
    """Every rival card of a catalog, each copy separately, in catalog order."""
    return tuple(RivalCard.of(c) for c in catalog.of_kind("rival-card") for _ in range(c.count))


def deck_cards(cards: Iterable[RivalCard], difficulty: str) -> list[RivalCard]:
    """The rival cards in play at a difficulty, unshuffled, in catalog order."""
    if difficulty not in DECKS:
        raise ValueError(
            f"unknown difficulty {difficulty!r}; difficulties: {', '.join(DIFFICULTIES)}"
        )
    kept = DECKS[difficulty]
    deck = [card for card in cards if card.difficulty in kept]
    if not deck:
        raise ValueError(f"no rival cards for a {difficulty} game")
    return deck


def build_deck(cards: Iterable[RivalCard], difficulty: str, rng: random.Random) -> list[RivalCard]:
    """The shuffled face-down deck of a difficulty, top card first."""
    deck = deck_cards(cards, difficulty)
    rng.shuffle(deck)
    return deck


class RivalReputation(NamedTuple):
    base: int  # of the card face up at the end (the last revealed)
    condition: int  # that card's condition on the rival's piles
    chamber_stars: int  # stars on its chamber cards
    token_stars: int  # stars on its market tokens

    @property
    def total(self) -> int:
        return self.base + self.condition + self.chamber_stars + self.token_stars


class SoloOutcome(NamedTuple):
    player: int  # the player's final total
    rival: int  # the rival's reputation
    margin: int  # player - rival
    won: bool  # more than the rival: ties go to the rival


def solo_outcome(player_total: int, rival_total: int) -> SoloOutcome:
    return SoloOutcome(
        player_total, rival_total, player_total - rival_total, player_total > rival_total
    )


class SoloResult(NamedTuple):
    sheet: ScoreSheet  # the player's; its priority category is final gold (ranks.solo_gold)
    rival: RivalReputation
    outcome: SoloOutcome


def score_solo(
    scoring: Scoring,
    dungeon: Dungeon,
    rival: Rival,
    *,
    gold: int,
    goal_elements: Iterable[str],
    blueprint: Iterable[Position] | None = None,
    challenges: Iterable[int | Challenge] = (),
    paths: PathScore | None = None,
) -> SoloResult:
    """Solo final scoring: as multiplayer, but final gold against the face-up rival
    card replaces priority, the goal is judged against the rival's piles (ties to
    the rival), and the player wins with more points than the rival's reputation."""
    goal_elements = tuple(goal_elements)
    mine = sum(scoring.element_count(dungeon, element) for element in goal_elements)
    sheet = score_dungeon(
        scoring,
        dungeon,
        blueprint=blueprint,
        priority_place=solo_gold_place(gold, rival._current().gold),
        goal_place=solo_goal_place(mine, rival.goal_count(goal_elements)),
        challenges=challenges,
        solo=True,
        paths=paths,
    )
    reputation = rival.reputation()
    return SoloResult(sheet, reputation, solo_outcome(sheet.total, reputation.total))


def lowest_challenge(points: Sequence[int]) -> int | None:
    """Index of the face-up challenge to discard: the lowest value, leftmost on a tie."""
    if not points:
        return None
    return min(range(len(points)), key=lambda i: (points[i], i))


def gold_after_pass(year: int, gold: int) -> int:
    """The player's gold after passing: reset to 0 in years 1-3, kept in year 4."""
    return 0 if year <= CHALLENGE_YEARS else gold


class PileSums(NamedTuple):
    """What the rival's two piles add up to, for its reputation."""

    chambers: int  # cards in the chamber pile
    tokens: int  # tokens in the token pile
    chamber_stars: int
    token_stars: int
    elements: dict[str, int]  # tokens by element (read only)

    @classmethod
    def of(cls, chambers: Sequence[ChamberCard], tokens: Sequence[Token]) -> PileSums:
        elements: dict[str, int] = {}
        for token in tokens:
            elements[token.element] = elements.get(token.element, 0) + 1
        return cls(
            len(chambers),
            len(tokens),
            sum(chamber.stars for chamber in chambers),
            sum(token.stars for token in tokens),
            elements,
        )

    def plus(self, other: PileSums) -> PileSums:
        """The sums of both piles' cards and tokens together."""
        elements = dict(self.elements)
        for element, count in other.elements.items():
            elements[element] = elements.get(element, 0) + count
        return PileSums(
            self.chambers + other.chambers,
            self.tokens + other.tokens,
            self.chamber_stars + other.chamber_stars,
            self.token_stars + other.token_stars,
            elements,
        )


class _Remembered(NamedTuple):
    """A reputation worked out, and what from: the face-up card and the piles' lengths
    (the piles only grow, so equal lengths are equal piles)."""

    key: tuple[RivalCard, int, int]
    reputation: RivalReputation


class Rival:
    """The rival's deck, its revealed cards and its two score piles."""

    __slots__ = (
        "difficulty", "deck", "revealed", "chambers", "tokens", "collected_this_year", "_memo",
        "_sums",
    )  # fmt: skip

    def __init__(self, deck: Sequence[RivalCard], difficulty: str = "normal"):
        if difficulty not in DECKS:
            raise ValueError(
                f"unknown difficulty {difficulty!r}; difficulties: {', '.join(DIFFICULTIES)}"
            )
        self.difficulty = difficulty
        self.deck: list[RivalCard] = list(deck)  # face down, top first
        self.revealed: list[RivalCard] = []  # one per year, the current one last
        self.chambers: list[ChamberCard] = []  # its chamber score pile
        self.tokens: list[Token] = []  # its market token score pile
        self.collected_this_year = False
        self._memo: _Remembered | None = None
        self._sums: PileSums | None = None  # of the piles as long as they were then

    @classmethod
    def shuffled(cls, catalog: Catalog, difficulty: str, rng: random.Random) -> Rival:
        """A rival with the catalog's deck for `difficulty`, shuffled with rng."""
        return cls(build_deck(rival_cards(catalog), difficulty, rng), difficulty)

    def copy(self) -> Rival:
        if self.revealed:
            self.reputation()  # remembered here, so copies start with it
        new = object.__new__(Rival)
        new.difficulty = self.difficulty
        new.deck = self.deck[:]
        new.revealed = self.revealed[:]
        new.chambers = self.chambers[:]
        new.tokens = self.tokens[:]
        new.collected_this_year = self.collected_this_year
        new._memo = self._memo
        new._sums = self._sums
        return new

    # the year

    @property
    def card(self) -> RivalCard | None:
        """The face-up rival card (the last revealed), None before the first year."""
        return self.revealed[-1] if self.revealed else None

    @property
    def face_up(self) -> RivalCard:
        """The face-up rival card, for steps that come after the first reveal."""
        if not self.revealed:
            raise ValueError("no rival card is face up yet")
        return self.revealed[-1]

    @property
    def year(self) -> int:
        return len(self.revealed)

    def begin_year(self, card: RivalCard | None = None) -> RivalCard:
        """Reveal the top card, or record `card` as revealed (a physical deck at the table)."""
        if card is None:
            if not self.deck:
                raise ValueError("the rival deck is empty")
            card = self.deck.pop(0)
        elif card in self.deck:
            self.deck.remove(card)
        self.revealed.append(card)
        self.collected_this_year = False
        return card

    def _current(self) -> RivalCard:
        if not self.revealed:
            raise ValueError("no rival card is revealed yet: begin_year() first")
        return self.revealed[-1]

    # construction

    def wants(self, chamber: ChamberCard) -> bool:
        """Whether a chamber card the player leaves goes to the rival's pile."""
        return chamber.symbol == self._current().symbol

    def offer_chambers(self, chambers: Iterable[ChamberCard]) -> list[ChamberCard]:
        """The player leaves these cards (neither placed nor kept): the rival takes
        those showing its symbol; the caller discards the rest."""
        taken = [chamber for chamber in chambers if self.wants(chamber)]
        self.chambers.extend(taken)
        return taken

    # improvement

    def market_verdict(self, gold: int) -> str:
        """What the player may do with this much gold: VISIT, COLLECT or PASS.

        Asked after counting gold and again after every purchase. COLLECT comes
        once a year, the first time the player does not have more gold than
        the card; the driver then calls `collect` and the player must pass.
        """
        if self.collected_this_year:
            return PASS
        return VISIT if gold > self._current().gold else COLLECT

    def card_tokens(self) -> tuple[str, ...]:
        """The elements on the face-up card: what the rival collects on COLLECT."""
        return self._current().tokens

    def collect(self, tokens: Iterable[Token]) -> None:
        """The tokens drawn from the supply for the card's elements (COLLECT)."""
        self.tokens.extend(tokens)
        self.collected_this_year = True

    def take_market(self, tokens: Iterable[Token]) -> None:
        """Every token left on the market when the player passes."""
        self.tokens.extend(tokens)

    # the end

    def goal_count(self, elements: Iterable[str]) -> int:
        """Named elements in the rival's piles: printed on its chambers and its tokens."""
        named = set(elements)
        printed = sum(e in named for chamber in self.chambers for e in chamber.elements)
        return printed + sum(token.element in named for token in self.tokens)

    def reputation(self) -> RivalReputation:
        """Base and condition of the face-up card plus the stars in its piles."""
        card = self._current()
        key = (card, len(self.chambers), len(self.tokens))
        memo = self._memo
        if memo is not None and memo.key == key:
            return memo.reputation
        result = self.reputation_with()
        self._memo = _Remembered(key, result)
        return result

    def reputation_with(
        self,
        chambers: Sequence[ChamberCard] = (),
        tokens: Sequence[Token] = (),
        card: RivalCard | None = None,
    ) -> RivalReputation:
        """The reputation were these chambers and tokens added to its piles and,
        if given, card face up (a look-ahead's question)."""
        card = card or self._current()
        sums = self._pile_sums()
        chamber_stars, token_stars = sums.chamber_stars, sums.token_stars
        for chamber in chambers:  # loops, not generators: a few items, asked per action
            chamber_stars += chamber.stars
        by_element = card.counts != "chambers"
        if not by_element:
            counted = sums.chambers + len(chambers)
        else:
            counted = sums.elements.get(card.element, 0) if card.element is not None else 0
        for token in tokens:
            token_stars += token.stars
            if by_element and token.element == card.element:
                counted += 1
        return RivalReputation(card.base, counted * card.points, chamber_stars, token_stars)

    def _pile_sums(self) -> PileSums:
        """The piles' sums, added to when a pile has grown (piles only grow, at
        their ends: the look-ahead asks the reputation many times a decision)."""
        sums = self._sums
        if sums is None:
            sums = self._sums = PileSums.of(self.chambers, self.tokens)
        elif sums.chambers != len(self.chambers) or sums.tokens != len(self.tokens):
            grown = PileSums.of(self.chambers[sums.chambers :], self.tokens[sums.tokens :])
            sums = self._sums = sums.plus(grown)
        return sums

    def to_json(self) -> dict:
        reputation = self.reputation() if self.revealed else None
        return {
            "difficulty": self.difficulty,
            "card": self.card.id if self.card else None,
            "revealed": [card.id for card in self.revealed],
            "deck": len(self.deck),
            "chambers": [chamber.id for chamber in self.chambers],
            "tokens": [token.id for token in self.tokens],
            "reputation": reputation._asdict() | {"total": reputation.total}
            if reputation
            else None,
        }

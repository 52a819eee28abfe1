"""Stonespine Architects' state: what stays fixed during a game (Table), what
changes (StonespineState and each player's Board, cheap to copy, with the facts a
board keeps until a chamber changes) and the hidden piles a seat copy lays out
when first read. The rules that change a state are in rules.py."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from protopress.games.stonespine_architects.actions import Interned
from protopress.games.stonespine_architects.dungeon import SIZE, Chamber, Dungeon, PathScore
from protopress.games.stonespine_architects.heuristic import Tally, path_score_of
from protopress.games.stonespine_architects.placement import Room, is_edge, room
from protopress.games.stonespine_architects.rival import (
    Rival,
    RivalCard,
    build_deck,
    rival_cards,
    score_solo,
)
from protopress.games.stonespine_architects.rulebook import HAND, MIN_MARKET, SOLO_PLAYERS, YEARS
from protopress.games.stonespine_architects.scoring import (
    Blueprint,
    Challenge,
    ChamberCard,
    Goal,
    ScoreSheet,
    Scoring,
    Token,
    goal_places,
    score_dungeon,
)
from protopress.rules.chance import SharedChance
from protopress.rules.information import HiddenPile, LaidOutWhenRead

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog

CELLS = SIZE * SIZE
EMPTY = Chamber()
SOLO_CARDS_PER_YEAR = HAND + 3 + 2 + 1  # the hand, then one card per open spot after each turn


class MarketRow(NamedTuple):
    """One row of a market card: its cost and the elements of the tokens drawn into it."""

    cost: int
    elements: tuple[str, ...]


class MarketCard(NamedTuple):
    id: str
    min_players: int
    rows: tuple[MarketRow, ...]


class Offer(NamedTuple):
    """One market row on the table: card, row, cost and the tokens drawn into it."""

    card: int
    row: int
    cost: int
    tokens: tuple[int, ...]


@dataclass(frozen=True)
class Table:
    """What stays fixed during a game: the components, the scoring, the mode."""

    scoring: Scoring
    cards: tuple[ChamberCard, ...]
    chambers: tuple[Chamber, ...]  # each card as a chamber freshly laid, by card index
    card_index: dict[str, int]
    deck: tuple[int, ...]  # every chamber copy, by index into cards
    tokens: tuple[Token, ...]
    piles: dict[str, tuple[int, ...]]  # token copies by element
    markets: tuple[MarketCard, ...]  # the market cards in use
    market_count: int  # laid out per year
    challenges: tuple[Challenge, ...]  # every copy
    challenge_count: int  # flipped per year
    goals: tuple[Goal, ...]
    blueprints: tuple[Blueprint, ...]
    rival_cards: tuple[RivalCard, ...]
    chest_gold: dict[str, int]  # gold per year by element
    players: int
    solo: bool
    difficulty: str
    # the actions its decisions list, each built once: legal_actions hands these out
    actions: Interned = field(compare=False, repr=False)

    @classmethod
    def of(cls, catalog: Catalog, players: int, solo: bool, difficulty: str) -> Table:
        scoring = Scoring.of(catalog)
        cards = tuple(ChamberCard.of(c) for c in catalog.of_kind("chamber-card"))
        counts = {c.id: c.count for c in catalog.of_kind("chamber-card")}
        tokens = tuple(Token.of(t) for t in catalog.of_kind("market-token"))
        token_counts = [t.count for t in catalog.of_kind("market-token")]
        piles: dict[str, list[int]] = {}
        for index, (token, count) in enumerate(zip(tokens, token_counts, strict=True)):
            piles.setdefault(token.element, []).extend([index] * count)
        table_players = SOLO_PLAYERS if solo else players
        markets = tuple(
            MarketCard(
                m.id,
                m.get("min_players", 1),
                tuple(MarketRow(row["cost"], tuple(row["tokens"])) for row in m["rows"]),
            )
            for m in catalog.of_kind("market-card")
            if m.get("min_players", 1) <= table_players
        )
        table = cls(
            scoring=scoring,
            cards=cards,
            chambers=tuple(Chamber(c.doors, frozenset(), c.elements, c.stars) for c in cards),
            card_index={card.id: i for i, card in enumerate(cards)},
            deck=tuple(i for i, card in enumerate(cards) for _ in range(counts[card.id])),
            tokens=tokens,
            piles={element: tuple(pile) for element, pile in piles.items()},
            markets=markets,
            market_count=max(MIN_MARKET, table_players + 1),
            challenges=tuple(
                Challenge.of(c) for c in catalog.of_kind("challenge-card") for _ in range(c.count)
            ),
            challenge_count=table_players + 1,
            goals=tuple(Goal.of(g) for g in catalog.of_kind("goal-card")),
            blueprints=tuple(Blueprint.of(b) for b in catalog.of_kind("blueprint-card")),
            rival_cards=rival_cards(catalog) if solo else (),
            chest_gold={
                e.id: e.get("gold_per_year", 0)
                for e in catalog.of_kind("element")
                if e.get("gold_per_year", 0)
            },
            players=players,
            solo=solo,
            difficulty=difficulty,
            actions=Interned(
                [card.id for card in cards],
                max((len(row.elements) for m in markets for row in m.rows), default=0),
            ),
        )
        table._check(catalog)
        return table

    def _check(self, catalog: Catalog) -> None:
        per_year = SOLO_CARDS_PER_YEAR if self.solo else HAND * self.players
        needs = {
            "chamber cards": (len(self.deck), per_year * YEARS),
            "goal cards": (len(self.goals), 1),
            "blueprint cards": (len(self.blueprints), self.players),
        }
        for what, (have, need) in needs.items():
            if have < need:
                raise ValueError(f"{catalog.path}: {need} {what} needed, the catalog has {have}")
        if self.solo:
            build_deck(self.rival_cards, self.difficulty, random.Random(0))  # raises if none

    def card_id(self, index: int) -> str:
        return self.cards[index].id


def _targets(blueprint: Blueprint) -> dict[int, tuple[str, ...]]:
    """The blueprint's elements by cell."""
    targets: dict[int, tuple[str, ...]] = {}
    for p in blueprint.positions:
        targets[p.row * SIZE + p.col] = (*targets.get(p.row * SIZE + p.col, ()), p.element)
    return targets


class Board:
    """One player's dungeon, hand, gold, blueprint and claimed challenges."""

    __slots__ = (
        "cards", "chambers", "placed", "hand", "gold", "blueprint", "targets", "challenges",
        "paths", "tallies", "rooms",
    )  # fmt: skip

    def __init__(self, blueprint: Blueprint):
        self.cards = [-1] * CELLS  # chamber card index per cell, -1 while empty
        self.chambers = [EMPTY] * CELLS  # what scoring sees, per cell
        self.placed: list[tuple[int, ...]] = [()] * CELLS  # token indices per cell
        self.hand: list[int] = []
        self.gold = 0
        self.blueprint = blueprint
        self.targets = _targets(blueprint)
        self.challenges: list[Challenge] = []
        # cached path_score in a one-item list, shared by the copies holding the same
        # chambers (a change gives the changed board a fresh one): look-ahead copies fill it
        self.paths: list[PathScore | None] = [None]
        # likewise the cached Tally, renewed by any change to a chamber
        self.tallies: list[Tally | None] = [None]
        # and where a token of each kind fits (by is_edge; the look-ahead's), forgotten likewise
        self.rooms: dict[bool, Room] = {}

    def deal_blueprint(self, blueprint: Blueprint) -> None:
        """Hold blueprint instead (a seat copy's guess at another seat's secret one):
        its targets, and facts of its own where the blueprint counts."""
        self.blueprint, self.targets = blueprint, _targets(blueprint)
        self.paths, self.tallies = [None], [None]

    def copy(self) -> Board:
        new = object.__new__(Board)
        new.cards = self.cards[:]
        new.chambers = self.chambers[:]
        new.placed = self.placed[:]
        new.hand = self.hand[:]
        new.gold = self.gold
        new.blueprint, new.targets = self.blueprint, self.targets
        new.challenges = self.challenges[:]
        new.paths = self.paths
        new.tallies = self.tallies
        new.rooms = self.rooms
        return new

    def dungeon(self) -> Dungeon:
        c = self.chambers
        rows = tuple(tuple(c[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
        return Dungeon(rows, self.blueprint.entrance, self.blueprint.exit)

    def path(self, table: Table) -> PathScore:
        paths = self.paths[0]
        if paths is None:
            paths = self.paths[0] = path_score_of(self.tally(table), self.blueprint)
        return paths

    def tally(self, table: Table) -> Tally:
        tally = self.tallies[0]
        if tally is None:
            tally = self.tallies[0] = Tally.of(table.scoring, self.chambers, self.blueprint)
        return tally

    def room(self, table: Table, token: int) -> Room:
        """Where the token fits in this dungeon, kept until a chamber changes per kind
        of token (a slot element or a secret passage: where one fits does not
        depend on which element it is)."""
        edge = is_edge(table, token)
        found = self.rooms.get(edge)
        if found is None:
            found = self.rooms[edge] = room(table, self.cards, self.chambers, token)
        return found

    def put_chamber(self, table: Table, cell: int, chamber: Chamber, geometry: bool) -> None:
        """Replace the chamber in cell: a fresh tally (the old one changed in that cell,
        if it was known), and the path score forgotten if doors or passages changed."""
        old, tally = self.chambers[cell], self.tallies[0]
        self.chambers[cell] = chamber
        if tally is not None:
            tally = tally.with_chamber(
                table.scoring, cell, old, chamber, self.targets.get(cell, ())
            )
        self.tallies = [tally]
        self.rooms = {}
        if geometry:
            self.paths = [None]


class StonespineState(LaidOutWhenRead):
    """One game: the boards, the decks and piles, the market and whose decision it is.

    Every random choice is made at setup: the chamber, market, challenge and rival
    decks and the token piles are shuffled then and drawn from the top later. So
    the generator is never drawn from after setup: copies share it, and a seat
    copy's new one is never made (`SharedChance`).

    A seat copy's face-down piles are laid out when first read (the engine's seat
    view declares them `laid_out_when_read`): the chamber deck, the market and
    challenge decks and each token pile are read through `deck`, `market_deck`,
    `challenge_deck` and `pile(element)`, which shuffle a pile still listed in
    `unshuffled` from its seed first (`LaidOutWhenRead`).
    """

    __slots__ = (
        "chance", "table", "turns", "year", "phase", "draft", "mover", "boards", "_deck",
        "_piles", "_market_deck", "market", "_challenge_deck", "display", "goal", "priority",
        "new_priority", "order", "passed", "pending", "keeping", "must_pass", "rival",
        "discarded", "final", "unshuffled",
    )  # fmt: skip

    chance: SharedChance
    table: Table
    turns: int
    year: int
    phase: str  # CONSTRUCT, IMPROVE or OVER
    draft: int
    mover: int
    boards: list[Board]
    _deck: list[int]  # chamber card indices, drawn from the end
    _piles: dict[str, list[int]]  # token indices by element, drawn from the end
    _market_deck: list[int]
    market: list[Offer]
    _challenge_deck: list[int]
    display: list[int]  # face-up challenge indices
    goal: Goal
    priority: list[int]
    new_priority: list[int]
    order: list[int]
    passed: list[bool]
    pending: list[int]  # bought token indices still to place
    keeping: bool
    must_pass: bool
    rival: Rival | None  # solo only
    discarded: int
    final: list[ScoreSheet] | None
    # hidden piles not laid out yet, by name ("deck", "market_deck", "challenge_deck",
    # "piles[ELEMENT]"), each with the seed of its shuffle; never changed in place
    unshuffled: dict[str, int]

    def copy(self) -> StonespineState:
        new = object.__new__(StonespineState)
        new.table = self.table
        new.chance = self.chance.share()  # drawn from at setup only: see StonespineState
        new.turns, new.year, new.phase = self.turns, self.year, self.phase
        new.draft, new.mover, new.goal = self.draft, self.mover, self.goal
        new.keeping, new.must_pass, new.discarded = self.keeping, self.must_pass, self.discarded
        new.boards = [board.copy() for board in self.boards]
        new.unshuffled = self.unshuffled  # unshuffled piles are laid out alike in copies
        new._deck = self._deck[:]
        new._piles = {element: pile[:] for element, pile in self._piles.items()}
        new._market_deck = self._market_deck[:]
        new.market = self.market[:]
        new._challenge_deck = self._challenge_deck[:]
        new.display = self.display[:]
        new.priority = self.priority[:]
        new.new_priority = self.new_priority[:]
        new.order = self.order[:]
        new.passed = self.passed[:]
        new.pending = self.pending[:]
        new.rival = self.rival.copy() if self.rival is not None else None
        new.final = self.final
        return new

    # the chamber deck and the market and challenge decks (card indices, drawn
    # from the end), laid out when first read
    deck = HiddenPile()
    market_deck = HiddenPile()
    challenge_deck = HiddenPile()

    def pile(self, element: str) -> list[int] | None:
        """The token pile of an element (drawn from the end), None if it has none."""
        pile = self._piles.get(element)
        if pile is None:
            return None
        return self.laid_out(f"piles[{element}]", pile)

    @property
    def piles(self) -> dict[str, list[int]]:
        """Every token pile by element, laid out."""
        for element in self._piles:
            self.pile(element)
        return self._piles

    @piles.setter
    def piles(self, piles: dict[str, list[int]]) -> None:
        self._piles = piles
        self.unshuffled = {k: v for k, v in self.unshuffled.items() if not k.startswith("piles[")}

    @property
    def row(self) -> int:
        """This year's row of the dungeon."""
        return self.year - 1

    def sheets(self) -> list[ScoreSheet]:
        """Final score sheets (provisional before the end: as if the game ended now)."""
        if self.final is not None:
            return self.final
        return score_sheets(self)


def score_sheets(state: StonespineState) -> list[ScoreSheet]:
    """Each seat's score sheet, as if the game ended now (solo: against the rival)."""
    table = state.table
    scoring = table.scoring
    dungeons = [board.dungeon() for board in state.boards]
    if table.solo:
        board = state.boards[0]
        result = score_solo(
            scoring,
            dungeons[0],
            rival_of(state),
            gold=board.gold,
            goal_elements=state.goal.elements,
            blueprint=board.blueprint.positions,
            challenges=board.challenges,
            paths=board.path(table),
        )
        return [result.sheet]
    counts = [sum(scoring.element_count(d, e) for e in state.goal.elements) for d in dungeons]
    position = priority_positions(state)
    goals = goal_places(counts, position)
    return [
        score_dungeon(
            scoring,
            dungeons[seat],
            blueprint=board.blueprint.positions,
            priority_place=position[seat] + 1,
            goal_place=goals[seat],
            challenges=board.challenges,
            paths=board.path(table),
        )
        for seat, board in enumerate(state.boards)
    ]


def priority_positions(state: StonespineState) -> list[int]:
    """Each seat's position on the priority track (0 is first)."""
    position = [0] * state.table.players
    for place, seat in enumerate(state.priority):
        position[seat] = place
    return position


def rival_of(state: StonespineState) -> Rival:
    """The automated rival, which every solo game has from setup on."""
    if state.rival is None:
        raise RuntimeError("a solo game's state has no rival")
    return state.rival

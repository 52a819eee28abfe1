"""Stonespine Architects: four years of drafting chamber cards into a 4x4
dungeon and buying tokens at the market, for 2-5 players or solo against the
automated rival. Rulings: docs/rules/stonespine-architects.md.

Decisions (actions):

    ("place", card_id, column)          construction: a card from hand into this year's row
    ("keep", card_id)                   solo construction: the card kept for the next turn
    ("buy", market_card_id, row)        improvement: buy a market row (0-based) ...
    ("put", token_index, row, col)      ... then place each token: a slot element
    ("put", token_index, row, col, edge)      or a secret passage on an edge
    ("pass", challenge_id) / ("pass",)  stop buying: claim a challenge (years 1-3)

Paths come from `protopress.games.stonespine_architects.dungeon` and final scores from
`stonespine_scoring`; the solo rival is `stonespine_rival.Rival`. A state keeps
each chamber as an immutable `dungeon.Chamber`, so a copy copies lists of
references, and it caches each dungeon's path score until a chamber card or
a secret passage changes it.
"""

# Over 600 lines on purpose: the year's phases (construction, improvement, market,
# cleanup) act on one state and are read in order; scoring, the rival, the dungeon
# graph and the rulebook's numbers are modules of their own.

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from protopress.games.stonespine_architects.dungeon import (
    EDGES,
    MAX_ELEMENTS,
    SIZE,
    Chamber,
    Dungeon,
    PathScore,
)
from protopress.games.stonespine_architects.lookahead import (
    Tally,
    action_values,
    heuristic,
    path_score_of,
)
from protopress.games.stonespine_architects.placement import (
    Room,
    edge_free,
    fits,
    is_edge,
    room,
    slot_free,
    spots,
    with_token,
)
from protopress.games.stonespine_architects.rival import (
    COLLECT,
    VISIT,
    Rival,
    RivalCard,
    build_deck,
    gold_after_pass,
    lowest_challenge,
    rival_cards,
    score_solo,
    solo_outcome,
)
from protopress.games.stonespine_architects.rulebook import (
    CHALLENGE_YEARS,
    CONSTRUCT,
    HAND,
    IMPROVE,
    MIN_MARKET,
    OVER,
    SOLO_PLAYERS,
    YEARS,
)
from protopress.games.stonespine_architects.scoring import (
    CATEGORIES,
    Blueprint,
    Challenge,
    ChamberCard,
    Goal,
    ScoreSheet,
    Scoring,
    Token,
    format_score,
    goal_places,
    score_dungeon,
    score_state,
)
from protopress.games.stonespine_architects.spec import SPEC
from protopress.rules.core import Action, IllegalAction
from protopress.rules.information import SharedRng, redeal, shuffle, shuffled
from protopress.rules.spec import Outcome, OutcomeKind, versus_outcome

__all__ = [
    "StonespineArchitects",
    "StonespineState",
    "format_score",
    "income",
    "lay_chamber",
    "score_state",
]

CELLS = SIZE * SIZE
EMPTY = Chamber()
SOLO_CARDS_PER_YEAR = HAND + 3 + 2 + 1  # the hand, then one card per open spot after each turn


class MarketCard(NamedTuple):
    id: str
    min_players: int
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (cost, token elements)


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

    @classmethod
    def of(cls, catalog, players: int, solo: bool, difficulty: str) -> Table:
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
                tuple((row["cost"], tuple(row["tokens"])) for row in m["rows"]),
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
        )
        table._check(catalog)
        return table

    def _check(self, catalog) -> None:
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
        targets: dict[int, tuple[str, ...]] = {}  # the blueprint's elements by cell
        for p in blueprint.positions:
            targets[p.row * SIZE + p.col] = (*targets.get(p.row * SIZE + p.col, ()), p.element)
        self.targets = targets
        self.challenges: list[Challenge] = []
        # cached path_score in a one-item list, shared by the copies holding the same
        # chambers (a change gives the changed board a fresh one): look-ahead copies fill it
        self.paths: list[PathScore | None] = [None]
        # likewise the cached Tally, renewed by any change to a chamber
        self.tallies: list[Tally | None] = [None]
        # and where a token of each element fits (the look-ahead's), forgotten likewise
        self.rooms: dict[str, Room] = {}

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
        """Where the token fits in this dungeon (kept per element until a chamber changes)."""
        element = table.tokens[token].element
        found = self.rooms.get(element)
        if found is None:
            found = self.rooms[element] = room(table, self.cards, self.chambers, token)
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


class StonespineState(SharedRng):
    """One game: the boards, the decks and piles, the market and whose decision it is.

    Every random choice is made at setup: the chamber, market, challenge and rival
    decks and the token piles are shuffled then and drawn from the top later. So
    the generator is never drawn from after setup: copies share it, and a seat
    copy's new one is never made (`SharedRng`).

    A seat copy's hidden piles are laid out when first read (`determinize`): the
    chamber deck, the market and challenge decks and each token pile are read
    through `deck`, `market_deck`, `challenge_deck` and `pile(element)`, which
    shuffle a pile still listed in `unshuffled` from its seed first.
    """

    __slots__ = (
        "table", "turns", "year", "phase", "draft", "mover", "boards", "_deck",
        "_piles", "_market_deck", "market", "_challenge_deck", "display", "goal", "priority",
        "new_priority", "order", "passed", "pending", "keeping", "must_pass", "rival",
        "discarded", "final", "unshuffled",
    )  # fmt: skip

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
        self.share_rng(new)  # drawn from at setup only: see StonespineState
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

    @property
    def deck(self) -> list[int]:
        """The chamber deck, drawn from the end."""
        return self._hidden("deck", self._deck)

    @deck.setter
    def deck(self, deck: list[int]) -> None:
        self._deck = deck
        self._laid_out("deck")

    @property
    def market_deck(self) -> list[int]:
        return self._hidden("market_deck", self._market_deck)

    @market_deck.setter
    def market_deck(self, deck: list[int]) -> None:
        self._market_deck = deck
        self._laid_out("market_deck")

    @property
    def challenge_deck(self) -> list[int]:
        return self._hidden("challenge_deck", self._challenge_deck)

    @challenge_deck.setter
    def challenge_deck(self, deck: list[int]) -> None:
        self._challenge_deck = deck
        self._laid_out("challenge_deck")

    def pile(self, element: str) -> list[int] | None:
        """The token pile of an element (drawn from the end), None if it has none."""
        pile = self._piles.get(element)
        if pile is None:
            return None
        return self._hidden(f"piles[{element}]", pile)

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

    def _hidden(self, name: str, pile: list[int]) -> list[int]:
        """pile, shuffled in place first if it is still unshuffled: from canonical
        order with its own seed, so every copy lays it out alike whenever it reads it."""
        seed = self.unshuffled.get(name)
        if seed is not None:
            pile[:] = shuffled(pile, random.Random(seed))
            self._laid_out(name)
        return pile

    def _laid_out(self, name: str) -> None:
        if name in self.unshuffled:
            self.unshuffled = {k: v for k, v in self.unshuffled.items() if k != name}

    @property
    def row(self) -> int:
        """This year's row of the dungeon."""
        return self.year - 1

    def sheets(self) -> list[ScoreSheet]:
        """Final score sheets (provisional before the end: as if the game ended now)."""
        if self.final is not None:
            return self.final
        return _score_sheets(self)


class StonespineArchitects:
    id = "stonespine-architects"
    spec = SPEC
    min_players, max_players = SPEC.min_players, SPEC.max_players

    # --- setup ---------------------------------------------------------------

    def setup(self, catalog, players: int, rng: random.Random, options: dict) -> StonespineState:
        solo, difficulty = self._options(players, options or {})
        table = _tables(catalog, players, solo, difficulty)
        state = object.__new__(StonespineState)
        state.table, state.rng = table, rng
        state.turns, state.year, state.phase, state.draft, state.mover = 0, 1, CONSTRUCT, 0, 0
        state.keeping = state.must_pass = False
        state.discarded = 0
        state.final = None
        state.unshuffled = {}
        state.order, state.passed, state.pending, state.new_priority = [], [False] * players, [], []
        # 3. priority order
        state.priority = list(range(players))
        shuffle(state.priority, rng)
        # 4. one goal card face up
        state.goal = rng.choice(table.goals)
        # 5. challenge cards flipped by player count
        state.challenge_deck = list(range(len(table.challenges)))
        shuffle(state.challenge_deck, rng)
        state.display = []
        _flip_challenges(state)
        # 6. market cards by player count, tokens drawn from piles by element
        state.market_deck = list(range(len(table.markets)))
        shuffle(state.market_deck, rng)
        state.piles = {element: list(pile) for element, pile in table.piles.items()}
        for pile in state.piles.values():
            shuffle(pile, rng)
        state.market = []
        _lay_out_market(state)
        # 7. a blueprint each; the entrance is on it
        blueprints = list(table.blueprints)
        shuffle(blueprints, rng)
        state.boards = [Board(blueprints[seat]) for seat in range(players)]
        # 8. five chamber cards each
        state.deck = list(table.deck)
        shuffle(state.deck, rng)
        _deal(state)
        state.rival = None
        if solo:
            state.rival = Rival(build_deck(table.rival_cards, difficulty, rng), difficulty)
            state.rival.begin_year()
        return state

    def _options(self, players: int, options: dict) -> tuple[bool, str]:
        options = SPEC.parse_options(options)
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} takes {self.min_players} to {self.max_players} players")
        solo = options.get("solo", players == 1)
        if solo and players != 1:
            raise ValueError(f"{self.id}: solo is played by one player against the rival")
        if not solo and players == 1:
            raise ValueError(f"{self.id}: a one-player game is the solo game")
        difficulty = options.get("difficulty", "normal")
        if "difficulty" in options and not solo:
            raise ValueError(f"{self.id}: difficulty applies to the solo game only")
        return solo, difficulty

    # --- whose decision, which decisions -----------------------------------------

    def to_move(self, state: StonespineState) -> int | None:
        return None if state.phase == OVER else state.mover

    def is_over(self, state: StonespineState) -> bool:
        return state.phase == OVER

    def legal_actions(self, state: StonespineState) -> list[Action]:
        if state.phase == OVER:
            return []
        table, board = state.table, state.boards[state.mover]
        if state.phase == CONSTRUCT:
            if state.keeping:
                return [("keep", table.card_id(i)) for i in _distinct(board.hand)]
            base = state.row * SIZE
            columns = [col for col in range(SIZE) if board.cards[base + col] < 0]
            return [
                ("place", table.card_id(i), col) for i in _distinct(board.hand) for col in columns
            ]
        if state.pending:
            return _put_actions(state, board)
        actions: list[Action] = []
        if not state.must_pass:
            actions = [
                ("buy", table.markets[o.card].id, o.row)
                for o in state.market
                if o.cost <= board.gold
            ]
        if state.display:
            actions += [("pass", table.challenges[i].id) for i in _distinct(state.display)]
        else:
            actions.append(("pass",))
        return actions

    # --- applying a decision ---------------------------------------------------

    def apply(self, state: StonespineState, action: Action) -> None:
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if not isinstance(action, tuple) or not action:
            raise IllegalAction(f"{action!r} is not an action")
        kind = action[0]
        if state.phase == CONSTRUCT:
            if state.keeping:
                if kind != "keep":
                    raise IllegalAction("solo construction: keep one card in hand first")
                _keep(state, action)
            elif kind == "place":
                _place(state, action)
            else:
                raise IllegalAction(f"construction takes place actions, not {kind!r}")
        elif state.pending:
            if kind != "put":
                raise IllegalAction("place the tokens you bought first")
            _put(state, action)
        elif kind == "buy":
            _buy(state, action)
        elif kind == "pass":
            _pass(state, action)
        else:
            raise IllegalAction(f"the market takes buy or pass, not {kind!r}")

    # --- the end -------------------------------------------------------------------

    def scores(self, state: StonespineState) -> list[int]:
        return [sheet.total for sheet in state.sheets()]

    def winners(self, state: StonespineState) -> list[int]:
        """Most points; ties go to the higher priority. Solo: [0] when the player
        beats the rival, [] when the rival wins."""
        scores = self.scores(state)
        if state.table.solo:
            return [0] if scores[0] > _solo_rival(state).reputation().total else []
        best = max(scores)
        tied = [seat for seat, score in enumerate(scores) if score == best]
        position = _positions(state)
        return [min(tied, key=lambda seat: position[seat])]

    def determinize(self, state: StonespineState, seat: int, rng: random.Random) -> None:
        """What seat cannot see, resampled: the others' hands with the chamber deck,
        the order of the token piles, the market and challenge decks and the
        rival's deck (the boards, the market, the display and revealed cards are open).

        Most look-aheads read none of the piles, so each is only given a seed here
        and is shuffled from canonical order when first read (`StonespineState.deck`,
        `pile`, ...); the others' hands, when there are any, are dealt again now,
        with the chamber deck they could have come from, and the rival's deck (five
        cards) is shuffled now."""
        others = [s for s in range(len(state.boards)) if s != seat]
        unshuffled = {}
        if others:
            hands = [state.boards[s].hand[:] for s in others]
            deck = state.deck[:]
            redeal(hands, deck, rng)
            for other, hand in zip(others, hands, strict=True):
                state.boards[other].hand = hand
            state.deck = deck
        else:
            unshuffled["deck"] = rng.getrandbits(64)
        for element in state._piles:
            unshuffled[f"piles[{element}]"] = rng.getrandbits(64)
        unshuffled["market_deck"] = rng.getrandbits(64)
        unshuffled["challenge_deck"] = rng.getrandbits(64)
        state.unshuffled = unshuffled
        if state.rival is not None:
            state.rival.deck = shuffled(state.rival.deck, rng)

    def heuristic(self, state: StonespineState, seat: int) -> float:
        """Provisional score plus nudges (lookahead.judge)."""
        return heuristic(state, seat)

    def action_values(
        self, state: StonespineState, seat: int, actions: list[Action]
    ) -> list[float]:
        """The heuristic after each action, without copies where one chamber changes."""
        return action_values(self, state, seat, actions)

    def outcome(self, state: StonespineState) -> Outcome:
        """Solo: the player against the rival's reputation; otherwise a versus game."""
        scores, winners = list(self.scores(state)), list(self.winners(state))
        if not state.table.solo:
            return versus_outcome(scores, winners)
        rival = _solo_rival(state).reputation().total
        return Outcome(
            OutcomeKind.SOLO,
            tuple(scores),
            tuple(winners),
            solo_won=solo_outcome(scores[0], rival).won,
            rival_score=rival,
        )

    def record(self, state: StonespineState) -> dict[str, Any]:
        sheets = state.sheets()
        categories = {
            "paths": [s.path_points for s in sheets],
            "reputation": [s.reputation for s in sheets],
            "blueprint": [s.blueprint_points for s in sheets],
            "priority": [s.priority_points for s in sheets],
            "goal": [s.goal_points for s in sheets],
            "challenges": [s.challenge_points for s in sheets],
        }
        common = {
            "goal": state.goal.id,
            "categories": {c: categories[c] for c in CATEGORIES},
            "through_routes": sum(s.paths.through_route for s in sheets),
            "tokens_discarded": state.discarded,
            "used": [  # chamber cards placed, per seat
                [state.table.card_id(card) for card in board.cards if card >= 0]
                for board in state.boards
            ],
        }
        if not state.table.solo:
            return {"mode": "multiplayer", "final_priority": list(state.priority), **common}
        solo_rival = _solo_rival(state)
        rival = solo_rival.reputation()
        outcome = solo_outcome(sheets[0].total, rival.total)
        return {
            "mode": "solo",
            "difficulty": state.table.difficulty,
            "player_total": outcome.player,
            "rival_total": outcome.rival,
            "margin": outcome.margin,
            "won": outcome.won,
            "final_gold": state.boards[0].gold,
            "rival_cards": [card.id for card in solo_rival.revealed],
            "rival": rival._asdict(),
            **common,
        }


# --- setup and cleanup helpers ----------------------------------------------------

_TABLES: dict[tuple, tuple[Any, Table]] = {}


def _tables(catalog, players: int, solo: bool, difficulty: str) -> Table:
    key = (id(catalog), players, solo, difficulty)
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not catalog:
        cached = _TABLES[key] = (catalog, Table.of(catalog, players, solo, difficulty))
    return cached[1]


def _solo_rival(state: StonespineState) -> Rival:
    """The automated rival, which every solo game has from setup on."""
    if state.rival is None:
        raise RuntimeError("a solo game's state has no rival")
    return state.rival


def _distinct(indices) -> list[int]:
    """Each value once, in first-seen order (equal cards give equal actions)."""
    return list(dict.fromkeys(indices))


def _flip_challenges(state: StonespineState) -> None:
    count = state.table.challenge_count
    state.display = [
        state.challenge_deck.pop() for _ in range(min(count, len(state.challenge_deck)))
    ]


def _lay_out_market(state: StonespineState) -> None:
    table = state.table
    state.market = []
    for _ in range(min(table.market_count, len(state.market_deck))):
        card = state.market_deck.pop()
        for row, (cost, elements) in enumerate(table.markets[card].rows):
            drawn = tuple(_draw_token(state, element) for element in elements)
            tokens = tuple(t for t in drawn if t is not None)
            if tokens:  # a row whose piles ran out stays empty and cannot be bought
                state.market.append(Offer(card, row, cost, tokens))


def _draw_token(state: StonespineState, element: str) -> int | None:
    pile = state.pile(element)
    return pile.pop() if pile else None


def _deal(state: StonespineState) -> None:
    for board in state.boards:
        board.hand = [state.deck.pop() for _ in range(HAND)]


# --- construction ------------------------------------------------------------------


def _card_in_hand(state: StonespineState, board: Board, card_id) -> int:
    index = state.table.card_index.get(card_id)
    if index is None or index not in board.hand:
        raise IllegalAction(f"{card_id!r} is not in seat {state.mover}'s hand")
    return index


def _place(state: StonespineState, action: Action) -> None:
    if len(action) != 3:
        raise IllegalAction(f"{action}: expected ('place', card_id, column)")
    _, card_id, col = action
    board = state.boards[state.mover]
    index = _card_in_hand(state, board, card_id)
    if not isinstance(col, int) or not 0 <= col < SIZE:
        raise IllegalAction(f"{action}: column runs from 0 to {SIZE - 1}")
    cell = state.row * SIZE + col
    if board.cards[cell] >= 0:
        raise IllegalAction(f"{action}: row {state.row}, column {col} already holds a chamber")
    board.hand.remove(index)
    lay_chamber(state, state.mover, state.row, col, card_id)
    state.turns += 1
    if state.table.solo:
        if state.draft < SIZE - 1:
            state.keeping = True
        else:
            _leave_to_rival(state, board.hand)
            board.hand = []
            _start_improvement(state)
        return
    # multiplayer: the next seat places; after the last, hands pass on
    state.mover += 1
    if state.mover < state.table.players:
        return
    state.mover = 0
    state.draft += 1
    if state.draft == SIZE:
        for b in state.boards:
            b.hand = []  # the fifth card is discarded
        _start_improvement(state)
        return
    hands = [b.hand for b in state.boards]
    step = 1 if state.year % 2 == 1 else -1  # clockwise in odd years, reversed in even ones
    n = state.table.players
    for seat in range(n):
        state.boards[(seat + step) % n].hand = hands[seat]


def _keep(state: StonespineState, action: Action) -> None:
    if len(action) != 2:
        raise IllegalAction(f"{action}: expected ('keep', card_id)")
    board = state.boards[0]
    index = _card_in_hand(state, board, action[1])
    rest = board.hand[:]
    rest.remove(index)
    _leave_to_rival(state, rest)
    state.keeping = False
    state.draft += 1
    spots = SIZE - state.draft  # one card drawn per remaining spot in the row
    board.hand = [index] + [state.deck.pop() for _ in range(min(spots, len(state.deck)))]


def _leave_to_rival(state: StonespineState, indices) -> None:
    """Solo: cards neither placed nor kept; those with the rival's symbol go to its pile."""
    _solo_rival(state).offer_chambers(state.table.cards[i] for i in indices)


# --- improvement -------------------------------------------------------------------


def _start_improvement(state: StonespineState) -> None:
    table = state.table
    state.phase = IMPROVE
    state.draft = 0
    for seat, board in enumerate(state.boards):
        board.gold = income(state, seat)
    position = _positions(state)
    state.order = sorted(range(table.players), key=lambda s: (-state.boards[s].gold, position[s]))
    state.passed = [False] * table.players
    state.new_priority = []
    state.mover = state.order[0]
    state.must_pass = False
    if table.solo:
        _solo_gate(state)


def income(state: StonespineState, seat: int) -> int:
    """Gold for this year's improvement: the gold printed on this year's row, plus
    each treasure chest's gold anywhere in the dungeon, plus the starting bonus in
    year 1, to the gold track's cap."""
    board = state.boards[seat]
    return income_of(state, seat, board.cards, board.chambers)


def income_of(
    state: StonespineState, seat: int, cards: Sequence[int], chambers: Sequence[Chamber]
) -> int:
    """income(state, seat) were the seat's dungeon these cards and chambers by cell
    (the look-ahead asks it of a dungeon with one more card)."""
    table, base = state.table, state.row * SIZE
    row = sum(table.cards[i].gold for i in cards[base : base + SIZE] if i >= 0)
    chests = sum(table.chest_gold.get(e, 0) for chamber in chambers for e in chamber.elements)
    bonus = _starting_gold(state, seat) if state.year == 1 else 0
    return table.scoring.gold(row + chests + bonus)


def lay_chamber(state: StonespineState, seat: int, row: int, col: int, card_id: str) -> None:
    """Put a chamber card straight into a dungeon, outside the draft (tests, puzzles,
    a dungeon entered at the table). The card need not be in hand."""
    table, board = state.table, state.boards[seat]
    if card_id not in table.card_index:
        raise ValueError(f"no chamber card {card_id!r}")
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"row and col run from 0 to {SIZE - 1}")
    index = table.card_index[card_id]
    cell = row * SIZE + col
    board.cards[cell] = index
    board.placed[cell] = ()
    board.put_chamber(table, cell, table.chambers[index], geometry=True)


def _starting_gold(state: StonespineState, seat: int) -> int:
    """The year 1 bonus by position on the priority track (solo: the first position's)."""
    ranks = state.table.scoring.starting_gold
    return ranks[min(state.priority.index(seat), len(ranks) - 1)]


def _positions(state: StonespineState) -> list[int]:
    """Each seat's position on the priority track (0 is first)."""
    position = [0] * state.table.players
    for place, seat in enumerate(state.priority):
        position[seat] = place
    return position


def _solo_gate(state: StonespineState) -> None:
    """Solo: compare the gold with the rival card; not more, and the rival collects
    its card's tokens, the lowest challenge is discarded and the player must pass."""
    rival, board = _solo_rival(state), state.boards[0]
    verdict = rival.market_verdict(board.gold)
    if verdict == COLLECT:
        tokens = collected_tokens(state)
        for token in tokens:
            pile = state.pile(state.table.tokens[token].element)
            assert pile  # the tokens were read off the ends of these piles
            pile.pop()
        rival.collect(state.table.tokens[t] for t in tokens)
        discard = lowest_challenge([state.table.challenges[i].points for i in state.display])
        if discard is not None:
            del state.display[discard]
    state.must_pass = verdict != VISIT


def collected_tokens(state: StonespineState) -> list[int]:
    """The tokens the face-up rival card collects (COLLECT), drawn in turn from the
    ends of their piles; a pile that has run out gives none. Asked without drawing,
    so that the look-ahead can ask it too."""
    depth: dict[str, int] = {}
    tokens = []
    for element in _solo_rival(state).card_tokens():
        pile, drawn = state.pile(element) or [], depth.get(element, 0)
        if drawn < len(pile):
            tokens.append(pile[-1 - drawn])
            depth[element] = drawn + 1
    return tokens


def offer_of(state: StonespineState, card_id, row) -> int | None:
    """The index in the market of a market card's row, None if it is not on the table."""
    return next(
        (
            k
            for k, o in enumerate(state.market)
            if state.table.markets[o.card].id == card_id and o.row == row
        ),
        None,
    )


def _buy(state: StonespineState, action: Action) -> None:
    if state.must_pass:
        raise IllegalAction("the rival card shows as much gold as you have: pass")
    if len(action) != 3:
        raise IllegalAction(f"{action}: expected ('buy', market_card_id, row)")
    _, card_id, row = action
    table, board = state.table, state.boards[state.mover]
    k = offer_of(state, card_id, row)
    if k is None:
        raise IllegalAction(f"{action}: no such market row on the table")
    offer = state.market[k]
    if offer.cost > board.gold:
        raise IllegalAction(
            f"{action}: costs {offer.cost} gold, seat {state.mover} has {board.gold}"
        )
    del state.market[k]
    board.gold -= offer.cost
    state.pending = list(offer.tokens)
    state.turns += 1
    if table.solo:
        _solo_gate(state)
    _drop_unplaceable(state)


def _put_actions(state: StonespineState, board: Board) -> list[Action]:
    actions = []
    seen = set()
    for k, token in enumerate(state.pending):
        if token in seen:
            continue
        seen.add(token)
        actions += [
            ("put", k, *spot) for spot in spots(state.table, board.cards, board.chambers, token)
        ]
    return actions


def _drop_unplaceable(state: StonespineState) -> None:
    """A bought token that fits nowhere in the dungeon is discarded."""
    board = state.boards[state.mover]
    keep = [t for t in state.pending if fits(state.table, board.cards, board.chambers, t)]
    state.discarded += len(state.pending) - len(keep)
    state.pending = keep
    if not keep:
        _next_visitor(state)


def _put(state: StonespineState, action: Action) -> None:
    board = state.boards[state.mover]
    if len(action) not in (4, 5) or not all(isinstance(v, int) for v in action[1:4]):
        raise IllegalAction(f"{action}: expected ('put', token_index, row, col[, edge])")
    k, row, col = action[1:4]
    if not 0 <= k < len(state.pending):
        raise IllegalAction(f"{action}: token index runs from 0 to {len(state.pending) - 1}")
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalAction(f"{action}: row and col run from 0 to {SIZE - 1}")
    token = state.pending[k]
    spec = state.table.tokens[token]
    cell = row * SIZE + col
    if board.cards[cell] < 0:
        raise IllegalAction(f"{action}: no chamber card at row {row}, col {col}")
    chamber = board.chambers[cell]
    if is_edge(state.table, token):
        if len(action) != 5 or action[4] not in EDGES:
            raise IllegalAction(f"{action}: a {spec.element} goes on an edge: N, E, S or W")
        edge = action[4]
        if edge in chamber.passages:
            raise IllegalAction(f"{action}: that edge already holds a {spec.element}")
        if not edge_free(board.cards[cell], chamber, edge):
            raise IllegalAction(f"{action}: the chamber already holds {MAX_ELEMENTS} elements")
        board.put_chamber(state.table, cell, with_token(chamber, spec, edge), geometry=True)
    else:
        if len(action) != 4:
            raise IllegalAction(f"{action}: a {spec.element} goes in a slot, not on an edge")
        if not slot_free(state.table, board.cards[cell], chamber):
            raise IllegalAction(
                f"{action}: no empty slot (printed elements and tokens fill "
                f"{len(chamber.elements)} of {state.table.cards[board.cards[cell]].slots}, "
                f"{MAX_ELEMENTS} elements at most)"
            )
        board.put_chamber(state.table, cell, with_token(chamber, spec, None), geometry=False)
    board.placed[cell] = (*board.placed[cell], token)
    del state.pending[k]
    _drop_unplaceable(state)


def _next_visitor(state: StonespineState) -> None:
    """A visit is over: the next player in market order who has not passed."""
    if state.table.solo:
        return  # the solo player visits again or passes
    order = state.order
    at = order.index(state.mover)
    for step in range(1, len(order) + 1):
        seat = order[(at + step) % len(order)]
        if not state.passed[seat]:
            state.mover = seat
            return


def _pass(state: StonespineState, action: Action) -> None:
    board = state.boards[state.mover]
    table = state.table
    if state.display:
        if len(action) != 2:
            raise IllegalAction("claim one of the face-up challenge cards when you pass")
        k = next(
            (k for k, i in enumerate(state.display) if table.challenges[i].id == action[1]), None
        )
        if k is None:
            raise IllegalAction(f"{action}: no face-up challenge card {action[1]!r}")
        board.challenges.append(table.challenges[state.display.pop(k)])
    elif len(action) != 1:
        raise IllegalAction(f"{action}: no challenge cards are face up; pass with ('pass',)")
    state.turns += 1
    if table.solo:
        board.gold = gold_after_pass(state.year, board.gold)
        _solo_rival(state).take_market(
            table.tokens[t] for offer in state.market for t in offer.tokens
        )
        state.market = []
        _cleanup(state)
        return
    state.passed[state.mover] = True
    state.new_priority.append(state.mover)  # the leftmost open slot
    if all(state.passed):
        _cleanup(state)
    else:
        _next_visitor(state)


def _cleanup(state: StonespineState) -> None:
    state.discarded += sum(len(offer.tokens) for offer in state.market)
    state.market = []
    if not state.table.solo:
        state.priority = state.new_priority
        state.new_priority = []
    state.must_pass = False
    if state.year == YEARS:
        state.phase = OVER
        state.mover = 0
        state.final = _score_sheets(state)
        return
    state.year += 1
    _lay_out_market(state)
    state.display = []  # unclaimed challenges are discarded
    if state.year <= CHALLENGE_YEARS:
        _flip_challenges(state)
    _deal(state)
    state.phase = CONSTRUCT
    state.draft = 0
    state.mover = 0
    if state.rival is not None:
        state.rival.begin_year()


# --- final scoring ------------------------------------------------------------------


def _score_sheets(state: StonespineState) -> list[ScoreSheet]:
    table = state.table
    scoring = table.scoring
    dungeons = [board.dungeon() for board in state.boards]
    if table.solo:
        board = state.boards[0]
        result = score_solo(
            scoring,
            dungeons[0],
            _solo_rival(state),
            gold=board.gold,
            goal_elements=state.goal.elements,
            blueprint=board.blueprint.positions,
            challenges=board.challenges,
        )
        return [result.sheet]
    counts = [sum(scoring.element_count(d, e) for e in state.goal.elements) for d in dungeons]
    position = _positions(state)
    goals = goal_places(counts, position)
    return [
        score_dungeon(
            scoring,
            dungeons[seat],
            blueprint=board.blueprint.positions,
            priority_place=position[seat] + 1,
            goal_place=goals[seat],
            challenges=board.challenges,
        )
        for seat, board in enumerate(state.boards)
    ]

"""Stonespine Architects: four years of drafting chamber cards into a 4x4
dungeon and buying tokens at the market, for 2-5 players or solo against the
automated rival. Rulings: docs/rules/stonespine-architects.md.

Decisions (actions.py; in a log, [verb, *fields]):

    Place(card_id, column)              construction: a card from hand into this year's row
    Keep(card_id)                       solo construction: the card kept for the next turn
    Buy(market_card_id, row)            improvement: buy a market row (0-based) ...
    PutInSlot(token_index, row, col)    ... then place each token: a slot element
    PutOnEdge(token_index, row, col, edge)    or a secret passage on an edge
    PassClaiming(challenge_id) / Pass()       stop buying: claim a challenge (years 1-3)

Paths come from `dungeon`, final scores from `scoring`; the solo rival is
`rival.Rival`, the state `state.StonespineState`. A state keeps each chamber as
an immutable `dungeon.Chamber`, so a copy copies lists of references, and it
caches each dungeon's path score until a chamber card or a secret passage
changes it.
"""

# Over 600 lines on purpose: the year's phases (construction, improvement, market,
# cleanup) act on one state and are read in order; the state (state.py), scoring,
# the rival, the dungeon graph and the rulebook's numbers are modules of their own.

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from protopress.games.stonespine_architects.actions import (
    ACTIONS,
    Buy,
    Keep,
    Pass,
    PassClaiming,
    Place,
    Put,
    PutInSlot,
    PutOnEdge,
    StonespineAction,
)
from protopress.games.stonespine_architects.dungeon import (
    EDGES,
    MAX_ELEMENTS,
    SIZE,
    Chamber,
)
from protopress.games.stonespine_architects.heuristic import heuristic, judged_in_sight
from protopress.games.stonespine_architects.placement import (
    edge_free,
    fits,
    is_edge,
    puts,
    slot_free,
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
    solo_outcome,
)
from protopress.games.stonespine_architects.rulebook import (
    CHALLENGE_YEARS,
    CONSTRUCT,
    HAND,
    IMPROVE,
    OVER,
    YEARS,
)
from protopress.games.stonespine_architects.scoring import (
    CATEGORIES,
    Blueprint,
    format_score,
    score_state,
)
from protopress.games.stonespine_architects.spec import SPEC
from protopress.games.stonespine_architects.state import (
    Board,
    Offer,
    StonespineState,
    Table,
    priority_positions,
    rival_of,
    score_sheets,
)
from protopress.rules.chance import SharedChance
from protopress.rules.core import Game, IllegalAction
from protopress.rules.information import (
    FaceDown,
    FaceDownEach,
    Private,
    SeatView,
    Secret,
)
from protopress.rules.observe import derived_view
from protopress.rules.spec import Outcome, OutcomeKind, versus_outcome

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog

__all__ = [
    "StonespineArchitects",
    "StonespineState",
    "format_score",
    "income",
    "lay_chamber",
    "score_state",
]


def _hands(state: StonespineState) -> list[list[int]]:
    return [board.hand for board in state.boards]


def _deck(state: StonespineState) -> list[int]:
    return state.deck


def _token_piles(state: StonespineState) -> dict[str, list[int]]:
    return state._piles  # each read through pile(element) when laid out


def _market_deck(state: StonespineState) -> list[int]:
    return state.market_deck


def _challenge_deck(state: StonespineState) -> list[int]:
    return state.challenge_deck


def _rival_deck(state: StonespineState) -> list[RivalCard]:
    return state.rival.deck if state.rival is not None else []


def _blueprints(state: StonespineState) -> list[tuple[Blueprint]]:
    return [(board.blueprint,) for board in state.boards]


def _deal_blueprint(state: StonespineState, seat: int, blueprints: Sequence[Blueprint]) -> None:
    (blueprint,) = blueprints
    state.boards[seat].deal_blueprint(blueprint)


def _boxed_blueprints(state: StonespineState) -> list[Blueprint]:
    """The blueprints dealt to no seat (left in the box, unseen)."""
    dealt = {board.blueprint.id for board in state.boards}
    return [blueprint for blueprint in state.table.blueprints if blueprint.id not in dealt]


def _entrance(blueprint: Blueprint) -> tuple[str, int]:
    """What the others see of a blueprint: its entrance, a doorway on the frame."""
    return blueprint.entrance.side, blueprint.entrance.index


class StonespineArchitects:
    id = "stonespine-architects"
    spec = SPEC
    actions = ACTIONS
    # What a seat cannot see: the others' hands, pooled with the chamber deck; the
    # order of the token piles, the market and challenge decks and the rival's deck
    # (the boards, the market, the display and revealed cards are open); the others'
    # blueprints but for their entrance (a doorway on the dungeon frame). The
    # chamber, market and challenge decks and the token piles are laid out when
    # first read: most look-aheads read none of them. The others' hands, when there
    # are others, are dealt again at once with the chamber deck they could have
    # come from. The order of the declaration is that of the draws.
    seat_view: SeatView[StonespineState] = SeatView(
        (
            Private("hands", _hands, pool=FaceDown("deck", _deck, laid_out_when_read=True)),
            FaceDownEach("piles", _token_piles, laid_out_when_read=True),
            FaceDown("market_deck", _market_deck, laid_out_when_read=True),
            FaceDown("challenge_deck", _challenge_deck, laid_out_when_read=True),
            # rival cards have no order of their own: sorted by id at once, as canonical
            # would after failing to sort them by themselves (the exception cost more
            # than the shuffle)
            FaceDown("rival.deck", _rival_deck, key=attrgetter("id")),
            Secret(
                "blueprints",
                _blueprints,
                _deal_blueprint,
                _boxed_blueprints,
                shows=_entrance,
                key=attrgetter("id"),
            ),
        ),
        in_sight=judged_in_sight,
    )
    min_players, max_players = SPEC.min_players, SPEC.max_players

    # --- setup ---------------------------------------------------------------

    def setup(
        self, catalog: Catalog, players: int, rng: random.Random, options: dict[str, Any] | None
    ) -> StonespineState:
        solo, difficulty = self._options(players, options or {})
        table = _tables(catalog, players, solo, difficulty)
        state = object.__new__(StonespineState)
        state.table, state.chance = table, SharedChance(rng)
        chance = state.chance
        state.turns, state.year, state.phase, state.draft, state.mover = 0, 1, CONSTRUCT, 0, 0
        state.keeping = state.must_pass = False
        state.discarded = 0
        state.final = None
        state.unshuffled = {}
        state.order, state.passed, state.pending, state.new_priority = [], [False] * players, [], []
        # 3. priority order
        state.priority = list(range(players))
        chance.shuffle("priority", state.priority, public=True)
        # 4. one goal card face up
        state.goal = chance.choice("goal", table.goals)
        # 5. challenge cards flipped by player count
        state.challenge_deck = list(range(len(table.challenges)))
        chance.shuffle("challenge deck", state.challenge_deck)
        state.display = []
        _flip_challenges(state)
        # 6. market cards by player count, tokens drawn from piles by element
        state.market_deck = list(range(len(table.markets)))
        chance.shuffle("market deck", state.market_deck)
        state.piles = {element: list(pile) for element, pile in table.piles.items()}
        for element, pile in state.piles.items():
            chance.shuffle(f"token pile {element}", pile)
        state.market = []
        _lay_out_market(state)
        # 7. a blueprint each; the entrance is on it
        blueprints = list(table.blueprints)
        chance.shuffle("blueprints", blueprints)
        state.boards = [Board(blueprints[seat]) for seat in range(players)]
        # 8. five chamber cards each
        state.deck = list(table.deck)
        chance.shuffle("chamber deck", state.deck)
        _deal(state)
        state.rival = None
        if solo:
            # the rival's deck is shuffled by the generator itself, as the solo companion's
            state.rival = Rival(build_deck(table.rival_cards, difficulty, chance.rng), difficulty)
            state.rival.begin_year()
        return state

    def _options(self, players: int, options: dict[str, Any]) -> tuple[bool, str]:
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

    def observation(self, state: StonespineState, seat: int) -> dict[str, Any]:
        """What the playtest table draws (`protopress play`): the view derived from
        seat_view (rules/observe.py), with the cards the engine keeps as numbers named
        by their catalog ids, so that the table draws their faces and a tap on one is
        the action naming it: each hand the seat sees, the market's cards and the
        face-up challenges."""
        view = derived_view(self, state, seat)
        fields, table = view["fields"], state.table
        for board in fields["boards"]:
            if isinstance(board["hand"], list):  # the others' are hidden
                board["hand"] = [table.cards[index].id for index in board["hand"]]
        for offer in fields["market"]:
            offer["card"] = table.markets[offer["card"]].id
        fields["display"] = [table.challenges[index].id for index in fields["display"]]
        return view

    def is_over(self, state: StonespineState) -> bool:
        return state.phase == OVER

    def legal_actions(self, state: StonespineState) -> list[StonespineAction]:
        if state.phase == OVER:
            return []
        table, board = state.table, state.boards[state.mover]
        if state.phase == CONSTRUCT:
            if state.keeping:
                keeps = table.actions.keeps
                return [keeps[i] for i in _distinct(board.hand)]
            base, places = state.row * SIZE, table.actions.places
            columns = [col for col in range(SIZE) if board.cards[base + col] < 0]
            return [places[i][col] for i in _distinct(board.hand) for col in columns]
        if state.pending:
            return _put_actions(state, board)
        actions: list[StonespineAction] = []
        if not state.must_pass:
            actions = [
                Buy(table.markets[o.card].id, o.row) for o in state.market if o.cost <= board.gold
            ]
        if state.display:
            actions += [PassClaiming(table.challenges[i].id) for i in _distinct(state.display)]
        else:
            actions.append(Pass())
        return actions

    # --- applying a decision ---------------------------------------------------

    def apply(self, state: StonespineState, action: StonespineAction) -> None:
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if type(action) not in _KINDS:
            kinds = ", ".join(kind.__name__ for kind in _KINDS)
            raise IllegalAction(f"{action!r} is not an action of {self.id}: one of {kinds}")
        if state.phase == CONSTRUCT:
            if state.keeping:
                if not isinstance(action, Keep):
                    raise IllegalAction("solo construction: keep one card in hand first")
                _keep(state, action)
            elif isinstance(action, Place):
                _place(state, action)
            else:
                raise IllegalAction(f"construction takes place actions, not {action.verb!r}")
        elif state.pending:
            if not isinstance(action, PutInSlot | PutOnEdge):
                raise IllegalAction("place the tokens you bought first")
            _put(state, action)
        elif isinstance(action, Buy):
            _buy(state, action)
        elif isinstance(action, PassClaiming | Pass):
            _pass(state, action)
        else:
            raise IllegalAction(f"the market takes buy or pass, not {action.verb!r}")

    # --- the end -------------------------------------------------------------------

    def scores(self, state: StonespineState) -> list[int]:
        return [sheet.total for sheet in state.sheets()]

    def winners(self, state: StonespineState) -> list[int]:
        """Most points; ties go to the higher priority. Solo: [0] when the player
        beats the rival, [] when the rival wins."""
        scores = self.scores(state)
        if state.table.solo:
            return [0] if scores[0] > rival_of(state).reputation().total else []
        best = max(scores)
        tied = [seat for seat, score in enumerate(scores) if score == best]
        position = priority_positions(state)
        return [min(tied, key=lambda seat: position[seat])]

    def heuristic(self, state: StonespineState, seat: int) -> float:
        """Provisional score plus nudges (heuristic.judge)."""
        return heuristic(state, seat)

    def outcome(self, state: StonespineState) -> Outcome:
        """Solo: the player against the rival's reputation; otherwise a versus game."""
        scores, winners = list(self.scores(state)), list(self.winners(state))
        if not state.table.solo:
            return versus_outcome(scores, winners)
        rival = rival_of(state).reputation().total
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
        solo_rival = rival_of(state)
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


# the engine meets the contract with its own state and actions (a mypy check)
_: type[Game[StonespineState, StonespineAction]] = StonespineArchitects


# --- setup and cleanup helpers ----------------------------------------------------

_TABLES: dict[tuple[int, int, bool, str], tuple[Catalog, Table]] = {}


def _tables(catalog: Catalog, players: int, solo: bool, difficulty: str) -> Table:
    key = (id(catalog), players, solo, difficulty)
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not catalog:
        cached = _TABLES[key] = (catalog, Table.of(catalog, players, solo, difficulty))
    return cached[1]


_KINDS = tuple(ACTIONS.kinds.values())  # the classes of the game's actions, in order
_words = ACTIONS.words  # an action in words, for messages


def _distinct(indices: Iterable[int]) -> list[int]:
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
        for row, printed in enumerate(table.markets[card].rows):
            drawn = tuple(_draw_token(state, element) for element in printed.elements)
            tokens = tuple(t for t in drawn if t is not None)
            if tokens:  # a row whose piles ran out stays empty and cannot be bought
                state.market.append(Offer(card, row, printed.cost, tokens))


def _draw_token(state: StonespineState, element: str) -> int | None:
    pile = state.pile(element)
    return pile.pop() if pile else None


def _deal(state: StonespineState) -> None:
    for board in state.boards:
        board.hand = [state.deck.pop() for _ in range(HAND)]


# --- construction ------------------------------------------------------------------


def _card_in_hand(state: StonespineState, board: Board, card_id: str) -> int:
    index = state.table.card_index.get(card_id)
    if index is None or index not in board.hand:
        raise IllegalAction(f"{card_id!r} is not in seat {state.mover}'s hand")
    return index


def _place(state: StonespineState, action: Place) -> None:
    card_id, col = action.card_id, action.column
    board = state.boards[state.mover]
    index = _card_in_hand(state, board, card_id)
    if not isinstance(col, int) or not 0 <= col < SIZE:
        raise IllegalAction(f"{_words(action)}: column runs from 0 to {SIZE - 1}")
    cell = state.row * SIZE + col
    if board.cards[cell] >= 0:
        raise IllegalAction(
            f"{_words(action)}: row {state.row}, column {col} already holds a chamber"
        )
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


def _keep(state: StonespineState, action: Keep) -> None:
    board = state.boards[0]
    index = _card_in_hand(state, board, action.card_id)
    rest = board.hand[:]
    rest.remove(index)
    _leave_to_rival(state, rest)
    state.keeping = False
    state.draft += 1
    spots = SIZE - state.draft  # one card drawn per remaining spot in the row
    board.hand = [index] + [state.deck.pop() for _ in range(min(spots, len(state.deck)))]


def _leave_to_rival(state: StonespineState, indices: Iterable[int]) -> None:
    """Solo: cards neither placed nor kept; those with the rival's symbol go to its pile."""
    rival_of(state).offer_chambers(state.table.cards[i] for i in indices)


# --- improvement -------------------------------------------------------------------


def _start_improvement(state: StonespineState) -> None:
    table = state.table
    state.phase = IMPROVE
    state.draft = 0
    for seat, board in enumerate(state.boards):
        board.gold = income(state, seat)
    position = priority_positions(state)
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


def _solo_gate(state: StonespineState) -> None:
    """Solo: compare the gold with the rival card; not more, and the rival collects
    its card's tokens, the lowest challenge is discarded and the player must pass."""
    rival, board = rival_of(state), state.boards[0]
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
    for element in rival_of(state).card_tokens():
        pile, drawn = state.pile(element) or [], depth.get(element, 0)
        if drawn < len(pile):
            tokens.append(pile[-1 - drawn])
            depth[element] = drawn + 1
    return tokens


def offer_of(state: StonespineState, card_id: str, row: int) -> int | None:
    """The index in the market of a market card's row, None if it is not on the table."""
    return next(
        (
            k
            for k, o in enumerate(state.market)
            if state.table.markets[o.card].id == card_id and o.row == row
        ),
        None,
    )


def _buy(state: StonespineState, action: Buy) -> None:
    if state.must_pass:
        raise IllegalAction("the rival card shows as much gold as you have: pass")
    table, board = state.table, state.boards[state.mover]
    k = offer_of(state, action.market_card_id, action.row)
    if k is None:
        raise IllegalAction(f"{_words(action)}: no such market row on the table")
    offer = state.market[k]
    if offer.cost > board.gold:
        raise IllegalAction(
            f"{_words(action)}: costs {offer.cost} gold, seat {state.mover} has {board.gold}"
        )
    del state.market[k]
    board.gold -= offer.cost
    state.pending = list(offer.tokens)
    state.turns += 1
    if table.solo:
        _solo_gate(state)
    _drop_unplaceable(state)


def _put_actions(state: StonespineState, board: Board) -> list[StonespineAction]:
    actions: list[StonespineAction] = []
    seen = set()
    for k, token in enumerate(state.pending):
        if token in seen:
            continue
        seen.add(token)
        actions += puts(state.table, board.cards, board.chambers, k, token)
    return actions


def _drop_unplaceable(state: StonespineState) -> None:
    """A bought token that fits nowhere in the dungeon is discarded."""
    board = state.boards[state.mover]
    keep = [t for t in state.pending if fits(state.table, board.cards, board.chambers, t)]
    state.discarded += len(state.pending) - len(keep)
    state.pending = keep
    if not keep:
        _next_visitor(state)


def _put(state: StonespineState, action: Put) -> None:
    board = state.boards[state.mover]
    k, row, col = action.token_index, action.row, action.col
    if not all(isinstance(value, int) for value in (k, row, col)):
        raise IllegalAction(f"{_words(action)}: token_index, row and col are whole numbers")
    if not 0 <= k < len(state.pending):
        raise IllegalAction(
            f"{_words(action)}: token index runs from 0 to {len(state.pending) - 1}"
        )
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalAction(f"{_words(action)}: row and col run from 0 to {SIZE - 1}")
    token = state.pending[k]
    spec = state.table.tokens[token]
    cell = row * SIZE + col
    if board.cards[cell] < 0:
        raise IllegalAction(f"{_words(action)}: no chamber card at row {row}, col {col}")
    chamber = board.chambers[cell]
    if is_edge(state.table, token):
        if not isinstance(action, PutOnEdge) or action.edge not in EDGES:
            raise IllegalAction(f"{_words(action)}: a {spec.element} goes on an edge: N, E, S or W")
        edge = action.edge
        if edge in chamber.passages:
            raise IllegalAction(f"{_words(action)}: that edge already holds a {spec.element}")
        if not edge_free(board.cards[cell], chamber, edge):
            raise IllegalAction(
                f"{_words(action)}: the chamber already holds {MAX_ELEMENTS} elements"
            )
        board.put_chamber(state.table, cell, with_token(chamber, spec, edge), geometry=True)
    else:
        if isinstance(action, PutOnEdge):
            raise IllegalAction(
                f"{_words(action)}: a {spec.element} goes in a slot, not on an edge"
            )
        if not slot_free(state.table, board.cards[cell], chamber):
            raise IllegalAction(
                f"{_words(action)}: no empty slot (printed elements and tokens fill "
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


def _pass(state: StonespineState, action: PassClaiming | Pass) -> None:
    board = state.boards[state.mover]
    table = state.table
    if state.display:
        if not isinstance(action, PassClaiming):
            raise IllegalAction("claim one of the face-up challenge cards when you pass")
        claimed = action.challenge_id
        k = next(
            (k for k, i in enumerate(state.display) if table.challenges[i].id == claimed), None
        )
        if k is None:
            raise IllegalAction(f"{_words(action)}: no face-up challenge card {claimed!r}")
        board.challenges.append(table.challenges[state.display.pop(k)])
    elif isinstance(action, PassClaiming):
        raise IllegalAction(f"{_words(action)}: no challenge cards are face up; pass without one")
    state.turns += 1
    if table.solo:
        board.gold = gold_after_pass(state.year, board.gold)
        rival_of(state).take_market(table.tokens[t] for offer in state.market for t in offer.tokens)
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
        state.final = score_sheets(state)
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

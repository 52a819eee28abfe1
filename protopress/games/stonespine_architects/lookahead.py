"""Stonespine Architects: the greedy bots' judgement of a position, and the values
of a decision's actions without copying the state.

`judge` is the heuristic, written once: the provisional score plus nudges toward
what pays later, read from a board's `Facts`. A board's facts come from its
`Tally` (reputation, element counts, blueprint matches, geometry: kept per
board, shared by copies until a chamber changes) and its path score.

`action_values` judges most actions without a copy, from what the action
changes that the heuristic reads:

- a chamber card placed: one more chamber, its printed gold on the row; solo,
  the row's last card also offers the card left to the rival and counts the
  improvement's gold, on which the rival card gives its verdict;
- a card kept (solo): the rival's pile grows, the board does not change;
- a token put: one chamber changed, and the tokens still to place that fit;
  the board's value is found once per token, blueprint matches and path score
  (`Judge.board_once`: in any cell a token changes the dungeon's totals alike),
  and so it is for a card placed;
- a market row bought: less gold, its tokens to place, and, solo, what the
  rival collects;
- a solo pass: the claimed challenge, the gold after passing, the market's
  tokens to the rival and the rival's next card face up.

The last card of a row and a pass in multiplayer (hands passed on, priority
track) are judged by the book: copy, apply, judge.
tests/games/stonespine_architects/test_fast.py holds the values to the book's
on thousands of positions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from protopress.games.stonespine_architects.dungeon import (
    SIZE,
    Chamber,
    Geometry,
    PathScore,
    geometry_path_score,
    path_reach,
)
from protopress.games.stonespine_architects.placement import fits_in, with_token
from protopress.games.stonespine_architects.rival import COLLECT, gold_after_pass
from protopress.games.stonespine_architects.rulebook import CONSTRUCT, OVER, YEARS
from protopress.games.stonespine_architects.scoring import (
    Blueprint,
    Challenge,
    Scoring,
    condition_test,
    rank_points,
    reads_rows,
)
from protopress.rules.core import Action

if TYPE_CHECKING:
    from protopress.games.stonespine_architects.state import Board, Offer, StonespineState

# heuristic weights (greedy bots): provisional score plus nudges toward what pays later
NEAR_BLUEPRINT = 1.0  # per blueprint match, below and above the scale's steps
OPEN_CHALLENGE = 0.25  # share of an unmet claimed challenge's points
GOAL_ELEMENT = 0.5  # per goal element
PENDING_TOKEN = 1.5  # per bought token still to place, plus its stars
GOLD = 0.1  # per gold on the track
ROW_GOLD = 0.3  # per gold printed on this year's row during construction

CELLS = SIZE * SIZE


class Tally(NamedTuple):
    """What a dungeon's chambers add up to, for the heuristic and the challenges."""

    reputation: int  # every star
    counts: dict[str, int]  # slot elements, printed and placed (read only)
    passages: int  # secret passages, one per edge
    matches: int  # blueprint positions whose chamber holds their element
    geometry: Geometry  # which edges open, for the path score

    @classmethod
    def of(cls, scoring: Scoring, chambers: Sequence[Chamber], blueprint: Blueprint) -> Tally:
        counts: dict[str, int] = {}
        for chamber in chambers:
            for element in chamber.elements:
                counts[element] = counts.get(element, 0) + 1
        matches = sum(
            scoring.chamber_holds(chambers[p.row * SIZE + p.col], p.element)
            for p in blueprint.positions
        )
        return cls(
            sum(chamber.stars for chamber in chambers),
            counts,
            sum(len(chamber.passages) for chamber in chambers),
            matches,
            Geometry.of(chambers),
        )

    def with_chamber(
        self, scoring: Scoring, cell: int, old: Chamber, new: Chamber, targets: Sequence[str]
    ) -> Tally:
        """The tally with the chamber in cell replaced (old by new; targets the elements
        the blueprint shows on that cell): Tally.of's counts, changed by one chamber."""
        counts = dict(self.counts)
        for element in old.elements:
            left = counts[element] - 1
            if left:
                counts[element] = left
            else:
                del counts[element]  # as Tally.of: only the elements present
        for element in new.elements:
            counts[element] = counts.get(element, 0) + 1
        holds = scoring.chamber_holds
        return Tally(
            self.reputation + new.stars - old.stars,
            counts,
            self.passages + len(new.passages) - len(old.passages),
            self.matches + sum(holds(new, e) - holds(old, e) for e in targets),
            self.geometry.with_chamber(cell, new),
        )


class Facts:
    """A board's dungeon as the heuristic reads it, optionally with the chamber in
    one cell replaced (old is what the board holds there, new the replacement;
    targets the elements the blueprint shows on that cell)."""

    __slots__ = (
        "scoring", "chambers", "tally", "cell", "old", "new", "paths", "reputation", "matches",
    )  # fmt: skip

    def __init__(
        self,
        scoring: Scoring,
        chambers: Sequence[Chamber],
        tally: Tally,
        paths: PathScore,
        cell: int = -1,
        new: Chamber | None = None,
        targets: Sequence[str] = (),
    ):
        self.scoring, self.chambers, self.tally, self.paths = scoring, chambers, tally, paths
        self.cell, self.new = cell, new
        self.old = old = chambers[cell] if new is not None else None
        self.reputation, self.matches = tally.reputation, tally.matches
        if new is not None and old is not None:
            self.reputation += new.stars - old.stars
            self.matches = matches_with(scoring, tally, old, new, targets)

    def count(self, element: str) -> int:
        """Elements of a kind, as Scoring.element_count counts them."""
        new, old = self.new, self.old
        if element in self.scoring.edge_elements:
            if old is None or new is None:
                return self.tally.passages
            return self.tally.passages + len(new.passages) - len(old.passages)
        count = self.tally.counts.get(element, 0)
        if old is None or new is None:
            return count
        return count + new.elements.count(element) - old.elements.count(element)

    def full_row(self, element: str) -> bool:
        chambers = self.chambers
        if self.new is not None:
            chambers = list(chambers)
            chambers[self.cell] = self.new
        rows = [chambers[start : start + SIZE] for start in range(0, CELLS, SIZE)]
        return self.scoring.full_row(rows, element)


def matches_with(
    scoring: Scoring, tally: Tally, old: Chamber, new: Chamber, targets: Sequence[str]
) -> int:
    """The tally's blueprint matches with the chamber old replaced by new in a cell
    where the blueprint shows targets (as Scoring.blueprint_matches counts them)."""
    matches, holds = tally.matches, scoring.chamber_holds
    for element in targets:
        matches += holds(new, element) - holds(old, element)
    return matches


class Judge:
    """The heuristic of one seat, ready for one decision's many actions: what they
    share (the scoring, the claimed challenges, the goal, the final priority bonus)
    is read once. `board` judges a board's facts and the tokens still to place,
    `value` adds the gold, this year's row gold and the rival's reputation.

    The weights of the board terms are multiples of a quarter (checked below), so
    `board` sums them exactly in any order; `value` adds the rest in one fixed
    order, so a value equals the heuristic's by the book to the last bit."""

    __slots__ = (
        "tokens", "path_points", "blueprint_points", "challenges", "goal", "bonus", "by_cell",
        "boards",
    )  # fmt: skip

    def __init__(
        self,
        state: StonespineState,
        seat: int,
        challenges: Sequence[Challenge] | None = None,
        year: int | None = None,
    ):
        table, scoring = state.table, state.table.scoring
        self.tokens = table.tokens
        self.path_points, self.blueprint_points = scoring.path_points, scoring.blueprint_points
        if challenges is None:
            challenges = state.boards[seat].challenges
        self.challenges = [challenge_terms(c) for c in challenges]
        # whether board reads the dungeon cell by cell, not only its totals
        self.by_cell = any(reads_rows(c.condition) for c in challenges)
        self.boards: dict[tuple[Hashable, int, PathScore], float] = {}  # see board_once
        self.goal = state.goal.elements
        if year is None:
            year = state.year
        self.bonus: int | None = None  # the final priority, once seat has passed in year 4
        if year == YEARS and seat in state.new_priority:
            self.bonus = rank_points(scoring.priority, state.new_priority.index(seat) + 1)

    def board(self, facts: Facts) -> float:
        """Paths, stars, blueprint, challenges and goal."""
        paths, matches = facts.paths, facts.matches
        value: float = self.path_points(paths) + facts.reputation
        value += self.blueprint_points(matches) + NEAR_BLUEPRINT * matches
        for test, met_points, open_points in self.challenges:
            value += met_points if test(facts) else open_points
        count = facts.count
        for element in self.goal:
            value += GOAL_ELEMENT * count(element)
        return value

    def board_once(
        self,
        base: Facts,
        change: Hashable,
        cell: int,
        new: Chamber,
        targets: Sequence[str],
        paths: PathScore,
    ) -> float:
        """board() of base, the decision's board, with the chamber in cell replaced by
        new (targets: the elements the blueprint shows there; paths: the path score
        then), where change (a card placed, a token put) changes the dungeon's
        totals alike in any cell (stars, element counts, passages) but for the
        blueprint matches and the path score: found once per change, matches and
        path score, unless a claimed condition reads the rows."""
        scoring, tally, chambers = base.scoring, base.tally, base.chambers
        key = None
        if not self.by_cell:
            key = (change, matches_with(scoring, tally, chambers[cell], new, targets), paths)
            found = self.boards.get(key)
            if found is not None:
                return found
        value = self.board(Facts(scoring, chambers, tally, paths, cell, new, targets))
        if key is not None:
            self.boards[key] = value
        return value

    def claimed(self, challenge: Challenge, facts: Facts) -> float:
        """What one more claimed challenge adds to board(facts)."""
        test, met_points, open_points = challenge_terms(challenge)
        return met_points if test(facts) else open_points

    def pending(self, pending: Sequence[int]) -> float:
        """The tokens still to place, each with its stars."""
        tokens, value = self.tokens, 0.0
        for token in pending:  # a loop: a generator costs more than the sum of one or two
            value += PENDING_TOKEN + tokens[token].stars
        return value

    def value(self, board: float, *, gold: int, row_gold: int | None, rival: int | None) -> float:
        """The heuristic from a board's value: gold, row gold (None outside
        construction), the final priority, minus the rival's reputation (None: not solo)."""
        value = board + GOLD * gold
        if row_gold is not None:
            value += ROW_GOLD * row_gold
        if self.bonus is not None:
            value += self.bonus
        if rival is not None:
            value -= rival
        return value


def challenge_terms(challenge: Challenge) -> tuple[Callable[[Facts], bool], float, float]:
    """A claimed challenge's condition, as a test, and what it adds to the heuristic met and unmet
    (an unmet one counts OPEN_CHALLENGE of its points: it may still be met)."""
    return (
        condition_test(challenge.condition),
        challenge.points * 1.0,
        challenge.points * OPEN_CHALLENGE,
    )


# the board terms' weights, and so their sums, are multiples of a quarter: exact floats
assert all(
    (4 * w).is_integer() for w in (NEAR_BLUEPRINT, OPEN_CHALLENGE, GOAL_ELEMENT, PENDING_TOKEN)
)


def judge(
    state: StonespineState,
    seat: int,
    facts: Facts,
    *,
    gold: int,
    row_gold: int | None,
    pending: Sequence[int],
    rival: int | None,
    challenges: Sequence[Challenge] | None = None,
    year: int | None = None,
) -> float:
    """The heuristic of seat's board as facts tell it: paths, stars, blueprint,
    challenges, goal, tokens still to place, gold; solo minus the rival's
    reputation. row_gold is None outside construction, pending the tokens seat
    still has to place, rival the rival's reputation (None: not solo);
    challenges (seat's claimed ones) and year are the state's unless given."""
    judging = Judge(state, seat, challenges, year)
    board = judging.board(facts) + judging.pending(pending)
    return judging.value(board, gold=gold, row_gold=row_gold, rival=rival)


# --- path scores -------------------------------------------------------------------


def path_score_of(tally: Tally, blueprint: Blueprint) -> PathScore:
    return geometry_path_score(tally.geometry, blueprint.entrance, blueprint.exit)


def board_facts(state: StonespineState, board: Board) -> Facts:
    return Facts(
        state.table.scoring, board.chambers, board.tally(state.table), board.path(state.table)
    )


def row_gold(state: StonespineState, board: Board, row: int | None = None) -> int:
    """The gold printed on a row of the board's dungeon (this year's unless given)."""
    cards, base, gold = state.table.cards, (state.row if row is None else row) * SIZE, 0
    for card in board.cards[base : base + SIZE]:
        if card >= 0:
            gold += cards[card].gold
    return gold


def heuristic(state: StonespineState, seat: int) -> float:
    """The heuristic of seat in state, by the book."""
    board = state.boards[seat]
    return judge(
        state,
        seat,
        board_facts(state, board),
        gold=board.gold,
        row_gold=row_gold(state, board) if state.phase == CONSTRUCT else None,
        pending=state.pending if state.mover == seat else (),
        rival=state.rival.reputation().total if state.rival is not None else None,
    )


# --- the look-ahead ----------------------------------------------------------------


def action_values(game, state: StonespineState, seat: int, actions: list[Action]) -> list[float]:
    """heuristic(seat) after each legal action, as copy + apply + heuristic give it."""
    if _by_the_book_only(state, seat):
        return [_by_the_book(game, state, seat, action) for action in actions]
    board = state.boards[seat]
    base = board_facts(state, board)
    judging = Judge(state, seat)
    kinds = {action[0] for action in actions}
    if kinds == {"place"} and not _ends_draft(state):
        return _place_values(state, judging, board, base, actions)
    if kinds == {"place"} and state.rival is not None:
        return [_last_place_value(state, judging, board, base, action) for action in actions]
    if kinds == {"keep"}:
        return _keep_values(state, judging, board, base, actions)
    if kinds == {"put"}:
        return _put_values(state, judging, board, base, actions)
    if kinds <= {"buy", "pass"}:
        return _market_values(game, state, seat, judging, board, base, actions)
    return [_by_the_book(game, state, seat, action) for action in actions]


def judged_in_sight(state: StonespineState, seat: int) -> bool:
    """Whether action_values judges seat's decision from what seat sees alone: a
    card placed before the row's last, a card kept or a token put reads seat's
    board and hand, the market's open rows and the rival's open piles. The
    row's last card (the rival may collect tokens from the face-down piles),
    the market (the same, and a pass turns the rival's next card) and the
    decisions judged by the book read what seat cannot see."""
    if _by_the_book_only(state, seat):
        return False
    if state.phase == CONSTRUCT:
        return state.keeping or not _ends_draft(state)
    return bool(state.pending)


def _by_the_book_only(state: StonespineState, seat: int) -> bool:
    """Another seat's decision, or the game over: every action is judged by the book."""
    return state.mover != seat or state.phase == OVER


def _by_the_book(game, state: StonespineState, seat: int, action: Action) -> float:
    trial = state.copy()
    game.apply(trial, action)
    return game.heuristic(trial, seat)


def _ends_draft(state: StonespineState) -> bool:
    """Whether a card placed now is the row's last: the improvement phase starts."""
    if state.draft < SIZE - 1:
        return False
    return state.table.solo or state.mover == state.table.players - 1


def _rival(state: StonespineState) -> int | None:
    return state.rival.reputation().total if state.rival is not None else None


def _place_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: list[Action]
) -> list[float]:
    """A card placed before the row's last: one new chamber, its printed gold on the row."""
    table = state.table
    gold, rival, start = row_gold(state, board), _rival(state), state.row * SIZE
    entrance, exit = board.blueprint.entrance, board.blueprint.exit
    reach = path_reach(base.tally.geometry, entrance, exit)  # where paths may change
    values = []
    for _, card_id, col in actions:
        index = table.card_index[card_id]
        cell, chamber = start + col, table.chambers[index]
        paths = base.paths
        if reach >> cell & 1:
            geometry = base.tally.geometry.with_chamber(cell, chamber)
            paths = geometry_path_score(geometry, entrance, exit)
        targets = board.targets.get(cell, ())
        value = judging.value(
            judging.board_once(base, index, cell, chamber, targets, paths),
            gold=board.gold,
            row_gold=gold + table.cards[index].gold,
            rival=rival,
        )
        values.append(value)
    return values


def _last_place_value(
    state: StonespineState, judging: Judge, board: Board, base: Facts, action: Action
) -> float:
    """Solo, the row's last card: one new chamber, the card left in hand offered to
    the rival, the improvement's gold counted and the rival card's verdict on it
    (COLLECT: the rival collects its card's tokens)."""
    from protopress.games.stonespine_architects.rules import collected_tokens, income_of

    table, rival = state.table, state.rival
    assert rival is not None  # solo
    _, card_id, col = action
    index = table.card_index[card_id]
    cell, chamber = state.row * SIZE + col, table.chambers[index]
    cards, chambers = board.cards[:], board.chambers[:]
    cards[cell], chambers[cell] = index, chamber
    geometry = base.tally.geometry.with_chamber(cell, chamber)
    paths = geometry_path_score(geometry, board.blueprint.entrance, board.blueprint.exit)
    targets = board.targets.get(cell, ())
    facts = Facts(table.scoring, board.chambers, base.tally, paths, cell, chamber, targets)
    rest = board.hand[:]
    rest.remove(index)
    taken = [table.cards[i] for i in rest if rival.wants(table.cards[i])]
    gold = income_of(state, state.mover, cards, chambers)
    collected = []
    if rival.market_verdict(gold) == COLLECT:
        collected = [table.tokens[t] for t in collected_tokens(state)]
    total = rival.reputation_with(chambers=taken, tokens=collected).total
    return judging.value(judging.board(facts), gold=gold, row_gold=None, rival=total)


def _keep_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: list[Action]
) -> list[float]:
    """Solo: a card kept, the rest offered to the rival; the board does not change."""
    table = state.table
    rival = state.rival
    assert rival is not None  # only the solo game keeps cards
    gold, value = row_gold(state, board), judging.board(base)
    values = []
    for _, card_id in actions:
        rest = board.hand[:]
        rest.remove(table.card_index[card_id])
        taken = [table.cards[i] for i in rest if rival.wants(table.cards[i])]
        total = rival.reputation_with(chambers=taken).total
        values.append(judging.value(value, gold=board.gold, row_gold=gold, rival=total))
    return values


def _put_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: list[Action]
) -> list[float]:
    """A bought token put in a slot or on an edge: one chamber changed; the tokens
    still to place are those left that fit somewhere afterwards."""
    table, blueprint = state.table, board.blueprint
    rival = _rival(state)
    room = {token: board.room(table, token) for token in state.pending}  # where each fits now
    reach = path_reach(base.tally.geometry, blueprint.entrance, blueprint.exit)
    pending = state.pending
    others = [pending[:k] + pending[k + 1 :] for k in range(len(pending))]  # left after k
    values = []
    for action in actions:
        k, row, col = action[1:4]
        token, cell = pending[k], row * SIZE + col
        edge = action[4] if len(action) == 5 else None
        new = with_token(board.chambers[cell], table.tokens[token], edge)
        paths = base.paths
        if edge is not None and reach >> cell & 1:  # a secret passage where paths may change
            geometry = base.tally.geometry.with_chamber(cell, new)
            paths = geometry_path_score(geometry, blueprint.entrance, blueprint.exit)
        card = board.cards[cell]
        left = []  # as fits() on the dungeon with the new chamber
        for t in others[k]:
            fitting, first = room[t]  # fits in another cell, or in the new chamber
            if fitting > 1 or (fitting == 1 and first != cell) or fits_in(table, card, new, t):
                left.append(t)
        targets = board.targets.get(cell, ())
        change = table.tokens[token]
        value = judging.board_once(base, change, cell, new, targets, paths)
        value += judging.pending(left)
        values.append(judging.value(value, gold=board.gold, row_gold=None, rival=rival))
    return values


def _market_values(
    game,
    state: StonespineState,
    seat: int,
    judging: Judge,
    board: Board,
    base: Facts,
    actions: list[Action],
) -> list[float]:
    """Market rows bought and passes: the board does not change, so its value is
    judged once; what the passes share is found at the first."""
    value = judging.board(base)
    markets = state.table.markets  # each row by (card id, row), the first kept as by offer_of
    offers = {(markets[o.card].id, o.row): o for o in reversed(state.market)}
    rivals: dict[str, int] = {}  # the rival's reputation by its verdict on the gold left
    passing: _Passing | None = None
    values = []
    for action in actions:
        if action[0] == "buy":
            offer = offers[action[1], action[2]]
            values.append(_buy_value(state, judging, value, board, offer, rivals))
            continue
        if passing is None:
            passing = _passing(state, seat, board)
        if passing is None:  # multiplayer: by the book
            values.append(_by_the_book(game, state, seat, action))
        else:
            values.append(_pass_value(state, passing, value, base, action))
    return values


def _buy_value(
    state: StonespineState,
    judging: Judge,
    value: float,
    board: Board,
    offer: Offer,
    rivals: dict[str, int],
) -> float:
    """A market row bought: less gold, its tokens to place (those that fit), and in
    solo the rival card's verdict on the gold left (COLLECT: the rival collects);
    value is the board's (judging.board), rivals keeps the rival's reputation per
    verdict for the decision's other rows."""
    from protopress.games.stonespine_architects.rules import collected_tokens

    table = state.table
    gold = board.gold - offer.cost
    rival = None
    if state.rival is not None:
        verdict = state.rival.market_verdict(gold)
        rival = rivals.get(verdict)
        if rival is None:
            collected: list = []
            if verdict == COLLECT:
                collected = [table.tokens[t] for t in collected_tokens(state)]
            rival = rivals[verdict] = state.rival.reputation_with(tokens=collected).total
    pending = [t for t in offer.tokens if board.room(table, t).cells]  # those that fit
    value += judging.pending(pending)
    return judging.value(value, gold=gold, row_gold=None, rival=rival)


class _Passing(NamedTuple):
    """What a solo decision's passes share: the judge with next year's final
    priority, the gold after passing, next year's row gold (None: the game ends)
    and the rival's reputation with the market's tokens and its next card."""

    judging: Judge
    gold: int
    row_gold: int | None
    rival: int


def _passing(state: StonespineState, seat: int, board: Board) -> _Passing | None:
    """Solo: the year ends, and unless it was the last the next begins with the
    rival's next card face up. None in multiplayer (judged by the book)."""
    rival = state.rival
    if rival is None or (state.year < YEARS and not rival.deck):
        return None
    table = state.table
    tokens = [table.tokens[t] for offer in state.market for t in offer.tokens]
    gold = gold_after_pass(state.year, board.gold)
    if state.year == YEARS:  # the game ends: no construction, the same rival card
        total = rival.reputation_with(tokens=tokens).total
        return _Passing(Judge(state, seat), gold, None, total)
    total = rival.reputation_with(card=rival.deck[0], tokens=tokens).total
    row = row_gold(state, board, state.year)
    return _Passing(Judge(state, seat, year=state.year + 1), gold, row, total)


def _pass_value(
    state: StonespineState, passing: _Passing, value: float, base: Facts, action: Action
) -> float:
    """Solo: a challenge claimed (if any is face up) adds its term to the board's
    value; the rest is what the decision's passes share."""
    if len(action) == 2:
        table = state.table
        claimed = next(i for i in state.display if table.challenges[i].id == action[1])
        value += passing.judging.claimed(table.challenges[claimed], base)
    return passing.judging.value(
        value, gold=passing.gold, row_gold=passing.row_gold, rival=passing.rival
    )

"""Stonespine Architects: the greedy bots' judgement of a position, written once.

`judge` is the heuristic: the provisional score plus nudges toward what pays
later, read from a board's `Facts`. A board's facts come from its `Tally`
(reputation, element counts, blueprint matches, geometry: kept per board,
shared by copies until a chamber changes) and its path score. The values of a
decision's actions without copies are lookahead.py's.
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
)
from protopress.games.stonespine_architects.rulebook import CONSTRUCT, OVER, YEARS
from protopress.games.stonespine_architects.scoring import (
    Blueprint,
    Challenge,
    Scoring,
    condition_test,
    rank_points,
    reads_rows,
)

if TYPE_CHECKING:
    from protopress.games.stonespine_architects.state import Board, StonespineState

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
        terms = challenge_terms(challenge)
        return terms.met_points if terms.test(facts) else terms.open_points

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


class ChallengeTerms(NamedTuple):
    """A claimed challenge as the heuristic reads it: its condition as a test, and what
    it adds met and unmet (an unmet one counts OPEN_CHALLENGE of its points: it may
    still be met)."""

    test: Callable[[Facts], bool]
    met_points: float
    open_points: float


def challenge_terms(challenge: Challenge) -> ChallengeTerms:
    return ChallengeTerms(
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


# --- what the look-ahead judges in sight (bots.GreedyBot) ---------------------------


def judged_in_sight(state: StonespineState, seat: int) -> bool:
    """Whether action_values judges seat's decision from what seat sees alone: a
    card placed before the row's last, a card kept or a token put reads seat's
    board and hand, the market's open rows and the rival's open piles. The
    row's last card (the rival may collect tokens from the face-down piles),
    the market (the same, and a pass turns the rival's next card) and the
    decisions judged by the book read what seat cannot see."""
    if by_the_book_only(state, seat):
        return False
    if state.phase == CONSTRUCT:
        return state.keeping or not ends_draft(state)
    return bool(state.pending)


def by_the_book_only(state: StonespineState, seat: int) -> bool:
    """Another seat's decision, or the game over: every action is judged by the book."""
    return state.mover != seat or state.phase == OVER


def ends_draft(state: StonespineState) -> bool:
    """Whether a card placed now is the row's last: the improvement phase starts."""
    if state.draft < SIZE - 1:
        return False
    return state.table.solo or state.mover == state.table.players - 1

"""Gemstone Caverns: the active player rolls the symbol dice and arranges them
into one connected shape; every player draws it on their own grid, rotated but
never mirrored, perhaps hanging off the edge. Groups of one symbol joined along
edges score. Rulings: docs/rules/gemstone-caverns.md.

Grids are flat bytearrays (0 an empty box, i + 1 the catalog's i-th symbol)
with an integer bitmask of filled boxes beside them, so that a placement's
legality is one AND and a state copies in microseconds.
"""

# Over 600 lines on purpose: the grid's fast paths (bit boards, incremental groups)
# sit beside the reference rules they are tested against, so the two are read together.

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, permutations
from typing import Any, NamedTuple

from protopress.games.gemstone_caverns.checks import polyominoes, rotations, shape_name
from protopress.games.gemstone_caverns.spec import SPEC
from protopress.rules.bots import greedy_action, reference_values
from protopress.rules.core import Action, IllegalAction, top_seats
from protopress.rules.information import SharedRng
from protopress.rules.spec import Outcome, OutcomeKind

EMPTY = "."
FIT_BONUS = 0.05  # per edge an arrangement could join: a tie-break between arrangements
NEAR_BONUS = 0.3  # heuristic: per box in a group one or two boxes short of scoring
PASS: Action = ("pass",)


class Scoring(NamedTuple):
    min_group: int
    per_group: int
    per_box: int


def _scoring(scoring) -> Scoring:
    if isinstance(scoring, Scoring):
        return scoring
    return Scoring(scoring["min_group"], scoring["per_group"], scoring["per_box"])


# --- geometry --------------------------------------------------------------


def _turn(cells, times: int) -> tuple[tuple[int, int], ...]:
    """Cells turned clockwise `times` quarter turns, in the same order, top-left at (0, 0)."""
    for _ in range(times):
        cells = [(c, -r) for r, c in cells]
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple((r - top, c - left) for r, c in cells)


@lru_cache(maxsize=8)
def _shapes(dice: int) -> tuple:
    """(cells, name, symmetries) per one-sided polyomino of `dice` cells.

    cells are sorted in the canonical orientation of gemstone_checks; each
    symmetry is a quarter turn mapping the shape onto itself, as the
    permutation sending cell k to cells[perm[k]].
    """
    shapes = []
    for shape in polyominoes(dice):
        cells = tuple(sorted(shape))
        step = len(rotations(shape))  # the turns that map a shape onto itself: multiples of step
        symmetries = tuple(
            tuple(cells.index(cell) for cell in _turn(cells, times)) for times in range(0, 4, step)
        )
        shapes.append((cells, shape_name(shape), symmetries))
    return tuple(shapes)


def _relabel(labels: tuple, perm: tuple) -> tuple:
    turned = [None] * len(labels)
    for k, target in enumerate(perm):
        turned[target] = labels[k]
    return tuple(turned)


@lru_cache(maxsize=512)
def _arrangements(rolled: tuple[str, ...]) -> tuple[Action, ...]:
    """Every distinct arrangement of the rolled faces (sorted), one per class of rotations."""
    actions = []
    for cells, _, symmetries in _shapes(len(rolled)):
        for labels in sorted(set(permutations(rolled))):
            # keep the least labelling among those the shape's symmetries give
            if all(_relabel(labels, perm) >= labels for perm in symmetries):
                actions.append(("arrange", cells, labels))
    return tuple(actions)


@lru_cache(maxsize=8)
def _by_cells(dice: int) -> dict:
    """{cells: (name, symmetries)} of the shapes of `dice` cells."""
    return {cells: (name, symmetries) for cells, name, symmetries in _shapes(dice)}


@lru_cache(maxsize=4096)
def _distinct_turns(cells, labels) -> int:
    """How many quarter turns (0, 1, ...) give different labelled placements (labels
    may be symbols, codes or kin: only which dice are alike counts)."""
    _, symmetries = _by_cells(len(cells))[cells]
    return 4 // sum(_relabel(labels, perm) == labels for perm in symmetries)


@lru_cache(maxsize=64)
def _placements(cells, rows: int, cols: int) -> tuple[dict, ...]:
    """Per quarter turn: {(row, col): (mask, ((cell, box), ...))} for each offset with a box inside."""
    turns = []
    for times in range(4):
        turned = _turn(cells, times)
        height = max(r for r, _ in turned) + 1
        width = max(c for _, c in turned) + 1
        spots = {}
        for row in range(1 - height, rows):
            for col in range(1 - width, cols):
                inside = tuple(
                    (k, (r + row) * cols + c + col)
                    for k, (r, c) in enumerate(turned)
                    if 0 <= r + row < rows and 0 <= c + col < cols
                )
                if inside:
                    spots[row, col] = (sum(1 << box for _, box in inside), inside)
        turns.append(spots)
    return tuple(turns)


@lru_cache(maxsize=64)
def _place_actions(cells, rows: int, cols: int) -> tuple[tuple[tuple[int, Action], ...], ...]:
    """Per quarter turn: (mask, the "place" action) of each offset, built once per shape."""
    return tuple(
        tuple((mask, ("place", times, row, col)) for (row, col), (mask, _) in spots.items())
        for times, spots in enumerate(_placements(cells, rows, cols))
    )


class _PlaceTable(NamedTuple):
    """An arrangement's placements with what each covers, laid out so that the
    placements clear of a seat's filled boxes are found for all of them at once:
    bit i of an integer stands for the i-th placement."""

    shown: tuple[tuple[Action, ...], ...]  # per number of quarter turns shown: their placements
    covers: tuple[tuple[int, ...], ...]  # per byte of the grid's mask: per value, the bits of
    # the placements covering one of those boxes
    top: int  # the bit just above the last placement's


_DIGITS = bytes.maketrans(b"01", b"\x00\x01")  # a binary numeral's digits as selectors


@lru_cache(maxsize=64)
def _place_table(cells, rows: int, cols: int) -> _PlaceTable:
    placements = [pair for turn in _place_actions(cells, rows, cols) for pair in turn]
    by_box = [0] * (rows * cols)  # per box: the bits of the placements covering it
    for bit, (mask, _) in enumerate(placements):
        for box in range(mask.bit_length()):
            if mask >> box & 1:
                by_box[box] |= 1 << bit
    covers = []
    for first in range(0, rows * cols, 8):
        boxes = by_box[first : first + 8] + [0] * max(0, first + 8 - rows * cols)
        values = [0] * 256
        for value in range(1, 256):  # a value's covers: its lowest box's and the rest's
            low = (value & -value).bit_length() - 1
            values[value] = values[value & (value - 1)] | boxes[low]
        covers.append(tuple(values))
    ends = [0]
    for turn in _place_actions(cells, rows, cols):
        ends.append(ends[-1] + len(turn))
    actions = tuple(action for _, action in placements)
    return _PlaceTable(tuple(actions[:end] for end in ends), tuple(covers), 1 << len(actions))


def _free_placements(cells, rows: int, cols: int, turns: int, filled: int) -> list[Action]:
    """The placements of the first `turns` quarter turns that cover no box of filled,
    in _place_actions' order (the reference: _clear_placements is tested equal to it)."""
    return [
        action
        for times in range(turns)
        for mask, action in _place_actions(cells, rows, cols)[times]
        if not mask & filled
    ]


def _clear_placements(cells, rows: int, cols: int, turns: int, filled: int) -> list[Action]:
    """_free_placements for all placements at once: the bits of the placements that
    cover a filled box, a table look-up per byte of filled, become a numeral whose
    digits select the others."""
    table = _place_table(cells, rows, cols)
    covered = 0
    for chunk, values in enumerate(table.covers):
        covered |= values[filled >> 8 * chunk & 0xFF]
    clear = ~covered & (table.top - 1)
    selectors = format(clear | table.top, "b").encode()[:0:-1].translate(_DIGITS)
    return list(compress(table.shown[turns], selectors))


@lru_cache(maxsize=64)
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Edge neighbours of each box of a flat grid (never across corners)."""
    return tuple(
        tuple(
            (r + dr) * cols + c + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        for r in range(rows)
        for c in range(cols)
    )


def _label(cells, neighbours) -> tuple[list[int], list[tuple[int, int]]]:
    """Each box's group number (-1 for an empty box) and (symbol, size) of every group
    of one symbol joined along edges; 0 is an empty box."""
    labels = [-1] * len(cells)
    groups: list[tuple[int, int]] = []
    for start, symbol in enumerate(cells):
        if not symbol or labels[start] >= 0:
            continue
        number = len(groups)
        labels[start] = number
        group = [start]
        for box in group:  # breadth first: the list grows while it is read
            for other in neighbours[box]:
                if cells[other] == symbol and labels[other] < 0:
                    labels[other] = number
                    group.append(other)
        groups.append((symbol, len(group)))
    return labels, groups


def _groups(cells, neighbours) -> list[tuple[int, int]]:
    """(symbol, size) of every group of one symbol joined along edges; 0 is an empty box."""
    return _label(cells, neighbours)[1]


def _value_of(groups: list[tuple[int, int]], scoring: Scoring) -> tuple[int, int]:
    """(score, boxes in groups one or two boxes short of scoring) of a grid's groups."""
    score = near = 0
    for _, size in groups:
        if size >= scoring.min_group:
            score += scoring.per_group + size * scoring.per_box
        elif size >= scoring.min_group - 2:
            near += size
    return score, near


# --- scoring a written grid -------------------------------------------------


class SymbolScore(NamedTuple):
    groups: int  # scorable groups
    boxes: int  # boxes in scorable groups
    score: int


@dataclass(frozen=True)
class GridScore:
    total: int
    by_symbol: dict[str, SymbolScore]

    def to_json(self) -> dict:
        return {
            "total": self.total,
            "by_symbol": {char: s._asdict() for char, s in self.by_symbol.items()},
        }


def _row_width(grid_rows) -> int:
    if not isinstance(grid_rows, list) or not grid_rows:
        raise ValueError('"grid" must be a non-empty list of row strings')
    for number, row in enumerate(grid_rows, 1):
        if not isinstance(row, str):
            raise ValueError(f"grid row {number} is not a string of boxes")
        if len(row) != len(grid_rows[0]):
            raise ValueError(
                f"grid rows must all have the same length: row 1 has {len(grid_rows[0])} "
                f"boxes, row {number} has {len(row)}"
            )
    if not grid_rows[0]:
        raise ValueError("grid rows are empty")
    return len(grid_rows[0])


def score_grid(grid_rows: list[str], scoring) -> GridScore:
    """Score a grid written one string per row ("." empty; equal characters one symbol)."""
    rules = _scoring(scoring)
    width = _row_width(grid_rows)
    chars = sorted(set("".join(grid_rows)) - {EMPTY})
    code = {char: index for index, char in enumerate(chars, 1)}
    cells = [code.get(char, 0) for row in grid_rows for char in row]
    tally = {index: [0, 0] for index in code.values()}
    for symbol, size in _groups(cells, _neighbours(len(grid_rows), width)):
        if size >= rules.min_group:
            tally[symbol][0] += 1
            tally[symbol][1] += size
    by_symbol = {
        char: SymbolScore(g, b, g * rules.per_group + b * rules.per_box)
        for char, (g, b) in zip(chars, tally.values(), strict=True)
    }
    return GridScore(sum(s.score for s in by_symbol.values()), by_symbol)


def _sheet(catalog):
    sheets = catalog.of_kind("score-sheet")
    if not sheets:
        raise ValueError(f"{catalog.path}: no score sheet to take the grid and scoring from")
    return sheets[0]


def score_state(catalog, state_json: dict) -> dict:
    """The score of {"grid": [...]} under the catalog's score sheet scoring."""
    # unchecked JSON: score_grid checks that it is a list of row strings
    grid: Any = state_json.get("grid") if isinstance(state_json, dict) else None
    return score_grid(grid, _sheet(catalog)["scoring"]).to_json()


def format_score(result: dict) -> str:
    lines = [f"{'symbol':<8}{'groups':>7}{'boxes':>7}{'score':>7}"]
    for char, s in result["by_symbol"].items():
        lines.append(f"{char:<8}{s['groups']:>7}{s['boxes']:>7}{s['score']:>7}")
    lines.append(f"{'total':<8}{'':>14}{result['total']:>7}")
    return "\n".join(lines)


# --- the game ---------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What stays fixed during a game: sheet, symbols, dice, scoring."""

    rows: int
    cols: int
    symbols: tuple[str, ...]  # ids; grid code i + 1 is symbols[i]
    letters: str  # one character per symbol, for written grids
    dice: tuple[tuple[str, ...], ...]  # faces per die, each copy of a die separately
    scoring: Scoring
    neighbours: tuple
    players: int
    full: int  # the bitmask of a full grid

    @classmethod
    def of(cls, catalog, players: int) -> Table:
        sheet = _sheet(catalog)
        symbols = catalog.of_kind("symbol")
        dice = tuple(
            tuple(die["faces"]) for die in catalog.of_kind("die") for _ in range(die.count)
        )
        if not dice:
            raise ValueError(f"{catalog.path}: no dice to roll")
        return cls(
            rows=sheet["rows"],
            cols=sheet["columns"],
            symbols=tuple(s.id for s in symbols),
            letters="".join(s.get("letter") or s["name"][0] for s in symbols),
            dice=dice,
            scoring=_scoring(sheet["scoring"]),
            neighbours=_neighbours(sheet["rows"], sheet["columns"]),
            players=players,
            full=(1 << sheet["rows"] * sheet["columns"]) - 1,
        )


class GemstoneState(SharedRng):
    """One game: a grid per seat, the roll, the arrangement and who still places it."""

    __slots__ = (
        "table", "grids", "filled", "values", "active", "rolled", "arrangement", "codes",
        "turns_shown", "placed", "ended", "over", "turns", "passes", "used", "legal",
    )  # fmt: skip

    def __init__(self, table: Table, rng: random.Random):
        self.table = table
        self.grids = [bytearray(table.rows * table.cols) for _ in range(table.players)]
        self.filled = [0] * table.players  # bitmask of filled boxes per seat
        # per seat, shared by the copies holding the same grid (a change gives the
        # changed state a fresh one): look-ahead copies fill them
        self.values = [_Judged() for _ in range(table.players)]
        self.active = 0  # the seat that rolls and arranges this turn
        self.rolled: tuple[str, ...] = ()
        self.arrangement: tuple | None = None  # (cells, symbol ids) once chosen
        self.codes: tuple[int, ...] = ()  # grid codes of the arrangement's cells
        self.turns_shown = 4  # distinct quarter turns of the arrangement
        self.placed = 0  # seats that have placed (or passed) this turn, from the active one
        self.ended = False  # a seat could not place: the game ends after this arrangement
        self.over = False
        self.turns = 0
        self.passes = 0
        self.used: Counter = Counter()  # arrangements chosen, by (seat, shape name)
        SharedRng.__init__(self, rng)  # a copy shares it until one of them draws
        self.legal: tuple | None = None  # the last placements listed, with what they depend on

    def copy(self) -> GemstoneState:
        new = object.__new__(GemstoneState)
        for name in GemstoneState.__slots__:
            setattr(new, name, getattr(self, name))
        new.grids = [grid[:] for grid in self.grids]
        new.filled = self.filled[:]
        new.values = self.values[:]
        new.used = self.used.copy()
        self.share_rng(new)
        return new

    def grid_rows(self, seat: int) -> list[str]:
        """The seat's grid written one string per row, symbols by letter, "." empty."""
        t = self.table
        chars = EMPTY + t.letters
        grid = self.grids[seat]
        return [
            "".join(chars[v] for v in grid[r * t.cols : (r + 1) * t.cols]) for r in range(t.rows)
        ]

    def set_grid(self, seat: int, grid_rows: list[str]) -> None:
        """Fill a seat's grid from rows of letters (for tests and puzzles)."""
        t = self.table
        if _row_width(grid_rows) != t.cols or len(grid_rows) != t.rows:
            raise ValueError(f"the grid must be {t.rows} rows of {t.cols} boxes")
        codes = {EMPTY: 0} | {letter: i for i, letter in enumerate(t.letters, 1)}
        try:
            self.grids[seat][:] = bytes(codes[char] for row in grid_rows for char in row)
        except KeyError as error:
            raise ValueError(f"{error.args[0]!r} is no symbol letter ({t.letters})") from None
        self.filled[seat] = sum(1 << box for box, v in enumerate(self.grids[seat]) if v)
        self.values[seat] = _Judged()


class GemstoneCaverns:
    spec = SPEC
    id, min_players, max_players = SPEC.id, SPEC.min_players, SPEC.max_players

    def setup(self, catalog, players: int, rng: random.Random, options: dict) -> GemstoneState:
        SPEC.parse_options(options or {})  # it has none: refuses any given
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} takes {self.min_players} to {self.max_players} players")
        state = GemstoneState(Table.of(catalog, players), rng)
        _roll(state)
        return state

    def to_move(self, state: GemstoneState) -> int | None:
        if state.over:
            return None
        return (state.active + state.placed) % state.table.players

    def legal_actions(self, state: GemstoneState) -> list[Action]:
        if state.over:
            return []
        if state.arrangement is None:
            return list(_arrangements(tuple(sorted(state.rolled))))
        t = state.table
        seat = self.to_move(state)
        if seat is None:  # not over, so a seat places
            raise IllegalAction("the game is over")
        filled = state.filled[seat]
        key = (state.arrangement, state.turns_shown, filled)
        if state.legal is None or state.legal[0] != key:  # the loop and the bot both ask
            actions = _clear_placements(
                state.arrangement[0], t.rows, t.cols, state.turns_shown, filled
            )
            state.legal = (key, tuple(actions or [PASS]))
        return list(state.legal[1])

    def apply(self, state: GemstoneState, action: Action) -> None:
        kind = action[0]
        if state.over:
            raise IllegalAction("the game is over")
        if kind == "arrange":
            if state.arrangement is not None:
                raise IllegalAction("the dice are already arranged this turn")
            _, cells, labels = action
            state.arrangement = (cells, labels)
            state.codes, state.turns_shown, _, _ = _arranged(cells, labels, state.table.symbols)
            state.used[state.active, _by_cells(len(cells))[cells][0]] += 1
            return
        if state.arrangement is None:
            raise IllegalAction("the dice must be arranged first")
        if kind == "place":
            _, times, row, col = action
            t, seat = state.table, self.to_move(state)
            if seat is None:  # not over, so a seat places
                raise IllegalAction("the game is over")
            try:
                mask, inside = _placements(state.arrangement[0], t.rows, t.cols)[times][row, col]
            except (KeyError, IndexError, TypeError):
                raise IllegalAction(f"no box of the grid under {action}") from None
            if mask & state.filled[seat]:
                raise IllegalAction(f"{action} overlaps filled boxes of seat {seat}")
            grid = state.grids[seat]
            for k, box in inside:
                grid[box] = state.codes[k]
            state.filled[seat] |= mask
            state.values[seat] = _Judged()
        elif kind == "pass":
            state.ended = True
            state.passes += 1
        else:
            raise IllegalAction(f"unknown action {action}")
        state.placed += 1
        if state.placed == state.table.players:
            _end_turn(state)

    def is_over(self, state: GemstoneState) -> bool:
        return state.over

    def scores(self, state: GemstoneState) -> list[int]:
        return [_cached(state, seat)[0] for seat in range(state.table.players)]

    def winners(self, state: GemstoneState) -> list[int]:
        return top_seats(self.scores(state))

    def outcome(self, state: GemstoneState) -> Outcome:
        """One player plays for a score (solo, nothing to win against); more race."""
        scores = self.scores(state)
        kind = OutcomeKind.SOLO if len(scores) == 1 else OutcomeKind.VERSUS
        return Outcome(kind, tuple(scores), tuple(self.winners(state)))

    def heuristic(self, state: GemstoneState, seat: int) -> float:
        score, near = _cached(state, seat)
        value = score + NEAR_BONUS * near
        if state.arrangement is not None and state.placed == 0 and state.active == seat:
            # the arrangement just chosen: how well it can join this seat's groups
            value += FIT_BONUS * self.best_fit(state, seat)
        others = [_cached(state, s)[0] for s in range(state.table.players) if s != seat]
        return value - max(others) if others else value

    def best_fit(self, state: GemstoneState, seat: int) -> int:
        """_best_fit for the heuristic, by _fast_best_fit (tested equal to it)."""
        return _fast_best_fit(state, seat)

    def action_values(self, state: GemstoneState, seat: int, actions: list[Action]) -> list[float]:
        """heuristic(seat) after each of the actions of the seat to move, as applying
        each to a copy would give it (the greedy bot's look-ahead, without the copies)."""
        if seat == self.to_move(state):
            if state.arrangement is None:
                return arrangement_values(state, seat, actions)
            return placement_values(state, seat, actions)
        return reference_values(self, state, seat, actions)

    def rollout_action(self, state: GemstoneState, rng: random.Random) -> Action:
        """The search bot's playout move: the greedy bot's (by the fast action_values).
        Played to the end of the turn, it judges an arrangement by how both players
        then place it, not by the roller's fit alone (docs/balance.md)."""
        return greedy_action(self, state, rng)

    def record(self, state: GemstoneState) -> dict:
        shapes: Counter = Counter()
        used: list[list[str]] = [[] for _ in state.filled]
        for (seat, shape), times in sorted(state.used.items()):
            shapes[shape] += times
            used[seat] += [shape] * times
        return {
            "boxes_filled": [filled.bit_count() for filled in state.filled],
            "arrangements": dict(sorted(shapes.items())),
            "passes": state.passes,
            "used": used,  # shapes each seat chose as the active player
        }


def _roll(state: GemstoneState) -> None:
    state.rolled = tuple(state.rng.choice(faces) for faces in state.table.dice)


def _end_turn(state: GemstoneState) -> None:
    """Everyone has placed: end the game or pass the dice clockwise and roll."""
    t = state.table
    state.turns += 1
    state.placed = 0
    state.arrangement = None
    if state.ended or all(filled == t.full for filled in state.filled):
        state.over = True
        return
    state.active = (state.active + 1) % t.players
    _roll(state)


def _best_fit(state: GemstoneState, seat: int) -> int:
    """The most same-symbol edges a placement of the arrangement could make with
    boxes already filled, plus those between its own dice. The reference, one
    placement at a time: the heuristic uses _fast_best_fit, tested against it."""
    if state.arrangement is None:
        raise ValueError("the dice are not arranged yet")
    t = state.table
    grid, filled, codes, neighbours = (
        state.grids[seat],
        state.filled[seat],
        state.codes,
        t.neighbours,
    )
    spots = _placements(state.arrangement[0], t.rows, t.cols)
    best = -1
    for times in range(state.turns_shown):
        for mask, inside in spots[times].values():
            if mask & filled:
                continue
            fit = len(inside)
            for k, box in inside:
                code = codes[k]
                fit += sum(grid[other] == code for other in neighbours[box])
            best = max(best, fit)
    cells = state.arrangement[0]
    inner = sum(
        codes[i] == codes[j] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        for i, a in enumerate(cells)
        for j, b in enumerate(cells)
        if i < j
    )
    return best + 2 * inner


# --- fast look-ahead ----------------------------------------------------------
#
# A greedy bot judges ~350 placements and ~114 arrangements a decision. Copying
# the state, placing and flood-filling the grid for each is what made the game
# slow; the functions below give the same heuristic values from one analysis of
# the seat's grid (tests/games/gemstone_caverns/test_fast.py checks that they
# agree with apply + heuristic on thousands of random positions).


class _Spot(NamedTuple):
    """One placement of an arrangement: what it covers and the groups its dice form
    among themselves. Dice are named by the first die of their symbol (`kin`), so
    that arrangements alike but for which symbols they show share one table."""

    mask: int  # boxes covered
    joins: int  # per kin k, the boxes of its dice, shifted by k * the grid's boxes
    parts: tuple[tuple[int, tuple[int, ...]], ...]  # (kin, boxes) per group of the dice alone
    kind: int  # index of the parts' sizes among the table's (placements joining no group)


class _Spots(NamedTuple):
    by_action: dict[Action, _Spot]  # every placement action, and the pass
    sizes: tuple[tuple[int, ...], ...]  # the parts' sizes of each kind of spot


def _kin(codes: tuple[int, ...]) -> tuple[int, ...]:
    """For each die, the first die showing its symbol: (2, 5, 2, 2) gives (0, 1, 0, 0)."""
    return tuple(codes.index(code) for code in codes)


@lru_cache(maxsize=256)
def _spots(cells, kin: tuple[int, ...], rows: int, cols: int) -> _Spots:
    """Every placement action of an arrangement of the shape cells whose dice show
    symbols alike as kin says, with its _Spot."""
    neighbours = _neighbours(rows, cols)
    boxes = rows * cols
    kinds: dict[tuple[int, ...], int] = {(): 0}  # the pass covers nothing
    table = {PASS: _Spot(0, 0, (), 0)}
    for (mask, action), (_, inside) in zip(
        (pair for turn in _place_actions(cells, rows, cols) for pair in turn),
        (spot for turn in _placements(cells, rows, cols) for spot in turn.values()),
        strict=True,
    ):
        kin_of = {box: kin[k] for k, box in inside}
        joins = 0
        for box, same in kin_of.items():
            joins |= 1 << (box + same * boxes)
        parts, seen = [], set()
        for box, same in kin_of.items():
            if box in seen:
                continue
            seen.add(box)
            part = [box]
            for b in part:
                for other in neighbours[b]:
                    if kin_of.get(other) == same and other not in seen:
                        seen.add(other)
                        part.append(other)
            parts.append((same, tuple(part)))
        sizes = tuple(sorted(len(part) for _, part in parts))
        kind = kinds.setdefault(sizes, len(kinds))
        table[action] = _Spot(mask, joins, tuple(parts), kind)
    return _Spots(table, tuple(kinds))


@lru_cache(maxsize=8)
def _worth(scoring: Scoring, boxes: int) -> tuple[tuple[int, int], ...]:
    """(score, near boxes) a group of each size 0..boxes adds, as _value_of counts them."""
    low = scoring.min_group
    return tuple(
        (scoring.per_group + size * scoring.per_box, 0)
        if size >= low
        else (0, size if size >= low - 2 else 0)
        for size in range(boxes + 1)
    )


def placement_values(state: GemstoneState, seat: int, actions: list[Action]) -> list[float]:
    """heuristic(seat) after each of seat's placement actions (or the pass), as copying
    the state, applying the action and scoring would give it, without copying: one
    labelling of the grid, then per placement only the groups its dice join."""
    t = state.table
    if state.arrangement is None:
        raise ValueError("the dice are not arranged yet")
    grid, neighbours = state.grids[seat], t.neighbours
    judged = _judge(state, seat)
    labels, groups = judged.labels, judged.groups
    score, near = judged.value
    others = [_cached(state, s)[0] for s in range(t.players) if s != seat]
    rival = max(others) if others else 0
    worth = _worth(t.scoring, len(grid))
    stride = len(t.symbols) + 1
    near_of: dict[int, set[int]] = {}  # by box * stride + code: the groups of code beside box
    beside = [0] * stride  # per code: empty boxes beside a group of it
    for box, code in enumerate(grid):
        if code:
            for other in neighbours[box]:
                if not grid[other]:
                    beside[code] |= 1 << other
                    near_of.setdefault(other * stride + code, set()).add(labels[box])
    codes = state.codes
    kin = _kin(codes)
    spots = _spots(state.arrangement[0], kin, t.rows, t.cols)
    # the boxes beside each kin's groups, laid out as _Spot.joins: one AND tells
    # whether a placement joins any group
    beside_kin = sum(beside[codes[k]] << k * len(grid) for k in set(kin))
    quick = []  # the value of a placement joining no group, per kind of spot
    for sizes in spots.sizes:
        s, n = score, near
        for size in sizes:
            s, n = s + worth[size][0], n + worth[size][1]
        value = s + NEAR_BONUS * n  # the heuristic's own sum, so ties stay ties
        quick.append(value - rival if others else value)

    def joined(spot: _Spot) -> float:
        s, n = _joined(score, near, codes, spot.parts, near_of, stride, groups, worth)
        value = s + NEAR_BONUS * n
        return value - rival if others else value

    try:
        chosen = [spots.by_action[action] for action in actions]
    except KeyError as error:
        raise IllegalAction(f"{error.args[0]} is no placement of the arrangement") from None
    return [joined(spot) if spot.joins & beside_kin else quick[spot.kind] for spot in chosen]


# Best fit, all placements at once: the grid is written into an integer with a
# byte per box of a board padded by the shape's reach on every side (the east
# and west sides share theirs, the rows wrapping through it), each byte
# holding what a die of one code would count there (1 for the box, +1 per
# same-code neighbour; OVERLAP for a filled box). Shifting that integer by each
# die's offset and adding gives, in every byte at once, the fit of the placement
# anchored there; bytes of overlapping placements come out at OVERLAP or more.
# The quarter turns' bytes are laid side by side in one integer, the overlaps
# cleared, and the largest byte found by halving (is any byte >= t?).

OVERLAP = 32  # above any fit (at most 5 per die), and 4 * OVERLAP fits in a byte
TURNS = 4


class _Board(NamedTuple):
    pad: int
    width: int  # of the padded board
    lanes: int  # bytes of the padded board
    stride: int  # bytes from one quarter turn's anchors to the next in the side-by-side boards
    ones: int  # 0x01 in every byte of TURNS boards side by side
    carry: int  # 0x20 in every byte: set once a byte reaches OVERLAP
    shown: tuple[int, ...]  # per number of quarter turns shown: 0xFF in their boards' bytes
    below: tuple[int, ...]  # per t: (OVERLAP - t) in every byte, to test for bytes >= t


@lru_cache(maxsize=8)
def _board(rows: int, cols: int, dice: int) -> _Board:
    pad = dice - 1  # how far a shape of that many cells reaches past an edge
    width = cols + pad  # a row's padding on the east is the next row's on the west
    lanes = width * (rows + 2 * pad)
    stride = width * (rows + pad)  # every anchor lies above the bottom padding
    ones = int.from_bytes(b"\x01" * stride * TURNS, "little")
    shown = tuple((1 << 8 * stride * turns) - 1 for turns in range(TURNS + 1))
    below = tuple((OVERLAP - t) * ones for t in range(OVERLAP))
    return _Board(pad, width, lanes, stride, ones, ones * OVERLAP, shown, below)


@lru_cache(maxsize=64)
def _fit_geometry(
    cells, rows: int, cols: int, dice: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Per quarter turn: (each cell's bit offset from the anchor, the anchors' byte
    mask on one board). The turn's place in the side-by-side boards is its number
    times the board's bits."""
    board = _board(rows, cols, dice)
    turns = []
    for times, spots in enumerate(_placements(cells, rows, cols)):
        offsets = tuple(8 * (r * board.width + c) for r, c in _turn(cells, times))
        first = board.pad * (board.width + 1)
        anchors = sum(0xFF << 8 * (first + row * board.width + col) for row, col in spots)
        turns.append((offsets, anchors))
    return tuple(turns)


def _fit_lanes(state: GemstoneState, seat: int) -> list[int]:
    """Per grid code: the padded board's bytes as a die of that code counts them."""
    t = state.table
    board = _board(t.rows, t.cols, len(t.dice))
    grid, neighbours = state.grids[seat], t.neighbours
    base = bytearray(board.lanes)
    counts: list[dict[int, int]] = [{} for _ in range(len(t.symbols) + 1)]
    for box, code in enumerate(grid):
        lane = (box // t.cols + board.pad) * board.width + box % t.cols + board.pad
        if code:
            base[lane] = OVERLAP
            for other in neighbours[box]:
                if not grid[other]:
                    near = counts[code]
                    near[other] = near.get(other, 0) + 1
        else:
            base[lane] = 1
    lanes = []
    for near in counts:
        own = bytearray(base)
        for box, count in near.items():
            own[(box // t.cols + board.pad) * board.width + box % t.cols + board.pad] += count
        lanes.append(int.from_bytes(own, "little"))
    return lanes


def _fast_best_fit(state: GemstoneState, seat: int) -> int:
    """_best_fit, computed for all the placements at once (see above)."""
    if state.arrangement is None:
        raise ValueError("the dice are not arranged yet")
    cells, labels = state.arrangement
    _, _, inner, dice = _arranged(cells, labels, state.table.symbols)
    return _Fits(state, seat).best(cells, dice, state.turns_shown, inner)


class _Fits:
    """Best fits of arrangements on one seat's grid. A die's bytes, shifted to its
    place in each quarter turn and kept only where the placement is free, are the
    same for every arrangement of that shape with that symbol on that die: each
    is computed once, and an arrangement's fits are then the sum of its dice's.
    A code's board, copied into every turn's place and shifted by a die's offset,
    serves every shape and turn with a die at that offset: it too is made once."""

    def __init__(self, state: GemstoneState, seat: int):
        t = state.table
        self.rows, self.cols, self.dice = t.rows, t.cols, len(t.dice)
        self.board = _board(t.rows, t.cols, len(t.dice))
        self.lanes = _fit_lanes(state, seat)
        self.repeated: dict[int, int] = {}  # per code: its board in every turn's place
        self.free: dict[tuple, tuple[int, ...]] = {}  # per shape: free anchors, per turn
        self.dies: dict[int, int] = {}  # per _Arranged.dice key: its bytes at every turn
        self.shifted: dict[int, int] = {}  # per offset << 8 | code: the copied board

    def best(self, cells, dice: tuple[tuple[int, int, int], ...], turns: int, inner: int) -> int:
        """_best_fit of the arrangement of dice (as _Arranged.dice) on the shape cells,
        turns quarter turns shown, inner edges between its own dice."""
        fits = 0
        dies = self.dies
        for key, k, code in dice:
            die = dies.get(key)
            if die is None:
                die = dies[key] = self._die(cells, k, code)
            fits += die
        board = self.board
        if turns < TURNS:
            fits &= board.shown[turns]
        below, carry = board.below, board.carry
        low, high = 0, 5 * len(dice)  # the largest byte: at most 1 + 4 neighbours a die
        # most best fits are every die on the grid and an edge or two: from there up
        # one at a time, else halving below it
        guess = min(len(dice) + 1, high)
        if (fits + below[guess]) & carry:
            low = guess
            while low < high and (fits + below[low + 1]) & carry:
                low += 1
        else:
            high = guess - 1
            while low < high:
                mid = (low + high + 1) // 2
                if (fits + below[mid]) & carry:
                    low = mid
                else:
                    high = mid - 1
        return (low or -1) + 2 * inner

    def _die(self, cells, k: int, code: int) -> int:
        geometry = _fit_geometry(cells, self.rows, self.cols, self.dice)
        free = self.free.get(cells)
        if free is None:
            bits = 8 * self.board.stride
            free = self.free[cells] = tuple(
                self._free(offsets, anchors) << bits * times
                for times, (offsets, anchors) in enumerate(geometry)
            )
        die, shifted = 0, self.shifted
        for (offsets, _), anchors in zip(geometry, free, strict=True):
            key = offsets[k] << 8 | code
            moved = shifted.get(key)
            if moved is None:
                moved = shifted[key] = self._repeated(code) >> offsets[k]
            die |= moved & anchors  # each turn's anchors lie in its own board
        return die

    def _repeated(self, code: int) -> int:
        """The code's board copied into each turn's place (the bytes past a board are
        its bottom padding, zeros: the copies do not overlap)."""
        copies = self.repeated.get(code)
        if copies is None:
            bits = 8 * self.board.stride
            copies = self.lanes[code]
            for times in range(TURNS.bit_length() - 1):  # 2, then 4 copies (TURNS is 4)
                copies |= copies << (bits << times)
            self.repeated[code] = copies
        return copies

    def _free(self, offsets: tuple[int, ...], anchors: int) -> int:
        """The anchors' bytes of the placements that cover no filled box."""
        covered = 0
        for shift in offsets:
            covered += self.lanes[0] >> shift  # OVERLAP on filled boxes, whatever the code
        ones = self.board.ones
        overlap = (covered >> 5) & (7 * ones)  # the bytes at OVERLAP or more
        overlap = (overlap | overlap >> 1 | overlap >> 2) & ones
        return anchors & ~(overlap * 0xFF)


def arrangement_values(state: GemstoneState, seat: int, actions: list[Action]) -> list[float]:
    """heuristic(seat) after each "arrange" action of the active seat, as apply +
    heuristic on a copy would give it: the grid's value is the same for all, only
    the best fit differs, and _Fits judges every placement of a shape at once."""
    t = state.table
    score, near = _cached(state, seat)
    others = [_cached(state, s)[0] for s in range(t.players) if s != seat]
    fits = _Fits(state, seat)
    base = score + NEAR_BONUS * near
    rival = max(others) if others else 0
    values = []
    for action in actions:
        _, cells, labels = action
        _, turns, inner, dice = _arranged(cells, labels, t.symbols)
        fit = fits.best(cells, dice, turns, inner)
        value = base + FIT_BONUS * fit  # the heuristic's own order of additions
        values.append(value - rival if others else value)
    return values


class _Arranged(NamedTuple):
    """What placing and judging an arrangement need, found once per arrangement."""

    codes: tuple[int, ...]  # grid codes of its dice
    turns: int  # distinct quarter turns
    inner: int  # edges between its own dice of one symbol
    dice: tuple[tuple[int, int, int], ...]  # per die: (a number naming shape, die and
    # code, the die, its code): the key of the die's bytes in _Fits


@lru_cache(maxsize=16384)  # every arrangement of every roll of the built-in dice: about 8,000
def _arranged(cells, labels: tuple[str, ...], symbols: tuple[str, ...]) -> _Arranged:
    codes = tuple(symbols.index(symbol) + 1 for symbol in labels)
    kin = _kin(codes)  # alike as labels are: turns and inner edges depend on no more
    shape = list(_by_cells(len(cells))).index(cells)
    dice = tuple((shape << 16 | k << 8 | code, k, code) for k, code in enumerate(codes))
    return _Arranged(codes, _distinct_turns(cells, kin), _inner_edges(cells, kin), dice)


@lru_cache(maxsize=1024)
def _inner_edges(cells, codes: tuple) -> int:
    """Edges between the arrangement's own dice of one symbol (codes, symbols or kin:
    only which dice are alike counts)."""
    return sum(
        codes[i] == codes[j] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        for i, a in enumerate(cells)
        for j, b in enumerate(cells)
        if i < j
    )


def _joined(score, near, codes, parts, near_of, stride, groups, worth) -> tuple[int, int]:
    """(score, near) once the dice's parts join the groups beside them (two parts
    beside one group become one group)."""
    merged: list[tuple[int, set]] = []  # (dice, groups joined) per new group
    for kin, part in parts:
        code = codes[kin]
        joined: set[int] = set()
        for box in part:
            found = near_of.get(box * stride + code)
            if found:
                joined |= found
        dice = len(part)
        if not joined:  # a part alone: no other part shares a group with it
            gain = worth[dice]
            score, near = score + gain[0], near + gain[1]
            continue
        kept = []
        for other_dice, other_groups in merged:
            if other_groups & joined:
                dice += other_dice
                joined |= other_groups
            else:
                kept.append((other_dice, other_groups))
        kept.append((dice, joined))
        merged = kept
    for dice, joined in merged:
        size = dice
        for g in joined:
            old = worth[groups[g][1]]
            score, near = score - old[0], near - old[1]
            size += groups[g][1]
        gain = worth[size]
        score, near = score + gain[0], near + gain[1]
    return score, near


class _Judged:
    """A seat's grid labelled into groups and valued (_value_of), when first asked."""

    __slots__ = ("done", "labels", "groups", "value")

    def __init__(self) -> None:
        self.done = False
        self.labels: list[int] = []  # as _label gives them
        self.groups: list[tuple[int, int]] = []
        self.value = (0, 0)


def _judge(state: GemstoneState, seat: int) -> _Judged:
    judged = state.values[seat]
    if not judged.done:
        t = state.table
        judged.labels, judged.groups = _label(state.grids[seat], t.neighbours)
        judged.value = _value_of(judged.groups, t.scoring)
        judged.done = True
    return judged


def _cached(state: GemstoneState, seat: int) -> tuple[int, int]:
    """_value_of the seat's grid."""
    return _judge(state, seat).value

"""Gemstone Caverns: the active player rolls the symbol dice and arranges them
into one connected shape; every player draws it on their own grid, rotated but
never mirrored, perhaps hanging off the edge. Groups of one symbol joined along
edges score. Rulings: docs/rules/gemstone-caverns.md.

The actions (Arrange, Place, Pass) are in actions.py, the shapes, placements
and groups in grid.py, the heuristic's best fit in fit.py; the bots' fast
look-ahead and playout policy in lookahead.py, tested against the rules by the
book here (copy, apply, heuristic; _best_fit one placement at a time).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from protopress.components import Catalog, Component
from protopress.games.gemstone_caverns.actions import (
    ACTIONS,
    PASS,
    Arrange,
    CavernsAction,
    Pass,
    Place,
)
from protopress.games.gemstone_caverns.fit import FIT_BONUS, NEAR_BONUS, _fast_best_fit
from protopress.games.gemstone_caverns.grid import (
    Places,
    Scoring,
    _arrangements,
    _cached,
    _chosen,
    _clear_in,
    _groups,
    _Judged,
    _neighbours,
    _placements,
    _PlaceTable,
    _scoring,
)
from protopress.games.gemstone_caverns.spec import SPEC
from protopress.rules.chance import SharedChance
from protopress.rules.core import Game, IllegalAction, top_seats
from protopress.rules.spec import Outcome, OutcomeKind

EMPTY = "."
NOT_ARRANGED = "the dice must be arranged first"


# --- scoring a written grid -------------------------------------------------


class SymbolScore(NamedTuple):
    groups: int  # scorable groups
    boxes: int  # boxes in scorable groups
    score: int


@dataclass(frozen=True)
class GridScore:
    total: int
    by_symbol: dict[str, SymbolScore]

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "by_symbol": {char: s._asdict() for char, s in self.by_symbol.items()},
        }


def _row_width(grid_rows: object) -> int:
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


def score_grid(grid_rows: list[str], scoring: Scoring | dict[str, Any]) -> GridScore:
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


def _sheet(catalog: Catalog) -> Component:
    sheets = catalog.of_kind("score-sheet")
    if not sheets:
        raise ValueError(f"{catalog.path}: no score sheet to take the grid and scoring from")
    return sheets[0]


def score_state(catalog: Catalog, state_json: dict[str, Any]) -> dict[str, Any]:
    """The score of {"grid": [...]} under the catalog's score sheet scoring."""
    # unchecked JSON: score_grid checks that it is a list of row strings
    grid: Any = state_json.get("grid") if isinstance(state_json, dict) else None
    return score_grid(grid, _sheet(catalog)["scoring"]).to_json()


def format_score(result: dict[str, Any]) -> str:
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
    neighbours: tuple[tuple[int, ...], ...]
    players: int
    full: int  # the bitmask of a full grid

    @classmethod
    def of(cls, catalog: Catalog, players: int) -> Table:
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


class GemstoneState:
    """One game: a grid per seat, the roll, the arrangement and who still places it."""

    __slots__ = (
        "chance", "table", "grids", "filled", "values", "active", "rolled", "arrangement", "codes",
        "places", "place_table", "turns_shown", "placed", "ended", "over", "turns", "passes",
        "used",
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
        self.arrangement: Arrange | None = None  # once chosen
        self.codes: tuple[int, ...] = ()  # grid codes of the arrangement's cells
        self.places: Places = {}  # _places of the arrangement's shape
        self.place_table: _PlaceTable | None = None  # _place_table of the arrangement's shape
        self.turns_shown = 4  # distinct quarter turns of the arrangement
        self.placed = 0  # seats that have placed (or passed) this turn, from the active one
        self.ended = False  # a seat could not place: the game ends after this arrangement
        self.over = False
        self.turns = 0
        self.passes = 0
        # the shape (its name) of each arrangement chosen, in turn order: turn t's is
        # seat t % players's, as the dice pass on (_end_turn); immutable, so shared by copies
        self.used: tuple[str, ...] = ()
        self.chance = SharedChance(rng)  # a copy shares it until one of them draws

    def copy(self) -> GemstoneState:
        new = object.__new__(GemstoneState)
        for name in GemstoneState.__slots__:
            setattr(new, name, getattr(self, name))
        new.grids = [grid[:] for grid in self.grids]
        new.filled = self.filled[:]
        new.values = self.values[:]
        new.chance = self.chance.share()
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
            self.grids[seat] = bytearray(codes[char] for row in grid_rows for char in row)
        except KeyError as error:
            raise ValueError(f"{error.args[0]!r} is no symbol letter ({t.letters})") from None
        self.filled[seat] = sum(1 << box for box, v in enumerate(self.grids[seat]) if v)
        self.values[seat] = _Judged()


class GemstoneCaverns:
    spec = SPEC
    id, min_players, max_players = SPEC.id, SPEC.min_players, SPEC.max_players
    actions = ACTIONS

    def setup(
        self, catalog: Catalog, players: int, rng: random.Random, options: dict[str, Any]
    ) -> GemstoneState:
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

    def legal_actions(self, state: GemstoneState) -> Sequence[CavernsAction]:
        """The arrangements of the roll, else the placements clear of the seat's
        filled boxes (a Placements sequence: no list is built), else the pass."""
        if state.over:
            return []
        if state.arrangement is None:
            return list(_arrangements(tuple(sorted(state.rolled))))
        seat = (state.active + state.placed) % state.table.players  # to_move: not over
        if state.place_table is None:  # kept with the arrangement
            raise IllegalAction(NOT_ARRANGED)
        actions = _clear_in(state.place_table, state.turns_shown, state.filled[seat])
        return actions if actions.size else [PASS]

    def apply(self, state: GemstoneState, action: CavernsAction) -> None:
        if state.over:
            raise IllegalAction("the game is over")
        if isinstance(action, Place):  # first: most actions are placements
            if state.arrangement is None:
                raise IllegalAction(NOT_ARRANGED)
            seat = (state.active + state.placed) % state.table.players  # to_move: not over
            try:
                mask, inside = state.places[action]
            except (KeyError, TypeError):
                raise IllegalAction(f"no box of the grid under {ACTIONS.words(action)}") from None
            if mask & state.filled[seat]:
                raise IllegalAction(f"{ACTIONS.words(action)} overlaps filled boxes of seat {seat}")
            grid, codes = state.grids[seat], state.codes
            for k, box in inside:
                grid[box] = codes[k]
            state.filled[seat] |= mask
            state.values[seat] = _Judged()
        elif isinstance(action, Arrange):
            if state.arrangement is not None:
                raise IllegalAction("the dice are already arranged this turn")
            t = state.table
            chosen = _chosen(action.cells, action.symbols, t.symbols, t.rows, t.cols)
            state.arrangement = action
            state.codes, state.turns_shown = chosen.codes, chosen.turns
            state.places, state.place_table = chosen.places, chosen.table
            state.used += (chosen.name,)
            return
        elif isinstance(action, Pass):
            if state.arrangement is None:
                raise IllegalAction(NOT_ARRANGED)
            state.ended = True
            state.passes += 1
        else:
            raise IllegalAction(f"unknown action {ACTIONS.words(action)}")
        state.placed += 1
        if state.placed == state.table.players:
            _end_turn(state)

    def observation(self, state: GemstoneState, seat: int) -> dict[str, Any]:
        """What the playtest table draws (`protopress play`; nothing is hidden in this
        game): each seat's score sheet as rows of symbol ids (None: an empty box), the
        dice rolled and the arrangement chosen, drawn as its shape."""
        t = state.table
        symbols: tuple[str | None, ...] = (None, *t.symbols)
        sheets = [
            [[symbols[code] for code in grid[r * t.cols : (r + 1) * t.cols]] for r in range(t.rows)]
            for grid in state.grids
        ]
        shape: list[list[str | None]] | None = None
        if state.arrangement is not None:
            cells = state.arrangement.cells
            rows = 1 + max(row for row, _ in cells) - min(row for row, _ in cells)
            cols = 1 + max(col for _, col in cells) - min(col for _, col in cells)
            top, left = min(row for row, _ in cells), min(col for _, col in cells)
            drawn: list[list[str | None]] = [[None] * cols for _ in range(rows)]
            for (row, col), symbol in zip(cells, state.arrangement.symbols, strict=True):
                drawn[row - top][col - left] = symbol
            shape = drawn
        fields = {"sheets": sheets, "rolled": list(state.rolled), "arrangement": shape,
                  "active": state.active, "turns": state.turns}  # fmt: skip
        return {"fields": fields}

    def is_over(self, state: GemstoneState) -> bool:
        return state.over

    def scores(self, state: GemstoneState) -> list[int]:
        return [_cached(state, seat).score for seat in range(state.table.players)]

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
        others = [_cached(state, s).score for s in range(state.table.players) if s != seat]
        return value - max(others) if others else value

    def best_fit(self, state: GemstoneState, seat: int) -> int:
        """_best_fit for the heuristic, by _fast_best_fit (tested equal to it)."""
        return _fast_best_fit(state, seat)

    def record(self, state: GemstoneState) -> dict[str, Any]:
        players = state.table.players
        used = [sorted(state.used[seat::players]) for seat in range(players)]
        return {
            "boxes_filled": [filled.bit_count() for filled in state.filled],
            "arrangements": dict(sorted(Counter(state.used).items())),
            "passes": state.passes,
            "used": used,  # shapes each seat chose as the active player
        }


# mypy holds the engine to the contract, with its own state and actions
_: type[Game[GemstoneState, CavernsAction]] = GemstoneCaverns


def _roll(state: GemstoneState) -> None:
    """Each die shows one of its faces, rolled in the open: rng.choice(faces) per die
    (tests/games/gemstone_caverns/test_rules.py holds it to rng.choice)."""
    state.rolled = state.chance.roll_dice("dice", state.table.dice)


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
    cells = state.arrangement.cells
    spots = _placements(cells, t.rows, t.cols)
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
    inner = sum(
        codes[i] == codes[j] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        for i, a in enumerate(cells)
        for j, b in enumerate(cells)
        if i < j
    )
    return best + 2 * inner

"""Gemstone Caverns rules: group scoring worked by hand, arrangements, placement
(rotation, overhang, no mirroring, must place), the end, and whole bot games."""

import json
import random

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns.actions import PASS, Arrange, Place
from protopress.games.gemstone_caverns.checks import normalise, parse_picture, rotations
from protopress.games.gemstone_caverns.rules import (
    _roll,
    format_score,
    score_grid,
    score_state,
)
from protopress.games.gemstone_caverns.spec import SPEC
from protopress.rules.core import IllegalAction, checked_apply
from protopress.rules.simulate import log_of, play, replay

RULES = {"min_group": 5, "per_group": 1, "per_box": 1}  # the built-in score sheet's
GAME = SPEC.new_game()  # with its bot support, as the kit plays it
FULL = ["RRRRRRRR"] * 8  # a full 8x8 grid of rubies
MTED = ("moonstone", "topaz", "emerald", "diamond")  # letters M T E D


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("gemstone-caverns"))


def new_game(catalog, players=1, seed=0):
    return GAME.setup(catalog, players, random.Random(seed), {})


def arrange(state, shape: str, symbols):
    """Roll exactly `symbols` and arrange them as the named shape (cells in canonical order)."""
    state.rolled = tuple(symbols)
    (action,) = [
        a
        for a in GAME.legal_actions(state)
        if a.symbols == tuple(symbols)
        and normalise(a.cells) in rotations(parse_picture(PICTURES[shape]))
    ]
    checked_apply(GAME, state, action)
    return action


PICTURES = {"I": "####", "T": "###/.#.", "L": "#./#./##", "J": ".#/.#/##"}


def with_hole(cells, top=3, left=3):
    """FULL with the given cells (shifted by top, left) left empty."""
    rows = [list(row) for row in FULL]
    for r, c in cells:
        rows[r + top][c + left] = "."
    return ["".join(row) for row in rows]


# --- scoring, worked by hand -----------------------------------------------


def test_diagonal_neighbours_never_join():
    # A checkerboard: every A (and every B) touches its kind only at corners,
    # so 32 groups of 1 box each: nothing scores.
    checkerboard = ["ABABABAB", "BABABABA"] * 4
    result = score_grid(checkerboard, RULES)
    assert result.total == 0
    assert result.by_symbol["A"] == (0, 0, 0)
    # Two rows of three A's meeting corner to corner: groups of 3 and 3, not one of 6.
    assert score_grid(["AAA...", "...AAA"], RULES).total == 0


def test_a_ring_of_eight_is_one_group():
    # The eight A's around the B join edge to edge all the way round: one group
    # of 8 scores 1 (group) + 8 (boxes) = 9; the lone B scores nothing.
    result = score_grid(["AAA", "ABA", "AAA"], RULES)
    assert result.by_symbol["A"] == (1, 8, 9)
    assert result.by_symbol["B"] == (0, 0, 0)
    assert result.total == 9


def test_several_groups_of_one_symbol():
    # A row of 5 and, apart from it by an empty row, a row of 6:
    # 2 groups (2 points) + 11 boxes (11 points) = 13.
    result = score_grid(["AAAAA.", "......", "AAAAAA"], RULES)
    assert result.by_symbol["A"] == (2, 11, 13)
    assert result.total == 13


def test_groups_of_exactly_four_score_nothing():
    # A straight 4 and a bent 4 (an L): each one box short of 5.
    assert score_grid(["AAAA.", ".....", "BBB..", "B...."], RULES).total == 0
    # One more box makes the straight one score 1 + 5 = 6.
    assert score_grid(["AAAAA", ".....", "BBB..", "B...."], RULES).total == 6


def test_two_symbols_score_independently():
    # A: the five boxes of row 0 left of the B: 1 + 5 = 6.
    # B: (0,5) above the six B's of row 1, joined along an edge: 7 boxes, 1 + 7 = 8.
    # The A's touch B's along edges but groups never mix symbols: 6 + 8 = 14.
    result = score_grid(["AAAAAB", "BBBBBB"], RULES)
    assert result.by_symbol["A"] == (1, 5, 6)
    assert result.by_symbol["B"] == (1, 7, 8)
    assert result.total == 14


def test_scoring_table_comes_from_the_rules():
    # Same grid, 3 points a group and no points a box: A 3, B 3.
    assert score_grid(["AAAAAB", "BBBBBB"], {**RULES, "per_group": 3, "per_box": 0}).total == 6


def test_rows_of_unequal_length_are_refused():
    with pytest.raises(ValueError, match="row 1 has 3 boxes, row 2 has 2"):
        score_grid(["AAA", "AA"], RULES)


def test_score_state_and_table(catalog):
    result = score_state(catalog, {"grid": ["AAA", "ABA", "AAA"]})
    assert result == {
        "total": 9,
        "by_symbol": {
            "A": {"groups": 1, "boxes": 8, "score": 9},
            "B": {"groups": 0, "boxes": 0, "score": 0},
        },
    }
    assert json.loads(json.dumps(result)) == result
    table = format_score(result).splitlines()
    assert table[0].split() == ["symbol", "groups", "boxes", "score"]
    assert table[1].split() == ["A", "1", "8", "9"]
    assert table[-1].split() == ["total", "9"]
    with pytest.raises(ValueError, match="list of row strings"):
        score_state(catalog, {"grid": "AAA"})


def test_score_command(tmp_path):
    state = tmp_path / "sheet.json"
    state.write_text(json.dumps({"grid": ["AAAAAB", "BBBBBB"]}))
    result = CliRunner().invoke(cli, ["score", "gemstone-caverns", str(state), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["total"] == 14
    state.write_text(json.dumps({"grid": ["AAA", "AA"]}))
    result = CliRunner().invoke(cli, ["score", "gemstone-caverns", str(state)])
    assert result.exit_code == 1 and "same length" in result.output


# --- arrangements and placements -------------------------------------------


def test_arrangements_list_each_rotation_class_once(catalog):
    state = new_game(catalog)
    # Four different symbols: L, J and T look different after every quarter
    # turn (24 labellings each); I, S and Z look the same after a half turn
    # (24 / 2 = 12 each); O after every quarter turn (24 / 4 = 6).
    # 3 * 24 + 3 * 12 + 6 = 114.
    state.rolled = MTED
    actions = GAME.legal_actions(state)
    assert len(actions) == len(set(actions)) == 114
    assert len({action.cells for action in actions}) == 7
    # Four rubies: one arrangement per shape.
    state.rolled = ("ruby",) * 4
    assert len(GAME.legal_actions(state)) == 7
    # Two rubies, two topazes: 6 labellings a shape. L, J, T: 6 each (18).
    # I, S, Z: RRTT~TTRR, RTRT~TRTR, RTTR, TRRT: 4 each (12).
    # O: the pairs side by side (4 labellings, one class) or diagonal (2, one class): 2.
    state.rolled = ("ruby", "topaz", "ruby", "topaz")
    assert len(GAME.legal_actions(state)) == 18 + 12 + 2


def test_placements_count_every_turn_and_overhang(catalog):
    state = new_game(catalog)
    arrange(state, "I", sorted(MTED))
    # Four different symbols: all four quarter turns differ. Lying flat the I
    # has 8 rows and 11 left columns (-3 to 7) with a box inside: 88; standing, 88;
    # each twice (a half turn reverses the symbols): 4 * 88 = 352.
    assert len(GAME.legal_actions(state)) == 352


def test_overhang_loses_the_outside_cells(catalog):
    state = new_game(catalog)
    arrange(state, "I", sorted(MTED))  # diamond emerald moonstone topaz, left to right
    assert Place(0, 0, -4) not in GAME.legal_actions(state)  # all four off the grid
    with pytest.raises(IllegalAction):
        checked_apply(GAME, state, Place(0, 0, -4))
    checked_apply(GAME, state, Place(0, 0, -3))  # three off the left edge
    assert state.grid_rows(0)[0] == "T......."
    assert GAME.record(state)["boxes_filled"] == [1]


def test_a_forced_placement_is_the_only_action(catalog):
    state = new_game(catalog)
    t_cells = ((0, 0), (0, 1), (0, 2), (1, 1))
    state.set_grid(0, with_hole(t_cells))  # a T-shaped hole inside a full grid
    arrange(state, "T", MTED)
    assert GAME.legal_actions(state) == [Place(0, 3, 3)]  # no pass, no other turn
    with pytest.raises(IllegalAction):
        checked_apply(GAME, state, PASS)
    checked_apply(GAME, state, Place(0, 3, 3))
    assert state.grid_rows(0)[3:5] == ["RRRMTERR", "RRRRDRRR"]
    assert GAME.is_over(state)  # every grid is full: nobody could place anything


def test_an_arrangement_is_never_mirrored(catalog):
    state = new_game(catalog)
    arrange(state, "L", MTED)
    l_turns = set(rotations(parse_picture(PICTURES["L"])))
    j_turns = set(rotations(parse_picture(PICTURES["J"])))
    drawn = set()
    for action in GAME.legal_actions(state):
        trial = state.copy()
        GAME.apply(trial, action)
        boxes = {
            (r, c)
            for r, row in enumerate(trial.grid_rows(0))
            for c, ch in enumerate(row)
            if ch != "."
        }
        if len(boxes) == 4:
            drawn.add(normalise(boxes))
    assert drawn == l_turns
    assert not drawn & j_turns


def test_an_illegal_placement_is_refused(catalog):
    state = new_game(catalog, players=2)
    arrange(state, "T", MTED)
    checked_apply(GAME, state, Place(0, 0, 0))
    checked_apply(GAME, state, Place(0, 0, 0))
    arrange(state, "T", MTED)  # seat 1 rolls and arranges now, then places first
    assert GAME.to_move(state) == 1
    for illegal in [Place(0, 0, 1), Place(4, 3, 3), Place(0, 9, 9), PASS]:
        with pytest.raises(IllegalAction, match="not legal for seat 1"):
            checked_apply(GAME, state, illegal)


def test_the_end_comes_after_the_others_place(catalog):
    state = new_game(catalog, players=3)
    state.set_grid(0, with_hole([(0, 0), (0, 1)]))  # a two-box hole away from every edge
    arrange(state, "T", MTED)
    assert GAME.legal_actions(state) == [PASS]
    checked_apply(GAME, state, PASS)
    assert not GAME.is_over(state)
    for seat in (1, 2):  # the others still must place
        assert GAME.to_move(state) == seat
        assert PASS not in GAME.legal_actions(state)
        checked_apply(GAME, state, Place(0, 0, 0))
    assert GAME.is_over(state) and GAME.to_move(state) is None
    assert state.turns == 1
    assert GAME.record(state)["boxes_filled"] == [62, 4, 4]
    assert GAME.scores(state) == [1 + 62, 0, 0]  # the 62 rubies are one group


def test_copy_is_independent(catalog):
    state = new_game(catalog, players=2, seed=3)
    trial = state.copy()
    GAME.apply(trial, GAME.legal_actions(trial)[0])
    GAME.apply(trial, GAME.legal_actions(trial)[0])
    assert state.arrangement is None and state.filled == [0, 0]
    assert trial.chance.rng.getstate() == state.chance.rng.getstate()
    assert trial.chance.rng.random() == state.chance.rng.random()


def test_state_scores_match_the_written_grid(catalog):
    state, record, _ = play(GAME, catalog, ["random", "random"], seed=5)
    for seat in range(2):
        assert GAME.scores(state)[seat] == score_grid(state.grid_rows(seat), RULES).total


def test_setup_checks_players_and_options(catalog):
    with pytest.raises(ValueError, match="1 to 8 players"):
        new_game(catalog, players=9)
    with pytest.raises(ValueError, match="unknown option 'level'; options: none"):
        GAME.setup(catalog, 2, random.Random(0), {"level": "2"})


# --- whole games -----------------------------------------------------------


def test_a_full_game_with_random_and_greedy_bots(catalog):
    state, record, actions = play(GAME, catalog, ["random", "random", "greedy", "greedy"], seed=1)
    assert GAME.is_over(state) and not record.limit
    assert len(record.scores) == 4 and all(isinstance(s, int) for s in record.scores)
    assert record.extra["passes"] >= 1 or all(f == (1 << 64) - 1 for f in state.filled)
    assert sum(record.extra["arrangements"].values()) == record.turns
    assert record.winners == [s for s in range(4) if record.scores[s] == max(record.scores)]


def test_same_seed_same_game_and_replay(catalog):
    bots = ["greedy", "random", "random"]
    first = play(GAME, catalog, bots, seed=7)
    second = play(GAME, catalog, bots, seed=7)
    assert first[2] == second[2] and first[1].scores == second[1].scores
    log = json.loads(
        json.dumps(log_of(GAME, "gemstone-caverns", "1.0.0", bots, 7, {}, first[2], first[1]))
    )
    assert GAME.scores(replay(GAME, catalog, log)) == first[1].scores


def test_greedy_beats_random(catalog):
    # 20 two-player games, the greedy bot in seat 0 then seat 1 in turn.
    # Observed: greedy mean 26.3, random mean 1.5; greedy won all 20.
    greedy, rand = [], []
    for seed in range(20):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, record, _ = play(GAME, catalog, bots, seed)
        seat = bots.index("greedy")
        greedy.append(record.scores[seat])
        rand.append(record.scores[1 - seat])
    assert sum(greedy) / 20 > sum(rand) / 20 + 5


def test_greedy_arranges_equal_dice_side_by_side(catalog):
    # rolled M, M, T, T on an empty grid: the arrangement that keeps both pairs
    # together (an O square: MM over TT) looks better to the look-ahead than an
    # I bar that splits them M T M T, since each same-symbol edge can grow a group
    state = new_game(catalog)
    state.rolled = ("moonstone", "moonstone", "topaz", "topaz")
    values = {}
    for action in GAME.legal_actions(state):
        trial = state.copy()
        GAME.apply(trial, action)
        values[action] = GAME.heuristic(trial, 0)
    square = Arrange(
        cells=((0, 0), (0, 1), (1, 0), (1, 1)),
        symbols=("moonstone", "moonstone", "topaz", "topaz"),
    )
    bar = Arrange(
        cells=((0, 0), (0, 1), (0, 2), (0, 3)),
        symbols=("moonstone", "topaz", "moonstone", "topaz"),
    )
    assert square in values and bar in values
    assert values[square] > values[bar]
    assert values[square] == max(values.values())


def test_a_roll_draws_each_face_as_rng_choice_would():
    """_roll draws random.choice's draw per die: the same faces from the same seeds."""
    catalog = load_catalog(builtin_catalog_path("gemstone-caverns"))
    for seed in range(500):
        state = GAME.setup(catalog, 2, random.Random(seed), {})
        before = state.chance.rng.getstate()
        _roll(state)
        reference = random.Random()
        reference.setstate(before)
        assert state.rolled == tuple(reference.choice(faces) for faces in state.table.dice)
        assert state.chance.rng.getstate() == reference.getstate()


def test_the_playtest_table_draws_the_sheets_and_the_shape(catalog):
    state = new_game(catalog, players=2)
    state.set_grid(1, with_hole([(0, 0)]))  # every box a ruby but row 3, column 3
    arrange(state, "T", MTED)
    fields = GAME.observation(state, 0)["fields"]
    assert fields["sheets"][0] == [[None] * 8] * 8
    assert fields["sheets"][1][3] == ["ruby"] * 3 + [None] + ["ruby"] * 4
    assert fields["sheets"][1][0] == ["ruby"] * 8
    # the T: three in a row and one below the middle, symbols in cell order
    shown = fields["arrangement"]
    assert len(shown) in (2, 3) and sorted(s for row in shown for s in row if s) == sorted(MTED)
    assert sum(s is None for row in shown for s in row) == 2  # a 2x3 or 3x2 box less 4 cells
    assert fields["rolled"] == list(MTED)

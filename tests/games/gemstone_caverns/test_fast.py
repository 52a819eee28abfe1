"""The fast paths agree with the rules played by the book: on thousands of seeded
random positions, action_values gives exactly the floats that copy + apply +
heuristic give, the all-at-once best fit equals the one-placement-at-a-time
reference, the legal placements found by table look-up equal the mask-by-mask
filter, and each grid's kept value equals a fresh count."""

import dataclasses
import random

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns import lookahead
from protopress.games.gemstone_caverns.actions import PASS, Place
from protopress.games.gemstone_caverns.fit import _fast_best_fit
from protopress.games.gemstone_caverns.grid import (
    _cached,
    _clear_placements,
    _free_placements,
    _groups,
    _Judged,
    _neighbours,
    _nth_bit,
    _shapes,
    _value_of,
)
from protopress.games.gemstone_caverns.lookahead import _Placing
from protopress.games.gemstone_caverns.rules import GemstoneCaverns, _best_fit
from protopress.rules.bots import reference_values

GAME = GemstoneCaverns()
ACTIONS_PER_POSITION = 12  # the reference copies the state per action: sample them


def positions(catalog, games: int, seed: int):
    """Every decision of random games of 1 to 4 players (states are yielded live)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = GAME.setup(catalog, rng.randint(1, 4), random.Random(rng.getrandbits(32)), {})
        while not GAME.is_over(state):
            yield state, rng
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("gemstone-caverns"))


def test_action_values_match_copy_apply_heuristic(catalog):
    checked = 0
    for state, rng in positions(catalog, 40, seed=5):
        seat = GAME.to_move(state)
        legal = GAME.legal_actions(state)
        actions = rng.sample(legal, min(ACTIONS_PER_POSITION, len(legal)))
        assert lookahead.action_values(GAME, state, seat, actions) == reference_values(
            GAME, state, seat, actions
        )
        checked += 1
    assert checked > 3000


def test_best_actions_are_the_ties_of_the_highest_action_values(catalog):
    """The greedy bot's pick list without valuing each action: the same actions, in
    the same order, as the highest of action_values (itself held to copy + apply +
    heuristic above), on every decision of random games, for arrangements and
    placements; and the placements found to join a group are those whose dice
    lie beside a group of their symbol, as action_values tells them apart."""
    checked = {"arrange": 0, "place": 0}
    for state, _ in positions(catalog, 60, seed=11):
        seat = GAME.to_move(state)
        legal = GAME.legal_actions(state)
        if len(legal) < 2:
            continue
        values = lookahead.action_values(GAME, state, seat, list(legal))
        best = max(values)
        tied = [action for action, value in zip(legal, values, strict=True) if value == best]
        assert lookahead.best_actions(GAME, state, seat, legal) == tied
        assert (
            lookahead.best_actions(GAME, state, seat, list(legal)) == tied
        )  # listed: by the values
        checked[legal[0].verb] += 1
        if isinstance(legal[0], Place):
            placing = _Placing(state, seat)
            joining = placing.joining()
            for bit, spot in enumerate(placing.spots.in_order):
                assert bool(joining >> bit & 1) == bool(spot.joins & placing.beside_kin)
    assert checked["arrange"] > 500 and checked["place"] > 2500


def test_fast_best_fit_matches_the_reference(catalog):
    checked = 0
    for state, rng in positions(catalog, 150, seed=6):
        if state.arrangement is None or state.placed:
            continue
        for seat in range(state.table.players):  # every grid against this arrangement
            assert _fast_best_fit(state, seat) == _best_fit(state, seat)
            checked += 1
        # and on a grid of random symbols, many of them beside each other
        filled = rng.randrange(64)
        grid = state.grids[0]
        for box in rng.sample(range(64), filled):
            grid[box] = rng.randint(1, len(state.table.symbols))
        state.filled[0] = sum(1 << box for box, code in enumerate(grid) if code)
        state.values[0] = _Judged()
        assert _fast_best_fit(state, 0) == _best_fit(state, 0)
    assert checked > 1000


def test_greedy_values_for_other_seats_fall_back_to_the_reference(catalog):
    state = GAME.setup(catalog, 3, random.Random(2), {})
    actions = GAME.legal_actions(state)[:5]
    assert lookahead.action_values(GAME, state, 1, actions) == reference_values(
        GAME, state, 1, actions
    )


def test_clear_placements_match_the_mask_by_mask_filter(catalog):
    """On random grids of every fullness, with every shape of one to five dice and
    every number of quarter turns shown, the table look-up lists the placements
    that the filter one mask at a time lists, in the same order."""
    rng = random.Random(7)
    checked = 0
    for dice in range(1, 6):
        for cells, _, _ in _shapes(dice):
            for _ in range(60):
                boxes = rng.sample(range(64), rng.randrange(65))
                filled = sum(1 << box for box in boxes)
                turns = rng.randint(1, 4)
                clear = _clear_placements(cells, 8, 8, turns, filled)
                listed = _free_placements(cells, 8, 8, turns, filled)
                assert clear == listed and list(clear) == listed and len(clear) == len(listed)
                # the k-th, counted from either end, and what is in it, as in the list
                assert [clear[k] for k in range(len(listed))] == listed
                assert [clear[-k - 1] for k in range(len(listed))] == listed[::-1]
                assert clear[2:9] == listed[2:9]
                every = _free_placements(cells, 8, 8, 4, 0)
                for action in rng.sample(every, 10) + [PASS, Place(0, 99, 99)]:
                    assert (action in clear) == (action in listed)
                checked += 1
    # and on a sheet whose boxes are no whole number of bytes
    for cells, _, _ in _shapes(4):
        for _ in range(100):
            filled = rng.getrandbits(5 * 7) & rng.getrandbits(5 * 7)
            assert _clear_placements(cells, 5, 7, 4, filled) == _free_placements(
                cells, 5, 7, 4, filled
            )
            checked += 1
    assert checked > 2000


def test_judged_grids_stay_true_to_the_grid_and_never_leak_between_copies(catalog):
    """Each seat's labelling and value are kept with the grid and shared by copies:
    after every action of random games they equal a fresh count of the grid, and
    a copy that places leaves the original's as they were."""
    checked = 0
    for state, rng in positions(catalog, 30, seed=8):
        t = state.table
        before = [_cached(state, seat) for seat in range(t.players)]
        for seat in range(t.players):
            assert before[seat] == _value_of(_groups(state.grids[seat], t.neighbours), t.scoring)
        trial = state.copy()
        GAME.apply(trial, rng.choice(GAME.legal_actions(trial)))
        for seat in range(t.players):
            fresh = _value_of(_groups(trial.grids[seat], t.neighbours), t.scoring)
            assert _cached(trial, seat) == fresh
        assert [_cached(state, seat) for seat in range(t.players)] == before
        checked += 1
    assert checked > 2000


def test_the_nth_set_bit_is_found_on_integers_of_every_length():
    rng = random.Random(9)
    for _ in range(3000):
        bits = rng.getrandbits(rng.randint(1, 500)) | 1 << rng.randrange(8)
        ones = [i for i in range(bits.bit_length()) if bits >> i & 1]
        n = rng.randrange(len(ones))
        assert _nth_bit(bits, n) == ones[n]


def test_a_random_player_picks_the_same_placements_from_the_sequence_as_from_the_list(catalog):
    """rng.choice reads only the length and the k-th: the same draws, the same picks."""
    checked = 0
    for state, rng in positions(catalog, 20, seed=10):
        legal = GAME.legal_actions(state)
        seed = rng.getrandbits(32)
        assert random.Random(seed).choice(legal) == random.Random(seed).choice(list(legal))
        checked += 1
    assert checked > 1000


def test_what_a_copy_does_never_shows_in_the_original_nor_the_other_way(catalog):
    """The grids and the arrangements chosen (shared by copies: immutable) of a copy
    and of its original stay apart whatever either does."""
    checked = 0
    for state, rng in positions(catalog, 20, seed=12):
        if GAME.is_over(state):
            continue
        snapshot = ([bytes(grid) for grid in state.grids], state.used)
        trial = state.copy()
        GAME.apply(trial, rng.choice(GAME.legal_actions(trial)))
        assert ([bytes(grid) for grid in state.grids], state.used) == snapshot
        kept = ([bytes(grid) for grid in trial.grids], trial.used)
        other = state.copy()
        GAME.apply(other, rng.choice(GAME.legal_actions(other)))
        assert ([bytes(grid) for grid in trial.grids], trial.used) == kept
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("rows", "cols"), [(5, 7), (7, 4), (3, 9), (1, 6)])
def test_fast_best_fit_matches_the_reference_on_sheets_that_are_not_square(catalog, rows, cols):
    """The turned boards of the best fit are as wide as the longer side: on sheets of
    other shapes every arrangement's fit is still the one-at-a-time reference's,
    and the placements' ties those of copy + apply + heuristic."""
    rng = random.Random(rows * 100 + cols)
    checked = 0
    for _ in range(60):
        state = GAME.setup(catalog, 1, random.Random(rng.getrandbits(32)), {})
        state.table = dataclasses.replace(
            state.table,
            rows=rows,
            cols=cols,
            neighbours=_neighbours(rows, cols),
            full=(1 << rows * cols) - 1,
        )
        state.grids = [bytearray(rows * cols)]
        for box in rng.sample(range(rows * cols), rng.randrange(rows * cols + 1)):
            state.grids[0][box] = rng.randint(1, len(state.table.symbols))
        state.filled = [sum(1 << box for box, code in enumerate(state.grids[0]) if code)]
        state.values = [_Judged()]
        for action in rng.sample(GAME.legal_actions(state), 5):
            trial = state.copy()
            GAME.apply(trial, action)
            assert _fast_best_fit(trial, 0) == _best_fit(trial, 0)
            legal = GAME.legal_actions(trial)  # and the placements' ties, found by kind
            values = reference_values(GAME, trial, 0, list(legal))
            tied = [a for a, v in zip(legal, values, strict=True) if v == max(values)]
            assert lookahead.best_actions(GAME, trial, 0, legal) == tied
            checked += 1
    assert checked == 300

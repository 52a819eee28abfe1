"""The greedy look-ahead's fast path agrees with the rules played by the book: on
thousands of seeded random positions of both modes, action_values gives exactly
the floats that copy + apply + heuristic give (walks are judged in place)."""

import random
from collections import Counter

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush import lookahead, skills
from protopress.games.gem_rush.actions import (
    Build,
    Burn,
    Draw,
    Rotate,
)
from protopress.games.gem_rush.effects import MineView
from protopress.games.gem_rush.rules import GemRush
from protopress.games.gem_rush.seat_skills import movement_flags, seat_skills, turn_steps
from protopress.rules.bots import reference_values

GAME = GemRush()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("gem-rush"))


@pytest.mark.parametrize("mode", ["crisis", "rush"])
def test_action_values_match_copy_apply_heuristic(catalog, mode):
    rng = random.Random(mode)
    checked = 0
    in_place: Counter = Counter()  # actions judged without a copy, by kind
    for _ in range(12):
        players = rng.randint(2, 4)
        options = GAME.spec.parse_options({"mode": mode})
        state = GAME.setup(catalog, players, random.Random(rng.getrandbits(32)), options)
        while not GAME.is_over(state):
            legal = GAME.legal_actions(state)
            for seat in {GAME.to_move(state), rng.randrange(players)}:  # the mover, and not
                assert lookahead.action_values(GAME, state, seat, legal) == reference_values(
                    GAME, state, seat, legal
                )
                checked += 1
            seat = GAME.to_move(state)
            in_place.update(a.verb for a in legal if lookahead.in_place(state, seat, a) is not None)
            # hands kept full now and then (draw, burn from the deck): discards too
            keen = [a for a in (Draw(), Burn("deck")) if a in legal]
            GAME.apply(state, keen[0] if keen and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 2000
    assert min(in_place[kind] for kind in ("move", "warp", "end-move", "discard")) >= 40
    if mode == "crisis":
        assert in_place["burn"] > 500


def test_views_after_a_placement_keep_only_links_that_still_hold(catalog):
    """MineView.placed keeps the links of rooms a new tile did not touch: after every
    action of random games, each link the view holds (kept or found) equals a new
    view's, and so do the distances and open doors near that it holds."""
    rng = random.Random(41)
    kept = 0
    for number in range(30):
        mode = ("crisis", "rush")[number % 2]
        options = GAME.spec.parse_options({"mode": mode})
        state = GAME.setup(catalog, rng.randint(2, 4), random.Random(rng.getrandbits(32)), options)
        while not GAME.is_over(state):
            view, fresh = state.view, MineView(state.mine)
            kept += len(view._links)
            for cell in list(view._links):
                assert view.links(cell) == fresh.links(cell)
            for key, dist in list(view._distances.items()):
                assert dist == fresh.distances(*key)
            for (start, limit), near in list(view._near.items()):
                assert near == fresh.sites_near(start, limit)
            for key, doors in list(view._doors.items()):
                assert doors == fresh.doors_in_reach(key[0], key[1], key[2:])
            for key, best in list(view._best.items()):
                assert best == fresh.best_door(*key)
            for pos in state.pos:
                assert view.distances(pos, 3) == fresh.distances(pos, 3)
                view.sites_near(pos, 3)  # kept for the next view to inherit, or not
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    assert kept > 20_000


def test_promises_are_kept_only_where_a_new_view_gives_the_same(catalog):
    """Each best door a view holds, kept from the view before the last tile or found,
    equals a new view's, for every dwarf's hand of greedy Crisis games (where the
    heuristic asks them)."""
    rng = random.Random(43)
    kept = 0
    for _ in range(6):
        options = GAME.spec.parse_options({"mode": "crisis"})
        state = GAME.setup(catalog, 4, random.Random(rng.getrandbits(32)), options)
        while not GAME.is_over(state):
            for seat in range(4):
                GAME.heuristic(state, seat)
            view, fresh = state.view, MineView(state.mine)
            kept += sum(view.carried(key[:2] + key[2]) > 0 for key in view._best)
            for key, best in view._best.items():
                assert best == fresh.best_door(*key)
            for key, doors in view._doors.items():
                assert doors == fresh.doors_in_reach(key[0], key[1], key[2:])
            legal = GAME.legal_actions(state)
            builds = [a for a in legal if isinstance(a, Build | Rotate)]
            GAME.apply(state, rng.choice(builds if builds and rng.random() < 0.8 else legal))
    assert kept > 2_000


@pytest.mark.parametrize("variant", ["normal", "shared", "magic-circle", "chaos"])
def test_skills_kept_per_table_equal_the_skills_read_afresh(catalog, variant):
    """GemRush._skills keeps each seat's steps, movement skills and substitutions,
    now and at its next turn, per table: at every position of random games they
    equal what the skills give when read again."""
    rng = random.Random(variant)
    checked = 0
    for _ in range(8):
        options = GAME.spec.parse_options({"mode": "crisis", "skills": variant})
        state = GAME.setup(catalog, 4, random.Random(rng.getrandbits(32)), options)
        while not GAME.is_over(state):
            for seat in range(4):
                for ahead in (False, True):
                    held = seat_skills(state, seat, next_turn=ahead)
                    assert held.steps == turn_steps(state, seat, next_turn=ahead)
                    assert held.flags == movement_flags(state, seat, next_turn=ahead)
                    assert held.subs == skills.substitutes(state, seat, next_turn=ahead)
                    checked += 1
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    assert checked > 4_000

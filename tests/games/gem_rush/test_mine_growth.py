"""Random mines: closing, dead ends, and reproducibility for a seed."""

import random

from games.gem_rush.test_mine import room
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.mine import Mine, room_stack
from protopress.games.gem_rush.mine_growth import grow_mine, longest_dead_end, monte_carlo


def test_a_stack_of_dead_ends_closes_at_once():
    # Whatever the seed: the first tile has one door; the second is built through it
    # and its only door must face back, so no door leads anywhere new.
    stack = [room(f"end-{n}", "N") for n in range(3)]
    mine, grown = grow_mine(stack, random.Random(5))
    assert grown.closed
    assert grown.placed == 2
    assert mine.sites() == []
    assert grown.longest_dead_end == 2  # both rooms: a corridor closed at both ends


def test_the_longest_dead_end_is_a_corridor_without_open_doors():
    mine = Mine()
    mine.place((0, 0), room("r0", "NE"), 0)  # its north door stays open
    mine.place((1, 0), room("r1", "EW"), 0)
    mine.place((2, 0), room("r2", "EW"), 0)
    mine.place((3, 0), room("r3", "W"), 0)
    # r3 (one connection), then r2 and r1 (two each) lead back to r0, which is open
    assert longest_dead_end(mine) == 3


def test_monte_carlo_is_reproducible_for_a_seed():
    stack = room_stack(load_catalog(builtin_catalog_path("gem-rush")).of_kind("room-tile"))
    first = monte_carlo(stack, 30, seed=11)
    assert monte_carlo(stack, 30, seed=11) == first
    assert first.mines == 30
    assert 0 <= first.closed_low <= first.closed / 30 <= first.closed_high <= 1
    assert first.mean_placed <= 80


def test_grown_mines_use_every_tile_when_they_stay_open():
    stack = [room(f"cross-{n}", "NESW") for n in range(20)]
    mine, grown = grow_mine(stack, random.Random(3))
    assert not grown.closed
    assert grown.placed == 20
    assert len(mine.cells) == 20

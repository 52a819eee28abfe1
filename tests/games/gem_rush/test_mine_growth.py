"""Random mines: closing, dead ends, and reproducibility for a seed."""

import random

from games.gem_rush.test_mine import room
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.mine import Mine, room_stack
from protopress.games.gem_rush.mine_growth import (
    RoomStack,
    grow_mine,
    longest_dead_end,
    monte_carlo,
)


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


def test_a_stack_larger_than_the_limit_is_drawn_from_its_counts():
    cross, end = room("cross", "NESW"), room("end", "N")
    stack = RoomStack.of([cross, cross, cross, end, end])
    assert stack.counts == ((cross, 3), (end, 2)) and stack.total == 5
    draws = stack.draws(random.Random(1), limit=4)
    assert len(draws) == 4
    drawn = [draws.pop() for _ in range(4)]
    assert len(draws) == 0
    assert drawn.count(cross) <= 3 and drawn.count(end) <= 2  # never more copies than exist
    # each draw takes one of the remaining copies uniformly: the first is a cross 3 times in 5
    firsts = [stack.draws(random.Random(seed), limit=1).pop() for seed in range(2000)]
    assert abs(firsts.count(cross) / 2000 - 3 / 5) < 0.05


def test_a_mine_grows_to_the_limit_and_stays_open():
    stack = RoomStack(((room("cross", "NESW"), 10_000),))
    mine, grown = grow_mine(stack, random.Random(3), limit=50)
    assert (grown.placed, grown.closed, len(mine.cells)) == (50, False, 50)
    stats = monte_carlo(stack, 3, seed=1, limit=50)
    assert (stats.stack, stats.limit, stats.closed, stats.mean_placed) == (10_000, 50, 0, 50)


def test_open_sites_match_sites_in_order():
    stack = room_stack(load_catalog(builtin_catalog_path("gem-rush")).of_kind("room-tile"))
    mine, _ = grow_mine(stack, random.Random(8), limit=40)
    assert list(mine.open_sites()) == mine.sites()
    assert list(mine.copy().open_sites()) == mine.sites()

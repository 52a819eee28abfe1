"""The Gem Rush mine graph, on small mines built by hand.

Coordinates are (column, row) with north up: (1, 0) is east of (0, 0),
(0, 1) is south of it. Rotation turns a tile clockwise in quarter turns.
"""

from types import MappingProxyType

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.mine import (
    EDGES,
    Door,
    Mine,
    Placement,
    RoomTile,
    Site,
    legal_rotations,
    room_stack,
    rotate,
)

FREE = Door((), 0)
RUBY = Door(("fire-ruby",), 1)


def room(id_, doors, cart=False):
    """A room tile; doors maps printed edges to Door (or FREE for a bare string)."""
    if isinstance(doors, str):
        doors = {edge: FREE for edge in doors}
    return RoomTile(id_, id_, "action", MappingProxyType(doors), MappingProxyType({}), cart)


def tunnel(id_, *pairs):
    table = {}
    for a, b in pairs:
        table[a], table[b] = b, a
    return RoomTile(id_, id_, "tunnel", {e: FREE for e in "NESW"}, MappingProxyType(table))


CROSS = tunnel("cross", ("N", "S"), ("E", "W"))
BEND = tunnel("bend", ("N", "E"), ("S", "W"))  # N-E and S-W turn


def test_a_door_facing_a_wall_is_one_way():
    mine = Mine()
    mine.place((0, 0), room("a", "E"), 0)  # door east
    mine.place((1, 0), room("b", "N"), 0)  # wall on its west edge
    graph = mine.graph()
    assert graph.has_edge((0, 0), (1, 0))  # a -> b through a's door
    assert not graph.has_edge((1, 0), (0, 0))  # b shows a wall toward a
    assert mine.reachable((1, 0), 3) == {(1, 0): 0}


def test_doors_need_not_match_and_rotation_moves_doors():
    mine = Mine()
    mine.place((0, 0), room("a", "N"), 1)  # printed north door turned once: faces east
    mine.place((1, 0), room("b", "E"), 2)  # printed east door turned twice: faces west
    assert mine.reachable((0, 0), 1) == {(0, 0): 0, (1, 0): 1}
    assert mine.reachable((1, 0), 1) == {(1, 0): 0, (0, 0): 1}


def test_a_tunnel_chain_is_one_step():
    mine = Mine()
    mine.place((0, 0), room("a", "E"), 0)
    mine.place((1, 0), CROSS, 0)  # straight on, west to east
    mine.place((2, 0), BEND, 0)  # enters at W, pairs S-W: leaves south
    mine.place((2, 1), room("b", "N"), 0)
    assert mine.reachable((0, 0), 1) == {(0, 0): 0, (2, 1): 1}
    # back: b's north door enters the bend at S, out W, through the cross to a
    assert mine.reachable((2, 1), 1) == {(2, 1): 0, (0, 0): 1}
    assert mine.sites() == []


def test_a_tunnel_leading_back_into_an_existing_room_is_a_plain_move():
    mine = Mine()
    mine.place((0, 0), room("a", "E"), 0)
    mine.place((1, 0), BEND, 3)  # turned 3 times: pairs N-E become W-N and E-S become S-W
    mine.place((1, -1), room("c", "S"), 0)  # north of the bend
    # from a: east into the bend at its W edge, out through N into c
    assert mine.reachable((0, 0), 1) == {(0, 0): 0, (1, -1): 1}
    # and back: c's south door enters the bend at N, out through W into a
    assert mine.reachable((1, -1), 1) == {(1, -1): 0, (0, 0): 1}
    assert mine.sites() == []  # the bend's S-E pair is reached by no room door


def test_a_tunnel_into_empty_space_is_a_site_with_the_entering_door():
    mine = Mine()
    mine.place((0, 0), room("a", {"E": RUBY}), 0)
    mine.place((1, 0), CROSS, 0)
    (site,) = mine.sites()
    assert site == Site(origin=(0, 0), edge="E", cell=(2, 0), entry="W", door=RUBY)
    assert mine.reachable_sites((0, 0), 1) == {site: 1}


def test_sites_follow_placements():
    mine = Mine()
    mine.place((0, 0), room("a", "NE"), 0)
    assert {s.cell for s in mine.sites()} == {(0, -1), (1, 0)}
    mine.place((1, 0), CROSS, 0)  # the east door now leads through a tunnel
    assert {s.cell for s in mine.sites()} == {(0, -1), (2, 0)}
    mine.place((2, 0), room("b", "W"), 0)  # closes that path; b's door leads back
    assert [s.cell for s in mine.sites()] == [(0, -1)]
    assert mine.reachable((2, 0), 1) == {(2, 0): 0, (0, 0): 1}


def test_mine_carts_connect_once_there_are_two():
    mine = Mine()
    mine.place((0, 0), room("cart-1", "E", cart=True), 0)
    mine.place((5, 5), room("b", "W"), 0)
    assert mine.reachable((0, 0), 3) == {(0, 0): 0}
    mine.remove((5, 5))
    mine.place((5, 5), room("cart-2", "W", cart=True), 0)
    assert mine.reachable((0, 0), 0) == {(0, 0): 0, (5, 5): 0}  # free ride, no steps needed
    assert mine.reachable((5, 5), 0) == {(5, 5): 0, (0, 0): 0}


def test_reachable_within_k_steps_counts_steps():
    mine = Mine()
    for column in range(5):
        mine.place((column, 0), room(f"r{column}", "EW"), 0)
    assert mine.reachable((0, 0), 3) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 3}
    sites = mine.reachable_sites((4, 0), 1)
    assert [(site.cell, cost) for site, cost in sites.items()] == [((5, 0), 1)]


@pytest.mark.parametrize(
    ("doors", "entry", "rotations"),
    [
        ("N", "S", [2]),  # the single north door turned to face south
        ("NE", "W", [2, 3]),  # E turned twice faces W; N turned three times faces W
        ("NES", "N", [0, 2, 3]),
        ("NESW", "E", [0, 1, 2, 3]),
    ],
)
def test_legal_rotations_equal_the_doors(doors, entry, rotations):
    tile = room("t", doors)
    assert len(legal_rotations(tile, entry)) == len(doors)
    placed = legal_rotations(tile, entry)
    mine = Mine()
    for rotation in placed:
        mine.cells.clear()
        mine.place((0, 0), tile, rotation)
        assert mine.cells[(0, 0)].door(entry) is not None
    assert placed == rotations


def test_placing_on_an_occupied_space_is_refused():
    mine = Mine()
    mine.place((0, 0), room("a", "E"), 0)
    with pytest.raises(ValueError, match="already holds a"):
        mine.place((0, 0), room("b", "E"), 0)


def test_a_placed_tile_reads_its_edges_as_rotating_the_printed_ones_gives_them():
    """Placement's tables (doors, door edges, tunnel exits by table edge) equal what
    turning each printed edge with rotate() gives, for every tile of the catalog
    and every rotation, in the printed order of the doors."""
    tiles = {
        t.id: t
        for t in room_stack(load_catalog(builtin_catalog_path("gem-rush")).of_kind("room-tile"))
    }
    tiles.update({t.id: t for t in (CROSS, BEND)})
    assert any(t.is_tunnel for t in tiles.values()) and any(not t.is_tunnel for t in tiles.values())
    for tile in tiles.values():
        assert tile.is_tunnel == (tile.type == "tunnel")
        for rotation in range(-1, 6):
            placed = Placement(tile, rotation)
            assert placed.door_edges() == tuple(rotate(e, rotation) for e in tile.doors)
            for edge in EDGES:
                assert placed.door(edge) == tile.doors.get(rotate(edge, -rotation))
                paired = tile.tunnel_pairs.get(rotate(edge, -rotation))
                expected = None if paired is None else rotate(paired, rotation)
                assert placed.tunnel_exit(edge) == expected

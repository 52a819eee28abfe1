"""The Stonespine dungeon path graph, on dungeons built by hand.

Grids are written as four rows of four chambers, each chamber by its doors
("." for none); row 0 is the year 1 row beside the frame's north side.
"""

import pytest

from protopress.games.stonespine_architects.dungeon import (
    ENTRANCE,
    EXIT,
    Chamber,
    Doorway,
    Dungeon,
    connected_chambers,
    has_through_route,
    open_dungeon,
    path_graph,
    path_score,
    shortest_route,
)


def build(rows, entrance=("N", 1), exit=("S", 1), passages=None) -> Dungeon:
    chambers = [[{"doors": doors.strip(".")} for doors in row.split()] for row in rows]
    for (row, col), edges in (passages or {}).items():
        chambers[row][col]["passages"] = edges
    return Dungeon.from_json(
        {
            "chambers": chambers,
            "entrance": {"side": entrance[0], "index": entrance[1]},
            "exit": {"side": exit[0], "index": exit[1]},
        }
    )


def test_a_straight_through_route_counts_twice():
    # Column 1 is a corridor of four NS chambers from entrance N1 to exit S1:
    # all 4 chambers connect to the entrance and the same 4 to the exit, 4 + 4 = 8.
    dungeon = build(
        [
            ". NS . .",
            ". NS . .",
            ". NS . .",
            ". NS . .",
        ]
    )
    assert path_score(dungeon).entrance == 4
    assert path_score(dungeon).exit == 4
    assert path_score(dungeon).score == 8
    assert path_score(dungeon).through_route
    assert has_through_route(dungeon)
    assert shortest_route(dungeon) == 4
    assert connected_chambers(dungeon, ENTRANCE) == {(0, 1), (1, 1), (2, 1), (3, 1)}


def test_unmatched_doors_do_not_connect():
    # (0, 1) shows doors N and E, but (0, 2) shows a wall on its west: no path
    # east. (1, 1) shows a door north, but (0, 1) a wall south: no path south.
    # Only (0, 1) connects to the entrance: 1 point; the exit's (3, 1) shows no
    # door toward the frame: 0.
    dungeon = build(
        [
            ". NE S .",
            ". N . .",
            ". . . .",
            ". . . .",
        ]
    )
    graph = path_graph(dungeon)
    assert not graph.has_edge((0, 1), (0, 2))
    assert not graph.has_edge((0, 1), (1, 1))
    assert path_score(dungeon).score == 1


def test_a_secret_passage_on_one_side_connects():
    # (0, 1) has a secret passage on its east edge; (0, 2) shows no door west
    # but the passage alone connects them. (1, 2) has a passage on its north
    # edge, so it joins (0, 2), whose south edge is a wall. Entrance: 3 chambers.
    dungeon = build(
        [
            ". N . .",
            ". . . .",
            ". . . .",
            ". . . .",
        ],
        passages={(0, 1): "E", (1, 2): "N"},
    )
    assert connected_chambers(dungeon, ENTRANCE) == {(0, 1), (0, 2), (1, 2)}
    assert path_score(dungeon).entrance == 3


def test_a_doorway_needs_an_opening_in_its_chamber():
    # (0, 1) connects to (0, 2) and (1, 1) by matching doors but shows a wall
    # toward the frame's N1 doorway: the entrance scores 0 chambers.
    rows = [
        ". ES W .",
        ". N . .",
        ". . . .",
        ". . . .",
    ]
    assert path_score(build(rows)).entrance == 0
    # A secret passage on that frame edge opens it: 3 chambers.
    assert path_score(build(rows, passages={(0, 1): "N"})).entrance == 3


def test_disjoint_entrance_and_exit_regions():
    # Entrance N0 reaches (0, 0) and (0, 1): 2. Exit S3 reaches (3, 3) and
    # (2, 3): 2. No chamber joins the two regions: 2 + 2 = 4, no through-route.
    dungeon = build(
        [
            "NE W . .",
            ". . . .",
            ". . . S",
            ". . . NS",
        ],
        entrance=("N", 0),
        exit=("S", 3),
    )
    assert path_score(dungeon).entrance == 2
    assert path_score(dungeon).exit == 2
    assert path_score(dungeon).score == 4
    assert not path_score(dungeon).through_route
    assert not has_through_route(dungeon)
    assert shortest_route(dungeon) is None
    assert connected_chambers(dungeon, EXIT) == {(2, 3), (3, 3)}


@pytest.mark.parametrize(
    ("side", "index", "cell"),
    [("N", 1, (0, 1)), ("E", 2, (2, 3)), ("S", 0, (3, 0)), ("W", 3, (3, 0)), ("E", 0, (0, 3))],
)
def test_doorways_touch_the_chamber_at_their_position(side, index, cell):
    assert Doorway(side, index).cell == cell


def test_an_east_entrance_enters_through_the_east_edge():
    # Entrance E2 touches (2, 3), which shows a door east: 1 chamber. Its
    # west door meets (2, 2)'s east door: 2 chambers.
    dungeon = build(
        [
            ". . . .",
            ". . . .",
            ". . E EW",
            ". . . .",
        ],
        entrance=("E", 2),
    )
    assert connected_chambers(dungeon, ENTRANCE) == {(2, 2), (2, 3)}


def test_an_open_dungeon_connects_every_chamber_to_both_doorways():
    # 16 chambers, each counted for the entrance and the exit: 32. The shortest
    # route from N0 to S3 crosses 3 rows down and 3 columns east: 7 chambers.
    dungeon = open_dungeon(Doorway("N", 0), Doorway("S", 3))
    assert path_score(dungeon).score == 32
    assert shortest_route(dungeon) == 7


def test_the_graph_has_every_cell_and_both_doorways():
    graph = path_graph(open_dungeon(Doorway("N", 0), Doorway("W", 0)))
    assert graph.number_of_nodes() == 16 + 2
    # 24 shared edges between neighbours, plus each doorway's edge.
    assert graph.number_of_edges() == 24 + 2


def test_from_json_defaults_and_reads_chambers():
    obj = {
        "chambers": [[{"doors": "NS"}] * 4] * 4,
        "entrance": {"side": "N", "index": 1},
        "exit": {"side": "S", "index": 2},
    }
    obj["chambers"][0] = [
        {"doors": "ES", "passages": "W", "elements": ["monster", "trap"], "stars": -2}
    ] + [{"doors": "NS"}] * 3
    dungeon = Dungeon.from_json(obj)
    assert dungeon.chamber((0, 0)) == Chamber(
        frozenset("ES"), frozenset("W"), ("monster", "trap"), -2
    )
    assert dungeon.chamber((3, 3)) == Chamber(frozenset("NS"))
    assert (dungeon.entrance, dungeon.exit) == (Doorway("N", 1), Doorway("S", 2))


def _valid():
    return {
        "chambers": [[{"doors": "NS"} for _ in range(4)] for _ in range(4)],
        "entrance": {"side": "N", "index": 1},
        "exit": {"side": "S", "index": 2},
    }


def _set(path, value):
    def change(obj):
        *parents, last = path
        for key in parents:
            obj = obj[key]
        obj[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(["chambers"], [[]] * 3), "chambers: expected 4 rows, found 3"),
        (_set(["chambers"], "NS"), "chambers: expected a list of 4 rows"),
        (_set(["chambers", 2], [{"doors": ""}] * 5), "chambers[2]: expected 4 chambers, found 5"),
        (_set(["chambers", 1, 3], "NS"), "chambers[1][3]: expected an object, found str"),
        (
            _set(["chambers", 0, 0, "doors"], "NX"),
            "chambers[0][0].doors: 'NX' may only use the letters N, E, S, W",
        ),
        (_set(["chambers", 0, 0, "doors"], "NN"), "chambers[0][0].doors: 'NN' repeats an edge"),
        (
            _set(["chambers", 0, 0, "passages"], "n"),
            "chambers[0][0].passages: 'n' may only use the letters N, E, S, W",
        ),
        (
            _set(["chambers", 0, 0, "elements"], "monster"),
            "chambers[0][0].elements: expected a list of element ids",
        ),
        (
            _set(["chambers", 0, 0, "stars"], "2"),
            "chambers[0][0].stars: expected an integer, found '2'",
        ),
        (_set(["chambers", 0, 0, "door"], "N"), "chambers[0][0]: unknown key 'door'"),
        (_set(["chambers", 0, 0], {"passages": "N"}), "chambers[0][0]: missing 'doors'"),
        (
            _set(["chambers", 3, 2], {"doors": "", "passages": "NE", "elements": ["a", "b", "c"]}),
            "chambers[3][2]: holds 5 elements counting secret passages; a chamber holds at most 4",
        ),
        (_set(["entrance", "index"], 4), "entrance.index: expected 0 to 3, found 4"),
        (_set(["exit", "index"], True), "exit.index: expected 0 to 3, found True"),
        (_set(["exit", "side"], "NE"), "exit.side: expected one of N, E, S, W, found 'NE'"),
        (_set(["exit"], None), "exit: expected an object, found NoneType"),
    ],
)
def test_from_json_rejects_malformed_input(change, message):
    obj = _valid()
    change(obj)
    with pytest.raises(ValueError) as raised:
        Dungeon.from_json(obj)
    assert str(raised.value) == message


def test_from_json_needs_an_object_with_every_part():
    with pytest.raises(ValueError, match=r"^dungeon: expected an object, found list$"):
        Dungeon.from_json([])
    with pytest.raises(ValueError, match=r"^dungeon: missing 'entrance', 'exit'$"):
        Dungeon.from_json({"chambers": []})

"""The engine's flood-fill path score agrees with the path graph (networkx), the
rules' one source of truth, on thousands of seeded random dungeons: random doors
and secret passages, doorways on every side, the entrance and exit sometimes on
one chamber."""

import random

from protopress.games.stonespine_architects.dungeon import (
    CELLS,
    EDGES,
    SIZE,
    Chamber,
    Doorway,
    Dungeon,
    flood_path_score,
    path_score,
)


def random_dungeon(rng: random.Random) -> Dungeon:
    density = rng.random()
    chambers = {
        cell: Chamber(
            doors=frozenset(e for e in EDGES if rng.random() < density),
            passages=frozenset(e for e in EDGES if rng.random() < 0.08),
        )
        for cell in CELLS
    }
    rows = tuple(tuple(chambers[row, col] for col in range(SIZE)) for row in range(SIZE))
    entrance = Doorway(rng.choice(EDGES), rng.randrange(SIZE))
    exit = entrance if rng.random() < 0.05 else Doorway(rng.choice(EDGES), rng.randrange(SIZE))
    return Dungeon(rows, entrance, exit)


def test_flood_fill_matches_the_path_graph():
    rng = random.Random(17)
    through = 0
    for _ in range(5000):
        dungeon = random_dungeon(rng)
        fast = flood_path_score(dungeon)
        assert fast == path_score(dungeon)
        through += fast.through_route
    assert 500 < through < 4500  # both kinds of dungeon were tried

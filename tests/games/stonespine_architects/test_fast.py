"""The engine's fast counts agree with the rules' own on thousands of seeded
random dungeons: the flood-fill path score with the path graph (networkx), the
rules' one source of truth (random doors and secret passages, doorways on every
side, the entrance and exit sometimes on one chamber), and the one-pass count of
goal elements with element_count summed."""

import random

from protopress.components import builtin_catalog_path, load_catalog
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
from protopress.games.stonespine_architects.scoring import Scoring


def random_dungeon(rng: random.Random, elements=()) -> Dungeon:
    density = rng.random()
    chambers = {
        cell: Chamber(
            doors=frozenset(e for e in EDGES if rng.random() < density),
            passages=frozenset(e for e in EDGES if rng.random() < 0.08),
            elements=tuple(rng.choice(elements) for _ in range(rng.randrange(4)))
            if elements
            else (),
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


def test_goal_elements_counted_in_one_pass_match_element_count():
    scoring = Scoring.of(load_catalog(builtin_catalog_path("stonespine-architects")))
    kinds = sorted(scoring.elements)
    rng = random.Random(23)
    for _ in range(3000):
        dungeon = random_dungeon(rng, kinds)
        goal = [rng.choice(kinds) for _ in range(rng.randint(0, 3))]  # repeats too
        expected = sum(scoring.element_count(dungeon, e) for e in goal)
        assert scoring.count_elements(dungeon, goal) == expected

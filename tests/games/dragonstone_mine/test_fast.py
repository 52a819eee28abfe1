"""Copy-on-write towers and cached tower scores agree with the rules by the book:
on thousands of seeded random positions of every level, a copy's changes never
reach the original (nor the original's its copies), and the cached scores equal
scoring each tower afresh."""

import copy
import random

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.dragonstone_mine.rules import (
    DragonstoneMine,
    _progress,
    _tower_values,
    points,
)

GAME = DragonstoneMine()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("dragonstone-mine"))


def fresh_scores(state):
    return [points(GAME.tally(state, seat), state.rules.points) for seat in range(state.players)]


def snapshot(state):
    return copy.deepcopy((state.spires, state.loose, state.bag, state.hands, state.deck))


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
def test_copies_and_cached_scores_match_the_book(catalog, level):
    rng = random.Random(level)
    positions = 0
    for _ in range(3 if level == "smiley" else 6):  # smiley games are long
        players = rng.randint(2, 4)
        state = GAME.setup(catalog, players, random.Random(rng.getrandbits(32)), {"level": level})
        while not GAME.is_over(state):
            before = snapshot(state)
            scores_before = GAME.scores(state)
            trials = [state.copy() for _ in range(2)]
            for trial in trials:  # each copy plays on a little, at random
                for _ in range(rng.randint(1, 4)):
                    if GAME.is_over(trial):
                        break
                    GAME.apply(trial, rng.choice(GAME.legal_actions(trial)))
                assert GAME.scores(trial) == fresh_scores(trial)
                for seat in range(players):  # the one-pass values, and the cache
                    book = (fresh_scores(trial)[seat], _progress(trial, seat))
                    assert _tower_values(trial, seat) == book
                    assert trial.tower_points[seat][0] in (
                        None,
                        (fresh_scores(trial)[seat], _progress(trial, seat)),
                    )
            assert snapshot(state) == before and GAME.scores(state) == scores_before
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))
            assert GAME.scores(state) == fresh_scores(state)
            for trial in trials:  # the original's move reaches no copy
                assert GAME.scores(trial) == fresh_scores(trial)
            positions += 1
    assert positions > 1000

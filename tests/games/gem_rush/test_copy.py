"""A state's copy sets every slot (copy assigns them one by one) and holds the
same values: the copy plays on exactly as the original would."""

import random

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.rules import GemRush
from protopress.games.gem_rush.state import GemRushState

GAME = GemRush()
SLOTS = GemRushState.__slots__


def vars_of(run):
    return {name: getattr(run, name) for name in type(run).__slots__}


def test_copies_set_every_slot_and_play_on_alike():
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    rng = random.Random(3)
    for mode in ("crisis", "rush"):
        state = GAME.setup(catalog, 4, random.Random(8), {"mode": mode})
        for _ in range(150):
            if GAME.is_over(state):
                break
            copy = state.copy()
            for name in SLOTS:
                getattr(copy, name)  # set: no AttributeError
            # a Run is copied, compared by its parts; a Chance by what it draws
            plain = [n for n in SLOTS if n not in ("effect", "chance")]
            assert copy.chance.share().below(2**30) == state.chance.share().below(2**30)
            assert {n: getattr(copy, n) for n in plain} == {n: getattr(state, n) for n in plain}
            if state.effect is not None:
                assert vars_of(copy.effect) == vars_of(state.effect)
            action = rng.choice(GAME.legal_actions(state))
            GAME.apply(copy, action)
            GAME.apply(state, action)
            assert copy.points == state.points and copy.pos == state.pos
            assert GAME.legal_actions(copy) == GAME.legal_actions(state)

"""A game's BotSupport: declared on its spec, resolved once per engine, optional.

Each game's fast paths are held to the book in tests/games/*/test_fast.py; here,
how the object is declared and found, and that a game without one is played by
the book with the same choices where the fast path gives the same values.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace

import pytest

from protopress.components import load_catalog
from protopress.games import BUILTIN, spec_for
from protopress.rules.bot_support import (
    BY_THE_BOOK,
    BotSupport,
    SearchSettings,
    bot_support,
    load_bot_support,
)
from protopress.rules.bots import GreedyBot


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_each_built_in_engine_carries_its_game_s_support(game_id):
    spec = spec_for(game_id)
    game = spec.new_game()
    assert isinstance(spec.bot_support, str)  # a name: listing games imports none of it
    module_name, _, name = spec.bot_support.partition(":")
    assert bot_support(game) is getattr(importlib.import_module(module_name), name)


def test_an_engine_made_without_its_spec_or_declaring_none_is_played_by_the_book():
    class Bare:
        pass

    assert bot_support(Bare()) is BY_THE_BOOK
    assert load_bot_support(None) is BY_THE_BOOK
    own = BotSupport(search=SearchSettings(exploration=0.1))
    assert load_bot_support(own) is own  # a designer's rules file may give the object itself
    assert BY_THE_BOOK.search == SearchSettings()


def test_a_name_that_holds_no_bot_support_is_refused_saying_what_it_holds():
    with pytest.raises(ValueError, match="names type, not a protopress.rules.bot_support"):
        load_bot_support("protopress.rules.core:Action")
    with pytest.raises(ValueError, match="names NoneType"):
        load_bot_support("protopress.rules.core:NO_SUCH_NAME")
    with pytest.raises(ValueError, match="no_such_module"):
        load_bot_support("protopress.no_such_module:SUPPORT")


def test_a_playout_step_without_the_policy_it_plays_is_refused():
    with pytest.raises(ValueError, match="playout_step needs the playout_policy"):
        BotSupport(playout_step=lambda game, state, rng, legal: state)


def test_the_greedy_bot_chooses_alike_with_and_without_a_game_s_fast_path():
    """Gemstone Caverns' fast values and best actions equal the book's (test_fast.py),
    so a greedy game played with them and one played by the book are the same game."""
    spec = spec_for("gemstone-caverns")
    fast = spec.new_game()
    book = spec.new_game()
    book.bot_support = replace(bot_support(fast), action_values=None, best_actions=None)
    catalog = load_catalog(spec.catalog_path)
    states = [game.setup(catalog, 2, random.Random(3), {}) for game in (fast, book)]
    bots = [GreedyBot(11), GreedyBot(11)]
    for _ in range(12):  # four turns of two players: arrangements and placements
        moves = [
            bot.choose(game, state)
            for bot, game, state in zip(bots, (fast, book), states, strict=True)
        ]
        assert moves[0] == moves[1]
        for game, state in zip((fast, book), states, strict=True):
            game.apply(state, moves[0])

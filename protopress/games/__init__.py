"""The games the kit knows: the built-in ones, installed packages' and a designer's.

Every list of games (the CLI's choices, engines, checks, the balance lab's
figures) comes from `spec_for` and `builtin_specs`. A built-in game is one
folder here with a `spec.py` defining SPEC, and one line in BUILTIN below.
An installed package adds a game through the entry point group
"protopress.games" (name: the game id, value: "module:SPEC"); it is loaded
only when that game is asked for by id. A rules file is loaded only when named
with --rules (see protopress.rules.plugins).
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points

from protopress.rules.spec import GameSpec

ENTRY_POINT_GROUP = "protopress.games"

# One line per built-in game: its id and the package holding spec.py.
BUILTIN = {
    "dragonstone-mine": "protopress.games.dragonstone_mine",
    "gemstone-caverns": "protopress.games.gemstone_caverns",
    "gem-rush": "protopress.games.gem_rush",
    "stonespine-architects": "protopress.games.stonespine_architects",
}
BUILTIN_GAMES = tuple(BUILTIN)


class UnknownGame(KeyError):
    """No built-in or installed game has this id."""

    def __str__(self) -> str:
        return str(self.args[0])


@cache
def builtin_spec(game_id: str) -> GameSpec:
    return importlib.import_module(BUILTIN[game_id] + ".spec").SPEC


def builtin_specs() -> tuple[GameSpec, ...]:
    return tuple(builtin_spec(game_id) for game_id in BUILTIN)


def installed_ids() -> tuple[str, ...]:
    """Game ids that installed packages offer (without importing them)."""
    return tuple(sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)))


def known_ids() -> tuple[str, ...]:
    return BUILTIN_GAMES + tuple(i for i in installed_ids() if i not in BUILTIN)


@cache
def spec_for(game_id: str) -> GameSpec:
    """The spec of a built-in or installed game; UnknownGame naming the known ones."""
    if game_id in BUILTIN:
        return builtin_spec(game_id)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == game_id:
            spec = ep.load()
            if not isinstance(spec, GameSpec):
                raise UnknownGame(f"entry point {ep.value!r} of game {game_id!r} is not a GameSpec")
            return spec
    from protopress.components.suggest import did_you_mean

    hint = did_you_mean(game_id, known_ids())
    raise UnknownGame(f"no game {game_id!r}{hint}; games: {', '.join(known_ids())}")

"""The games the kit knows: the built-in ones, installed packages' and a designer's.

Every list of games (the CLI's choices and help, engines, checks, schemas,
layouts, the balance lab's figures) comes from `spec_for`, `builtin_ids` and
`builtin_specs`. A built-in game is one folder here with a `spec.py` defining
SPEC, and one line in BUILTIN below; `register` adds a game whose folder is a
package elsewhere in exactly the same way (a program embedding the kit, or a
test with a game in a temporary folder). An installed package adds a game
through the entry point group "protopress.games" (name: the game id, value:
"module:SPEC"); it is loaded only when that game is asked for by id. A rules
file is loaded only when named with --rules (see protopress.rules.plugins).

What a game adds to the shared front ends (its own commands, its solo
companion) its spec names as "module:NAME" references, loaded here only when
used: listing games and `protopress --help` import no game's modules beyond
its spec.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, cast

from protopress.rules.spec import GameSpec

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from protopress.companion import SoloCompanion

ENTRY_POINT_GROUP = "protopress.games"

# One line per built-in game: its id and the package holding spec.py.
BUILTIN = {
    "dragonstone-mine": "protopress.games.dragonstone_mine",
    "gemstone-caverns": "protopress.games.gemstone_caverns",
    "gem-rush": "protopress.games.gem_rush",
    "stonespine-architects": "protopress.games.stonespine_architects",
}
BUILTIN_GAMES = tuple(BUILTIN)  # the games that ship with protopress (register adds to BUILTIN)


class UnknownGame(KeyError):
    """No built-in or installed game has this id."""

    def __str__(self) -> str:
        return str(self.args[0])


def register(game_id: str, package: str) -> None:
    """Add the game whose folder is the importable package `package` (its spec.py
    defining SPEC), as one line of BUILTIN does: every command, choice list,
    check, layout and schema of the kit then knows it by game_id. ValueError if
    the id is taken by another package."""
    if BUILTIN.get(game_id, package) != package:
        raise ValueError(f"game {game_id!r} is already registered as {BUILTIN[game_id]}")
    BUILTIN[game_id] = package
    builtin_spec.cache_clear()
    spec_for.cache_clear()


def builtin_ids() -> tuple[str, ...]:
    """The ids of the built-in and registered games, in registration order."""
    return tuple(BUILTIN)


@cache
def builtin_spec(game_id: str) -> GameSpec:
    spec = importlib.import_module(BUILTIN[game_id] + ".spec").SPEC
    if not isinstance(spec, GameSpec) or spec.id != game_id:
        raise UnknownGame(f"{BUILTIN[game_id]}.spec: SPEC is not the GameSpec of {game_id!r}")
    return spec


def builtin_specs() -> tuple[GameSpec, ...]:
    return tuple(builtin_spec(game_id) for game_id in BUILTIN)


def _installed() -> list[EntryPoint]:
    """The installed packages' games (entry points, not loaded). importlib.metadata
    (some 10 ms, with the email package) is imported here, by the commands that look
    for an installed game, and not by those that never do (`render` of a catalog)."""
    from importlib.metadata import entry_points

    return list(entry_points(group=ENTRY_POINT_GROUP))


def installed_ids() -> tuple[str, ...]:
    """Game ids that installed packages offer (without importing them)."""
    return tuple(sorted(ep.name for ep in _installed()))


def known_ids() -> tuple[str, ...]:
    return builtin_ids() + tuple(i for i in installed_ids() if i not in BUILTIN)


@cache
def spec_for(game_id: str) -> GameSpec:
    """The spec of a built-in or installed game; UnknownGame naming the known ones."""
    if game_id in BUILTIN:
        return builtin_spec(game_id)
    for ep in _installed():
        if ep.name == game_id:
            spec = ep.load()
            if not isinstance(spec, GameSpec):
                raise UnknownGame(f"entry point {ep.value!r} of game {game_id!r} is not a GameSpec")
            return spec
    from protopress.components.suggest import did_you_mean

    hint = did_you_mean(game_id, known_ids())
    raise UnknownGame(f"no game {game_id!r}{hint}; games: {', '.join(known_ids())}")


def load_reference(reference: str) -> object:
    """What a "module:NAME" reference of a spec names, imported now."""
    module_name, _, name = reference.partition(":")
    return getattr(importlib.import_module(module_name), name)


def game_commands() -> dict[str, str]:
    """The commands the built-in games add to the command line: name -> "module:NAME"."""
    return {name: ref for spec in builtin_specs() for name, ref in spec.commands.items()}


def solo_companion_ids() -> tuple[str, ...]:
    """The built-in games with a solo companion (`protopress solo GAME`)."""
    return tuple(spec.id for spec in builtin_specs() if spec.solo_companion)


def solo_companion(spec: GameSpec) -> SoloCompanion:
    """The game's solo companion (its modules imported now); UnknownGame if it has none."""
    if spec.solo_companion is None:
        raise UnknownGame(f"{spec.id} has no solo companion")
    return cast("SoloCompanion", load_reference(spec.solo_companion))

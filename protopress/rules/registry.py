"""The games the engine can play, by id (modules load on first use)."""

from __future__ import annotations

import importlib

GAME_MODULES = {
    "gemstone-caverns": ("protopress.rules.gemstone_caverns", "GemstoneCaverns"),
    "dragonstone-mine": ("protopress.rules.dragonstone_mine", "DragonstoneMine"),
    "stonespine-architects": ("protopress.rules.stonespine", "StonespineArchitects"),
    "gem-rush": ("protopress.rules.gem_rush", "GemRush"),
}


def game_module(game_id: str):
    try:
        module_name, _ = GAME_MODULES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAME_MODULES))
        raise KeyError(f"no rules engine for {game_id!r} yet; engines: {known}") from None
    return importlib.import_module(module_name)


def game_for(game_id: str):
    module_name, class_name = GAME_MODULES[game_id]
    return getattr(game_module(game_id), class_name)()

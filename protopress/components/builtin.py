"""The built-in games' catalogs (each lives in its game's folder)."""

from __future__ import annotations

from pathlib import Path

from protopress.games import BUILTIN_GAMES, builtin_ids, builtin_spec

__all__ = ["BUILTIN_GAMES", "builtin_catalog_path"]


def builtin_catalog_path(game: str) -> Path:
    if game not in builtin_ids():
        raise KeyError(game)
    path = builtin_spec(game).catalog_path
    assert path is not None, f"built-in game {game} has no catalog.json"
    return path

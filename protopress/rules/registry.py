"""The games the engine can play, by id: read from the game specs (engines load on first use)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from protopress.games import UnknownGame, spec_for


def game_module(game_id: str) -> ModuleType:
    """The module of a game's engine (score_state, format_score); KeyError if unknown."""
    try:
        return spec_for(game_id).engine_module()
    except UnknownGame as error:
        raise KeyError(str(error)) from None


def game_for(game_id: str) -> Any:
    return spec_for(game_id).new_game()

"""The four games that ship with protopress."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

BUILTIN_GAMES = ("dragonstone-mine", "gemstone-caverns", "gem-rush", "stonespine-architects")


def builtin_catalog_path(game: str) -> Path:
    if game not in BUILTIN_GAMES:
        raise KeyError(game)
    return Path(str(resources.files("protopress.components") / "catalogs" / f"{game}.json"))

"""Gemstone Caverns, as the kit offers it."""

from __future__ import annotations

from pathlib import Path

from protopress.rules.spec import GameSpec, OutcomeKind

SPEC = GameSpec(
    id="gemstone-caverns",
    title="Gemstone Caverns",
    min_players=1,
    max_players=8,
    engine="protopress.games.gemstone_caverns.rules:GemstoneCaverns",
    bot_support="protopress.games.gemstone_caverns.lookahead:SUPPORT",
    outcomes=(OutcomeKind.VERSUS, OutcomeKind.SOLO),
    checks=("protopress.games.gemstone_caverns.checks",),
    first_mover=0,
    folder=Path(__file__).parent,
    rulings="docs/rules/gemstone-caverns.md",
)

"""Stonespine Architects, as the kit offers it: players, the solo rival, outcome."""

from __future__ import annotations

from pathlib import Path

from protopress.rules.options import Option, OptionType
from protopress.rules.spec import GameSpec, OutcomeKind

DIFFICULTIES = ("normal", "hard")  # the solo rival's

SPEC = GameSpec(
    id="stonespine-architects",
    title="Stonespine Architects",
    min_players=1,
    max_players=5,
    engine="protopress.games.stonespine_architects.rules:StonespineArchitects",
    bot_support="protopress.games.stonespine_architects.lookahead:SUPPORT",
    outcomes=(OutcomeKind.VERSUS, OutcomeKind.SOLO),
    options=(
        Option(
            "solo",
            OptionType.FLAG,
            "one player against the automated rival (default: true for one player)",
        ),
        Option(
            "difficulty",
            OptionType.CHOICE,
            "the solo rival's difficulty (default normal)",
            choices=DIFFICULTIES,
        ),
    ),
    checks=("protopress.games.stonespine_architects.checks",),
    first_mover=None,  # priority order is drawn at setup
    solo_rival=True,
    folder=Path(__file__).parent,
    rulings="docs/rules/stonespine-architects.md",
    catalog_checks=("protopress.games.stonespine_architects.catalog_checks",),
    collections={
        "elements": "element",
        "chamber_cards": "chamber-card",
        "market_cards": "market-card",
        "market_tokens": "market-token",
        "goal_cards": "goal-card",
        "challenge_cards": "challenge-card",
        "blueprint_cards": "blueprint-card",
        "rival_cards": "rival-card",
    },
    solo_companion="protopress.games.stonespine_architects.solo.companion:COMPANION",
)

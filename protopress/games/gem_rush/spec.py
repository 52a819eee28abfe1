"""Gem Rush, as the kit offers it: players, options, outcome, difficulty targets."""

from __future__ import annotations

from pathlib import Path

from protopress.rules.options import Option, OptionType
from protopress.rules.spec import GameSpec, OutcomeKind

# Crisis mode: the team's points that reach each difficulty (the rules' table).
DIFFICULTY_TARGETS = {
    "Apprentice": 36,
    "Journeyman": 44,
    "Artisan": 52,
    "Expert": 60,
    "Master": 66,
    "Grandmaster": 72,
}
MODES = ("crisis", "rush")
SKILL_VARIANTS = ("normal", "choice", "shared", "chaos", "magic-circle", "none")

SPEC = GameSpec(
    id="gem-rush",
    title="Gem Rush",
    min_players=1,
    max_players=7,
    engine="protopress.games.gem_rush.rules:GemRush",
    bot_support="protopress.games.gem_rush.lookahead:SUPPORT",
    outcomes=(OutcomeKind.TEAM, OutcomeKind.VERSUS),
    options=(
        Option(
            "mode",
            OptionType.CHOICE,
            "crisis: the team against the mine; rush: a race",
            default="crisis",
            choices=MODES,
        ),
        Option(
            "target",
            OptionType.WHOLE,
            "points to reach (Crisis: the difficulty, default 36; Rush: default 20, 15 for 5+ players)",
            minimum=1,
            maximum=10_000,
        ),
        Option(
            "skills",
            OptionType.CHOICE,
            "skill card variant",
            default="normal",
            choices=SKILL_VARIANTS,
        ),
        Option(
            "stop_at_target",
            OptionType.FLAG,
            "Crisis: end the game as soon as the team reaches the target",
            default=False,
        ),
    ),
    checks=("protopress.games.gem_rush.checks",),
    first_mover=0,
    difficulty_targets=DIFFICULTY_TARGETS,
    folder=Path(__file__).parent,
    rulings="docs/rules/gem-rush.md",
    catalog_checks=("protopress.games.gem_rush.catalog_checks",),
    collections={
        "gems": "gem",
        "gem_cards": "gem-card",
        "room_tiles": "room-tile",
        "skill_cards": "skill-card",
        "point_gems": "point-gem",
        "first_player_markers": "first-player-marker",
    },
    commands={"pay": "protopress.games.gem_rush.commands:pay"},
    # the legal actions' cache, whether a copy shares the mine, the mine's link cache
    internal_fields=("legal", "mine_shared", "view"),
)

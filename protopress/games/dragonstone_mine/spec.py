"""DragonStone Mine, as the kit offers it: players, rule levels, outcome."""

from __future__ import annotations

from pathlib import Path

from protopress.rules.options import Option, OptionType
from protopress.rules.spec import GameSpec, OutcomeKind

LEVELS = ("smiley", "1", "2")
TURN_LIMIT = 5000  # turns; a game still running then ends, scored as it stands

SPEC = GameSpec(
    id="dragonstone-mine",
    title="DragonStone Mine",
    min_players=2,
    max_players=5,
    engine="protopress.games.dragonstone_mine.rules:DragonstoneMine",
    bot_support="protopress.games.dragonstone_mine.lookahead:SUPPORT",
    outcomes=(OutcomeKind.VERSUS,),
    options=(
        Option(
            "level",
            OptionType.CHOICE,
            "rule level: smiley (colour rules only), 1 or 2",
            default="smiley",
            choices=LEVELS,
        ),
        Option(
            "turn_limit",
            OptionType.WHOLE,
            "turns after which a game is scored as it stands",
            default=TURN_LIMIT,
            minimum=1,
            maximum=1_000_000,
        ),
    ),
    checks=("protopress.games.dragonstone_mine.checks",),
    first_mover=0,  # the youngest player, seat 0
    folder=Path(__file__).parent,
    rulings="docs/rules/dragonstone-mine.md",
    catalog_checks=("protopress.games.dragonstone_mine.catalog_checks",),
    collections={
        "gem_colours": "gem-colour",
        "towers": "tower",
        "action_cards": "action-card",
    },
    # each tower's cached score, which towers a copy shares, the legal actions' cache
    internal_fields=("tower_points", "owned", "legal"),
)

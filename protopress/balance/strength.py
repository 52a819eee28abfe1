"""How strong each bot of a run is: a short ladder, and the figures measured for the game.

The ladder is the kit's bots in rising strength: random, greedy, the search
(mcts, stronger with its budget). What a rung is worth in a game was measured
by benchmarks/ladder.py (the search against greedy, seats rotated) and is kept
beside the game's catalog in its folder, strength.json; a bot, a number of
players or options the file does not list is "not measured". A search tier
(mcts:fast) is measured as the playouts it names (mcts:50).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from protopress.games import UnknownGame, spec_for
from protopress.rules.bot_names import playouts_name

LADDER = (
    ("random", "rung 1 of 3: any legal action, at random"),
    ("greedy", "rung 2 of 3: the best action one step ahead"),
    ("mcts", "rung 3 of 3: a search of the moves ahead, stronger with its budget"),
)
NOT_MEASURED = "not measured"
REFERENCE = "the reference the search's figures are measured against"


def rung(bot: str) -> tuple[int, str] | None:
    """(place on the ladder from 0, what it is) of a bot name, None when not on it."""
    kind = bot.split(":", 1)[0]
    for place, (name, says) in enumerate(LADDER):
        if kind == name:
            return place, says
    return None


def measured(game: str | None, players: int, options: Mapping, bot: str) -> str:
    """The measured strength of bot in game with these players and options, or "not measured"."""
    if game is None:
        return NOT_MEASURED
    try:
        spec = spec_for(game)
    except UnknownGame:
        return NOT_MEASURED
    path = spec.folder / "strength.json" if spec.folder else None
    if path is None or not path.is_file():
        return NOT_MEASURED
    given = spec.parse_options(options)
    names = {bot, playouts_name(bot)}  # a tier is measured as the playouts it names
    for row in json.loads(path.read_text(encoding="utf-8"))["measured"]:
        wanted = spec.parse_options(row["options"])
        if (
            row["bot"] in names
            and row["players"] == players
            and all(given[key] == wanted[key] for key in row["options"])
        ):
            return str(row["strength"])
    return NOT_MEASURED


def bot_strengths(
    game: str | None, players: int, options: Mapping, bots: Sequence[str]
) -> list[dict]:
    """Per bot of the run (sorted by name): its rung and its measured strength."""
    rows = []
    for bot in sorted(set(bots)):
        place = rung(bot)
        rows.append(
            {
                "bot": bot,
                "rung": None if place is None else place[0],
                "rung_says": "not on the ladder" if place is None else place[1],
                "measured": REFERENCE
                if place is not None and place[0] == 1
                else measured(game, players, options, bot),
            }
        )
    return rows

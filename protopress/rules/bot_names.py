"""Bots by name, as the command line, the balance lab and the action logs give
them: random, greedy, greedy:SAMPLES, mcts, mcts:PLAYOUTS, mcts:MSms, or a
search tier named for a designer, mcts:fast or mcts:strong. Above the bots and
the search, so that neither imports the other to make one."""

from __future__ import annotations

from collections.abc import Iterable

from protopress.rules.bots import GreedyBot, RandomBot
from protopress.rules.mcts import Budget, MctsBot, budget_of

# Search budgets named for a designer, in playouts (so their games repeat for the
# same seed), chosen by measurement (benchmarks/search_tiers.py, docs/balance.md):
# fast: a move well under a second in every built-in game at its default settings;
# strong: clearly stronger than fast where the search gains from playouts (Caverns,
# DragonStone, Gem Rush Rush), at twice the cost; in Stonespine a small edge (55% of
# 300 games against fast); past it the ladder shows little gain (DragonStone less).
SEARCH_TIERS = {"fast": 50, "strong": 100}
BOT_NAMES = (
    "random, greedy[:SAMPLES], mcts[:PLAYOUTS|:MSms" + "".join(f"|:{t}" for t in SEARCH_TIERS) + "]"
)


def make_bot(name: str, seed: int) -> RandomBot | GreedyBot | MctsBot:
    """A bot by name: random, greedy, greedy:SAMPLES, mcts, mcts:PLAYOUTS, mcts:MSms,
    mcts:fast or mcts:strong."""
    kind, _, budget = name.partition(":")
    if kind == "random" and not budget:
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed, _count(name, budget, 1))
    if kind == "mcts":
        return MctsBot(seed, search_budget(name, budget))
    raise ValueError(f"unknown bot {name!r}; bots: {BOT_NAMES}")


def search_budget(name: str, text: str) -> Budget:
    """The search budget after mcts: a tier (fast, strong), playouts or milliseconds."""
    if text in SEARCH_TIERS:
        return Budget(playouts=SEARCH_TIERS[text])
    try:
        return budget_of(name, text)
    except ValueError as error:
        raise ValueError(f"{error}, or a tier: mcts:{', mcts:'.join(SEARCH_TIERS)}") from None


def playouts_name(name: str) -> str:
    """A tier's name as the playouts it names (mcts:fast is mcts:50), so that what was
    measured of the one is said of the other; any other name as given."""
    kind, _, budget = name.partition(":")
    if kind == "mcts" and budget in SEARCH_TIERS:
        return f"mcts:{SEARCH_TIERS[budget]}"
    return name


def timed(name: str) -> bool:
    """Whether the bot of this name searches for a time in milliseconds a move: its
    moves then depend on the machine's speed, so its games do not repeat for the
    same seed (False for a name that is no bot: make_bot says what is wrong)."""
    kind, _, budget = name.partition(":")
    if kind != "mcts":
        return False
    try:
        return search_budget(name, budget).millis is not None
    except ValueError:
        return False


def not_repeatable(names: Iterable[str]) -> str | None:
    """A sentence saying that games played by these bots do not repeat for the same
    seed, when one of them searches by time; None when they all repeat."""
    by_time = sorted({name for name in names if timed(name)})
    if not by_time:
        return None
    return (
        f"{', '.join(by_time)} "
        + ("budgets its" if len(by_time) == 1 else "budget their")
        + " moves by time: "
        "these games depend on the machine's speed and differ from run to run with the "
        "same seed (a budget in playouts, such as mcts:200, repeats them)."
    )


def _count(name: str, text: str, default: int) -> int:
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise ValueError(f"bot {name!r}: expected a whole number from 1 to 10000 after ':'")
    return int(text)

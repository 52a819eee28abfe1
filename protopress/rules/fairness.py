"""The twin check: bots decide alike in positions their seat cannot tell apart.

A *twin* of a position is a copy with one hidden field of the game's seat view
(rules/information.SeatView) dealt again at random, consistently with what the
seat to move sees: another order of a face-down pile, the others' hands dealt
again from the cards they could hold, another secret blueprint behind the same
entrance. A bot that reads only what its seat sees chooses the same action in
the position and in every twin, for the same seed. `check_twins` makes a twin
per declared field and one with every field dealt again, and holds each bot of
TWIN_BOTS to that; the conformance suite and the fairness tests call it on
positions of every game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from protopress.rules.bot_names import make_bot
from protopress.rules.core import Action, derive_seed
from protopress.rules.information import SeatView

TWIN_BOTS = ("greedy", "greedy:3", "mcts:20")  # the search with a small playout budget
EVERY_FIELD = "every hidden field"


class TwinsDiffer(AssertionError):
    """A bot chose differently in two positions its seat cannot tell apart."""


def twins(
    game: Any, state: Any, seat: int, seed: int = 0, view: SeatView[Any] | None = None
) -> Iterator[tuple[str, Any]]:
    """(field, twin): a copy of state with that hidden field of the seat view (the
    game's own unless given) dealt again (from a generator of seed and the field's
    name), for each field, then one with every field dealt again; nothing for a
    game that declares none."""
    if view is None:
        view = getattr(game, "seat_view", None)
    if view is None:
        return
    fields = view.fields(state)
    for field in fields:
        twin = state.copy()
        view.determinize(twin, seat, random.Random(derive_seed(seed, field)), field, lazily=False)
        yield field, twin
    if len(fields) > 1:
        twin = state.copy()
        view.determinize(twin, seat, random.Random(derive_seed(seed, EVERY_FIELD)), lazily=False)
        yield EVERY_FIELD, twin


def check_twins(
    game: Any,
    state: Any,
    seed: int = 0,
    bots: Sequence[str] = TWIN_BOTS,
    view: SeatView[Any] | None = None,
) -> int:
    """Assert that each bot (by name, as `--bot` takes it), seeded with seed, chooses the
    same action for the seat to move in state and in each of its twins; return how
    many twins were checked (0 when the game is over, the decision has one action
    or the game declares nothing hidden). Raises TwinsDiffer naming the bot, the
    field and both actions. state itself is left as it was.

    view: the seat view whose fields the twins vary, the game's own by default (a
    test may vary a field the game's declaration lacks, to see a bot read it)."""
    seat = game.to_move(state)
    if seat is None or len(game.legal_actions(state)) < 2:
        return 0
    chosen: dict[str, Action] = {}
    checked = 0
    for field, twin in twins(game, state, seat, seed, view):
        for name in bots:
            if name not in chosen:
                chosen[name] = make_bot(name, seed).choose(game, state.copy())
            other = make_bot(name, seed).choose(game, twin)
            if other != chosen[name]:
                raise TwinsDiffer(
                    f"{game.id}: bot {name} (seed {seed}) chose {chosen[name]!r} for seat "
                    f"{seat}, but {other!r} with {field} dealt again, which seat {seat} "
                    "cannot see: it reads hidden information"
                )
        checked += 1
    return checked

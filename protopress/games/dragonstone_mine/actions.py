"""DragonStone Mine's actions: one typed value per verb (rules/actions.py).

A log holds each as [verb, *fields] (["stack", 2], ["move", 0, 3]), the form the
game's logs have always had. Spires, face-up cards and players are numbered from
0. The actions a decision lists are built once each and kept (`stack_action`, ...):
a NamedTuple costs about ten times a tuple to build, and the bots' look-ahead
lists the same few actions in every one of its trials.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal, NamedTuple

from protopress.rules.actions import MOVER, ActionCodec, action, positions


@action
class Mine(NamedTuple):
    """Begin the turn: mine a gem from the bag."""

    verb: Literal["mine"] = "mine"


@positions(spire=("spires", MOVER))  # the spire at the table: a tap on it
@action
class Stack(NamedTuple):
    """Stack the gem just mined or taken on a spire of the chooser's tower."""

    spire: int
    verb: Literal["stack"] = "stack"

    @property
    def spires(self) -> tuple[int, ...]:
        """The spires of the chooser's tower this action changes."""
        return (self.spire,)


@action
class KeepLoose(NamedTuple):
    """Keep the gem beside a tower whose spires are all capped (it scores as a gem)."""

    verb: Literal["loose"] = "loose"


@positions(source=("spires", MOVER), target=("spires", MOVER))  # two taps
@action
class MoveGem(NamedTuple):
    """Move the top gem of spire `source` onto spire `target`, which is not capped."""

    source: int
    target: int
    verb: Literal["move"] = "move"

    @property
    def spires(self) -> tuple[int, ...]:
        """The spires of the chooser's tower this action changes."""
        return (self.source, self.target)


@positions(first=("spires", MOVER), second=("spires", MOVER))  # two taps
@action
class SwapTops(NamedTuple):
    """Exchange the different top gems of spires `first` and `second`."""

    first: int
    second: int
    verb: Literal["swap"] = "swap"

    @property
    def spires(self) -> tuple[int, ...]:
        """The spires of the chooser's tower this action changes."""
        return (self.first, self.second)


@action
class Choose(NamedTuple):
    """Choose the player to steal from or to return a gem, or the spire to take it from."""

    number: int  # a seat (whom) or a spire of that seat's tower (where from)
    verb: Literal["choose"] = "choose"


@action
class DrawCard(NamedTuple):
    """Draw the top card of the deck (the discards reshuffled when it is empty)."""

    verb: Literal["draw"] = "draw"


@positions(slot="face_up")
@action
class TakeFaceUp(NamedTuple):
    """Level 2: take the face-up card at `slot`; the deck's top card fills the gap."""

    slot: int
    verb: Literal["take"] = "take"


@action
class PlayCard(NamedTuple):
    """Play an action card from hand: pay its cost from spire tops, then do its effect."""

    card: str
    verb: Literal["play"] = "play"


@action
class DiscardCard(NamedTuple):
    """Discard a card from hand (as the turn's action: then mine and stack two gems)."""

    card: str
    verb: Literal["discard"] = "discard"


@positions(spire=("spires", MOVER))
@action
class PayFrom(NamedTuple):
    """Pay one gem of a card's cost: the top gem of `spire`, which leaves the game."""

    spire: int
    verb: Literal["pay"] = "pay"


@action
class DoStep(NamedTuple):
    """Do an optional step."""

    verb: Literal["do"] = "do"


@action
class Skip(NamedTuple):
    """Skip an optional step before it starts."""

    verb: Literal["skip"] = "skip"


DragonstoneAction = (
    Mine | Stack | KeepLoose | MoveGem | SwapTops | Choose | DrawCard | TakeFaceUp | PlayCard
    | DiscardCard | PayFrom | DoStep | Skip
)  # fmt: skip
TowerAction = Stack | MoveGem | SwapTops  # the actions that change the chooser's tower alone

ACTIONS = ActionCodec(
    [Mine, Stack, KeepLoose, MoveGem, SwapTops, Choose, DrawCard, TakeFaceUp, PlayCard,
     DiscardCard, PayFrom, DoStep, Skip]
)  # fmt: skip

MINE, LOOSE, DRAW, DO, SKIP = Mine(), KeepLoose(), DrawCard(), DoStep(), Skip()

# The actions decisions list, each built once and kept, keyed by its fields.
stack_action: Callable[[int], Stack] = functools.cache(Stack)
move_action: Callable[[int, int], MoveGem] = functools.cache(MoveGem)
swap_action: Callable[[int, int], SwapTops] = functools.cache(SwapTops)
choose_action: Callable[[int], Choose] = functools.cache(Choose)
take_action: Callable[[int], TakeFaceUp] = functools.cache(TakeFaceUp)
play_action: Callable[[str], PlayCard] = functools.cache(PlayCard)
discard_action: Callable[[str], DiscardCard] = functools.cache(DiscardCard)
pay_action: Callable[[int], PayFrom] = functools.cache(PayFrom)

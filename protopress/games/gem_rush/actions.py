"""Gem Rush's actions in the rules' words: one typed value per verb and shape
(docs/rules/gem-rush.md, "Actions, by phase"), and their codec (ACTIONS).

A log holds each as [verb, *fields], the form Gem Rush's logs have always had:
Burn("deck") is ["burn", "deck"], BurnFromHand(2, 0) is ["burn", 2, 0]. Cells are
(column, row); cards are hand indices. A room named by its cell and a card by its
place (in a hand, among the revealed) are declared with @positions: a tap on them at
the playtest table.

Listing the legal actions is the look-ahead's hot path, so the actions that carry
values are interned: MOVES[cell] is the one Move(cell), built on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple, TypeVar

from protopress.games.gem_rush.mine import Cell
from protopress.rules.actions import MOVER, ActionCodec, Field, action, positions

# --- before the first turn, and at its end -------------------------------------


@action
class ChooseSkill(NamedTuple):
    """Choice of Skills: keep the dealt skill card of this id."""

    skill: str
    verb: Literal["skill"] = "skill"


@action
class NewSkill(NamedTuple):
    """Chaos Magic: change the unused skill card for one from the skill deck."""

    verb: Literal["new-skill"] = "new-skill"


@action
class KeepSkill(NamedTuple):
    """Chaos Magic: keep the unused skill card."""

    verb: Literal["keep-skill"] = "keep-skill"


# --- phase 1: discard; phase 2: move ----------------------------------------------


@positions(card=("hands", MOVER))
@action
class Discard(NamedTuple):
    """Discard a card from the hand: down to the hand limit, or for a room's ability."""

    card: int
    verb: Literal["discard"] = "discard"


@positions(cell=("mine", "cells"))
@action
class Move(NamedTuple):
    """Walk to the room at cell, within the steps left, at the fewest steps."""

    cell: Cell
    verb: Literal["move"] = "move"


@positions(origin=("mine", "cells"))
@action
class Build(NamedTuple):
    """Build through the door on edge of the room at origin, paying with cards."""

    origin: Cell
    edge: str
    cards: tuple[int, ...]
    verb: Literal["build"] = "build"


@positions(origin=("mine", "cells"))
@action
class WarpBuild(NamedTuple):
    """Build through any open door, a Warpstone card among the cards discarded (or
    none, with Rift Walker)."""

    origin: Cell
    edge: str
    cards: tuple[int, ...]
    verb: Literal["warp-build"] = "warp-build"


@action
class Rotate(NamedTuple):
    """Turn the room tile just drawn to this rotation and lay it."""

    rotation: int
    verb: Literal["rotate"] = "rotate"


@positions(cell=("mine", "cells"), card=("hands", MOVER))
@action
class Warp(NamedTuple):
    """Warp to the room at cell, discarding the Warpstone card."""

    cell: Cell
    card: int
    verb: Literal["warp"] = "warp"


@positions(cell=("mine", "cells"))
@action
class RiftWarp(NamedTuple):
    """Rift Walker: warp to the room at cell, keeping the Warpstone card."""

    cell: Cell
    verb: Literal["warp"] = "warp"


@action
class UseAbility(NamedTuple):
    """Use the ability of the room the dwarf stands in."""

    verb: Literal["ability"] = "ability"


@action
class EndMove(NamedTuple):
    """Stop moving: on to the action."""

    verb: Literal["end-move"] = "end-move"


# --- phase 3: the action; phase 4: the burn (Crisis) -------------------------------


@action
class Draw(NamedTuple):
    """Draw a gem card from the deck."""

    verb: Literal["draw"] = "draw"


@action
class DrawFromDiscard(NamedTuple):
    """Scavenger: draw the top card of the discard pile instead."""

    source: Literal["discard"] = "discard"
    verb: Literal["draw"] = "draw"


@action
class Skip(NamedTuple):
    """Take no action."""

    verb: Literal["skip"] = "skip"


@action
class Burn(NamedTuple):
    """Burn the cards still due from the deck, or with Stoker from the discard pile."""

    source: Literal["deck", "discard"]
    verb: Literal["burn"] = "burn"


@positions(card=("hands", Field("seat")))
@action
class BurnFromHand(NamedTuple):
    """Burn one card from the hand of seat."""

    seat: int
    card: int
    verb: Literal["burn"] = "burn"


# --- inside a room's ability ---------------------------------------------------------


@action
class ChooseX(NamedTuple):
    """Choose the ability's X."""

    x: int
    verb: Literal["x"] = "x"


@positions(card=("effect", "revealed"))
@action
class Keep(NamedTuple):
    """Keep a revealed card (its index among the revealed)."""

    card: int
    verb: Literal["keep"] = "keep"


@action
class NameGem(NamedTuple):
    """Name a gem."""

    gem: str
    verb: Literal["name"] = "name"


@positions(cell=("mine", "cells"))
@action
class ReturnRoom(NamedTuple):
    """Return the room at cell, no dwarf in it, to the bottom of the room stack."""

    cell: Cell
    verb: Literal["return"] = "return"


@action
class SwapDwarf(NamedTuple):
    """Swap places with the dwarf of seat."""

    seat: int
    verb: Literal["swap"] = "swap"


@action
class Elevate(NamedTuple):
    """Mystic Elevator: move the room to the empty space at cell."""

    cell: Cell
    verb: Literal["elevate"] = "elevate"


@action
class DrawFrom(NamedTuple):
    """Scavenger, inside an ability: draw the first card from the deck or the discard pile."""

    source: Literal["deck", "discard"]
    verb: Literal["draw-from"] = "draw-from"


GemRushAction = (
    ChooseSkill | NewSkill | KeepSkill | Discard | Move | Build | WarpBuild | Rotate | Warp
    | RiftWarp | UseAbility | EndMove | Draw | DrawFromDiscard | Skip | Burn | BurnFromHand
    | ChooseX | Keep | NameGem | ReturnRoom | SwapDwarf | Elevate | DrawFrom
)  # fmt: skip

ACTIONS = ActionCodec(
    [
        ChooseSkill, NewSkill, KeepSkill, Discard, Move, Build, WarpBuild, Rotate, Warp,
        RiftWarp, UseAbility, EndMove, Draw, DrawFromDiscard, Skip, Burn, BurnFromHand,
        ChooseX, Keep, NameGem, ReturnRoom, SwapDwarf, Elevate, DrawFrom,
    ]
)  # fmt: skip
KINDS: frozenset[type] = frozenset(ACTIONS.kinds.values())  # every Gem Rush action class

# the actions without values: one each
NEW_SKILL, KEEP_SKILL, USE_ABILITY, END_MOVE = NewSkill(), KeepSkill(), UseAbility(), EndMove()
DRAW, DRAW_FROM_DISCARD, SKIP = Draw(), DrawFromDiscard(), Skip()
BURN_DECK, BURN_DISCARD = Burn("deck"), Burn("discard")
DRAW_FROM_DECK, DRAW_FROM_PILE = DrawFrom("deck"), DrawFrom("discard")


# --- interned: each action with values built once, by its fields ---------------------

K = TypeVar("K")
A = TypeVar("A")


class Interned(dict[K, A]):
    """Each action once, keyed by its fields: the table builds it on first use, so that
    listing legal actions looks actions up rather than building them anew."""

    def __init__(self, make: Callable[[K], A]):
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> A:
        found = self[key] = self.make(key)
        return found


Payment = tuple[Cell, str, tuple[int, ...]]  # a door (origin, edge) and the cards that pay it

MOVES: Interned[Cell, Move] = Interned(Move)
DISCARDS: Interned[int, Discard] = Interned(Discard)
ROTATIONS: Interned[int, Rotate] = Interned(Rotate)
RIFT_WARPS: Interned[Cell, RiftWarp] = Interned(RiftWarp)
WARPS: Interned[tuple[Cell, int], Warp] = Interned(lambda key: Warp(*key))
BUILDS: Interned[Payment, Build] = Interned(lambda key: Build(*key))
WARP_BUILDS: Interned[Payment, WarpBuild] = Interned(lambda key: WarpBuild(*key))
HAND_BURNS: Interned[tuple[int, int], BurnFromHand] = Interned(lambda key: BurnFromHand(*key))

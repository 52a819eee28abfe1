"""DragonStone Mine's towers: what a tower allows (open spires, moving and swapping
top gems, the spires others may take from) and how it changes (stacking, moving and
swapping gems), and the chooser's tower after an action of a tower decision.

A tower is a list of spires, each a list of colour ids, bottom first; its spires'
capacities are the rules' (`Rules.capacities`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from protopress.games.dragonstone_mine.actions import (
    DragonstoneAction,
    MoveGem,
    Stack,
    SwapTops,
    move_action,
    swap_action,
)

if TYPE_CHECKING:  # the state holds the towers: only annotations name it here
    from protopress.games.dragonstone_mine.effects import State


Tower = list[list[str]]  # spires, bottom gem first


# --- what a tower allows ------------------------------------------------------


def open_spires(state: State, seat: int) -> list[int]:
    return open_in(state.spires[seat], state.rules.capacities)


def open_in(tower: Tower, caps: tuple[int, ...]) -> list[int]:
    return [i for i, spire in enumerate(tower) if len(spire) < caps[i]]


def moves(state: State, seat: int) -> list[MoveGem]:
    return moves_in(state.spires[seat], state.rules.capacities)


def moves_in(tower: Tower, caps: tuple[int, ...]) -> list[MoveGem]:
    """The top gem of spire a onto spire b, which is not full."""
    targets = open_in(tower, caps)
    return [move_action(a, b) for a, spire in enumerate(tower) if spire for b in targets if a != b]


def can_move(tower: Tower, caps: tuple[int, ...]) -> bool:
    return bool(moves_in(tower, caps))


def swaps(state: State, seat: int) -> list[SwapTops]:
    return swaps_in(state.spires[seat])


def can_swap(tower: Tower, caps: tuple[int, ...]) -> bool:
    """bool(swaps_in(tower)): two spires show different top gems (asked of every
    look-ahead tower whose frames offer a swap, so without listing the swaps)."""
    return len({spire[-1] for spire in tower if spire}) > 1


def swaps_in(tower: Tower) -> list[SwapTops]:
    """Exchange two different top gems."""
    return [
        swap_action(a, b)
        for a in range(len(tower))
        for b in range(a + 1, len(tower))
        if tower[a] and tower[b] and tower[a][-1] != tower[b][-1]
    ]


def stealable(state: State, victim: int) -> list[int]:
    """Spires another player may take from: not empty and not capped."""
    caps = state.rules.capacities
    return [i for i, spire in enumerate(state.spires[victim]) if 0 < len(spire) < caps[i]]


def returnable(state: State, victim: int, from_capped: bool = False) -> list[int]:
    """Spires a player returns a gem from: uncapped ones, and (from_capped) capped
    ones when they have no other, only because another player's card forces them."""
    uncapped = stealable(state, victim)
    if uncapped or not from_capped:
        return uncapped
    return [i for i, spire in enumerate(state.spires[victim]) if spire]


# --- how a tower changes ------------------------------------------------------


def stack_gem(tower: Tower, spire: int, gem: str) -> None:
    tower[spire].append(gem)


def move_gem(tower: Tower, a: int, b: int) -> None:
    tower[b].append(tower[a].pop())


def swap_tops(tower: Tower, a: int, b: int) -> None:
    tower[a][-1], tower[b][-1] = tower[b][-1], tower[a][-1]


def change_tower(tower: Tower, action: MoveGem | SwapTops) -> None:
    """Move a top gem onto another spire, or swap two top gems."""
    if isinstance(action, MoveGem):
        move_gem(tower, action.source, action.target)
    else:
        swap_tops(tower, action.first, action.second)


# the decisions whose actions (but SKIP and LOOSE) change only the chooser's tower
# (effects._register_own adds its own)
TOWER_DECISIONS = {"stack"}


def tower_after(state: State, action: DragonstoneAction) -> Tower | None:
    """The chooser's tower after action, when the open decision is one whose actions
    of this kind change that tower and nothing else that differs between them
    (stacking the held gem on a spire, moving or swapping top gems); else None.
    The state is not changed."""
    opened = state.decision
    if opened is None or opened.kind not in TOWER_DECISIONS:
        return None
    tower = list(state.spires[opened.seat])
    if type(action) is Stack:  # the held gem on a copy of the spire (the most asked)
        assert state.held is not None  # a stack decision holds a gem
        spire = action.spire
        tower[spire] = [*tower[spire], state.held]
        return tower
    if type(action) is MoveGem or type(action) is SwapTops:
        for spire in action.spires:  # the spires the action names are the ones it changes
            tower[spire] = list(tower[spire])
        change_tower(tower, action)
        return tower
    return None  # LOOSE, SKIP

"""Stonespine Architects: where a bought market token may go. A slot element goes
into a chamber with a free slot; a secret passage onto a free edge; a chamber
holds at most MAX_ELEMENTS, its passages counted. Rulings:
docs/rules/stonespine-architects.md ("Improvement").

The rules engine asks this of a board, the greedy look-ahead of a board with one
chamber changed: both pass the cards and chambers per cell (card index -1: no
chamber card there yet). Where a token may go depends on its kind alone, slot
element or secret passage (the look-ahead keeps a board's `Room` per kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from protopress.games.stonespine_architects.actions import Put
from protopress.games.stonespine_architects.dungeon import EDGES, MAX_ELEMENTS, SIZE, Chamber

if TYPE_CHECKING:
    from protopress.games.stonespine_architects.scoring import Token
    from protopress.games.stonespine_architects.state import Table

CELLS = SIZE * SIZE


def is_edge(table: Table, token: int) -> bool:
    """Whether the token goes on an edge (a secret passage) rather than in a slot."""
    return table.tokens[token].element in table.scoring.edge_elements


def slot_free(table: Table, card: int, chamber: Chamber) -> bool:
    """Whether a slot element fits in this chamber: the card has a free slot."""
    if card < 0:
        return False
    held = len(chamber.elements) + len(chamber.passages)
    return len(chamber.elements) < table.cards[card].slots and held < MAX_ELEMENTS


def edge_free(card: int, chamber: Chamber, edge: str) -> bool:
    """Whether a secret passage fits on this edge of the chamber."""
    return (
        card >= 0
        and edge not in chamber.passages
        and len(chamber.elements) + len(chamber.passages) < MAX_ELEMENTS
    )


def puts(
    table: Table, cards: Sequence[int], chambers: Sequence[Chamber], k: int, token: int
) -> list[Put]:
    """Every action putting the token, the k-th still to place, where it may go: cell
    by cell, and on a chamber's edges in EDGES order."""
    if is_edge(table, token):
        on_edges = table.actions.edge_puts[k]
        return [
            on_edges[cell][edge]
            for cell in range(CELLS)
            if cards[cell] >= 0
            for edge in EDGES
            if edge_free(cards[cell], chambers[cell], edge)
        ]
    in_slots = table.actions.slot_puts[k]
    return [
        in_slots[cell] for cell in range(CELLS) if slot_free(table, cards[cell], chambers[cell])
    ]


def fits_in(table: Table, card: int, chamber: Chamber, token: int) -> bool:
    """Whether the token may go in (or on an edge of) this one chamber."""
    return kind_fits_in(table, card, chamber, is_edge(table, token))


def kind_fits_in(table: Table, card: int, chamber: Chamber, edge: bool) -> bool:
    """Whether a secret passage (edge) or a slot element (not edge) may go in this chamber."""
    if not edge:
        return slot_free(table, card, chamber)
    # loops here and below, not generators (slower): the look-ahead asks per action
    for side in EDGES:  # noqa: SIM110
        if edge_free(card, chamber, side):
            return True
    return False


class Room(NamedTuple):
    """Where a token fits in a dungeon: in how many chambers, and the first of them."""

    cells: int
    first: int  # the first cell it fits in, -1 if none


def room(table: Table, cards: Sequence[int], chambers: Sequence[Chamber], token: int) -> Room:
    edge, cells, first = is_edge(table, token), 0, -1
    for cell in range(CELLS):
        # a cell without a chamber card holds nothing (as slot_free and edge_free say):
        # most cells early in the game, skipped without a call
        if cards[cell] >= 0 and kind_fits_in(table, cards[cell], chambers[cell], edge):
            cells += 1
            if first < 0:
                first = cell
    return Room(cells, first)


def fits(table: Table, cards: Sequence[int], chambers: Sequence[Chamber], token: int) -> bool:
    """Whether the token may go anywhere in the dungeon (room's count, stopping at the
    first cell: the rules ask it of every pending token after each action)."""
    edge = is_edge(table, token)
    for cell in range(CELLS):
        if cards[cell] >= 0 and kind_fits_in(table, cards[cell], chambers[cell], edge):
            return True
    return False


def with_token(chamber: Chamber, token: Token, edge: str | None) -> Chamber:
    """The chamber with the token put in a slot (edge None) or on the edge; its
    stars join the chamber's reputation."""
    if edge is not None:
        return Chamber(
            chamber.doors, chamber.passages | {edge}, chamber.elements, chamber.stars + token.stars
        )
    return Chamber(
        chamber.doors,
        chamber.passages,
        (*chamber.elements, token.element),
        chamber.stars + token.stars,
    )

"""Stonespine Architects: where a bought market token may go. A slot element goes
into a chamber with a free slot; a secret passage onto a free edge; a chamber
holds at most MAX_ELEMENTS, its passages counted. Rulings:
docs/rules/stonespine-architects.md ("Improvement").

The rules engine asks this of a board, the greedy look-ahead of a board with one
chamber changed: both pass the cards and chambers per cell (card index -1: no
chamber card there yet). Where a token may go depends on its element alone (the
look-ahead keeps a board's `Room` per element).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

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


def spots(
    table: Table, cards: Sequence[int], chambers: Sequence[Chamber], token: int
) -> list[tuple]:
    """Every (row, col) or (row, col, edge) the token may go to."""
    if is_edge(table, token):
        return [
            (cell // SIZE, cell % SIZE, edge)
            for cell in range(CELLS)
            if cards[cell] >= 0
            for edge in EDGES
            if edge_free(cards[cell], chambers[cell], edge)
        ]
    return [
        (cell // SIZE, cell % SIZE)
        for cell in range(CELLS)
        if slot_free(table, cards[cell], chambers[cell])
    ]


def fits_in(table: Table, card: int, chamber: Chamber, token: int) -> bool:
    """Whether the token may go in (or on an edge of) this one chamber."""
    if is_edge(table, token):
        return any(edge_free(card, chamber, edge) for edge in EDGES)
    return slot_free(table, card, chamber)


class Room(NamedTuple):
    """Where a token fits in a dungeon: in how many chambers, and the first of them."""

    cells: int
    first: int  # the first cell it fits in, -1 if none


def room(table: Table, cards: Sequence[int], chambers: Sequence[Chamber], token: int) -> Room:
    found = [cell for cell in range(CELLS) if fits_in(table, cards[cell], chambers[cell], token)]
    return Room(len(found), found[0] if found else -1)


def fits(table: Table, cards: Sequence[int], chambers: Sequence[Chamber], token: int) -> bool:
    """Whether the token may go anywhere in the dungeon."""
    return any(fits_in(table, cards[cell], chambers[cell], token) for cell in range(CELLS))


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

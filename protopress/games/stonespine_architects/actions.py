"""Stonespine Architects' decisions as typed actions (rules/actions.py), one class per
verb and shape, with the fields the rulebook names (docs/rules/stonespine-architects.md).
In a log each is [verb, *fields]: ["place", card_id, column], ["put", token_index,
row, col] and so on, the form logs have always had.

A chamber card is named by its id, a market row by its card's id and its row
(0-based), a token to place by its index among the tokens bought and not yet
placed; row and col are the chamber's in the dungeon, 0 to 3 from the top left. A
token put into a chamber is a tap on that chamber at the playtest table (@positions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from protopress.games.stonespine_architects.dungeon import EDGES, SIZE
from protopress.rules.actions import MOVER, ActionCodec, action, positions


@action
class Place(NamedTuple):
    """Construction: a chamber card from hand into this year's row, in a column."""

    card_id: str
    column: int
    verb: Literal["place"] = "place"


@action
class Keep(NamedTuple):
    """Solo construction: the card kept in hand for the next turn (the rest go)."""

    card_id: str
    verb: Literal["keep"] = "keep"


@action
class Buy(NamedTuple):
    """Improvement: buy a market card's row, and so every token on it."""

    market_card_id: str
    row: int
    verb: Literal["buy"] = "buy"


def chamber_cell(row: int, col: int) -> int:
    """A chamber's place in a board's chambers (row by row): what a put names."""
    return row * SIZE + col


@positions(cell=("boards", MOVER, "chambers"))  # a tap on the chamber
@action
class PutInSlot(NamedTuple):
    """A bought slot element into a free slot of the chamber at row, col."""

    token_index: int
    row: int
    col: int
    verb: Literal["put"] = "put"

    @property
    def cell(self) -> int:
        return chamber_cell(self.row, self.col)


@positions(cell=("boards", MOVER, "chambers"))  # a tap on the chamber
@action
class PutOnEdge(NamedTuple):
    """A bought secret passage onto an edge (N, E, S or W) of the chamber at row, col."""

    token_index: int
    row: int
    col: int
    edge: str
    verb: Literal["put"] = "put"

    @property
    def cell(self) -> int:
        return chamber_cell(self.row, self.col)


@action
class PassClaiming(NamedTuple):
    """Stop buying and claim one of the face-up challenge cards (years 1 to 3)."""

    challenge_id: str
    verb: Literal["pass"] = "pass"


@action
class Pass(NamedTuple):
    """Stop buying when no challenge card is face up (year 4)."""

    verb: Literal["pass"] = "pass"


StonespineAction = Place | Keep | Buy | PutInSlot | PutOnEdge | PassClaiming | Pass
Put = PutInSlot | PutOnEdge

ACTIONS = ActionCodec([Place, Keep, Buy, PutInSlot, PutOnEdge, PassClaiming, Pass])


class Interned:
    """Every Place, Keep and put a game's decisions can list, each built once, which
    legal_actions hands out: building a NamedTuple costs ten times a tuple literal,
    and a decision lists up to sixty of them.

    places[card][column] and keeps[card] by chamber card index; slot_puts[k][cell]
    and edge_puts[k][cell][edge] by the index of the token still to place and the
    cell (row * SIZE + col), for up to most_pending tokens bought at once."""

    __slots__ = ("places", "keeps", "slot_puts", "edge_puts")

    def __init__(self, card_ids: Sequence[str], most_pending: int):
        self.places = tuple(tuple(Place(card, col) for col in range(SIZE)) for card in card_ids)
        self.keeps = tuple(Keep(card) for card in card_ids)
        cells = [divmod(cell, SIZE) for cell in range(SIZE * SIZE)]
        self.slot_puts = tuple(
            tuple(PutInSlot(k, row, col) for row, col in cells) for k in range(most_pending)
        )
        self.edge_puts = tuple(
            tuple({edge: PutOnEdge(k, row, col, edge) for edge in EDGES} for row, col in cells)
            for k in range(most_pending)
        )

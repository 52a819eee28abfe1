"""Gemstone Caverns' actions: the active player arranges the rolled dice, then
every player places the arrangement on their grid, or passes when it fits nowhere.

In a log each is [verb, *fields], as logs have always had them:
["arrange", [[0, 0], [0, 1], ...], ["ruby", ...]], ["place", 1, 0, -2], ["pass"].
A placement names the box of the seat's score sheet where the shape's top-left
corner goes: at the playtest table, a tap on that box (`observation`'s sheets).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from protopress.rules.actions import MOVER, ActionCodec, Field, action, positions

Cell = tuple[int, int]  # (row, column) of a die in the shape, rows running down


@action
class Arrange(NamedTuple):
    """Arrange the rolled dice as a shape: its cells in the canonical orientation of
    `protopress check` and the symbol on each cell, in cell order."""

    cells: tuple[Cell, ...]
    symbols: tuple[str, ...]
    verb: Literal["arrange"] = "arrange"


@positions(column=("sheets", MOVER, Field("row")))  # the box of the sheet the view draws
@action
class Place(NamedTuple):
    """Draw the arrangement on one's grid turned clockwise `quarter_turns` (0 to 3), the
    turned shape's top-left corner at (row, column), perhaps off the grid."""

    quarter_turns: int
    row: int
    column: int
    verb: Literal["place"] = "place"


@action
class Pass(NamedTuple):
    """No placement of the arrangement fits: place nothing; the game ends this turn."""

    verb: Literal["pass"] = "pass"


CavernsAction = Arrange | Place | Pass
ACTIONS = ActionCodec([Arrange, Place, Pass])
PASS = Pass()  # the one pass: legal_actions hands out this value

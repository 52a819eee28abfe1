"""What one seat sees of a game of data rules, as the playtest table draws it.

The engine keeps cards as index numbers (rules/data/model.py); the table needs the
catalog's ids to draw faces. `table_view` gives each zone by its name with card ids,
each as its `seen` says: a zone everyone sees in full, a face-down zone (`seen:
nobody`) and another seat's owner-only zone as {"hidden": NAME, "count": N, "kind":
KIND} (the kind names the backs to draw). A zone of each player is a list by seat; a
grid is its rows of cells (None: a free cell). Resources and tracks are by seat and
name: the language keeps no secret numbers. A round ordered by a value shows its
order, and a triggered last round says so.
"""

from __future__ import annotations

from typing import Any

from protopress.rules.data.bags import row_of
from protopress.rules.data.grid import geometry_of
from protopress.rules.data.model import HOLE, DataState, Model, Seen, Zone


def table_view(model: Model, state: DataState, seat: int) -> dict[str, Any]:
    """{"fields": the zones, resources, tracks and turn of state, as seat may see them}."""
    zones = {zone.name: _zone_view(model, zone, state, seat) for zone in model.zones}
    fields: dict[str, Any] = {"zones": zones}
    if model.resources:
        fields["resources"] = [
            dict(zip(model.resources, pool, strict=True)) for pool in state.pools
        ]
    if model.tracks:
        fields["tracks"] = [
            {track.name: marks[track.place] for track in model.tracks} for marks in state.tracks
        ]
    fields["turns"] = state.turns
    if state.order:  # a round ordered by a value: who moves when
        fields["order"] = list(state.order)
    if state.last_round:
        fields["last_round"] = True
    return {"fields": fields}


def _zone_view(model: Model, zone: Zone, state: DataState, seat: int) -> Any:
    if zone.piles > 1:  # a row of piles (seen by everyone): its piles, by seat when each
        rows = [
            [_pile_view(model, zone, state, state.piles[pile], seen=True)
             for pile in row_of(zone, owner)]
            for owner in range(state.players if zone.each else 1)
        ]  # fmt: skip
        return rows if zone.each else rows[0]
    if not zone.each:
        return _pile_view(
            model, zone, state, state.piles[zone.first], seen=zone.seen is Seen.EVERYONE
        )
    return [
        _pile_view(
            model, zone, state, state.piles[zone.first + owner], seen=_sees(zone, owner, seat)
        )
        for owner in range(state.players)
    ]


def _sees(zone: Zone, owner: int, seat: int) -> bool:
    """Whether seat sees the cards of owner's pile of a zone of each player."""
    return zone.seen is Seen.EVERYONE or (zone.seen is Seen.OWNER and owner == seat)


def _pile_view(model: Model, zone: Zone, state: DataState, pile: list[int], seen: bool) -> Any:
    if not seen:
        count = sum(1 for card in pile if card != HOLE)
        return {"hidden": zone.name, "count": count, "kind": zone.kind}
    ids = model.cards.ids
    named = [None if card == HOLE else ids[card] for card in pile]
    if zone.grid is None:
        return named
    shape = geometry_of(zone.grid, state.options)
    return [named[row.start : row.stop] for row in shape.rows()]

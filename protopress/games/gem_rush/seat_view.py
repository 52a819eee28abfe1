"""Gem Rush's hidden information: what a seat cannot see (the engine's `seat_view`,
rules/information.py), read from the state by the accessors below."""

from __future__ import annotations

from collections.abc import Sequence

from protopress.games.gem_rush.mine import RoomTile
from protopress.games.gem_rush.state import GemRushState
from protopress.rules.information import FaceDown, Private, SeatView, Secret


def _hands(state: GemRushState) -> list[list[tuple[str, ...]]]:
    return state.hands


def _crisis(state: GemRushState) -> bool:
    return state.table.crisis


def _deck(state: GemRushState) -> list[tuple[str, ...]]:
    return state.deck


def _stack(state: GemRushState) -> list[RoomTile]:
    return state.stack


def _skill_deck(state: GemRushState) -> list[int]:
    return state.skill_deck


def _unchosen(state: GemRushState) -> Sequence[tuple[int, ...]]:
    """Choice of Skills, while the seats choose: each seat's skills dealt and not
    (or not yet) chosen, which the others have not seen (a chosen skill is laid
    face up; once all have chosen, the rest leave the game unseen)."""
    if state.phase != "choose-skill":
        return ()  # no seat holds a secret skill
    found = []
    for dealt, chosen in zip(state.dealt, state.skills, strict=True):
        rest = list(dealt)
        for k in chosen:
            rest.remove(k)
        found.append(tuple(rest))
    return found


def _deal_unchosen(state: GemRushState, seat: int, cards: Sequence[int]) -> None:
    state.dealt[seat] = (*state.skills[seat], *cards)


def _undealt(state: GemRushState) -> list[int]:
    """The skill cards dealt to no seat (Choice of Skills: set aside unseen)."""
    dealt = {k for cards in state.dealt for k in cards}
    return [k for k in range(len(state.table.skills)) if k not in dealt]


# What a seat cannot see: the order of the gem deck, the room tile stack and the
# Chaos skill deck; in Rush the others' hands too, pooled with the deck (in
# Crisis the rules advise open hands); in Choice of Skills, the skills dealt to
# the others and not chosen (the order of the declaration is that of the draws).
SEAT_VIEW: SeatView[GemRushState] = SeatView(
    (
        Private("hands", _hands, pool=FaceDown("deck", _deck), open=_crisis),
        FaceDown("stack", _stack),
        FaceDown("skill_deck", _skill_deck),
        Secret("dealt", _unchosen, _deal_unchosen, _undealt),
    )
)

"""Gem Rush's record: the figures a game reports beside its outcome (the engine's
`record`, read by the balance lab), and what is noted for it while the game is
played: the turn each target is first reached, the components each seat used."""

from __future__ import annotations

from typing import Any

from protopress.games.gem_rush import skills
from protopress.games.gem_rush.state import DIFFICULTIES, GemRushState


def note_targets(state: GemRushState) -> None:
    """Note the turn in which each target is first reached (the record's
    `targets_reached`): the Crisis difficulties by the team's total, the game's target
    by that total in Crisis and by the best seat's points in Rush."""
    t = state.table
    turn = state.turns + 1
    if t.crisis:
        total = sum(state.points)
        for name, value in DIFFICULTIES.items():
            if total >= value and name not in state.reached:
                state.reached[name] = turn
    else:
        total = max(state.points)
    if total >= t.target and "target" not in state.reached:
        state.reached["target"] = turn


def game_record(state: GemRushState) -> dict[str, Any]:
    """The figures a game reports beside its outcome (the engine's `record`)."""
    t = state.table
    figures: dict[str, Any] = {"mode": t.mode, "skills": t.variant, "target": t.target}
    if t.crisis:
        figures["team_total"] = sum(state.points)
        figures["won"] = sum(state.points) >= t.target
        figures["burnt"] = state.burnt
        figures["burnt_from"] = dict(
            zip(("deck", "discard", "hand"), state.burnt_from, strict=True)
        )
    figures["targets_reached"] = dict(state.reached)
    figures["rooms_built"] = state.built
    figures["tiles_placed"] = len(state.mine.cells)
    figures["reshuffles"] = state.reshuffles
    figures["skill_cards"] = [[t.skills[k].id for k in held] for held in state.skills]
    figures["used"] = used_components(state)
    return figures


def used_components(state: GemRushState) -> list[list[str]]:
    """The record's `used`, per seat: the room tiles the seat built (laid by its own
    build, tunnels on the way included) or whose ability it used, and the skill cards
    it used (a skill's effect applied: skills.use), by id."""
    cards = state.table.skills
    return [
        sorted(
            rooms
            | {
                cards[k].id
                for k in range(len(cards))
                if state.used_game >> (seat * skills.GAME_BIT + k) & 1
            }
        )
        for seat, rooms in enumerate(state.rooms_used)
    ]

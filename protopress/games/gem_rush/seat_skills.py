"""Gem Rush: what a seat's skill cards give its turn (its movement steps, the
movement skills it holds and its substitutions), now or at the start of its
next turn, kept per table by all they read."""

from __future__ import annotations

from protopress.games.gem_rush import skills
from protopress.games.gem_rush.state import NO_SKILLS, STEPS, GemRushState, SeatSkills


def seat_skills(state: GemRushState, seat: int, next_turn: bool = False) -> SeatSkills:
    """Seat's turn steps, movement skills and substitutions, now or at the start of
    its next turn; kept per table by all they read: seat's skill cards, which
    of them it has used this game and (now) which were used this turn."""
    held = state.skills[seat]
    if not held:
        return NO_SKILLS
    turn = None if next_turn else state.used_turn  # next turn, this turn's are forgotten
    key = (seat, held, turn, state.used_game >> seat * skills.GAME_BIT)
    found = state.table.held.get(key)
    if found is None:
        found = state.table.held[key] = SeatSkills(
            turn_steps(state, seat, next_turn),
            movement_flags(state, seat, next_turn),
            skills.substitutes(state, seat, next_turn),
        )
    return found


def turn_steps(state: GemRushState, seat: int, next_turn: bool = False) -> int:
    """The movement steps seat has at the start of a turn (Tunneler adds one): of
    this one (called as it begins), or with next_turn, of seat's next."""
    if not state.skills[seat]:
        return STEPS
    return STEPS + skills.amount(state, seat, "extra_step", next_turn)


def movement_flags(state: GemRushState, seat: int, next_turn: bool = False) -> tuple[bool, bool]:
    """(Spelunker, Tunnel Rat): the movement skills seat holds (now, or at the start
    of its next turn)."""
    if not state.skills[seat]:
        return False, False
    return (
        skills.holds(state, seat, "reverse_one_way", next_turn),
        skills.holds(state, seat, "tunnel_exit", next_turn),
    )

"""Gem Rush: dwarves build a mine of room tiles by paying gem cards through
doors, score the doors' points and use the rooms to gain more cards; in
Crisis mode (cooperative) three cards burn every turn until the deck is gone,
in Rush mode (competitive) the first to the target ends the round. Rulings:
docs/rules/gem-rush.md.

The mine is protopress.games.gem_rush.mine.Mine (the graph the validators check);
payments are payment.py's (with Warpstone, warpstone.py's); room abilities are
interpreted by effects.py and skills by skills.py.

A turn is a sequence of decisions by the current seat (the actions are
actions.py's):

- phase 1: Discard(card) while the hand is over the limit;
- phase 2: Move(cell) to a room within the steps left (one action per room,
  the fewest steps spent); Build(origin, edge, cards) through an open door
  reachable within the steps left, paying a minimal payment (hand indices),
  then Rotate(rotation) for the drawn tile (again after tunnels); Warp(cell,
  card) discarding a Warpstone card, RiftWarp(cell) with Rift Walker;
  WarpBuild(origin, edge, cards) with a Warpstone card among the cards;
  UseAbility() for a movement room (one step) or a free room (no step);
  EndMove();
- phase 3: Draw(), DrawFromDiscard() (Scavenger), UseAbility() or Skip();
- phase 4 (Crisis): Burn("deck") burns what is still due from the deck,
  BurnFromHand(seat, card) one card from a hand, Burn("discard") from the
  pile with Stoker;
- Chaos Magic: NewSkill() or KeepSkill() at the end of the turn.

Decisions inside a room ability come from effects.legal. Before the first
turn, in the Choice of Skills variant, each seat picks ChooseSkill(skill).
"""

# Over 600 lines on purpose: legal actions and apply share one set of invariants (the
# cached legal list, the shared mine and its views); the state is state.py's, the
# heuristic heuristic.py's, the bots' look-ahead and playout policy lookahead.py's, what
# a seat cannot see seat_view.py's, the record record.py's, what is read from the
# catalog catalog_parts.py's, and effects, skills, payment, Warpstone, the hand's cards
# and the mine graph live in their own modules.

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from protopress.components import Catalog
from protopress.games.gem_rush import effects, skills
from protopress.games.gem_rush.actions import (
    ACTIONS,
    BUILDS,
    BURN_DECK,
    BURN_DISCARD,
    DISCARDS,
    DRAW,
    DRAW_FROM_DISCARD,
    END_MOVE,
    HAND_BURNS,
    KEEP_SKILL,
    KINDS,
    MOVES,
    NEW_SKILL,
    RIFT_WARPS,
    ROTATIONS,
    SKIP,
    USE_ABILITY,
    WARP_BUILDS,
    WARPS,
    Build,
    BurnFromHand,
    ChooseSkill,
    Discard,
    Draw,
    DrawFromDiscard,
    EndMove,
    GemRushAction,
    KeepSkill,
    Move,
    NewSkill,
    RiftWarp,
    Rotate,
    Skip,
    UseAbility,
    Warp,
    WarpBuild,
)
from protopress.games.gem_rush.catalog_parts import CatalogParts, new_table, read_parts
from protopress.games.gem_rush.hand import distinct_cards, pop_card
from protopress.games.gem_rush.heuristic import value_at
from protopress.games.gem_rush.mine import Cell, first_room, legal_rotations
from protopress.games.gem_rush.payment import WARPSTONE
from protopress.games.gem_rush.record import game_record, note_targets
from protopress.games.gem_rush.seat_skills import seat_skills, turn_steps
from protopress.games.gem_rush.seat_view import SEAT_VIEW
from protopress.games.gem_rush.spec import DIFFICULTY_TARGETS, SPEC
from protopress.games.gem_rush.state import (
    BURN,
    CHOICE_DEAL,
    DEAL,
    FREE_RIDES,
    FREE_USES,
    HAND,
    START,
    STEPS,
    Building,
    GemRushState,
    Table,
)
from protopress.games.gem_rush.warpstone import warp_payments, warpstones
from protopress.rules.core import Game, IllegalAction, top_seats
from protopress.rules.spec import Outcome, OutcomeKind, versus_outcome

# the method that applies a decision of each phase
_HANDLERS = {
    phase: "_" + phase.replace("-", "_")
    for phase in ("discard", "move", "action", "burn", "choose-skill", "chaos")
}


class GemRush:
    spec = SPEC
    actions = ACTIONS
    id, min_players, max_players = SPEC.id, SPEC.min_players, SPEC.max_players
    seat_view = SEAT_VIEW  # what a seat cannot see

    def __init__(self) -> None:
        self._read: dict[int, CatalogParts] = {}  # by id(catalog): see _components

    # --- setup --------------------------------------------------------------

    def setup(
        self, catalog: Catalog, players: int, rng: random.Random, options: dict[str, Any]
    ) -> GemRushState:
        table = self._table(catalog, players, SPEC.parse_options(options or {}))
        state = GemRushState(table, rng)
        stack = list(self._components(catalog).stack)
        if not stack:
            raise ValueError(f"{catalog.path}: no room tiles to build a mine from")
        state.chance.shuffle("room stack", stack)
        state.stack = stack
        # the first room is laid by the generator itself (mine.py grows mines from any)
        start = first_room(state.mine, stack, START, state.chance.rng)
        effects.mine_changed(state)
        state.pos = [start] * players

        deck = [tuple(c["gems"]) for c in catalog.of_kind("gem-card") for _ in range(c.count)]
        state.chance.shuffle("deck", deck)
        state.deck = deck
        for hand in state.hands:
            hand.extend(effects.draw_cards(state, DEAL))

        order = list(range(len(table.skills)))
        state.chance.shuffle("skill deck", order)
        variant = table.variant
        needed = {"none": 0, "shared": 1, "choice": CHOICE_DEAL * players}.get(variant, players)
        if needed > len(order):
            raise ValueError(
                f"{catalog.path}: the {variant} skill variant needs {needed} skill cards "
                f"for {players} players, the catalog has {len(order)}"
            )
        if variant in ("normal", "chaos"):
            state.skills = [(order.pop(),) for _ in range(players)]
        elif variant == "shared":
            state.skills = [(order.pop(),)] * players
        elif variant == "magic-circle":
            circle = [order.pop() for _ in range(players)]  # card s lies between s and s + 1
            state.skills = [
                tuple(dict.fromkeys((circle[s - 1], circle[s]))) for s in range(players)
            ]
        elif variant == "choice":
            state.dealt = [tuple(order.pop() for _ in range(CHOICE_DEAL)) for _ in range(players)]
        state.skill_deck = order if variant == "chaos" else []
        if variant == "choice":
            state.phase = "choose-skill"
        else:
            self._begin_turn(state)
        return state

    def _table(self, catalog: Catalog, players: int, options: dict[str, Any]) -> Table:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} takes {self.min_players} to {self.max_players} players")
        return new_table(self._components(catalog), catalog, players, options)

    def _components(self, catalog: Catalog) -> CatalogParts:
        """What setup reads from the catalog, read once per catalog (a catalog does not
        change once loaded): the room tiles, their compiled abilities, the skills."""
        cached = self._read.get(id(catalog))
        if cached is None or cached.catalog is not catalog:
            cached = self._read[id(catalog)] = read_parts(catalog)
        return cached

    # --- whose turn, what is legal ------------------------------------------

    def to_move(self, state: GemRushState) -> int | None:
        return None if state.over else state.seat

    def legal_actions(self, state: GemRushState) -> list[GemRushAction]:
        if state.legal is None:
            state.legal = self._legal_actions(state)
        return list(state.legal)

    def _legal_actions(self, state: GemRushState) -> list[GemRushAction]:
        if state.over:
            return []
        if state.effect is not None:
            return effects.legal(state)
        if state.building is not None:
            b = state.building
            return [ROTATIONS[r] for r in legal_rotations(b.tile, b.entry)]
        phase = state.phase
        seat = state.seat
        if phase == "move":
            return self._move_actions(state)
        if phase == "action":
            actions: list[GemRushAction] = [DRAW]
            if state.pile and skills.holds(state, seat, "discard_draw"):
                actions.append(DRAW_FROM_DISCARD)
            tile = state.mine.cells[state.pos[seat]].tile
            if tile.type in ("action", "movement") and effects.usable(state, seat, tile.id):
                actions.append(USE_ABILITY)
            actions.append(SKIP)
            return actions
        if phase == "discard":
            return [DISCARDS[i] for i in distinct_cards(state.hands[seat])]
        if phase == "burn":
            actions = []
            if state.deck or state.pile:
                actions.append(BURN_DECK)
            if state.pile and skills.holds(state, seat, "burn_from_discard"):
                actions.append(BURN_DISCARD)
            burns = HAND_BURNS
            for other, hand in enumerate(state.hands):
                actions.extend(burns[other, i] for i in distinct_cards(hand))
            return actions
        if phase == "choose-skill":
            ids = dict.fromkeys(state.table.skills[k].id for k in state.dealt[seat])
            return [ChooseSkill(skill_id) for skill_id in ids]
        if phase == "chaos":
            return [NEW_SKILL, KEEP_SKILL]
        raise AssertionError(f"unknown phase {phase}")

    def _move_actions(self, state: GemRushState) -> list[GemRushAction]:
        seat = state.seat
        here = state.pos[seat]
        view = state.view
        hand = state.hands[seat]
        steps = state.steps
        held = seat_skills(state, seat)
        dist = view.distances(here, steps, *held.flags)
        moves = MOVES
        actions: list[GemRushAction]
        if state.rides < FREE_RIDES:
            actions = [moves[cell] for cell in dist if cell != here]
        else:  # no more free rides this turn: only the rooms that cost a step
            actions = [moves[cell] for cell, cost in dist.items() if cost]
        pays = skills.hand_payments(tuple(hand), held.subs)  # by door cost
        if state.stack:
            builds = BUILDS
            for site in view.sites_in_reach(dist, steps):
                for payment in pays[site.door.cost]:
                    actions.append(builds[site.origin, site.edge, payment.cards])
        warps = warpstones(hand)
        rift = bool(warps) and skills.holds(state, seat, "warp_free")
        if warps:
            for cell in view.rooms():
                if cell != here:
                    actions.extend(WARPS[cell, i] for i in warps)
                    if rift:
                        actions.append(RIFT_WARPS[cell])
            if state.stack:
                for site in view.sites():
                    for payment in pays[site.door.cost]:
                        for paid in warp_payments(hand, payment, warps, rift):
                            actions.append(WARP_BUILDS[site.origin, site.edge, paid.cards])
        tile = view.mine.cells[here].tile
        if (
            (tile.type == "movement" and steps)
            or (tile.type == "free" and state.free_uses < FREE_USES)
        ) and effects.usable(state, seat, tile.id):
            actions.append(USE_ABILITY)
        actions.append(END_MOVE)
        return actions

    # --- applying -----------------------------------------------------------

    def apply(self, state: GemRushState, action: GemRushAction) -> None:
        if state.over:
            raise IllegalAction("the game is over")
        if type(action) not in KINDS:
            raise IllegalAction(f"{action!r} is not a Gem Rush action (actions.py)")
        state.legal = None
        if state.effect is not None:
            after = state.effect.after
            if effects.resolve(state, action):
                self._effect_done(state, after)
            return
        match action:
            case (
                Move(cell=cell) | Warp(cell=cell) | RiftWarp(cell=cell)
                | Build(origin=cell) | WarpBuild(origin=cell)
            ) if not _is_cell(cell):  # fmt: skip
                raise IllegalAction(f"{cell!r} is no (column, row) cell")
        if state.building is not None:
            if not isinstance(action, Rotate):
                raise IllegalAction(f"the new room must be turned first, not {action.verb}")
            self._rotate(state, action.rotation)
            return
        handler = getattr(self, _HANDLERS[state.phase])
        handler(state, action)

    # phase 1

    def _discard(self, state: GemRushState, action: GemRushAction) -> None:
        if not isinstance(action, Discard):
            raise IllegalAction(f"discard down to the hand limit first, not {action.verb}")
        hand = state.hands[state.seat]
        state.pile.append(pop_card(hand, action.card))
        if len(hand) <= HAND + skills.amount(state, state.seat, "hand_limit"):
            state.phase = "move"

    # phase 2

    def _move(self, state: GemRushState, action: GemRushAction) -> None:
        seat = state.seat
        if isinstance(action, Move):
            self._walk(state, seat, action.cell)
        elif isinstance(action, Build):
            self._build(state, seat, action, warp=False)
        elif isinstance(action, WarpBuild):
            self._build(state, seat, action, warp=True)
        elif isinstance(action, Warp | RiftWarp):
            self._warp(state, seat, action)
        elif isinstance(action, UseAbility):
            tile = state.mine.cells[state.pos[seat]].tile
            if not effects.usable(state, seat, tile.id):
                raise IllegalAction(f"the {tile.title} ability cannot be used now")
            if tile.type == "movement" and state.steps:
                self._spend(state, seat, 1)
            elif tile.type == "free" and state.free_uses < FREE_USES:
                state.free_uses += 1
            else:
                raise IllegalAction(f"the {tile.title} ability cannot be used while moving")
            effects.begin(state, seat, tile.id, "move")
        elif isinstance(action, EndMove):
            state.phase = "action"
        else:
            raise IllegalAction(f"{action.verb} is not a move")

    def _spend(self, state: GemRushState, seat: int, steps: int) -> None:
        state.steps -= steps
        state.spent += steps
        if state.spent > STEPS:
            skills.use_op(state, seat, "extra_step")

    def _reach(self, state: GemRushState, seat: int, cell: Cell, limit: int) -> int:
        """Fewest steps to cell within limit (IllegalAction if out of reach)."""
        here = state.pos[seat]
        flags = seat_skills(state, seat).flags
        cost = state.view.distances(here, limit, *flags).get(cell)
        if cost is None:
            raise IllegalAction(f"{cell} is not within {limit} steps of {here}")
        if any(flags):
            plain = state.view.distances(here, limit).get(cell)
            if plain is None or plain > cost:  # the way relied on a movement skill
                skills.use_op(state, seat, "reverse_one_way")
                skills.use_op(state, seat, "tunnel_exit")
        return cost

    def _walk(self, state: GemRushState, seat: int, cell: Cell) -> None:
        if cell == state.pos[seat]:
            raise IllegalAction("the dwarf is already there")
        cost = self._reach(state, seat, cell, state.steps)
        if not cost:
            if state.rides >= FREE_RIDES:
                raise IllegalAction(f"no more than {FREE_RIDES} moves a turn may cost no step")
            state.rides += 1
        self._spend(state, seat, cost)
        state.pos[seat] = cell

    def _build(self, state: GemRushState, seat: int, action: Build | WarpBuild, warp: bool) -> None:
        origin, edge = action.origin, action.edge
        try:
            cards = tuple(action.cards)
        except TypeError:
            raise IllegalAction(f"{action!r}: the cards are no hand indices") from None
        site = state.view.site(origin, edge) if origin in state.mine.cells else None
        if site is None or not state.stack:
            raise IllegalAction(f"nothing can be built through {edge} of {origin}")
        hand = state.hands[seat]
        subs = seat_skills(state, seat).subs
        pays = skills.payments(site.door.cost, tuple(hand), subs)
        rift = False
        if warp:
            warps = warpstones(hand)
            free = skills.holds(state, seat, "warp_free")
            options = [
                (payment, paid.rift_walker)
                for payment in pays
                for paid in warp_payments(hand, payment, warps, free)
                if paid.cards == cards
            ]
            if not options:
                raise IllegalAction(f"{cards} is no Warpstone payment for {edge} of {origin}")
            payment, rift = options[0]
        else:
            minimal = next((p for p in pays if p.cards == cards), None)
            if minimal is None:
                raise IllegalAction(f"{cards} is no minimal payment for {edge} of {origin}")
            payment = minimal
            if not state.steps:
                raise IllegalAction("no movement step is left to build with")
            self._spend(state, seat, self._reach(state, seat, origin, state.steps - 1) + 1)
        paid = [hand[i] for i in payment.cards]
        discarded = [hand[i] for i in sorted(cards)]
        for i in sorted(cards, reverse=True):
            hand.pop(i)
        state.pile.extend(discarded)
        if rift:
            skills.use_op(state, seat, "warp_free")
        bonus = skills.settle_payment(state, seat, site.door.cost, paid)
        state.points[seat] += site.door.points + payment.bonus + bonus
        state.building = Building(site.cell, site.entry, state.stack.pop(), site.origin)
        state.built += 1

    def _rotate(self, state: GemRushState, rotation: int) -> None:
        b = state.building
        if b is None:
            raise IllegalAction("no tile is being built")
        if rotation not in legal_rotations(b.tile, b.entry):
            raise IllegalAction(f"{b.tile.title} needs a door on its {b.entry} edge")
        mine = effects.own_mine(state)
        changed = mine.place(b.cell, b.tile, rotation)
        state.note_room(state.seat, b.tile.id)
        state.view = state.view.placed(mine, b.cell, changed)
        dest = b.cell
        if b.tile.is_tunnel:  # go on out the other side
            arrival = mine.follow_tunnel(b.cell, b.entry)
            if arrival.empty and state.stack:
                state.building = Building(arrival.space, arrival.entry, state.stack.pop(), b.origin)
                return
            dest = b.origin if arrival.cell is None or arrival.empty else arrival.cell
        state.building = None
        seat = state.seat
        state.pos[seat] = dest
        count = skills.amount(state, seat, "build_draw")
        if count:
            skills.use_op(state, seat, "build_draw")
            state.hands[seat].extend(effects.draw_cards(state, count))

    def _warp(self, state: GemRushState, seat: int, action: Warp | RiftWarp) -> None:
        cell = action.cell
        hand = state.hands[seat]
        if cell not in state.mine.cells or state.mine.cells[cell].tile.is_tunnel:
            raise IllegalAction(f"there is no room at {cell}")
        if cell == state.pos[seat]:
            raise IllegalAction("the dwarf is already there")
        if isinstance(action, Warp):
            card = action.card
            if not (isinstance(card, int) and 0 <= card < len(hand)):
                raise IllegalAction(f"no card {card} in hand")
            if WARPSTONE not in hand[card]:
                raise IllegalAction(f"card {card} shows no Warpstone")
            state.pile.append(hand.pop(card))
        elif any(WARPSTONE in card for card in hand) and skills.holds(state, seat, "warp_free"):
            skills.use_op(state, seat, "warp_free")
        else:
            raise IllegalAction("warping needs a Warpstone card")
        state.pos[seat] = cell

    # phase 3

    def _action(self, state: GemRushState, action: GemRushAction) -> None:
        seat = state.seat
        hand = state.hands[seat]
        if isinstance(action, Draw | DrawFromDiscard):
            count = 1 + skills.amount(state, seat, "extra_draw")
            if count > 1:
                skills.use_op(state, seat, "extra_draw")
            if isinstance(action, DrawFromDiscard):
                if action.source != "discard":
                    raise IllegalAction(f"{action!r} is not a draw")
                if not state.pile or not skills.holds(state, seat, "discard_draw"):
                    raise IllegalAction("drawing from the discard pile needs Scavenger")
                skills.use_op(state, seat, "discard_draw")
                hand.append(state.pile.pop())
                count -= 1
            hand.extend(effects.draw_cards(state, count))
        elif isinstance(action, UseAbility):
            tile = state.mine.cells[state.pos[seat]].tile
            if tile.type not in ("action", "movement") or not effects.usable(state, seat, tile.id):
                raise IllegalAction(f"the {tile.title} ability cannot be used now")
            if not effects.begin(state, seat, tile.id, "action"):
                return  # a decision is pending
        elif not isinstance(action, Skip):
            raise IllegalAction(f"{action.verb} is not an action (draw, ability, skip)")
        self._end_action(state)

    def _effect_done(self, state: GemRushState, after: str) -> None:
        if after == "action":
            self._end_action(state)

    def _end_action(self, state: GemRushState) -> None:
        if state.table.crisis:
            state.phase = "burn"
            state.burn_left = min(BURN, state.table.cards - state.burnt)
            if state.burn_left:
                return
        self._end_turn(state)

    # phase 4

    def _burn(self, state: GemRushState, action: GemRushAction) -> None:
        if action == BURN_DECK:
            burnt = len(effects.draw_cards(state, state.burn_left))
            if not burnt:
                raise IllegalAction("the deck and the discard pile are empty")
            state.burnt_from[0] += burnt
        elif action == BURN_DISCARD:
            if not skills.holds(state, state.seat, "burn_from_discard"):
                raise IllegalAction("burning from the discard pile needs Stoker")
            burnt = min(state.burn_left, len(state.pile))
            if not burnt:
                raise IllegalAction("the discard pile is empty")
            skills.use_op(state, state.seat, "burn_from_discard")
            del state.pile[len(state.pile) - burnt :]
            state.burnt_from[1] += burnt
        elif isinstance(action, BurnFromHand):
            other = action.seat
            if not (isinstance(other, int) and 0 <= other < state.table.players):
                raise IllegalAction(f"there is no seat {other}")
            pop_card(state.hands[other], action.card)
            burnt = 1
            state.burnt_from[2] += 1
        else:
            raise IllegalAction(f"{BURN} cards must burn first, not {action!r}")
        state.burnt += burnt
        state.burn_left -= burnt
        if state.burn_left:
            return
        if state.burnt >= state.table.cards:  # the last gem card is burnt
            note_targets(state)
            state.turns += 1
            state.over = True
            return
        self._end_turn(state)

    # skills

    def _choose_skill(self, state: GemRushState, action: GemRushAction) -> None:
        if not isinstance(action, ChooseSkill):
            raise IllegalAction(f"choose a skill first, not {action.verb}")
        seat = state.seat
        chosen = [k for k in state.dealt[seat] if state.table.skills[k].id == action.skill]
        if not chosen:
            raise IllegalAction(f"{action.skill} was not dealt to seat {seat}")
        state.skills[seat] = (chosen[0],)
        if seat + 1 < state.table.players:
            state.seat = seat + 1
            return
        state.seat = 0
        self._begin_turn(state)

    def _chaos(self, state: GemRushState, action: GemRushAction) -> None:
        if isinstance(action, NewSkill):
            self._change_skill(state)
        elif not isinstance(action, KeepSkill):
            raise IllegalAction(f"keep or change the skill first, not {action.verb}")
        self._next_turn(state)

    def _change_skill(self, state: GemRushState) -> None:
        seat = state.seat
        (old,) = state.skills[seat]
        state.skills[seat] = (state.skill_deck.pop(),)
        state.skill_deck.append(old)
        state.chance.shuffle("skill deck", state.skill_deck)

    # turns

    def _end_turn(self, state: GemRushState) -> None:
        note_targets(state)
        if state.table.variant == "chaos" and state.skill_deck and state.skills[state.seat]:
            if not state.skill_used:
                state.phase = "chaos"
                return
            self._change_skill(state)  # a used skill must be changed
        self._next_turn(state)

    def _next_turn(self, state: GemRushState) -> None:
        state.turns += 1
        state.seat = (state.seat + 1) % state.table.players
        self._begin_turn(state)

    def _begin_turn(self, state: GemRushState) -> None:
        t = state.table
        seat = state.seat
        # phase 0: check for game end
        if t.crisis:
            if t.stop_at_target and sum(state.points) >= t.target:
                state.over = True
        elif (
            seat == 0
            and state.turns
            and (max(state.points) >= t.target or not state.stack or not state.view.sites())
        ):
            state.over = True
        if state.over:
            return
        state.used_turn = 0
        state.skill_used = False
        state.spent = state.free_uses = state.rides = 0
        state.steps = turn_steps(state, seat)
        limit = HAND
        if state.skills[seat]:
            limit += skills.amount(state, seat, "hand_limit")
            if limit > HAND and len(state.hands[seat]) > HAND:
                skills.use_op(state, seat, "hand_limit")
        state.phase = "discard" if len(state.hands[seat]) > limit else "move"

    # --- results ------------------------------------------------------------

    def is_over(self, state: GemRushState) -> bool:
        return state.over

    def scores(self, state: GemRushState) -> list[int]:
        return list(state.points)

    def winners(self, state: GemRushState) -> list[int]:
        if state.table.crisis:
            won = sum(state.points) >= state.table.target
            return list(range(state.table.players)) if won else []
        return top_seats(state.points)

    def heuristic(self, state: GemRushState, seat: int) -> float:
        return value_at(state, seat, state.pos[seat])

    def outcome(self, state: GemRushState) -> Outcome:
        """Crisis: the team's shared result against the target; Rush: a race."""
        scores, winners = list(self.scores(state)), list(self.winners(state))
        t = state.table
        if not t.crisis:
            return versus_outcome(scores, winners)
        total = sum(state.points)
        return Outcome(
            OutcomeKind.TEAM,
            tuple(scores),
            tuple(winners),
            team_won=total >= t.target,
            team_score=total,
            targets_reached=tuple(
                name for name, points in DIFFICULTY_TARGETS.items() if total >= points
            ),
        )

    def record(self, state: GemRushState) -> dict[str, Any]:
        return game_record(state)

    def offered(self, catalog: Catalog, options: Mapping[str, Any] | None) -> list[str]:
        """The components a game with these options puts on the table, as `used` names
        them: every room tile, and the skill cards of its mode (none without skills)."""
        parsed = SPEC.parse_options(options or {})
        rooms = {tile.id for tile in self._components(catalog).stack}
        if parsed["skills"] == "none":
            return sorted(rooms)
        cards = skills.skill_cards(catalog.of_kind("skill-card"), parsed["mode"])
        return sorted(rooms | {card.id for card in cards})


# mypy checks the engine against the contract: its states and its actions
_: type[Game[GemRushState, GemRushAction]] = GemRush


# --- helpers -------------------------------------------------------------------


def _is_cell(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value)

"""Gem Rush rules: setup, movement, construction, the turn, both modes' ends, and
whole bot games; worked examples built by hand from the rulebook.

Hand-built mines use the catalog's own room tiles. Coordinates are (column,
row) with north up: (1, 0) is east of (0, 0), (0, -1) north of it. Rotation
turns a tile clockwise in quarter turns. Cards are written "gem+gem".
"""

import json
import os
import random
from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush import effects
from protopress.games.gem_rush.actions import (
    ACTIONS,
    Build,
    Burn,
    BurnFromHand,
    ChooseSkill,
    Discard,
    Draw,
    EndMove,
    Move,
    Rotate,
    Skip,
    UseAbility,
    Warp,
    WarpBuild,
)
from protopress.games.gem_rush.mine import Mine, Placement, first_room, room_stack
from protopress.games.gem_rush.mine_growth import grow_mine
from protopress.games.gem_rush.payment import minimal_payments
from protopress.games.gem_rush.spec import SPEC
from protopress.games.gem_rush.state import (
    APPRENTICE,
    BURN,
    DIFFICULTIES,
    FREE_RIDES,
    FREE_USES,
    GRANDMASTER,
)
from protopress.rules.core import IllegalAction, checked_apply
from protopress.rules.simulate import log_of, play, replay

GAME = SPEC.new_game()  # with its bot support, as the kit plays it
CATALOG = load_catalog(builtin_catalog_path("gem-rush"))
TILES = {tile.id: tile for tile in room_stack(CATALOG.of_kind("room-tile"))}
GOLDEN = Path(__file__).parents[2] / "rules" / "golden" / "gem-rush-crisis.json"
GOLDEN_CASE = {"bots": ["greedy", "random", "greedy"], "seed": 2024, "options": {"mode": "crisis"}}


def cards(*names):
    return [tuple(name.split("+")) for name in names]


def scenario(rooms, players=1, pos=None, hands=None, deck=(), pile=(), stack=None, **options):
    """Seat 0 at the start of its movement phase in a hand-built mine.

    rooms: {cell: tile id or (tile id, rotation)}; the dwarves start in the first
    room unless pos (one cell, or one per seat) says otherwise; stack lists room
    tiles, the first drawn first; deck lists cards, the top first.
    """
    options.setdefault("skills", "none")
    state = GAME.setup(CATALOG, players, random.Random(0), options)
    mine = Mine()
    for cell, spec in rooms.items():
        tile_id, rotation = spec if isinstance(spec, tuple) else (spec, 0)
        mine.place(cell, TILES[tile_id], rotation)
    state.set_mine(mine)
    where = pos if pos is not None else next(iter(rooms))
    state.pos = list(where) if isinstance(where, list) else [where] * players
    state.hands = [cards(*hand) for hand in hands] if hands else [[] for _ in range(players)]
    state.stack_deck(cards(*deck))
    state.pile = cards(*pile)
    if stack is not None:
        state.stack = [TILES[tile_id] for tile_id in reversed(stack)]
    state.seat, state.phase, state.steps, state.spent = 0, "move", 3, 0
    state.touch()
    return state


def act(state, action):
    checked_apply(GAME, state, action)


def moves(state):
    return {a.cell for a in GAME.legal_actions(state) if isinstance(a, Move)}


def builds(state, kind=Build):
    return [a for a in GAME.legal_actions(state) if type(a) is kind]


# --- setup --------------------------------------------------------------------


def test_setup_deals_four_cards_and_starts_everyone_in_one_room():
    state = GAME.setup(CATALOG, 4, random.Random(3), {})
    assert [len(hand) for hand in state.hands] == [4, 4, 4, 4]
    assert len(state.deck) == 75 - 16 and state.pile == []
    assert len(set(state.pos)) == 1
    start = state.pos[0]
    assert not state.mine.cells[start].tile.is_tunnel
    assert len(state.stack) == 80 - len(state.mine.cells)
    assert (GAME.to_move(state), state.phase, state.steps) == (0, "move", 3)
    assert state.table.target == APPRENTICE


def test_a_starting_tunnel_is_extended_until_a_room_comes_up():
    mine = Mine()
    stack = [TILES["dark-pit"], TILES["gem-pockets-1"], TILES["crossing-tunnel"]]  # last on top
    start = first_room(mine, stack, (0, 0), random.Random(1))
    assert mine.cells[(0, 0)].tile.is_tunnel
    assert mine.cells[start].tile.id == "gem-pockets-1"
    assert len(mine.cells) == 2 and stack == [TILES["dark-pit"]]


@pytest.mark.parametrize(
    ("players", "options", "target"),
    [(4, {}, 36), (4, {"mode": "rush"}, 20), (5, {"mode": "rush"}, 15), (2, {"target": 60}, 60)],
)
def test_default_targets(players, options, target):
    assert GAME.setup(CATALOG, players, random.Random(0), options).table.target == target


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {"colour": "red"}, "unknown option 'colour'"),
        (2, {"mode": "coop"}, "option mode: expected one of crisis, rush, found 'coop'"),
        (2, {"skills": "many"}, "option skills: expected one of normal, choice"),
        (2, {"target": 0}, "option target: expected a whole number from 1 to 10000, found 0"),
        (8, {}, "1 to 7 players"),
    ],
)
def test_bad_options_are_refused(players, options, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(CATALOG, players, random.Random(0), options)


def test_difficulty_targets_are_named():
    assert DIFFICULTIES["apprentice"] == APPRENTICE == 36
    assert DIFFICULTIES["grandmaster"] == GRANDMASTER == 72
    assert list(DIFFICULTIES.values()) == [36, 44, 52, 60, 66, 72]


def skill_ids(state):
    return [[state.table.skills[k].id for k in held] for held in state.skills]


def test_normal_skills_one_each():
    state = GAME.setup(CATALOG, 4, random.Random(5), {"skills": "normal"})
    held = skill_ids(state)
    assert all(len(ids) == 1 for ids in held) and len({ids[0] for ids in held}) == 4
    assert state.skill_deck == []


def test_choice_of_skills_is_a_decision_per_player():
    state = GAME.setup(CATALOG, 3, random.Random(5), {"skills": "choice"})
    assert state.phase == "choose-skill"
    for seat in range(3):
        assert GAME.to_move(state) == seat
        options = GAME.legal_actions(state)
        assert [type(a) for a in options] == [ChooseSkill, ChooseSkill]
        assert [a.skill for a in options] == [state.table.skills[k].id for k in state.dealt[seat]]
        act(state, options[1])
        assert skill_ids(state)[seat] == [options[1].skill]
    assert (GAME.to_move(state), state.phase) == (0, "move")


def test_shared_skill_is_the_same_card_for_everyone():
    state = GAME.setup(CATALOG, 5, random.Random(5), {"skills": "shared"})
    assert len({tuple(held) for held in state.skills}) == 1 and len(state.skills[0]) == 1


def test_chaos_magic_keeps_the_rest_of_the_skills_as_a_deck():
    state = GAME.setup(CATALOG, 4, random.Random(5), {"skills": "chaos"})
    assert all(len(held) == 1 for held in state.skills)
    assert sorted(state.skill_deck + [held[0] for held in state.skills]) == list(range(20))


def test_magic_circle_each_player_uses_left_and_right():
    state = GAME.setup(CATALOG, 4, random.Random(5), {"skills": "magic-circle"})
    for seat in range(4):
        left, right = state.skills[seat]
        assert state.skills[(seat + 1) % 4][0] == right  # the card between seat and seat + 1
        assert state.skills[seat - 1][1] == left
    assert len({k for held in state.skills for k in held}) == 4


def test_no_skills():
    state = GAME.setup(CATALOG, 3, random.Random(5), {"skills": "none"})
    assert state.skills == [(), (), ()]


def test_rush_sets_the_crisis_only_skill_aside():
    rush = GAME.setup(CATALOG, 2, random.Random(5), {"mode": "rush"})
    crisis = GAME.setup(CATALOG, 2, random.Random(5), {"mode": "crisis"})
    assert "stoker" not in {s.id for s in rush.table.skills} and len(rush.table.skills) == 19
    assert "stoker" in {s.id for s in crisis.table.skills}


# --- movement -----------------------------------------------------------------


def test_the_search_plays_three_turns_ahead_in_rush_and_its_default_in_crisis():
    from protopress.games.gem_rush import lookahead
    from protopress.rules.mcts import ROLLOUT_TURNS

    rush = GAME.setup(CATALOG, 2, random.Random(5), {"mode": "rush"})
    crisis = GAME.setup(CATALOG, 2, random.Random(5), {})
    assert lookahead.playout_turns(GAME, rush) == 3
    assert lookahead.playout_turns(GAME, crisis) == ROLLOUT_TURNS == 1


def test_door_to_door_either_way_one_step_each():
    state = scenario({(0, 0): "gem-pockets-1", (1, 0): "gem-pockets-4"})  # E door meets W door
    assert moves(state) == {(1, 0)}
    act(state, Move((1, 0)))
    assert (state.pos[0], state.steps) == ((1, 0), 2)
    act(state, Move((0, 0)))
    assert (state.pos[0], state.steps) == ((0, 0), 1)


def test_door_to_wall_is_one_way():
    state = scenario({(0, 0): "gem-pockets-1", (1, 0): "crystal-garden"})  # its west edge: wall
    act(state, Move((1, 0)))
    assert moves(state) == set()
    with pytest.raises(IllegalAction):
        act(state, Move((0, 0)))


def test_walls_block_both_ways():
    state = scenario({(0, 0): "crystal-garden", (1, 0): "dark-pit"})  # N door only; S door only
    assert moves(state) == set()
    state.pos = [(1, 0)]
    state.touch()
    assert moves(state) == set()


def test_a_chain_of_tunnels_is_one_step():
    rooms = {
        (0, 0): "gem-pockets-1",
        (1, 0): "crossing-tunnel",
        (2, 0): "bending-tunnel",  # enters at W, leaves S
        (2, 1): ("gem-pockets-4", 1),  # its printed W door faces north, into the bend
    }
    state = scenario(rooms)
    assert moves(state) == {(2, 1)}
    act(state, Move((2, 1)))
    assert state.steps == 2
    assert moves(state) == {(0, 0)}  # back through both tunnels, one step


def cart_line(last):
    """A mine cart at (0, 0), four corridors east, and last at (5, 0)."""
    rooms = {(0, 0): "mine-cart-1"}
    rooms.update({(x, 0): "side-gallery" for x in range(1, 5)})
    rooms[(5, 0)] = last
    return rooms


def test_mine_carts_are_free_once_there_are_two():
    state = scenario(cart_line("mine-cart-3"))  # its W door faces the corridor
    assert (5, 0) in moves(state)
    act(state, Move((5, 0)))
    assert state.steps == 3
    state.steps = 0
    state.touch()
    assert moves(state) == {(0, 0)}  # still free with no step left


def test_free_rides_are_bounded_a_turn():
    """Rides between two carts cost no step: without a bound a bot could shuttle
    between them for ever (a search did, for 20,000 decisions). After FREE_RIDES
    of them only the rooms a step away are offered; a new turn allows them again."""
    state = scenario(cart_line("mine-cart-3"), players=2, mode="rush")
    state.steps = 0
    state.touch()
    for ride in range(FREE_RIDES):
        cart = (5, 0) if ride % 2 == 0 else (0, 0)
        assert moves(state) == {cart}
        act(state, Move(cart))
    assert state.steps == 0 and state.pos[0] == (5, 0)  # three rides: (5, 0), (0, 0), (5, 0)
    assert moves(state) == set()
    with pytest.raises(IllegalAction, match="cost no step"):
        GAME.apply(state, Move((0, 0)))
    for _ in range(2):  # seat 0's turn ends, then seat 1's
        act(state, EndMove())
        act(state, Skip())
    assert state.seat == 0 and state.phase == "move" and state.steps == 3
    assert (0, 0) in moves(state)  # the ride is free again, and so are the corridor's rooms
    assert (4, 0) in moves(state)


def test_one_mine_cart_does_nothing():
    state = scenario(cart_line("gem-pockets-4"))
    assert moves(state) == {(1, 0), (2, 0), (3, 0)}  # three steps along the corridor


def test_a_movement_room_costs_one_step_and_may_be_the_action():
    state = scenario(
        {(0, 0): "glittering-crack"}, deck=["fire-ruby+obsidian", "soulstone+raw-hope"]
    )
    act(state, UseAbility())
    assert state.hands[0] == cards("fire-ruby+obsidian") and state.steps == 2
    act(state, EndMove())
    act(state, UseAbility())  # the same room as the action
    assert state.hands[0] == cards("fire-ruby+obsidian", "soulstone+raw-hope")


def test_a_free_room_costs_nothing_and_repeats():
    state = scenario({(0, 0): "lantern-nook"}, deck=["star-tear+electrum", "fire-ruby+obsidian"])
    for _ in range(FREE_USES):
        assert UseAbility() in GAME.legal_actions(state)
        act(state, UseAbility())
        assert state.peeked == tuple(cards("star-tear+electrum")) and state.steps == 3
    assert UseAbility() not in GAME.legal_actions(state)  # the engine's cap on repeats
    assert len(state.deck) == 2
    act(state, EndMove())
    assert UseAbility() not in GAME.legal_actions(state)  # not an action-phase room


CORRIDOR = {
    (0, 0): "gem-pockets-1",
    **{(x, 0): "side-gallery" for x in range(1, 4)},
    (4, 0): "gem-pockets-4",  # W door back, free E door, S door costs a Soulstone
}


def test_warpstone_moves_to_any_room_for_free():
    state = scenario(CORRIDOR, hands=[["fire-ruby+obsidian", "star-tear+warpstone"]])
    assert Warp((4, 0), 1) in GAME.legal_actions(state)
    assert Warp((4, 0), 0) not in GAME.legal_actions(state)  # no Warpstone on it
    act(state, Warp((4, 0), 1))
    assert (state.pos[0], state.steps) == ((4, 0), 3)
    assert state.hands[0] == cards("fire-ruby+obsidian")
    assert state.pile == cards("star-tear+warpstone")


def test_warpstone_builds_far_away_without_moving():
    state = scenario(
        CORRIDOR, hands=[["soulstone+warpstone", "fire-ruby+obsidian"]], stack=["gem-cache"]
    )
    assert Build((4, 0), "S", (0,)) not in GAME.legal_actions(state)  # 5 steps away
    act(state, WarpBuild((4, 0), "S", (0,)))  # the card pays the Soulstone and warps
    assert (state.points[0], state.steps) == (1, 3)
    act(state, GAME.legal_actions(state)[0])  # a rotation
    assert state.pos[0] == (4, 1) and state.mine.cells[(4, 1)].tile.id == "gem-cache"


def test_warpstone_may_be_discarded_alongside_the_payment():
    state = scenario(
        CORRIDOR, hands=[["soulstone+fire-ruby", "raw-hope+warpstone"]], stack=["gem-cache"]
    )
    far = [a for a in builds(state, WarpBuild) if (a.origin, a.edge) == ((4, 0), "S")]
    assert far == [WarpBuild((4, 0), "S", (0, 1))]
    act(state, far[0])
    assert state.hands[0] == [] and state.pile == cards("soulstone+fire-ruby", "raw-hope+warpstone")


# --- construction -----------------------------------------------------------------


def test_building_pays_scores_door_and_orichalcum_and_turns_the_new_room():
    state = scenario(
        {(0, 0): "gem-pockets-1"},
        hands=[["electrum+orichalcum", "fire-ruby+obsidian"]],
        stack=["auric-fountain"],  # doors N, E, W
    )
    north = [a for a in builds(state) if a.edge == "N"]
    assert north == [Build((0, 0), "N", (0,))]  # the door costs one Electrum
    act(state, north[0])
    assert state.points[0] == 1 + 1  # the door's point and the Orichalcum's
    assert state.hands[0] == cards("fire-ruby+obsidian") and state.pile == cards(
        "electrum+orichalcum"
    )
    assert state.steps == 2
    rotations = [a.rotation for a in GAME.legal_actions(state)]
    assert len(rotations) == len(TILES["auric-fountain"].doors) == 3
    for r in rotations:  # each rotation shows a door back toward the builder
        assert Placement(TILES["auric-fountain"], r).door("S") is not None
    act(state, Rotate(rotations[0]))
    assert state.pos[0] == (0, -1) and state.building is None and state.built == 1


def test_build_actions_are_the_minimal_payments():
    hand = [
        "fire-ruby+obsidian",
        "permafrost+soulstone",
        "diamond-dust+star-tear",
        "obsidian+echoglass",
    ]
    state = scenario({(0, 0): "gem-pockets-3"}, hands=[hand])  # E: Fire Ruby, Obsidian, Permafrost
    east = {a.cards for a in builds(state) if a.edge == "E"}
    cost = TILES["gem-pockets-3"].doors["E"].cost
    assert east == {p.cards for p in minimal_payments(cost, cards(*hand))}
    assert (0, 1) in east and (1, 2, 3) in east


def test_a_wasted_gem_still_pays_the_rulebook_example():
    # a door of Obsidian, Permafrost and Electrum: one card Obsidian & Electrum, one
    # Permafrost & Soulstone (the Soulstone is wasted)
    state = scenario(
        {(0, 0): "glittering-crack"}, hands=[["obsidian+electrum", "permafrost+soulstone"]]
    )
    assert TILES["glittering-crack"].doors["S"].cost == ("obsidian", "permafrost", "electrum")
    assert [a for a in builds(state) if a.edge == "S"] == [Build((0, 0), "S", (0, 1))]
    act(state, Build((0, 0), "S", (0, 1)))
    assert state.points[0] == 4 and state.hands[0] == []


def test_a_tunnel_drawn_while_building_leads_on_to_another_room_at_no_cost():
    state = scenario(
        {(0, 0): "gem-pockets-1"},
        hands=[["electrum+raw-hope"]],
        stack=["crossing-tunnel", "dark-pit"],
    )
    act(state, Build((0, 0), "N", (0,)))
    assert len(GAME.legal_actions(state)) == 4  # a tunnel has four doors
    act(state, Rotate(0))
    assert state.building.tile.id == "dark-pit" and state.building.cell == (0, -2)
    assert GAME.legal_actions(state) == [Rotate(0)]  # its one door faces back south
    act(state, Rotate(0))
    assert state.pos[0] == (0, -2)
    assert (state.points[0], state.hands[0], state.steps, state.built) == (1, [], 2, 1)


def test_a_tunnel_drawn_into_an_existing_room_stops_there():
    state = scenario(
        {(0, 0): "gem-pockets-1", (0, -2): "gem-pockets-4"},
        hands=[["electrum+raw-hope"]],
        stack=["crossing-tunnel", "dark-pit"],
    )
    act(state, Build((0, 0), "N", (0,)))
    act(state, Rotate(0))
    assert state.building is None and state.pos[0] == (0, -2)
    assert state.points[0] == 1 and [t.id for t in state.stack] == ["dark-pit"]


def test_building_through_an_existing_tunnel_uses_the_door_before_it():
    state = scenario(
        {(0, 0): "gem-pockets-1", (0, -1): "crossing-tunnel"},
        hands=[["electrum+raw-hope"]],
        stack=["dark-pit"],
    )
    act(state, Build((0, 0), "N", (0,)))  # the Electrum door, across the tunnel
    assert state.building.cell == (0, -2) and state.points[0] == 1


def test_nothing_is_built_once_the_room_stack_is_empty():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]], stack=[])
    assert builds(state) == []


# --- cards ----------------------------------------------------------------------


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    state = scenario(
        {(0, 0): "gem-pockets-1"}, deck=[], pile=["fire-ruby+obsidian", "star-tear+soulstone"]
    )
    act(state, EndMove())
    act(state, Draw())
    assert len(state.hands[0]) == 1 and state.pile == [] and len(state.deck) == 1
    assert state.reshuffles == 1


def test_drawing_more_than_the_deck_holds_draws_what_there_is_then_reshuffles():
    state = scenario(
        {(0, 0): "gem-pockets-1"}, deck=["fire-ruby+obsidian"], pile=["star-tear+soulstone"]
    )
    act(state, EndMove())
    act(state, UseAbility())  # Gem Pockets: draw 2
    assert state.hands[0] == cards("fire-ruby+obsidian", "star-tear+soulstone")
    state.deck, state.pile, state.hands[0] = cards("raw-hope+electrum"), [], []
    assert effects.draw_cards(state, 3) == cards("raw-hope+electrum")  # as many as possible


def test_phase_one_discards_down_to_four():
    state = scenario({(0, 0): "gem-pockets-1"}, players=2, mode="rush")
    state.hands[1] = cards(*["fire-ruby+obsidian"] * 5, "star-tear+soulstone")
    act(state, EndMove())
    act(state, Skip())
    assert (GAME.to_move(state), state.phase) == (1, "discard")
    assert GAME.legal_actions(state) == [Discard(0), Discard(5)]  # one per kind of card
    act(state, Discard(5))
    act(state, Discard(0))
    assert state.phase == "move" and len(state.hands[1]) == 4


# --- Crisis ---------------------------------------------------------------------


def test_crisis_burns_three_cards_after_the_action():
    state = scenario({(0, 0): "gem-pockets-1"}, players=2, hands=[["fire-ruby+obsidian"], []],
                     deck=["a+b"] * 10, mode="crisis")  # fmt: skip
    act(state, EndMove())
    act(state, Skip())
    assert state.phase == "burn" and state.burn_left == BURN
    assert GAME.legal_actions(state) == [Burn("deck"), BurnFromHand(0, 0)]
    act(state, BurnFromHand(0, 0))  # one from a hand...
    assert state.hands[0] == [] and state.burn_left == 2
    act(state, Burn("deck"))  # ...and the rest from the deck
    assert (len(state.deck), state.burnt, state.burnt_from) == (8, 3, [2, 0, 1])
    assert GAME.to_move(state) == 1 and state.phase == "move"


def test_burning_reshuffles_the_discard_pile_when_needed():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b"], pile=["c+d"] * 4, mode="crisis")
    act(state, EndMove())
    act(state, Skip())
    act(state, Burn("deck"))
    assert state.burnt == 3 and len(state.deck) == 2 and state.pile == []


def burn_from_deck(state):
    """Do nothing each turn; burn from the deck, else from a hand."""
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        for preferred in [EndMove(), Skip(), Burn("deck")]:
            if preferred in legal:
                act(state, preferred)
                break
        else:
            act(state, legal[0])


@pytest.mark.parametrize("players", [1, 4, 5, 7])
def test_crisis_ends_when_the_last_card_is_burnt_after_25_turns(players):
    state = GAME.setup(CATALOG, players, random.Random(players), {"skills": "none"})
    burn_from_deck(state)
    assert state.turns == 25 and state.burnt == 75
    assert sum(map(len, state.hands)) + len(state.deck) + len(state.pile) == 0
    assert GAME.winners(state) == []  # 36 points were not reached
    record = GAME.record(state)
    assert record["team_total"] == 0 and record["won"] is False and record["burnt"] == 75


def test_crisis_team_score_targets_and_winners():
    state = GAME.setup(CATALOG, 3, random.Random(1), {"skills": "none"})
    state.points = [20, 15, 10]
    burn_from_deck(state)
    record = GAME.record(state)
    assert record["team_total"] == 45 and record["won"] is True
    assert set(record["targets_reached"]) == {"apprentice", "journeyman", "target"}
    assert GAME.scores(state) == [20, 15, 10]
    assert GAME.winners(state) == [0, 1, 2]


def test_crisis_may_stop_at_the_target():
    state = GAME.setup(CATALOG, 2, random.Random(1), {"skills": "none", "stop_at_target": True})
    state.points = [30, 6]
    act(state, EndMove())
    act(state, Skip())
    act(state, Burn("deck"))
    assert GAME.is_over(state) and state.turns == 1


# --- Rush -----------------------------------------------------------------------


def pass_turn(state):
    act(state, EndMove())
    act(state, Skip())


def test_rush_ends_on_the_first_players_turn_so_all_play_equal_turns():
    state = scenario({(0, 0): "gem-pockets-1"}, players=3, mode="rush", target=5)
    pass_turn(state)  # seat 0
    state.points[1] = 5  # seat 1 reaches the target during its turn
    pass_turn(state)
    assert not GAME.is_over(state) and GAME.to_move(state) == 2  # seat 2 still plays
    pass_turn(state)
    assert GAME.is_over(state) and state.turns == 3
    assert GAME.winners(state) == [1] and GAME.to_move(state) is None
    assert GAME.record(state)["targets_reached"] == {"target": 2}


def test_rush_first_player_reaching_the_target_lets_the_round_finish():
    state = scenario({(0, 0): "gem-pockets-1"}, players=3, mode="rush", target=5)
    state.points = [6, 0, 0]
    pass_turn(state)
    pass_turn(state)
    pass_turn(state)
    assert GAME.is_over(state) and state.turns == 3
    assert GAME.winners(state) == [0]


def test_rush_ends_when_no_room_can_be_built_any_more():
    state = scenario({(0, 0): "gem-pockets-1"}, players=2, mode="rush", stack=[])
    pass_turn(state)
    pass_turn(state)
    assert GAME.is_over(state) and state.turns == 2


# --- the protocol -----------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [Move((9, 9)), Build((0, 0), "N", (1,)), Draw(), Rotate(0), ("fly",), ()],
)
def test_checked_apply_refuses_illegal_actions(action):
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope", "fire-ruby+obsidian"]])
    before = (state.pos[:], [h[:] for h in state.hands], state.steps, state.points[:])
    with pytest.raises(IllegalAction, match="is not legal for seat 0"):
        act(state, action)
    assert (state.pos, state.hands, state.steps, state.points) == before


def test_apply_refuses_what_it_cannot_do():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]])
    with pytest.raises(IllegalAction):
        GAME.apply(state, Build((0, 0), "W", (0,)))  # does not pay Obsidian + Star Tear
    with pytest.raises(IllegalAction):
        GAME.apply(state, Warp((0, 0), 0))


def test_copies_do_not_share_anything_that_changes():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope"]],
                     deck=["fire-ruby+obsidian", "star-tear+soulstone"], stack=["dark-pit"])  # fmt: skip
    trial = state.copy()
    act(trial, Build((0, 0), "N", (0,)))
    act(trial, Rotate(0))
    assert (0, -1) in trial.mine.cells and (0, -1) not in state.mine.cells
    assert state.hands[0] == cards("electrum+raw-hope") and state.stack[-1].id == "dark-pit"
    assert state.view.mine is state.mine
    # both draw the same card from the same shuffled future
    state.deck, trial.deck = [], []
    state.pile = cards(*[f"fire-ruby+{g}" for g in ("obsidian", "permafrost", "star-tear")])
    trial.pile = state.pile[:]
    copy = state.copy()
    assert effects.draw_cards(state, 3) == effects.draw_cards(copy, 3)


def test_mine_view_moves_exactly_as_the_mine_graph():
    stack = list(TILES.values()) + [TILES["crossing-tunnel"]] * 2 + [TILES["bending-tunnel"]] * 2
    rng = random.Random(7)
    for _ in range(4):
        mine, _ = grow_mine(stack, rng)
        view = effects.MineView(mine)
        for start in mine.rooms()[:25]:
            for steps in range(4):
                distances = view.distances(start, steps)
                assert distances == mine.reachable(start, steps)
                sites = {
                    site: distances[origin] + 1
                    for origin in distances
                    for site in view.links(origin)[1]
                    if distances[origin] < steps
                }
                assert sites == mine.reachable_sites(start, steps)
        assert view.sites() == mine.sites()


def test_heuristic_counts_points_then_cards():
    state = scenario({(0, 0): "gem-pockets-1"}, players=2, mode="rush")
    base = GAME.heuristic(state, 0)
    state.points[0] = 2
    assert GAME.heuristic(state, 0) == pytest.approx(base + 2)
    state.points[1] = 5
    assert GAME.heuristic(state, 0) == pytest.approx(base - 3)
    state.hands[0] = cards("fire-ruby+obsidian")
    assert GAME.heuristic(state, 0) > base - 3


# --- whole games ------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["crisis", "rush"])
@pytest.mark.parametrize("variant", ["normal", "choice", "shared", "chaos", "magic-circle", "none"])
def test_random_games_finish(mode, variant):
    for seed, players in ((1, 2), (2, 4), (3, 7)):
        state, record, actions = play(GAME, CATALOG, ["random"] * players, seed,
                                      {"mode": mode, "skills": variant})  # fmt: skip
        assert GAME.is_over(state) and not record.limit
        in_play = len(state.deck) + len(state.pile) + sum(map(len, state.hands)) + state.burnt
        assert in_play == 75
        if mode == "crisis":
            assert record.turns == 25
        else:
            assert record.turns % players == 0
        assert record.extra["skills"] == variant and record.extra["mode"] == mode


@pytest.mark.parametrize("mode", ["crisis", "rush"])
def test_greedy_games_finish_and_build_a_mine(mode):
    state, record, _ = play(GAME, CATALOG, ["greedy"] * 3, 5, {"mode": mode})
    assert GAME.is_over(state) and not record.limit
    assert record.extra["rooms_built"] >= 10 and sum(record.scores) >= 20
    if mode == "rush":
        assert max(record.scores) >= state.table.target or not state.stack


def test_greedy_beats_random_in_crisis():
    greedy = sum(sum(play(GAME, CATALOG, ["greedy"] * 2, s, {})[1].scores) for s in range(3))
    rand = sum(sum(play(GAME, CATALOG, ["random"] * 2, s, {})[1].scores) for s in range(3))
    assert greedy > rand


def test_same_seed_same_game():
    first = play(GAME, CATALOG, ["greedy", "random", "random"], 9, {"mode": "rush"})
    second = play(GAME, CATALOG, ["greedy", "random", "random"], 9, {"mode": "rush"})
    assert first[2] == second[2] and first[1].scores == second[1].scores
    assert first[1].extra == second[1].extra


def test_golden_crisis_playthrough_replays_to_the_same_scores():
    bots, seed, options = GOLDEN_CASE["bots"], GOLDEN_CASE["seed"], GOLDEN_CASE["options"]
    if os.environ.get("PROTOPRESS_REGENERATE_GOLDEN") == "1":
        write_golden(bots, seed, options)
    log = json.loads(GOLDEN.read_text())
    assert (log["game"], log["bots"], log["seed"], log["options"]) == (
        "gem-rush",
        bots,
        seed,
        GAME.spec.parse_options(options),  # logs carry every option, typed
    )
    state = replay(GAME, CATALOG, log)  # every action checked for legality
    assert GAME.is_over(state)
    assert GAME.scores(state) == log["scores"]
    assert GAME.record(state)["team_total"] == log["team_total"]
    _, record, actions = play(GAME, CATALOG, bots, seed, options)  # the bots still agree
    assert [ACTIONS.encode(action) for action in actions] == log["actions"]


def write_golden(bots, seed, options):
    """Record the golden game: one action per line, so that a diff reads well."""
    state, record, actions = play(GAME, CATALOG, bots, seed, options)
    log = log_of(GAME, "gem-rush", CATALOG.version, bots, seed, options, actions, record)
    log["team_total"] = GAME.record(state)["team_total"]
    head = {key: value for key, value in log.items() if key != "actions"}
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    body = ",\n".join("  " + json.dumps(list(action)) for action in log["actions"])
    GOLDEN.write_text("{\n" + "\n".join(lines) + '\n "actions": [\n' + body + "\n ]\n}\n")

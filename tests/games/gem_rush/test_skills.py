"""Gem Rush skills: each effect of the catalog's skill cards, its limit, and the
Chaos Magic and Magic Circle variants."""

import json
import random
from pathlib import Path

import pytest

from games.gem_rush.test_rules import CATALOG, CORRIDOR, GAME, act, cards, cart_line, scenario
from protopress.components.schemas import _schema_dir as schema_dir
from protopress.games.gem_rush import heuristic, skills
from protopress.games.gem_rush.actions import (
    Build,
    Burn,
    Discard,
    Draw,
    DrawFrom,
    DrawFromDiscard,
    EndMove,
    Keep,
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
from protopress.rules.core import IllegalAction

SCHEMAS = Path(str(schema_dir()))


def give(state, seat, *skill_ids):
    """Seat holds these skill cards."""
    ids = [s.id for s in state.table.skills]
    state.skills[seat] = tuple(ids.index(skill_id) for skill_id in skill_ids)
    state.touch()


def pass_turn(state):
    act(state, EndMove())
    act(state, Skip())


def test_every_effect_of_the_schema_is_interpreted():
    schema_path = SCHEMAS / "skill-card.schema.json"
    schema = json.loads(schema_path.read_text())
    assert set(schema["$defs"]["effect"]["properties"]["op"]["enum"]) == set(skills.OPS)
    crisis = skills.skill_cards(CATALOG.of_kind("skill-card"), "crisis")
    assert len(crisis) == 20 and {e.op for s in crisis for e in s.effects} == set(skills.OPS)


# --- payments -----------------------------------------------------------------


def test_an_adept_pays_one_gem_as_another():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["fire-ruby+obsidian"]], mode="rush")
    north = Build((0, 0), "N", (0,))  # the door costs an Electrum
    assert north not in GAME.legal_actions(state)
    give(state, 0, "fire-ruby-adept")
    assert north in GAME.legal_actions(state)
    act(state, north)
    assert state.points[0] == 1 and state.skill_used


def test_an_adept_is_not_used_when_the_payment_needs_no_substitution():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+obsidian"]], mode="rush")
    give(state, 0, "fire-ruby-adept")
    act(state, Build((0, 0), "N", (0,)))
    assert not state.skill_used


def test_resonator_echoglass_pays_alone():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["echoglass+orichalcum"]], mode="rush")
    north = Build((0, 0), "N", (0,))
    assert north not in GAME.legal_actions(state)  # nothing spent beside it to copy
    give(state, 0, "resonator")
    act(state, north)
    assert state.points[0] == 1 + 1  # the door and the Orichalcum beside a useful gem


def test_substitute_payments_are_minimal_and_cached():
    subs = (("fire-ruby", ("electrum", "star-tear")),)
    hand = tuple(cards("fire-ruby+obsidian", "electrum+soulstone", "raw-hope+permafrost"))
    found = skills.payments(("electrum", "electrum"), hand, subs)
    assert [p.cards for p in found] == [(0, 1)]
    assert skills.payments(("electrum", "electrum"), hand, subs) is found


@pytest.mark.parametrize(
    ("skill", "hand", "door", "points"),
    [
        ("jeweler", ["obsidian+star-tear"], "W", 2 + 1),  # Obsidian + Star Tear door
        ("goldsmith", ["electrum+orichalcum"], "N", 1 + 1 + 1),  # door, Orichalcum, skill
        ("jeweler", ["electrum+orichalcum"], "N", 1 + 1),  # no Star Tear paid: no bonus
    ],
)
def test_build_bonus(skill, hand, door, points):
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[hand], mode="rush")
    give(state, 0, skill)
    act(state, Build((0, 0), door, (0,)))
    assert state.points[0] == points


# --- movement -----------------------------------------------------------------


def test_tunneler_takes_one_extra_step():
    state = scenario(cart_line("gem-pockets-4"), mode="rush")
    give(state, 0, "tunneler")
    pass_turn(state)  # the next turn starts with the extra step
    assert state.steps == 4
    assert (
        max(x for x, _ in {a.cell for a in GAME.legal_actions(state) if isinstance(a, Move)}) == 4
    )
    act(state, Move((3, 0)))
    assert not state.skill_used
    act(state, Move((4, 0)))
    assert state.skill_used and state.steps == 0


def test_a_hand_promises_with_next_turns_steps_even_after_this_turns_tunneler():
    # the corridor's Soulstone door at (4, 0) is 3 steps and the build from (1, 0):
    # out of reach with 3 steps, in reach with Tunneler's 4
    state = scenario(CORRIDOR, players=2, mode="crisis")
    hand = cards("soulstone+star-tear")
    assert heuristic.promise(state, 0, (1, 0), hand) == 0
    give(state, 0, "tunneler")
    assert heuristic.promise(state, 0, (1, 0), hand) == 1
    skills.use_op(state, 0, "extra_step")  # the fourth step spent this turn
    assert skills.amount(state, 0, "extra_step") == 0  # no fifth step now...
    assert heuristic.promise(state, 0, (1, 0), hand) == 1  # ...and four again next turn


def test_spelunker_passes_one_way_passages_backwards():
    state = scenario({(0, 0): "gem-pockets-1", (1, 0): "crystal-garden"}, pos=(1, 0), mode="rush")
    assert Move((0, 0)) not in GAME.legal_actions(state)
    give(state, 0, "spelunker")
    act(state, Move((0, 0)))
    assert state.steps == 2 and state.skill_used


def test_tunnel_rat_leaves_a_tunnel_chain_early():
    rooms = {
        (0, 0): "gem-pockets-1",
        (1, 0): "crossing-tunnel",
        (2, 0): "gem-pockets-4",
        (1, 1): "crystal-garden",  # beside the tunnel, off the east-west path
    }
    state = scenario(rooms, mode="rush")
    assert {a.cell for a in GAME.legal_actions(state) if isinstance(a, Move)} == {(2, 0)}
    give(state, 0, "tunnel-rat")
    assert {a.cell for a in GAME.legal_actions(state) if isinstance(a, Move)} == {(2, 0), (1, 1)}
    act(state, Move((1, 1)))
    assert state.steps == 2 and state.skill_used


# --- drawing and keeping ----------------------------------------------------------


def test_prospector_draws_one_more_with_the_draw_action():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b", "c+d", "e+f"], mode="rush")
    give(state, 0, "prospector")
    pass_turn_draw(state)
    assert state.hands[0] == cards("a+b", "c+d")


def pass_turn_draw(state):
    act(state, EndMove())
    act(state, Draw())


def test_scavenger_takes_the_top_discard_instead_of_a_draw_once_a_turn():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b", "c+d"], pile=["x+y"], mode="rush")
    give(state, 0, "scavenger")
    act(state, EndMove())
    assert DrawFromDiscard() in GAME.legal_actions(state)
    act(state, DrawFromDiscard())
    assert state.hands[0] == cards("x+y") and state.pile == []


def test_scavenger_in_a_room_draw():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b", "c+d"], pile=["x+y"], mode="rush")
    give(state, 0, "scavenger")
    act(state, EndMove())
    act(state, UseAbility())  # Gem Pockets: draw 2
    assert GAME.legal_actions(state) == [DrawFrom("deck"), DrawFrom("discard")]
    act(state, DrawFrom("discard"))
    assert state.hands[0] == cards("x+y", "a+b")


def test_appraiser_keeps_one_more_once_a_turn():
    six = ["a+b", "c+d", "e+f", "g+h", "i+j", "k+l", "m+n", "o+p"]
    state = scenario({(0, 0): "sorting-hall"}, deck=six, mode="rush")  # reveal 4, keep 2
    give(state, 0, "appraiser")
    act(state, EndMove())
    act(state, UseAbility())
    for _ in range(3):
        act(state, Keep(0))
    assert state.hands[0] == cards("a+b", "c+d", "e+f") and state.pile == cards("g+h")
    assert state.used_game  # used this turn and recorded


def test_surveyor_draws_after_building_once_a_turn():
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[["electrum+raw-hope", "permafrost+soulstone"]],
                     deck=["a+b", "c+d"], stack=["gem-cache", "gem-cache"], mode="rush")  # fmt: skip
    give(state, 0, "surveyor")
    act(state, Build((0, 0), "N", (0,)))
    act(state, Rotate(GAME.legal_actions(state)[0].rotation))
    assert state.hands[0] == cards("permafrost+soulstone", "a+b")
    act(state, Move((0, 0)))
    act(state, Build((0, 0), "S", (0,)))
    act(state, Rotate(GAME.legal_actions(state)[0].rotation))
    assert state.hands[0] == cards("a+b")  # no second draw this turn


# --- Warpstone and burning ----------------------------------------------------------


def test_rift_walker_warps_once_a_game_without_discarding():
    rooms = {(0, 0): "gem-pockets-1", (1, 0): "gem-pockets-4"}
    state = scenario(rooms, hands=[["star-tear+warpstone"]], mode="rush")
    give(state, 0, "rift-walker")
    act(state, RiftWarp((1, 0)))
    assert state.hands[0] == cards("star-tear+warpstone") and state.pos[0] == (1, 0)
    pass_turn(state)
    assert RiftWarp((0, 0)) not in GAME.legal_actions(state)
    assert Warp((0, 0), 0) in GAME.legal_actions(state)


def test_rift_walker_builds_with_warpstone_kept():
    rooms = {(0, 0): "gem-pockets-1", (1, 0): "gem-pockets-4"}
    state = scenario(rooms, pos=(1, 0), hands=[["electrum+fire-ruby", "star-tear+warpstone"]],
                     stack=["gem-cache"], mode="rush")  # fmt: skip
    give(state, 0, "rift-walker")
    warp_builds = [
        a
        for a in GAME.legal_actions(state)
        if isinstance(a, WarpBuild) and (a.origin, a.edge) == ((0, 0), "N")
    ]
    assert warp_builds == [WarpBuild((0, 0), "N", (0, 1)), WarpBuild((0, 0), "N", (0,))]
    act(state, WarpBuild((0, 0), "N", (0,)))
    assert state.hands[0] == cards("star-tear+warpstone") and state.steps == 3


def test_stoker_burns_from_the_discard_pile_in_crisis():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b"] * 5, pile=["x+y", "z+w"])
    give(state, 0, "stoker")
    pass_turn(state)
    assert Burn("discard") in GAME.legal_actions(state)
    act(state, Burn("discard"))
    assert state.pile == [] and state.burn_left == 1 and state.burnt_from == [0, 2, 0]
    act(state, Burn("deck"))
    assert state.burnt == 3


def test_stoker_is_needed_to_burn_the_discard_pile():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b"] * 5, pile=["x+y"])
    pass_turn(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, Burn("discard"))


def test_hoarder_keeps_five_cards():
    hand = ["a+b", "c+d", "e+f", "g+h", "i+j", "k+l", "m+n"]
    state = scenario({(0, 0): "gem-pockets-1"}, hands=[hand], mode="rush")
    give(state, 0, "hoarder")
    pass_turn(state)
    while state.phase == "discard":
        act(state, Discard(0))
    assert len(state.hands[0]) == 5 and state.skill_used


# --- limits and variants ------------------------------------------------------------


def test_once_per_turn_comes_back_next_turn_once_per_game_does_not():
    state = scenario({(0, 0): "gem-pockets-1"}, mode="rush")
    give(state, 0, "surveyor", "rift-walker")  # as in a Magic Circle
    surveyor, rift = state.skills[0]
    skills.use(state, 0, surveyor)
    skills.use(state, 0, rift)
    assert not skills.available(state, 0, surveyor) and not skills.available(state, 0, rift)
    pass_turn(state)
    assert skills.available(state, 0, surveyor) and not skills.available(state, 0, rift)


def test_magic_circle_uses_both_neighbouring_skills():
    state = scenario({(0, 0): "gem-pockets-1"}, deck=["a+b", "c+d", "e+f"], mode="rush")
    give(state, 0, "prospector", "tunneler")
    pass_turn(state)
    assert state.steps == 4
    pass_turn_draw(state)
    assert len(state.hands[0]) == 2


def test_chaos_magic_a_used_skill_must_change():
    state = GAME.setup(CATALOG, 2, random.Random(4), {"skills": "chaos", "mode": "rush"})
    give(state, 0, "prospector")
    before = state.skills[0]
    act(state, EndMove())
    act(state, Draw())  # Prospector is used
    assert state.skills[0] != before and before[0] in state.skill_deck
    assert GAME.to_move(state) == 1


def test_chaos_magic_an_unused_skill_may_change():
    state = GAME.setup(CATALOG, 2, random.Random(4), {"skills": "chaos", "mode": "rush"})
    give(state, 0, "spelunker")
    act(state, EndMove())
    act(state, Skip())
    assert GAME.legal_actions(state) == [NewSkill(), KeepSkill()]
    act(state, KeepSkill())
    assert [state.table.skills[k].id for k in state.skills[0]] == ["spelunker"]
    assert GAME.to_move(state) == 1
    act(state, EndMove())
    act(state, Skip())
    held = state.skills[1]
    act(state, NewSkill())
    assert state.skills[1] != held and held[0] in state.skill_deck

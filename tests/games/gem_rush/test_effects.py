"""Gem Rush room effects, room by room, on stacked decks (the top card first)."""

import random

import pytest

from games.gem_rush.test_rules import CATALOG, GAME, TILES, act, cards, scenario
from protopress.games.gem_rush import effects
from protopress.games.gem_rush.actions import (
    ChooseX,
    Discard,
    Elevate,
    EndMove,
    Keep,
    Move,
    NameGem,
    ReturnRoom,
    SwapDwarf,
    UseAbility,
)
from protopress.games.gem_rush.payment import gem_set
from protopress.rules.core import IllegalAction

SIX = ["fire-ruby+obsidian", "permafrost+star-tear", "electrum+soulstone",
       "raw-hope+obsidian", "star-tear+electrum", "soulstone+raw-hope"]  # fmt: skip


def at(room, players=1, **kwargs):
    """Seat 0 in room, its movement over: the action phase (Rush mode, no burning)."""
    rooms = kwargs.pop("rooms", {(0, 0): room})
    state = scenario(rooms, players=players, mode="rush", **kwargs)
    act(state, EndMove())
    return state


def test_auric_fountain_keeps_fire_rubies_and_electrums():
    state = at("auric-fountain", deck=SIX)
    act(state, UseAbility())  # reveal 5, keep all with a Fire Ruby or an Electrum
    assert state.hands[0] == cards("fire-ruby+obsidian", "electrum+soulstone", "star-tear+electrum")
    assert state.pile == cards("permafrost+star-tear", "raw-hope+obsidian")  # the rest, in order
    assert state.deck == cards("soulstone+raw-hope")


def test_chaos_fountain_keeps_cards_sharing_no_gem_with_the_discard():
    deck = ["fire-ruby+electrum", "star-tear+raw-hope", "obsidian+permafrost",
            "electrum+soulstone", "permafrost+raw-hope"]  # fmt: skip
    state = at("chaos-fountain", hands=[["fire-ruby+obsidian", "star-tear+soulstone"]], deck=deck)
    act(state, UseAbility())
    assert GAME.legal_actions(state) == [Discard(0), Discard(1)]
    act(state, Discard(0))
    assert state.hands[0] == cards(
        "star-tear+soulstone", "star-tear+raw-hope", "electrum+soulstone", "permafrost+raw-hope"
    )
    assert state.pile == cards("fire-ruby+obsidian", "fire-ruby+electrum", "obsidian+permafrost")


def test_diamond_splitter_needs_diamond_dust():
    state = at("diamond-splitter", hands=[["fire-ruby+obsidian"]])
    assert UseAbility() not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, UseAbility())


def test_diamond_splitter_names_two_gems_and_digs_a_card_with_both():
    deck = [
        "obsidian+permafrost",
        "fire-ruby+soulstone",
        "fire-ruby+electrum",
        "star-tear+raw-hope",
    ]
    state = at(
        "diamond-splitter", hands=[["diamond-dust+star-tear", "fire-ruby+obsidian"]], deck=deck
    )
    act(state, UseAbility())
    assert GAME.legal_actions(state) == [Discard(0)]  # only the Diamond Dust card
    act(state, Discard(0))
    assert [a.gem for a in GAME.legal_actions(state)] == list(gem_set(CATALOG).all)
    act(state, NameGem("fire-ruby"))
    assert NameGem("fire-ruby") not in GAME.legal_actions(state)  # two different gems
    act(state, NameGem("electrum"))
    assert state.hands[0] == cards("fire-ruby+obsidian", "fire-ruby+electrum")
    assert state.points[0] == 1
    assert state.pile == cards(
        "diamond-dust+star-tear", "obsidian+permafrost", "fire-ruby+soulstone"
    )
    assert state.deck == cards("star-tear+raw-hope")


def test_dissonance_fountain_keeps_cards_without_the_named_gems():
    deck = ["fire-ruby+obsidian", "star-tear+soulstone", "electrum+raw-hope", "permafrost+obsidian"]
    state = at("dissonance-fountain", deck=deck)
    act(state, UseAbility())
    act(state, NameGem("fire-ruby"))
    act(state, NameGem("electrum"))
    assert state.hands[0] == cards("star-tear+soulstone")
    assert state.pile == cards("fire-ruby+obsidian", "electrum+raw-hope")


def test_crystal_garden_draws_as_many_as_the_hand_holds():
    state = at("crystal-garden", hands=[SIX[:3]], deck=SIX[3:])
    act(state, UseAbility())
    assert state.hands[0] == cards(*SIX)


@pytest.mark.parametrize(("before", "after"), [(2, 1), (0, 0)])
def test_dark_pit_loses_a_point_never_below_zero_and_draws_four(before, after):
    state = at("dark-pit", deck=SIX)
    state.points[0] = before
    act(state, UseAbility())
    assert state.points[0] == after and state.hands[0] == cards(*SIX[:4])


def test_echo_chamber_takes_the_four_discards_beneath_its_own():
    pile = ["a+b", "c+d", "e+f", "g+h", "i+j"]  # the last is the top
    state = at("echo-chamber", hands=[["electrum+orichalcum", "fire-ruby+obsidian"]], pile=pile)
    act(state, UseAbility())
    assert GAME.legal_actions(state) == [Discard(0)]  # the only Orichalcum card
    act(state, Discard(0))
    assert state.hands[0] == cards("fire-ruby+obsidian", "i+j", "g+h", "e+f", "c+d")
    assert state.pile == cards("a+b", "electrum+orichalcum")


def test_echo_chamber_needs_an_orichalcum_card():
    state = at("echo-chamber", hands=[["fire-ruby+obsidian"]], pile=["a+b"])
    assert UseAbility() not in GAME.legal_actions(state)


def test_dimensional_rift_returns_an_empty_room_under_the_room_stack():
    rooms = {(0, 0): "dimensional-rift", (1, 0): "gem-pockets-4", (0, 1): ("dark-pit", 2)}
    state = at(None, players=2, rooms=rooms, pos=[(0, 0), (1, 0)], deck=SIX)
    size = len(state.stack)
    act(state, UseAbility())
    assert state.hands[0] == cards(SIX[0])  # draw 1 first
    assert GAME.legal_actions(state) == [ReturnRoom((0, 1))]  # the only room without a dwarf
    act(state, ReturnRoom((0, 1)))
    assert (0, 1) not in state.mine.cells and state.stack[0].id == "dark-pit"
    assert len(state.stack) == size + 1
    assert (0, 1) in {site.cell for site in state.view.sites()}  # open again


def test_eddy_and_mushroom_grove_take_from_the_discard_pile():
    state = at("eddy", pile=["a+b", "c+d", "e+f"])
    act(state, UseAbility())
    assert state.hands[0] == cards("e+f", "c+d") and state.pile == cards("a+b")
    state = at("mushroom-grove", deck=["x+y"], pile=["a+b", "c+d"])
    act(state, UseAbility())
    assert state.hands[0] == cards("x+y", "c+d")


def test_eddy_needs_a_discard_pile():
    state = at("eddy")
    assert UseAbility() not in GAME.legal_actions(state)


def test_a_keep_with_a_number_is_the_players_choice():
    state = at("sorting-hall", deck=SIX)  # reveal 4, keep 2
    act(state, UseAbility())
    assert GAME.legal_actions(state) == [Keep(i) for i in range(4)]
    act(state, Keep(2))
    assert GAME.legal_actions(state) == [Keep(i) for i in range(3)]
    act(state, Keep(0))
    assert state.hands[0] == cards(SIX[2], SIX[0])
    assert state.pile == cards(SIX[1], SIX[3])


def test_a_dig_sets_misses_aside_and_stops_when_the_cards_run_out():
    # Diamond Vein digs for cards with only Diamond Dust: there are none here
    state = at("diamond-vein", deck=SIX[:3], pile=SIX[3:])
    act(state, UseAbility())
    assert state.hands[0] == [] and state.deck == [] and sorted(state.pile) == sorted(cards(*SIX))
    assert state.reshuffles == 1


def test_chaos_vein_digs_cards_sharing_no_gem_with_the_discard():
    deck = ["fire-ruby+star-tear", "obsidian+permafrost", "electrum+soulstone",
            "obsidian+raw-hope", "permafrost+star-tear", "soulstone+raw-hope", "a+b"]  # fmt: skip
    state = at("chaos-vein", hands=[["fire-ruby+obsidian"]], deck=deck)
    act(state, UseAbility())
    act(state, Discard(0))
    assert state.hands[0] == cards(
        "electrum+soulstone", "permafrost+star-tear", "soulstone+raw-hope"
    )
    assert state.pile == cards(
        "fire-ruby+obsidian", "fire-ruby+star-tear", "obsidian+permafrost", "obsidian+raw-hope"
    )
    assert state.deck == cards("a+b")


def test_a_dig_reshuffles_the_discard_pile_like_any_draw():
    # the card Chaos Vein discarded is shuffled back in and met again (set aside)
    deck = ["fire-ruby+star-tear", "electrum+soulstone"]
    state = at("chaos-vein", hands=[["fire-ruby+obsidian"]], deck=deck)
    act(state, UseAbility())
    act(state, Discard(0))
    assert state.hands[0] == cards("electrum+soulstone") and state.reshuffles == 1
    assert state.pile == cards("fire-ruby+star-tear", "fire-ruby+obsidian") and state.deck == []


def test_warped_mirror_swaps_places_for_one_step():
    rooms = {(0, 0): "warped-mirror", (-1, 0): "gem-pockets-1"}  # its free W door leads there
    state = scenario(rooms, players=3, pos=[(0, 0), (-1, 0), (0, 0)], mode="rush")
    act(state, UseAbility())
    assert state.steps == 2
    assert GAME.legal_actions(state) == [SwapDwarf(1)]  # seat 2 stands in the same room
    act(state, SwapDwarf(1))
    assert state.pos == [(-1, 0), (0, 0), (0, 0)] and state.phase == "move"


def test_mystic_elevator_moves_the_room_and_everyone_in_it_for_free():
    rooms = {(0, 0): "gem-pockets-1", (1, 0): "mystic-elevator"}
    state = scenario(rooms, players=2, pos=[(1, 0), (1, 0)], mode="rush")
    act(state, UseAbility())
    targets = {a.cell for a in GAME.legal_actions(state)}
    assert targets == {(0, -1), (0, 1), (-1, 0)}  # the other open doors of Gem Pockets
    act(state, Elevate((0, 1)))
    assert state.pos == [(0, 1), (0, 1)] and state.steps == 3
    assert (1, 0) not in state.mine.cells and state.mine.cells[(0, 1)].tile.id == "mystic-elevator"
    assert (0, 0) in {a.cell for a in GAME.legal_actions(state) if isinstance(a, Move)}


def test_x_is_chosen_so_that_the_ability_can_be_done_and_shared_by_every_x():
    state = at("gem-pockets-1", hands=[SIX[:3]], deck=SIX[3:])
    state.table.abilities["test-x"] = effects.compile_ability(
        [{"op": "discard", "count": "X"}, {"op": "draw", "count": "X"}]
    )
    assert effects.usable(state, 0, "test-x")
    assert effects.begin(state, 0, "test-x", "action") is False
    assert GAME.legal_actions(state) == [ChooseX(1), ChooseX(2), ChooseX(3)]  # three cards in hand
    act(state, ChooseX(2))
    act(state, Discard(0))
    act(state, Discard(0))
    assert state.hands[0] == cards(SIX[2], SIX[3], SIX[4]) and state.pile == cards(*SIX[:2])
    del state.table.abilities["test-x"]


def test_geode_names_digs_keeps_then_draws():
    deck = ["fire-ruby+obsidian", "soulstone+raw-hope", "star-tear+electrum"]
    state = at("geode", deck=deck)
    act(state, UseAbility())
    act(state, NameGem("raw-hope"))
    assert state.hands[0] == cards("soulstone+raw-hope", "star-tear+electrum")
    assert state.pile == cards("fire-ruby+obsidian")


def test_the_first_step_decides_whether_a_room_can_be_used():
    state = at("fire-ruby-shaft", hands=[["star-tear+electrum"]])
    assert not effects.usable(state, 0, "fire-ruby-shaft")
    state.hands[0] = cards("star-tear+fire-ruby")
    assert effects.usable(state, 0, "fire-ruby-shaft")
    assert not effects.usable(state, 0, "crossing-tunnel")  # no ability at all
    assert effects.usable(state, 0, "gem-pockets-1")


@pytest.mark.parametrize(
    ("where", "card", "result"),
    [
        (("any", frozenset({"fire-ruby", "electrum"})), ("electrum", "obsidian"), True),
        (("all", "named"), ("fire-ruby", "electrum"), True),
        (("all", "named"), ("fire-ruby", "obsidian"), False),
        (("none", "discarded"), ("soulstone", "raw-hope"), True),
        (("none", "discarded"), ("obsidian", "raw-hope"), False),
        (("only", frozenset({"diamond-dust"})), ("diamond-dust", "diamond-dust"), True),
        (("only", frozenset({"diamond-dust"})), ("diamond-dust", "echoglass"), False),
    ],
)
def test_conditions(where, card, result):
    named = ["fire-ruby", "electrum"]
    discarded = [("fire-ruby", "obsidian")]
    assert effects.matches(card, where, named, discarded) is result


def test_every_catalog_ability_runs_to_the_end():
    """Each room's ability on a fresh table, always taking the first choice."""
    abilities = GAME.setup(CATALOG, 1, random.Random(0), {}).table.abilities
    for tile_id, steps in sorted(abilities.items()):
        if not steps:
            continue
        rooms = {(0, 0): tile_id, (1, 0): "gem-pockets-4", (0, 1): ("dark-pit", 2)}
        state = scenario(rooms, players=2, pos=[(0, 0), (1, 0)], mode="rush",
                         hands=[SIX[:4], []], deck=SIX * 3, pile=SIX)  # fmt: skip
        hand = SIX[:4] + ["diamond-dust+orichalcum", "echoglass+warpstone"]
        state.hands[0] = cards(*hand)
        assert effects.usable(state, 0, tile_id), tile_id
        finished = effects.begin(state, 0, tile_id, "move")
        while not finished:
            finished = effects.resolve(state, effects.legal(state)[0])
        assert state.effect is None


def test_tiles_have_compiled_abilities():
    assert set(GAME.setup(CATALOG, 1, random.Random(0), {}).table.abilities) == set(TILES)

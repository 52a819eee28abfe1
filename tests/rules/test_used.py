"""The kit's record of components used (rules/used.py), on short fixed action sequences
of every built-in game and a data game, each expectation worked from the rule: a seat
used a component when its own action names it, or brings it into a zone the seat owns
(a per-seat field of the state, or its private zone in the seat view)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.actions import Draw, EndMove
from protopress.rules.plugins import resolve_spec
from protopress.rules.registry import game_for
from protopress.rules.simulate import play
from protopress.rules.used import UseRecorder, action_ids, component_ids, seat_zones

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cottage-market"


def watch(game, catalog, state, players):
    """A recorder on state whether or not the game records `used` itself."""
    view = getattr(game, "seat_view", None)
    return UseRecorder(component_ids(catalog), seat_zones(state, players, view), players)


def set_up(game_id, seed, options=None):
    game = game_for(game_id)
    catalog = load_catalog(builtin_catalog_path(game_id))
    state = game.setup(catalog, 2, random.Random(seed), options or {})
    return game, catalog, state, watch(game, catalog, state, 2)


def test_an_action_names_the_ids_among_its_fields_but_its_verb():
    ids = frozenset({"mine", "ruby", "cart"})
    assert action_ids(("mine", "ruby", ("cart", 3)), ids) == {"ruby", "cart"}
    assert action_ids(("take", "nothing"), ids) == set()
    game = game_for("stonespine-architects")
    kinds = {kind.__name__: kind for kind in game.actions.kinds.values()}
    place = kinds["Place"](card_id="altar", column=0)
    assert action_ids(place, frozenset({"altar", "place"})) == {"altar"}


def test_dragonstone_a_gem_stacked_on_the_seats_own_spire_is_used():
    # Setup: each seat stacks two gems from the bag on its own spires (the rules'
    # start); then seat 0 mines a gem and stacks it. A stacked gem enters the
    # seat's tower (its spires, a per-seat field), so its colour is used; mining
    # alone names nothing and moves nothing into a zone of the seat.
    game, catalog, state, recorder = set_up("dragonstone-mine", 5, {"level": "2"})
    stacked: list[set[str]] = [set(), set()]
    kinds = {kind.__name__: kind for kind in game.actions.kinds.values()}
    stack, mine = kinds["Stack"], kinds["Mine"]
    for seat in (0, 0, 1, 1):
        assert game.to_move(state) == seat
        stacked[seat].add(state.held)  # the gem in hand goes on spire 0
        recorder.apply(game, state, seat, stack(spire=0))
    assert stacked == [{"yellow", "purple"}, {"red"}]  # the bag of seed 5, as dealt
    assert [sorted(ids) for ids in recorder.used] == [["purple", "yellow"], ["red"]]
    recorder.apply(game, state, 0, mine())
    assert state.held == "purple"
    recorder.apply(game, state, 0, stack(spire=1))  # purple again: already in the tower
    assert [sorted(ids) for ids in recorder.used] == [["purple", "yellow"], ["red"]]


def test_caverns_the_arranged_symbols_are_used_by_the_arranger():
    # The active player arranges four symbols (the action names them): used by seat 0.
    game, catalog, state, recorder = set_up("gemstone-caverns", 5)
    kinds = {kind.__name__: kind for kind in game.actions.kinds.values()}
    arrange = kinds["Arrange"](
        cells=((0, 0), (0, 1), (0, 2), (0, 3)), symbols=("emerald", "sapphire", "sapphire", "topaz")
    )
    assert arrange in game.legal_actions(state)
    recorder.apply(game, state, 0, arrange)
    assert [sorted(ids) for ids in recorder.used] == [["emerald", "sapphire", "topaz"], []]


def test_stonespine_a_placed_chamber_is_used_by_the_seat_that_placed_it():
    # Each seat places a chamber card from its hand (the action names it); hands hold
    # card numbers, which name nothing, so the placed chambers alone are used.
    game, catalog, state, recorder = set_up("stonespine-architects", 5)
    kinds = {kind.__name__: kind for kind in game.actions.kinds.values()}
    place = kinds["Place"]
    recorder.apply(game, state, 0, place(card_id="treasury-hall", column=0))
    recorder.apply(game, state, 1, place(card_id="gallery-of-statues", column=0))
    assert [sorted(ids) for ids in recorder.used] == [["treasury-hall"], ["gallery-of-statues"]]


def test_gem_rush_a_drawn_card_brings_its_gems_into_the_hand():
    # Seat 0 ends its move and draws the top gem card into its hand (a per-seat field
    # and the seat view's private zone): the gems on it that the hand did not show
    # before are used. The hand and the deck's top are laid out by hand.
    game, catalog, state, recorder = set_up("gem-rush", 3, {"mode": "rush"})
    state.hands[0][:] = [("fire-ruby", "soulstone")]
    state.stack_deck([("soulstone", "warpstone")])
    state.touch()
    recorder.apply(game, state, 0, EndMove())
    recorder.apply(game, state, 0, Draw())
    assert state.hands[0] == [("fire-ruby", "soulstone"), ("soulstone", "warpstone")]
    assert [sorted(ids) for ids in recorder.used] == [["warpstone"], []]


def test_a_data_game_names_what_its_actions_name_and_its_own_used_wins():
    # Cottage Market as data, seed 2: the market shows woodcutter, woodcutter, hall.
    # Seat 0 builds the woodcutter in slot 0 (a slot number: the data engine keeps
    # cards as numbers, so the kit cannot tell the card; the engine can), seat 1
    # takes gold (the action names the resource).
    spec = resolve_spec("cottage-market", str(EXAMPLE / "rules.yaml"))
    game = spec.new_game()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    state = game.setup(catalog, 2, random.Random(2), {})
    assert game.observation(state, 0)["fields"]["zones"]["market"][0] == "woodcutter"
    recorder = watch(game, catalog, state, 2)
    kinds = {kind.__name__: kind for kind in game.actions.kinds.values()}
    recorder.apply(game, state, 0, kinds["Build"](slot=0))
    recorder.apply(game, state, 1, kinds["Take"](resource="gold"))
    assert [sorted(ids) for ids in recorder.used] == [[], ["gold"]]
    own = game.record(state)["used"]
    assert own == [["woodcutter"], []]  # the engine saw the card move into seat 0's built
    assert recorder.record(game.record(state))["used"] == own  # and its record wins
    assert UseRecorder.watching(game, catalog, state, 2) is None  # so play never watches


def python_rules_without_used():
    """Cottage Market's Python rules, their record without `used`."""
    spec = resolve_spec("cottage-market", str(EXAMPLE / "rules.py"))
    engine = spec.engine_class()

    def record(self, state):
        return {k: v for k, v in engine.record(self, state).items() if k != "used"}

    return replace(spec, engine=type("Forgetful", (engine,), {"record": record})).new_game()


def test_play_records_use_for_rules_that_do_not_and_keeps_the_rules_own():
    catalog = load_catalog(EXAMPLE / "catalog.json")
    forgetful = python_rules_without_used()
    own = resolve_spec("cottage-market", str(EXAMPLE / "rules.py")).new_game()
    _, by_kit, _ = play(forgetful, catalog, ["greedy", "greedy"], 4)
    _, by_rules, _ = play(own, catalog, ["greedy", "greedy"], 4)
    assert by_kit.scores == by_rules.scores  # the recorder changes nothing of the game
    # the rules' own used: the cards each seat built, as their record says
    assert by_rules.extra["used"] == [sorted(set(ids)) for ids in by_rules.extra["built"]]
    # the kit's: those cards too (moved into the seat's built), and the resources it took
    for kit, built in zip(by_kit.extra["used"], by_kit.extra["built"], strict=True):
        assert set(built) <= set(kit)
        assert set(kit) - set(built) <= {"gold", "wood", "stone"}
    _, unrecorded, _ = play(forgetful, catalog, ["greedy", "greedy"], 4, record_use=False)
    assert "used" not in unrecorded.extra


def test_a_player_object_is_followed_into_its_zones():
    # Python Cottage Market keeps each seat's cards on a Player object in `players`.
    game = python_rules_without_used()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    state = game.setup(catalog, 2, random.Random(2), {})
    zones = seat_zones(state, 2, game.seat_view)
    assert [z.parts for z in zones] == [("resources", "built")]
    # with three players the market's three cards are as many as the seats: a row of
    # cards, no seat's zone
    three = game.setup(catalog, 3, random.Random(2), {})
    assert len(three.market) == 3
    assert [z.parts for z in seat_zones(three, 3, game.seat_view)] == [("resources", "built")]
    recorder = UseRecorder.watching(game, catalog, state, 2)
    assert recorder is not None
    build = game.legal_actions(state)[-1]  # seed 2: the woodcutter in slot 0, for 2 gold
    assert type(build).__name__ == "Build" and state.market[build.slot].id == "woodcutter"
    recorder.apply(game, state, 0, build)  # into seat 0's built cards; 2 gold paid
    assert recorder.used == [{"woodcutter"}, set()]


def test_a_per_seat_field_gone_or_reshaped_later_is_passed_over():
    state = SimpleNamespace(hands=[["altar"], []], board=[["altar"], ["crypt"]])
    zones = seat_zones(state, 2, None)
    assert len(zones) == 2
    recorder = UseRecorder(frozenset({"altar", "crypt"}), zones, 2)
    del state.hands  # gone
    state.board = [["crypt"]]  # no longer one entry per seat
    assert recorder.held(state, 0) == {"crypt"}
    assert recorder.held(state, 1) == set()


@pytest.mark.parametrize(
    "game_id", ["dragonstone-mine", "gemstone-caverns", "stonespine-architects", "gem-rush"]
)
def test_every_built_in_game_records_used_itself_so_the_kit_does_not_watch(game_id):
    game, catalog, state, _ = set_up(game_id, 1)
    assert UseRecorder.watching(game, catalog, state, 2) is None

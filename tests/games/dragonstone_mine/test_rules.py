"""DragonStone Mine: scoring, colour rules, card costs, the end, whole games.

Towers are written as strings of colour letters, bottom first (r y g b p);
every expected score below was worked out by hand.
"""

import random

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.dragonstone_mine import lookahead
from protopress.games.dragonstone_mine.actions import (
    DO,
    DRAW,
    LOOSE,
    MINE,
    SKIP,
    Choose,
    DiscardCard,
    MoveGem,
    PayFrom,
    PlayCard,
    Stack,
    SwapTops,
    TakeFaceUp,
)
from protopress.games.dragonstone_mine.effects import SeatDecision, StackHeld, Step
from protopress.games.dragonstone_mine.rules import (
    format_score,
    payable,
    score_state,
    score_tower,
    scoring_points,
)
from protopress.games.dragonstone_mine.spec import SPEC
from protopress.rules.core import IllegalAction, checked_apply
from protopress.rules.simulate import play

CATALOG = load_catalog(builtin_catalog_path("dragonstone-mine"))
GAME = SPEC.new_game()  # with its bot support, as the kit plays it
COLOUR = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple"}


def gems(letters: str) -> list[str]:
    return [COLOUR[letter] for letter in letters]


def tower(*spires: str) -> list[list[str]]:
    """Six spires; the ones not written are empty."""
    return [gems(spire) for spire in spires] + [[] for _ in range(6 - len(spires))]


def table(level: str) -> dict:
    return scoring_points(CATALOG, level)


def position(level="smiley", players=3, towers=(), bag=None, hands=()):
    """Seat 0 about to start a turn, with the towers, bag and hands given."""
    state = GAME.setup(CATALOG, players, random.Random(1), {"level": level})
    while state.decision.kind != "turn":  # level 1 and 2 setup: stack the first gems anywhere
        GAME.apply(state, GAME.legal_actions(state)[0])
    state.spires = [tower(*spires) for spires in towers] + [
        tower() for _ in range(players - len(towers))
    ]
    if bag is not None:
        state.bag = {colour: bag.get(colour, 0) for colour in COLOUR.values()}
        state.bag_total = sum(state.bag.values())
    for seat, hand in enumerate(hands):
        state.hands[seat] = list(hand)
    return state


def at_action(state):
    """Jump seat 0's turn to its action (level 1 and 2: after mining and drawing)."""
    state.decision = SeatDecision("action", 0)
    return state


def take_turn(state):
    """The seat to move mines, stacks on the first open spire and skips what may be skipped."""
    seat = GAME.to_move(state)
    GAME.apply(state, MINE)
    while state.decision and state.decision.kind != "turn":
        legal = GAME.legal_actions(state)
        GAME.apply(state, SKIP if SKIP in legal else legal[0])
    return seat


def held_by(state):
    """The seat that must stack the gem held, or None when no gem waits to be stacked."""
    opened = state.decision
    return opened.seat if isinstance(opened, StackHeld) else None


def gem_count(state):
    spires = sum(len(spire) for t in state.spires for spire in t)
    return state.bag_total + spires + sum(state.loose) + state.paid + (state.held is not None)


# --- scoring ------------------------------------------------------------------


@pytest.mark.parametrize(("level", "total"), [("smiley", 10), ("1", 10), ("2", 12)])
def test_a_capped_single_colour_spire_scores_its_level_bonus(level, total):
    result = score_tower(tower("rrrrr"), [], [5] * 6, table(level))
    assert result["gems"] == 5
    assert result["single_colour_stacks"] == total - 5  # +5, or +7 at level 2
    assert result["total"] == total


def test_a_rainbow_spire_scores_five_at_every_level():
    for level in ("smiley", "1", "2"):
        result = score_tower(tower("rygbp", "yy"), [], [5] * 6, table(level))
        assert (result["gems"], result["rainbow_stacks"], result["total"]) == (7, 5, 12)


def test_an_uncapped_single_colour_spire_of_four_and_loose_gems_count_one_each():
    result = score_tower(tower("gggg"), gems("rb"), [5] * 6, table("2"))
    assert result["counts"] == {
        "gems": 6,
        "single_colour_stacks": 0,
        "rainbow_stacks": 0,
        "rainbow_from_above": 0,
    }
    assert result["total"] == 6


def test_rainbow_from_above_counts_once_when_capped_tops_show_all_five_colours():
    # tops r y g p b y; three single-colour stacks, one rainbow stack; 30 + 2 loose gems
    full = tower("rrrrr", "bbbby", "ggggg", "rygbp", "pppbb", "yyyyy")
    result = score_tower(full, gems("rg"), [5] * 6, table("2"))
    assert result["counts"]["rainbow_from_above"] == 1
    assert result["total"] == 32 + 3 * 7 + 5 + 5 == 63
    assert score_tower(full, gems("rg"), [5] * 6, table("smiley"))["total"] == 32 + 15 + 5 + 5


def test_rainbow_from_above_looks_at_capped_spires_only():
    # capped tops r y g p; the missing blue shows only on an uncapped spire
    result = score_tower(tower("rrrrr", "ggggy", "ggggg", "rygbp", "bbb"), [], [5] * 6, table("1"))
    assert result["rainbow_from_above"] == 0
    assert result["total"] == 23 + 2 * 5 + 5


def test_score_state_reads_the_level_and_the_catalog_tower():
    state = {"level": "2", "spires": ["rrrrr", "", "", "", "", ""], "loose": ["blue"]}
    state["spires"] = [gems(spire) for spire in state["spires"]]
    result = score_state(CATALOG, state)
    assert (result["level"], result["total"], result["gems"]) == ("2", 13, 6)
    assert format_score(result).splitlines() == [
        "DragonStone Mine, Level 2",
        "                       count  points",
        "Gems                       6       6",
        "Single-colour stacks       1       7",
        "Rainbow stacks             0       0",
        "Rainbow From Above         0       0",
        "Total                             13",
    ]


def test_score_state_takes_capacities_from_the_state():
    result = score_state(
        CATALOG, {"level": "smiley", "spires": [gems("rrrrr"), gems("rr")], "capacities": [5, 2]}
    )
    assert result["total"] == 7 + 5  # the 2-spire is capped but is no stack of 5


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"level": "1", "spires": [["pink"]] + [[]] * 5}, "spire 1: unknown colour 'pink'"),
        ({"level": "1", "spires": [[]] * 6, "loose": ["purpel"]}, "did you mean 'purple'"),
        ({"level": "1", "spires": [gems("rrrrrr")] + [[]] * 5}, "spire 1 holds 5 gems but 6"),
        ({"level": "1", "spires": [[]] * 5}, "5 spires given but the tower has 6"),
        ({"level": "3", "spires": [[]] * 6}, "unknown level '3'"),
    ],
)
def test_score_state_refuses_bad_towers_with_a_clear_message(state, message):
    with pytest.raises(ValueError, match=message):
        score_state(CATALOG, state)


def test_the_engine_scores_with_the_same_rules():
    state = position("2", towers=[("rrrrr", "bbbby", "ggggg", "rygbp", "pppbb", "yyyyy")])
    state.loose[0] = 2
    assert GAME.scores(state) == [63, 0, 0]


# --- colour rules ---------------------------------------------------------------


def test_red_mines_one_more_gem_which_follows_no_rule():
    state = position(bag={"red": 3})
    GAME.apply(state, MINE)
    assert GAME.legal_actions(state) == [Stack(i) for i in range(6)]
    GAME.apply(state, Stack(0))
    GAME.apply(state, Stack(1))  # the second red: stacked, its rule not followed
    assert state.spires[0] == tower("r", "r")
    assert (GAME.to_move(state), state.bag_total) == (1, 1)


def test_yellow_may_move_a_top_gem_between_own_spires():
    state = position(towers=[("r", "b")], bag={"yellow": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(2))
    legal = GAME.legal_actions(state)
    assert SKIP in legal and MoveGem(2, 0) in legal and MoveGem(0, 0) not in legal
    GAME.apply(state, MoveGem(2, 0))
    assert state.spires[0] == tower("ry", "b")
    assert GAME.to_move(state) == 1


def test_green_steals_from_an_uncapped_spire_never_a_capped_one():
    state = position(towers=[(), ("bbbbb", "y"), ("ppppp",)], bag={"green": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(0))
    assert GAME.legal_actions(state) == [Choose(1)]  # seat 2 has only a capped spire
    GAME.apply(state, Choose(1))
    assert GAME.legal_actions(state) == [Choose(1)]  # spire 0 of seat 1 is capped
    GAME.apply(state, Choose(1))
    GAME.apply(state, Stack(0))
    assert state.spires[0][0] == gems("gy")
    assert state.spires[1] == tower("bbbbb")
    assert state.spires[2] == tower("ppppp")


def test_green_does_nothing_when_no_other_spire_is_uncapped():
    state = position(towers=[(), ("bbbbb",), ()], bag={"green": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(0))
    assert GAME.to_move(state) == 1
    assert state.spires[1] == tower("bbbbb")


def test_blue_may_swap_two_different_top_gems_and_finish_a_stack():
    state = position(towers=[("rrrrg", "yr")], bag={"blue": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(2))
    assert GAME.legal_actions(state) == [SwapTops(0, 1), SwapTops(0, 2), SwapTops(1, 2), SKIP]
    GAME.apply(state, SwapTops(0, 1))
    assert state.spires[0] == tower("rrrrr", "yg", "b")
    assert GAME.scores(state)[0] == 8 + 5


# Capped spires and giving gems back. The General Rules: "Players may not steal
# gems from another player's capped spires. However, players may choose or be
# forced to unstack gems from their own capped spires to pay costs of cards or as
# a result of a card played by another player." A colour rule is no card.

FULL = ("rrrrr", "yyyyy", "ggggg", "bbbbb", "ppppp", "rygbp")  # six capped spires


def test_purple_never_reaches_a_capped_spire():
    # seat 1's spires are all capped, seat 2 has no gem: nobody can be chosen
    state = position(towers=[(), FULL, ()], bag={"purple": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(0))
    assert GAME.to_move(state) == 1 and state.decision == SeatDecision(
        "turn", 1
    )  # purple did nothing
    assert state.spires[1] == tower(*FULL)
    assert state.bag["purple"] == 4  # 5 less the one mined, none returned


def test_purple_takes_from_an_uncapped_spire_only():
    # seat 1: a capped red spire and "gg"; seat 2: only a capped purple spire
    state = position(towers=[(), ("rrrrr", "gg"), ("ppppp",)], bag={"purple": 5})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(0))
    assert GAME.legal_actions(state) == [Choose(1)]  # seat 2 cannot be chosen
    GAME.apply(state, Choose(1))
    assert GAME.to_move(state) == 1  # the owner picks the spire
    assert GAME.legal_actions(state) == [Choose(1)]  # never the capped one
    GAME.apply(state, Choose(1))
    assert state.spires[1] == tower("rrrrr", "g")
    assert state.spires[2] == tower("ppppp")
    assert state.bag["purple"] == 4 and state.bag["green"] == 1


def test_purple_followed_through_a_card_still_spares_capped_spires():
    # Colour Magic (level 1) mines 2 gems that follow their rules; the purple rule
    # is still a colour rule, so seat 1's capped tower keeps its gems.
    state = at_action(position("1", towers=[(), FULL], hands=[["colour-magic"]], bag={"purple": 2}))
    GAME.apply(state, PlayCard("colour-magic"))
    GAME.apply(state, Stack(0))  # first purple: nobody to choose
    GAME.apply(state, Stack(0))  # second purple: nobody either
    assert state.spires[0] == tower("pp") and state.spires[1] == tower(*FULL)
    assert state.bag_total == 0 and GAME.to_move(state) == 1


def test_dragon_sneeze_forces_a_capped_spire_when_the_owner_has_no_other():
    # a card played by another player: seat 1 gives a gem from a capped spire of
    # their choice; the bag was empty, so seat 0 then mines that very gem
    state = at_action(position("1", towers=[(), FULL], hands=[["dragon-sneeze"]], bag={}))
    GAME.apply(state, PlayCard("dragon-sneeze"))
    assert GAME.legal_actions(state) == [Choose(1)]
    GAME.apply(state, Choose(1))
    assert GAME.to_move(state) == 1
    assert GAME.legal_actions(state) == [Choose(i) for i in range(6)]
    GAME.apply(state, Choose(5))  # the rainbow spire gives its purple
    assert state.spires[1] == tower(*FULL[:5], "rygb")
    assert held_by(state) == 0 and state.held == "purple"
    assert state.bag_total == 0


def test_dragon_roar_reaches_capped_spires_only_when_forced():
    # seat 1: all capped; seat 2: a capped red spire and a lone yellow
    state = at_action(
        position("2", towers=[("pp",), FULL, ("rrrrr", "y")], hands=[["dragon-roar"]])
    )
    GAME.apply(state, PlayCard("dragon-roar"))
    GAME.apply(state, PayFrom(0))
    GAME.apply(state, PayFrom(0))
    assert (GAME.to_move(state), GAME.legal_actions(state)) == (
        1,
        [Choose(i) for i in range(6)],
    )
    GAME.apply(state, Choose(0))
    assert (GAME.to_move(state), GAME.legal_actions(state)) == (2, [Choose(1)])
    GAME.apply(state, Choose(1))
    assert state.spires[1] == tower("rrrr", *FULL[1:])
    assert state.spires[2] == tower("rrrrr")
    assert held_by(state) == 0  # then mine 2


def test_the_printed_texts_say_what_the_steps_do():
    """A card whose return step may force a capped spire says so; the purple rule
    says it takes from uncapped spires; the reference card says the same."""
    assert "uncapped spires" in CATALOG.get("gem-colour", "purple")["rule"]["text"]
    for card in CATALOG.of_kind("action-card"):
        forced = any(Step.of(step, card=True).from_capped for step in card["effect"])
        says = (
            "even from capped spires" in card["text"] or "even from a capped spire" in card["text"]
        )
        assert forced == says, card.id
    lines = CATALOG.get("reference-card", "colour-rules")["lines"]
    assert "Nobody may take gems from another player's capped spire." in lines
    assert "Nobody may take gems from a capped spire." not in lines


def test_illegal_actions_are_refused():
    state = position(towers=[("rrrrr",)], bag={"red": 5})
    with pytest.raises(IllegalAction, match="move source=0 target=0 is not legal for seat 0"):
        checked_apply(GAME, state, MoveGem(0, 0))
    GAME.apply(state, MINE)
    with pytest.raises(IllegalAction, match="stack spire=0 is not legal"):
        checked_apply(GAME, state, Stack(0))  # spire 0 is full
    with pytest.raises(IllegalAction):
        checked_apply(GAME, state, LOOSE)  # loose only when every spire is full
    assert state.spires[0] == tower("rrrrr")


def test_gems_lie_beside_a_full_tower():
    state = position(towers=[("rrrrr",) * 6], bag={"yellow": 5})
    GAME.apply(state, MINE)
    assert GAME.legal_actions(state) == [LOOSE]
    GAME.apply(state, LOOSE)  # yellow's move has no open spire to go to
    assert state.loose[0] == 1
    assert GAME.scores(state)[0] == 31 + 6 * 5


def test_designers_steps_run_too_an_optional_mine_and_a_discard():
    state = position("1", hands=[["treasure-map"]], bag={"red": 9})
    red = (Step("mine", 1, optional=True), Step("discard", 1))
    state.rules = state.rules._replace(colour_rules={**state.rules.colour_rules, "red": red})
    GAME.apply(state, MINE)
    GAME.apply(state, Stack(0))
    assert GAME.legal_actions(state) == [DO, SKIP]
    GAME.apply(state, DO)
    GAME.apply(state, Stack(0))
    assert GAME.legal_actions(state) == [DiscardCard("treasure-map")]
    GAME.apply(state, DiscardCard("treasure-map"))
    assert state.spires[0][0] == gems("rr") and state.discards == ["treasure-map"]
    assert (
        state.decision == SeatDecision("action", 0) and len(state.hands[0]) == 1
    )  # level 1 draws a card


# --- cards ----------------------------------------------------------------------


def test_a_cost_gem_under_another_colour_cannot_be_paid():
    state = at_action(position("2", towers=[("r", "y", "bg")], hands=[["dragon-flight"]]))
    assert not payable(state.spires[0], gems("ryb"))
    assert PlayCard("dragon-flight") not in GAME.legal_actions(state)
    assert DiscardCard("dragon-flight") in GAME.legal_actions(state)


def test_a_cost_may_take_two_gems_from_one_spire_in_sequence():
    state = at_action(position("2", towers=[("br", "y")], hands=[["dragon-flight"]]))
    total = state.bag_total
    GAME.apply(state, PlayCard("dragon-flight"))
    assert GAME.legal_actions(state) == [PayFrom(0), PayFrom(1)]
    GAME.apply(state, PayFrom(0))  # the red; the blue under it is now on top
    assert GAME.legal_actions(state) == [PayFrom(0), PayFrom(1)]
    GAME.apply(state, PayFrom(0))
    GAME.apply(state, PayFrom(1))
    assert state.spires[0] == tower()
    assert (state.paid, state.bag_total) == (3, total - 1)  # paid gems leave the game
    assert state.decision.kind == "stack"  # mine 3 begins
    assert state.used == (("dragon-flight",), (), ())  # seat 0 played it, in three seats


def test_a_payment_never_strands_the_rest_of_the_cost():
    # Mother Lode costs red, green: the red on spire 1 would leave the green buried
    state = at_action(position("2", towers=[("gr", "r")], hands=[["mother-lode"]]))
    GAME.apply(state, PlayCard("mother-lode"))
    assert GAME.legal_actions(state) == [PayFrom(0)]


def test_each_other_player_returns_in_turn_order_and_chooses_their_own_spire():
    state = at_action(position("2", towers=[("pp",), ("r", "y"), ("g",)], hands=[["dragon-roar"]]))
    GAME.apply(state, PlayCard("dragon-roar"))
    GAME.apply(state, PayFrom(0))
    GAME.apply(state, PayFrom(0))
    assert (GAME.to_move(state), GAME.legal_actions(state)) == (1, [Choose(0), Choose(1)])
    GAME.apply(state, Choose(1))
    assert (GAME.to_move(state), GAME.legal_actions(state)) == (2, [Choose(0)])
    GAME.apply(state, Choose(0))
    assert state.spires[1] == tower("r") and state.spires[2] == tower()
    assert held_by(state) == 0  # then mine 2


def test_an_extra_turn_goes_to_the_same_player():
    state = at_action(position("2", towers=[("b", "y")], hands=[["second-wind"]]))
    GAME.apply(state, PlayCard("second-wind"))
    GAME.apply(state, PayFrom(0))
    GAME.apply(state, PayFrom(1))
    assert state.decision == SeatDecision("turn", 0)
    assert len(state.hands[0]) == 1  # the card drawn
    assert state.discards[-1] == "second-wind"


def test_level_1_cards_cost_nothing():
    state = at_action(position("1", hands=[["triple-dig", "red-hunt"]], bag={"red": 3, "blue": 9}))
    assert GAME.legal_actions(state) == [
        PlayCard("triple-dig"),
        PlayCard("red-hunt"),
        DiscardCard("triple-dig"),
        DiscardCard("red-hunt"),
        DRAW,
    ]
    GAME.apply(state, PlayCard("red-hunt"))
    assert state.held == "red"  # taken from the bag by colour
    GAME.apply(state, Stack(0))
    GAME.apply(state, Stack(0))  # then one mined at random
    assert state.bag_total == 10 and GAME.to_move(state) == 1
    assert state.hands[0] == ["triple-dig"] and state.discards == ["red-hunt"]


def test_discarding_a_card_mines_two_gems():
    state = at_action(position("1", hands=[["triple-dig"]], bag={"blue": 9}))
    GAME.apply(state, DiscardCard("triple-dig"))
    GAME.apply(state, Stack(0))
    GAME.apply(state, Stack(0))
    assert state.spires[0][0] == gems("bb") and GAME.to_move(state) == 1


def test_setup_at_levels_1_and_2():
    one = GAME.setup(CATALOG, 3, random.Random(4), {"level": "1"})
    two = GAME.setup(CATALOG, 3, random.Random(4), {"level": "2"})
    for state in (one, two):
        while state.decision.kind != "turn":
            GAME.apply(state, GAME.legal_actions(state)[0])
        assert [sum(map(len, t)) for t in state.spires] == [2, 2, 2]
    assert [len(hand) for hand in one.hands] == [2, 2, 2] and not one.face_up
    assert [len(hand) for hand in two.hands] == [0, 0, 0] and len(two.face_up) == 4
    assert len(one.deck) == 30 - 6 and len(two.deck) == 30 - 4


def test_taking_a_face_up_card_refills_the_row_from_the_deck():
    state = position("2")
    row, top = list(state.face_up), state.deck[-1]
    state.decision = SeatDecision("draw", 0)
    GAME.apply(state, TakeFaceUp(1))
    assert state.hands[0] == [row[1]]
    assert state.face_up == [row[0], top, row[2], row[3]]


# --- the end --------------------------------------------------------------------


def test_every_other_player_takes_exactly_one_more_turn():
    almost = ("rrrrr", "rrrrr", "rrrrr", "rrrrr", "rrrrr", "bbbb")
    state = position(towers=[(), almost, ()], bag={"blue": 50})
    assert take_turn(state) == 0
    assert take_turn(state) == 1  # caps the last spire: the tower is complete
    assert GAME.to_move(state) == 2 and state.final == (0,)  # the last round: 2, then 0
    assert take_turn(state) == 2
    assert take_turn(state) == 0
    assert GAME.is_over(state) and GAME.to_move(state) is None
    assert state.turns == 4
    assert GAME.record(state)["ended_by"] == "tower"


def test_an_empty_bag_also_starts_the_last_round():
    state = position(players=2, bag={"blue": 1})
    take_turn(state)
    assert GAME.to_move(state) == 1 and state.final == ()  # seat 1's is the last turn
    take_turn(state)  # mines nothing
    assert GAME.is_over(state) and GAME.record(state)["ended_by"] == "bag"


def test_a_turn_limit_ends_an_endless_game_and_is_recorded():
    _, record, _ = play(GAME, CATALOG, ["random"] * 3, 5, {"turn_limit": "10"})
    assert record.turns == 10
    assert record.extra["hit_turn_limit"] and record.extra["ended_by"] == "turn-limit"


def test_setup_refuses_bad_options():
    with pytest.raises(ValueError, match="option level: expected one of smiley, 1, 2, found '3'"):
        GAME.setup(CATALOG, 2, random.Random(0), {"level": "3"})
    with pytest.raises(ValueError, match="takes 2 to 5 players"):
        GAME.setup(CATALOG, 6, random.Random(0), {})
    with pytest.raises(ValueError, match="unknown option 'levle'"):
        GAME.setup(CATALOG, 2, random.Random(0), {"levle": "1"})


# --- whole games ----------------------------------------------------------------


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
@pytest.mark.parametrize("bots", [["random"] * 4, ["greedy", "random", "greedy"]])
def test_whole_games_finish_with_every_gem_accounted_for(level, bots):
    for seed in range(3):
        state, record, actions = play(GAME, CATALOG, bots, seed, {"level": level})
        assert GAME.is_over(state) and not record.limit
        assert record.extra["ended_by"] == "tower"
        assert gem_count(state) == 200
        assert record.scores == GAME.scores(state) and record.winners


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
def test_the_same_seed_plays_the_same_game(level):
    first = play(GAME, CATALOG, ["random", "greedy"], 11, {"level": level})
    again = play(GAME, CATALOG, ["random", "greedy"], 11, {"level": level})
    assert first[2] == again[2] and first[1].scores == again[1].scores


def test_copies_are_independent_and_share_the_dice():
    state = position(towers=[("ry",)], bag={"red": 3, "blue": 3})
    trial = state.copy()
    GAME.apply(trial, MINE)
    assert state.decision == SeatDecision("turn", 0) and state.bag_total == 6
    GAME.apply(state, MINE)
    assert state.held == trial.held


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
def test_greedy_beats_random_on_average(level):
    # measured over 100 two-player games with alternating seats: greedy won 100, 98
    # and 100 (smiley, 1, 2), scoring 47.9 / 47.0 / 48.1 against 1.7 / 28.2 / 21.6
    greedy_wins = 0
    for seed in range(10):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, record, _ = play(GAME, CATALOG, bots, seed, {"level": level})
        greedy_wins += record.winners == [seed % 2]
    assert greedy_wins >= 8


# --- the search bot's playout move --------------------------------------------


def test_the_playout_move_caps_the_single_colour_stack_as_greedy_would():
    # blue onto bbbb caps a single-colour stack: +1 gem +7 (level 2), less the 4 of
    # progress it had = +4; onto rygp a rainbow: +1 +5 -4 = +2; an empty spire: +2
    state = position(level="2", players=2, towers=[("bbbb", "rygp")], bag={"blue": 5})
    GAME.apply(state, MINE)
    assert state.held == "blue" and GAME.legal_actions(state)[0] == Stack(0)
    for seed in range(5):
        assert lookahead.playout_policy(GAME, state, random.Random(seed)) == Stack(0)


def test_the_playout_move_breaks_ties_with_the_generator_it_is_given():
    state = position(level="2", players=2, bag={"blue": 5})
    GAME.apply(state, MINE)  # six empty spires: six equal moves
    moves = {lookahead.playout_policy(GAME, state, random.Random(seed)) for seed in range(30)}
    assert moves == {Stack(i) for i in range(6)}


def test_payable_takes_gems_from_spire_tops_in_some_order():
    tower = [["red", "blue"], ["green"], []]
    assert payable(tower, ("blue", "red"))  # blue first uncovers red
    assert not payable(tower, ("red",))  # red lies under blue
    assert payable(tower, ("green", "blue"))
    assert not payable(tower, ("green", "green"))
    assert payable(tower, ())
    # the blue on top of the second spire must go to uncover yellow, not the lone blue
    tower = [["blue"], ["yellow", "blue"]]
    assert payable(tower, ("blue", "yellow"))
    assert payable(tower, ("blue", "blue", "yellow"))
    assert not payable(tower, ("yellow", "yellow"))


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # line 3, column 13: the list of five spires where the tower has six
        (
            '{\n  "level": "1",\n  "spires": [[], [], [], [], []]\n}\n',
            "3:13 /spires",
            "5 spires given but the tower has 6",
        ),
        # line 1, column 27: the first spire, six gems where it holds five
        (
            '{"level": "1", "spires": [["red", "red", "red", "red", "red", "red"], [], [], [], [], []]}',
            "1:27 /spires/0",
            "spire 1 holds 5 gems but 6 are listed",
        ),
    ],
)
def test_score_names_the_line_column_and_pointer_of_a_bad_tower(tmp_path, text, where, message):
    state = tmp_path / "tower.json"
    state.write_text(text)
    result = CliRunner().invoke(cli, ["score", "dragonstone-mine", str(state)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{state}:{where}: {message}")

"""Every construct of the rules language, each with a worked example: a tiny catalog,
a rule in words, and the numbers worked out by hand in a comment.

The tiny catalog: symbols gold, wood (the resources, in that order); cards, in
catalog order: ant (1 copy, cost [gold], 1 point, produces wood), bee (2 copies,
cost [wood, wood], 3 points), cat (1 copy, cost [], 5 points). A deck filled with
`setup: all` and not shuffled is [ant, bee, bee, cat]: its top (drawn first) is cat.
"""

import json
import random

import pytest
from tiny_rules import TinyRules

from protopress.components.loader import load_catalog
from protopress.rules.core import IllegalAction, RulesFault
from protopress.rules.data.spec import data_spec
from protopress.rules.information import FaceDown, Private, seat_copy

CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"}],
    "cards": [{"id": "ant", "title": "Ant", "cost": ["gold"], "points": 1, "produces": "wood"},
              {"id": "bee", "title": "Bee", "count": 2, "cost": ["wood", "wood"], "points": 3},
              {"id": "cat", "title": "Cat", "cost": [], "points": 5}],
}  # fmt: skip
ANT, BEE, CAT = 0, 1, 2  # cards are numbered in catalog order

HEAD = """
rules: 1
game: tiny
players: {min: 2, max: 3}
resources: {kind: symbol}
"""


TINY = TinyRules(CATALOG, HEAD, end="- turns >= 4")
start = TINY.start


DECK = """
zones:
  deck: {holds: card, seen: nobody, setup: all}
  row: {holds: card, seen: everyone, slots: 2, refill: deck}
  hand: {holds: card, seen: owner, each: true}
  kept: {holds: card, seen: everyone, each: true}
"""


def test_setup_all_fills_in_catalog_order_and_draw_takes_from_the_top(tmp_path):
    # deck [ant, bee, bee, cat]; "draw 2 into my hand" at setup (seat 0): cat, then bee
    body = DECK + "setup:\n  - {draw: deck, to: my.hand, n: 2}\nturn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body)
    assert state.piles[0] == [ANT, BEE]
    assert state.piles[game.layout.zones[2].first] == [CAT, BEE]


def test_draw_stops_when_the_pile_is_empty(tmp_path):
    # n: 9 from a deck of 4: the hand gets 4, the deck is empty, nothing fails
    body = DECK + "setup:\n  - {draw: deck, to: my.hand, n: 9}\nturn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body)
    assert state.piles[0] == [] and len(state.piles[game.layout.zones[2].first]) == 4


def test_deal_gives_each_player_in_seat_order(tmp_path):
    # deal 1 to each of 3 players: seat 0 cat, seat 1 bee, seat 2 bee; ant stays
    body = DECK + "setup:\n  - {deal: deck, to: hand}\nturn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body, players=3)
    first = game.layout.zones[2].first
    assert state.piles[first : first + 3] == [[CAT], [BEE], [BEE]] and state.piles[0] == [ANT]


def test_refill_fills_slots_from_the_top_then_closes_slots_it_cannot_fill(tmp_path):
    # refill the 2-slot row: [cat, bee], deck [ant, bee]. Buy slot 0 (cat): refilled with
    # bee -> [bee, bee], deck [ant]. Buy slot 1: ant -> [bee, ant], deck []. Buy slot 0:
    # nothing to refill it with, the slot closes -> [ant].
    body = (
        DECK
        + """setup: [{refill: row}]
turn:
  choose:
    buy: {each: card, from: row, do: [{move: card, to: my.kept}, {refill: row}]}"""
    )
    game, state = start(tmp_path, body)
    row = game.layout.zones[1].first
    assert state.piles[row] == [CAT, BEE] and state.piles[0] == [ANT, BEE]
    for slot, expected in ((0, [BEE, BEE]), (1, [BEE, ANT]), (0, [ANT])):
        game.apply(state, game.actions.decode(["buy", slot]))
        assert state.piles[row] == expected
    kept = game.layout.zones[3].first
    assert state.piles[kept] == [CAT, BEE] and state.piles[kept + 1] == [BEE]


def test_actions_are_logged_by_slot_by_card_id_by_resource_or_by_verb(tmp_path):
    # the row is slotted (by slot); the hand is not (by id); resources by name; wait: verb
    body = (
        DECK
        + """setup: [{refill: row}, {draw: deck, to: my.hand}]
turn:
  choose:
    buy: {each: card, from: row, do: [{move: card, to: my.kept}]}
    play: {each: card, from: my.hand, do: [{discard: card}]}
    take: {each: resource, from: resources, do: [{gain: resource}]}
    wait: {do: []}"""
    )
    game, state = start(tmp_path, body)
    logged = [game.actions.encode(action) for action in game.legal_actions(state)]
    # row [cat, bee]; then the hand draws the deck's top: bee
    assert logged == [["buy", 0], ["buy", 1], ["play", "bee"], ["take", "gold"],
                      ["take", "wood"], ["wait"]]  # fmt: skip
    assert repr(game.actions.decode(["buy", 1])) == "Buy(slot=1)"


def test_discard_takes_the_card_out_of_the_game(tmp_path):
    body = (
        DECK
        + """setup: [{draw: deck, to: my.hand, n: 2}]
turn:
  choose:
    play: {each: card, from: my.hand, do: [{discard: card}]}"""
    )
    game, state = start(tmp_path, body)
    hand = game.layout.zones[2].first
    game.apply(state, game.actions.decode(["play", "bee"]))  # the hand was [cat, bee]
    assert state.piles[hand] == [CAT] and sum(map(len, state.piles)) == 3


def test_gain_n_for_each_player_and_pay_a_cost(tmp_path):
    # each player gains 3 gold and 2 wood; seat 0 builds bee from the row (cost wood, wood):
    # wood 2 - 2 = 0, gold stays 3; seat 1 is untouched
    body = (
        DECK
        + """setup:
  - refill: row
  - each_player: [{gain: gold, n: 3}, {gain: wood, n: 2}]
turn:
  choose:
    build: {each: card, from: row, if: can_pay(card.cost),
            do: [{pay: card.cost}, {move: card, to: my.kept}]}"""
    )
    game, state = start(tmp_path, body)
    assert state.pools == [[3, 2], [3, 2]]
    game.apply(state, game.actions.decode(["build", 1]))  # row [cat, bee]: bee
    assert state.pools == [[3, 0], [3, 2]]


def test_an_action_whose_condition_fails_is_not_offered_and_is_illegal(tmp_path):
    # no resources: bee (cost wood, wood) cannot be paid; cat (cost nothing) can
    body = (
        DECK
        + """setup: [{refill: row}]
turn:
  choose:
    build: {each: card, from: row, if: can_pay(card.cost),
            do: [{pay: card.cost}, {move: card, to: my.kept}]}"""
    )
    game, state = start(tmp_path, body)
    assert [tuple(a)[0] for a in game.legal_actions(state)] == [0]  # slot 0: cat
    with pytest.raises(IllegalAction):
        game.apply(state, game.actions.decode(["build", 1]))
    with pytest.raises(IllegalAction):
        game.apply(state, game.actions.decode(["build", 7]))


def test_distinct_offers_alike_cards_once(tmp_path):
    # the row after refilling from [ant, bee, bee, cat] with 3 slots... here 2 slots hold
    # [cat, bee]; draw cat away first so the row is refilled to [bee, bee]: one choice
    body = """
zones:
  deck: {holds: card, seen: nobody, setup: all}
  row: {holds: card, seen: everyone, slots: 2, refill: deck}
  junk: {holds: card, seen: everyone}
setup: [{draw: deck, to: junk}, {refill: row}]
turn:
  choose:
    pick: {each: card, from: row, distinct: true, do: []}
    every: {each: card, from: row, do: []}"""
    game, state = start(tmp_path, body)
    assert state.piles[1] == [BEE, BEE]
    logged = [game.actions.encode(action) for action in game.legal_actions(state)]
    assert logged == [["pick", 0], ["every", 0], ["every", 1]]


def test_start_of_turn_for_each_card_with_a_condition(tmp_path):
    # "each turn, gain what each of your kept cards produces": seat 0 keeps ant and cat;
    # only ant produces (wood). Turn order: seat 0 (gains 1 wood at setup's end), seat 1,
    # seat 0 again (1 more): wood 2 after two of its turns began.
    body = (
        DECK
        + """setup: [{refill: row}]
turn:
  start:
    - for: card
      in: my.kept
      if: card.produces
      do: [{gain: card.produces}]
  choose:
    wait: {do: []}"""
    )
    game, state = start(tmp_path, body)
    kept = game.layout.zones[3].first
    state.piles[kept] = [ANT, CAT]
    game.apply(state, game.actions.decode(["wait"]))  # seat 1's turn: seat 1 keeps nothing
    assert state.pools == [[0, 0], [0, 0]]
    game.apply(state, game.actions.decode(["wait"]))  # seat 0's turn begins: + 1 wood
    assert state.pools == [[0, 1], [0, 0]]


def test_if_then_else(tmp_path):
    # "take: if you have 2 gold or more gain 1 wood, else gain 1 gold": each of the two
    # players takes three times from nothing: gold 1, gold 2, then (2 >= 2) wood 1
    body = (
        DECK
        + """turn:
  choose:
    take:
      do:
        - if: my.gold >= 2
          then: [{gain: wood}]
          else: [{gain: gold}]"""
    )
    game, state = start(tmp_path, body, end="- turns >= 6")
    for _ in range(6):
        game.apply(state, game.actions.decode(["take"]))
    assert state.pools == [[2, 1], [2, 1]]


def test_end_conditions_and_turn_order(tmp_path):
    # ends after option.rounds (2) rounds of 3 players: 6 turns; seats 0,1,2,0,1,2
    body = DECK.replace("zones:", "options:\n  rounds: {whole: 2, min: 1, max: 9, says: rounds}\nzones:") + \
        "turn:\n  choose: {wait: {do: []}}"  # fmt: skip
    game, state = start(tmp_path, body, players=3, end="- turns >= option.rounds * players")
    movers = []
    while not game.is_over(state):
        movers.append(game.to_move(state))
        game.apply(state, game.legal_actions(state)[0])
    assert movers == [0, 1, 2, 0, 1, 2] and game.to_move(state) is None
    assert game.legal_actions(state) == []


def test_the_game_ends_when_a_zone_is_empty(tmp_path):
    # draw one card a turn from a deck of 4: over after 4 turns, before the round ends
    body = DECK + "turn:\n  choose: {draw: {do: [{draw: deck, to: my.hand}]}}"
    game, state = start(tmp_path, body, end="- empty(deck)\n  - turns >= 99")
    turns = 0
    while not game.is_over(state):
        game.apply(state, game.actions.decode(["draw"]))
        turns += 1
    assert turns == 4


def test_score_lines_are_added_and_shown_line_by_line(tmp_path):
    # seat 0 keeps ant, bee, cat: points 1 + 3 + 5 = 9; cards 3; with no cost: 1 (cat);
    # the best card 5; total 9 + 3 * 2 + 1 + 5 = 21. Seat 1 keeps bee: 3 + 2 + 0 + 3 = 8.
    score = {
        "points": "sum(card.points for card in my.kept)",
        "cards": "count(my.kept) * 2",
        "free": "count(card for card in my.kept if not card.cost)",
        "best": "max(card.points for card in my.kept)",
    }
    body = DECK + "turn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body, score=score)
    kept = game.layout.zones[3].first
    state.piles[kept], state.piles[kept + 1] = [ANT, BEE, CAT], [BEE]
    assert game.scores(state) == [21, 8] and game.winners(state) == [0]
    assert game.score_lines(state, 0) == [("points", 9), ("cards", 6), ("free", 1), ("best", 5)]


def test_expressions_by_hand(tmp_path):
    # 7 // 2 + 7 % 2 * 3 = 3 + 1 * 3 = 6; 1 < 2 < 3 holds; some card of the deck costs
    # nothing (cat); no ant costs wood (its cost is [gold]): so + 10; min(4, 2, 9) = 2.
    # 6 + 10 + 2 = 18
    text = ("7 // 2 + 7 % 2 * 3 + (10 if 1 < 2 < 3 and any(not c.cost for c in deck) "
            "and not any('wood' in c.cost for c in deck if c.id == 'ant') else 0) + min(4, 2, 9)")  # fmt: skip
    body = DECK + "turn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body, score=text)
    assert game.scores(state) == [18, 18]


def test_a_score_that_is_no_whole_number_is_a_rules_fault(tmp_path):
    body = DECK + "turn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body, score="1 // 1 + 0.5")
    with pytest.raises(RulesFault, match="not a whole number"):
        game.scores(state)


def test_the_bots_value_reads_score(tmp_path):
    # value = score * 2 + my.gold: with score 0 + 3 (setup gold 3) -> 3 for both seats
    body = (
        DECK
        + """setup: [{each_player: [{gain: gold, n: 3}]}]
turn:
  choose: {wait: {do: []}}
bots: {value: score * 2 + my.gold}"""
    )
    game, state = start(tmp_path, body, score="count(my.kept) + 1")
    assert game.heuristic(state, 0) == 2 * 1 + 3


def test_seen_gives_the_seat_view(tmp_path):
    # deck seen by nobody, hands by their owner: the hands are Private, pooled with the deck
    # deal 1 each: seat 0 cat, seat 1 bee; the deck keeps [ant, bee]: seat 1's card is,
    # for seat 0, any of bee, ant, bee
    body = DECK + "setup: [{deal: deck, to: hand}]\nturn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body)
    view = game.seat_view
    assert [type(entry) for entry in view.hidden] == [Private]
    assert isinstance(view.hidden[0].pool, FaceDown) and view.hidden[0].pool.name == "deck"
    hand = game.layout.zones[2].first
    mine, theirs = list(state.piles[hand]), sorted(state.piles[hand + 1])
    changed = 0
    for seed in range(20):
        copy = seat_copy(game, state, 0, random.Random(seed))
        assert copy.piles[hand] == mine  # seat 0's own hand stays
        assert len(copy.piles[hand + 1]) == 1  # the other hand keeps its size
        assert sorted(copy.piles[hand + 1] + copy.piles[0]) == sorted(theirs + state.piles[0])
        changed += sorted(copy.piles[hand + 1]) != theirs
    assert changed > 0  # seat 0 cannot know seat 1's hand


def test_a_rules_file_in_json_is_the_same_language(tmp_path):
    # gain 1 wood a turn; after 4 turns each of 2 players has 2: score = wood
    rules = {
        "rules": 1, "game": "tiny", "players": {"min": 2, "max": 2},
        "resources": ["gold", "wood"],
        "zones": {"deck": {"holds": "card", "seen": "nobody"}},
        "turn": {"choose": {"take": {"do": [{"gain": "wood"}]}}},
        "end": ["turns >= 4"], "score": "my.wood",
    }  # fmt: skip
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.json").write_text(json.dumps(rules))
    game = data_spec(tmp_path / "rules.json").new_game()
    state = game.setup(load_catalog(tmp_path / "catalog.json"), 2, random.Random(0), {})
    while not game.is_over(state):
        game.apply(state, game.legal_actions(state)[0])
    assert game.scores(state) == [2, 2]


def test_paying_more_than_one_has_is_a_rules_fault_naming_the_step(tmp_path):
    body = DECK + "turn:\n  choose: {spend: {do: [{pay: gold}]}}"
    game, state = start(tmp_path, body)
    with pytest.raises(RulesFault, match=r"rules.yaml:\d+:\d+: pay: seat 0 cannot pay 'gold'"):
        game.apply(state, game.actions.decode(["spend"]))


def test_copies_are_independent(tmp_path):
    body = DECK + "setup: [{refill: row}]\nturn:\n  choose: {take: {do: [{gain: gold}]}}"
    game, state = start(tmp_path, body)
    copy = state.copy()
    game.apply(copy, game.actions.decode(["take"]))
    assert state.pools == [[0, 0], [0, 0]] and copy.pools == [[1, 0], [0, 0]]
    assert state.turns == 0 and copy.turns == 1

"""Choices inside an action, bags, rows of zones and last turns (rules/data/choices.py,
bags.py, turns.py): each with a worked example from a rule written in words, and
their mistakes as located problems.

The tiny catalog: gems, in catalog order, red (2 copies), blue (1), green (1). A bag
filled with `setup: all` holds [red, red, blue, green]; a deck so filled (not a bag,
not shuffled) has green on top. Each player has a row of three piles, `my.piles`,
which hold 2 gems each.
"""

import random

import pytest
from tiny_rules import invoke, logged, start_game, write_game

from protopress.rules.core import IllegalAction, RulesFault

CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "cards": [{"id": "red", "title": "Red", "count": 2}, {"id": "blue", "title": "Blue"},
             {"id": "green", "title": "Green"}],
}  # fmt: skip

RED, BLUE, GREEN = 0, 1, 2  # the cards' numbers (both reds are card 0)

RULES = """
rules: 1
game: tiny
players: {min: 2, max: 3}
zones:
  bag:   {holds: card, seen: nobody, setup: all, bag: true}
  deck:  {holds: card, seen: nobody, setup: all}
  held:  {holds: card, seen: everyone, each: true}
  piles: {holds: card, seen: everyone, each: true, piles: 3}
  taken: {holds: card, seen: everyone, each: true}
turn:
  choose:
    # "Take the deck's top gem and put it on one of your piles that is not full (2
    #  gems); then take the next gem into your hand."
    take:
      if: not empty(deck)
      do:
        - {draw: deck, to: my.held}
        - choose:
            put: {each: pile, from: my.piles, if: count(pile) < 2, do: [{draw: my.held, to: pile}]}
        - {draw: deck, to: my.taken}
    # "Move the top gem of one of your piles onto another of your piles that is not full."
    move:
      each: [source, target]
      from: [my.piles, my.piles]
      if: not empty(source) and count(target) < 2 and source != target
      do: [{draw: source, to: target}]
    # "Choose another player who has a gem; they put the top gem of one of their piles
    #  back in the bag (they pick which)."
    hex:
      do:
        - choose:
            whom:
              each: victim
              from: others
              if: any(not empty(pile) for pile in victim.piles)
              do:
                - by: victim
                  choose:
                    give: {each: pile, from: victim.piles, if: not empty(pile), do: [{draw: pile, to: bag}]}
    # "You may swap the top gems of two of your piles."
    tidy:
      do:
        - optional: true
          choose:
            swap:
              each: [first, second]
              from: [my.piles, my.piles]
              if: first < second and not empty(first) and not empty(second)
              do: [{draw: first, to: my.held}, {draw: second, to: first}, {draw: my.held, to: second}]
end:
  - LAST
score: sum(count(pile) for pile in my.piles)
"""


def start(tmp_path, rules: str = RULES, players: int = 2, seed: int = 1, last: str = "turns >= 50"):
    return start_game(write_game(tmp_path, CATALOG, rules.replace("LAST", last)), players, seed)


def act(game, state, *log):
    game.apply(state, game.actions.decode(list(log)))


def pile(game, state, seat, place):
    return state.piles[game._model.zone("piles").pile(seat, place)]


def test_a_choice_inside_an_action_waits_and_the_rest_follows(tmp_path):
    # Seat 0 takes: the deck's top gem (green) is in its hand and it is asked where to
    # put it: each of its three empty piles. The step after the choice (take the next
    # gem, blue) has not happened yet, and the turn is still seat 0's.
    game, state = start(tmp_path)
    act(game, state, "take")
    assert game.to_move(state) == 0
    assert logged(game, game.legal_actions(state)) == [["put", 0], ["put", 1], ["put", 2]]
    assert state.piles[game._model.zone("taken").pile(0)] == []
    # Put on pile 2: green lies there, then blue is taken, and seat 1 moves.
    act(game, state, "put", 2)
    assert pile(game, state, 0, 2) == [GREEN]
    assert state.piles[game._model.zone("taken").pile(0)] == [BLUE]
    assert game.to_move(state) == 1 and state.turns == 1
    with pytest.raises(IllegalAction):
        act(game, state, "put", 0)  # no choice is open


def test_two_piles_chosen_at_once(tmp_path):
    # Seat 0's piles: [red], [], [blue, green] (pile 2 full). A move takes a top gem from
    # a pile with a gem onto another pile with room: from 0 to 1; from 2 to 0 or 1.
    game, state = start(tmp_path)
    for place, gems in enumerate([[RED], [], [BLUE, GREEN]]):
        pile(game, state, 0, place)[:] = gems
    moves = [a for a in logged(game, game.legal_actions(state)) if a[0] == "move"]
    assert moves == [["move", 0, 1], ["move", 2, 0], ["move", 2, 1]]
    act(game, state, "move", 2, 1)  # green, the top of pile 2, onto pile 1
    assert [pile(game, state, 0, p) for p in range(3)] == [[RED], [GREEN], [BLUE]]
    with pytest.raises(IllegalAction):
        act(game, state, "move", 1, 1)  # onto itself: not offered


def test_another_player_makes_the_choice(tmp_path):
    # Three players. Seat 2 has taken both reds and blue from the bag: its piles are
    # [red], [] and [red, blue]; the bag holds green. Seat 0 hexes: seat 1 has no gem,
    # so only seat 2 can be chosen ("others" from seat 0's left: 1, then 2).
    game, state = start(tmp_path, players=3)
    bag = state.piles[game._model.zone("bag").first]
    bag[:] = [GREEN]
    pile(game, state, 2, 0)[:] = [RED]
    pile(game, state, 2, 2)[:] = [RED, BLUE]
    act(game, state, "hex")
    assert logged(game, game.legal_actions(state)) == [["whom", 2]]
    assert game.to_move(state) == 0
    act(game, state, "whom", 2)
    # Seat 2 picks which gem goes back: the top of pile 0 (red) or of pile 2 (blue).
    assert game.to_move(state) == 2
    assert logged(game, game.legal_actions(state)) == [["give", 0], ["give", 2]]
    act(game, state, "give", 2)
    # Blue goes back and mixes in: the bag is [blue, green], in catalog order; seat 1 moves.
    assert bag == [BLUE, GREEN]
    assert pile(game, state, 2, 2) == [RED]
    assert game.to_move(state) == 1


def test_others_go_round_the_table_from_my_left(tmp_path):
    # Three players, each with a gem; seat 0 hexes nobody (it tidies), then seat 1
    # hexes: the others from its left are seat 2, then seat 0.
    game, state = start(tmp_path, players=3)
    for seat in range(3):
        pile(game, state, seat, 0)[:] = [RED]
    act(game, state, "tidy")
    act(game, state, "hex")
    assert logged(game, game.legal_actions(state)) == [["whom", 2], ["whom", 0]]


def test_the_bots_value_reads_the_other_players_scores(tmp_path):
    # "A position is worth your gems less the most gems another player has": seat 0
    # has 3 gems, seat 1 has 1 and seat 2 has 2, so seat 0's is 3 - 2 = 1 and seat
    # 1's is 1 - 3 = -2.
    rules = RULES + "bots:\n  value: score - max(p.score for p in others)\n"
    game, state = start(tmp_path, rules, players=3)
    pile(game, state, 0, 0)[:] = [RED, BLUE]
    pile(game, state, 0, 2)[:] = [GREEN]
    pile(game, state, 1, 1)[:] = [RED]
    pile(game, state, 2, 0)[:] = [RED, BLUE]
    assert game.heuristic(state, 0) == 1.0 and game.heuristic(state, 1) == -2.0


def test_a_choice_with_nothing_to_offer_is_not_asked(tmp_path):
    # Nobody has a gem: hex has no one to choose, and the turn ends at once; with no two
    # piles holding gems, the optional swap is not asked either (no lone "skip").
    game, state = start(tmp_path)
    act(game, state, "hex")
    assert game.to_move(state) == 1 and state.turns == 1
    act(game, state, "tidy")
    assert game.to_move(state) == 0 and state.turns == 2


def test_an_optional_choice_offers_skip_last(tmp_path):
    # Seat 0's piles: [red], [blue], [green]: swaps 0-1, 0-2, 1-2, then skip.
    game, state = start(tmp_path)
    for place, gem in enumerate([RED, BLUE, GREEN]):
        pile(game, state, 0, place)[:] = [gem]
    act(game, state, "tidy")
    assert logged(game, game.legal_actions(state)) == [
        ["swap", 0, 1], ["swap", 0, 2], ["swap", 1, 2], ["skip"],
    ]  # fmt: skip
    act(game, state, "swap", 0, 2)
    assert [pile(game, state, 0, p) for p in range(3)] == [[GREEN], [BLUE], [RED]]
    assert game.to_move(state) == 1


def test_a_bag_draws_one_of_the_pieces_left_at_random(tmp_path):
    # The bag [red, red, blue, green] gives the piece at randrange(4) of the game's
    # generator (each piece as likely), counted in catalog order; the rest stay in order.
    rules = RULES.replace("turn:\n", "setup:\n  - {draw: bag, to: my.taken}\nturn:\n", 1)
    pieces = [RED, RED, BLUE, GREEN]
    seen = set()
    for seed in range(12):
        game, state = start(tmp_path, rules, seed=seed)
        expected = pieces[random.Random(seed).randrange(4)]
        drawn = state.piles[game._model.zone("taken").pile(0)]
        assert drawn == [expected]
        rest = list(pieces)
        rest.remove(drawn[0])
        assert state.piles[game._model.zone("bag").first] == rest
        seen.add(game._model.cards.ids[drawn[0]])
    assert seen == {"red", "blue", "green"}


def test_last_turns_gives_every_other_player_one_more_turn(tmp_path):
    # "When a player ends a turn holding a gem in their hand, every other player takes
    # one more turn." Three players: seat 0 tidies (nothing), seat 1 takes (green on a
    # pile, blue in hand): triggered at turn 2. Seats 2 and 0 play, then the game is over.
    game, state = start(tmp_path, players=3, last="{last_turns: not empty(my.taken)}")
    act(game, state, "tidy")
    act(game, state, "take")
    act(game, state, "put", 0)
    assert state.turns == 2 and not game.is_over(state)
    act(game, state, "tidy")
    assert not game.is_over(state) and game.to_move(state) == 0
    act(game, state, "tidy")
    assert game.is_over(state) and state.turns == 4


def test_a_chooser_who_is_no_player_is_a_rules_fault(tmp_path):
    # by: a value the rules cannot check is a player until it is read (a number, or a
    # player); here it is 4, which is no seat of three players: the game stops.
    rules = RULES.replace("by: victim", "by: 4 if turns >= 0 else victim")
    game, state = start(tmp_path, rules, players=3)
    pile(game, state, 2, 0)[:] = [RED]
    act(game, state, "hex")
    with pytest.raises(RulesFault, match=r"rules.yaml:\d+:\d+: by: 4 is not a player"):
        act(game, state, "whom", 2)


def run(tmp_path, text):
    path = write_game(tmp_path, CATALOG, text)
    return invoke("simulate", "tiny", "--rules", path)


MISTAKES = [
    ("a choice in setup", "end:\n", "setup:\n  - choose: {pick: {do: []}}\nend:\n",
     "a choice is made inside a turn's action"),
    ("a shuffled bag", "bag: true}", "bag: true, shuffle: true}", "a bag is one shared zone"),
    ("a row no one sees", "piles: {holds: card, seen: everyone,", "piles: {holds: card, seen: owner,",
     "a row of piles is seen by everyone"),
    ("one verb, two shapes", "give: {each: pile", "move: {each: pile", "one verb, one shape"),
    ("names and places", "from: [my.piles, my.piles]\n      if: not empty(source)",
     "from: [my.piles]\n      if: not empty(source)", "as many names as places"),
    ("last turns in a round by a value", "turn:\n", "turn:\n  order: {lowest: 0}\n",
     "last_turns gives every other player one more turn"),
    ("others is a word", "each: victim", "each: others", "a word of the rules language"),
    ("skip is the optional's", "swap:\n", "skip:\n", "'skip' is the option optional: true adds"),
    ("a row drawn as one zone", "{draw: deck, to: my.taken}", "{draw: my.piles, to: my.taken}",
     "expected a zone, found a row of zones"),
    ("a row counted", "if: count(pile) < 2, do: [{draw: my.held",
     "if: count(my.piles) < 2, do: [{draw: my.held", "needs a zone or a list, not a row of zones"),
    ("a chosen pile onto a grid", "from: [my.piles, my.piles]\n      if",
     "from: [my.piles, my.piles]\n      onto: my.held\n      if", "'onto' goes with a card chosen"),
    ("a chooser who is no player", "by: victim", "by: 3", "expected a player"),
    ("a name twice", "each: [source, target]", "each: [source, source]", "a name twice"),
    ("a name twice in a choice", "each: [first, second]", "each: [first, first]", "a name twice"),
    ("verb as a name", "each: [first, second]", "each: [first, verb]", "'verb' is a word"),
    ("dealt to a row", "- {draw: deck, to: my.taken}", "- {deal: deck, to: piles}",
     "deal gives to one zone of each player"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "old", "new", "expected"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_a_located_problem(tmp_path, name, old, new, expected):
    text = RULES.replace(
        "LAST", "{last_turns: turns >= 3}" if "last turns" in name else "turns >= 3"
    )
    assert old in text
    result = run(tmp_path, text.replace(old, new, 1))
    assert result.exit_code == 1, result.output
    first = result.output.splitlines()[0]
    assert "rules.yaml:" in first and expected in result.output, result.output

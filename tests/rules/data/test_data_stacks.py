"""Zones read as stacks (rules/data/stacks.py): `top(ZONE)` and `distinct(...)`, each
with a worked example from a rule in words, and their mistakes as located problems.

The tiny catalog: cards, in catalog order, ant (1 copy, 1 point, cost [gold]), bee
(2 copies, 3 points, cost [gold, gold]), cat (1 copy, 5 points, cost [gold]). A deck
filled with `setup: all` and not shuffled is [ant, bee, bee, cat]: its top is cat.
"""

import shutil
from pathlib import Path

import pytest
from tiny_rules import invoke, start_game, write_game

from protopress.rules.core import RulesFault

CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"}],
    "cards": [{"id": "ant", "title": "Ant", "cost": ["gold"], "points": 1},
              {"id": "bee", "title": "Bee", "count": 2, "cost": ["gold", "gold"], "points": 3},
              {"id": "cat", "title": "Cat", "cost": ["gold"], "points": 5}],
}  # fmt: skip

RULES = """
rules: 1
game: tiny
players: {min: 2, max: 2}
resources: {kind: symbol}
zones:
  deck: {holds: card, seen: nobody, setup: all}
  pile: {holds: card, seen: everyone, each: true}
setup:
  - {draw: deck, to: my.pile, n: DRAWN}
turn:
  choose:
    # "You may take the deck's top card when it is worth more than your pile's top card."
    climb:
      if: not empty(deck) and (empty(my.pile) or top(deck).points > top(my.pile).points)
      do: [{draw: deck, to: my.pile}]
    wait: {do: []}
end:
  - turns >= 2
score:
  kinds: 10 * distinct(my.pile)
  top: top(my.pile).points if not empty(my.pile) else 0
  values: distinct(card.points for card in my.pile)
  costs: distinct(card.cost for card in my.pile)
"""

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"
GOOD = (EXAMPLE / "rules.yaml").read_text()


def start(tmp_path, rules: str, drawn: int = 3):
    return start_game(write_game(tmp_path, CATALOG, rules.replace("DRAWN", str(drawn))))


def test_top_and_distinct_score_a_pile(tmp_path):
    # Seat 0 draws three at setup: cat, bee, bee (the deck's top first), so its pile is
    # [cat, bee, bee] and its top card is the last bee drawn.
    # kinds: two different cards (cat, bee): 10 * 2 = 20; top: the bee's 3 points;
    # values: points {5, 3}: 2; costs: [gold] and [gold, gold]: 2. Total 27.
    # Seat 1 drew nothing: 0 in each line.
    game, state = start(tmp_path, RULES)
    assert game.score_lines(state, 0) == [("kinds", 20), ("top", 3), ("values", 2), ("costs", 2)]
    assert game.score_lines(state, 1) == [("kinds", 0), ("top", 0), ("values", 0), ("costs", 0)]
    assert game.scores(state) == [27, 0]


def test_top_decides_an_action(tmp_path):
    # One card drawn at setup: seat 0 holds [cat] (5 points); the deck is [ant, bee, bee],
    # its top a bee (3 points). Seat 0 may not climb (3 > 5 is false): only wait.
    game, state = start(tmp_path, RULES, drawn=1)
    assert [type(act).__name__ for act in game.legal_actions(state)] == ["Wait"]
    game.apply(state, game.actions.decode(["wait"]))
    # Seat 1's pile is empty: it may climb, and takes the bee.
    assert [act[0] for act in map(game.actions.encode, game.legal_actions(state))] == [
        "climb",
        "wait",
    ]
    game.apply(state, game.actions.decode(["climb"]))
    # Seat 1: [bee]: one kind (10), top 3, one value, one cost: 15. Seat 0: [cat]: 10 + 5 + 1 + 1.
    assert game.scores(state) == [17, 15]


def test_reading_the_top_of_an_empty_zone_is_a_rules_fault(tmp_path):
    game, state = start(tmp_path, RULES.replace(" if not empty(my.pile) else 0", ""))
    with pytest.raises(RulesFault, match="score line 'top'"):
        game.scores(state)  # seat 1's pile is empty: its top card has no points


# (name, text to replace in Cottage Market's rules.yaml, its replacement, the problem)
EDITS = [
    ("top of a number", "empty(market)", "top(3)", "top(...) needs a zone, not a number"),
    ("top typo", "empty(market)", "tops(market)", "(did you mean 'top'?)"),
    (
        "field of the top card",
        "empty(market)",
        "top(market).pionts > 1",
        "'pionts' is not a field of the catalog's cards (did you mean 'points'?)",
    ),
    (
        "distinct of a number",
        "empty(market)",
        "distinct(my.gold) > 1",
        "distinct(...) needs a zone or a list, not a number",
    ),
    ("distinct typo", "empty(market)", "distinkt(market) > 1", "(did you mean 'distinct'?)"),
]


def run(tmp_path, text):
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(text)
    return invoke("simulate", "cottage-market", "--rules", tmp_path / "rules.yaml")


@pytest.mark.parametrize(("old", "new", "expected"), [e[1:] for e in EDITS], ids=[e[0] for e in EDITS])  # fmt: skip
def test_a_mistaken_top_or_distinct_is_a_located_problem(tmp_path, old, new, expected):
    assert old in GOOD
    result = run(tmp_path, GOOD.replace(old, new, 1))
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[0].startswith(str(tmp_path / "rules.yaml") + ":"), result.output
    assert "/end/1:" in lines[0], result.output
    assert any(expected in line for line in lines), result.output
    assert "Traceback" not in result.output

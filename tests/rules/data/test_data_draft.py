"""Drafting, turn structure and set scoring in the rules language, each construct with
a worked example: a tiny catalog of cards, a rule in words, and the numbers worked
out by hand.

The tiny catalog's cards, in catalog order (4 copies each): fig, fig-gold (a fig worth
2), pear, plum, quince; each has a `fruit` (fig, fig, pear, plum, quince) and `points`.
"""

import json
import random

from protopress.components.loader import load_catalog
from protopress.rules.data import scoring
from protopress.rules.data.spec import data_spec

CATALOG = {
    "game": "orchard", "title": "Orchard", "version": "1.0.0",
    "kinds": {"crop": {"collection": "crops", "size": {"width": "63mm", "height": "88mm"},
                       "fields": {"fruit": {"type": "text"}, "points": {"type": "integer"}}}},
    "crops": [
        {"id": "fig", "count": 4, "fruit": "fig", "points": 1},
        {"id": "fig-gold", "count": 4, "fruit": "fig", "points": 2},
        {"id": "pear", "count": 4, "fruit": "pear", "points": 1},
        {"id": "plum", "count": 4, "fruit": "plum", "points": 1},
        {"id": "quince", "count": 4, "fruit": "quince", "points": 3},
    ],
}  # fmt: skip
FIG, GOLD, PEAR, PLUM, QUINCE = range(5)  # cards are numbered in catalog order

RULES = """
rules: 1
game: orchard
players: {min: 1, max: 4}
zones:
  deck: {holds: crop, seen: nobody, setup: all}
  basket: {holds: crop, seen: everyone, each: true}
turn:
  choose:
    wait: {do: []}
end: [turns >= 4]
"""


def scores(tmp_path, score, baskets):
    """Every seat's score by `score` when each seat's basket holds the given cards."""
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(RULES + f"score: {json.dumps(score)}\n")
    game = data_spec(tmp_path / "rules.yaml").new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state = game.setup(catalog, len(baskets), random.Random(0), {})
    first = next(zone.first for zone in game.layout.zones if zone.name == "basket")
    for seat, cards in enumerate(baskets):
        state.piles[first + seat][:] = cards
    return game.scores(state)


# --- set collection ---


def test_counts_and_distinct_sets_by_hand():
    # fig fig pear fig plum: fig 3 times, pear once, plum once
    fruit = ["fig", "fig", "pear", "fig", "plum"]
    assert scoring.counts(fruit) == [3, 1, 1]
    # sets of different fruit: fig pear plum, then fig, then fig
    assert scoring.distinct_sets(fruit) == [3, 1, 1]
    assert scoring.distinct_sets([]) == []
    # the scale 0, 1, 3, 6 gives 6 for 3 and for anything beyond, 0 for 0
    assert [scoring.scale(n, [0, 1, 3, 6]) for n in (0, 2, 3, 7)] == [0, 3, 6, 6]


def test_sets_of_different_fruit_score_by_a_scale(tmp_path):
    # rule: each set of different fruit scores 1, 3, 6, 10 for 1, 2, 3, 4 fruit.
    # seat 0: fig, fig-gold, pear, plum, quince, plum: fruit fig fig pear plum quince plum
    #   sets: fig pear plum quince (4: 10), fig plum (2: 3) = 13
    # seat 1: pear, pear, pear: three sets of one (1 + 1 + 1) = 3
    score = "sum(scale(n, 0, 1, 3, 6, 10) for n in distinct_sets(c.fruit for c in my.basket))"
    baskets = [[FIG, GOLD, PEAR, PLUM, QUINCE, PLUM], [PEAR, PEAR, PEAR]]
    assert scores(tmp_path, score, baskets) == [13, 3]


def test_sets_of_equal_fruit(tmp_path):
    # rule: every 3 cards of the same fruit score 5 (a fig-gold is a fig too), and every
    # pair of the same card (by id) 1.
    # seat 0: fig fig-gold fig pear pear: figs 3 -> 5; pairs by card: fig 2 -> 1,
    #   pear 2 -> 1: 7
    # seat 1: quince quince plum: no three alike; quince pair 1: 1
    score = "5 * sum(n // 3 for n in counts(c.fruit for c in my.basket)) + sum(n // 2 for n in counts(my.basket))"  # fmt: skip
    baskets = [[FIG, GOLD, FIG, PEAR, PEAR], [QUINCE, QUINCE, PLUM]]
    assert scores(tmp_path, score, baskets) == [7, 1]


# --- majorities ---

FIGS = "count(c for c in my.basket if c.fruit == 'fig')"


def test_majority_ties_split(tmp_path):
    # rule: most figs scores 6, second most 3; tied players split their places' points,
    # rounded down; no figs, no place.
    # figs: seat 0 2, seat 1 2, seat 2 1, seat 3 0
    # seats 0 and 1 tie for first: (6 + 3) // 2 = 4 each; seat 2 is third: nothing left
    baskets = [[FIG, GOLD], [FIG, FIG, PEAR], [FIG], [PEAR]]
    assert scores(tmp_path, f"most({FIGS}, 'split', 6, 3)", baskets) == [4, 4, 0, 0]
    # seat 0 alone first (6); seats 1 and 2 tie for second: 3 // 2 = 1 each
    baskets = [[FIG, GOLD, FIG], [FIG], [GOLD], []]
    assert scores(tmp_path, f"most({FIGS}, 'split', 6, 3)", baskets) == [6, 1, 1, 0]


def test_majority_ties_each(tmp_path):
    # rule: most figs scores 6, second most 3; tied players each get their place's points
    # and the next player's place counts them all.
    # figs 2, 2, 1, 0: seats 0 and 1 each 6; seat 2 is third: 0; seat 3 no figs: 0
    baskets = [[FIG, GOLD], [FIG, FIG, PEAR], [FIG], [PEAR]]
    assert scores(tmp_path, f"most({FIGS}, 'each', 6, 3)", baskets) == [6, 6, 0, 0]


def test_fewest(tmp_path):
    # rule: the fewest figs loses 4 (ties: each loses 4); figs 2, 0, 0
    baskets = [[FIG, GOLD], [PEAR], []]
    assert scores(tmp_path, f"fewest({FIGS}, 'each', -4)", baskets) == [0, -4, -4]
    # split: two tied for fewest share -4 + 0 = -2 each
    assert scores(tmp_path, f"fewest({FIGS}, 'split', -4)", baskets) == [0, -2, -2]

"""Drafting, turn structure and set scoring in the rules language, each construct with
a worked example: a tiny catalog of cards, a rule in words, and the numbers worked
out by hand.

The tiny catalog's cards, in catalog order (4 copies each): fig, fig-gold (a fig worth
2), pear, plum, quince; each has a `fruit` (fig, fig, pear, plum, quince) and `points`.
"""

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components.loader import load_catalog
from protopress.rules.core import IllegalAction
from protopress.rules.data import scoring
from protopress.rules.data.spec import data_spec
from protopress.rules.fairness import TwinsDiffer, check_twins
from protopress.rules.information import Private, SeatView
from protopress.rules.simulate import play as simulate_play

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
LOCATED = re.compile(r"^\S*rules\.yaml:\d+:\d+ /\S*: .+")
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "tidewrack"

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


# --- turn structure ---


def play(tmp_path, rules, players, options=None):
    """A game of the tiny catalog by the rules text; its game and state."""
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(rules)
    game = data_spec(tmp_path / "rules.yaml").new_game()
    state = game.setup(load_catalog(tmp_path / "catalog.json"), players, random.Random(0), options or {})  # fmt: skip
    return game, state


def act(game, state, verb, *choice):
    """Apply the legal action verb (with that choice); fail when it is not legal."""
    found = [a for a in game.legal_actions(state) if a.verb == verb and tuple(a)[: len(choice)] == choice]  # fmt: skip
    assert found, (verb, choice, game.legal_actions(state))
    game.apply(state, found[0])


def verbs(game, state):
    return sorted(a.verb for a in game.legal_actions(state))


GOLD_RULES = """
rules: 1
game: orchard
players: {min: 1, max: 4}
resources: [gold]
zones:
  deck: {holds: crop, seen: nobody, setup: all}
turn:
  TURN
  choose:
    small: {do: [{gain: gold}]}
    big: {do: [{gain: gold, n: 3}]}
end: [END]
score: my.gold
"""


def gold_rules(turn, end="turns >= 12"):
    return GOLD_RULES.replace("TURN", turn).replace("END", end)


def test_up_to_two_actions_and_done(tmp_path):
    # rule: a turn is up to 2 actions; after the first, a player may say done instead.
    game, state = play(tmp_path, gold_rules("actions: 2"), 2)
    assert verbs(game, state) == ["big", "small"]  # no done before an action
    with pytest.raises(IllegalAction):
        game.apply(state, game.actions.decode(["done"]))
    act(game, state, "small")  # seat 0: 1 gold, its turn goes on
    assert (state.seat, state.turns, verbs(game, state)) == (0, 0, ["big", "done", "small"])
    act(game, state, "big")  # the second action ends the turn: 1 + 3 = 4 gold
    assert (state.seat, state.turns, game.scores(state)) == (1, 1, [4, 0])
    act(game, state, "big")  # seat 1: 3 gold, then done
    act(game, state, "done")
    assert (state.seat, state.turns, game.scores(state)) == (0, 2, [4, 3])


def test_done_is_offered_when_nothing_else_is(tmp_path):
    # rule: small (1 gold) only while a player has none, big only from 100 gold; up to 2
    # actions a turn. Seat 0 takes small; then nothing but done. On its next turn it
    # has 1 gold: nothing at all is offered, so done is, and the turn passes.
    rules = gold_rules("actions: 2").replace("small: {do:", "small: {if: my.gold < 1, do:")
    rules = rules.replace("big: {do:", "big: {if: my.gold >= 100, do:")
    game, state = play(tmp_path, rules, 2)
    assert verbs(game, state) == ["small"]
    act(game, state, "small")
    assert (state.seat, verbs(game, state)) == (0, ["done"])
    act(game, state, "done")
    act(game, state, "small")
    act(game, state, "done")
    assert (state.seat, state.turns, verbs(game, state)) == (0, 2, ["done"])
    act(game, state, "done")
    assert (state.seat, state.turns, game.scores(state)) == (1, 3, [1, 1])


def test_turn_order_by_lowest_and_highest(tmp_path):
    # round 1: everyone has 0 gold, ties go by seat: 0, 1, 2. Seat 0 takes big (3),
    # seat 1 small (1), seat 2 big (3). Round 2, lowest gold first: seat 1 (1), then
    # seats 0 and 2 (3 each, by seat): 1, 0, 2. Highest first: 0, 2 (tied on 3), 1.
    for order, expected in (("lowest", [1, 0, 2]), ("highest", [0, 2, 1])):
        folder = tmp_path / order
        folder.mkdir()
        game, state = play(folder, gold_rules(f"order: {{{order}: my.gold}}"), 3)
        seen = []
        for verb in ("big", "small", "big"):
            seen.append(state.seat)
            act(game, state, verb)
        assert seen == [0, 1, 2]
        for verb in ("small", "small", "small"):
            seen.append(state.seat)
            act(game, state, verb)
        assert seen[3:] == expected, order


def test_a_player_triggers_the_last_round(tmp_path):
    # rule: when a player ends a turn with 3 gold or more, the round is finished and the
    # game ends. Seat 0 small (1), seat 1 big (3: triggers), seat 2 still plays.
    rules = gold_rules("order: clockwise", end="{last_round: my.gold >= 3}")
    game, state = play(tmp_path, rules, 3)
    act(game, state, "small")
    act(game, state, "big")
    assert not game.is_over(state) and state.seat == 2
    act(game, state, "small")
    assert game.is_over(state)
    assert game.scores(state) == [1, 3, 1]


def test_a_round_of_two_phases(tmp_path):
    # rule: a round is an earning phase (everyone, in seat order, takes small: 1 gold),
    # then a spending phase (big, 3 gold, or small); the game ends after round 2.
    # 2 players: turns 0-1 earn, 2-3 spend (round 1), 4-5 earn, 6-7 spend (round 2).
    rules = gold_rules("phases: {earn: [small], spend: [big, small]}", end="round > 2")
    game, state = play(tmp_path, rules, 2)
    phases = []
    for verb in ("small", "small", "big", "small", "small", "small", "big", "big"):
        assert not game.is_over(state)
        phases.append((state.seat, verbs(game, state)))
        act(game, state, verb)
    assert phases == [
        (0, ["small"]), (1, ["small"]), (0, ["big", "small"]), (1, ["big", "small"]),
        (0, ["small"]), (1, ["small"]), (0, ["big", "small"]), (1, ["big", "small"]),
    ]  # fmt: skip
    assert game.is_over(state) and state.turns == 8
    # seat 0: 1 + 3 + 1 + 3 = 8; seat 1: 1 + 1 + 1 + 3 = 6
    assert game.scores(state) == [8, 6]


@pytest.mark.parametrize(("turn", "expected"), [
    ("phases: {earn: [smal], spend: [big]}", "'smal' is not an action of turn.choose (did you mean 'small'?)"),  # fmt: skip
    ("phases: {earn: [small]}", "'big' is in no phase: no one can ever take it"),
])  # fmt: skip
def test_a_mistaken_phase_is_located(tmp_path, turn, expected):
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(gold_rules(turn))
    result = CliRunner().invoke(cli, ["simulate", "orchard", "--rules", str(tmp_path / "rules.yaml")])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert LOCATED.match(result.output.splitlines()[0]), result.output
    assert expected in result.output


DRAFT_RULES = """
rules: 1
game: orchard
players: {min: 2, max: 4}
zones:
  deck: {holds: crop, seen: nobody, setup: all, shuffle: true}
  hand: {holds: crop, seen: owner, each: true}
  picked: {holds: crop, seen: owner, each: true}
  basket: {holds: crop, seen: everyone, each: true}
setup: [{deal: deck, to: hand, n: 2}]
turn:
  pass: {zone: hand, to: DIRECTION}
  after_round:
    - each_player: [{draw: my.picked, to: my.basket}]
  choose:
    pick: {each: crop, from: my.hand, do: [{move: crop, to: my.picked}]}
end: [empty(my.hand)]
score: sum(c.points for c in my.basket)
"""


@pytest.mark.parametrize(("direction", "after"), [
    # left: seat 0's fig goes to seat 1, seat 1's quince to seat 2, seat 2's fig to seat 0
    ("left", [[FIG], [FIG], [QUINCE]]),
    # right: seat 0's fig goes to seat 2, seat 1's quince to seat 0, seat 2's fig to seat 1
    ("right", [[QUINCE], [FIG], [FIG]]),
])  # fmt: skip
def test_a_draft_picks_hidden_then_passes(tmp_path, direction, after):
    # hands: seat 0 fig pear, seat 1 plum quince, seat 2 fig-gold fig. Each picks one
    # card face down: pear, plum, fig-gold. The picks show only when all have picked.
    game, state = play(tmp_path, DRAFT_RULES.replace("DIRECTION", direction), 3)
    zones = {zone.name: zone.first for zone in game.layout.zones}
    hand, picked, basket = zones["hand"], zones["picked"], zones["basket"]
    for seat, cards in enumerate([[FIG, PEAR], [PLUM, QUINCE], [GOLD, FIG]]):
        state.piles[hand + seat][:] = cards
    act(game, state, "pick", "pear")
    act(game, state, "pick", "plum")
    assert state.piles[picked : picked + 2] == [[PEAR], [PLUM]]
    assert state.piles[basket : basket + 3] == [[], [], []]  # nothing shown yet
    act(game, state, "pick", "fig-gold")
    assert state.piles[basket : basket + 3] == [[PEAR], [PLUM], [GOLD]]
    assert state.piles[picked : picked + 3] == [[], [], []]
    assert state.piles[hand : hand + 3] == after
    # round 2: each picks the card passed to it; pear 1 + fig... points by hand below
    for _ in range(3):
        act(game, state, "pick")
    assert game.is_over(state)
    # left: seat 0 pear (1) + fig (1) = 2; seat 1 plum (1) + fig (1) = 2; seat 2
    # fig-gold (2) + quince (3) = 5
    expected = {"left": [2, 2, 5], "right": [4, 2, 3]}[direction]
    # right: seat 0 pear + quince = 4; seat 1 plum + fig = 2; seat 2 fig-gold + fig = 3
    assert game.scores(state) == expected


def test_two_zones_joined_by_plus(tmp_path):
    # rule: a point per fig in the basket and the picked card together. Seat 0's basket
    # fig, pear; picked fig-gold: figs 2. Seat 1: basket plum, picked fig: 1.
    game, state = play(tmp_path, DRAFT_RULES.replace("DIRECTION", "left").replace(
        "score: sum(c.points for c in my.basket)",
        "score: count(c for c in my.basket + my.picked if c.fruit == 'fig')"), 2)  # fmt: skip
    zones = {zone.name: zone.first for zone in game.layout.zones}
    state.piles[zones["basket"] : zones["basket"] + 2] = [[FIG, PEAR], [PLUM]]
    state.piles[zones["picked"] : zones["picked"] + 2] = [[GOLD], [FIG]]
    assert game.scores(state) == [2, 1]


def test_a_drafts_hands_and_picks_are_hidden_as_one():
    """Along a game of Tidewrack (4 players), no bot may choose otherwise when the
    others' hands and face-down picks are dealt again from what it cannot see. Hidden
    apart (a Private each, both pooled with the strand), the hands' resampling would
    carry into the picks' what it left in the strand: the twins differ."""
    game = data_spec(EXAMPLE / "rules.yaml").new_game()
    state = game.setup(load_catalog(EXAMPLE / "catalog.json"), 4, random.Random(0), {})
    view = game.seat_view
    assert [type(entry).__name__ for entry in view.hidden] == ["Private"]  # strand pooled in it
    pool = view.hidden[0].pool
    hand, picked = (next(z.first for z in game.layout.zones if z.name == n) for n in ("hand", "picked"))  # fmt: skip
    apart = SeatView((
        Private("hand", lambda s: s.piles[hand : hand + s.players], pool),
        Private("picked", lambda s: s.piles[picked : picked + s.players], pool),
    ))  # fmt: skip
    rng, differ = random.Random(0), 0
    while not game.is_over(state):
        if state.turns % 4:  # a seat after the first of a round: picks lie face down
            check_twins(game, state, state.turns)
            game.seat_view = apart  # the bots' seat copies too
            try:
                check_twins(game, state, state.turns)
            except TwinsDiffer:
                differ += 1
            del game.seat_view  # the game's own again
        game.apply(state, rng.choice(game.legal_actions(state)))
    assert differ > 0


# --- the example: Tidewrack ---

RULES_FILE = EXAMPLE / "rules.yaml"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_readmes_trays_by_hand():
    """The three trays worked out in examples/tidewrack/README.md, scored by its rules:
    A shells 10 + 3, crabs 5, kelp 1 (tied second), starfish 6, pearls 2, collector 4;
    B 0, 10, 6, 10, 8, 0; C 20, 0, 1, 3, 4, 4."""
    game = data_spec(RULES_FILE).new_game()
    catalog = load_catalog(EXAMPLE / "catalog.json")
    state = game.setup(catalog, 3, random.Random(0), {})
    ids = game.model(catalog).cards.ids
    trays = [
        ["cowrie"] * 2 + ["whelk"] * 2 + ["scallop", "cockle"] + ["crab"] * 3
        + ["kelp-3", "kelp-1"] + ["starfish"] * 3 + ["pearl"],
        ["kelp-3", "kelp-2", "kelp-2"] + ["pearl"] * 4 + ["crab"] * 4 + ["starfish"] * 4,
        ["kelp-3", "kelp-1"] + ["cowrie", "whelk", "scallop", "cockle"] * 2 + ["crab"]
        + ["starfish"] * 2 + ["pearl"] * 2,
    ]  # fmt: skip
    zones = {zone.name: zone.first for zone in game.layout.zones}
    for seat, tray in enumerate(trays):
        assert len(tray) == 15
        state.piles[zones["tray"] + seat][:] = [ids.index(find) for find in tray]
        state.piles[zones["picked"] + seat][:] = []
    names = ["shells", "crabs", "kelp", "starfish", "pearls", "collector"]
    lines = [dict(game.score_lines(state, seat)) for seat in range(3)]
    assert [[line[name] for name in names] for line in lines] == [
        [13, 5, 1, 6, 2, 4], [0, 10, 6, 10, 8, 0], [20, 0, 1, 3, 4, 4],
    ]  # fmt: skip
    assert game.scores(state) == [31, 34, 32]


def test_the_example_simulates_and_replays(tmp_path):
    result = invoke("simulate", "tidewrack", "--rules", RULES_FILE, "--games", "2", "--players", "4",
                    "--log-dir", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    log = json.loads((tmp_path / "game-00000.json").read_text())
    # 3 tides of 5 picks for each of 4 players
    assert len(log["actions"]) == 60 and log["actions"][0][0] == "pick" and not game["limit"]
    replay = invoke("replay", tmp_path / "game-00000.json", "--rules", RULES_FILE)
    assert replay.exit_code == 0, replay.output
    assert "shells" in replay.output and "collector" in replay.output


def test_the_example_renders(tmp_path):
    result = invoke("render", EXAMPLE / "catalog.json", "--layouts", EXAMPLE / "layouts",
                    "-o", tmp_path, "--layout", "sheets")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "find-sheets.pdf").stat().st_size > 0


def test_the_example_balances_and_greedy_beats_random(tmp_path):
    out = tmp_path / "balance.json"
    result = invoke("balance", "tidewrack", "--rules", RULES_FILE, "--games", "30", "--rotate",
                    "--players", "3", "--bot", "greedy", "--bot", "random", "--bot", "random",
                    "--json", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text())
    assert run["game"] == "tidewrack" and len(run["records"]) == 30
    # one greedy seat of three: a fair share is 10 wins of 30; greedy aims at its score
    greedy_wins = sum(any(record["bots"][seat] == "greedy" for seat in record["winners"])
                      for record in run["records"])  # fmt: skip
    assert greedy_wins >= 13


def test_the_example_conforms():
    result = invoke("conform", "tidewrack", "--rules", RULES_FILE, "--games", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "tidewrack conforms"


def test_the_search_bot_plays_the_example():
    result = invoke("simulate", "tidewrack", "--rules", RULES_FILE, "--games", "1", "--players", "3",
                    "--bot", "mcts:30", "--bot", "random", "--bot", "random",
                    "--option", "tides=1", "--option", "hand=3", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    assert game["decisions"] == 9 and not game["limit"]


# --- mistakes in drafting, turns and set scoring: located, exit 1 ---

GOOD = RULES_FILE.read_text()
SHELLS = "distinct_sets(f.species for f in my.tray + my.picked if f.family == 'shell')"
KELP = "most(sum(f.fronds for f in my.tray + my.picked), 'split', 6, 3)"
STARS = "scale(count(f for f in my.tray + my.picked if f.family == 'starfish'), 0, 1, 3, 6, 10, 15)"
EDITS = [
    (
        "pass a typo",
        "zone: hand, to: left",
        "zone: hnad, to: left",
        "'hnad' is not a zone (did you mean 'hand'?)",
    ),  # fmt: skip
    (
        "pass a shared zone",
        "zone: hand, to: left",
        "zone: strand, to: left",
        "not a zone of each player",
    ),  # fmt: skip
    ("pass up", "zone: hand, to: left", "zone: hand, to: up", "/turn/pass/to"),
    ("no actions", "  order: clockwise\n", "  order: clockwise\n  actions: 0\n", "/turn/actions"),
    (
        "an action named done",
        "  choose:\n    pick:",
        "  actions: 2\n  choose:\n    done:",
        "'done' is the action that ends a turn",
    ),  # fmt: skip
    (
        "order a typo",
        "order: clockwise",
        "order: {lowest: count(my.tary)}",
        "(did you mean 'tray'?)",
    ),  # fmt: skip
    (
        "order a flag",
        "order: clockwise",
        "order: {lowest: empty(my.tray)}",
        "expected a number, found true or false",
    ),  # fmt: skip
    ("order by speed", "order: clockwise", "order: {fastest: 1}", "/turn/order"),
    (
        "last round a typo",
        "  - turns >= option.tides",
        "  - {last_round: count(my.tary) > 3}\n  - turns >= option.tides",
        "/end/0/last_round",
    ),  # fmt: skip
    (
        "last round and more",
        "  - turns >= option.tides",
        "  - {last_round: true, when: 3}\n  - turns >= option.tides",
        "/end/0",
    ),  # fmt: skip
    (
        "after round a typo",
        "{draw: my.picked, to: my.tray}",
        "{draw: my.picked, to: my.tary}",
        "/turn/after_round/0/each_player/0/to",
    ),  # fmt: skip
    (
        "ties spilt",
        "'split', 6, 3",
        "'spilt', 6, 3",
        "ties are 'split' or 'each' (did you mean 'split'?)",
    ),  # fmt: skip
    (
        "most without points",
        KELP,
        "most(sum(f.fronds for f in my.tray), 'split')",
        "most takes most(X, 'split' or 'each'",
    ),  # fmt: skip
    ("most of text", KELP, "most('many', 'each', 4)", "most(...) needs a number here, not text"),
    (
        "most of a zone",
        KELP,
        "most(my.tray, 'each', 4)",
        "most(...) needs a number here, not a zone",
    ),  # fmt: skip
    ("scale alone", STARS, "scale(count(my.tray))", "scale takes a number and the points"),
    ("scale of text", STARS, "scale('three', 1, 3)", "scale(...) needs a number here, not text"),
    ("sets of two", SHELLS, "distinct_sets(my.tray, my.picked)", "distinct_sets takes one"),
    (
        "sets of a number",
        SHELLS,
        "distinct_sets(3)",
        "`for` goes through a zone or a list, not a number",
    ),  # fmt: skip
    (
        "a zone plus a number",
        "my.tray + my.picked if f.family == 'crab'",
        "my.tray + 3 if f.family == 'crab'",
        "arithmetic needs numbers",
    ),  # fmt: skip
]


def run(tmp_path, text):
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(text)
    return CliRunner().invoke(cli, ["simulate", "tidewrack", "--players", "3", "--rules", str(tmp_path / "rules.yaml")])  # fmt: skip


def test_the_example_is_valid(tmp_path):
    assert run(tmp_path, GOOD).exit_code == 0


@pytest.mark.parametrize(("old", "new", "expected"), [e[1:] for e in EDITS], ids=[e[0] for e in EDITS])  # fmt: skip
def test_a_mistake_is_a_located_problem(tmp_path, old, new, expected):
    assert old in GOOD
    result = run(tmp_path, GOOD.replace(old, new, 1))
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and LOCATED.match(lines[0]), result.output
    assert any(expected in line for line in lines), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_the_docs_examples_play_tidewrack(tmp_path):
    """docs/data-rules.md's score lines of set collection and majorities, in place of
    Tidewrack's own, and its turn block's order by a value, two actions a turn and
    last round (the value read from the tray: Tidewrack has no gold): they play."""
    doc = (EXAMPLE.parents[1] / "docs" / "data-rules.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", doc, flags=re.DOTALL)
    score = next(block for block in blocks if block.startswith("score:\n  shells:"))
    turn = next(block for block in blocks if block.startswith("turn:\n  order: {lowest"))
    text = GOOD[: GOOD.index("score:")] + score
    text = text.replace("order: clockwise", "order: {lowest: count(my.tray)}\n  actions: 2")
    assert "my.gold" in turn and "{last_round: count(my.tray) >= 12}" in turn
    text = text.replace("end:\n", "end:\n  - {last_round: count(my.tray) >= 12}\n")
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(text)
    game = data_spec(tmp_path / "rules.yaml").new_game()
    catalog = load_catalog(tmp_path / "catalog.json")
    state, record, actions = simulate_play(game, catalog, ["greedy", "random", "random"], 3)
    assert not record.limit and game.is_over(state)
    assert [name for name, _ in game.score_lines(state, 0)] == [
        "shells", "crabs", "triples", "kelp", "collector",
    ]  # fmt: skip

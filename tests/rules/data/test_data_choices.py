"""Choices an action makes beyond its card, each with a worked example: trades with the
supply as actions, a player choosing how to pay, rerolling some dice of a pool, and a
tile turned as it is placed. A tiny catalog, a rule in words, and the legal actions and
numbers worked out by hand in a comment.

The tiny catalog: symbols gold, wood, star (the resources, in that order); die faces
one, two, six (in catalog order); square tiles grove (banks on every side) and ford (a
brook from its n side to its s side, banks e and w); hex tiles spring (a brook on its
ne side only). Rolls are random.Random's: a die of faces F shows F[randrange(len(F))],
die after die, from the game's seed.
"""

import json
import random
import re
from pathlib import Path

import pytest
from tiny_rules import TinyRules, invoke, legal, merged_into

from protopress.components.loader import load_catalog
from protopress.components.yamlsource import parse_yaml
from protopress.rules.core import IllegalAction
from protopress.rules.data.model import HOLE
from protopress.rules.data.payment import MAX_WAYS, Payment, ways_to_pay
from protopress.rules.data.spec import data_spec
from protopress.rules.simulate import play

SIDE = {"type": "text", "enum": ["brook", "bank"]}
CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "kinds": {
        "face": {"collection": "faces", "size": "token", "fields": {
            "good": {"type": "reference", "to": "symbols"},
            "pips": {"type": "integer", "minimum": 0, "maximum": 6}}},
        "tile": {"collection": "tiles", "size": {"width": "30mm", "height": "30mm"},
                 "fields": {"n": SIDE, "e": SIDE, "s": SIDE, "w": SIDE}},
        "hex": {"collection": "hexes", "size": {"width": "30mm", "height": "30mm"},
                "fields": {side: SIDE for side in ("ne", "e", "se", "sw", "w", "nw")}},
    },
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"},
                {"id": "star", "name": "Star", "shape": "star", "colour": "#888888"}],
    "faces": [{"id": "one", "good": "gold", "pips": 1}, {"id": "two", "good": "wood", "pips": 2},
              {"id": "six", "good": "star", "pips": 6}],
    "tiles": [
        {"id": "grove", "count": 2, "n": "bank", "e": "bank", "s": "bank", "w": "bank"},
        {"id": "ford", "count": 2, "n": "brook", "e": "bank", "s": "brook", "w": "bank"},
    ],
    "hexes": [{"id": "spring", "count": 2, "ne": "brook", "e": "bank", "se": "bank",
               "sw": "bank", "w": "bank", "nw": "bank"}],
}  # fmt: skip
ONE, TWO, SIX = 0, 1, 2  # faces are numbered in catalog order
GOLD, WOOD, STAR = 0, 1, 2  # places in a pool

HEAD = """
rules: 1
game: tiny
players: {min: 1, max: 2}
resources: {kind: symbol}
"""


TINY = TinyRules(CATALOG, HEAD, end="- turns >= 6")
write, start = TINY.write, TINY.start


def do(game, state, logged):
    game.apply(state, game.actions.decode(logged))


# --- trades with the supply ----------------------------------------------------------

TRADES = """
zones:
  pool: {holds: face, seen: everyone, dice: 1}
setup: [{each_player: [{gain: wood, n: 3}, {gain: gold, n: 2}]}]
turn:
  choose:
    swap: {trade: {alike: 3}}
    mill: {trade: {give: [wood, wood], get: star}, do: [{gain: gold}]}
    wait: {do: []}
"""


def test_a_trade_of_three_alike_is_offered_for_each_kind_held_and_each_other_kind(tmp_path):
    # "Trade 3 alike for 1 of any other." Each player holds gold 2, wood 3: only wood
    # comes 3 alike, for gold or star. "Mill: 2 wood for a star (and a gold)": 3 wood pay.
    game, state = start(tmp_path, TRADES)
    assert legal(game, state) == [["swap", "wood", "gold"], ["swap", "wood", "star"],
                                  ["mill"], ["wait"]]  # fmt: skip
    # seat 0 swaps 3 wood for a star: gold 2, wood 0, star 1
    do(game, state, ["swap", "wood", "star"])
    assert state.pools[0] == [2, 0, 1]
    # seat 1 mills: wood 3 - 2 = 1, a star, and the mill's gold: gold 3
    do(game, state, ["mill"])
    assert state.pools[1] == [3, 1, 1]
    # seat 0 has no 3 alike and no 2 wood: only waiting is left
    assert legal(game, state) == [["wait"]]
    with pytest.raises(IllegalAction):
        do(game, state, ["swap", "gold", "star"])  # 2 gold are not 3 alike
    with pytest.raises(IllegalAction):
        do(game, state, ["mill"])


def test_a_trade_never_gets_what_it_gives(tmp_path):
    game, state = start(tmp_path, TRADES)
    with pytest.raises(IllegalAction):
        do(game, state, ["swap", "wood", "wood"])
    assert state.pools[0] == [2, 3, 0]


# --- choosing how to pay ---------------------------------------------------------------

BUILD = """
payment: {wild: [star], trade: 2}
zones:
  pool: {holds: face, seen: everyone, dice: 1}
setup: [{each_player: [{gain: gold}, {gain: wood, n: 3}, {gain: star}]}]
turn:
  choose:
    build: {pay: [gold, wood], do: [{gain: star, n: 5}]}
    wait: {do: []}
"""


def test_a_player_chooses_among_the_distinct_ways_to_pay(tmp_path):
    # "A star pays for any one resource; any 2 alike pay for 1 of another." Build costs
    # a gold and a wood; the player holds gold 1, wood 3, star 1. The gold is paid by the
    # gold, the star, or 2 wood; the wood by a wood, the star, or 2 gold (only 1 held):
    #   gold + wood          (the fixed order: exact first; offered first)
    #   gold + star          (the star pays the wood)
    #   wood + star          (the star pays the gold)
    #   wood + wood + wood   (2 wood pay the gold, a wood the wood)
    #   wood + wood + star   (2 wood pay the gold, the star the wood)
    # and no more: the star cannot pay both, and 2 gold are not held.
    game, state = start(tmp_path, BUILD)
    assert legal(game, state) == [
        ["build", "gold+wood"], ["build", "gold+star"], ["build", "wood+star"],
        ["build", "wood+wood+wood"], ["build", "wood+wood+star"], ["wait"],
    ]  # fmt: skip
    # seat 0 keeps its gold: wood and star paid; gold 1, wood 2, star 0 + 5
    do(game, state, ["build", "wood+star"])
    assert state.pools[0] == [1, 2, 5]
    # a way that does not pay the cost is refused, the pool untouched
    with pytest.raises(IllegalAction):
        do(game, state, ["build", "star+star"])
    with pytest.raises(IllegalAction):
        do(game, state, ["build", "wood+gold"])  # gold+wood, written out of order
    assert state.pools[1] == [1, 3, 1]


def test_equal_payments_are_one_choice_and_the_ways_are_bounded():
    payment = Payment(wild=(STAR,), trade=2)
    # 2 gold owed from gold 1, star 2: gold+star (either gold paid by the star: one way),
    # star+star; 2 wood would pay one gold but none is held.
    assert ways_to_pay(payment, [1, 0, 2], [(GOLD, 2)]) == [(1, 0, 1), (0, 0, 2)]
    # 4 gold owed from gold 4, wood 8, star 4: each gold paid by a gold, a star or 2 wood,
    # 15 mixes of the three (6 choose 2); 12 are offered, the fixed order (4 gold) first
    ways = ways_to_pay(payment, [4, 8, 4], [(GOLD, 4)])
    assert len(ways) == MAX_WAYS == 12 and ways[0] == (4, 0, 0)
    assert len(set(ways)) == len(ways)
    # what the fixed order cannot pay is not offered
    assert ways_to_pay(payment, [0, 1, 0], [(GOLD, 1)]) == []


def test_pay_without_a_payment_is_the_exact_cost(tmp_path):
    # No `payment`: one way, the exact resources; not offered when they are short.
    body = BUILD.replace("payment: {wild: [star], trade: 2}\n", "")
    game, state = start(tmp_path, body)
    assert legal(game, state) == [["build", "gold+wood"], ["wait"]]
    do(game, state, ["build", "gold+wood"])
    assert state.pools[0] == [0, 2, 6]
    do(game, state, ["wait"])
    assert legal(game, state) == [["wait"]]  # seat 0 has no gold left


def test_the_cost_is_read_from_the_chosen_card(tmp_path):
    # "Take a die, paying its good; a star pays for any one resource." Every die shows
    # one (good: gold). Each player holds gold 1, star 1: the gold pays (the fixed
    # order's way, first), or the star does. Seat 0 pays with the star: gold 1 left.
    body = """
payment: {wild: [star]}
zones:
  pool: {holds: face, seen: everyone, dice: 2, faces: [one]}
  kept: {holds: face, seen: everyone, each: true}
setup: [{roll: pool}, {each_player: [{gain: gold}, {gain: star}]}]
turn:
  choose:
    take: {each: die, from: pool, distinct: true, pay: die.good, do: [{move: die, to: my.kept}]}
"""
    game, state = start(tmp_path, body)
    assert legal(game, state) == [["take", "one", "gold"], ["take", "one", "star"]]
    do(game, state, ["take", "one", "star"])
    assert state.pools[0] == [1, 0, 0] and state.piles[0] == [ONE]


# --- rerolling some dice ---------------------------------------------------------------

REROLL = """
zones:
  pool: {holds: face, seen: everyone, dice: 3}
setup: [{roll: pool}]
turn:
  choose:
    again: {reroll: pool, times: 2}
    fresh: {do: [{roll: pool}]}
"""


def test_a_reroll_lists_each_distinct_set_of_dice_then_rolls_them(tmp_path):
    # Seed 1: the three dice show faces[randrange(3)] = 0, 2, 0: one, six, one. "Roll
    # again any of your dice": the sets of faces, one or two ones with or without the six:
    # six; one; one+six; one+one; one+one+six (3 x 2 - 1 = 5 choices).
    game, state = start(tmp_path, REROLL)
    rng = random.Random(1)
    assert [rng.randrange(3) for _ in range(3)] == [ONE, SIX, ONE]
    assert state.piles[0] == [ONE, SIX, ONE]
    assert legal(game, state) == [["again", "six"], ["again", "one"], ["again", "one+six"],
                                  ["again", "one+one"], ["again", "one+one+six"],
                                  ["fresh"]]  # fmt: skip
    # reroll one+six: the first one (place 0) and the six (place 1) roll again, the next
    # two draws of the seed: randrange(3) = 1, 0: two, one. The pool: two, one, one.
    do(game, state, ["again", "one+six"])
    assert [rng.randrange(3) for _ in range(2)] == [TWO, ONE]
    assert state.piles[0] == [TWO, ONE, ONE]
    # "up to 2 times": seat 1 rerolls the two (place 0) once more, the next draw; then no
    # reroll is offered until a roll
    do(game, state, ["again", "two"])
    assert state.piles[0] == [rng.randrange(3), ONE, ONE]
    assert legal(game, state) == [["fresh"]]
    # a fresh roll of the three dice (the next three draws) offers rerolls again: as many
    # as the sets of its faces, (copies + 1) multiplied over its faces, less the empty set
    do(game, state, ["fresh"])
    rolled = [rng.randrange(3) for _ in range(3)]
    assert state.piles[0] == rolled
    sets = 1
    for face in set(rolled):
        sets *= rolled.count(face) + 1
    assert sum(action[0] == "again" for action in legal(game, state)) == sets - 1
    with pytest.raises(IllegalAction):
        do(game, state, ["again", "pearl"])


def test_a_reroll_of_faces_not_in_the_pool_is_refused(tmp_path):
    game, state = start(tmp_path, REROLL)  # one, six, one
    for wrong in ("six+six", "two", "six+one", ""):
        with pytest.raises(IllegalAction):
            do(game, state, ["again", wrong])
    assert state.piles[0] == [ONE, SIX, ONE]


# --- a tile turned as it is placed -----------------------------------------------------

LAY = """
zones:
  bag: {holds: tile, seen: everyone, setup: all}
  field: {holds: tile, seen: everyone, each: true, grid: {shape: square, width: 3, height: 3}}
turn:
  choose:
    lay:
      each: tile
      from: bag
      distinct: true
      onto: my.field
      rotate: true
      touch: true
      match: edge(tile, side) == edge(neighbour, facing)
      do: [{place: tile}]
"""


def test_a_tile_is_offered_in_each_distinct_turn_and_matched_as_turned(tmp_path):
    # The ford (brook n-s, banks e-w) turned once clockwise shows brook e-w, banks n-s;
    # turned twice it is as it was, three times as once: two distinct turns. The grove,
    # banks all round, has one. On the empty 3 x 3 field any cell: grove 9, ford 9 x 2.
    body = LAY
    game, state = start(tmp_path, body, players=1, score="count(t for t in my.field if edge(t, 'e') == 'brook')")  # fmt: skip
    actions = legal(game, state)
    assert actions[:9] == [["lay", "grove", cell, 0] for cell in
                           ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")]  # fmt: skip
    assert [a for a in actions if a[1] == "ford" and a[2] == "b2"] == [
        ["lay", "ford", "b2", 0], ["lay", "ford", "b2", 1]]  # fmt: skip
    assert len(actions) == 9 + 18
    # lay the ford on b2 turned once: its brook runs e-w, which the score reads (1 tile
    # with a brook on its e side)
    do(game, state, ["lay", "ford", "b2", 1])
    field = state.piles[game.layout.zones[1].first]
    assert [card != HOLE for card in field] == [False] * 4 + [True] + [False] * 4
    assert game.scores(state) == [1]
    # the other ford beside it, edges matching the turned one (n bank, e brook, s bank,
    # w brook): unturned (n brook, e bank, s brook, w bank) its s meets b2's n on b1? brook
    # vs bank: no; on a2 its e (bank) meets b2's w (brook): no; on c2 its w (bank) meets
    # b2's e (brook): no; on b3 its n (brook) meets b2's s (bank): no. Turned once it is
    # as b2's: b1 (s bank = n bank), a2 (e brook = w brook), c2, b3: all four. The grove
    # (banks) goes only where b2 shows a bank: b1 and b3.
    assert legal(game, state) == [
        ["lay", "grove", "b1", 0], ["lay", "grove", "b3", 0],
        ["lay", "ford", "b1", 1], ["lay", "ford", "a2", 1], ["lay", "ford", "c2", 1],
        ["lay", "ford", "b3", 1],
    ]  # fmt: skip
    with pytest.raises(IllegalAction):
        do(game, state, ["lay", "ford", "c2", 0])
    with pytest.raises(IllegalAction):
        do(game, state, ["lay", "ford", "c2", 2])  # the same as turn 0: not a turn of its own
    do(game, state, ["lay", "ford", "c2", 1])
    assert game.scores(state) == [2]
    assert game.record(state)["field"][0][4:6] == ["ford", "ford"]


def test_a_hex_tile_has_six_turns(tmp_path):
    # The spring has a brook on its ne side only: each of its 6 turns shows it on another
    # side (1: e, 2: se, 3: sw, 4: w, 5: nw), so all six are offered on each cell.
    body = """
zones:
  bag: {holds: hex, seen: everyone, setup: all}
  field: {holds: hex, seen: everyone, each: true, grid: {shape: hex, width: 2, height: 1}}
turn:
  choose:
    lay: {each: tile, from: bag, distinct: true, onto: my.field, rotate: true, do: [{place: tile}]}
"""
    score = "count(t for t in my.field if edge(t, 'sw') == 'brook')"
    game, state = start(tmp_path, body, players=1, score=score)
    assert legal(game, state) == [["lay", "spring", cell, turn] for turn in range(6)
                                  for cell in ("a1", "b1")]  # fmt: skip
    do(game, state, ["lay", "spring", "a1", 3])  # the brook turned to sw: scores 1
    assert game.scores(state) == [1]


# --- mistakes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (TRADES.replace("give: [wood, wood]", "give: [wood, wod]"),
         "/turn/choose/mill/trade/give/1: 'wod' is not a resource of this catalog (did you mean 'wood'?)"),
        (TRADES.replace("get: star", "get: stra"),
         "/turn/choose/mill/trade/get: 'stra' is not a resource of this catalog (did you mean 'star'?)"),
        (TRADES.replace("{alike: 3}", "{alike: 3, get: star}"), "/turn/choose/swap/trade: a trade is alike: N"),
        (TRADES.replace("{alike: 3}", "{give: wood}"), "/turn/choose/swap/trade: a trade needs 'get'"),
        (TRADES.replace("{alike: 3}", "{alike: 1}"), "/turn/choose/swap/trade/alike"),
        (TRADES.replace("{alike: 3}", "{alke: 3}"), "unknown key 'alke' (did you mean 'alike'?)"),
        (TRADES.replace("{trade: {alike: 3}}", "{trade: {alike: 3}, each: r, from: resources}"),
         "/turn/choose/swap/each: a trade is an action of its own: it takes no 'each'"),
        (BUILD.replace("pay: [gold, wood]", "pay: [gold, wod]"),
         "/turn/choose/build/pay/1: 'wod' is not a resource of this catalog (did you mean 'wood'?)"),
        (BUILD.replace("pay: [gold, wood]", "pay: gould"),
         "/turn/choose/build/pay: 'gould' is not a resource of this catalog (did you mean 'gold'?)"),
        (BUILD.replace("{pay: [gold, wood],", "{pay: gold, trade: {alike: 2},"),
         "/turn/choose/build: an action chooses one of trade, pay or reroll, not trade and pay"),
        (REROLL.replace("reroll: pool", "reroll: pol"), "/turn/choose/again/reroll: 'pol' is not a name"),
        (REROLL.replace("dice: 3", "dice: 7"),
         "/turn/choose/again/reroll: pool has 7 dice: a reroll chooses among at most 6"),
        (REROLL.replace("times: 2", "times: 0"), "/turn/choose/again/times"),
        (REROLL.replace("fresh: {do:", "fresh: {times: 2, do:"),
         "/turn/choose/fresh/times: times goes with reroll"),
        (REROLL.replace("fresh: {do: [{roll: pool}]}", "fresh: {}"),
         "/turn/choose/fresh: missing 'do' (what the action does)"),
        (LAY.replace("rotate: true", "rotate: yes please"), "/turn/choose/lay/rotate"),
        (LAY.replace("field: {holds: tile", "field: {holds: face"),
         "/turn/choose/lay/onto: field holds faces, and the chosen card is a tile"),
        (REROLL.replace("fresh: {do:", "fresh: {rotate: true, do:"),
         "/turn/choose/fresh/rotate: rotate turns a tile placed `onto` a grid"),
    ],
    ids=["unknown give", "unknown get", "alike and get", "give without get", "alike of 1",
         "trade typo", "trade with each", "pay unknown", "pay typo", "trade and pay",
         "reroll unknown zone", "reroll too many dice", "times 0", "times without reroll",
         "no do", "rotate not a flag", "wrong kind", "rotate without onto"],
)  # fmt: skip
def test_choice_mistakes_are_located(tmp_path, body, expected):
    path = write(tmp_path, body)
    result = invoke("simulate", "tiny", "--rules", path, "--games", "2")
    assert result.exit_code == 1, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert f"{path}:" in result.output.splitlines()[0]


def test_rotate_needs_side_fields(tmp_path):
    body = LAY.replace("holds: tile", "holds: face").replace("edge(tile, side) == edge(neighbour, facing)", "true")  # fmt: skip
    path = write(tmp_path, body)
    result = invoke("simulate", "tiny", "--rules", path, "--games", "1")
    assert result.exit_code == 1, result.output
    assert "/turn/choose/lay/rotate: a turned tile's sides turn: the catalog's faces need fields n, e, s, w" in result.output  # fmt: skip


# --- bots and conform ----------------------------------------------------------------------

GAMES = {
    "trades": TRADES,
    "payments": BUILD.replace("{gain: star, n: 5}", "{gain: gold}"),
    "rerolls": REROLL,
    "turns": LAY + "    wait: {do: []}\n",
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_construct_plays_with_every_bot_and_conforms(tmp_path, name):
    score = "my.gold + my.star" if name in ("trades", "payments") else "0"
    if name == "rerolls":
        score = "sum(d.pips for d in pool)"
    if name == "turns":
        score = "count(t for t in my.field if edge(t, 'e') == 'brook')"
    path = write(tmp_path, GAMES[name], score=score, end="- turns >= 6 or count(bag) == 0" if name == "turns" else "- turns >= 6")  # fmt: skip
    path.write_text(path.read_text().replace("min: 1, max: 2", "min: 2, max: 2"))
    catalog = load_catalog(tmp_path / "catalog.json")
    for bots in (["random", "greedy"], ["mcts:20", "random"]):
        _, record, actions = play(data_spec(path).new_game(), catalog, bots, 3)
        assert not record.limit and len(actions) == record.turns > 0
    result = invoke("conform", "tiny", "--rules", path, "--games", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "tiny conforms"


def test_the_docs_examples_play_together(tmp_path):
    """docs/data-rules.md's examples of turning, rerolling, paying and trading, put
    together with the zones they name, play the tiny catalog to the end."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "data-rules.md").read_text()
    rules = {
        "rules": 1, "game": "tiny", "players": {"min": 2, "max": 2},
        "resources": {"kind": "symbol"},
        "zones": {"pool": {"holds": "face", "seen": "everyone", "dice": 3},
                  "bag": {"holds": "tile", "seen": "everyone", "setup": "all"},
                  "field": {"holds": "tile", "seen": "everyone", "each": True,
                            "grid": {"shape": "square", "width": 3, "height": 3}}},
        "setup": [{"each_player": [{"gain": "wood", "n": 3}]}],
        "end": ["turns >= 12"],
        "score": "my.star + count(t for t in my.field if edge(t, 'e') == 'brook')",
    }  # fmt: skip
    titles = ("#### Turning a tile", "#### Rerolling some dice", "#### Choosing how to pay",
              "#### Trades with the supply")  # fmt: skip
    for title in titles:
        block = re.search(re.escape(title) + r".*?```yaml\n(.*?)```", doc, re.DOTALL)
        assert block is not None, title
        merged_into(rules, parse_yaml(block.group(1))[0])
    assert set(rules["turn"]["choose"]) == {"lay", "again", "bank", "build", "swap", "mill"}
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    (tmp_path / "rules.yaml").write_text(json.dumps(rules))
    catalog = load_catalog(tmp_path / "catalog.json")
    _, record, actions = play(data_spec(tmp_path / "rules.yaml").new_game(), catalog,
                              ["random", "greedy"], 7)  # fmt: skip
    assert not record.limit and len(actions) > 0

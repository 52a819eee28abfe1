"""Dice, tracks and payments of the rules language, each with a worked example: a tiny
catalog, a rule in words, and the numbers worked out by hand in a comment.

The tiny catalog: symbols gold, wood, star (the resources, in that order); die
faces, in catalog order: one (good gold, 1 pip), two (good wood, 2 pips), six
(good star, 6 pips). Rolls are random.Random's: a die of faces F shows
F[randrange(len(F))], die after die, from the game's seed.
"""

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from tiny_rules import TinyRules, invoke, merged_into

from protopress.components.loader import load_catalog
from protopress.components.yamlsource import parse_yaml
from protopress.rules.chance import observe
from protopress.rules.core import RulesFault
from protopress.rules.data.payment import Payment
from protopress.rules.data.spec import data_spec
from protopress.rules.simulate import play

CATALOG = {
    "game": "tiny", "title": "Tiny", "version": "1.0.0",
    "kinds": {"face": {"collection": "faces", "size": "token", "fields": {
        "good": {"type": "reference", "to": "symbols"},
        "pips": {"type": "integer", "minimum": 0, "maximum": 6}}}},
    "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                {"id": "wood", "name": "Wood", "shape": "triangle", "colour": "#2e7d32"},
                {"id": "star", "name": "Star", "shape": "star", "colour": "#888888"}],
    "faces": [{"id": "one", "good": "gold", "pips": 1}, {"id": "two", "good": "wood", "pips": 2},
              {"id": "six", "good": "star", "pips": 6}],
}  # fmt: skip
ONE, TWO, SIX = 0, 1, 2  # faces are numbered in catalog order

HEAD = """
rules: 1
game: tiny
players: {min: 2, max: 3}
resources: {kind: symbol}
"""


TINY = TinyRules(CATALOG, HEAD, end="- turns >= 4")
write, start = TINY.write, TINY.start


def hostile(tmp_path, body, **kwargs):
    """A rules file through the CLI: its output and exit code."""
    path = write(tmp_path, body, **kwargs)
    return invoke("simulate", "tiny", "--rules", path, "--games", "2")


# --- dice ------------------------------------------------------------------------

DICE = """
zones:
  pool: {holds: face, seen: everyone, dice: 3, faces: [one, two, two, six]}
  kept: {holds: face, seen: everyone, each: true}
"""


def test_roll_shows_one_face_of_each_die_drawn_by_name(tmp_path):
    # "At setup, roll the 3 dice; each die has faces one, two, two, six." With seed 7 the
    # dice show faces[randrange(4)] three times: worked out with a generator of our own.
    body = DICE + "setup: [{roll: pool}]\nturn:\n  choose: {wait: {do: []}}"
    game, state = start(tmp_path, body, seed=7)
    faces = [ONE, TWO, TWO, SIX]
    rng = random.Random(7)
    expected = [faces[rng.randrange(4)] for _ in range(3)]
    assert state.piles[0] == expected
    # one public draw, named by the zone, showing the three faces
    assert [shown.name for shown in observe(state)] == ["pool"]


def test_a_die_without_faces_has_every_face_of_its_kind_and_n_rolls_fewer(tmp_path):
    # faces left out: one, two, six. "Roll 2 of the dice": two draws of randrange(3).
    body = """
zones:
  pool: {holds: face, seen: everyone, dice: 3}
setup: [{roll: pool, n: 2}]
turn:
  choose: {wait: {do: []}}"""
    game, state = start(tmp_path, body, seed=3)
    rng = random.Random(3)
    assert state.piles[0] == [[ONE, TWO, SIX][rng.randrange(3)] for _ in range(2)]


def test_a_player_chooses_a_rolled_die_and_its_fields_are_read(tmp_path):
    # "Roll when the pool is empty; take a die: gain its good, n = its pips, and keep it."
    # Seed 1, faces [six] only: every die shows six. Seat 0 takes one: 6 stars, pool of 2.
    body = """
zones:
  pool: {holds: face, seen: everyone, dice: 3, faces: [six]}
  kept: {holds: face, seen: everyone, each: true}
turn:
  start: [{if: empty(pool), then: [{roll: pool}]}]
  choose:
    take: {each: die, from: pool, distinct: true,
           do: [{gain: die.good, n: die.pips}, {move: die, to: my.kept}]}"""
    game, state = start(tmp_path, body)
    assert state.piles[0] == [SIX, SIX, SIX]
    legal = game.legal_actions(state)
    assert [game.actions.encode(a) for a in legal] == [["take", "six"]]  # alike: one choice
    game.apply(state, legal[0])
    assert state.pools[0] == [0, 0, 6] and state.piles[0] == [SIX, SIX]
    assert state.piles[game.layout.zones[1].first] == [SIX]


def test_roll_refuses_more_dice_than_a_roll_can_show(tmp_path):
    body = DICE + "setup: [{roll: pool, n: 65}]\nturn:\n  choose: {wait: {do: []}}"
    with pytest.raises(RulesFault, match="roll: 65 dice"):
        start(tmp_path, body)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (DICE.replace("faces: [one, two, two, six]", "faces: [one, tow]"),
         "/zones/pool/faces/1: 'tow' is not a face of this catalog (did you mean 'two'?)"),
        (DICE.replace("dice: 3, faces: [one, two, two, six]", "faces: [one]"),
         "/zones/pool/faces: faces go with dice: N"),
        (DICE.replace("dice: 3,", "dice: 3, each: true,"),
         "/zones/pool/each: a zone of dice is one shared pool, rolled: it takes no 'each'"),
        (DICE.replace("dice: 3,", "dice: 0,"), "/zones/pool/dice"),
        ("<roll: kept>", "/setup/0/roll: every player has a kept: write my.kept"),
        ("<roll: my.kept>", "/setup/0/roll: kept is not a zone of dice"),
        ("<roll: pol>", "/setup/0/roll: 'pol' is not a name of these rules"),
        ("<roll: pool, n: many>", "/setup/0/n: 'many' is not a name"),
        ("<roll: pool, to: pool>", "/setup/0/to: 'to' does not go with roll"),
        (DICE.replace("dice: 3,", 'dice: "3",'), "/zones/pool/dice"),
        (DICE.replace("dice: 3,", "dice: 99,"), "/zones/pool/dice"),
        (DICE.replace("faces: [one, two, two, six]", "faces: []"), "/zones/pool/faces"),
        (DICE.replace("faces: [one, two, two, six]", "faces: one"), "/zones/pool/faces"),
        ("<roll: 3>", "/setup/0/roll"),
        ("<roll: pool, n: 'gold'>", "/setup/0/n: expected a number, found text"),
        ("<roll: pool, gain: gold>", "/setup/0: a step does one thing: two verbs"),
    ],
    ids=["unknown face", "faces without dice", "dice of each", "no dice", "each zone",
         "not dice", "unknown zone", "bad n", "stray key", "dice as text", "too many dice",
         "no faces", "faces not a list", "roll a number", "n text", "two verbs"],
)  # fmt: skip
def test_dice_mistakes_are_located(tmp_path, body, expected):
    if body.startswith("<"):
        body = DICE + "setup: [{" + body[1:-1] + "}]\n"
    body += "\nturn:\n  choose: {wait: {do: []}}" if "turn:" not in body else ""
    result = hostile(tmp_path, body)
    assert result.exit_code == 1, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert f"{tmp_path / 'rules.yaml'}:" in result.output.splitlines()[0]


# --- tracks ----------------------------------------------------------------------

TRACK = """
tracks:
  fame: {min: 0, max: 5, start: 1, end: 4, points: [0, 1, 3, 6]}
zones:
  pool: {holds: face, seen: everyone, dice: 1}
turn:
  choose:
    climb: {if: my.fame < 5 and turns % 2 == 0, do: [{advance: fame, n: 2}]}
    fall: {if: turns % 2 == 1, do: [{advance: fame, n: -3}]}
"""


def test_advance_moves_a_marker_between_the_ends_and_the_end_position_ends_the_game(tmp_path):
    # Markers start at 1. Seat 0 climbs 2: 1 + 2 = 3. Seat 1 falls 3: 1 - 3 = -2, stopped
    # at min 0. Seat 0 climbs 2: 3 + 2 = 5 (max 5). 5 >= end 4: the game is over, although
    # the `turns >= 40` end is far off.
    game, state = start(tmp_path, TRACK, end="- turns >= 40", score="track_points(fame)")
    assert state.tracks == [[1], [1]]
    for verb, marks in (("climb", [[3], [1]]), ("fall", [[3], [0]]), ("climb", [[5], [0]])):
        assert not game.is_over(state)
        game.apply(state, game.actions.decode([verb]))
        assert state.tracks == marks
    assert game.is_over(state)
    # points [0, 1, 3, 6] for positions 0..3; position 5 is past the list: its last, 6
    assert game.scores(state) == [6, 0]


def test_a_track_is_read_as_my_name_and_copied_with_the_state(tmp_path):
    game, state = start(tmp_path, TRACK, score="my.fame * 10")
    game.apply(state, game.actions.decode(["climb"]))
    copy = state.copy()
    copy.tracks[0][0] = 0
    assert state.tracks == [[3], [1]] and game.scores(state) == [30, 10]


# --- payments --------------------------------------------------------------------


def test_payment_pays_exactly_then_with_wilds_then_with_trades():
    gold, wood, star = 0, 1, 2
    payment = Payment(wild=(star,), trade=2)
    # cost gold, gold, wood from gold 1, wood 5, star 1: gold 1 and wood 1 exactly, the
    # missing gold paid by the star: left gold 0, wood 4, star 0
    pool = [1, 5, 1]
    assert payment.pay(pool, [(gold, 2), (wood, 1)]) and pool == [0, 4, 0]
    # cost gold, gold from wood 5: two trades of 2 wood: left wood 1
    pool = [0, 5, 0]
    assert payment.pay(pool, [(gold, 2)]) and pool == [0, 1, 0]
    # cost 3 gold from wood 5 would take 6 wood: it cannot, and the pool is untouched
    pool = [0, 5, 0]
    assert not payment.pay(pool, [(gold, 3)]) and pool == [0, 5, 0]
    # a star owed, gold 2, wood 3: the trade is from the most held beyond the cost (wood)
    pool = [2, 3, 0]
    assert payment.pay(pool, [(star, 1)]) and pool == [2, 1, 0]
    # gold 2, wood 2: a tie, the first in resource order (gold) trades
    pool = [2, 2, 0]
    assert payment.pay(pool, [(star, 1)]) and pool == [0, 2, 0]
    # 3 stars pay for 3 missing wood; 2 stars for 2 of 3, and nothing is left to trade
    pool = [0, 0, 3]
    assert payment.pay(pool, [(wood, 3)]) and pool == [0, 0, 0]
    assert not payment.pay([0, 0, 2], [(wood, 3)])
    # without wilds a star is a resource like any other: 2 stars trade for a wood
    assert Payment(wild=(), trade=2).pay([0, 0, 2], [(wood, 1)])


def test_can_pay_and_pay_use_the_rules_payment(tmp_path):
    # "Any 2 alike pay for 1 of another." Each player starts with 5 wood; buying costs a
    # gold. Seat 0 buys with 2 wood (3 left), seat 1 too; seat 0 buys again (1 left), seat
    # 1 too; now 1 wood cannot pay for a gold: only `wait` is left.
    body = """
payment: {trade: 2}
zones:
  pool: {holds: face, seen: everyone, dice: 1}
setup: [{each_player: [{gain: wood, n: 5}]}]
turn:
  choose:
    buy: {if: can_pay(gold), do: [{pay: gold}]}
    wait: {do: []}
"""
    game, state = start(tmp_path, body, end="- turns >= 6")
    for _ in range(4):
        assert [game.actions.encode(a) for a in game.legal_actions(state)] == [["buy"], ["wait"]]
        game.apply(state, game.actions.decode(["buy"]))
    assert state.pools == [[0, 1, 0], [0, 1, 0]]
    assert [game.actions.encode(a) for a in game.legal_actions(state)] == [["wait"]]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (TRACK.replace("advance: fame, n: 2", "advance: fam, n: 2"),
         "/turn/choose/climb/do/0/advance: 'fam' is not a track of these rules (did you mean 'fame'?)"),
        (TRACK.replace("my.fame < 5", "my.fane < 5"), "a player has no 'fane' (did you mean 'fame'?)"),
        (TRACK.replace("start: 1", "start: 9"), "/tracks/fame/start: 9 is off the track (0..5)"),
        (TRACK.replace("end: 4", "end: -1"), "/tracks/fame/end: -1 is off the track (0..5)"),
        (TRACK.replace("max: 5", "max: 0"), "/tracks/fame/max: max must be more than min (0)"),
        (TRACK.replace("[0, 1, 3, 6]", "[0, 1, 2, 3, 4, 5, 6]"),
         "/tracks/fame/points: 7 points for 6 positions (0..5)"),
        (TRACK.replace("fame: {", "pool: {").replace("fame", "pool"), "'pool' is a zone too"),
        (TRACK.replace("fame: {", "wood: {"), "'wood' is a resource too"),
        (TRACK.replace("fame: {", "turns: {"), "'turns' is a word of the rules language"),
        (TRACK.replace("max: 5,", "max: 5, top: 9,"), "/tracks/fame"),
        (TRACK.replace("n: 2}", "n: two}"), "/turn/choose/climb/do/0/n: 'two' is not a name"),
        ("payment: {wild: [stra]}\n" + TRACK,
         "/payment/wild/0: 'stra' is not a resource of this catalog (did you mean 'star'?)"),
        ("payment: {trade: 1}\n" + TRACK, "/payment/trade"),
        (TRACK + "\nbots: {value: track_points(fam)}",
         "/bots/value: 'fam' is not a track of these rules (did you mean 'fame'?)"),
        (TRACK + "\nbots: {value: track_points(my.fame)}", "takes the name of a track"),
        (TRACK + "\nbots: {value: track_points()}", "takes the name of a track"),
        (TRACK.replace("{min: 0, max: 5,", "{min: 0,"), "/tracks/fame"),
        (TRACK.replace("max: 5,", "max: 5000,"), "/tracks/fame/max"),
        (TRACK.replace("[0, 1, 3, 6]", "[0, one]"), "/tracks/fame/points/1"),
        (TRACK.replace("advance: fame, n: 2", "advance: 3, n: 2"), "/turn/choose/climb/do/0/advance"),
        (TRACK.replace("n: 2}", "n: 'wood'}"), "/turn/choose/climb/do/0/n: expected a number"),
        ("payment: {wild: pearl}\n" + TRACK, "/payment/wild"),
        ("payment: {wild: [star, star]}\n" + TRACK, "/payment/wild"),
        ("payment: {swap: 2}\n" + TRACK, "/payment"),
    ],
    ids=["unknown track", "unknown my track", "start off", "end off", "empty range",
         "too many points", "zone clash", "resource clash", "reserved", "stray key", "bad n",
         "unknown wild", "trade of 1", "points of unknown", "points of a number", "points of none",
         "no max", "huge track", "points not numbers", "advance a number", "n text",
         "wild not a list", "wild twice", "stray payment key"],
)  # fmt: skip
def test_track_and_payment_mistakes_are_located(tmp_path, body, expected):
    result = hostile(tmp_path, body)
    assert result.exit_code == 1, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert f"{tmp_path / 'rules.yaml'}:" in result.output.splitlines()[0]


# --- the doc's examples ------------------------------------------------------------


def test_the_docs_dice_tracks_and_payment_examples_play_together(tmp_path):
    """The fragments of docs/data-rules.md's Dice, Tracks and Payments sections, put
    together with the zones they name, play Dockside Dice's catalog to the end."""
    root = Path(__file__).resolve().parents[3]
    doc = (root / "docs" / "data-rules.md").read_text()
    rules = {
        "rules": 1, "game": "dockside-dice", "players": {"min": 2, "max": 4},
        "resources": {"kind": "symbol"},
        "zones": {"orders": {"holds": "card", "seen": "nobody", "setup": "all", "shuffle": True},
                  "market": {"holds": "card", "seen": "everyone", "slots": 3, "refill": "orders"},
                  "quay": {"holds": "face", "seen": "everyone"}},
        "setup": [{"refill": "market"}],
        "end": ["turns >= 40"],
    }  # fmt: skip
    for title in ("### Dice", "### Tracks", "### Payments"):
        block = re.search(re.escape(title) + r".*?```yaml\n(.*?)```", doc, re.DOTALL)
        assert block is not None, title
        merged_into(rules, parse_yaml(block.group(1))[0])
    shutil.copy(root / "examples" / "dockside-dice" / "catalog.json", tmp_path / "catalog.json")
    (tmp_path / "rules.yaml").write_text(json.dumps(rules))
    spec = data_spec(tmp_path / "rules.yaml")
    catalog = load_catalog(tmp_path / "catalog.json")
    _, record, actions = play(spec.new_game(), catalog, ["random", "random"], 7)
    assert not record.limit and len(actions) == record.turns > 0

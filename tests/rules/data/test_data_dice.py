"""Dice, tracks and payments of the rules language, each with a worked example: a tiny
catalog, a rule in words, and the numbers worked out by hand in a comment.

The tiny catalog: symbols gold, wood, star (the resources, in that order); die
faces, in catalog order: one (good gold, 1 pip), two (good wood, 2 pips), six
(good star, 6 pips). Rolls are random.Random's: a die of faces F shows
F[randrange(len(F))], die after die, from the game's seed.
"""

import json
import random

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components.loader import load_catalog
from protopress.rules.chance import observe
from protopress.rules.core import RulesFault
from protopress.rules.data.spec import data_spec

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


def write(tmp_path, body, end="- turns >= 4", score="0"):
    (tmp_path / "catalog.json").write_text(json.dumps(CATALOG))
    path = tmp_path / "rules.yaml"
    path.write_text(HEAD + body + f"\nend:\n  {end}\nscore: {json.dumps(score)}\n")
    return path


def start(tmp_path, body, players=2, seed=1, **kwargs):
    spec = data_spec(write(tmp_path, body, **kwargs))
    game = spec.new_game()
    state = game.setup(load_catalog(tmp_path / "catalog.json"), players, random.Random(seed), {})
    return game, state


def hostile(tmp_path, body, **kwargs):
    """A rules file through the CLI: its output and exit code."""
    path = write(tmp_path, body, **kwargs)
    return CliRunner().invoke(cli, ["simulate", "tiny", "--rules", str(path), "--games", "2"])


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
    ],
    ids=["unknown face", "faces without dice", "dice of each", "no dice", "each zone",
         "not dice", "unknown zone", "bad n", "stray key"],
)  # fmt: skip
def test_dice_mistakes_are_located(tmp_path, body, expected):
    if body.startswith("<"):
        body = DICE + "setup: [{" + body[1:-1] + "}]\n"
    body += "\nturn:\n  choose: {wait: {do: []}}" if "turn:" not in body else ""
    result = hostile(tmp_path, body)
    assert result.exit_code == 1, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert f"{tmp_path / 'rules.yaml'}:" in result.output.splitlines()[0]

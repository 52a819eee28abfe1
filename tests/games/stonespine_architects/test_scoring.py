"""Stonespine Architects final scoring, worked by hand on dungeons written as
four rows of four chambers (each by its doors, "." for none; row 0 is the
year 1 row beside the frame's north side). Paths are scored by
protopress.games.stonespine_architects.dungeon; the numbers come from the catalog's table."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.loader import load_document
from protopress.games.stonespine_architects.scoring import (
    Scoring,
    format_score,
    goal_places,
    rank_points,
    score_state,
    solo_goal_place,
    solo_gold_place,
)
from protopress.rules import registry

GAME = "stonespine-architects"
SCHEMA = f"score-state-{GAME}.schema.json"
EMPTY_ROWS = [". . . .", ". . . .", ". . . .", ". . . ."]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path(GAME))


def state(rows=EMPTY_ROWS, entrance=("N", 1), exit=("S", 1), passages=None, elements=None,
          stars=None, **extra) -> dict:  # fmt: skip
    chambers = [[{"doors": doors.strip(".")} for doors in row.split()] for row in rows]
    for (row, col), edges in (passages or {}).items():
        chambers[row][col]["passages"] = edges
    for (row, col), names in (elements or {}).items():
        chambers[row][col]["elements"] = list(names)
    for (row, col), value in (stars or {}).items():
        chambers[row][col]["stars"] = value
    return {
        "chambers": chambers,
        "entrance": {"side": entrance[0], "index": entrance[1]},
        "exit": {"side": exit[0], "index": exit[1]},
        **extra,
    }


# --- dungeon paths (through protopress.games.stonespine_architects.dungeon) -------------------------


def test_a_through_route_counts_twice(catalog):
    # Column 1 is four NS chambers from entrance N1 to exit S1: each of the 4
    # chambers is connected to the entrance (4) and to the exit (4): 8 points.
    result = score_state(catalog, state([". NS . .", ". NS . .", ". NS . .", ". NS . ."]))
    assert result["paths"] == {"entrance": 4, "exit": 4, "score": 8}
    assert result["total"] == 8


def test_unmatched_doors_do_not_connect(catalog):
    # (0, 1) shows N and E, but (0, 2) shows no west door: no path east.
    # (1, 1) shows N, but (0, 1) has no south door: no path south.
    # Entrance: (0, 1) only = 1. Exit S1: (3, 1) shows no south door = 0.
    result = score_state(catalog, state([". NE S .", ". N . .", ". . . .", ". . . ."]))
    assert result["paths"] == {"entrance": 1, "exit": 0, "score": 1}


def test_a_secret_passage_opens_a_wall(catalog):
    # (0, 1) N door toward the entrance and a passage on its east edge: (0, 2)
    # joins though it shows no doors; (1, 2) has a passage on its north edge
    # and joins (0, 2). Entrance: 3 chambers. The exit's (3, 1) is a sealed
    # chamber with a passage on its south (frame) edge: 1 chamber. 3 + 1 = 4.
    result = score_state(
        catalog,
        state(
            [". N . .", ". . . .", ". . . .", ". . . ."],
            passages={(0, 1): "E", (1, 2): "N", (3, 1): "S"},
        ),
    )
    assert result["paths"] == {"entrance": 3, "exit": 1, "score": 4}


def test_no_door_toward_the_frame_scores_nothing_for_that_doorway(catalog):
    # (0, 1) joins (0, 2) and (1, 1) by matching doors but shows a wall toward
    # the N1 entrance: 0 for the entrance, whatever it joins.
    rows = [". ES W .", ". N . .", ". . . .", ". . . ."]
    assert score_state(catalog, state(rows))["paths"]["entrance"] == 0
    # A passage on the frame edge opens it: 3 chambers.
    assert score_state(catalog, state(rows, passages={(0, 1): "N"}))["paths"]["entrance"] == 3


def test_path_points_per_chamber_come_from_the_catalog(catalog, tmp_path):
    document = json.loads(builtin_catalog_path(GAME).read_text())
    document["scoring_tables"][0]["points"]["path_per_chamber"] = 2
    document["scoring_tables"][0]["ranks"]["priority"] = [10, 4]
    path = tmp_path / "stonespine-variant.json"
    path.write_text(json.dumps(document))
    variant = load_catalog(path)
    dungeon = state([". NS . .", ". NS . .", ". NS . .", ". NS . ."], priority_place=1)
    assert score_state(variant, dungeon)["paths"]["score"] == 16
    assert score_state(variant, dungeon)["priority"]["score"] == 10
    assert score_state(variant, {**dungeon, "priority_place": 3})["priority"]["score"] == 0


# --- blueprint ---------------------------------------------------------------------

BLUEPRINT = [{"row": r, "col": c, "element": "monster"} for r in range(4) for c in (0, 2)]


@pytest.mark.parametrize(
    ("matches", "points"), [(0, 0), (3, 0), (4, 5), (5, 7), (6, 10), (7, 14), (8, 20)]
)
def test_blueprint_scale(catalog, matches, points):
    filled = {(p["row"], p["col"]): ["monster"] for p in BLUEPRINT[:matches]}
    result = score_state(catalog, state(elements=filled, blueprint=BLUEPRINT))
    assert result["blueprint"] == {"matches": matches, "score": points}


def test_a_blueprint_element_must_be_in_the_exact_chamber(catalog):
    # Monsters one column east of every position, and a trap where a monster is asked.
    wrong = {(p["row"], p["col"] + 1): ["monster"] for p in BLUEPRINT}
    wrong[0, 0] = ["trap"]
    assert (
        score_state(catalog, state(elements=wrong, blueprint=BLUEPRINT))["blueprint"]["matches"]
        == 0
    )


def test_a_blueprint_card_by_id(catalog):
    # The Deep Vault: take its positions and fill five of them.
    card = catalog.get("blueprint-card", "the-deep-vault")
    filled = {(p["row"], p["col"]): [p["element"]] for p in card["positions"][:5]}
    result = score_state(catalog, state(elements=filled, blueprint="the-deep-vault"))
    assert result["blueprint"] == {"matches": 5, "score": 7}


# --- priority, goal, reputation, challenges ------------------------------------------


@pytest.mark.parametrize(("place", "points"), [(1, 9), (2, 6), (3, 3), (4, 0), (5, 0)])
def test_final_priority(catalog, place, points):
    assert score_state(catalog, state(priority_place=place))["priority"] == {
        "place": place,
        "score": points,
    }


def test_goal_places_break_ties_on_the_priority_track():
    # Counts of the goal's elements: seat 0 has 3, seat 1 has 3, seat 2 none,
    # seat 3 has 5. Priority track positions: seat 1 first (0), seat 0 second (1).
    # Seat 3 is best; seats 0 and 1 tie and seat 1 is higher on the track.
    places = goal_places([3, 3, 0, 5], priority=[1, 0, 2, 3])
    assert places == [3, 2, None, 1]
    ranks = (15, 9, 5)
    assert [rank_points(ranks, p) for p in places] == [5, 9, 0, 15]


def test_a_fourth_goal_place_scores_nothing():
    places = goal_places([4, 3, 2, 1], priority=[0, 1, 2, 3])
    assert [rank_points((15, 9, 5), p) for p in places] == [15, 9, 5, 0]


def test_goal_place_from_the_state(catalog):
    assert score_state(catalog, state(goal_place=2))["goal"] == {"place": 2, "score": 9}
    assert score_state(catalog, state(goal_place=None))["goal"] == {"place": None, "score": 0}


def test_reputation_adds_and_subtracts_every_star(catalog):
    stars = {(0, 0): 3, (1, 1): -2, (2, 2): 1, (3, 3): 5}  # 5: a card's 2 plus a dragon's 3
    assert score_state(catalog, state(stars=stars))["reputation"] == {"score": 7}


def test_challenges_as_points_or_a_total(catalog):
    assert score_state(catalog, state(challenges=[3, 7, 2]))["challenges"] == {"score": 12}
    assert score_state(catalog, state(challenges=9))["challenges"] == {"score": 9}


def test_challenge_cards_count_when_their_condition_holds(catalog):
    route = [". NS . .", ". NS . .", ". NS . .", ". NS . ."]
    monsters = {(2, c): ["monster"] for c in range(4)}  # a full row of monsters
    cards = ["through-the-mountain", "monster-parade", "monster-pen", "grand-approach"]
    # Through the Mountain 7 + Monster Parade 6 + Monster Pen (3 monsters) 2;
    # Grand Approach needs 5 chambers on the entrance path, the route has 4.
    result = score_state(catalog, state(route, elements=monsters, challenges=cards))
    assert result["challenges"] == {"score": 15}
    # Without the route and one monster short of the full row: only Monster Pen.
    del monsters[2, 3]
    assert (
        score_state(catalog, state(elements=monsters, challenges=cards))["challenges"]["score"] == 2
    )


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        (("element_count", None, 3), "has no element"),
        (("element_count", "monster", None), "has no at_least"),
        (("full_row", None, None), "has no element"),
        (("reputation", None, None), "has no at_least"),
        (("exit_path", None, None), "has no at_least"),
        (("tallest_tower", None, None), "unknown challenge condition 'tallest_tower'"),
    ],
)
def test_a_condition_without_the_fields_its_op_needs_is_refused(catalog, condition, message):
    from protopress.games.stonespine_architects.dungeon import Dungeon
    from protopress.games.stonespine_architects.scoring import Condition

    scoring = Scoring.of(catalog)
    dungeon = Dungeon.from_json(state())
    with pytest.raises(ValueError, match=message):
        scoring.condition_holds(Condition(*condition), dungeon)


def test_secret_passages_count_once_per_edge(
    catalog,
):
    # False Walls: 2 passages. One chamber with two passage edges is enough.
    result = score_state(catalog, state(passages={(1, 1): "NE"}, challenges=["false-walls"]))
    assert result["challenges"]["score"] == 3
    result = score_state(catalog, state(passages={(1, 1): "N"}, challenges=["false-walls"]))
    assert result["challenges"]["score"] == 0


def test_reputation_challenges(catalog):
    stars = {(r, c): 2 for r in range(4) for c in range(4)}  # 32 stars: 32 met, 40 not
    result = score_state(
        catalog, state(stars=stars, challenges=["renowned-halls", "wonder-of-the-underworld"])
    )
    assert result["challenges"]["score"] == 4


def test_a_full_score(catalog):
    # Route of 4 counted twice (8), stars 4, blueprint 4 matches (5),
    # priority 2nd (6), goal 1st (15), challenges 3 + 7: total 48.
    filled = {(p["row"], p["col"]): ["monster"] for p in BLUEPRINT[:4]}
    result = score_state(
        catalog,
        state(
            [". NS . .", ". NS . .", ". NS . .", ". NS . ."],
            elements=filled,
            stars={(0, 1): 1, (1, 1): 3},
            blueprint=BLUEPRINT,
            priority_place=2,
            goal_place=1,
            challenges=[3, "through-the-mountain"],
        ),
    )
    assert result == {
        "total": 48,
        "paths": {"entrance": 4, "exit": 4, "score": 8},
        "blueprint": {"matches": 4, "score": 5},
        "reputation": {"score": 4},
        "priority": {"place": 2, "score": 6},
        "goal": {"place": 1, "score": 15},
        "challenges": {"score": 10},
    }


def test_categories_the_state_lacks_score_zero_with_a_note(catalog):
    result = score_state(catalog, state())
    for category in ("blueprint", "priority", "goal", "challenges"):
        assert result[category]["score"] == 0
        assert result[category]["note"]
    assert "note" not in result["paths"] and "note" not in result["reputation"]


def test_solo_places_go_to_the_rival_on_a_tie():
    assert solo_gold_place(8, 7) == 1
    assert solo_gold_place(7, 7) == 2
    assert solo_goal_place(4, 3) == 1
    assert solo_goal_place(3, 3) == 2
    assert solo_goal_place(0, 0) is None  # none of the named elements: no score at all


def test_the_scoring_table_is_read_from_the_catalog(catalog):
    scoring = Scoring.of(catalog)
    assert scoring.priority == (9, 6, 3)
    assert scoring.goal == (15, 9, 5)
    assert scoring.solo_gold == (9, 6)
    assert scoring.gold_cap == 30
    assert scoring.blueprint_points(3) == 0 and scoring.blueprint_points(8) == 20
    assert scoring.edge_elements == {"secret-passage"}


# --- malformed input ----------------------------------------------------------------


def test_malformed_dungeons_get_the_dungeon_modules_message(catalog):
    bad = state()
    bad["chambers"][1][2]["doors"] = "NN"
    with pytest.raises(ValueError, match=r"chambers\[1\]\[2\]\.doors: 'NN' repeats an edge"):
        score_state(catalog, bad)
    bad = state(elements={(0, 0): ["monster", "trap", "trap"]}, passages={(0, 0): "NE"})
    with pytest.raises(ValueError, match=r"chambers\[0\]\[0\]: holds 5 elements"):
        score_state(catalog, bad)
    with pytest.raises(ValueError, match="dungeon: missing 'exit'"):
        score_state(catalog, {k: v for k, v in state().items() if k != "exit"})


def test_unknown_ids_are_named(catalog):
    with pytest.raises(ValueError, match=r"chambers\[0\]\[3\]\.elements: unknown element 'gobbo'"):
        score_state(catalog, state(elements={(0, 3): ["gobbo"]}))
    with pytest.raises(ValueError, match="no challenge card 'nope'"):
        score_state(catalog, state(challenges=["nope"]))
    with pytest.raises(ValueError, match="no blueprint card 'nope'"):
        score_state(catalog, state(blueprint="nope"))


def test_the_schema_accepts_a_state_and_locates_mistakes(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(
        json.dumps(state(blueprint=BLUEPRINT, goal_place=None, challenges=[3, "false-walls"]))
    )
    assert load_document(path, SCHEMA)["goal_place"] is None
    bad = state()
    bad["chambers"][2][1]["doors"] = "NX"
    bad["entrance"]["index"] = 4
    path.write_text(json.dumps(bad, indent=1))
    with pytest.raises(InvalidInput) as raised:
        load_document(path, SCHEMA, "state.json")
    shown = "\n".join(str(p) for p in raised.value.problems)
    assert "/chambers/2/1/doors" in shown
    assert "/entrance/index" in shown


# --- the score command ------------------------------------------------------------


@pytest.fixture
def registered():
    assert registry.game_module(GAME).score_state is score_state


def test_score_command_json(registered, tmp_path):
    path = tmp_path / "dungeon.json"
    filled = {(p["row"], p["col"]): ["monster"] for p in BLUEPRINT[:5]}
    path.write_text(json.dumps(state(
        [". NS . .", ". NS . .", ". NS . .", ". NS . ."], elements=filled, blueprint=BLUEPRINT,
        priority_place=1, goal_place=3, challenges=[2, 6],
    )))  # fmt: skip
    result = CliRunner().invoke(cli, ["score", GAME, str(path), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert set(answer) == {
        "total",
        "paths",
        "blueprint",
        "reputation",
        "priority",
        "goal",
        "challenges",
    }
    assert answer["paths"] == {"entrance": 4, "exit": 4, "score": 8}
    assert answer["blueprint"] == {"matches": 5, "score": 7}
    assert answer["total"] == 8 + 7 + 0 + 9 + 5 + 8


def test_score_command_text_and_errors(registered, tmp_path, catalog):
    path = tmp_path / "dungeon.json"
    path.write_text(json.dumps(state(priority_place=3)))
    result = CliRunner().invoke(cli, ["score", GAME, str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == format_score(score_state(catalog, state(priority_place=3))) + "\n"
    lines = result.output.splitlines()
    assert [line.split("  ")[0] for line in lines[1:7]] == [
        "Final priority", "Goal card", "Challenge cards", "Chamber reputation", "Blueprint",
        "Dungeon paths",
    ]  # fmt: skip
    bad = state()
    bad["chambers"][0][0]["passages"] = "SS"
    path.write_text(json.dumps(bad))
    result = CliRunner().invoke(cli, ["score", GAME, str(path)])
    assert result.exit_code == 1
    assert "repeats an edge" in result.output
    assert "Traceback" not in result.output
    path.write_text(json.dumps({"chambers": []}))
    result = CliRunner().invoke(cli, ["score", GAME, str(path)])
    assert result.exit_code == 1
    assert Path(path).name in result.output

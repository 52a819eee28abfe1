"""The tuner: goals, --vary, the search on common seeds, and the planted over-strong card."""

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.balance.goals import GoalError, GoalKind, Standing, parse_goal
from protopress.balance.tune import (
    Edit,
    Tuner,
    VaryError,
    apply_edits,
    balance_batches,
    resolve_vary,
    tune,
)
from protopress.cli import cli
from protopress.components import builtin_catalog_path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cottage-market"
RULES = str(EXAMPLE / "rules.py")
PLANTED_POINTS = 12  # Cottage's points in the planted catalog (2 in the example)
BUDGET = 4_000  # games the planted case may play (it needs about 1,600)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def example_document() -> dict:
    return json.loads((EXAMPLE / "catalog.json").read_text(encoding="utf-8"))


def planted(folder: Path) -> Path:
    """The example's catalog with Cottage (2 wood) worth PLANTED_POINTS points."""
    document = example_document()
    for card in document["cards"]:
        if card["id"] == "cottage":
            card["points"] = PLANTED_POINTS
    path = folder / "catalog.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


# --- goals ---------------------------------------------------------------------------------


def test_the_goal_forms_parse_to_their_bands():
    seats = parse_goal("seat win rates 45-55%")
    assert (seats.kind, seats.low, seats.high) == (GoalKind.SEAT_WIN_RATES, 45, 55)
    effect = parse_goal("No component effect above 10 points")
    assert (effect.kind, effect.low, effect.high) == (GoalKind.COMPONENT_EFFECT, -10, 10)
    score = parse_goal("mean score between 30 and 20")
    assert (score.kind, score.low, score.high) == (GoalKind.MEAN_SCORE, 20, 30)


@pytest.mark.parametrize(
    "text", ["seat win rates 45-155%", "fair game", "no component effect above points", ""]
)
def test_a_goal_that_does_not_parse_names_itself_and_the_accepted_forms(text):
    with pytest.raises(GoalError) as error:
        parse_goal(text)
    assert f'goal "{text}" is not understood' in str(error.value)
    assert '"seat win rates 45-55%"' in str(error.value)


def test_readings_against_a_band_worked_by_hand():
    goal = parse_goal("seat win rates 45-55%")
    # seat 0 won 60 of 100 decided games (interval 50-70): outside, but not clearly
    summary = {
        "seats": [
            {"seat": 0, "decided": {"rate": 0.60, "low": 0.50, "high": 0.70}},
            {"seat": 1, "decided": {"rate": 0.40, "low": 0.30, "high": 0.50}},
        ]
    }
    first, second = goal.readings(summary)
    assert (first.label, first.value, first.inside, first.excluded) == ("seat 0", 60, False, False)
    assert first.distance == pytest.approx(0.5)  # 5 points beyond 55, over a band 10 wide
    assert goal.standing(summary) is Standing.OPEN
    summary["seats"][0]["decided"] = {"rate": 0.60, "low": 0.56, "high": 0.64}  # all above 55
    assert goal.standing(summary) is Standing.MISSED
    for seat, rate in ((0, 0.52), (1, 0.48)):
        summary["seats"][seat]["decided"] = {"rate": rate, "low": rate - 0.1, "high": rate + 0.1}
    assert goal.standing(summary) is Standing.MET


def test_a_component_goal_without_used_records_says_so():
    with pytest.raises(GoalError, match="record no components used"):
        parse_goal("no component effect above 10 points").readings({"components": None})


# --- vary ----------------------------------------------------------------------------------


def test_vary_resolves_the_whole_number_fields_in_catalog_order():
    tunables = resolve_vary(example_document(), ["cards.*.points", "cards.hall.points"])
    assert [(t.path, t.value, t.low, t.high) for t in tunables] == [
        ("cards.cottage.points", 2, 0, None),
        ("cards.watchtower.points", 4, 0, None),
        ("cards.hall.points", 6, 0, None),
    ]
    (gold,) = resolve_vary(example_document(), ["tokens.gold-3.value"])
    assert (gold.low, gold.high) == (1, 5)  # as the catalog's resource-token kind declares


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        ("cardz.*.points", "no collection 'cardz'; did you mean 'cards'?"),
        ("cards.cotage.points", "no cards 'cotage'; did you mean 'cottage'?"),
        ("cards.*.pionts", "no whole-number field 'pionts' in cards '*'; did you mean 'points'?"),
        ("cards.points", "write collection.id.field"),
    ],
)
def test_a_vary_pattern_that_matches_nothing_says_what_is_there(pattern, said):
    with pytest.raises(VaryError) as error:
        resolve_vary(example_document(), [pattern])
    assert said in str(error.value)


def test_vary_reaches_a_field_inside_a_field():
    document = json.loads(builtin_catalog_path("dragonstone-mine").read_text(encoding="utf-8"))
    tunables = resolve_vary(document, ["scoring_tables.scoring-level-2.points.*"])
    assert [(t.name, t.value) for t in tunables] == [
        ("points.per_gem", 1), ("points.single_colour_stack", 7), ("points.rainbow_stack", 5),
        ("points.rainbow_from_above", 5), ("points.stack_size", 5),
    ]  # fmt: skip
    edited = apply_edits(document, [Edit(tunables[2], 8)])
    assert edited["scoring_tables"][2]["points"]["rainbow_stack"] == 8
    with pytest.raises(VaryError, match="did you mean 'points.per_gem'"):
        resolve_vary(document, ["scoring_tables.*.points.per_gam"])


def test_edits_change_a_copy():
    document = example_document()
    (cottage,) = resolve_vary(document, ["cards.cottage.points"])
    edited = apply_edits(document, [Edit(cottage, 5)])
    assert [c.get("points") for c in edited["cards"]][3] == 5
    assert [c.get("points") for c in document["cards"]][3] == 2


def test_an_edit_of_a_count_moves_the_declared_total():
    document = {"totals": {"cards": 5}, "cards": [{"id": "a", "count": 3}, {"id": "b", "count": 2}]}
    (a,) = resolve_vary(document, ["cards.a.count"])
    edited = apply_edits(document, [Edit(a, 4)])
    assert edited["totals"] == {"cards": 6} and edited["cards"][0]["count"] == 4


# --- the search ----------------------------------------------------------------------------

GOALS = ["mean score 15-22", "no component effect above 80 points"]


def test_the_tuner_names_the_planted_card_and_a_fix_within_its_budget(tmp_path):
    catalog = planted(tmp_path)
    before = catalog.read_bytes()
    args = ["tune", "cottage-market", "--rules", RULES, "--catalog", catalog, "--bot", "greedy",
            "--vary", "cards.*.points", "--games", "200", "--batch", "100",
            "--budget", BUDGET, "--seed", "3"]  # fmt: skip
    for goal in GOALS:
        args += ["--goal", goal]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    fixes = [line for line in lines if line.startswith("~ card cottage: points: 12 -> ")]
    assert len(fixes) == 1, result.stdout
    assert 1 <= int(fixes[0].rsplit(" ", 1)[1]) <= 5  # the example's 2, or near it
    assert "fix: 1 edit" in result.stdout
    proposed = json.loads((tmp_path / "catalog.tuned.json").read_text(encoding="utf-8"))
    assert catalog.read_bytes() == before  # never over its input
    assert {c["id"]: c.get("points") for c in proposed["cards"]}["watchtower"] == 4
    again = tmp_path / "again"
    again.mkdir()
    repeat = invoke(*[planted(again) if a == catalog else a for a in args])
    assert repeat.stdout == result.stdout
    assert (again / "catalog.tuned.json").read_bytes() == (
        tmp_path / "catalog.tuned.json"
    ).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "again",
        "catalog.json",
        "catalog.tuned.json",
    ]


def test_clearly_missed_candidates_stop_after_one_batch(tmp_path):
    catalog = planted(tmp_path)
    document = json.loads(catalog.read_text(encoding="utf-8"))
    play = balance_batches("cottage-market", 2, ["greedy", "greedy"], 3, rules=RULES)
    tuner = Tuner("cottage-market", document, [parse_goal(g) for g in GOALS],
                  resolve_vary(document, ["cards.*.points"]), play, tmp_path, games=300,
                  batch=100, budget=BUDGET)  # fmt: skip
    outcome = tune(tuner)
    assert outcome.fix is not None and outcome.fix.games == 300
    assert outcome.baseline.games == 300  # the catalog as it is: always in full
    missed = [m for m in tuner.tried if m.standing is Standing.MISSED and m.candidate]
    assert missed and all(m.games == 100 for m in missed)
    assert outcome.played == sum(m.games for m in tuner.tried) < len(tuner.tried) * 300


def test_the_tuner_stops_at_its_budget_and_writes_nothing(tmp_path):
    catalog = planted(tmp_path)
    args = ["tune", "cottage-market", "--rules", RULES, "--catalog", catalog, "--bot", "greedy",
            "--vary", "cards.*.points", "--games", "100", "--budget", "300",
            "--goal", GOALS[0]]  # fmt: skip
    result = invoke(*args)
    assert result.exit_code == 3, result.output
    assert "no fix found: the budget ran out" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.json"]


def test_the_tuner_refuses_to_write_over_its_input(tmp_path):
    catalog = planted(tmp_path)
    before = catalog.read_bytes()
    result = invoke("tune", "cottage-market", "--rules", RULES, "--catalog", catalog,
                    "--out", catalog, "--goal", GOALS[0], "--vary", "cards.*.points")  # fmt: skip
    assert result.exit_code == 1
    assert "is also an input" in result.output
    assert catalog.read_bytes() == before


def test_command_line_errors_are_one_line_and_located(tmp_path):
    catalog = planted(tmp_path)
    base = ["tune", "cottage-market", "--rules", RULES, "--catalog", catalog]
    bad_goal = invoke(*base, "--goal", "fair game", "--vary", "cards.*.points")
    assert bad_goal.exit_code == 2 and 'goal "fair game" is not understood' in bad_goal.output
    bad_vary = invoke(*base, "--goal", GOALS[0], "--vary", "cards.*.pionts")
    assert bad_vary.exit_code == 2 and "did you mean 'points'?" in bad_vary.output
    data_rules = invoke("tune", "cottage-market", "--rules", EXAMPLE / "rules.yaml", "--catalog",
                        catalog, "--goal", GOALS[1], "--vary", "cards.*.points", "--games", "200",
                        "--batch", "100", "--budget", "400")  # fmt: skip
    # data rules record each seat's components by themselves: the component goal is judged
    assert data_rules.exit_code in (0, 3) and "component cottage" in data_rules.output
    no_folder = invoke(*base, "--goal", GOALS[0], "--vary", "cards.*.points", "--out",
                       tmp_path / "missing" / "tuned.json")  # fmt: skip
    assert no_folder.exit_code == 2 and "no folder" in no_folder.output
    outputs = bad_goal.output + bad_vary.output + data_rules.output + no_folder.output
    assert "Traceback" not in outputs


def _planted_search(folder: Path, scheduler: str | None) -> tuple:
    document = json.loads(planted(folder).read_text(encoding="utf-8"))
    play = balance_batches("cottage-market", 2, ["greedy"], 3, rules=RULES,
                           scheduler=scheduler)  # fmt: skip
    tuner = Tuner("cottage-market", document, [parse_goal(GOALS[0])],
                  resolve_vary(document, ["cards.cottage.points"]), play, folder, games=100,
                  batch=50, budget=2_000)  # fmt: skip
    outcome = tune(tuner)
    return outcome.edits, outcome.played, [m.trail for m in tuner.tried]


def test_a_dask_cluster_gives_the_local_search(tmp_path):
    distributed = pytest.importorskip("distributed")
    (tmp_path / "local").mkdir()
    (tmp_path / "cluster").mkdir()
    local = _planted_search(tmp_path / "local", None)
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        found = _planted_search(tmp_path / "cluster", cluster.scheduler_address)
    assert found == local and local[0]


def test_a_cluster_without_dask_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = invoke("tune", "cottage-market", "--rules", RULES, "--catalog", planted(tmp_path),
                    "--goal", GOALS[0], "--vary", "cards.*.points",
                    "--scheduler", "tcp://127.0.0.1:1")  # fmt: skip
    assert result.exit_code == 2
    assert "pip install 'protopress[cluster]'" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.json"]


def test_every_game_asked_for_is_counted_and_a_short_last_batch_plays_no_more(tmp_path):
    document = json.loads(planted(tmp_path).read_text(encoding="utf-8"))
    play = balance_batches("cottage-market", 2, ["greedy"], 3, rules=RULES)
    asked: list[tuple[int, int]] = []

    def counted(catalog, number, games):
        asked.append((number, games))
        return play(catalog, number, games)

    tuner = Tuner("cottage-market", document, [parse_goal(GOALS[0])],
                  resolve_vary(document, ["cards.cottage.points"]), counted, tmp_path, games=150,
                  batch=100, budget=2_000)  # fmt: skip
    outcome = tune(tuner)
    assert asked[:2] == [(0, 100), (1, 50)]  # the catalog as it is: 150 games in two batches
    assert outcome.played == sum(games for _, games in asked)

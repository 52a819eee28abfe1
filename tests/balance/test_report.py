"""The balance report: a PDF with embedded fonts only, byte-identical for the same
run, and a JSON file with the same numbers however many workers played."""

import json

import pytest
from pypdf import PdfReader

from protopress.balance import (
    BalanceRun,
    compare,
    load_run,
    report_pdf,
    run_balance,
    summarize_run,
    write_json,
    write_report,
)
from protopress.balance.report_charts import mark_rows
from protopress.balance.report_style import Styles
from protopress.generators.preflight import preflight
from protopress.rules.core import top_seats
from protopress.rules.simulate import GameRecord
from protopress.rules.spec import Outcome, OutcomeKind


def text_of(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def written_text(tmp_path, run) -> str:
    """The text of the report of run, whitespace collapsed."""
    path = tmp_path / "report.pdf"
    write_report(path, run)
    return " ".join(text_of(path).split())


def font_names(path) -> set[str]:
    names = set()
    for page in PdfReader(path).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


@pytest.fixture(scope="module")
def mixed_run():
    """A small run with mixed bots rotated through the seats: every section but solo and team."""
    return run_balance(
        "dragonstone-mine",
        "dragonstone-mine",
        24,
        2,
        ["greedy", "random"],
        5,
        {"level": "2"},
        workers=1,
        rotate=True,
    )


def test_the_report_exists_and_passes_preflight_with_embedded_fonts_only(tmp_path, mixed_run):
    path = tmp_path / "balance.pdf"
    write_report(path, mixed_run)
    report = preflight(path)
    assert report.ok, str(report)
    assert font_names(path) and all("BitstreamVera" in name for name in font_names(path))
    text = text_of(path)
    assert "Balance report: dragonstone-mine" in text
    for heading in (
        "In short",
        "Who wins, by seat",
        "Scores, margins and length",
        "Bot strategies",
        "Components",
        "Rules coverage",
    ):
        assert heading in text
    assert [p.name for p in tmp_path.iterdir()] == ["balance.pdf"]  # no temporary file left


def test_the_component_section_says_only_a_flag_is_a_finding(tmp_path, mixed_run):
    text = written_text(tmp_path, mixed_run)
    assert "the other seats at the same table of the same bot" in text
    assert "q-value at most the false discovery rate (Benjamini-Hochberg" in text
    assert "only a flag is a finding" in text
    assert "the interval leaves out zero and the component" not in text


def test_a_team_run_with_mixed_bots_tells_them_apart_by_score(tmp_path):
    records = [
        GameRecord(i, i, ["greedy", "random"], [8, 3], [0, 1] if i % 4 else [], 25, 100, False,
                   {"mode": "crisis", "team_total": 11, "won": bool(i % 4)},
                   Outcome(OutcomeKind.TEAM, (8, 3), (0, 1) if i % 4 else (),
                           team_won=bool(i % 4), team_score=11))
        for i in range(40)
    ]  # fmt: skip
    text = written_text(tmp_path, synthetic("gem-rush", records))
    assert "Of the bots, greedy scores most: 8.0 points a seat" in text
    assert "Mean score a seat: greedy 8.0 (8.0 to 8.0); random 3.0 (3.0 to 3.0)." in text


def test_the_same_run_gives_the_same_bytes(mixed_run):
    assert report_pdf(mixed_run) == report_pdf(mixed_run)


def test_json_is_the_same_for_one_and_two_workers(tmp_path):
    files = []
    for workers in (1, 2):
        run = run_balance(
            "dragonstone-mine",
            "dragonstone-mine",
            20,
            3,
            ["random"],
            9,
            {"level": "2"},
            workers=workers,
        )
        files.append(tmp_path / f"balance-{workers}.json")
        write_json(files[-1], run)
        write_report(tmp_path / f"balance-{workers}.pdf", run)
    assert files[0].read_bytes() == files[1].read_bytes()
    assert (tmp_path / "balance-1.pdf").read_bytes() == (tmp_path / "balance-2.pdf").read_bytes()
    data = json.loads(files[0].read_text())
    assert data["covered"] == 20 and len(data["records"]) == 20 and not data["partial"]
    assert data["summary"] == json.loads(json.dumps(summarize_run(run)))
    assert data["summary"]["components"]["items"]  # cards played per seat, from record "used"


def test_a_written_run_loads_back_for_compare(tmp_path, mixed_run):
    path = tmp_path / "old.json"
    write_json(path, mixed_run)
    old = load_run(path)
    assert old.to_json() == mixed_run.to_json()
    result = compare(old, mixed_run)
    assert result["paired"] and result["moved"] == []
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="bad.json: cannot read a balance run"):
        load_run(tmp_path / "bad.json")


def test_json_without_records_keeps_the_numbers(tmp_path, mixed_run):
    path = tmp_path / "summary.json"
    write_json(path, mixed_run, records=False)
    data = json.loads(path.read_text())
    assert "records" not in data and data["summary"]["games"] == 24


def synthetic(game, records, **fields) -> BalanceRun:
    base = dict(
        game=game,
        catalog=game,
        catalog_version="1.0.0",
        players=len(records[0].scores),
        bots=list(records[0].bots),
        seed=4,
        options={},
        games=len(records),
    )
    return BalanceRun(**{**base, **fields}, records=records)


def test_a_rigged_game_says_so_at_the_top(tmp_path):
    records = [
        GameRecord(i, 100 + i, ["random", "random"], s, top_seats(s), 12, 12, i % 50 == 7)
        for i, s in enumerate([10, 5] if i % 5 else [5, 10] for i in range(400))
    ]  # seat 0 wins 80%; 8 games stop at the limit
    path = tmp_path / "rigged.pdf"
    write_report(path, synthetic("dragonstone-mine", records))
    assert preflight(path).ok
    text = " ".join(text_of(path).split())
    assert "Seat 0 wins 80% (76–84%) against a fair share of 50%: a first-player advantage." in text
    assert "8 games stopped at a limit (rules coverage): game 7 (seed 107) is the first." in text
    assert "--seed 4 --games INDEX+1" in text


def test_seats_with_different_bots_are_not_called_a_seating_advantage(tmp_path):
    records = [
        GameRecord(i, 100 + i, ["greedy", "random"], s, top_seats(s), 12, 12)
        for i, s in enumerate([10, 5] if i % 5 else [5, 10] for i in range(400))
    ]  # greedy, always in seat 0, wins 80%
    text = written_text(tmp_path, synthetic("dragonstone-mine", records))
    assert "Seat 0 (greedy) wins 80% (76–84%) against a fair share of 50%." in text
    assert "measure the bots as much as the seating" in text
    assert "The seats hold different bots: a seat's rate measures its bots" in text
    assert "first-player advantage" not in text


def test_solo_team_and_partial_runs_render(tmp_path):
    solo_records = [
        GameRecord(
            i,
            i,
            ["greedy"],
            [60 + i % 7],
            [0] if i % 3 == 0 else [],
            20,
            90,
            False,
            {
                "mode": "solo",
                "difficulty": "hard",
                "won": i % 3 == 0,
                "margin": 4 if i % 3 == 0 else -8,
                "player_total": 60 + i % 7,
                "rival_total": 64,
                "used": [["pit-bend", f"hall-{i % 4}"]],
            },
            Outcome(
                OutcomeKind.SOLO,
                (60 + i % 7,),
                (0,) if i % 3 == 0 else (),
                solo_won=i % 3 == 0,
                rival_score=64,
            ),
        )
        for i in range(60)
    ]
    path = tmp_path / "solo.pdf"
    write_report(path, synthetic("stonespine-architects", solo_records, games=100, partial=True))
    assert preflight(path).ok
    text = " ".join(text_of(path).split())
    assert "Partial run: interrupted after 60 of 100 games" in text
    assert "The hard rival wins 67% (54–77%)" in text
    team_records = [
        GameRecord(
            i,
            i,
            ["greedy"] * 3,
            [10 + i % 9, 15, 20],
            [0, 1, 2],
            30,
            200,
            False,
            {"mode": "crisis", "team_total": 45 + i % 9, "won": True},
            Outcome(
                OutcomeKind.TEAM,
                (10 + i % 9, 15, 20),
                (0, 1, 2),
                team_won=True,
                team_score=45 + i % 9,
            ),
        )
        for i in range(50)
    ]
    path = tmp_path / "team.pdf"
    write_report(path, synthetic("gem-rush", team_records))
    assert preflight(path).ok
    text = " ".join(text_of(path).split())
    assert "Team score against the difficulty targets" in text and "Grandmaster" in text
    assert "Team greedy 50 / 50 100%" in text  # one team result, not one per seat
    assert "Seat 0 greedy 50 / 50" not in text and "Seat 0 greedy 13.8" in text
    path = tmp_path / "empty.pdf"
    write_report(path, _empty_run())
    assert preflight(path).ok and "nothing to report" in text_of(path)


def _empty_run() -> BalanceRun:
    return BalanceRun(
        "gemstone-caverns",
        "gemstone-caverns",
        "1.0.0",
        2,
        ["random", "random"],
        1,
        {},
        100,
        records=[],
        partial=True,
    )


def test_a_report_is_never_half_written(tmp_path, mixed_run):
    missing = tmp_path / "no-such-folder" / "balance.pdf"
    with pytest.raises(OSError):
        write_report(missing, mixed_run)
    assert not missing.parent.exists()


def test_target_labels_close_together_take_rows_of_their_own():
    st = Styles()
    # "Master 66" and "Grandmaster 72" 20 points apart overlap at 5.5 points: two rows
    placed = mark_rows([(100.0, "Master 66"), (120.0, "Grandmaster 72"), (300.0, "x 9")], st)
    assert [row for _, _, row in placed] == [0, 1, 0]
    assert [row for _, _, row in mark_rows([(0.0, "a"), (200.0, "b")], st)] == [0, 0]


def test_unreplicated_flags_and_untouched_components_are_in_the_report(tmp_path):
    # x: its user wins every game; y: its user wins the even-numbered games only
    # (the odd ones split evenly): 60 of 80, paired difference (60 - 20) / 80 = +50 points;
    # w: used 3 times.
    records = []
    for i in range(80):
        y_wins = i % 2 == 0 or i % 4 == 1
        records.append(GameRecord(i, i, ["greedy"] * 2, [1, 0], [0], 5, 5,
                                  extra={"used": [["x"], []]}))  # fmt: skip
        records.append(GameRecord(100 + i, 100 + i, ["greedy"] * 2,
                                  [1, 0] if y_wins else [0, 1], [0] if y_wins else [1], 5, 5,
                                  extra={"used": [["y"], ["w"] if i < 3 else []]}))  # fmt: skip
    path = tmp_path / "flags.pdf"
    write_report(path, synthetic("gemstone-caverns", records))
    text = " ".join(text_of(path).split())
    assert "y 80 75% 42% +50.0" in text and "flagged, not replicated" in text
    assert "Not replicated: the even- and odd-numbered games do not both show it" in text
    assert "fewer than 30 times: w (3)" in text
    assert "The bots: how strong, and what they played" in text


def test_with_ties_the_seats_are_drawn_over_the_untied_games(tmp_path):
    # 40 games: seat 0 wins 32, seat 1 wins 4, 4 ties: 32 of the 36 untied games (89%)
    results = [[1, 0]] * 32 + [[0, 1]] * 4 + [[1, 1]] * 4
    records = [
        GameRecord(i, i, ["greedy"] * 2, scores, top_seats(scores), 5, 5)
        for i, scores in enumerate(results)
    ]
    path = tmp_path / "ties.pdf"
    write_report(path, synthetic("gemstone-caverns", records))
    text = " ".join(text_of(path).split())
    assert "Seat 0 greedy 32 / 36 89%" in text and "Seat 1 greedy 4 / 36 11%" in text
    assert "With ties, the wins are counted over the untied games" in text

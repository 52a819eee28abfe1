"""Determinism across processes: the same command gives the same bytes whatever
PYTHONHASHSEED (the order of sets of strings) and however many workers play.
Each pair of runs is two real `protopress` processes, started side by side."""

import subprocess

import pytest

from protopress.games import builtin_ids

from .reliability_helpers import environment, files_under, protopress_command

SEEDS = (12345, 999)  # two hash seeds: set and dict-of-set orders differ between them
GAMES = builtin_ids()


def run_pair(first: tuple, second: tuple, timeout: float = 300):
    """Run two protopress commands at once, (args, hash seed) each; both must succeed."""
    processes = [
        subprocess.Popen(
            protopress_command(*args),
            env=environment(seed),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for args, seed in (first, second)
    ]
    results = [process.communicate(timeout=timeout) for process in processes]
    for process, (_, err) in zip(processes, results, strict=True):
        assert process.returncode == 0, err.decode()[-2000:]
    return [out for out, _ in results]


def assert_same_files(a, b) -> None:
    first, second = files_under(a), files_under(b)
    assert first, f"nothing written in {a}"
    assert sorted(first) == sorted(second)
    different = [name for name in first if first[name] != second[name]]
    assert not different, f"differ between hash seeds {SEEDS}: {different[:10]}"


def test_every_builtin_game_renders_the_same_pdfs_under_any_hash_seed(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_pair(
        (("render", "--all", "-o", a), SEEDS[0]),
        (("render", "--all", "-o", b), SEEDS[1]),
    )
    assert_same_files(a, b)
    assert len(list(a.rglob("*.pdf"))) >= 4 * 2


def test_pdfx_files_are_the_same_under_any_hash_seed(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_pair(
        (("render", "gemstone-caverns", "-o", a, "--pdfx"), SEEDS[0]),
        (("render", "gemstone-caverns", "-o", b, "--pdfx"), SEEDS[1]),
    )
    assert_same_files(a, b)
    assert len(list(a.glob("*.pdf"))) >= 2


def test_pngs_and_tabletop_simulator_files_are_the_same_under_any_hash_seed(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    options = ("--png", "--dpi", "72", "--tts")
    run_pair(
        (("render", "dragonstone-mine", "-o", a, *options), SEEDS[0]),
        (("render", "dragonstone-mine", "-o", b, *options), SEEDS[1]),
    )
    # saved objects point at their images by absolute file URL: the folder differs
    for path in (b / "tts").rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(b.as_uri(), a.as_uri()), encoding="utf-8")
    assert_same_files(a, b)
    assert list(a.rglob("*.png")) and list((a / "tts").rglob("*.json"))


SIMULATIONS = {  # test id: the game and its options
    "gem-rush": ("gem-rush", "--games", "12", "--players", "3"),
    "stonespine": ("stonespine-architects", "--games", "10", "--bot", "greedy", "--bot", "random"),
    "stonespine-solo": ("stonespine-architects", "--games", "10", "--solo", "--difficulty", "hard"),
    "dragonstone": ("dragonstone-mine", "--games", "10", "--bot", "greedy", "--bot", "random"),
    "gemstone": ("gemstone-caverns", "--games", "4", "--players", "3"),
}


@pytest.mark.parametrize("name", SIMULATIONS)
def test_simulate_prints_the_same_json_and_logs_under_any_hash_seed(tmp_path, name):
    logs = tmp_path / "logs-a", tmp_path / "logs-b"
    outputs = run_pair(
        *(
            (("simulate", *SIMULATIONS[name], "--seed", 41, "--json", "--log-dir", log), seed)
            for log, seed in zip(logs, SEEDS, strict=True)
        )
    )
    assert outputs[0] == outputs[1]
    assert b'"games"' in outputs[0]
    assert_same_files(*logs)


BALANCES = {
    "gem-rush": ("--games", "24", "--rotate"),
    "stonespine-architects": ("--games", "24", "--bot", "greedy", "--bot", "random"),
    "dragonstone-mine": ("--games", "24", "--players", "3"),
    "gemstone-caverns": ("--games", "12"),
}


@pytest.mark.parametrize("game", BALANCES)
def test_balance_gives_the_same_numbers_and_report_with_1_or_2_workers(tmp_path, game):
    runs = []
    for workers, seed in zip((1, 2), SEEDS, strict=True):
        folder = tmp_path / f"workers-{workers}"
        folder.mkdir()
        args = ("balance", game, "--seed", 8, *BALANCES[game], "--workers", workers,
                "--json", folder / "run.json", "--report", folder / "report.pdf")  # fmt: skip
        runs.append((args, seed))
    headlines = run_pair(*runs)
    assert headlines[0] == headlines[1]
    assert_same_files(tmp_path / "workers-1", tmp_path / "workers-2")


@pytest.mark.parametrize("game", GAMES)
def test_design_checks_report_the_same_findings_under_any_hash_seed(game):
    args = ("check", game, "--json", "--seed", 5)
    first, second = run_pair((args, SEEDS[0]), (args, SEEDS[1]))
    assert first == second
    assert b'"findings"' in first

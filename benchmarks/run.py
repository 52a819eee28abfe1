"""Runs the benchmarks, every one or those named, and records their figures as JSON.

    python benchmarks/run.py --list
    python benchmarks/run.py --quick                    # every benchmark at its quick scale
    python benchmarks/run.py --only engine_speed faces  # as the scripts' own defaults
    python benchmarks/run.py --quick --baseline /tmp/baseline   # with a checkout to compare

Each benchmark runs in a process of its own, one after another, with this
checkout's protopress first on the path, and hands its figures over with
`--json` (benchmarks/figures.py): each a value, its same-run baseline's value
and their ratio. The run is recorded in benchmarks/results/ as
<date>T<time>Z-<commit>.json, and copied to latest.json, with the machine
(cores, memory, CPU model, Python, load average at the start and the end), the
commit and whether the tree had uncommitted changes, and per benchmark its
arguments, exit status and seconds. Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"


@dataclass(frozen=True)
class Benchmark:
    """A script the runner runs: its arguments for a quick run, and the options it takes."""

    name: str
    quick: tuple[str, ...] = ()  # arguments of a quick run, besides the scale
    quick_scale: float | None = None  # its --scale in a quick run (None: it takes no --scale)
    checkout: Literal["no", "optional", "required"] = "no"  # does it take --baseline DIR?

    @property
    def script(self) -> Path:
        return HERE / f"{self.name}.py"


BENCHMARKS = {
    b.name: b
    for b in (
        Benchmark("balance_workers", ("--repeats", "1"), 0.05),
        Benchmark("check_large_stack"),
        Benchmark("cmyk_render", ("--repeats", "1")),
        Benchmark("data_rules", ("--blocks", "4"), 0.2),
        Benchmark("decision_costs", ("--repeats", "2"), 0.2),
        Benchmark("engine_instructions", ("--mcts-moves", "1"), 0.05, checkout="required"),
        Benchmark("engine_speed", ("--repeats", "2", "--mcts-moves", "2"), 0.2, "optional"),
        Benchmark("estimate_sample", ("--runs", "200", "--sizes", "40,200")),
        Benchmark("faces", ("--cards", "50", "--repeats", "2"), checkout="optional"),
        Benchmark("games_per_second", ("--games", "10")),
        Benchmark("gem_rush_games", ("--games", "20", "--greedy-games", "4")),
        Benchmark(
            "ladder", ("--rungs", "stonespine-solo", "--games", "10", "--budgets", "greedy,10")
        ),
        Benchmark("mine_graph", ("--mines", "200")),
        Benchmark(
            "play_table", ("--repeats", "1", "--games", "cottage-market", "dragonstone-mine")
        ),
        Benchmark("render_sheets", ("--cards", "100", "--repeats", "2")),
        Benchmark("run_estimate", ("--games-list", "dragonstone-mine,stonespine-architects"), 0.25),
        Benchmark("search_tiers", ("--games", "1")),
        Benchmark("solo_games", ("--games", "50", "--repeats", "2")),
        Benchmark("solo_rival", ("--games", "30", "--workers", "1")),
        Benchmark("stonespine_strength", ("--games", "30"), checkout="optional"),
        Benchmark("tiled_board", ("--repeats", "3")),
        Benchmark("tuner_cost", ("--seeds", "1", "--games", "200")),
        Benchmark("used_record", ("--repeats", "1"), 0.2),
        Benchmark("validate_catalog", ("--components", "2000", "--repeats", "3")),
        Benchmark("yaml_catalog"),
    )
}
# scripts that need inputs of their own (a revision, two render folders): run by hand
TOOLS = {
    "compare_layouts": "needs a git revision: python benchmarks/compare_layouts.py REV",
    "compare_renders": "needs two renders: python benchmarks/compare_renders.py --help",
}
HELPERS = {"run", "figures", "timing"}  # this runner and the scripts' shared code


def scripts() -> list[str]:
    """Every script in benchmarks/, by name."""
    return sorted(path.stem for path in HERE.glob("*.py"))


def kind(name: str) -> str:
    if name in BENCHMARKS:
        return "benchmark"
    if name in TOOLS:
        return "tool"
    return "helper" if name in HELPERS else "unregistered"


def summary(name: str) -> str:
    """The first line of a script's docstring, read without importing it."""
    tree = ast.parse((HERE / f"{name}.py").read_text(encoding="utf-8"))
    return (ast.get_docstring(tree) or "").split("\n")[0]


def machine() -> dict[str, object]:
    memory = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    memory = round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    cpu = platform.processor() or None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in info if line.startswith("model name")),
                cpu,
            )
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "memory_gib": memory,
        "cpu": cpu,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "load_average": [round(load, 2) for load in os.getloadavg()],
    }


def commit() -> dict[str, object]:
    """The checkout's commit, and whether it has changes (the results folder aside)."""

    def git(*arguments: str) -> str:
        found = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True)
        return found.stdout if found.returncode == 0 else ""

    changed = [  # each line "XY path": not stripped, as X may be a space
        line
        for line in git("status", "--porcelain").splitlines()
        if not line[3:].startswith("benchmarks/results/")
    ]
    return {"commit": git("rev-parse", "HEAD").strip() or None, "dirty": bool(changed)}


def arguments_of(benchmark: Benchmark, options: argparse.Namespace) -> list[str]:
    found = list(benchmark.quick) if options.quick else []
    scale = options.scale
    if scale is None and options.quick:
        scale = benchmark.quick_scale
    if scale is not None and benchmark.quick_scale is not None:
        found += ["--scale", str(scale)]
    if options.baseline is not None and benchmark.checkout != "no":
        found += ["--baseline", str(options.baseline)]
    return found


def run_one(benchmark: Benchmark, options: argparse.Namespace, folder: Path) -> dict[str, object]:
    """The benchmark run in a process of its own: what it printed goes to this
    process's output, its figures into the record."""
    arguments = arguments_of(benchmark, options)
    figures_file = folder / f"{benchmark.name}.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    print(f"== {benchmark.name} {' '.join(arguments)}", flush=True)
    start = time.perf_counter()
    found = subprocess.run(
        [sys.executable, str(benchmark.script), *arguments, "--json", str(figures_file)],
        cwd=ROOT,
        env=env,
    )
    record: dict[str, object] = {
        "arguments": arguments,
        "exit_status": found.returncode,
        "seconds": round(time.perf_counter() - start, 2),
    }
    if figures_file.is_file():
        record.update(json.loads(figures_file.read_text(encoding="utf-8")))
    return record


def chosen(options: argparse.Namespace, parser: argparse.ArgumentParser) -> list[Benchmark]:
    """The benchmarks to run: those named, or every one (those needing a checkout to
    compare only with --baseline)."""
    if not options.only:
        return [b for b in BENCHMARKS.values() if b.checkout != "required" or options.baseline]
    picked = []
    for name in options.only:
        name = name.removesuffix(".py")
        if name in TOOLS:
            parser.error(f"{name} is a tool, not run by the runner: it {TOOLS[name]}")
        if name not in BENCHMARKS:
            parser.error(f"no benchmark {name!r}; benchmarks: {', '.join(BENCHMARKS)}")
        if BENCHMARKS[name].checkout == "required" and options.baseline is None:
            parser.error(f"{name} needs --baseline DIR, a checkout to compare with")
        picked.append(BENCHMARKS[name])
    return picked


def print_listing() -> None:
    for name in scripts():
        benchmark = BENCHMARKS.get(name)
        note = TOOLS.get(name, "")
        if benchmark is not None:
            quick = list(benchmark.quick)
            if benchmark.quick_scale is not None:
                quick += ["--scale", str(benchmark.quick_scale)]
            note = f"quick: {' '.join(quick) or '(its defaults)'}"
            if benchmark.checkout != "no":
                note += f"; --baseline DIR {benchmark.checkout}"
        print(f"{name:<20} {kind(name):<10} {summary(name)}")
        if note:
            print(f"{'':<31} {note}")


def print_table(records: dict[str, dict]) -> None:
    print(f"\n{'benchmark: figure':<72}{'value':>12}{'baseline':>12}{'ratio':>9}")
    for name, record in records.items():
        if record.get("exit_status"):
            print(f"{name}: failed (exit status {record['exit_status']})")
        for figure in record.get("figures", []):
            baseline, ratio = figure["baseline"], figure["ratio"]
            print(
                f"{(name + ': ' + figure['name'])[:71]:<72}{figure['value']:12.4g}"
                f"{'' if baseline is None else format(baseline, '12.4g'):>12}"
                f"{'' if ratio is None else format(ratio, '8.2f') + 'x':>9}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the scripts and exit")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these benchmarks")
    parser.add_argument("--quick", action="store_true", help="each benchmark at its quick scale")
    parser.add_argument(
        "--scale", type=float, help="passed to the benchmarks that take --scale (games per run)"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="a checkout to compare with, passed to the benchmarks that take one",
    )
    parser.add_argument(
        "--results", type=Path, default=RESULTS, help="where to record (default benchmarks/results)"
    )
    options = parser.parse_args()
    if options.list:
        print_listing()
        return 0
    if options.baseline is not None and not (options.baseline / "protopress").is_dir():
        parser.error(f"--baseline {options.baseline}: no protopress package in that folder")
    picked = chosen(options, parser)
    started = time.gmtime()
    document: dict[str, object] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", started),
        "machine": machine(),
        **commit(),
        "quick": options.quick,
        "scale": options.scale,
        "baseline_checkout": None if options.baseline is None else str(options.baseline),
    }
    records: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        for benchmark in picked:
            records[benchmark.name] = run_one(benchmark, options, Path(folder))
    document["load_average_end"] = [round(load, 2) for load in os.getloadavg()]
    document["benchmarks"] = records
    options.results.mkdir(parents=True, exist_ok=True)
    short = str(document["commit"] or "unknown")[:7]
    path = options.results / f"{time.strftime('%Y-%m-%dT%H%M%SZ', started)}-{short}.json"
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(path, options.results / "latest.json")
    print_table(records)
    print(f"\nrecorded: {path}")
    return 1 if any(record["exit_status"] for record in records.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

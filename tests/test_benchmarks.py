"""benchmarks/ as a harness: the runner lists every script, each script answers
--help, the baselines import nothing of protopress, and the README names every
benchmark. No benchmark runs here (benchmarks/ measures speed, tests do not)."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
BARE = BENCHMARKS / "bare"
SCRIPTS = sorted(path.stem for path in BENCHMARKS.glob("*.py"))
BARE_SCRIPTS = sorted(path.stem for path in BARE.glob("*.py") if path.stem != "report")


def _env() -> dict[str, str]:
    """This checkout's protopress first on the path, as benchmarks/run.py runs the scripts."""
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in paths if path))


def _run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, command)], capture_output=True, text=True, env=_env(), cwd=ROOT
    )


def _listing() -> dict[str, str]:
    """run.py --list: each script's name and kind (its lines that start with a name)."""
    found = _run(BENCHMARKS / "run.py", "--list")
    assert found.returncode == 0, found.stderr
    rows = [line.split() for line in found.stdout.splitlines() if line[:1].strip()]
    return {row[0]: row[1] for row in rows}


def test_the_runner_lists_every_script_and_knows_what_each_is() -> None:
    listed = _listing()
    assert sorted(listed) == SCRIPTS
    unregistered = [name for name, kind in listed.items() if kind == "unregistered"]
    assert not unregistered, f"register these in benchmarks/run.py: {unregistered}"
    assert listed["run"] == "helper" and listed["engine_speed"] == "benchmark"


def test_every_script_answers_help() -> None:
    """Every script's --help, the processes started together (each imports protopress)."""
    scripts = [f"{name}.py" for name in SCRIPTS if name not in ("figures", "timing")]
    scripts += [f"bare/{name}.py" for name in BARE_SCRIPTS]
    env = _env()
    started = {
        script: subprocess.Popen([sys.executable, str(BENCHMARKS / script), "--help"], cwd=ROOT,
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for script in scripts
    }  # fmt: skip
    failed = {}
    for script, process in started.items():
        out, err = process.communicate(timeout=300)
        if process.returncode != 0 or not out.startswith("usage:"):
            failed[script] = err[-500:]
    assert not failed, failed


def _module(name: str) -> ModuleType:
    """A script of benchmarks/ imported by path (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_hands_its_figures_over_with_json() -> None:
    for name in _module("run").BENCHMARKS:
        text = (BENCHMARKS / f"{name}.py").read_text(encoding="utf-8")
        assert "add_json_option(parser)" in text and "write_json(" in text, name


@pytest.mark.parametrize("name", BARE_SCRIPTS)
def test_a_baseline_imports_nothing_of_protopress(name: str) -> None:
    tree = ast.parse((BARE / f"{name}.py").read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    ours = {module for module in imported if module.split(".")[0] == "protopress"}
    benchmark_modules = {module for module in imported if module.split(".")[0] in SCRIPTS}
    assert not ours and not benchmark_modules, (ours, benchmark_modules)


def test_a_baseline_process_reports_and_refuses_once_protopress_is_imported(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.json"
    catalog.write_text('{"cards": [1, 2, 3]}')
    found = _run(BARE / "json_load.py", catalog, "--repeats", "1")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["best"] >= 0
    code = f"import sys; sys.path.insert(0, {str(BARE)!r}); import protopress.components; from report import report; report({{}})"  # fmt: skip
    refused = _run("-c", code)
    assert refused.returncode != 0
    assert refused.stderr.startswith("a baseline imported protopress: protopress, ")
    assert "protopress.components," in refused.stderr


def test_a_figure_is_its_value_over_its_baseline(tmp_path: Path) -> None:
    figures = _module("figures")
    slower = figures.Figure("render", 1.5, "s", 1.2, "bare reportlab")
    faster = figures.Figure("games", 30.0, "games/s", 40.0, "baseline", better="higher")
    alone = figures.Figure("memory", 80.0, "MB")
    assert slower.ratio == pytest.approx(1.25)
    assert faster.ratio == pytest.approx(0.75)
    assert alone.ratio is None
    path = tmp_path / "figures.json"
    figures.write_json(path, [slower, alone], details={"rungs": 1})
    written = json.loads(path.read_text())
    assert written["figures"][0] == {
        "name": "render", "value": 1.5, "unit": "s", "baseline": 1.2,
        "baseline_name": "bare reportlab", "better": "lower", "ratio": pytest.approx(1.25),
    }  # fmt: skip
    assert written["figures"][1]["ratio"] is None and written["details"] == {"rungs": 1}
    figures.write_json(None, [slower])  # no file asked for: nothing written, no error


def test_the_readme_names_every_benchmark_and_tool() -> None:
    readme = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    missing = [
        name
        for name, kind in _listing().items()
        if kind in ("benchmark", "tool") and f"`{name}.py`" not in readme
    ]
    assert not missing, f"benchmarks/README.md does not name: {missing}"

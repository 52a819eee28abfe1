"""The package's imports point one way.

The import contracts in pyproject.toml ([tool.importlinter]: the rules core's
layers, each game's lookahead <- rules <- model, the core knowing no game, games
below the front ends) hold; and no import cycle runs anywhere in the package
(CYCLE_FREE), counting imports inside functions (a local import that dodges a
cycle at load time is still a cycle) but not those under TYPE_CHECKING, which
only annotations read.
"""

from __future__ import annotations

import ast
import io
from contextlib import redirect_stdout
from pathlib import Path

import networkx as nx
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
CYCLE_FREE = ("protopress",)


def test_the_import_contracts_hold():
    shown = io.StringIO()
    with redirect_stdout(shown):
        status = lint_imports(
            config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True
        )
    assert status == 0, shown.getvalue()


def test_no_import_cycle_anywhere_in_the_package():
    cycles = import_cycles(ROOT, CYCLE_FREE)
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_a_cycle_through_a_local_import_is_found_and_a_type_checking_one_is_not(tmp_path):
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from toy.top import Top\n"
        "def late():\n"
        "    from toy import high\n"
        "    return high\n"
    )
    (package / "high.py").write_text("import toy.low\n")
    (package / "top.py").write_text("from toy.low import late\nclass Top: ...\n")
    assert import_cycles(tmp_path, ("toy",)) == [["toy.high", "toy.low"]]


def import_cycles(root: Path, packages: tuple[str, ...]) -> list[list[str]]:
    """Each group of modules of packages that import one another, round (sorted names)."""
    modules = {name: path for package in packages for name, path in _modules(root, package).items()}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for target in _imported(name, path, modules):
            graph.add_edge(name, target)
    groups = [sorted(group) for group in nx.strongly_connected_components(graph)]
    looped = [group for group in groups if len(group) > 1 or graph.has_edge(group[0], group[0])]
    return sorted(looped)


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of package (dotted name: its file), a package by its __init__.py."""
    folder = root.joinpath(*package.split("."))
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that the module imports anywhere in its body, those
    under `if TYPE_CHECKING:` left out; `from a import b` names a.b when that is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and _is_type_checking(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in modules else base)
    return {target for target in found if target in modules}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module a `from ... import` reads, relative levels resolved against package."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )

"""No game knowledge outside its folder: the shared layers reach a game only
through its spec (protopress.games), never by importing its modules or naming it."""

import ast
from pathlib import Path

import pytest

import protopress
from protopress.games import BUILTIN, builtin_specs

ROOT = Path(protopress.__file__).parent
GAME_FOLDERS = [ROOT / "games" / package.rpartition(".")[2] for package in BUILTIN.values()]
NO_NAMES = ("cli", "web")  # folders that name no game at all, not even in words


def imported(path: Path) -> set[str]:
    """Every module path imports, anywhere in it (function-local imports too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def shared_modules() -> list[Path]:
    return [
        path
        for path in sorted(ROOT.rglob("*.py"))
        if not any(folder in path.parents for folder in GAME_FOLDERS)
    ]


def test_the_shared_modules_are_found():
    found = {path.relative_to(ROOT).as_posix() for path in shared_modules()}
    assert {"cli/play.py", "web/solo.py", "games/__init__.py", "companion.py"} <= found
    assert "games/gem_rush/commands.py" not in found


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_shared_module_imports_a_game(path):
    games = tuple(BUILTIN.values())
    reached = sorted(
        name for name in imported(path) if any(name.startswith(g + ".") or name == g for g in games)
    )
    assert reached == []


def test_the_command_line_and_the_pages_name_no_game():
    words = [w for spec in builtin_specs() for w in (spec.id, spec.title, spec.title.split()[0])]
    named = []
    for folder in NO_NAMES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".html", ".js"):
                text = path.read_text(encoding="utf-8")
                named += [f"{path.relative_to(ROOT)}: {w}" for w in words if w in text]
    assert named == []

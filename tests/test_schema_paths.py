"""Every `$schema` a built-in or example catalog, layout or rules file names resolves,
from the file's own folder as an editor resolves it, to the schema of the file's kind
as the package ships it (protopress/components/schemas, protopress/rules/data)."""

import json
from pathlib import Path

import pytest
import yaml

import protopress

REPO = Path(__file__).resolve().parents[1]
PACKAGE = Path(protopress.__file__).resolve().parent  # the installed package
SHIPPED = PACKAGE / "components" / "schemas"
CHECKOUT = REPO / "protopress"  # the schemas the examples name
SOURCE_SUFFIXES = (".json", ".yaml", ".yml")


def _sources(root: Path) -> list[Path]:
    """The catalog, layout and rules files under root (the shipped schemas, the rules
    schema of protopress/rules/data and a game's measured bot strengths aside)."""
    return sorted(
        path
        for path in root.rglob("*")
        if path.suffix in SOURCE_SUFFIXES
        and SHIPPED not in path.parents
        and not path.name.endswith(".schema.json")
        and path.name != "strength.json"
    )


BUILT_IN = _sources(PACKAGE)
EXAMPLES = _sources(REPO / "examples")


def _document(path: Path) -> dict:
    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _schema_of_kind(path: Path, document: dict) -> str:
    """The schema a file of this shape is read with, from the package's folder: a rules
    file names its version (`rules: 1`), a catalog its game, a layout the component kind
    it draws, a fragments file only fragments."""
    if "rules" in document:
        return "rules/data/rules.schema.json"
    if "game" in document:
        return "components/schemas/catalog.schema.json"
    if "kind" in document and "layouts" in path.parts:
        return "components/schemas/layout.schema.json"
    if set(document) - {"$schema"} == {"fragments"}:
        return "components/schemas/layout-fragments.schema.json"
    raise AssertionError(f"{path}: neither a rules file, a catalog, a layout nor fragments")


def test_the_walk_finds_every_built_in_game_and_the_examples():
    games = {path.parent.name for path in BUILT_IN if path.name == "catalog.json"}
    assert {"gem_rush", "stonespine_architects", "dragonstone_mine", "gemstone_caverns"} <= games
    assert any(path.parent.parent == PACKAGE / "generators" for path in BUILT_IN)
    assert any(path.name == "fragments.json" for path in BUILT_IN)
    assert EXAMPLES


@pytest.mark.parametrize("path", BUILT_IN + EXAMPLES, ids=lambda path: str(path.relative_to(REPO)))
def test_schema_resolves_to_the_shipped_schema_of_the_files_kind(path):
    document = _document(path)
    if path in EXAMPLES and "$schema" not in document:
        return  # an example may leave the schema out; a built-in file names it
    named = document["$schema"]
    resolved = (path.parent / named).resolve()
    # a built-in file names the schema shipped beside it (in the installed package); an
    # example names the checkout's, the same file when installed in place
    expected = (CHECKOUT if path in EXAMPLES else PACKAGE) / _schema_of_kind(path, document)
    assert resolved == expected, f"{path}: $schema {named!r} is {resolved}, not {expected}"
    assert resolved.is_file()

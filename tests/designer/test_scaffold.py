"""`new_project`: a starter project that validates, renders and imports."""

import json

import jsonschema
import pytest
import referencing
import referencing.jsonschema

from protopress.components import load_catalog
from protopress.components.schemas import schema_documents
from protopress.designer import export_table, import_table, new_project, read_table
from protopress.designer.table_cells import table_to_components
from protopress.generators.layout import load_layout
from protopress.generators.render import RenderOptions, render_catalog


@pytest.fixture
def project(tmp_path):
    folder = tmp_path / "Star Forge"
    new_project(folder, "Star Forge")
    return folder


def test_the_files(project):
    files = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    schemas = sorted(f"schemas/{name}" for name in schema_documents())
    assert files == sorted(
        ["README.md", "catalog.json", "cards.csv", "layouts/card.json", *schemas]
    )
    for name, document in schema_documents().items():
        assert json.loads((project / "schemas" / name).read_text()) == document


def test_the_catalog_is_valid(project):
    catalog = load_catalog(project / "catalog.json")
    assert (catalog.game, catalog.title, catalog.version) == ("star-forge", "Star Forge", "0.1.0")
    cards = catalog.of_kind("card")
    assert 4 <= len(cards) <= 5
    symbols = {symbol.id for symbol in catalog.of_kind("symbol")}
    assert 2 <= len(symbols) <= 3
    for card in cards:
        assert card["title"] and card["text"] and card.count >= 1
        assert card["cost"] and set(card["cost"]) <= symbols


def test_the_schema_references_work_from_the_files(project):
    """An editor resolves $schema from disk; plain jsonschema does the same here."""
    document = json.loads((project / "catalog.json").read_text())
    layout = json.loads((project / "layouts" / "card.json").read_text())
    assert document["$schema"] == "schemas/catalog.schema.json"
    assert layout["$schema"] == "../schemas/layout.schema.json"
    assert (project / document["$schema"]).is_file()
    assert (project / "layouts" / layout["$schema"]).resolve().is_file()
    registry = referencing.Registry().with_resources(
        (path.name, referencing.Resource.from_contents(json.loads(path.read_text())))
        for path in (project / "schemas").iterdir()
    )
    for instance, schema_file in (
        (document, "catalog.schema.json"),
        (layout, "layout.schema.json"),
    ):
        schema = json.loads((project / "schemas" / schema_file).read_text())
        jsonschema.Draft202012Validator(schema, registry=registry).validate(instance)


def test_the_layout_is_valid(project):
    layout = load_layout(project / "layouts" / "card.json")
    assert layout.kind == "card"
    assert layout.safe_zone_warnings() == []
    assert layout.back


def test_it_renders_without_warnings(project, tmp_path):
    catalog = load_catalog(project / "catalog.json")
    output = tmp_path / "output"
    result = render_catalog(
        catalog, RenderOptions(output_dir=output, layouts_dir=project / "layouts", png=True)
    )
    assert result.warnings == []
    assert output / "card-sheets.pdf" in result.files
    assert (output / "png" / "card" / "watchtower-front.png").is_file()


def test_the_spreadsheet_holds_the_same_cards(project):
    catalog = json.loads((project / "catalog.json").read_text())
    assert table_to_components(read_table(project / "cards.csv"), "card") == catalog["cards"]
    header = (project / "cards.csv").read_text().splitlines()[0]
    assert header == "id,count,title,text,cost[],points"
    before = (project / "catalog.json").read_text()
    assert import_table(project / "cards.csv", "card", output=project / "catalog.json") == catalog
    assert (project / "catalog.json").read_text() == before
    export_table(catalog, "card", project / "again.csv")
    assert (project / "again.csv").read_bytes() == (project / "cards.csv").read_bytes()


def test_the_readme_gives_the_next_steps(project):
    readme = (project / "README.md").read_text()
    assert readme.startswith("# Star Forge\n")
    for step in (
        "protopress validate catalog.json",
        "protopress render catalog.json\n",
        "protopress import cards.csv --kind card --output catalog.json",
        "protopress export-table catalog.json --kind card --output cards.xlsx",
        "protopress watch catalog.json\n",
        "output/star-forge/",
    ):
        assert step in readme


def test_the_title_defaults_to_the_folder_name(tmp_path):
    new_project(tmp_path / "moon_miners")
    catalog = load_catalog(tmp_path / "moon_miners" / "catalog.json")
    assert (catalog.game, catalog.title) == ("moon-miners", "Moon miners")


def test_an_empty_folder_is_fine(tmp_path):
    (tmp_path / "deck").mkdir()
    new_project(tmp_path / "deck", "Deck")
    assert (tmp_path / "deck" / "catalog.json").is_file()


def test_refuses_a_folder_that_is_not_empty(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError) as raised:
        new_project(folder, "Deck")
    assert str(raised.value) == (
        f"{folder} already exists and is not an empty folder; choose a new folder for the project"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    (tmp_path / "file").write_text("")
    with pytest.raises(FileExistsError):
        new_project(tmp_path / "file", "Deck")


def test_a_failure_halfway_leaves_no_half_made_project_and_a_retry_works(tmp_path, monkeypatch):
    from protopress.designer import scaffold

    real = scaffold.export_table

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scaffold, "export_table", full_disk)
    with pytest.raises(OSError, match="No space left"):
        new_project(tmp_path / "my-game")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(scaffold, "export_table", real)
    written = new_project(tmp_path / "my-game")
    assert (tmp_path / "my-game" / "cards.csv") in written
    assert all(path.is_file() for path in written)
    assert [p.name for p in tmp_path.iterdir()] == ["my-game"]


def test_a_folder_name_that_is_not_utf8_still_gives_a_rules_module_python_reads(tmp_path):
    """Found by the command-line fuzzing: `new --with-rules` on a folder whose
    name's bytes are not UTF-8 ended in UnicodeEncodeError (exit 70)."""
    import os

    name = os.fsdecode(b"game-\xed\xbf\xbf")
    written = new_project(tmp_path / name, rules=True)
    source = (tmp_path / name / "rules.py").read_bytes()
    compile(source, "rules.py", "exec")
    assert any(path.name == "rules.py" for path in written)

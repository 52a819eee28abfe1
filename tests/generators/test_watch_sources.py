"""watch follows what the catalog names: its layouts folder and the spreadsheet its
cards are imported from (a changed table is imported again and drawn), and writes
where render writes."""

from click.testing import CliRunner
from test_watch import Watcher

from protopress.cli import cli
from protopress.designer import new_project
from protopress.generators.render import RenderOptions


def test_a_changed_csv_is_imported_again_and_drawn(tmp_path):
    from pypdf import PdfReader

    project = tmp_path / "game"
    new_project(project)
    catalog = project / "catalog.json"
    # no layouts_dir: the catalog's own layouts folder is drawn (the cards' cost icons)
    watcher = Watcher(catalog, RenderOptions(output_dir=tmp_path / "out", layout="sheets"))
    try:
        first = watcher.next_event()
        assert first.kind == "rendered", first.message
        assert "warning" not in first.message  # drawn with layouts/card.json, not the built-in

        table = project / "cards.csv"
        table.write_text(table.read_text().replace("Woodcutter,", "Lumberjack,", 1))
        second = watcher.next_event()
        assert second.kind == "rendered", second.message
        assert second.message.splitlines()[0] == "rendered card"
        assert '"title": "Lumberjack"' in catalog.read_text()
        text = PdfReader(tmp_path / "out" / "card-sheets.pdf").pages[0].extract_text()
        assert text.count("Lumberjack") == 3  # its three copies

        table.write_text(table.read_text().replace(",3,", ",three,", 1))
        third = watcher.next_event()
        assert third.kind == "invalid"
        assert f"{table}!B2: expected an integer" in third.message
        assert '"title": "Lumberjack"' in catalog.read_text()  # nothing written
    finally:
        watcher.close()


def test_watch_writes_where_render_writes(tmp_path, monkeypatch):
    import protopress.generators.watch as watching

    new_project(tmp_path / "my-deck")
    seen = {}

    def once(catalog_path, options, report, should_stop, interval):
        seen["output"] = options.output_dir

    monkeypatch.setattr(watching, "watch", once)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["watch", "my-deck/catalog.json"])
    assert result.exit_code == 0, result.output
    assert str(seen["output"]) == "output/my-deck"  # the game id, as render's default
    assert "and my-deck/layouts and my-deck/cards.csv" in result.output


def test_the_preview_imports_a_changed_csv_and_shows_it(tmp_path):
    import os

    from protopress.web.preview import Preview

    project = tmp_path / "game"
    new_project(project)
    preview = Preview(project / "catalog.json")

    def titles():
        [cards] = [k for k in preview.state()["kinds"] if k["kind"] == "card"]
        return [component["title"] for component in cards["components"]]

    assert titles()[0] == "Woodcutter"
    table = project / "cards.csv"
    table.write_text(table.read_text().replace("Woodcutter,", "Lumberjack,", 1))
    later = table.stat().st_mtime_ns + 10**9  # a save a second later, whatever the clock
    os.utime(table, ns=(later, later))
    assert preview.refresh()
    assert titles()[0] == "Lumberjack"
    assert '"title": "Lumberjack"' in (project / "catalog.json").read_text()
    table.write_text(table.read_text().replace(",3,", ",three,", 1))
    os.utime(table, ns=(later + 10**9, later + 10**9))
    assert preview.refresh()
    assert any("cards.csv!B2: expected an integer" in p for p in preview.state()["problems"])

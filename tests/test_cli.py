"""The command line through click's CliRunner and through real subprocesses."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from located import position_of

from protopress import __version__
from protopress.cli import cli
from protopress.cli.app import KIT_COMMANDS
from protopress.components import BUILTIN_GAMES, builtin_catalog_path

PROTOPRESS = [sys.executable, "-m", "protopress"]
INVALID = (
    '{"game": "g", "title": "G", "version": "1", "gem_cards": [{"id": "c", "gems": ["ruby"]}]}'
)
RUBY = '"ruby"'
ROOT = Path(__file__).resolve().parents[1]


def invoke(*args):
    return CliRunner().invoke(cli, list(args), prog_name="protopress")


def test_version_and_help():
    assert invoke("--version").output == f"protopress, version {__version__}\n"
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("games", "validate", "schema"):
        assert command in result.output


def test_games_lists_every_builtin_game_with_its_kinds():
    result = invoke("games", "--json")
    assert result.exit_code == 0
    listing = {entry["game"]: entry for entry in json.loads(result.output)}
    assert set(listing) == set(BUILTIN_GAMES)
    rush = listing["gem-rush"]["kinds"]
    assert rush["room-tile"]["copies"] == 80
    assert rush["gem-card"]["copies"] == 75
    assert rush["skill-card"]["copies"] == 20
    assert listing["stonespine-architects"]["kinds"]["rival-card"]["copies"] == 9
    assert listing["gemstone-caverns"]["kinds"]["die"]["copies"] == 4
    text = invoke("games").output
    assert "gem-rush  Gem Rush" in text
    assert "room-tile" in text


def test_one_of_a_thing_is_said_in_the_singular(tmp_path):
    lines = invoke("games").output.splitlines()
    # DragonStone Mine has one tower design (4 copies); Gem Rush one first player marker
    assert "  tower                   1 design      4 copies" in lines
    assert "  first-player-marker     1 design      1 copy" in lines
    assert "  gem-card               53 designs    75 copies" in lines
    assert any("stop_at_target=  true or false (default false)" in line for line in lines)

    broken = tmp_path / "broken.json"
    broken.write_text(INVALID)
    assert invoke("validate", str(broken)).stderr == "0 valid, 1 invalid (1 problem)\n"

    cards = '{"game": "g", "title": "G", "version": "1", "cards": [{"id": "c", "title": "C"}]}'
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(cards)
    new.write_text(cards.replace('"c"', '"d"'))  # one card removed, one added
    assert invoke("diff", str(old), str(old)).stderr == "0 components changed\n"
    assert invoke("diff", str(old), str(new)).stderr == "2 components changed\n"
    new.write_text(cards.replace('"C"', '"Sea"'))
    assert invoke("diff", str(old), str(new)).stderr == "1 component changed\n"

    solo = invoke("simulate", "stonespine-architects", "--solo", "--games", "1")
    assert solo.output.startswith("stonespine-architects: 1 game, 1 player, seed 0\n")


def test_validate_all_builtin_games():
    result = invoke("validate", "--all")
    assert result.exit_code == 0, result.output
    assert [line.split()[1] for line in result.stdout.splitlines()] == [
        f"{game}.json" for game in BUILTIN_GAMES
    ]


def test_validate_reports_problems_and_exits_1(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(INVALID)
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert result.stdout == (
        f"{position_of(INVALID, RUBY, name=str(path))} /gem_cards/0/gems/0: "
        "'ruby' is not a gem of this catalog (it declares no gem components)\n"
    )


def test_validate_json_output(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(INVALID)
    result = invoke("validate", "--json", "gem-rush", str(path))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    valid, broken = report["catalogs"]
    assert valid == {
        "file": "gem-rush.json",
        "game": "gem-rush",
        "valid": True,
        "problems": [],
        "warnings": [],
    }
    assert broken["valid"] is False
    assert broken["game"] is None and broken["warnings"] == []  # every entry has every key
    assert broken["problems"] == [
        {
            "file": str(path),
            "line": 1,
            "column": INVALID.index(RUBY) + 1,
            "pointer": "/gem_cards/0/gems/0",
            "message": "'ruby' is not a gem of this catalog (it declares no gem components)",
        }
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["validate"], "name a game or a catalog file, or use --all"),
        (
            ["validate", "gem-rus"],
            "no such file or built-in game: gem-rus (did you mean 'gem-rush'?)",
        ),
        (["validate", "--strict", "gem-rush"], "No such option '--strict'"),
        (["schema", "room-tiles"], "unknown kind 'room-tiles' (did you mean 'room-tile'?)"),
    ],
)
def test_usage_errors_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.output


def test_validate_a_folder_is_a_usage_error(tmp_path):
    result = invoke("validate", str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path} is not a file" in result.output


def test_schema_prints_a_kind_schema():
    result = invoke("schema", "room-tile")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["title"] == "room-tile"
    assert "doors" in schema["properties"]


def test_schema_lists_kinds():
    result = invoke("schema")
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.output.splitlines()]
    assert {"room-tile", "chamber-card", "die", "action-card", "card", "catalog"} <= set(names)


def test_schema_output_dir_writes_every_file(tmp_path):
    result = invoke("schema", "--output-dir", str(tmp_path / "schemas"))
    assert result.exit_code == 0
    written = {path.name for path in (tmp_path / "schemas").iterdir()}
    assert "catalog.schema.json" in written
    assert "room-tile.schema.json" in written
    assert not [name for name in written if name.endswith(".tmp")]


def run(*args, cwd=None):
    return subprocess.run([*PROTOPRESS, *args], capture_output=True, text=True, cwd=cwd)


def test_python_dash_m_runs_the_cli():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"protopress, version {__version__}"


def test_subprocess_validate_all_and_an_invalid_file(tmp_path):
    assert run("validate", "--all").returncode == 0
    (tmp_path / "broken.json").write_text(INVALID)
    result = run("validate", "broken.json", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith(f"{position_of(INVALID, RUBY, name='broken.json')} /gem")
    assert "Traceback" not in result.stderr


def test_an_unreadable_file_is_reported_without_traceback(tmp_path, monkeypatch, capsys):
    from protopress import cli as cli_module

    path = tmp_path / "locked.json"
    path.write_text("{}")

    # inputs are opened with os.open (protopress.files.open_regular); as root a
    # chmod would not stop the read, so the open itself refuses
    opened = os.open

    def refuse(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return opened(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(sys, "argv", ["protopress", "validate", str(path)])
    with pytest.raises(SystemExit) as exit_:
        cli_module.main()
    assert exit_.value.code == 1
    assert capsys.readouterr().err == f"protopress: Permission denied: {path}\n"


def test_builtin_catalogs_name_their_schema_relative_to_the_file():
    for game in BUILTIN_GAMES:
        path = builtin_catalog_path(game)
        document = json.loads(path.read_text())
        assert (path.parent / document["$schema"]).resolve() == (
            Path(path).parent.parent.parent / "components" / "schemas" / "catalog.schema.json"
        ).resolve()


def test_check_reports_findings_and_is_reproducible():
    first = invoke("check", "gem-rush", "--seed", "3", "--json")
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["seed"] == 3
    checks = {finding["check"] for finding in report["findings"]}
    assert {"door-curve", "gem-balance", "mine-growth"} <= checks
    assert invoke("check", "gem-rush", "--seed", "3", "--json").stdout == first.stdout
    text = invoke("check", "gem-rush", "--seed", "3")
    assert any(line.startswith("info room_tiles: ") for line in text.stdout.splitlines())


def test_check_exits_1_on_an_error(tmp_path):
    path = tmp_path / "rush.json"
    rush = json.loads(builtin_catalog_path("gem-rush").read_text())
    rush["gem_cards"] = [card for card in rush["gem_cards"] if "electrum" not in card["gems"]]
    del rush["totals"]
    path.write_text(json.dumps(rush))
    result = invoke("check", str(path))
    assert result.exit_code == 1
    assert "error electrum: door costs ask for electrum" in result.stdout


def test_render_ends_with_a_summary_and_quiet_and_verbose_change_the_detail(tmp_path):
    normal = invoke("render", "gem-rush", "gemstone-caverns", "--layout", "sheets", "-o", tmp_path)
    assert normal.exit_code == 0, normal.output
    lines = normal.output.splitlines()
    assert not any(line.startswith("wrote ") for line in lines)
    assert any(line.startswith("gem-rush: 8 files, ") for line in lines), lines
    assert (
        "gem-rush: not in the print files, to buy or borrow: 7 dwarf standees (see parts.csv)"
        in lines
    )
    assert (
        "gem-rush: gem is not printed on its own: it is a definition that other components show (as icons, colours or rules)."
        in lines
    )
    assert lines[-1].startswith("done: 2 games, 13 files, ")
    assert lines[-1].endswith(f" in {tmp_path}/ (a folder per game)")
    assert not any("no layout" in line for line in lines)

    verbose = invoke("render", "gem-rush", "--layout", "sheets", "-o", tmp_path / "v", "-v")
    written = [line for line in verbose.output.splitlines() if line.startswith("wrote ")]
    assert f"wrote {tmp_path / 'v' / 'room-tile-sheets.pdf'}" in written
    assert f"wrote {tmp_path / 'v' / 'README.txt'}" in written and len(written) == 8

    quiet = invoke("render", "gem-rush", "--layout", "sheets", "-o", tmp_path / "q", "--quiet")
    assert quiet.exit_code == 0 and quiet.output == ""
    assert (tmp_path / "q" / "parts.csv").is_file()


def test_the_command_table_names_each_kit_command_with_the_module_defining_it():
    """app.KIT_COMMANDS is what the command modules register: each module, imported
    alone in a fresh process, registers exactly the commands the table gives it."""
    probe = (
        "import importlib, json, sys\n"
        "from protopress.cli.app import KIT_COMMANDS, cli\n"
        "module = sys.argv[1]\n"
        "importlib.import_module(module)\n"
        "mine = sorted(n for n, c in cli.commands._kit.items() if c.callback.__module__ == module)\n"
        "print(json.dumps(mine))\n"
    )
    modules = sorted(set(KIT_COMMANDS.values()))
    assert len(modules) == 8
    for module in modules:
        found = subprocess.run([sys.executable, "-c", probe, module], capture_output=True,
                               text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        expected = sorted(name for name, owner in KIT_COMMANDS.items() if owner == module)
        assert json.loads(found.stdout) == expected, module


def test_help_lists_every_kit_command():
    listed = CliRunner().invoke(cli, ["--help"]).output.partition("Commands:")[2]
    names = {line.split()[0] for line in listed.splitlines() if line.strip()}
    assert set(KIT_COMMANDS) <= names

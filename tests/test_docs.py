"""What the docs show works."""

import re
from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import load_catalog

ROOT = Path(__file__).resolve().parent.parent


def test_readme_catalog_example_is_valid(tmp_path):
    readme = (ROOT / "README.md").read_text()
    example = re.search(r"```json\n(.*?)```", readme, re.S).group(1)
    path = tmp_path / "example.json"
    path.write_text(example)
    catalog = load_catalog(path)
    assert catalog.copies("room-tile") == 1


def test_every_command_in_the_readme_exists():
    readme = (ROOT / "README.md").read_text()
    documented = set(re.findall(r"`protopress (\w[\w-]*)", readme))
    assert documented <= set(cli.commands) | {"--version", "--help"}
    for command in documented & set(cli.commands):
        assert CliRunner().invoke(cli, [command, "--help"]).exit_code == 0


def test_every_option_of_every_command_is_documented():
    cli_doc = (ROOT / "docs" / "cli.md").read_text()
    for name, command in cli.commands.items():
        assert f"## protopress {name}" in cli_doc, name
        for param in command.params:
            for option in param.opts:
                if option.startswith("-"):
                    assert option in cli_doc, f"{name} {option}"

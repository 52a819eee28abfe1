"""The command group every command module registers with, and its --debug flag.

The kit's commands are listed by name in KIT_COMMANDS with the module that
defines them; a module is imported (registering its commands) only when one of
its commands is looked up (run, or its line of the help shown), so that
`protopress render` loads what rendering needs and not the games' engines, the
bots or the web preview. The games add their own commands through their specs
(`GameSpec.commands`), loaded the same way.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any

import click

from protopress import __version__
from protopress.games import builtin_ids, game_commands, load_reference


class Settings:
    """What the group's own options set for the whole run."""

    debug = False


# The kit's commands: name -> the module whose import registers it with `cli`
# (tests/test_cli.py checks this table against what the modules register).
KIT_COMMANDS = {
    "balance": "protopress.cli.balance",
    **dict.fromkeys(("check", "diff", "games", "schema", "validate"), "protopress.cli.catalog"),
    "conform": "protopress.cli.conform",
    **dict.fromkeys(("export-table", "import", "new"), "protopress.cli.designer"),
    **dict.fromkeys(("play", "replay", "score", "simulate", "solo"), "protopress.cli.play"),
    **dict.fromkeys(("preflight", "render", "showcase", "watch"), "protopress.cli.render"),
    "tune": "protopress.cli.tune",
    "preview": "protopress.cli.web",
}


class CommandTable(MutableMapping[str, click.Command]):
    """The group's commands by name: the kit's (KIT_COMMANDS, registered by their
    modules) and the games' own (GameSpec.commands), each imported when first
    looked up. Listing the names imports none."""

    def __init__(self) -> None:
        self._kit: dict[str, click.Command] = {}

    def _kit_names(self) -> list[str]:
        return [*KIT_COMMANDS, *(name for name in self._kit if name not in KIT_COMMANDS)]

    def _games(self) -> dict[str, str]:
        return {n: ref for n, ref in game_commands().items() if n not in self._kit_names()}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._kit and name in KIT_COMMANDS:
            importlib.import_module(KIT_COMMANDS[name])
        if name in self._kit:
            return self._kit[name]
        reference = self._games()[name]
        command = load_reference(reference)
        if not isinstance(command, click.Command):
            raise TypeError(f"{reference} (command {name!r}) is not a click command")
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._kit[name] = command

    def __delitem__(self, name: str) -> None:
        del self._kit[name]

    def __iter__(self) -> Iterator[str]:
        return iter([*self._kit_names(), *self._games()])

    def __len__(self) -> int:
        return len(self._kit_names()) + len(self._games())


class KitAndGameCommands(click.Group):
    """The kit's commands and the games' own, with help naming the games."""

    def __init__(self, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name, commands=CommandTable(), **kwargs)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The docstring, with {games} read from the registry."""
        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(text.replace("{games}", ", ".join(builtin_ids())))


@click.group(cls=KitAndGameCommands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="protopress")
@click.option(
    "--debug", is_flag=True, help="Show the traceback of an internal error (for a bug report)."
)
def cli(debug):
    """protopress: design-prototyping and print kit for tabletop games.

    Catalogs (JSON) describe a game's components; protopress checks them,
    renders print files, and plays, scores and balances the games.
    Built-in games: {games}.
    """
    Settings.debug = debug
    # File names whose bytes are not UTF-8 reach Python as surrogate escapes: print
    # them back as the same bytes instead of failing on them.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")

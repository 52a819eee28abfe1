"""The command group every command module registers with, and its --debug flag.

The games add their own commands through their specs (`GameSpec.commands`):
the group lists them by name and imports one only when it is run or its help
is shown.
"""

from __future__ import annotations

import inspect
import sys

import click

from protopress import __version__
from protopress.games import builtin_ids, game_commands, load_reference


class Settings:
    """What the group's own options set for the whole run."""

    debug = False


class KitAndGameCommands(click.Group):
    """The kit's commands, the games' own commands, and help naming the games."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *game_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        reference = game_commands().get(cmd_name)
        if command is not None or reference is None:
            return command
        loaded = load_reference(reference)
        if not isinstance(loaded, click.Command):
            raise TypeError(f"{reference} (command {cmd_name!r}) is not a click command")
        return loaded

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

"""The command group every command module registers with, and its --debug flag."""

from __future__ import annotations

import sys

import click

from protopress import __version__


class Settings:
    """What the group's own options set for the whole run."""

    debug = False


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="protopress")
@click.option(
    "--debug", is_flag=True, help="Show the traceback of an internal error (for a bug report)."
)
def cli(debug):
    """protopress: design-prototyping and print kit for tabletop games.

    Catalogs (JSON) describe a game's components; protopress checks them,
    renders print files, and plays, scores and balances the games.
    Built-in games: dragonstone-mine, gemstone-caverns, gem-rush, stonespine-architects.
    """
    Settings.debug = debug
    # File names whose bytes are not UTF-8 reach Python as surrogate escapes: print
    # them back as the same bytes instead of failing on them.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")

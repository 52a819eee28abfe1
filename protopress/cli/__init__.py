"""The protopress command line: thin commands that parse options and call the library.

One module per group of commands (catalog, render, play, designer, balance, tune,
conform, web); each registers its commands with the group in app.py, which imports
a module only when one of its commands is used (app.KIT_COMMANDS).
"""

from __future__ import annotations

import sys
import traceback

import click

from protopress.cli.app import Settings, cli
from protopress.components import InvalidInput
from protopress.components.problems import printable
from protopress.rules.core import RulesFault

__all__ = ["cli", "main"]


def main():
    """Entry point: no traceback reaches the user unless --debug asks for it."""
    Settings.debug = "--debug" in sys.argv[1:]
    try:
        cli(prog_name="protopress")
    except OSError as error:
        if Settings.debug:
            traceback.print_exc()
        line = f"protopress: {error.strerror or error}: {error.filename or ''}".rstrip(": ")
        click.echo(printable(line), err=True)
        sys.exit(1)
    except InvalidInput as invalid:  # raised outside a command's own handling
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    except RulesFault as fault:  # a designer's rules broke the contract: theirs to mend
        if Settings.debug:
            traceback.print_exc()
        click.echo(f"protopress: {printable(str(fault))}", err=True)
        sys.exit(1)
    except Exception as error:  # a bug: say so briefly instead of a traceback
        if Settings.debug:
            traceback.print_exc()
        hint = "" if Settings.debug else " (run again with --debug for the traceback)"
        # the error's text may quote an input's bytes: escaped, and on one line
        text = printable(f"{type(error).__name__}: {error}")
        click.echo(f"protopress: internal error: {text}{hint}", err=True)
        sys.exit(70)

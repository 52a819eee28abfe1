"""The balance lab's command: many games in parallel, statistics, a report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from protopress.cli.app import cli
from protopress.cli.common import (
    bot_option,
    catalog_option,
    catalog_reference,
    eta_bar,
    game_options_option,
    game_spec,
    invalid,
    play_options,
    refuse_overwrite,
    rules_code_option,
    rules_option,
    solo_options,
)
from protopress.components import InvalidInput

INTERRUPTED = 130  # the shell's code for a run stopped by Ctrl-C: partial numbers were written


@cli.command()
@click.argument("game_id", metavar="GAME")
@catalog_option("Play with this catalog instead of the built-in one.")
@click.option("--games", type=click.IntRange(1, 100_000_000), default=10_000, show_default=True)
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True)
@rules_option
@rules_code_option
@bot_option
@click.option("--rotate", is_flag=True, help="Rotate the bots through the seats game by game.")
@click.option("--seed", type=int, default=0, show_default=True)
@game_options_option
@solo_options
@click.option("--workers", type=click.IntRange(0, 256), default=0,
              help="Worker processes (default 0: one per CPU).")  # fmt: skip
@click.option(
    "--scheduler", help="Address of a Dask scheduler to run on (needs protopress[cluster])."
)
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the PDF report here.")  # fmt: skip
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the numbers (and every game's record) as JSON here.")  # fmt: skip
@click.option("--compare", "compare_with", nargs=2, metavar="OLD NEW",
              help="Run two catalogs on common seeds and report what moved.")  # fmt: skip
def balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed,
            game_options, solo, difficulty, workers, scheduler, report_path, json_path,
            compare_with):  # fmt: skip
    """Simulate many games in parallel and report balance statistics with 95% intervals.

    Same seed, same numbers, whatever the number of workers (unless a search bot
    is budgeted in milliseconds: then the machine's speed decides). Ctrl-C keeps the
    games already played and says how many they cover. SIGTERM or SIGHUP stops the
    workers and writes nothing more (exit 143 or 129).
    """
    from protopress.signals import Stopped, stopping_on_signals

    written: list[Path] = []
    with stopping_on_signals():
        try:
            _balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed,
                     game_options, solo, difficulty, workers, scheduler, report_path, json_path,
                     compare_with, written)  # fmt: skip
        except Stopped as stop:
            click.echo(f"stopped by {stop.name}: the workers are stopped, {_so_far(written)}",
                       err=True)  # fmt: skip
            sys.exit(stop.exit_status)
        except KeyboardInterrupt:  # outside the games (those keep what was played)
            click.echo(f"interrupted: {_so_far(written)}", err=True)
            sys.exit(INTERRUPTED)


def _so_far(written: list[Path]) -> str:
    return f"only {', '.join(map(str, written))} written" if written else "nothing written"


def _balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed,
             game_options, solo, difficulty, workers, scheduler, report_path, json_path,
             compare_with, written: list[Path]):  # fmt: skip
    """The balance command; written collects the files written, in order."""
    from protopress.balance import (
        MissingExtra,
        compare,
        format_comparison,
        headline,
        run_balance,
        summarize_run,
        write_json,
        write_report,
    )  # fmt: skip
    from protopress.rules.simulate import seats

    spec = game_spec(game_id, rules, rules_code)
    refuse_overwrite([report_path, json_path], [catalog_path, *(compare_with or ())])
    options, players = play_options(spec, game_options, solo, difficulty, players)
    reference = catalog_reference(spec, catalog_path)
    bot_names = seats(list(bots), players)

    def run(catalog_ref):
        with eta_bar(games, f"{game_id}") as progress:
            return run_balance(game_id, catalog_ref, games, players, bot_names, seed, options,
                               workers=workers or None, progress=progress, scheduler=scheduler,
                               rotate=rotate, rules=rules, rules_code=rules_code)  # fmt: skip

    try:
        if compare_with:
            old, new = (run(reference) for reference in compare_with)
            for line in format_comparison(compare(old, new)):
                click.echo(line)
            return
        result = run(reference)
    except MissingExtra as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as error:  # a --catalog or --compare catalog with problems
        raise invalid(error, "not a valid catalog; run protopress validate for details") from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    summary = summarize_run(result)
    if result.partial:
        click.echo(f"interrupted: these numbers cover {result.covered} of {games} games", err=True)
    for line in headline(summary):
        click.echo(line)
    if report_path:
        write_report(report_path, result, summary)
        written.append(report_path)
        click.echo(f"wrote {report_path}", err=True)
    if json_path:
        write_json(json_path, result, summary)
        written.append(json_path)
        click.echo(f"wrote {json_path}", err=True)
    if result.partial:
        sys.exit(INTERRUPTED)

"""The tuner's command: the smallest catalog edits that bring every goal inside its band."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from protopress.cli.app import cli
from protopress.cli.bots import bot_option
from protopress.cli.common import (
    catalog_option,
    catalog_reference,
    game_options_option,
    game_spec,
    invalid,
    load_or_exit,
    play_options,
    refuse_missing_folder,
    refuse_overwrite,
    rules_option,
)
from protopress.components import InvalidInput

INTERRUPTED = 130  # Ctrl-C: nothing written
NOT_FOUND = 3  # no set of edits brought every goal inside its band within the budget


@cli.command()
@click.argument("game_id", metavar="GAME")
@catalog_option("Tune this catalog instead of the built-in one.")
@rules_option
@click.option("--goal", "goals", multiple=True, required=True,
              help='A goal (repeat): "seat win rates 45-55%", "no component effect above '
                   '10 points" (percentage points of win rate), "mean score 20-30".')  # fmt: skip
@click.option("--vary", "patterns", multiple=True, required=True,
              help="Numeric catalog fields the tuner may change (repeat): "
                   "collection.id.field, the id may be *, e.g. cards.*.points; a field "
                   "inside a field is dotted, e.g. scoring_tables.*.points.per_gem.")  # fmt: skip
@bot_option
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True)
@click.option("--rotate", is_flag=True, help="Rotate the bots through the seats game by game.")
@game_options_option
@click.option("--games", type=click.IntRange(1, 1_000_000), default=400, show_default=True,
              help="Games a candidate plays in full (it may stop early, clearly off).")  # fmt: skip
@click.option("--batch", type=click.IntRange(1, 100_000), default=100, show_default=True,
              help="Games between two looks at a candidate's goals.")  # fmt: skip
@click.option("--budget", type=click.IntRange(1, 100_000_000), default=20_000,
              show_default=True, help="Games the whole search may play.")  # fmt: skip
@click.option("--max-step", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Largest change of one field, in whole steps of 1.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(0, 256), default=1, show_default=True,
              help="Worker processes per batch (0: one per CPU).")  # fmt: skip
@click.option(
    "--scheduler", help="Address of a Dask scheduler to run on (needs protopress[cluster])."
)
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the proposed catalog here (default: NAME.tuned.json beside the "
                   "catalog; for a built-in game, GAME.tuned.json here).")  # fmt: skip
def tune(game_id, catalog_path, rules, goals, patterns, bots, players, rotate, game_options,
         games, batch, budget, max_step, seed, workers, scheduler, out_path):  # fmt: skip
    """Search the smallest set of edits to numeric catalog fields that brings every
    goal inside its band, and write the proposed catalog beside the original.

    Every candidate plays the same seeds (common random numbers), a batch at a
    time; one whose goal's 95% interval lies wholly outside its band stops early.
    Edits of one field are tried first, then pairs. Same inputs and seed, same
    output. Exit 0 with a proposed catalog, 3 when no fix was found within the budget.
    """
    from protopress.atomic import write_atomic
    from protopress.balance import MissingExtra
    from protopress.balance.goals import GoalError, parse_goal
    from protopress.balance.tune import (
        Tuner,
        VaryError,
        apply_edits,
        balance_batches,
        catalog_bytes,
        outcome_lines,
        resolve_vary,
    )
    from protopress.balance.tune import tune as search
    from protopress.rules.simulate import seats
    from protopress.signals import Stopped, stopping_on_signals
    from protopress.validators.diff import diff_catalogs

    try:
        parsed = [parse_goal(goal) for goal in goals]
    except GoalError as error:
        raise click.UsageError(str(error)) from None
    if budget < games:
        raise click.UsageError(f"--budget {budget} is less than the --games {games} of one run")
    spec = game_spec(game_id, rules)
    options, players = play_options(spec, game_options, False, None, players)
    reference = catalog_reference(spec, catalog_path)
    original = load_or_exit(reference)
    if reference == spec.id:  # a built-in game's own catalog: the proposal goes here
        out_path = out_path or Path(f"{spec.id}.tuned.json")
    else:
        source = Path(reference)
        out_path = out_path or source.with_name(f"{source.stem}.tuned.json")
    refuse_missing_folder("--out", out_path)
    refuse_overwrite([out_path], [original.path])
    document = dict(original.document)
    try:
        tunables = resolve_vary(document, patterns)
    except VaryError as error:
        raise click.UsageError(str(error)) from None
    play = balance_batches(spec.id, players, seats(list(bots), players), seed, options,
                           workers=workers or None, scheduler=scheduler, rotate=rotate,
                           rules=rules)  # fmt: skip
    try:  # candidates are written beside the output, where a cluster's workers can read them
        with (
            stopping_on_signals(),
            tempfile.TemporaryDirectory(prefix=".tune-", dir=out_path.resolve().parent) as work,
        ):
            tuner = Tuner(spec.id, document, parsed, tunables, play, Path(work), games=games,
                          batch=batch, budget=budget, max_step=max_step, options=options)  # fmt: skip
            outcome = search(tuner)
    except KeyboardInterrupt:
        click.echo("interrupted: nothing written", err=True)
        sys.exit(INTERRUPTED)
    except Stopped as stop:  # SIGTERM or SIGHUP: the workers are stopped, the candidates removed
        click.echo(f"stopped by {stop.name}: nothing written", err=True)
        sys.exit(stop.exit_status)
    except GoalError as error:  # a goal these games cannot measure
        raise click.ClickException(str(error)) from None
    except MissingExtra as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as error:
        raise invalid(error, "not a valid catalog; run protopress validate for details") from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:  # the folder of the output cannot be written
        raise click.ClickException(f"cannot write beside {out_path}: {error.strerror}") from None
    for line in outcome_lines(outcome, spec.id):
        click.echo(line)
    if outcome.fix is None:
        click.echo("nothing written", err=True)
        sys.exit(NOT_FOUND)
    if not outcome.edits:
        return
    write_atomic(out_path, catalog_bytes(apply_edits(document, outcome.edits)))
    click.echo("the edits as a catalog diff:")
    for change in diff_catalogs(original, load_or_exit(str(out_path))):
        for line in change.lines():
            click.echo(line)
    click.echo(f"wrote {out_path}", err=True)

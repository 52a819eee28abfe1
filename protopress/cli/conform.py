"""The conformance command: does a game's rules engine keep the engine contract?

The suite (protopress.rules.conform) is imported when the command runs, so the
command line starts without the engine core; its defaults here are the suite's
(a test holds them equal)."""

from __future__ import annotations

import json
import sys

import click

from protopress.cli.app import cli
from protopress.cli.common import (
    catalog_option,
    game_options_option,
    game_spec,
    rules_code_option,
    rules_option,
)
from protopress.cli.play import load_for


@cli.command()
@click.argument("game_id", metavar="GAME")
@rules_option
@rules_code_option
@catalog_option("Check with this catalog instead of the game's own.")
@click.option("--games", type=click.IntRange(1, 10_000), default=2, show_default=True,
              help="Games at each player count (random and greedy bots in turn).")  # fmt: skip
@click.option("--players", type=click.IntRange(1, 64), multiple=True,
              help="Check only this player count (repeat); default: every count the game allows.")  # fmt: skip
@click.option("--decisions", type=click.IntRange(1, 1_000_000), default=300,
              show_default=True, help="Decisions examined per game, spread over the game.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@game_options_option
@click.option("--json", "as_json", is_flag=True, help="Print the results and findings as JSON.")
def conform(game_id, rules, rules_code, catalog_path, games, players, decisions, seed, game_options,
            as_json):  # fmt: skip
    """Run the conformance suite on a game's rules: one line per check.

    Plays seeded games with random and greedy bots at every player count and
    checks legal actions, refusal of illegal ones, copy independence,
    determinism, replay through the action log, the outcome and the fast paths.
    Exit 0 when every check passes, 1 when one fails.
    """
    from protopress.rules.conform import Settings, run_suite, subject_of
    from protopress.rules.options import OptionError

    spec = game_spec(game_id, rules, rules_code)
    outside = [count for count in players if not spec.min_players <= count <= spec.max_players]
    if outside:
        raise click.UsageError(
            f"{spec.id} takes {spec.min_players} to {spec.max_players} players, not {outside[0]}"
        )
    try:
        options = spec.parse_options(dict(game_options))
    except OptionError as error:
        raise click.UsageError(f"{spec.id}: {error}") from None
    catalog = load_for(spec, catalog_path)
    settings = Settings(games, seed, decisions, tuple(players) or None)
    report = run_suite(subject_of(spec, catalog, options), settings)
    if as_json:
        run = {"seed": seed, "games_per_count": games, "decisions": decisions}
        click.echo(json.dumps({**run, **report.to_json()}, indent=2))
    else:
        for skip in report.skipped:
            click.echo(f"skipped {skip.players} players: {skip.reason}")
        for result in report.results:
            click.echo(result.line())
            for finding in result.findings[:5]:
                click.echo(f"  {finding}")
            if len(result.findings) > 5:
                click.echo(f"  ... and {len(result.findings) - 5} more")
        verdict = "conforms" if report.ok else "does not conform"
        if report.results[0].games == 0:
            verdict += ": no game could be set up with these options"
        click.echo(f"{spec.id} {verdict}", err=True)
    sys.exit(0 if report.ok else 1)

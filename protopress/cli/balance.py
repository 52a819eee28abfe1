"""The balance lab's command: many games in parallel, statistics, a report."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from protopress.cli.app import cli
from protopress.cli.bots import bot_option
from protopress.cli.common import (
    Problems,
    catalog_option,
    catalog_reference,
    eta_bar,
    game_options_option,
    game_spec,
    invalid,
    play_options,
    refuse_missing_folder,
    refuse_overwrite,
    rules_code_option,
    rules_option,
    solo_options,
)
from protopress.components import InvalidInput
from protopress.files import is_stream

if TYPE_CHECKING:
    from protopress.balance.store import GameStore

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
@click.option("--store", "store_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the games in this file (default: beside --json or --report, "
                   "NAME.games.jsonl; none beside a device or pipe such as /dev/stdout), "
                   "to resume or extend the run later.")  # fmt: skip
@click.option("--fresh", is_flag=True,
              help="Start the store afresh: play every game again.")  # fmt: skip
@click.option("--add-replay", "add_replays", multiple=True, metavar="LOG.json",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Add this finished playtest game (protopress play --web) to the --store "
                   "as a human game, kept apart from the bots' statistics; plays nothing.")  # fmt: skip
def balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed, game_options, solo,
            difficulty, workers, scheduler, report_path, json_path, compare_with, store_path,
            fresh, add_replays):  # fmt: skip
    """Simulate many games in parallel and report balance statistics with 95% intervals.

    Same seed, same numbers, whatever the number of workers (unless a search bot
    is budgeted in milliseconds: then the machine's speed decides). The games are
    kept in a store beside the report: the same command with more --games plays
    only the new ones, and a stopped run resumes where it stopped. On a terminal,
    a few games are timed first and the run's duration is estimated. Ctrl-C keeps
    the games already played and says how many they cover. SIGTERM or SIGHUP stops
    the workers and writes nothing more (exit 143 or 129).

    --add-replay adds games people played at the playtest table to a store (their
    game, catalog, rules, players and options must be the store's); the report
    then says how they went, apart from the bots' numbers.
    """
    from protopress.signals import Stopped, stopping_on_signals

    if add_replays:
        _add_replays(game_id, rules, rules_code, store_path, add_replays)
        return
    outputs = _Outputs()
    with stopping_on_signals():
        try:
            _balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed,
                     game_options, solo, difficulty, workers, scheduler, report_path, json_path,
                     compare_with, store_path, fresh, outputs)  # fmt: skip
        except Stopped as stop:
            click.echo(f"stopped by {stop.name}: the workers are stopped, {outputs.so_far()}",
                       err=True)  # fmt: skip
            sys.exit(stop.exit_status)
        except KeyboardInterrupt:  # outside the games (those keep what was played)
            click.echo(f"interrupted: {outputs.so_far()}", err=True)
            sys.exit(INTERRUPTED)


@dataclass
class _Outputs:
    """The files a run wrote, in order, and the store that keeps its games."""

    written: list[Path] = field(default_factory=list)
    store: GameStore | None = None

    def so_far(self) -> str:
        files = f"only {', '.join(map(str, self.written))} written" if self.written else (
            "nothing written")  # fmt: skip
        kept = self.kept()
        return files + (f"; {kept}" if kept else "")

    def kept(self) -> str:
        """What the store keeps, when it keeps games: the same command then plays the rest."""
        store = self.store
        if store is None or not store.written or not store.records:
            return ""
        return f"{len(store.records)} games kept in {store.path}: the same command plays the rest"


# what --add-replay takes from the command line: the rest belongs to a run
_ADDING = {"game_id", "rules", "rules_code", "store_path", "add_replays"}


def _add_replays(game_id, rules, rules_code, store_path, logs) -> None:
    """Add each log to the store as a human game, after checking it is the store's game."""
    from protopress.balance.human import NotAHumanGame, human_game
    from protopress.balance.store import SAME_GAME, GameStore, StoreError, settings_for
    from protopress.cli.play import replayed_log

    context = click.get_current_context()
    given = [
        param.opts[0]
        for param in context.command.params
        if param.name not in _ADDING
        and context.get_parameter_source(param.name) is click.core.ParameterSource.COMMANDLINE
    ]
    if given:
        raise click.UsageError(
            f"--add-replay adds played games to a store and plays none: leave out {given[0]}"
        )
    if store_path is None:
        raise click.UsageError("--add-replay adds games to a store: give --store FILE")
    try:
        store = GameStore.existing(store_path)
        for log_file in logs:
            replayed = replayed_log(log_file, rules, rules_code)
            log, spec = replayed.log, replayed.spec
            if spec.id != game_id:
                raise StoreError(f"{log_file} is a game of {spec.id}, not {game_id}")
            options = spec.parse_options(log.get("options") or {})  # as a run's: typed
            theirs = settings_for(spec, replayed.catalog_reference, log["players"],
                                  log["bots"], False, log["seed"], options)  # fmt: skip
            differences = store.settings.differences(theirs, SAME_GAME)
            if differences:
                raise StoreError(
                    f"{log_file}: the store holds games of another game: the log has "
                    f"{'; '.join(differences)}"
                )
            try:
                game = human_game(replayed.game, replayed.state, log, len(store.human))
            except NotAHumanGame as refused:
                raise StoreError(f"{log_file}: {refused}") from None
            store.add_human(game)
            seats = ", ".join(str(seat) for seat in game.people)
            click.echo(
                f"{log_file}: added to {store.path} as human game {len(store.human)} (a person "
                f"at seat {seats}; scores {', '.join(map(str, game.record.scores))})"
            )
    except StoreError as error:
        raise Problems([error]) from None
    click.echo(
        f"{store.path}: {len(store.human)} human game{'s' if len(store.human) != 1 else ''}, "
        f"kept apart from its {len(store.records)} bot games"
    )


def _balance(game_id, catalog_path, rules, rules_code, games, players, bots, rotate, seed, game_options,
             solo, difficulty, workers, scheduler, report_path, json_path, compare_with,
             store_path, fresh, outputs: _Outputs):  # fmt: skip
    """The balance command; outputs collects the files written."""
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
    from protopress.balance.estimate import estimate_words
    from protopress.balance.human import human_summary
    from protopress.balance.store import GameStore, StoreError, settings_for, store_beside
    from protopress.rules.simulate import seats

    spec = game_spec(game_id, rules, rules_code)
    if compare_with and (store_path or fresh):
        raise click.UsageError("--store and --fresh keep one run's games, not --compare's two")
    output = json_path or report_path
    if store_path is None and output is not None and not compare_with and not is_stream(output):
        store_path = store_beside(output)  # none beside /dev/stdout: no /dev/stdout.games.jsonl
    if store_path is not None and store_path in (json_path, report_path):
        raise click.UsageError(f"--store {store_path} is also an output; give another file")
    if fresh and store_path is None:
        raise click.UsageError("--fresh starts a store afresh: give --store, --json or --report")
    for option, path in (("--report", report_path), ("--json", json_path), ("--store", store_path)):
        refuse_missing_folder(option, path)
    refuse_overwrite([report_path, json_path, store_path],
                     [catalog_path, *(compare_with or ())])  # fmt: skip
    options, players = play_options(spec, game_options, solo, difficulty, players)
    reference = catalog_reference(spec, catalog_path)
    bot_names = seats(list(bots), players)

    def run(catalog_ref, store: GameStore | None = None):
        kept = store.below(games) if store else []
        if kept:
            click.echo(f"{store_path}: {len(kept)} games kept, {games - len(kept)} to play",
                       err=True)  # fmt: skip
        with eta_bar(games - len(kept), f"{game_id}") as progress:
            say = None
            if progress is not None:

                def say(estimate):
                    progress.say(f"estimate: {estimate_words(estimate, bot_names)}")

            return run_balance(game_id, catalog_ref, games, players, bot_names, seed, options,
                               workers=workers or None, progress=progress, scheduler=scheduler,
                               rotate=rotate, rules=rules, rules_code=rules_code, kept=kept,
                               on_records=store.add if store else None,
                               estimate=say)  # fmt: skip

    try:
        if compare_with:
            old, new = (run(reference) for reference in compare_with)
            for line in format_comparison(compare(old, new)):
                click.echo(line)
            return
        store = None
        if store_path is not None:
            settings = settings_for(spec, reference, players, bot_names, rotate, seed, options)
            store = outputs.store = GameStore.open(store_path, settings, fresh)
        result = run(reference, store)
        if store is not None and not result.partial:
            store.settle()
    except MissingExtra as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as error:  # a --catalog or --compare catalog with problems
        raise invalid(error, "not a valid catalog; run protopress validate for details") from None
    except StoreError as error:
        raise Problems([error]) from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    summary = summarize_run(result)
    if store is not None and store.human:
        summary["human_games"] = human_summary(store.human)
    if result.partial:
        kept = outputs.kept()
        rest = f"; {kept}" if kept else ""
        click.echo(f"interrupted: these numbers cover {result.covered} of {games} games{rest}",
                   err=True)  # fmt: skip
    for line in headline(summary):
        click.echo(line)
    if report_path:
        write_report(report_path, result, summary)
        outputs.written.append(report_path)
        click.echo(f"wrote {report_path}", err=True)
    if json_path:
        write_json(json_path, result, summary)
        outputs.written.append(json_path)
        click.echo(f"wrote {json_path}", err=True)
    if result.partial:
        sys.exit(INTERRUPTED)

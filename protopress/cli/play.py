"""Playing: simulate, replay, score, and the solo companion of a game that has one.

A game's own commands are its spec's, listed by cli/app.py.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from protopress.atomic import write_atomic
from protopress.cli.app import cli
from protopress.cli.bots import bot_option
from protopress.cli.common import (
    Problems,
    catalog_option,
    catalog_reference,
    game_options_option,
    game_spec,
    load_for,
    load_or_exit,
    play_options,
    refuse_special,
    refuse_unreadable_json,
    rival_difficulties,
    rules_code_option,
    rules_option,
    rules_spec,
    solo_options,
)
from protopress.cli.web import host_option as web_host_option
from protopress.cli.web import port_option as web_port_option
from protopress.cli.web import solo_web
from protopress.components import InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.explain import LocatedError
from protopress.files import read_text_again
from protopress.games import builtin_spec, builtin_specs, solo_companion, solo_companion_ids

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog
    from protopress.rules.core import AnyGame
    from protopress.rules.spec import GameSpec

# read from the specs' `difficulty` option, so that listing them imports no companion
COMPANION_DIFFICULTIES = rival_difficulties(s for s in builtin_specs() if s.solo_companion)


class SoloCommand(click.Command):
    """`solo --help` ends with how strong each game's rival is, as measured; the
    companions are imported only when the help is shown."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        for spec in builtin_specs():
            if spec.solo_companion:
                formatter.write_paragraph()
                formatter.write_text(f"{spec.title}: {solo_companion(spec).strength}")


@cli.command(cls=SoloCommand)
@click.argument("game", metavar="GAME", type=click.Choice(solo_companion_ids()))
@click.option(
    "--difficulty",
    type=click.Choice(COMPANION_DIFFICULTIES),
    default=COMPANION_DIFFICULTIES[0] if COMPANION_DIFFICULTIES else None,
    show_default=True,
)
@click.option(
    "--seed", type=int, default=None, help="Seed of the rival's deck (default: a new one, shown)."
)
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where the session is saved after every step (default: your data folder).")  # fmt: skip
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Resume a saved session.")  # fmt: skip
@click.option("--web", is_flag=True, help="Play in the browser (a phone or this machine) instead.")
@web_host_option
@web_port_option
def solo(game, difficulty, seed, save_path, resume_path, web, host, port):
    """Play solo at the table: protopress runs the automated rival for you.

    Answers are read from standard input (typed or piped); `help`, `status`,
    `undo` and `quit` work at every prompt; every step is saved. With --web
    the answers are taps on a page, on the same engine and the same save.
    """
    if resume_path is not None and not resume_path.exists():
        raise click.UsageError(f"{resume_path}: no such saved session to resume")
    for path in (resume_path, save_path):
        refuse_special(path, "a saved session")
        refuse_unreadable_json(path)
    from protopress.files import InUse, exclusive

    companion = solo_companion(builtin_spec(game))
    catalog = load_catalog(builtin_catalog_path(game), display=game + ".json")
    target = save_path or resume_path or companion.default_save_path()
    try:
        with exclusive(target, "the saved session"):
            if web:
                code = solo_web(companion, catalog, difficulty=difficulty, seed=seed,
                                save_path=save_path, resume_path=resume_path, host=host,
                                port=port)  # fmt: skip
            else:
                code = companion.run_session(catalog, sys.stdin, sys.stdout,
                                             difficulty=difficulty, seed=seed,
                                             save_path=save_path, resume_path=resume_path)  # fmt: skip
    except InUse as error:
        raise Problems([], f"protopress: {error.filename}: {error.strerror}") from None
    sys.exit(code)


@cli.command()
@click.argument("game_id", metavar="GAME")
@catalog_option("Play with this catalog instead of the built-in one.")
@rules_option
@rules_code_option
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True)
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@bot_option
@game_options_option
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each game's action log (for protopress replay) into this folder.",
)
@solo_options
@click.option("--json", "as_json", is_flag=True, help="Print every game's record as JSON.")
def simulate(game_id, catalog_path, rules, rules_code, games, players, seed, bots, game_options,
             log_dir, solo, difficulty, as_json):  # fmt: skip
    """Play whole games with bots and report scores, winners and lengths.

    The same command and seed print the same output, unless a search bot is
    budgeted in milliseconds (mcts:250ms): then the machine's speed decides.
    """
    from protopress.rules.core import derive_seed
    from protopress.rules.simulate import log_of, play, seats, summarize_records, summary_lines

    spec = game_spec(game_id, rules, rules_code)
    options, players = play_options(spec, game_options, solo, difficulty, players)
    game = spec.new_game()
    catalog = load_for(spec, catalog_path)
    bot_names = seats(list(bots), players)
    records = []
    if log_dir:
        log_dir.mkdir(parents=True, exist_ok=True)
    for index in range(games):
        game_seed = derive_seed(seed, "game", index)
        try:
            _, record, actions = play(game, catalog, bot_names, game_seed, options)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
        record.index = index
        records.append(record)
        if log_dir:
            log = log_of(game, catalog_reference(spec, catalog_path), catalog.version, bot_names, game_seed,
                         options, actions, record, rules)  # fmt: skip
            write_atomic(log_dir / f"game-{index:05d}.json", (json.dumps(log) + "\n").encode())
    summary = summarize_records(records, players)
    if as_json:
        click.echo(json.dumps({"game": game_id, "seed": seed, "players": players, "bots": bot_names,
                               "options": options, "summary": summary,
                               "games": [r.to_json() for r in records]}, indent=2))  # fmt: skip
        return
    for line in summary_lines(game_id, summary, bot_names, seed):
        click.echo(line)


@cli.command()
@click.argument(
    "log_file", metavar="LOG.json", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@rules_option
@rules_code_option
def replay(log_file, rules, rules_code):
    """Replay a game's action log (from simulate --log-dir) and print the final scores."""
    replayed = replayed_log(log_file, rules, rules_code)
    log, game, state = replayed.log, replayed.game, replayed.state
    if not game.is_over(state) and log.get("limit") is not True:
        click.echo(f"{log_file}: the log ends after {len(log['actions'])} actions, before the "
                   "game is over (a truncated log?)", err=True)  # fmt: skip
        sys.exit(1)
    scores = game.scores(state)
    click.echo(f"{game.id}: {len(log['actions'])} actions replayed")
    score_lines = getattr(game, "score_lines", None)  # a rules file's named score lines
    for seat, score in enumerate(scores):
        lines = score_lines(state, seat) if score_lines is not None else []
        shown = ", ".join(f"{name} {value}" for name, value in lines)
        click.echo(f"  seat {seat}: {score}" + (f" ({shown})" if len(lines) > 1 else ""))
    if "scores" in log and list(log["scores"]) != list(scores):
        click.echo(f"{log_file}: the log recorded scores {log['scores']}, the replay gives {scores}",
                   err=True)  # fmt: skip
        sys.exit(1)


@dataclass(frozen=True)
class Replayed:
    """An action log played again: the log, its rules, its catalog (and the reference
    it was loaded by) and the final state."""

    log: dict
    spec: GameSpec
    game: AnyGame
    catalog: Catalog
    catalog_reference: str
    state: Any


def replayed_log(log_file: Path, rules: str | None, rules_code: str | None) -> Replayed:
    """The log at log_file played again, every action checked; what is wrong with it
    (its shape, its catalog, an illegal action) is said in a located line, exit 1."""
    from protopress.components.explain import Located
    from protopress.components.loader import locate, parse_json_file
    from protopress.games import known_ids, spec_for
    from protopress.rules.simulate import log_problems
    from protopress.rules.simulate import replay as replay_actions

    name = str(log_file)
    try:
        log = parse_json_file(log_file, name)
        if not rules and isinstance(log, dict) and isinstance(log.get("rules"), str):
            raise click.UsageError(
                f"{name} was played with --rules {log['rules']}: replay it with the same"
            )
        engines = {game_id: spec_for(game_id) for game_id in known_ids()}
        if rules:
            own = rules_spec(rules, rules_code)
            engines[own.id] = own
        problems = log_problems(log, engines)
        if problems:
            findings = [Located(pointer, message) for pointer, message in problems]
            text = read_text_again(log_file)
            raise InvalidInput(locate(name, text, findings))
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        click.echo(f"{name} is not an action log that protopress can replay", err=True)
        sys.exit(1)
    game_id = log["game"]
    spec = game_spec(game_id, rules, rules_code)
    reference = log.get("catalog") or catalog_reference(spec, None)
    relative = log_file.parent / reference
    reference = str(relative) if relative.is_file() else reference
    catalog = load_or_exit(reference)
    if catalog.game != game_id:
        click.echo(f"{log_file}: the log plays {game_id} but its catalog is of {catalog.game}",
                   err=True)  # fmt: skip
        sys.exit(1)
    game = spec.new_game()
    try:
        state = replay_actions(game, catalog, log)
    except ValueError as error:
        click.echo(f"{log_file}: {error}", err=True)
        sys.exit(1)
    return Replayed(log, spec, game, catalog, reference, state)


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.argument(
    "state_file", metavar="STATE.json", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@catalog_option("Score with this catalog's rules tables instead of the built-in one.")
@rules_option
@rules_code_option
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON.")
def score(game_id, state_file, catalog_path, rules, rules_code, as_json):
    """Score one finished player state (a grid, a tower, a dungeon).

    STATE.json follows the schema `protopress schema score-state-GAME`.
    """
    from protopress.components.loader import load_document, locate_in_file
    from protopress.games import builtin_specs

    spec = game_spec(game_id, rules, rules_code)
    module = spec.engine_module()
    if not hasattr(module, "score_state"):
        scored = [s.id for s in builtin_specs() if hasattr(s.engine_module(), "score_state")]
        raise click.UsageError(
            f"{game_id} has no score state to score (its points are counted during play); "
            f"games with one: {', '.join(scored)}"
        )
    catalog = load_for(spec, catalog_path)
    try:
        state = load_document(state_file, f"score-state-{game_id}.schema.json", str(state_file))
        result = module.score_state(catalog, state)
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    except LocatedError as error:
        for problem in locate_in_file(str(state_file), state_file, [error.located]):
            click.echo(str(problem))
        sys.exit(1)
    except ValueError as error:
        click.echo(f"{state_file}: {error}", err=True)
        sys.exit(1)
    click.echo(json.dumps(result, indent=2) if as_json else module.format_score(result))


@cli.command("play")
@click.argument("game_id", metavar="GAME")
@rules_option
@catalog_option("Play with this catalog instead of the game's own.")
@click.option("--seat", "seats", multiple=True, type=click.IntRange(0, 7),
              help="A seat taken by a person (repeat for several people at one screen; "
              "default: seat 0).")  # fmt: skip
@bot_option
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Seats at the table (default: enough for the seats named, at least the "
              "game's minimum and 2).")  # fmt: skip
@click.option("--seed", type=int, default=None, help="The game's seed (default: a new one, shown).")
@game_options_option
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where the game is saved after every move (default: your data folder); "
              "an unfinished game there is resumed.")  # fmt: skip
@click.option("--web", is_flag=True, help="Play in the browser (the table is a page).")
@web_host_option
@web_port_option
def play_table(game_id, rules, catalog_path, seats, bots, players, seed, game_options, save_path,
               web, host, port):  # fmt: skip
    """Playtest GAME in the browser: you take a seat, the bots take the others.

    The table is drawn from your seat's view with the game's own card faces; your
    legal actions are taps; the bots move one at a time; undo takes back your last
    move. Every move is saved; a finished game's log replays with `protopress replay`.
    Several --seat options seat several people at one screen, passing the device.
    """
    from protopress.cli.web import table_web
    from protopress.files import InUse, exclusive

    if not web:
        raise click.UsageError("the playtest table is a page in the browser: add --web")
    spec = game_spec(game_id, rules)
    catalog = load_for(spec, catalog_path)
    people = sorted(set(seats)) or [0]
    count = players or max(2, spec.min_players, people[-1] + 1)
    if people[-1] >= count:
        raise click.UsageError(f"--seat {people[-1]}: the table has seats 0 to {count - 1}")
    if players is None and count > spec.max_players:
        raise click.UsageError(
            f"--seat {people[-1]}: {spec.id} takes {spec.min_players} to {spec.max_players} "
            f"players, so its seats are 0 to {spec.max_players - 1}"
        )
    options, count = play_options(spec, game_options, False, None, count)
    others = [seat for seat in range(count) if seat not in people]
    bot_names = list(bots) or ["greedy"]
    named = {seat: bot_names[min(i, len(bot_names) - 1)] for i, seat in enumerate(others)}
    table_seats = ["person" if seat in people else named[seat] for seat in range(count)]
    reference = catalog_reference(spec, catalog_path)
    if catalog_path:
        reference = str(Path(catalog_path).resolve())  # the log replays from any folder
    refuse_special(save_path, "a saved game")
    try:
        from protopress.web.table import default_save_path

        target = save_path or default_save_path(spec.id)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            message = f"protopress: cannot save in {target.parent}: {error.strerror}"
            raise Problems([], message) from None
        with exclusive(target, "the saved game"):
            code = table_web(spec, catalog, reference, table_seats, seed, options, rules, target,
                             host=host, port=port)  # fmt: skip
    except InUse as error:
        raise Problems([], f"protopress: {error.filename}: {error.strerror}") from None
    sys.exit(code)

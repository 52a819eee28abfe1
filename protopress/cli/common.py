"""What the command modules share: finding catalogs, parameter types, problems as exceptions."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from protopress.components import InvalidInput, Problem, builtin_catalog_path, load_catalog
from protopress.components.suggest import did_you_mean
from protopress.files import output_clashes
from protopress.games import builtin_ids, builtin_specs
from protopress.rules.spec import GameSpec

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


class Problems(click.ClickException):
    """Invalid input: each problem on its own line (stdout), a summary on stderr, exit 1."""

    exit_code = 1

    def __init__(self, lines: Iterable[object], summary: str = ""):
        self.lines = [str(line) for line in lines]
        super().__init__(summary or (self.lines[0] if self.lines else "invalid input"))
        self.summary = summary

    def show(self, file=None) -> None:
        for line in self.lines:
            click.echo(line)
        if self.summary:
            click.echo(self.summary, err=True)


def invalid(error: InvalidInput, summary: str = "") -> Problems:
    return Problems(error.problems, summary)


def refuse_output_over_input(outputs, inputs) -> None:
    """InvalidInput when an output is one of the inputs (or another output), by any name."""
    clashes = output_clashes(outputs, inputs)
    if clashes:
        raise InvalidInput([Problem(str(clash.path), 1, 1, "", clash.message) for clash in clashes])


def refuse_missing_folder(option: str, path: Path | None) -> None:
    """A usage error (exit 2) when an output's folder does not exist, before any work.

    The folder is judged as given, links not followed: a link loop or a dangling link
    is the write's own clear error later, not an internal one here."""
    if path is not None and not path.absolute().parent.is_dir():
        raise click.UsageError(f"{option} {path}: no folder {path.parent}")


def refuse_overwrite(outputs, inputs) -> None:
    """Problems (exit 1) when an output file is one of the inputs, by any name."""
    try:
        refuse_output_over_input(outputs, inputs)
    except InvalidInput as error:
        raise invalid(error) from None


def resolve_target(target: str) -> tuple[Path, str]:
    """A catalog file and its display name from a game id or a path (usage error if neither)."""
    path = Path(target)
    if path.is_file():
        return path, target
    if target in builtin_ids():
        return builtin_catalog_path(target), target + ".json"
    if path.exists():
        raise click.UsageError(f"{target} is not a file")
    hint = did_you_mean(target, builtin_ids())
    raise click.UsageError(f"no such file or built-in game: {target}{hint}")


def load_or_exit(target: str):
    """The catalog a target names; its problems and exit code 1 when invalid."""
    path, name = resolve_target(target)
    try:
        return load_catalog(path, display=name)
    except InvalidInput as error:
        raise invalid(
            error, f"{name} is not a valid catalog; run protopress validate for details"
        ) from None


def load_with_layouts_or_exit(target: str, layouts_dir: Path | None):
    """load_or_exit, and when the catalog is invalid, the problems of its layouts
    (the folder it names, or layouts_dir) in the same run."""
    from protopress.generators.layout import unloaded_layout_problems

    try:
        return load_or_exit(target)
    except Problems as problems:
        path, _ = resolve_target(target)
        problems.lines += map(str, unloaded_layout_problems(path, layouts_dir))
        raise


def catalog_reference(spec, catalog_path: str | None) -> str:
    """The catalog to play spec with: the one named, else the game's own (id or file)."""
    if catalog_path:
        return catalog_path
    if spec.id in builtin_ids():
        return spec.id
    if spec.catalog_path is not None:
        return str(spec.catalog_path)
    raise click.UsageError(f"{spec.id} has no catalog of its own: name one with --catalog")


def load_for(spec, catalog_path: str | None):
    """The catalog catalog_reference names, refused unless it is of spec's game."""
    target = catalog_reference(spec, catalog_path)
    catalog = load_or_exit(target)
    if catalog.game != spec.id:
        raise Problems([], f"{target}: a catalog of {catalog.game}, not of {spec.id}")
    return catalog


class Length(click.ParamType):
    """A physical length: 3mm, 0.125in, 9pt (bare numbers are millimetres), within bounds."""

    name = "length"

    def __init__(self, low_mm: float = 0.0, high_mm: float = 25.0):
        self.low_mm, self.high_mm = low_mm, high_mm

    def convert(self, value, param, ctx):
        from protopress.generators.units import MM, parse_length

        if isinstance(value, float):
            return value
        try:
            length = parse_length(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)
        if not self.low_mm * MM <= length <= self.high_mm * MM:  # also refuses nan and inf
            self.fail(
                f"{value!r} is out of range: expected {self.low_mm:g} to {self.high_mm:g} mm",
                param,
                ctx,
            )
        return length


class Offset(click.ParamType):
    """X,Y in millimetres, each within +-limit_mm."""

    name = "x,y"

    def __init__(self, limit_mm: float = 50.0):
        self.limit_mm = limit_mm

    def convert(self, value, param, ctx):
        from protopress.generators.units import MM

        if isinstance(value, tuple):
            return value
        try:
            x, y = (float(part) for part in value.split(","))
        except ValueError:
            self.fail(f"{value!r} is not X,Y in millimetres (e.g. 0.5,-1)", param, ctx)
        if not all(-self.limit_mm <= v <= self.limit_mm for v in (x, y)):  # nan and inf too
            self.fail(
                f"{value!r} is out of range: X and Y are millimetres from "
                f"-{self.limit_mm:g} to {self.limit_mm:g}",
                param,
                ctx,
            )
        return x * MM, y * MM


def refuse_special(path: Path | None, what: str) -> None:
    """A usage error when path exists but is no regular file (a FIFO, a device, a
    folder) or is a link that leads nowhere or round in a loop."""
    import os
    import stat

    if path is None or not os.path.lexists(path):
        return
    try:
        mode = os.stat(path).st_mode
    except OSError as error:  # a dangling link, a loop
        raise click.UsageError(f"{path}: cannot be used as {what}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        from protopress.files import NotRegularFile

        kind = NotRegularFile(path, mode).kind
        raise click.UsageError(f"{path}: {kind}, not {what}")


def refuse_unreadable_json(path: Path | None) -> None:
    """Exit 1 on a JSON file that no reader should take in: nested too deeply, or too large.

    Other problems (not JSON, not a save) are left to the reader, which says them in
    its own words.
    """
    from protopress.components.loader import parse_json_file

    if path is None or not path.is_file():
        return
    try:
        parse_json_file(path, str(path))
    except InvalidInput as invalid:
        limits = [
            p for p in invalid.problems if p.message.startswith(("JSON nested", "file is larger"))
        ]
        if limits:
            for problem in limits:
                click.echo(str(problem))
            sys.exit(1)


class KeyValue(click.ParamType):
    """key=value: an option of a game (e.g. level=2)."""

    name = "key=value"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        key, sep, text = value.partition("=")
        if not sep or not key:
            self.fail(f"{value!r} is not key=value (e.g. level=2)", param, ctx)
        return key, text


def game_spec(game_id: str, rules: str | None = None, code: str | None = None):
    """The spec of a game to play: built-in, installed, or the --rules file's.

    An unknown game is a usage error (exit 2); a rules file that cannot be
    loaded is invalid input (exit 1).
    """
    from protopress.games import UnknownGame
    from protopress.rules.plugins import RulesError, RulesNotFound, resolve_spec

    try:
        return resolve_spec(game_id, rules, code)
    except (UnknownGame, RulesNotFound) as error:
        raise click.UsageError(str(error)) from None
    except RulesError as error:
        raise Problems([], f"protopress: {error}") from None
    except InvalidInput as error:  # a rules file of data with problems, each located
        raise invalid(error, f"{rules} is not a valid rules file") from None


def rules_spec(rules: str, code: str | None = None):
    """The spec a --rules reference holds, whatever its game id; problems exit 1."""
    from protopress.rules.plugins import RulesError, RulesNotFound, load_rules

    try:
        return load_rules(rules, code)
    except RulesNotFound as error:
        raise click.UsageError(str(error)) from None
    except RulesError as error:
        raise Problems([], f"protopress: {error}") from None
    except InvalidInput as error:  # a rules file of data with problems, each located
        raise invalid(error, f"{rules} is not a valid rules file") from None


def catalog_option(help_text: str):
    """--catalog: a catalog file to use instead of the game's own."""
    return click.option(
        "--catalog",
        "catalog_path",
        type=click.Path(exists=True, dir_okay=False),
        help=help_text,
    )


def rules_option(command):
    """--rules: play a designer's own rules (a Python file or module; it runs their code)."""
    return click.option(
        "--rules",
        "rules",
        metavar="FILE.py[:NAME]|MODULE[:NAME]|FILE.yaml",
        help="Play your own game's rules: a rules file of data (.yaml, .yml, .json; see "
        "docs/data-rules.md), or a Python file or module defining a GameSpec (default name "
        "SPEC), which runs that code (docs/own-rules.md).",
    )(command)


def rules_code_option(command):
    """--rules-code: the Python file whose functions a rules file's `call` steps run."""
    return click.option(
        "--rules-code",
        "rules_code",
        metavar="FILE.py",
        help="With --rules FILE.yaml: a Python file defining the functions its `call` steps "
        "run; it runs that code (a rules file alone never does; docs/data-rules.md).",
    )(command)


def game_options_option(command):
    return click.option(
        "--option",
        "game_options",
        multiple=True,
        type=KeyValue(),
        help="A game option NAME=VALUE (repeat), e.g. --option level=2; see protopress games.",
    )(command)


def rival_difficulties(specs: Iterable[GameSpec]) -> list[str]:
    """The difficulties of these games' automated rivals (their specs' `difficulty`
    option), in order, each once."""
    choices: list[str] = []
    for spec in specs:
        for option in spec.options:
            if option.name == "difficulty":
                choices += [c for c in option.choices if c not in choices]
    return choices


def solo_options(command):
    rivals = ", ".join(spec.title for spec in builtin_specs() if spec.solo_rival)
    command = click.option(
        "--difficulty",
        type=click.Choice(rival_difficulties(s for s in builtin_specs() if s.solo_rival)),
        help="Solo rival difficulty.",
    )(command)
    return click.option(
        "--solo", is_flag=True, help=f"Solo mode against the automated rival ({rivals})."
    )(command)


def play_options(spec, game_options, solo: bool, difficulty: str | None, players: int):
    """(typed options, players) from the command line; bad ones are usage errors naming them."""
    from protopress.rules.options import OptionError

    options: dict[str, object] = dict(game_options)
    if solo or difficulty:
        if not spec.solo_rival:
            raise click.UsageError(f"{spec.id} has no solo mode against a rival")
        context = click.get_current_context(silent=True)
        source = context.get_parameter_source("players") if context else None
        if source is click.core.ParameterSource.COMMANDLINE and players != 1:
            raise click.UsageError(
                f"--solo is one player against the rival, not --players {players}"
            )
        players = 1
        options.update(solo=True, difficulty=difficulty or "normal")
    try:
        typed = spec.parse_options(options)
    except OptionError as error:
        raise click.UsageError(f"{spec.id}: {error}") from None
    if not spec.min_players <= players <= spec.max_players:
        raise click.UsageError(f"{spec.id} takes {spec.min_players} to {spec.max_players} players")
    return typed, players


class eta_bar:
    """A progress bar with the time left, on a terminal only; yields the callback
    (None elsewhere), which can also `say` a line above the bar."""

    def __init__(self, total: int, label: str):
        self.total, self.label = total, label
        self.bar: ProgressBar[int] | None = None

    def __enter__(self) -> _BarProgress | None:
        if not sys.stderr.isatty():
            return None
        self.bar = click.progressbar(length=self.total, label=self.label, show_eta=True,
                                     file=sys.stderr).__enter__()  # fmt: skip
        return _BarProgress(self.bar)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


class _BarProgress:
    """progress(finished, total) moves the bar; say(line) prints a line above it."""

    def __init__(self, bar: ProgressBar[int]):
        self.bar = bar
        self.done = 0

    def __call__(self, finished: int, total: int) -> None:
        self.bar.update(finished - self.done)
        self.done = finished

    def say(self, line: str) -> None:
        click.echo("\r\033[K" + line, err=True)  # over the bar's line, which is drawn again
        self.bar.render_progress()

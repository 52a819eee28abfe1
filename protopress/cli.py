"""The protopress command line: thin commands that parse options and call the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from protopress import __version__
from protopress.atomic import write_atomic
from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.schemas import SCHEMA_SUFFIX, kinds, schema_documents, schema_names
from protopress.components.suggest import did_you_mean


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="protopress")
def cli():
    """protopress: design-prototyping and print kit for tabletop games.

    Catalogs (JSON) describe a game's components; protopress checks them,
    renders print files, and plays, scores and balances the games.
    Built-in games: dragonstone-mine, gemstone-caverns, gem-rush, stonespine-architects.
    """
    # File names whose bytes are not UTF-8 reach Python as surrogate escapes: print
    # them back as the same bytes instead of failing on them.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")


def resolve_target(target: str) -> tuple[Path, str]:
    """A catalog file and its display name from a game id or a path (usage error if neither)."""
    path = Path(target)
    if path.is_file():
        return path, target
    if target in BUILTIN_GAMES:
        return builtin_catalog_path(target), target + ".json"
    if path.exists():
        raise click.UsageError(f"{target} is not a file")
    hint = did_you_mean(target, BUILTIN_GAMES)
    raise click.UsageError(f"no such file or built-in game: {target}{hint}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def games(as_json):
    """List the built-in games and what each catalog holds."""
    listing = []
    for game in BUILTIN_GAMES:
        catalog = load_catalog(builtin_catalog_path(game), display=game + ".json")
        listing.append(
            {
                "game": game,
                "title": catalog.title,
                "version": catalog.version,
                "file": str(catalog.path),
                "kinds": {
                    kind: {"designs": len(items), "copies": catalog.copies(kind)}
                    for kind, items in catalog.components.items()
                },
            }
        )
    if as_json:
        click.echo(json.dumps(listing, indent=2))
        return
    for entry in listing:
        click.echo(f"{entry['game']}  {entry['title']} {entry['version']}")
        for kind, counts in entry["kinds"].items():
            click.echo(f"  {kind:<20} {counts['designs']:>4} designs {counts['copies']:>5} copies")


@cli.command()
@click.argument("targets", nargs=-1, metavar="GAME|PATH...")
@click.option("--all", "all_games", is_flag=True, help="Validate every built-in game.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def validate(targets, all_games, as_json):
    """Check catalogs against their schemas and rules.

    Every problem is one line: file:line:column /json/pointer: message.
    Exit 0 when all are valid, 1 when any is invalid, 2 on usage errors.
    """
    if all_games:
        targets = tuple(targets) + BUILTIN_GAMES
    if not targets:
        raise click.UsageError("name a game or a catalog file, or use --all")
    resolved = [resolve_target(target) for target in targets]
    results = []
    for path, name in resolved:
        try:
            catalog = load_catalog(path, display=name)
            results.append({"file": name, "game": catalog.game, "valid": True, "problems": []})
        except InvalidInput as invalid:
            results.append(
                {"file": name, "valid": False, "problems": [p.to_json() for p in invalid.problems]}
            )
    valid = all(result["valid"] for result in results)
    if as_json:
        click.echo(json.dumps({"valid": valid, "catalogs": results}, indent=2))
    else:
        _print_validation(results)
    sys.exit(0 if valid else 1)


def _print_validation(results):
    problems = 0
    for result in results:
        if result["valid"]:
            click.echo(f"ok {result['file']}")
        for problem in result["problems"]:
            click.echo(
                f"{problem['file']}:{problem['line']}:{problem['column']} "
                f"{problem['pointer'] or '/'}: {problem['message']}"
            )
            problems += 1
    invalid = sum(not result["valid"] for result in results)
    summary = f"{len(results) - invalid} valid, {invalid} invalid"
    click.echo(summary + (f" ({problems} problems)" if problems else ""), err=True)


def load_or_exit(target: str):
    """The catalog a target names; its problems and exit code 1 when invalid."""
    path, name = resolve_target(target)
    try:
        return load_catalog(path, display=name)
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        click.echo(f"{name} is not a valid catalog; run protopress validate for details", err=True)
        sys.exit(1)


@cli.command()
@click.argument("target", metavar="GAME|CATALOG")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the Monte Carlo checks."
)
def check(target, as_json, seed):
    """Run every check that applies to a catalog: graphs, balance, colour.

    Findings are printed as `severity component-id: message` (error, warning,
    info). Exit 1 when an error is found.
    """
    from protopress.validators.registry import run_checks

    catalog = load_or_exit(target)
    findings = run_checks(catalog, seed)
    errors = sum(f.severity == "error" for f in findings)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "catalog": catalog.game,
                    "seed": seed,
                    "findings": [f.to_json() for f in findings],
                },
                indent=2,
            )
        )
    else:
        for finding in findings:
            click.echo(str(finding))
        counts = {s: sum(f.severity == s for f in findings) for s in ("error", "warning", "info")}
        click.echo(
            ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items()), err=True
        )
    sys.exit(1 if errors else 0)


@cli.command()
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
def diff(old, new, as_json):
    """List components added, removed and changed (field by field) from OLD to NEW.

    OLD and NEW are catalog files or built-in game ids.
    """
    from protopress.validators.diff import diff_catalogs

    changes = diff_catalogs(load_or_exit(old), load_or_exit(new))
    if as_json:
        click.echo(json.dumps([change.to_json() for change in changes], indent=2))
        return
    for change in changes:
        for line in change.lines():
            click.echo(line)
    click.echo(f"{len(changes)} components changed", err=True)


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


@cli.command()
@click.argument("targets", nargs=-1, metavar="GAME|CATALOG...")
@click.option("--all", "all_games", is_flag=True, help="Render every built-in game.")
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default output/<game>/; with several games, one folder each inside it).",
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--layout",
    "mode",
    type=click.Choice(["sheets", "per-card", "both"]),
    default="both",
    show_default=True,
    help="Print-and-play sheets, one component per page for print houses, or both.",
)
@click.option("--bleed", type=Length(), default="3mm", show_default=True)
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--crop-length", type=Length(), default="4mm", show_default=True)
@click.option("--crop-offset", type=Length(), default="1mm", show_default=True)
@click.option("--cut-lines", is_flag=True, help="Dashed cut lines along every trim edge.")
@click.option(
    "--duplex",
    type=click.Choice(["long", "short", "none"]),
    default="long",
    show_default=True,
    help="How back pages are laid out for duplex printing (none: no back pages).",
)
@click.option(
    "--back-offset",
    type=Offset(),
    default="0,0",
    show_default=True,
    help="Shift back pages by X,Y mm to correct a duplex printer.",
)
@click.option(
    "--png", is_flag=True, help="Also write one PNG per component and a contact sheet per kind."
)
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True)
@click.option("--cmyk", is_flag=True, help="CMYK colours throughout (for offset printing).")
@click.option(
    "--proof", is_flag=True, help="Stamp component id, catalog version and date outside the trim."
)
@click.option(
    "--layouts",
    "layouts_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="A folder of <kind>.json layouts that override the built-in ones.",
)
@click.option(
    "--allow-outside-assets", is_flag=True, help="Allow images outside the catalog's folder."
)
@click.option(
    "--strict", is_flag=True, help="Text that does not fit is an error (exit 1, nothing written)."
)
@click.option(
    "--alignment-test", is_flag=True, help="Write a two-sided duplex calibration page instead."
)
@click.option("--kind", "only_kinds", multiple=True, help="Render only this kind (repeatable).")
@click.option(
    "--preset",
    type=click.Choice(["tgc", "mpc", "drivethrucards", "pnp-a4", "pnp-letter"]),
    help="Sizes, bleed, layout and file naming of a print service (see docs/presets.md).",
)
@click.option("--tts", is_flag=True, help="Also write Tabletop Simulator decks and saved objects.")
@click.option(
    "--tts-base-url", help="Where the tts/ folder will be uploaded (default: file:/// URLs)."
)
@click.option("-q", "--quiet", is_flag=True, help="Print only warnings and errors.")
@click.option("-v", "--verbose", is_flag=True, help="Also print every file written.")
def render(targets, all_games, output, paper, mode, bleed, crop_marks, crop_length, crop_offset,
           cut_lines, duplex, back_offset, png, dpi, cmyk, proof, layouts_dir,
           allow_outside_assets, strict, alignment_test, only_kinds, preset, tts,
           tts_base_url, quiet, verbose):  # fmt: skip
    """Render print files: PDF sheets or per-card pages, and PNGs."""
    import datetime
    import os

    from protopress.generators.parts import not_printed_sentence, parts_of, parts_sentence
    from protopress.generators.render import RenderOptions, TextDoesNotFit
    from protopress.generators.summary import Written, closing_summary, game_line

    if alignment_test:
        from protopress.generators.alignment import write_alignment_test

        folder = output or Path("output")
        path = write_alignment_test(folder, paper, duplex, back_offset)
        click.echo(f"wrote {path}")
        return
    if all_games:
        targets = tuple(targets) + BUILTIN_GAMES
    if not targets:
        raise click.UsageError("name a game or a catalog file, or use --all")
    catalogs = [load_or_exit(target) for target in targets]
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    today = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        if epoch
        else datetime.datetime.now()
    )
    failed, done = False, []
    for catalog in catalogs:
        folder = output / catalog.game if output and len(catalogs) > 1 else output
        options = RenderOptions(
            output_dir=folder or Path("output") / catalog.game, paper=paper, layout=mode,
            bleed=bleed, crop_marks=crop_marks, crop_length=crop_length, crop_offset=crop_offset,
            cut_lines=cut_lines, duplex=duplex, back_offset=back_offset, png=png, dpi=dpi,
            cmyk=cmyk, proof=today.strftime("%Y-%m-%d") if proof else None,
            layouts_dir=layouts_dir, allow_outside_assets=allow_outside_assets, strict=strict,
        )  # fmt: skip
        try:
            result = _render_one(catalog, options, only_kinds, preset, tts, tts_base_url)
        except TextDoesNotFit as error:
            for warning in error.warnings:
                click.echo(f"error {warning}", err=True)
            click.echo(f"{catalog.game}: nothing written (--strict)", err=True)
            failed = True
            continue
        except InvalidInput as invalid:
            for problem in invalid.problems:
                click.echo(str(problem))
            failed = True
            continue
        except ValueError as error:
            click.echo(f"protopress: {catalog.game}: {error}", err=True)
            failed = True
            continue
        for warning in result.warnings:
            click.echo(f"warning {warning}", err=True)
        done.append(Written(catalog.game, options.output_dir, tuple(result.files)))
        for path in result.files if verbose and not quiet else ():
            click.echo(f"wrote {path}")
        if not quiet:
            click.echo(game_line(done[-1]))
            if result.skipped:
                click.echo(not_printed_sentence(catalog.game, result.skipped))
            if parts_of(catalog) and not only_kinds:
                click.echo(parts_sentence(catalog.game, parts_of(catalog)))
    if done and not quiet:
        click.echo(closing_summary(done))
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument(
    "files",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE.pdf...",
)
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")
@click.option(
    "--expect", type=click.Choice(["cmyk", "rgb"]), help="Fail on the other colour space."
)
@click.option("--require-crop-marks", is_flag=True, help="Fail sheets that have no crop marks.")
def preflight(files, as_json, expect, require_crop_marks):
    """Check PDFs as a print shop would: page boxes, fonts, colours, crop marks, images.

    Exit 1 when any check fails.
    """
    from protopress.generators.preflight import preflight as check_pdf

    reports = []
    for file in files:
        try:
            reports.append(check_pdf(file, expect=expect, require_crop_marks=require_crop_marks))
        except ValueError as error:
            click.echo(f"protopress: {error}", err=True)
            sys.exit(1)
    if as_json:
        click.echo(json.dumps([report.to_json() for report in reports], indent=2))
    else:
        for report in reports:
            click.echo(f"{report.file}: {'ok' if report.ok else 'FAILED'}")
            click.echo(str(report))
    sys.exit(0 if all(report.ok for report in reports) else 1)


@cli.command()
@click.argument(
    "catalog_path", metavar="CATALOG", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--layouts",
    "layouts_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="A folder of <kind>.json layouts (watched too).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default output/<catalog file name>/).",
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--png", is_flag=True, help="Also keep one PNG per component up to date.")
@click.option(
    "--interval",
    type=click.FloatRange(0.05, 60),
    default=0.5,
    show_default=True,
    help="Seconds between looks at the files.",
)
def watch(catalog_path, layouts_dir, output, paper, png, interval):
    """Re-render whenever the catalog or a layout changes (Ctrl-C to stop).

    Only the kinds that changed are drawn again, and only the changed
    components' PNGs; problems are reported and watching goes on.
    """
    from protopress.generators.render import RenderOptions
    from protopress.generators.watch import watch as watch_files

    options = RenderOptions(
        output_dir=output or Path("output") / catalog_path.stem,
        paper=paper, png=png, dpi=150, layouts_dir=layouts_dir,
    )  # fmt: skip
    click.echo(
        f"watching {catalog_path}" + (f" and {layouts_dir}" if layouts_dir else ""), err=True
    )

    def report(event):
        stream_err = event.kind != "rendered"
        click.echo(event.message, err=stream_err)

    try:
        watch_files(catalog_path, options, report, should_stop=lambda: False, interval=interval)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)


@cli.command()
@click.option(
    "--cost", required=True, help="The door's gems, comma-separated ('' for a free door)."
)
@click.option("--hand", "hand", multiple=True, help="A gem card as GEM+GEM (repeat for each card).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def pay(cost, hand, as_json):
    """Can a Gem Rush door with this cost be built from these cards?

    Exit 0 when payable, 1 when not, 2 on unknown gems.
    """
    from protopress.rules.gem_rush_payment import GEMS, STANDARD, minimal_payments, recommend

    def gem(name: str, standard_only=False) -> str:
        name = name.strip()
        allowed = STANDARD if standard_only else GEMS
        if name not in allowed:
            what = "a standard gem" if standard_only and name in GEMS else "a gem"
            raise click.UsageError(f"{name!r} is not {what}{did_you_mean(name, allowed)}")
        return name

    cost_gems = [gem(g, standard_only=True) for g in cost.split(",") if g.strip()]
    cards = [tuple(gem(g) for g in card.split("+")) for card in hand]
    payments = minimal_payments(cost_gems, cards)
    best = recommend(payments, cards)
    answer = {
        "payable": best is not None,
        "cards": list(best.cards) if best else [],
        "bonus": best.bonus if best else 0,
        "alternatives": [{"cards": list(p.cards), "bonus": p.bonus} for p in payments],
    }
    if as_json:
        click.echo(json.dumps(answer))
    elif best is None:
        click.echo("not payable")
    else:
        used = ", ".join(f"{i}:{'+'.join(cards[i])}" for i in best.cards) or "no cards"
        click.echo(f"payable with {used}" + (f" (+{best.bonus} Orichalcum)" if best.bonus else ""))
        if len(payments) > 1:
            click.echo(f"{len(payments)} minimal payments in all")
    sys.exit(0 if best is not None else 1)


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def new(folder):
    """Start a project for a game of your own: a catalog, a layout, a spreadsheet, a README."""
    from protopress.designer import new_project

    try:
        written = new_project(folder)
    except FileExistsError as error:
        raise click.UsageError(str(error)) from None
    schemas = [path for path in written if path.parent.name == "schemas"]
    for path in written:
        if path not in schemas:
            click.echo(f"wrote {path}")
    click.echo(f"wrote {len(schemas)} schema files to {folder / 'schemas'} (for your editor)")
    click.echo(f"next: protopress render {folder / 'catalog.json'} --layouts {folder / 'layouts'}",
               err=True)  # fmt: skip


@cli.command("import")
@click.argument("table", metavar="CARDS.csv|CARDS.xlsx",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))  # fmt: skip
@click.option(
    "--kind", required=True, help="The component kind of the rows (e.g. card, room-tile)."
)
@click.option("--sheet", help="The sheet of an Excel file (default: the first).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The catalog to write; an existing one keeps everything but this kind.")  # fmt: skip
def import_command(table, kind, sheet, output):
    """Turn a spreadsheet (one row per component) into a catalog that validates.

    Bad cells are reported as FILE:SHEET!CELL: what was expected; nothing is
    written until every row is valid.
    """
    from protopress.designer import TableError, import_table

    try:
        document = import_table(table, kind, sheet=sheet, output=output)
    except TableError as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    collection = next(k for k, v in document.items() if isinstance(v, list) and k != "$schema")
    rows = len(document.get(collection, []))
    click.echo(f"wrote {output}", err=True)
    click.echo(f"{rows} {kind} components imported from {table}", err=True)


@cli.command("export-table")
@click.argument("target", metavar="CATALOG")
@click.option("--kind", required=True, help="The component kind to export.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="cards.csv or cards.xlsx")  # fmt: skip
def export_table_command(target, kind, output):
    """Write one kind of a catalog as a spreadsheet (round trip with import)."""
    from protopress.designer import TableError, export_table

    catalog = load_or_exit(target)
    try:
        header = export_table(catalog, kind, output)
    except TableError as error:
        raise click.UsageError(str(error)) from None
    click.echo(f"wrote {output} ({len(header)} columns)", err=True)


@cli.command()
@click.argument("game", metavar="GAME", type=click.Choice(["stonespine-architects"]))
@click.option(
    "--difficulty", type=click.Choice(["normal", "hard"]), default="normal", show_default=True
)
@click.option(
    "--seed", type=int, default=None, help="Seed of the rival's deck (default: a new one, shown)."
)
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where the session is saved after every step (default: your data folder).")  # fmt: skip
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Resume a saved session.")  # fmt: skip
def solo(game, difficulty, seed, save_path, resume_path):
    """Play solo at the table: protopress runs the automated rival for you.

    Answers are read from standard input (typed or piped); `help`, `status`
    and `quit` work at every prompt; every step is saved.
    """
    from protopress.rules.solo_session import run_session

    for path in (resume_path, save_path):
        _refuse_unreadable_json(path)
    catalog = load_catalog(builtin_catalog_path(game), display=game + ".json")
    sys.exit(run_session(catalog, sys.stdin, sys.stdout, difficulty=difficulty, seed=seed,
                         save_path=save_path, resume_path=resume_path))  # fmt: skip


def _refuse_unreadable_json(path: Path | None) -> None:
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


def _rules(game_id: str):
    from protopress.rules.registry import GAME_MODULES, game_module

    if game_id not in GAME_MODULES:
        hint = did_you_mean(game_id, GAME_MODULES)
        raise click.UsageError(
            f"no rules engine for {game_id!r}{hint}; engines: {', '.join(sorted(GAME_MODULES))}"
        )
    return game_module(game_id)


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option(
    "--catalog",
    "catalog_path",
    type=click.Path(exists=True, dir_okay=False),
    help="Play with this catalog instead of the built-in one.",
)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True)
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--bot",
    "bots",
    multiple=True,
    type=click.Choice(["random", "greedy"]),
    help="Bot per seat, in seat order (repeat; the last fills the remaining seats).",
)
@click.option(
    "--option",
    "game_options",
    multiple=True,
    type=KeyValue(),
    help="A game option, e.g. --option level=2.",
)
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each game's action log (for protopress replay) into this folder.",
)
@click.option("--solo", is_flag=True, help="Solo mode (Stonespine Architects: against the rival).")
@click.option("--difficulty", type=click.Choice(["normal", "hard"]), help="Solo rival difficulty.")
@click.option("--json", "as_json", is_flag=True, help="Print every game's record as JSON.")
def simulate(game_id, catalog_path, games, players, seed, bots, game_options, log_dir, solo,
             difficulty, as_json):  # fmt: skip
    """Play whole games with bots and report scores, winners and lengths.

    The same command and seed print the same output.
    """
    from protopress.rules.core import derive_seed
    from protopress.rules.registry import game_for
    from protopress.rules.simulate import log_of, play, seats

    _rules(game_id)
    game = game_for(game_id)
    options = dict(game_options)
    if solo or difficulty:
        if game_id != "stonespine-architects":
            raise click.UsageError(f"{game_id} has no solo mode against a rival")
        players = 1
        options.update(solo="true", difficulty=difficulty or "normal")
    if not game.min_players <= players <= game.max_players:
        raise click.UsageError(f"{game_id} takes {game.min_players} to {game.max_players} players")
    catalog = load_or_exit(catalog_path or game_id)
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
            log = log_of(game, catalog_path or game_id, catalog.version, bot_names, game_seed,
                          options, actions, record)  # fmt: skip
            write_atomic(log_dir / f"game-{index:05d}.json", (json.dumps(log) + "\n").encode())
    summary = _summary(records, players)
    if options.get("solo") == "true":
        summary["solo"] = _solo_summary(records)
    if as_json:
        click.echo(json.dumps({"game": game_id, "seed": seed, "players": players, "bots": bot_names,
                               "options": options, "summary": summary,
                               "games": [r.to_json() for r in records]}, indent=2))  # fmt: skip
        return
    click.echo(f"{game_id}: {games} games, {players} players, seed {seed}")
    for seat in range(players):
        click.echo(
            f"  seat {seat} ({bot_names[seat]}): mean score {summary['mean_scores'][seat]:.2f}, "
            f"wins {summary['wins'][seat]} ({summary['win_rates'][seat]:.1%})"
        )
    if "solo" in summary:
        solo_figures = summary["solo"]
        click.echo(
            f"  against the {options['difficulty']} rival: player wins {solo_figures['player_win_rate']:.1%}, "
            f"rival wins {solo_figures['rival_win_rate']:.1%}; mean player {solo_figures['mean_player']:.1f}, "
            f"mean rival {solo_figures['mean_rival']:.1f}, mean margin {solo_figures['mean_margin']:+.1f}"
        )
    click.echo(f"  ties {summary['ties']}, mean turns {summary['mean_turns']:.1f}, "
               f"games at a limit {summary['limits']}")  # fmt: skip


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--catalog", "catalog_path", type=click.Path(exists=True, dir_okay=False),
              help="Play with this catalog instead of the built-in one.")  # fmt: skip
@click.option("--games", type=click.IntRange(1, 100_000_000), default=10_000, show_default=True)
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True)
@click.option("--bot", "bots", multiple=True, type=click.Choice(["random", "greedy"]),
              help="Bot per seat, in seat order (repeat; the last fills the remaining seats).")  # fmt: skip
@click.option("--rotate", is_flag=True, help="Rotate the bots through the seats game by game.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--option", "game_options", multiple=True, type=KeyValue(), help="A game option, e.g. level=2."
)
@click.option("--solo", is_flag=True, help="Stonespine Architects solo mode against the rival.")
@click.option("--difficulty", type=click.Choice(["normal", "hard"]), help="Solo rival difficulty.")
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
def balance(game_id, catalog_path, games, players, bots, rotate, seed, game_options, solo,
            difficulty, workers, scheduler, report_path, json_path, compare_with):  # fmt: skip
    """Simulate many games in parallel and report balance statistics with 95% intervals.

    Same seed, same numbers, whatever the number of workers. Ctrl-C keeps the
    games already played and says how many they cover.
    """
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

    _rules(game_id)
    options = dict(game_options)
    if solo or difficulty:
        players = 1
        options.update(solo="true", difficulty=difficulty or "normal")
    bot_names = seats(list(bots), players)

    def run(catalog_ref):
        with _eta_bar(games, f"{game_id}") as progress:
            return run_balance(game_id, catalog_ref, games, players, bot_names, seed, options,
                               workers=workers or None, progress=progress, scheduler=scheduler,
                               rotate=rotate)  # fmt: skip

    try:
        if compare_with:
            old, new = (run(reference) for reference in compare_with)
            for line in format_comparison(compare(old, new)):
                click.echo(line)
            return
        result = run(catalog_path or game_id)
    except MissingExtra as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as invalid:  # a --catalog or --compare catalog with problems
        for problem in invalid.problems:
            click.echo(str(problem))
        click.echo("not a valid catalog; run protopress validate for details", err=True)
        sys.exit(1)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    summary = summarize_run(result)
    if result.partial:
        click.echo(f"interrupted: these numbers cover {result.covered} of {games} games", err=True)
    for line in headline(summary):
        click.echo(line)
    if report_path:
        write_report(report_path, result, summary)
        click.echo(f"wrote {report_path}", err=True)
    if json_path:
        write_json(json_path, result, summary)
        click.echo(f"wrote {json_path}", err=True)


class _eta_bar:
    """A progress bar with the time left, on a terminal only; yields the callback."""

    def __init__(self, total: int, label: str):
        self.total, self.label, self.bar = total, label, None

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        self.bar = click.progressbar(length=self.total, label=self.label, show_eta=True,
                                     file=sys.stderr).__enter__()  # fmt: skip
        done = [0]

        def progress(finished, total):
            self.bar.update(finished - done[0])
            done[0] = finished

        return progress

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def _solo_summary(records) -> dict:
    games = len(records)
    won = [bool(r.extra.get("won")) for r in records]
    margins = [r.extra.get("margin", 0) for r in records]
    return {
        "player_win_rate": sum(won) / games,
        "rival_win_rate": 1 - sum(won) / games,
        "mean_player": sum(r.extra.get("player_total", 0) for r in records) / games,
        "mean_rival": sum(r.extra.get("rival_total", 0) for r in records) / games,
        "mean_margin": sum(margins) / games,
        "margins": sorted(margins),
    }


def _summary(records, players: int) -> dict:
    games = len(records)
    wins = [
        sum(seat in r.winners and len(r.winners) == 1 for r in records) for seat in range(players)
    ]
    return {
        "games": games,
        "mean_scores": [sum(r.scores[seat] for r in records) / games for seat in range(players)],
        "wins": wins,
        "win_rates": [w / games for w in wins],
        "ties": sum(len(r.winners) > 1 for r in records),
        "mean_turns": sum(r.turns for r in records) / games,
        "limits": sum(r.limit for r in records),
    }


@cli.command()
@click.argument(
    "log_file", metavar="LOG.json", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
def replay(log_file):
    """Replay a game's action log (from simulate --log-dir) and print the final scores."""
    from protopress.components.explain import Located
    from protopress.components.loader import locate, parse_json_file
    from protopress.rules.registry import GAME_MODULES, game_for
    from protopress.rules.simulate import log_problems
    from protopress.rules.simulate import replay as replay_log

    name = str(log_file)
    try:
        log = parse_json_file(log_file, name)
        problems = log_problems(log, GAME_MODULES)
        if problems:
            findings = [Located(pointer, message) for pointer, message in problems]
            text = log_file.read_text(encoding="utf-8-sig")
            raise InvalidInput(locate(name, text, findings))
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        click.echo(f"{name} is not an action log that protopress can replay", err=True)
        sys.exit(1)
    game_id = log["game"]
    reference = log.get("catalog", game_id)
    relative = log_file.parent / reference
    catalog = load_or_exit(str(relative) if relative.is_file() else reference)
    if catalog.game != game_id:
        click.echo(f"{log_file}: the log plays {game_id} but its catalog is of {catalog.game}",
                   err=True)  # fmt: skip
        sys.exit(1)
    game = game_for(game_id)
    try:
        state = replay_log(game, catalog, log)
    except ValueError as error:
        click.echo(f"{log_file}: {error}", err=True)
        sys.exit(1)
    scores = game.scores(state)
    click.echo(f"{game_id}: {len(log['actions'])} actions replayed")
    for seat, score in enumerate(scores):
        click.echo(f"  seat {seat}: {score}")
    if "scores" in log and list(log["scores"]) != list(scores):
        click.echo(f"{log_file}: the log recorded scores {log['scores']}, the replay gives {scores}",
                   err=True)  # fmt: skip
        sys.exit(1)


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.argument(
    "state_file", metavar="STATE.json", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--catalog",
    "catalog_path",
    type=click.Path(exists=True, dir_okay=False),
    help="Score with this catalog's rules tables instead of the built-in one.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON.")
def score(game_id, state_file, catalog_path, as_json):
    """Score one finished player state (a grid, a tower, a dungeon).

    STATE.json follows the schema `protopress schema score-state-GAME`.
    """
    from protopress.components.loader import load_document

    module = _rules(game_id)
    if not hasattr(module, "score_state"):
        from protopress.rules.registry import GAME_MODULES

        scored = [game for game in sorted(GAME_MODULES) if hasattr(_rules(game), "score_state")]
        raise click.UsageError(
            f"{game_id} has no score state to score (its points are counted during play); "
            f"games with one: {', '.join(scored)}"
        )
    catalog = load_or_exit(catalog_path or game_id)
    try:
        state = load_document(state_file, f"score-state-{game_id}.schema.json", str(state_file))
        result = module.score_state(catalog, state)
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    except ValueError as error:
        click.echo(f"{state_file}: {error}", err=True)
        sys.exit(1)
    click.echo(json.dumps(result, indent=2) if as_json else module.format_score(result))


def _render_one(catalog, options, only_kinds, preset, tts, tts_base_url):
    """One catalog's files: a service preset's set, or sheets/per-card PDFs; then TTS."""
    from protopress.generators.presets import render_preset
    from protopress.generators.render import render_catalog
    from protopress.generators.tts import write_tts

    unknown = [kind for kind in only_kinds if kind not in catalog.components]
    if unknown:
        raise click.UsageError(
            f"{catalog.game} has no {', '.join(unknown)}; kinds: {', '.join(catalog.components)}"
        )
    if preset:
        result = render_preset(catalog, options, preset, kinds=only_kinds or None)
    else:
        only = {k: {c.id for c in catalog.of_kind(k)} for k in only_kinds} if only_kinds else None
        result = _render_with_progress(render_catalog, catalog, options, only)
    if tts:
        from protopress.generators.layout import layouts_for

        layouts = layouts_for(only_kinds or catalog.components, options.layouts_dir)
        result.files.extend(write_tts(catalog, options, layouts, base_url=tts_base_url))
    return result


def _render_with_progress(render_catalog, catalog, options, only=None):
    from protopress.generators.layout import layouts_for

    drawn = layouts_for(only or catalog.components, options.layouts_dir)
    total = sum(c.count for kind in drawn for c in catalog.of_kind(kind))
    if not sys.stderr.isatty():
        return render_catalog(catalog, options, only=only)
    with click.progressbar(length=total, label=f"rendering {catalog.game}", file=sys.stderr) as bar:
        return render_catalog(catalog, options, progress=bar.update, only=only)


@cli.command()
@click.argument("name", required=False, metavar="KIND")
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every schema file into this folder (for an editor to use).",
)
def schema(name, output_dir):
    """Print the JSON Schema of a component kind (or list the kinds).

    KIND is a component kind (e.g. room-tile), `catalog` for a whole catalog,
    or `common` for shared definitions. Schemas refer to each other by file
    name: use --output-dir to get them all side by side.
    """
    documents = schema_documents()
    if output_dir is not None:
        output_dir.mkdir(parents=True, exist_ok=True)
        for file_name, document in sorted(documents.items()):
            write_atomic(output_dir / file_name, (json.dumps(document, indent=2) + "\n").encode())
        click.echo(f"wrote {len(documents)} schema files to {output_dir}", err=True)
        return
    if name is None:
        for kind in kinds().values():
            click.echo(f"{kind.name:<20} {kind.collection}")
        click.echo(f"{'catalog':<20} (a whole catalog)")
        click.echo(f"{'common':<20} (shared definitions)")
        return
    if name not in schema_names():
        raise click.UsageError(f"unknown kind {name!r}{did_you_mean(name, schema_names())}")
    click.echo(json.dumps(documents[name + SCHEMA_SUFFIX], indent=2))


def main():
    """Entry point: no traceback ever reaches the user."""
    try:
        cli(prog_name="protopress")
    except OSError as error:
        click.echo(
            f"protopress: {error.strerror or error}: {error.filename or ''}".rstrip(": "), err=True
        )
        sys.exit(1)
    except Exception as error:  # a bug: say so briefly instead of a traceback
        click.echo(f"protopress: internal error: {type(error).__name__}: {error}", err=True)
        sys.exit(70)

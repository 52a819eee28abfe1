"""Catalog commands: games, validate, check, diff, schema."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from protopress.atomic import write_atomic
from protopress.cli.app import cli
from protopress.cli.common import (
    Problems,
    game_spec,
    load_or_exit,
    load_with_layouts_or_exit,
    resolve_target,
    rules_code_option,
    rules_option,
)
from protopress.cli.render import layouts_option
from protopress.components import InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.problems import Problem
from protopress.components.schemas import SCHEMA_SUFFIX, kinds, schema_documents, schema_names
from protopress.components.suggest import did_you_mean
from protopress.games import builtin_ids, builtin_spec
from protopress.words import noun, plural


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def games(as_json):
    """List the built-in games and what each catalog holds."""
    listing: list[dict[str, Any]] = []
    for game in builtin_ids():
        spec = builtin_spec(game)
        catalog = load_catalog(builtin_catalog_path(game), display=game + ".json")
        listing.append(
            {
                "game": game,
                "title": catalog.title,
                "players": [spec.min_players, spec.max_players],
                "options": {
                    o.name: {"accepts": o.accepts(), "default": o.default, "help": o.help}
                    for o in spec.options
                },
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
        low, high = entry["players"]
        click.echo(f"{entry['game']}  {entry['title']} {entry['version']}, {low}-{high} players")
        for name, option in entry["options"].items():
            default = "" if option["default"] is None else f" (default {_said(option['default'])})"
            click.echo(f"  --option {name}=  {option['accepts']}{default}: {option['help']}")
        for kind, counts in entry["kinds"].items():
            designs, copies = counts["designs"], counts["copies"]
            click.echo(
                f"  {kind:<20} {designs:>4} {noun(designs, 'design'):<7} "
                f"{copies:>5} {noun(copies, 'copy', 'copies')}"
            )


def _said(value: object) -> str:
    """An option's default as it is typed after --option NAME= (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _field_report(catalog, layouts_dir):
    """The field checks of the generic card and declared kinds against their layouts,
    and what drawing their faces meets (missing images, unknown icons...);
    InvalidInput when a layout itself has problems."""
    from protopress.generators.fieldcheck import designer_layouts, field_report

    return field_report(catalog, designer_layouts(catalog, layouts_dir), drawn=True)


@cli.command()
@click.argument("targets", nargs=-1, metavar="GAME|PATH...")
@click.option("--all", "all_games", is_flag=True, help="Validate every built-in game.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@layouts_option("A folder of <kind>.json (or .yaml) layouts the fields are checked against.")
def validate(targets, all_games, as_json, layouts_dir):
    """Check catalogs against their schemas and rules.

    Every problem is one line: file:line:column /json/pointer: message. The
    generic card's fields and the declared kinds' layouts are checked against
    each other too: a card field no layout uses is a warning.
    Exit 0 when all are valid, 1 when any is invalid, 2 on usage errors.
    """
    if all_games:
        targets = tuple(targets) + builtin_ids()
    if not targets:
        raise click.UsageError("name a game or a catalog file, or use --all")
    from protopress.generators.layout import unloaded_layout_problems

    resolved = [resolve_target(target) for target in targets]
    results = []
    for path, name in resolved:
        try:
            catalog = load_catalog(path, display=name)
        except InvalidInput as invalid:  # and its layouts' problems, in the same run
            problems = [*invalid.problems, *unloaded_layout_problems(path, layouts_dir)]
            results.append(_validation(name, None, False, problems))
            continue
        try:
            report = _field_report(catalog, layouts_dir)
        except InvalidInput as invalid:
            results.append(_validation(name, catalog.game, False, invalid.problems))
            continue
        results.append(
            _validation(
                name, catalog.game, not report.every_problem, report.every_problem, report.warnings
            )
        )
    valid = all(result["valid"] for result in results)
    if as_json:
        click.echo(json.dumps({"valid": valid, "catalogs": results}, indent=2))
    else:
        _print_validation(results)
    sys.exit(0 if valid else 1)


def _validation(
    name: str,
    game: str | None,
    valid: bool,
    problems: Sequence[Problem],
    warnings: Sequence[Problem] = (),
) -> dict[str, Any]:
    """One catalog's entry in validate's report, with every key whatever became of it
    (game is None for a catalog that did not load)."""
    return {
        "file": name,
        "game": game,
        "valid": valid,
        "problems": [p.to_json() for p in problems],
        "warnings": [p.to_json() for p in warnings],
    }


def _print_validation(results):
    problems = warnings = 0
    for result in results:
        if result["valid"]:
            click.echo(f"ok {result['file']}")
        for problem in result["problems"]:
            click.echo(str(Problem(**problem)))
            problems += 1
        for warning in result.get("warnings", ()):
            click.echo(f"warning {Problem(**warning)}")
            warnings += 1
    invalid = sum(not result["valid"] for result in results)
    summary = f"{len(results) - invalid} valid, {invalid} invalid"
    counts = [plural(problems, "problem")] * bool(problems) + [plural(warnings, "warning")] * bool(
        warnings
    )
    click.echo(summary + (f" ({', '.join(counts)})" if counts else ""), err=True)


@cli.command()
@click.argument("target", metavar="GAME|CATALOG")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the Monte Carlo checks."
)
@layouts_option("A folder of <kind>.json (or .yaml) layouts the fields are checked against.")
@rules_option
@rules_code_option
@click.option("--players", type=click.IntRange(1, 99), help="Players of the --rules games [default: the least].")  # fmt: skip
def check(target, as_json, seed, layouts_dir, rules, rules_code, players):
    """Run every check that applies to a catalog: graphs, balance, colour, fields.

    With --rules FILE.yaml, a few dozen games of random bots (each capped in
    turns) are played on the rules too: a game that does not end, or an action
    no one took, is reported at its rule. Findings are printed as `severity
    component-id: message` (error, warning, info). Exit 1 when an error is found.
    """
    from protopress.validators.registry import run_checks

    if rules is None and (rules_code is not None or players is not None):
        raise click.UsageError("--rules-code and --players go with --rules FILE.yaml")
    catalog = load_with_layouts_or_exit(target, layouts_dir)
    try:
        report = _field_report(catalog, layouts_dir)
    except InvalidInput as error:
        raise Problems(error.problems) from None
    findings = [*_field_findings(catalog, report), *run_checks(catalog, seed)]
    if rules is not None:
        findings.extend(_play_findings(catalog, rules, rules_code, players, seed))
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
        click.echo(", ".join(plural(n, s) for s, n in counts.items()), err=True)
    sys.exit(1 if errors else 0)


def _play_findings(catalog, rules, rules_code, players, seed):
    """The bounded simulation of a rules file of data, as findings located at its rules."""
    from protopress.rules.data.check import check_play
    from protopress.rules.data.engine import DataGame
    from protopress.validators.findings import Finding

    spec = game_spec(catalog.game, rules, rules_code)
    game = spec.new_game()
    if not isinstance(game, DataGame):
        raise click.UsageError("check --rules plays a rules file of data (.yaml, .yml or .json)")
    players = players or spec.min_players
    if not spec.min_players <= players <= spec.max_players:
        raise click.UsageError(f"{spec.id} plays {spec.min_players} to {spec.max_players} players")
    try:
        played = check_play(game, catalog, players, seed)
    except InvalidInput as error:
        raise Problems(error.problems) from None
    ended = f"{played.ended} of {played.games} random games of {players} players ended within {played.cap} turns"  # fmt: skip
    yield Finding("info", spec.id, ended, "rules-play")
    for found in played.findings:
        yield Finding(
            found.severity.value, _where(found.problem), found.problem.message, "rules-play"
        )


def _where(problem: Problem) -> str:
    """A rules file's place, as a finding's component: file:line:column /pointer."""
    return str(problem).removesuffix(f": {problem.message}")


def _field_findings(catalog, report):
    """The field report as findings: each names the component (or the layout's kind)."""
    from protopress.validators.findings import Finding

    for severity, problems in (("error", report.every_problem), ("warning", report.warnings)):
        for problem in problems:
            yield Finding(severity, _component_at(catalog, problem), str(problem), "fields")


def _component_at(catalog, problem) -> str:
    """The id of the component a catalog problem's pointer is in, else the file's name."""
    tokens = problem.pointer.split("/")[1:3]
    items = catalog.document.get(tokens[0]) if tokens else None
    if problem.file == str(catalog.path) and isinstance(items, list) and tokens[1:]:
        index = tokens[1]
        if index.isdigit() and int(index) < len(items) and isinstance(items[int(index)], dict):
            return str(items[int(index)].get("id", problem.file))
    return Path(problem.file).name


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
    click.echo(f"{plural(len(changes), 'component')} changed", err=True)


@cli.command()
@click.argument("name", required=False, metavar="KIND")
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every schema file into this folder (for an editor to use).",
)
@click.option(
    "--catalog",
    "catalog_target",
    metavar="CATALOG",
    help="Also the schemas of the kinds this catalog declares (and its catalog schema).",
)
def schema(name, output_dir, catalog_target):
    """Print the JSON Schema of a component kind (or list the kinds).

    KIND is a component kind (e.g. room-tile), `catalog` for a whole catalog,
    or `common` for shared definitions. Schemas refer to each other by file
    name: use --output-dir to get them all side by side.
    """
    documents = dict(schema_documents())
    declared = {}
    if catalog_target is not None:
        from protopress.components.declared import declared_schemas

        declared = load_or_exit(catalog_target).declared
        documents.update(declared_schemas(declared))
    if output_dir is not None:
        output_dir.mkdir(parents=True, exist_ok=True)
        for file_name, document in sorted(documents.items()):
            write_atomic(output_dir / file_name, (json.dumps(document, indent=2) + "\n").encode())
        click.echo(f"wrote {len(documents)} schema files to {output_dir}", err=True)
        return
    if name is None:
        for kind in [*kinds().values(), *declared.values()]:
            click.echo(f"{kind.name:<20} {kind.collection}")
        click.echo(f"{'catalog':<20} (a whole catalog)")
        click.echo(f"{'common':<20} (shared definitions)")
        return
    names = sorted({*schema_names(), *declared})
    if name not in names:
        raise click.UsageError(f"unknown kind {name!r}{did_you_mean(name, names)}")
    click.echo(json.dumps(documents[name + SCHEMA_SUFFIX], indent=2))

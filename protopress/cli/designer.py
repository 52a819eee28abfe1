"""Designer commands: new projects, spreadsheets in and out."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from protopress.cli.app import cli
from protopress.cli.common import Problems, load_or_exit, refuse_overwrite
from protopress.cli.render import layouts_option
from protopress.components import InvalidInput


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--with-rules",
    type=click.Choice(["data", "python", "none"]),
    default="data",
    is_flag=False,
    flag_value="python",
    show_default=True,
    help="The rules written for a small complete game to edit: rules.yaml (data, no code), "
    "rules.py (python; `--with-rules` alone), or none.",
)
def new(folder, with_rules):
    """Start a project for a game of your own: a catalog, a layout, a spreadsheet, a README
    and the rules of a small complete game (rules.yaml)."""
    from protopress.designer.scaffold import RulesWritten, new_project

    try:
        written = new_project(folder, rules=RulesWritten(with_rules))
    except FileExistsError as error:
        raise click.UsageError(str(error)) from None
    schemas = [path for path in written if path.parent.name == "schemas"]
    for path in written:
        if path not in schemas:
            click.echo(f"wrote {path}")
    click.echo(f"wrote {len(schemas)} schema files to {folder / 'schemas'} (for your editor)")
    click.echo(f"next: protopress render {folder / 'catalog.json'}", err=True)


class TableSource(click.ParamType):
    """A table file that exists, or an http(s) address of one (kept as text)."""

    name = "table"

    def convert(self, value, param, ctx):
        from urllib.parse import urlsplit

        from protopress.designer.table_url import URL_SCHEMES, is_url

        if isinstance(value, str) and is_url(value):
            scheme = urlsplit(value).scheme.lower()
            if scheme not in URL_SCHEMES:
                self.fail(f"only http and https addresses are read, not {scheme}:", param, ctx)
            return value
        return click.Path(exists=True, dir_okay=False, path_type=Path).convert(value, param, ctx)


@cli.command("import")
@click.argument("table", metavar="CARDS.csv|CARDS.xlsx|URL", type=TableSource())
@click.option(
    "--kind",
    required=True,
    help="The component kind of the rows (card, room-tile, or a kind the -o catalog declares).",
)
@click.option("--sheet", help="The sheet of an Excel file (default: the first).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The catalog to write; an existing one keeps everything but this kind.")  # fmt: skip
@layouts_option("A folder of <kind>.json (or .yaml) layouts the columns are checked against.")
def import_command(table, kind, sheet, output, layouts_dir):
    """Turn a spreadsheet (one row per component) into a catalog that validates.

    The table is a .csv or .xlsx file, or the http(s) address of one (a published
    spreadsheet's CSV export). Bad cells are reported as FILE:SHEET!CELL: what
    was expected; nothing is written until every row is valid. The catalog names
    the table as the kind's source (for watch and preview) and, when it names no
    layouts, the layouts folder beside it. The columns are then checked against
    the layouts: a column no layout shows is a warning at its header cell.
    """
    from protopress.designer import TableError, UnreadableTable, imported_count
    from protopress.designer.table_url import FetchError
    from protopress.designer.tables import import_reviewed
    from protopress.files import InUse, exclusive

    if isinstance(table, Path):
        refuse_overwrite([output], [table])

    def review(catalog):
        from protopress.generators.fieldcheck import designer_layouts, field_report

        try:
            report = field_report(catalog, designer_layouts(catalog, layouts_dir))
        except InvalidInput as invalid:  # a layout that does not load: said as it is
            return invalid.problems
        return [*report.problems, *report.warnings]

    try:
        with exclusive(output, "the catalog"):  # read, merge and write as one step
            imported = import_reviewed(table, kind, sheet, output, review=review, record=True)
    except InUse as error:
        raise Problems([], f"protopress: {error.filename}: {error.strerror}") from None
    except (FetchError, UnreadableTable) as error:
        raise Problems([], f"protopress: {error}") from None
    except TableError as error:
        raise click.UsageError(str(error)) from None
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    for problem in imported.review:  # the catalog is valid; the layouts disagree
        click.echo(f"warning {problem}", err=True)
    rows = imported_count(imported.document, kind)
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
    refuse_overwrite([output], [catalog.path])
    try:
        header = export_table(catalog, kind, output)
    except TableError as error:
        raise click.UsageError(str(error)) from None
    click.echo(f"wrote {output} ({len(header)} columns)", err=True)

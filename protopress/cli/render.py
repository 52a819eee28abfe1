"""Print commands: render, showcase, preflight, watch."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from protopress.cli.app import cli
from protopress.cli.common import Length, Offset, load_with_layouts_or_exit
from protopress.components import InvalidInput
from protopress.components.suggest import did_you_mean
from protopress.games import builtin_ids
from protopress.generators.standards import PdfxStandard


def paper_option(command):
    return click.option(
        "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True
    )(command)


def output_folder_option(help_text: str):
    return click.option(
        "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help=help_text
    )


def layouts_option(help_text: str):
    return click.option(
        "--layouts",
        "layouts_dir",
        type=click.Path(file_okay=False, exists=True, path_type=Path),
        callback=_a_folder,
        help=help_text,
    )


def _a_folder(ctx, param, value: Path | None) -> Path | None:
    """click's file_okay=False lets a FIFO or a device through: only a folder is one."""
    if value is not None and not value.is_dir():
        raise click.BadParameter(f"{value} is not a folder of layouts", ctx, param)
    return value


@cli.command()
@click.argument("targets", nargs=-1, metavar="GAME|CATALOG...")
@click.option("--all", "all_games", is_flag=True, help="Render every built-in game.")
@output_folder_option(
    "Output folder (default output/<game>/; with several games, one folder each inside it)."
)
@paper_option
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
    "--overlap",
    type=Length(0, 50),
    default="10mm",
    show_default=True,
    help="How much neighbouring pages of a board larger than the paper overlap.",
)
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
@click.option(
    "--cmyk",
    is_flag=True,
    help="Colour-managed CMYK throughout, art included (for offset printing; see docs/print.md).",
)
@click.option(
    "--icc-profile",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CMYK output profile to separate with (default: the bundled FOGRA39 one); implies --cmyk.",
)
@click.option(
    "--pdfx",
    type=click.Choice([standard.value for standard in PdfxStandard]),
    is_flag=False,
    flag_value=PdfxStandard.X4.value,
    default=None,
    help="Write PDF/X (4, the default, or 1a for PDF/X-1a:2003) with the profile as output "
    "intent; implies --cmyk.",
)
@click.option(
    "--proof", is_flag=True, help="Stamp component id, catalog version and date outside the trim."
)
@layouts_option("A folder of <kind>.json (or .yaml) layouts that override the built-in ones.")
@click.option(
    "--allow-outside-assets",
    is_flag=True,
    help="Allow images and fonts outside the catalog's folder.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Text that does not fit, or has characters its font lacks, is an error (exit 1, nothing written).",
)
@click.option(
    "--alignment-test", is_flag=True, help="Write a two-sided duplex calibration page instead."
)
@click.option("--kind", "only_kinds", multiple=True, help="Render only this kind (repeatable).")
@click.option(
    "--only",
    "only_ids",
    multiple=True,
    metavar="ID[,ID...]",
    help="Render only these components, of any kind (repeatable, or ids separated by commas).",
)
@click.option(
    "--tuck-box",
    "tuck_boxes",
    multiple=True,
    metavar="KIND",
    help="Also write a tuck box for this kind's cards (repeatable); see the catalog's boxes.",
)
@click.option(
    "--card-thickness",
    type=Length(0.05, 5),
    default="0.3mm",
    show_default=True,
    help="One card's thickness, for tuck boxes that do not give their own.",
)
@click.option(
    "--preset",
    type=click.Choice(["tgc", "mpc", "drivethrucards", "pnp-a4", "pnp-letter"]),
    help="Sizes, bleed, layout and file naming of a print service (see docs/presets.md).",
)
@click.option("--tts", is_flag=True, help="Also write Tabletop Simulator decks and saved objects.")
@click.option(
    "--tts-base-url", help="Where the tts/ folder will be uploaded (default: file:/// URLs)."
)
@click.option(
    "--ttpg",
    is_flag=True,
    help="Also write a Tabletop Playground package (card sheets, templates).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only warnings and errors.")
@click.option("-v", "--verbose", is_flag=True, help="Also print every file written.")
def render(targets, all_games, output, paper, mode, bleed, crop_marks, crop_length, crop_offset,
           cut_lines, overlap, duplex, back_offset, png, dpi, cmyk, icc_profile, pdfx, proof,
           layouts_dir, allow_outside_assets, strict, alignment_test, only_kinds, only_ids,
           tuck_boxes, card_thickness, preset, tts,
           tts_base_url, ttpg, quiet, verbose):  # fmt: skip
    """Render print files: PDF sheets or per-card pages, and PNGs."""
    from protopress.generators.parts import not_printed_sentence, parts_of, parts_sentence
    from protopress.generators.render import (
        RenderOptions,
        TextDoesNotFit,
        proof_date,
        source_date_epoch,
    )
    from protopress.generators.summary import Written, closing_summary, game_line

    if alignment_test:
        from protopress.generators.alignment import write_alignment_test

        folder = output or Path("output")
        path = write_alignment_test(folder, paper, duplex, back_offset)
        click.echo(f"wrote {path}")
        return
    if all_games:
        targets = tuple(targets) + builtin_ids()
    if not targets:
        raise click.UsageError("name a game or a catalog file, or use --all")
    catalogs = [load_with_layouts_or_exit(target, layouts_dir) for target in targets]
    picked = _picked_ids(only_ids)
    if picked is not None:
        if preset or tts or ttpg:
            raise click.UsageError("--only draws sheets, per-card pages and PNGs; not a --preset, "
                                   "--tts or --ttpg set, which is the whole game")  # fmt: skip
        for catalog in catalogs:  # every unknown id before anything is written
            _only_kinds(catalog, picked, only_kinds)
    if cmyk or pdfx or icc_profile is not None:
        from protopress.generators.separation import separation

        try:
            separation(icc_profile)  # a bad profile is refused before anything is written
        except ValueError as error:
            click.echo(f"protopress: {error}", err=True)
            sys.exit(1)
    try:
        source_date_epoch()  # reportlab dates every PDF from it: refuse a bad one first
        stamp = proof_date() if proof else None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    failed, done = False, []
    for catalog in catalogs:
        folder = output / catalog.game if output and len(catalogs) > 1 else output
        options = RenderOptions(
            output_dir=folder or Path("output") / catalog.game, paper=paper, layout=mode,
            bleed=bleed, crop_marks=crop_marks, crop_length=crop_length, crop_offset=crop_offset,
            cut_lines=cut_lines, duplex=duplex, back_offset=back_offset, png=png, dpi=dpi,
            cmyk=cmyk, icc_profile=icc_profile, pdfx=PdfxStandard(pdfx) if pdfx else None,
            proof=stamp, overlap=overlap,
            tuck_boxes=tuck_boxes, card_thickness=card_thickness,
            layouts_dir=layouts_dir, allow_outside_assets=allow_outside_assets, strict=strict,
            only_ids=picked,
        )  # fmt: skip
        kinds = only_kinds if picked is None else _only_kinds(catalog, picked, only_kinds)
        try:
            result = _render_one(catalog, options, kinds, preset, tts, tts_base_url, ttpg)
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
        problems = sorted(set(result.problems))  # drawn as placeholders, every one, once
        for problem in problems:
            click.echo(str(problem))
        if problems:
            click.echo(f"{catalog.game}: {len(problems)} problems drawn as placeholders "
                       "(crossed boxes, [icon?]); the files are written", err=True)  # fmt: skip
            failed = True
        for line in _preset_report(result, catalog.game) if preset and not quiet else ():
            click.echo(line)
        done.append(
            Written(catalog.game, options.output_dir, tuple(result.files), result.pdf_pages)
        )
        for path in result.files if verbose and not quiet else ():
            click.echo(f"wrote {path}")
        if not quiet:
            click.echo(game_line(done[-1]))
            if result.skipped:
                click.echo(not_printed_sentence(catalog.game, result.skipped))
            if parts_of(catalog) and not only_kinds and picked is None:
                click.echo(parts_sentence(catalog.game, parts_of(catalog)))
    if done and not quiet:
        click.echo(closing_summary(done))
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("target", metavar="GAME|CATALOG")
@click.argument("ids", nargs=-1, required=True, metavar="ID...")
@click.option(
    "--hand", "arrangement", flag_value="hand", default=True,
    help="Fan the faces as a hand of cards (the default).",
)  # fmt: skip
@click.option("--row", "arrangement", flag_value="row", help="Set the faces side by side.")
@click.option("--side", type=click.Choice(["front", "back"]), default="front", show_default=True)
@click.option(
    "--step", type=click.FloatRange(0, 30),
    help="Degrees between neighbouring cards of a hand (by default, 0.6 of each card shows).",
)  # fmt: skip
@click.option("--dpi", type=click.IntRange(36, 600), default=150, show_default=True)
@click.option(
    "--background", default="transparent", show_default=True,
    help="The picture's background: #rrggbb, a CSS colour name, or transparent.",
)  # fmt: skip
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
    help="The PNG to write (default output/<game>/<game>-hand.png or -row.png).",
)  # fmt: skip
@layouts_option("A folder of <kind>.json (or .yaml) layouts that override the built-in ones.")
@click.option(
    "--allow-outside-assets",
    is_flag=True,
    help="Allow images and fonts outside the catalog's folder.",
)
def showcase(target, ids, arrangement, side, step, dpi, background, output, layouts_dir,
             allow_outside_assets):  # fmt: skip
    """Write a picture of chosen components for a rules or crowdfunding page: a hand
    of cards fanned (--hand) or faces side by side (--row), as PNG, in the order named.

    Missing images and icons are drawn as placeholders and listed (exit 1).
    """
    from protopress.atomic import write_atomic
    from protopress.generators.colours import Colour
    from protopress.generators.png_surface import png_bytes
    from protopress.generators.showcase import DEFAULT_STEP, Arrangement, compose, draw_faces

    try:
        fill = (
            (0, 0, 0, 0)
            if background == "transparent"
            else (*Colour.parse(background).rgb255(), 255)
        )
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--background") from None
    catalog = load_with_layouts_or_exit(target, layouts_dir)
    try:
        shown = draw_faces(catalog, ids, side, dpi, layouts_dir, allow_outside_assets)
    except ValueError as error:
        raise click.UsageError(f"{catalog.game}: {error}") from None
    except InvalidInput as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    turn = DEFAULT_STEP if step is None else step
    try:
        picture = compose(shown.images, Arrangement(arrangement), turn, fill)
    except ValueError as error:
        raise click.UsageError(f"{catalog.game}: {error}") from None
    path = output or Path("output") / catalog.game / f"{catalog.game}-{arrangement}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, png_bytes(picture, dpi))
    for problem in shown.problems:
        click.echo(str(problem))
    click.echo(f"wrote {path} ({picture.width} x {picture.height} pixels)")
    sys.exit(1 if shown.problems else 0)


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
@click.option(
    "--max-ink",
    type=click.FloatRange(0, 400),
    default=300,
    show_default=True,
    metavar="PERCENT",
    help="Most total ink (C+M+Y+K) of any fill, stroke or image pixel.",
)
@click.option(
    "--pdfx",
    is_flag=True,
    help="Also check PDF/X: version, Trapped, a CMYK OutputIntent, boxes (implies --expect cmyk).",
)
def preflight(files, as_json, expect, require_crop_marks, max_ink, pdfx):
    """Check PDFs as a print shop would: page boxes, fonts, colours, ink, crop marks, images.

    Exit 1 when any check fails.
    """
    from protopress.generators.preflight import preflight as check_pdf

    if pdfx and expect == "rgb":
        raise click.UsageError("--pdfx checks CMYK files; it cannot go with --expect rgb")
    reports = []
    for file in files:
        try:
            reports.append(
                check_pdf(
                    file,
                    expect=expect,
                    require_crop_marks=require_crop_marks,
                    max_ink=max_ink,
                    pdfx=pdfx,
                )  # fmt: skip
            )
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
@layouts_option("A folder of <kind>.json (or .yaml) layouts (watched too).")
@output_folder_option("Output folder (default output/<game>/, as render).")
@paper_option
@click.option("--png", is_flag=True, help="Also keep one PNG per component up to date.")
@click.option(
    "--interval",
    type=click.FloatRange(0.05, 60),
    default=0.5,
    show_default=True,
    help="Seconds between looks at the files.",
)
def watch(catalog_path, layouts_dir, output, paper, png, interval):
    """Re-render whenever the catalog, a layout or a source spreadsheet changes (Ctrl-C to stop).

    The catalog's layouts folder and its `sources` (the tables `import` read)
    are followed: a changed table is imported again. Only the kinds that changed
    are drawn again, and only the changed components' PNGs; problems are
    reported and watching goes on.
    """
    from protopress.components.problems import printable
    from protopress.generators.render import RenderOptions
    from protopress.generators.watch import Sources
    from protopress.generators.watch import watch as watch_files

    followed = Sources(catalog_path, layouts_dir).followed()
    options = RenderOptions(
        output_dir=output or Path("output") / _game_of(catalog_path),
        paper=paper, png=png, dpi=150, layouts_dir=layouts_dir,
    )  # fmt: skip
    names = [str(p) for p in (followed.layouts_dir, *followed.tables) if p is not None]
    click.echo(f"watching {catalog_path}" + "".join(f" and {name}" for name in names), err=True)

    def report(event):
        stream_err = event.kind != "rendered"
        for line in event.message.split("\n"):  # an error's text may quote an input's bytes
            click.echo(printable(line), err=stream_err)

    try:
        watch_files(catalog_path, options, report, should_stop=lambda: False, interval=interval)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)


def _game_of(catalog_path: Path) -> str:
    """The catalog's game id (render writes to output/<game>/), read from its text
    even when it does not validate; else the file's name."""
    from protopress.components.loader import parse_source_file
    from protopress.components.schemas import schema_documents

    try:
        document = parse_source_file(catalog_path, str(catalog_path))
    except (OSError, InvalidInput):
        return catalog_path.stem
    game = document.get("game") if isinstance(document, dict) else None
    rule = schema_documents()["common.schema.json"]["$defs"]["id"]
    if isinstance(game, str) and len(game) <= rule["maxLength"] and re.match(rule["pattern"], game):
        return game
    return catalog_path.stem


def _picked_ids(only_ids: tuple[str, ...]) -> frozenset[str] | None:
    """The ids of --only (repeated, or separated by commas), or None without it."""
    if not only_ids:
        return None
    picked = frozenset(part.strip() for value in only_ids for part in value.split(","))
    if "" in picked:
        raise click.UsageError("--only: an empty id (write --only ID or --only ID,ID)")
    return picked


def _only_kinds(catalog, picked: frozenset[str], only_kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds holding the picked ids (within --kind, when given), in catalog order;
    a usage error naming each id the catalog does not have, with did-you-mean."""
    kinds = [kind for kind in catalog.components if not only_kinds or kind in only_kinds]
    ids = {component.id: component.kind for kind in kinds for component in catalog.of_kind(kind)}
    unknown = sorted(picked - ids.keys())
    if unknown:
        where = f" among its {', '.join(only_kinds)}" if only_kinds else ""
        named = " and no component ".join(f"{i!r}{did_you_mean(i, ids)}" for i in unknown)
        raise click.UsageError(f"--only: {catalog.game} has no component {named}{where}")
    return tuple(kind for kind in kinds if any(ids[ident] == kind for ident in picked))


def _render_one(catalog, options, only_kinds, preset, tts, tts_base_url, ttpg=False):
    """One catalog's files: a service preset's set, or sheets/per-card PDFs; then TTS
    and Tabletop Playground (each module imported when the run asks for it)."""
    unknown = [
        kind for kind in (*only_kinds, *options.tuck_boxes) if kind not in catalog.components
    ]
    if unknown:
        raise click.UsageError(
            f"{catalog.game} has no {', '.join(unknown)}; kinds: {', '.join(catalog.components)}"
        )
    from protopress.generators.fieldcheck import drawn_problems, field_report
    from protopress.generators.layout import layouts_for

    drawn = layouts_for(only_kinds or catalog.components, options.layouts_dir, catalog)
    report = field_report(catalog, drawn)
    if report.problems or (options.strict and report.warnings):
        # every problem of the run at once, what drawing would meet too; nothing is written
        for warning in () if options.strict else report.warnings:
            click.echo(f"warning {warning}", err=True)
        found = drawn_problems(catalog, drawn, options.allow_outside_assets)
        raise InvalidInput([*report.problems, *found, *(report.warnings if options.strict else [])])
    unused = [str(warning) for warning in report.warnings]
    if preset:
        from protopress.generators.presets import render_preset

        result = render_preset(catalog, options, preset, kinds=only_kinds or None)
    else:
        from protopress.generators.render import render_catalog

        only = {k: {c.id for c in catalog.of_kind(k)} for k in only_kinds} if only_kinds else None
        result = _render_with_progress(render_catalog, catalog, options, only)
    result.warnings[:0] = unused
    # the table-top exports draw the faces again: their placeholders' problems are
    # those of the print files, listed once (render below)
    if tts:
        from protopress.generators.tts import write_tts

        result.files.extend(write_tts(catalog, options, drawn, base_url=tts_base_url,
                                      problems=result.problems))  # fmt: skip
    if ttpg:
        from protopress.generators.ttpg import write_ttpg

        result.files.extend(write_ttpg(catalog, options, drawn, problems=result.problems))
    return result


def _preset_report(result, game: str) -> list[str]:
    """A preset's decisions: each kind's product and fit, the kinds left out."""
    from protopress.generators.presets import PresetResult

    return result.report(game) if isinstance(result, PresetResult) else []


def _render_with_progress(render_catalog, catalog, options, only=None):
    from protopress.generators.layout import layouts_for

    drawn = layouts_for(only or catalog.components, options.layouts_dir, catalog)
    picked = options.only_ids
    total = sum(
        c.count for kind in drawn for c in catalog.of_kind(kind) if picked is None or c.id in picked
    )
    if not sys.stderr.isatty():
        return render_catalog(catalog, options, only=only)
    with click.progressbar(length=total, label=f"rendering {catalog.game}", file=sys.stderr) as bar:
        return render_catalog(catalog, options, progress=bar.update, only=only)

"""Render a catalog's components into print files: print-and-play sheets,
one-per-page print-house files, and PNGs, written atomically."""

from __future__ import annotations

import datetime
import io
import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from protopress.atomic import remove_stale_temporaries, write_atomic
from protopress.components.problems import Problem
from protopress.generators.assets import AssetPolicy
from protopress.generators.boards import draw_map_page, draw_tile_page
from protopress.generators.colours import BLACK, Colour
from protopress.generators.cutlines import draw_outline
from protopress.generators.face import Face, TextOp
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.imposition import (
    RULER_LABEL_BASELINE,
    RULER_LENGTH,
    RULER_TICKS,
    SheetPlan,
    SheetSpec,
    fits_sheet,
    per_card_boxes,
    plan_sheet,
)
from protopress.generators.layout import Layout, layouts_for
from protopress.generators.limits import MAX_PAGE_AREA_M2, MAX_PAGES_PER_RENDER
from protopress.generators.page_labels import BACK_LABEL, BOX_LABEL, MAP_LABEL, TILE_LABEL
from protopress.generators.parts import (
    BOX_NAME,
    PARTS_FILE,
    PER_CARD_NAME,
    README_FILE,
    SHEETS_NAME,
    write_parts_and_readme,
)
from protopress.generators.pdf_surface import FaceCanvas, PdfFaces
from protopress.generators.png_surface import face_images, png_bytes
from protopress.generators.separation import Separation, separation
from protopress.generators.standards import PdfxStandard
from protopress.generators.tiling import DEFAULT_OVERLAP, TilePlan, plan_tiles
from protopress.generators.tuckbox import DEFAULT_THICKNESS
from protopress.generators.tuckbox_pdf import BoxSpec, box_specs, draw_box_page
from protopress.generators.units import MM, PAPER, to_mm

MARK_WIDTH = 0.25  # points: hairline crop marks
CONTACT_WIDTH = 180  # pixels per face on contact sheets
FRONT_LABEL = "front "  # page labels: "front 1", "back 1", "front 2", ...
RULER_LABEL = "50 mm: print at 100% scale"
RULER_LABEL_SIZE = 6  # points


@dataclass(frozen=True)
class RenderOptions:
    output_dir: Path
    paper: str = "a4"
    layout: str = "sheets"  # "sheets", "per-card" or "both"
    bleed: float = 3 * MM
    crop_marks: bool = True
    crop_length: float = 4 * MM
    crop_offset: float = 1 * MM
    cut_lines: bool = False
    duplex: str = "long"  # "long", "short" or "none" (no back pages on sheets)
    back_offset: tuple[float, float] = (0.0, 0.0)  # points
    png: bool = False
    dpi: int = 300
    cmyk: bool = False  # colour-managed CMYK through icc_profile (see separation.py)
    icc_profile: Path | None = None  # a CMYK output profile; None: the bundled FOGRA39 one
    pdfx: PdfxStandard | None = None  # PDF/X with the profile as output intent (implies cmyk)
    max_ink: float | None = None  # percent: a total ink limit below the profile's (implies cmyk)
    proof: str | None = None  # the stamp's date when proofing
    layouts_dir: Path | None = None
    allow_outside_assets: bool = False
    strict: bool = False  # text that does not fit is an error, and nothing is written
    overlap: float = DEFAULT_OVERLAP  # between the pages of a board tiled across the paper
    tuck_boxes: tuple[str, ...] = ()  # kinds to make a tuck box for, beside the catalog's boxes
    card_thickness: float = DEFAULT_THICKNESS  # of one card, for boxes that do not say
    only_ids: frozenset[str] | None = None  # render only these components' copies (--only)

    def __post_init__(self) -> None:
        if self.pdfx or self.icc_profile is not None or self.max_ink is not None:  # CMYK only
            object.__setattr__(self, "cmyk", True)

    def separation(self) -> Separation | None:
        """The CMYK separation of a CMYK render (ValueError for a bad profile), else None."""
        if not self.cmyk:
            return None
        return separation(self.icc_profile, None if self.max_ink is None else self.max_ink / 100)


MAX_EPOCH = 253402300799  # 9999-12-31T23:59:59Z: the last second a date prints in 4 digits


# 11,000 sheets of nine cards: far past any prototype, short of a disk filled by
# a few kilobytes of catalog (every component may have 10,000 copies)
MAX_COPIES_PER_KIND = 100_000


def source_date_epoch(environ: Mapping[str, str] | None = None) -> int | None:
    """SOURCE_DATE_EPOCH (reproducible builds) as seconds, or None when unset.

    reportlab dates every PDF from it, and a proof is stamped with it, so a
    malformed value is refused (ValueError) before anything is written, as the
    reproducible-builds specification asks, rather than failing mid-render.
    """
    epoch = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    if not epoch.isascii() or not epoch.isdigit() or int(epoch) > MAX_EPOCH:
        raise ValueError(
            f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 (at most "
            f"{MAX_EPOCH}), found {epoch[:40]!r}"
        )
    return int(epoch)


def proof_date(environ: Mapping[str, str] | None = None) -> str:
    """The date a proof is stamped with: SOURCE_DATE_EPOCH's when set, else today's."""
    epoch = source_date_epoch(environ)
    if epoch is None:
        return datetime.datetime.now().strftime("%Y-%m-%d")
    return datetime.datetime.fromtimestamp(epoch, datetime.UTC).strftime("%Y-%m-%d")


class TextDoesNotFit(Exception):
    def __init__(self, warnings: list[str]):
        self.warnings = warnings
        super().__init__(f"{len(warnings)} texts do not fit their boxes")


@dataclass(frozen=True)
class PdfFile:
    """A PDF's bytes and the pages the canvas drew, so that what reports on a render
    (its closing summary) need not read the file back to count them."""

    data: bytes
    pages: int


@dataclass
class RenderResult:
    files: list[Path] = field(default_factory=list)
    pdf_pages: dict[Path, int] = field(default_factory=dict)  # each PDF written: its pages
    warnings: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # kinds without a layout
    # images and icons drawn as placeholders: the files are written, the run fails
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class Copy:
    """One physical component: its faces (the back may be None)."""

    id: str
    front: Face
    back: Face | None
    repeated: bool = False  # more copies share this front: draw it once, place it often


Progress = Callable[[int], None]  # called with the number of components just drawn


def render_catalog(
    catalog,
    options: RenderOptions,
    progress: Progress | None = None,
    only: Mapping[str, set[str]] | None = None,
):
    """Write every kind that has a layout; return the files written and warnings.

    Faces are built as the pages are drawn, so memory does not grow with the
    deck; with strict, a first pass checks every text before anything is written.
    only limits the work to some kinds (its keys) and, for PNGs, to some
    component ids (its values); the other PNGs are read back from disk.
    """
    source_date_epoch()  # reportlab would fail on a bad one halfway through the files
    options.separation()  # a bad ICC profile, too, is refused before anything is written
    result = RenderResult()
    layouts = layouts_for(catalog.components, options.layouts_dir, catalog)
    result.skipped = [
        kind
        for kind in catalog.components
        if kind not in layouts and (only is None or kind in only)
    ]
    if only is not None:
        layouts = {kind: layout for kind, layout in layouts.items() if kind in only}
    for layout in layouts.values():
        result.warnings.extend(layout.safe_zone_warnings())
    check_pages(catalog, layouts, options)
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, options.allow_outside_assets)
    for layout in layouts.values():
        assets.check_fonts(layout)  # before anything is written
    if options.strict:
        check_strict(catalog, layouts, options, assets)
    boxes = box_specs(catalog, options, include_catalog=only is None)  # problems before files
    created = not options.output_dir.exists()
    options.output_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_output(options.output_dir, layouts, [box.id for box in boxes])
    try:
        for kind, layout in layouts.items():
            changed = None if only is None else only[kind]
            result.files.extend(
                _render_kind(catalog, kind, layout, options, assets, result, progress, changed)
            )
        for box in boxes:
            path = options.output_dir / BOX_NAME.format(id=box.id)
            pdf = tuck_box_pdf(box, catalog, options, assets, result.warnings)
            result.files.append(write_pdf(path, pdf, result.pdf_pages))
        if only is None:  # a whole render: say what is here and what is not
            result.files.extend(
                write_parts_and_readme(
                    catalog,
                    options.output_dir,
                    result.files,
                    result.skipped,
                    settings(options),
                    tiled=[
                        kind
                        for kind, layout in layouts.items()
                        if options.layout != "per-card" and is_tiled(layout, options)
                    ],
                )  # fmt: skip
            )
    except BaseException:
        if created and not any(options.output_dir.iterdir()):
            options.output_dir.rmdir()  # leave no empty folder behind a failed render
        raise
    return result


@dataclass(frozen=True)
class PageCount:
    """The copies of one kind, the pages they take in a render's PDFs, and the area
    of those pages in square points."""

    kind: str
    copies: int
    pages: int
    area: float


def page_counts(catalog, layouts: Mapping[str, Layout], options: RenderOptions) -> list[PageCount]:
    """The pages (and their area) each kind's PDFs will have, from the plans alone."""
    counts = []
    for kind, layout in layouts.items():
        copies = sum(component.count for component in catalog.of_kind(kind))
        pages, area = 0, 0.0
        if options.layout in ("sheets", "both"):
            if is_tiled(layout, options):
                plan = tile_plan(layout, options)
                sheets = copies * (1 + len(plan.tiles))  # a page map, then the tiles
                paper = plan.paper
            else:
                per_sheet = sheet_plan(layout, options).per_page
                sides = 2 if options.duplex != "none" and layout.back is not None else 1
                sheets = -(-copies // per_sheet) * sides
                paper = PAPER[options.paper]
            pages += sheets
            area += sheets * paper[0] * paper[1]
        if options.layout in ("per-card", "both"):
            faces = copies * (2 if layout.back is not None else 1)
            pages += faces
            area += faces * (layout.width + 2 * options.bleed) * (layout.height + 2 * options.bleed)
        counts.append(PageCount(kind, copies, pages, area))
    return counts


def check_pages(catalog, layouts: Mapping[str, Layout], options: RenderOptions) -> None:
    """Refuse (ValueError) more than MAX_COPIES_PER_KIND copies of a kind, and a
    render of more than MAX_PAGES_PER_RENDER pages or MAX_PAGE_AREA_M2 of paper,
    before anything is drawn: each component's count is bounded, but not their
    sum, and a large component is tiled across many pages."""
    counts = page_counts(catalog, layouts, options)
    for count in counts:
        if count.copies > MAX_COPIES_PER_KIND:
            raise ValueError(
                f"{count.kind}: {count.copies} copies to print; at most {MAX_COPIES_PER_KIND} "
                "of one kind (render part of them with a smaller catalog)"
            )
    pages = sum(count.pages for count in counts)
    area_m2 = sum(count.area for count in counts) / (1000 * MM) ** 2
    if pages <= MAX_PAGES_PER_RENDER and area_m2 <= MAX_PAGE_AREA_M2:
        return
    largest = max(counts, key=lambda count: count.area)
    layout = layouts[largest.kind]
    raise ValueError(
        f"{pages} pages ({area_m2:,.0f} square metres of paper) to print; a render prints at "
        f"most {MAX_PAGES_PER_RENDER} pages and {MAX_PAGE_AREA_M2:,} square metres "
        f"({largest.kind}: {largest.copies} copies of {to_mm(layout.width):g} x "
        f"{to_mm(layout.height):g} mm, {largest.pages} pages; render fewer copies, "
        "or sheets or per-card pages alone)"
    )


def settings(options: RenderOptions) -> str:
    """The render's print settings in a few words, for the output's README."""
    words = [
        f"{options.paper.upper() if options.paper == 'a4' else options.paper} paper",
        f"{to_mm(options.bleed):g} mm bleed",
        "no duplex backs" if options.duplex == "none" else f"{options.duplex}-edge duplex",
    ]
    if options.back_offset != (0.0, 0.0):
        words.append("backs shifted {:g},{:g} mm".format(*map(to_mm, options.back_offset)))
    cmyk = options.separation()
    if cmyk is not None:
        profile = cmyk.profile
        standard = f"{options.pdfx.title}, " if options.pdfx else ""
        words.append(f"{standard}CMYK ({profile.description})")
    else:
        words.append("RGB")
    return ", ".join(words)


def remove_stale_output(output_dir: Path, kinds, boxes=()) -> list[Path]:
    """Delete the temporaries that a killed render left beside the files this
    render owns: the kinds' PDFs, their PNGs and contact sheets, the boxes' PDFs,
    the README and the parts list. Temporaries of a render still running, and of
    any other file, stay."""
    kinds = set(kinds)
    pdfs = {name.format(kind=kind) for kind in kinds for name in (SHEETS_NAME, PER_CARD_NAME)}
    pdfs |= {BOX_NAME.format(id=box) for box in boxes} | {README_FILE, PARTS_FILE}
    contacts = {f"{kind}-contact.png" for kind in kinds}
    removed = remove_stale_temporaries(output_dir, pdfs.__contains__)
    png = output_dir / "png"
    if png.is_dir():
        removed += remove_stale_temporaries(png, contacts.__contains__)
        for kind in sorted(kinds):
            removed += remove_stale_temporaries(png / kind, _is_face_png)
    return removed


def write_pdf(path: Path, pdf: PdfFile, pdf_pages: dict[Path, int]) -> Path:
    """Write pdf atomically at path and note its pages in pdf_pages; return path."""
    write_atomic(path, pdf.data)
    pdf_pages[path] = pdf.pages
    return path


def _is_face_png(name: str) -> bool:
    return name.endswith(("-front.png", "-back.png"))


def _render_kind(
    catalog, kind, layout, options, assets, result, progress, changed=None
) -> list[Path]:
    written = []
    if options.layout in ("sheets", "both"):
        result.warnings.extend(sheet_warnings(layout, options))
        copies = _copies(catalog, kind, layout, options, assets, result.warnings, result.problems)
        path = options.output_dir / SHEETS_NAME.format(kind=kind)
        pdf = sheets_pdf(copies, layout, catalog, options, progress)
        written.append(write_pdf(path, pdf, result.pdf_pages))
    if options.layout in ("per-card", "both"):
        once = options.layout == "per-card"  # both: counted with the sheets
        warnings, problems = (result.warnings, result.problems) if once else (None, [])
        copies = _copies(catalog, kind, layout, options, assets, warnings, problems)
        path = options.output_dir / PER_CARD_NAME.format(kind=kind)
        pdf = per_card_pdf(copies, catalog, options, progress)
        written.append(write_pdf(path, pdf, result.pdf_pages))
    if options.png:
        pngs = _copies(catalog, kind, layout, options, assets, None, [])
        written.extend(write_pngs(pngs, kind, options, changed))
    return written


def check_strict(catalog, layouts: Mapping[str, Layout], options, assets) -> None:
    """--strict, before anything is written: every missing image or icon and every
    text that does not fit (or lacks glyphs) of these layouts' faces, together in
    one TextDoesNotFit."""
    warnings: list[str] = []
    missing: list[Problem] = []
    for kind, layout in layouts.items():
        for _ in _copies(catalog, kind, layout, options, assets, warnings, missing):
            pass
    if warnings or missing:
        raise TextDoesNotFit([*map(str, missing), *warnings])


def _copies(catalog, kind, layout: Layout, options, assets, warnings: list | None, problems=None):
    """Every physical copy of a kind's components (those of options.only_ids alone, when
    given), faces built one component at a time. With a problems list, a missing image
    or icon draws a placeholder and its problem goes there; without, it raises FaceProblem."""
    builder = FaceBuilder(layout, catalog, options.bleed, assets, problems is not None)
    for component in catalog.of_kind(kind):
        if options.only_ids is not None and component.id not in options.only_ids:
            continue
        front = builder.build(component, "front")
        back = builder.build(component, "back") if layout.back is not None else None
        if problems is not None:
            problems.extend(front.problems)
            problems.extend(back.problems if back is not None else ())
        if warnings is not None:
            warnings.extend(front.warnings)
            warnings.extend(back.warnings if back is not None else ())
        for _ in range(component.count):
            yield Copy(component.id, front, back, component.count > 1)


def _canvas(buffer, pagesize, catalog, title: str, separation: Separation | None) -> Canvas:
    base = font(DEFAULT_FONT)  # no standard-14 font is left in the output
    canvas = FaceCanvas(
        buffer, pagesize=pagesize, invariant=1, initialFontName=base.name, separation=separation
    )
    canvas.setTitle(f"{catalog.title} {catalog.version}: {title}")
    canvas.setCreator("protopress")
    return canvas


def _surface(canvas: Canvas, options: RenderOptions, separation: Separation | None) -> PdfFaces:
    """Where faces are drawn; for PDF/X-1a every face is flattened first."""
    x1a = options.pdfx is PdfxStandard.X1A
    if not (x1a and separation is not None):
        return PdfFaces(canvas, separation)
    # flatten.py loads pikepdf and pdfium, which only PDF/X-1a needs: imported here
    from protopress.generators.flatten import Flattener

    return PdfFaces(canvas, separation, prepare=Flattener(separation))


def sheet_plan(layout: Layout, options: RenderOptions) -> SheetPlan:
    """How a kind's faces go on the render's sheets."""
    plan = plan_sheet(layout.width, layout.height, options.bleed, sheet_spec(options))
    return replace(plan, cut_shape=layout.shape, cut_radius=layout.corner_radius)


def sheet_spec(options: RenderOptions) -> SheetSpec:
    return SheetSpec(
        paper=PAPER[options.paper],
        crop_marks=options.crop_marks,
        crop_length=options.crop_length,
        crop_offset=options.crop_offset,
        duplex=options.duplex,
        back_offset=options.back_offset,
    )


def is_tiled(layout: Layout, options: RenderOptions) -> bool:
    """Whether a kind is larger than a sheet takes, and so is tiled across pages."""
    return not fits_sheet(layout.width, layout.height, options.bleed, sheet_spec(options))


def tile_plan(layout: Layout, options: RenderOptions) -> TilePlan:
    """How one face of a tiled kind goes across the render's paper."""
    width, height = layout.width + 2 * options.bleed, layout.height + 2 * options.bleed
    return plan_tiles(width, height, options.bleed, PAPER[options.paper], options.overlap)


def sheet_warnings(layout: Layout, options: RenderOptions) -> list[str]:
    """What the sheets had to leave out: crop marks with no room beside the bleed;
    the backs of a tiled board."""
    if is_tiled(layout, options):
        if layout.back is None:
            return []
        return [
            f"{layout.kind} sheets: tiled across pages, fronts only (the backs are in "
            f"{PER_CARD_NAME.format(kind=layout.kind)})"
        ]
    if options.crop_marks and not sheet_plan(layout, options).spec.crop_marks:
        return [
            f"{layout.kind} sheets: no room for crop marks between the bleed and the 5 mm "
            f"edge band of {options.paper} paper; drawn without them"
        ]
    return []


def sheets_pdf(copies, layout: Layout, catalog, options: RenderOptions, progress=None) -> PdfFile:
    """Print-and-play sheets: faces n-up, or a component larger than the paper tiled."""
    if is_tiled(layout, options):
        return tiled_pdf(copies, layout, catalog, options, progress)
    return _grid_pdf(copies, layout, catalog, options, progress)


def _grid_pdf(copies, layout: Layout, catalog, options: RenderOptions, progress=None) -> PdfFile:
    paper = PAPER[options.paper]
    plan = sheet_plan(layout, options)
    buffer = io.BytesIO()
    separation = options.separation()
    canvas = _canvas(buffer, paper, catalog, f"{layout.kind} sheets", separation)
    faces = _surface(canvas, options, separation)
    has_backs = options.duplex != "none" and layout.back is not None
    copies = iter(copies)
    sheet = 0
    while page := list(itertools.islice(copies, plan.per_page)):
        sheet += 1
        _label(canvas, FRONT_LABEL, sheet)
        for slot, copy in zip(plan.filled(len(page)), page, strict=True):
            turn = 90 if slot.rotated else 0
            faces.place(copy.front, slot.x, slot.y, paper[1], turn, slot.clip, copy.repeated)
            if options.proof:
                _stamp(faces, catalog, copy, slot, options, paper[1])
        _page_marks(faces, plan, options, paper, len(page))
        canvas.showPage()
        if has_backs:
            _label(canvas, BACK_LABEL, sheet)
            turn = -90 if options.duplex == "long" else 90
            for slot, copy in zip(plan.backs(len(page)), page, strict=True):
                turned = turn if slot.rotated else 0
                faces.place(copy.back, slot.x, slot.y, paper[1], turned, slot.clip, reuse=True)
            canvas.showPage()
        if progress:
            progress(len(page))
    return _finished(canvas, buffer, options, separation)


def _finished(
    canvas: Canvas, buffer: io.BytesIO, options: RenderOptions, separation: Separation | None
) -> PdfFile:
    """Save the canvas into buffer: the PDF as drawn, or as PDF/X with the render's
    profile (the same pages), and how many pages it has."""
    canvas.save()
    pages = canvas.getPageNumber() - 1  # the number the next page would have had
    data = buffer.getvalue()
    if options.pdfx and separation is not None:
        # pdfx.py loads pikepdf, which only this step needs: imported here, not by every render
        from protopress.generators.pdfx import to_pdfx

        return PdfFile(to_pdfx(data, separation.profile, options.pdfx), pages)
    return PdfFile(data, pages)


def tiled_pdf(copies, layout: Layout, catalog, options: RenderOptions, progress=None) -> PdfFile:
    """Each copy's front across as many pages as it needs: a page map, then the
    tiles row by row (see tiling.py)."""
    plan = tile_plan(layout, options)
    buffer = io.BytesIO()
    separation = options.separation()
    canvas = _canvas(buffer, plan.paper, catalog, f"{layout.kind} tiled", separation)
    faces = _surface(canvas, options, separation)
    paper = options.paper.upper() if options.paper == "a4" else options.paper
    trim = f"{to_mm(layout.width):g} x {to_mm(layout.height):g} mm"
    for copy in copies:
        title = f"{catalog.title}: {layout.kind} {copy.id}"
        canvas.addPageLabel(canvas.getPageNumber() - 1, prefix=MAP_LABEL)
        draw_map_page(faces, plan, copy.front, f"{title}, {trim} (page map)", paper)
        canvas.showPage()
        for tile in plan.tiles:
            canvas.addPageLabel(canvas.getPageNumber() - 1, prefix=TILE_LABEL + tile.label)
            draw_tile_page(faces, plan, tile, copy.front, title)
            canvas.showPage()
        if progress:
            progress(1)
    return _finished(canvas, buffer, options, separation)


def tuck_box_pdf(box: BoxSpec, catalog, options: RenderOptions, assets, warnings) -> PdfFile:
    """A tuck box's die-line on one page (see tuckbox.py)."""
    buffer = io.BytesIO()
    separation = options.separation()
    canvas = _canvas(buffer, PAPER[options.paper], catalog, f"tuck box {box.id}", separation)
    canvas.addPageLabel(0, prefix=BOX_LABEL)
    faces = _surface(canvas, options, separation)
    warnings.extend(draw_box_page(faces, box, catalog, options.paper, assets))
    canvas.showPage()
    return _finished(canvas, buffer, options, separation)


def _label(canvas: Canvas, prefix: str, sheet: int) -> None:
    """Label the page about to be drawn "front N" or "back N" (N: the sheet),
    so viewers show it and preflight knows back pages carry no crop marks."""
    canvas.addPageLabel(canvas.getPageNumber() - 1, style="D", start=sheet, prefix=prefix)


def _page_marks(faces: PdfFaces, plan: SheetPlan, options: RenderOptions, paper, filled) -> None:
    """Crop marks beside the filled slots, cut lines and the scale ruler, drawn
    straight on the page."""
    canvas, height = faces.canvas, paper[1]
    canvas.saveState()
    faces.set_stroke(BLACK)
    canvas.setLineWidth(MARK_WIDTH)
    if options.crop_marks:
        for line in plan.crop_marks(filled):
            canvas.line(line.x1, height - line.y1, line.x2, height - line.y2)
    if options.cut_lines:
        canvas.setDash([2, 2])
        outlines = plan.cut_outlines(filled)
        for line in plan.cut_lines() if outlines is None else ():
            canvas.line(line.x1, height - line.y1, line.x2, height - line.y2)
        for outline in outlines or ():
            draw_outline(canvas, outline, height)
        canvas.setDash([])
    _ruler(faces, plan, height)
    canvas.restoreState()


def _ruler(faces: PdfFaces, plan: SheetPlan, height: float) -> None:
    """A 50 mm scale bar with millimetre ticks above it and its label below:
    printed at 100% it measures 50 mm."""
    canvas, box = faces.canvas, plan.ruler()
    if box is None:  # no grid leaves room for it
        return
    bar = height - box.y - RULER_TICKS
    canvas.line(box.x, bar, box.x + RULER_LENGTH, bar)
    for tick in range(51):
        tall = 3 if tick % 10 == 0 else 2 if tick % 5 == 0 else 1
        x = box.x + tick * MM
        canvas.line(x, bar, x, bar + tall * RULER_TICKS / 3)
    faces.set_fill(BLACK)
    canvas.setFont(font(DEFAULT_FONT).name, RULER_LABEL_SIZE)
    canvas.drawString(box.x, height - box.y - RULER_LABEL_BASELINE, RULER_LABEL)


def _stamp(faces: PdfFaces, catalog, copy: Copy, slot, options: RenderOptions, height) -> None:
    """Proof stamp in the bleed below the trim: cut away in the finished piece."""
    text = f"{copy.id} · v{catalog.version} · {options.proof}"
    size = min(5.0, options.bleed * 0.8)
    if size < 2:
        return
    run = TextOp(((slot.x + options.bleed, slot.y + slot.height - options.bleed * 0.2, text),),
                 font(DEFAULT_FONT), size, Colour(0.4, 0.4, 0.4))  # fmt: skip
    faces.canvas.saveState()
    faces.set_fill(run.colour)
    faces.canvas.setFont(run.font.name, run.size)
    for x, y, line in run.runs:
        faces.canvas.drawString(x, height - y, line)
    faces.canvas.restoreState()


def per_card_pdf(
    copies,
    catalog,
    options: RenderOptions,
    progress=None,
    *,
    backs_first: bool = False,
    pages: list[str] | None = None,
) -> PdfFile:
    """One copy per page at trim plus bleed; fronts and backs alternate, each
    card's front first (backs_first: its back first). pages, when given, gets
    each page's card and side ("eddy front")."""
    buffer = io.BytesIO()
    separation = options.separation()
    canvas = _canvas(buffer, PAPER["a4"], catalog, "print-house file", separation)
    faces = _surface(canvas, options, separation)
    for copy in copies:
        sides = [("front", copy.front, copy.repeated), ("back", copy.back, True)]
        for side, face, reuse in reversed(sides) if backs_first else sides:
            if face is None:
                continue
            if pages is not None:
                pages.append(f"{copy.id} {side}")
            trim_w, trim_h = face.trim
            boxes = per_card_boxes(trim_w, trim_h, face.bleed)
            canvas.setPageSize((face.width, face.height))
            canvas.setTrimBox(boxes.trim)
            canvas.setBleedBox(boxes.bleed)
            faces.place(face, 0, 0, face.height, reuse=reuse)
            if options.proof:
                stamp = f"{copy.id} · v{catalog.version} · {options.proof}"
                faces.set_fill(Colour(0.4, 0.4, 0.4))
                canvas.setFont(font(DEFAULT_FONT).name, min(5.0, face.bleed * 0.8))
                canvas.drawString(face.bleed, face.bleed * 0.2, stamp)
            canvas.showPage()
        if progress:
            progress(1)
    return _finished(canvas, buffer, options, separation)


def write_pngs(copies, kind: str, options: RenderOptions, changed=None) -> list[Path]:
    """One PNG per face (each design once) and a contact sheet of the fronts.

    With changed (a set of ids), only those faces are drawn again; the others
    are read back from their existing files for the contact sheet. Only small
    compressed thumbnails are kept as the faces are drawn: memory stays flat.
    """
    folder = options.output_dir / "png" / kind
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    fronts: list[bytes] = []
    jobs, drawn = itertools.tee(_png_jobs(copies, folder, changed))
    images = face_images((face for _, _, face in drawn if face is not None), options.dpi)
    for path, side, face in jobs:
        if face is None:  # unchanged: read back for the contact sheet
            if side == "front":
                with Image.open(path, formats=["PNG"]) as existing:
                    fronts.append(_thumbnail_bytes(existing.convert("RGB")))
            continue
        image = next(images)
        write_atomic(path, png_bytes(image, options.dpi))
        written.append(path)
        if side == "front":
            fronts.append(_thumbnail_bytes(image))
    if fronts:
        path = options.output_dir / "png" / f"{kind}-contact.png"
        write_atomic(path, png_bytes(contact_sheet(fronts), 72))
        written.append(path)
    return written


def _png_jobs(copies, folder: Path, changed):
    """(path, side, face) for each design's faces in order; face is None where
    the existing file is kept (not among the changed ids)."""
    seen: set[str] = set()
    for copy in copies:
        if copy.id in seen:
            continue
        seen.add(copy.id)
        for side, face in (("front", copy.front), ("back", copy.back)):
            if face is None:
                continue
            path = folder / f"{copy.id}-{side}.png"
            keep = changed is not None and copy.id not in changed and path.is_file()
            yield path, side, None if keep else face


CONTACT_FULL_SIZE = 96  # faces shown at CONTACT_WIDTH; more share the same sheet area


def thumbnail(image: Image.Image, width: int = CONTACT_WIDTH) -> Image.Image:
    """A face as the contact sheet shows it: width pixels wide."""
    factor = image.width // width
    reduced = image.reduce(factor) if factor > 1 else image  # a box filter first: fast
    return reduced.resize(
        (width, round(image.height * width / image.width)), Image.Resampling.LANCZOS
    )


def _thumbnail_bytes(image: Image.Image) -> bytes:
    return png_bytes(thumbnail(image))


def contact_sheet(thumbnails: list[bytes], columns: int = 8) -> Image.Image:
    """The fronts eight to a row, from their thumbnails; past CONTACT_FULL_SIZE
    faces each is drawn smaller, so the sheet's size is bounded."""
    shrink = min(1.0, (CONTACT_FULL_SIZE / len(thumbnails)) ** 0.5)
    width = max(8, round(CONTACT_WIDTH * shrink))
    gap = max(2, round(8 * shrink))
    cells = []
    sheet = None
    for index, data in enumerate(thumbnails):
        with Image.open(io.BytesIO(data), formats=["PNG"]) as stored:
            image = (
                stored.convert("RGB") if shrink == 1.0 else thumbnail(stored.convert("RGB"), width)
            )
        if sheet is None:
            cells = [width, image.height]
            rows = -(-len(thumbnails) // columns)
            size = (min(columns, len(thumbnails)) * (cells[0] + gap) + gap,
                    rows * (cells[1] + gap) + gap)  # fmt: skip
            sheet = Image.new("RGB", size, "white")
        column, row = index % columns, index // columns
        sheet.paste(image, (gap + column * (cells[0] + gap), gap + row * (cells[1] + gap)))
    assert sheet is not None
    return sheet

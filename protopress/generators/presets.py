"""Print-shop presets: the render settings and file set a service expects.

A preset fixes RenderOptions fields (bleed, layout, png, dpi, paper, crop
marks, duplex) and says what to deliver, named the service's way, into
``output_dir/<preset name>/``:

* ``tgc``, ``mpc``: one PNG per face at its product's pixel size;
* ``drivethrucards``: one PDF/X-1a:2003 file per kind, one card side per
  page, each card's back then its front, TrimBox 1/8 in inside the page, the
  total ink held within 240% and checked by preflight;
* ``pnp-a4``, ``pnp-letter``: print-and-play sheets with crop marks.

The services' figures and where they come from are in docs/presets.md.

Sizes: a service preset maps each kind to the service's nearest product
(generators/products.py) and keeps, scales or centres its faces on it
(generators/fitting.py); each decision is reported in the result and in the
folder's README.txt, and a kind the service has no product for is listed and
left out. A layout designed at a product's size goes through unchanged.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.components.problems import Problem
from protopress.generators.assets import AssetPolicy
from protopress.generators.fitting import Placement, Unplaced, place
from protopress.generators.layout import Layout, layouts_for
from protopress.generators.parts import (
    PARTS_FILE,
    PER_CARD_NAME,
    manifest_rows,
    parts_csv,
    parts_of,
)
from protopress.generators.png_surface import face_image, png_bytes
from protopress.generators.products import PRODUCTS, Product
from protopress.generators.render import (
    Copy,
    RenderOptions,
    RenderResult,
    _copies,
    check_pages,
    check_strict,
    per_card_pdf,
    sheets_pdf,
    write_pdf,
)
from protopress.generators.standards import PdfxStandard
from protopress.generators.units import INCH, MM

TOLERANCE = 0.01 * MM  # bleeds closer than this are the same bleed
README = "README.txt"


class PresetError(ValueError):
    """A preset that does not exist, or a catalog/options it cannot serve."""


@dataclass(frozen=True)
class Preset:
    name: str
    service: str
    deliver: str  # "png" (one PNG per face), "pdf" (one card per page), "sheets"
    bleed: float  # points, on every side
    layout: str  # RenderOptions.layout
    png: bool  # RenderOptions.png (the preset's own PNGs are written either way)
    dpi: int
    paper: str = "a4"
    crop_marks: bool = True
    duplex: str = "long"
    filename: str = "{kind}-sheets.pdf"  # per kind (pdf, sheets) or per face (png)
    shared_back: str = "{kind}-back.png"  # png presets: when every card has the same back
    source: str = ""  # where the figures come from
    pdfx: PdfxStandard | None = None  # the PDF/X the service asks for (pdf presets)
    max_ink: float | None = None  # percent: the service's total ink limit, checked by preflight
    backs_first: bool = False  # pdf presets: each card's back page before its front

    @property
    def products(self) -> tuple[Product, ...]:
        """What the service prints (empty: print and play, which takes any size)."""
        return PRODUCTS.get(self.name, ())

    def fields(self) -> dict:
        """The RenderOptions fields this preset sets."""
        colour = {"pdfx": self.pdfx, "cmyk": True} if self.pdfx else {}
        ink = {"max_ink": self.max_ink} if self.max_ink is not None else {}
        return (
            colour
            | ink
            | {
                "bleed": self.bleed,
                "layout": self.layout,
                "png": self.png,
                "dpi": self.dpi,
                "paper": self.paper,
                "crop_marks": self.crop_marks,
                "duplex": self.duplex,
            }
        )


PRESETS: dict[str, Preset] = {
    "tgc": Preset(
        name="tgc",
        service="The Game Crafter",
        deliver="png",
        bleed=0.125 * INCH,
        layout="per-card",
        png=False,
        dpi=300,
        filename="{kind}-{id}-{side}.png",
        source="The Game Crafter, Poker Deck product page and template "
        "(thegamecrafter.com/make/products/PokerDeck)",
    ),
    "mpc": Preset(
        name="mpc",
        service="MakePlayingCards",
        deliver="png",
        bleed=0.12 * INCH,
        layout="per-card",
        png=False,
        dpi=300,
        filename="{kind}-{id}-{side}.png",
        source="MakePlayingCards, poker-size card template (makeplayingcards.com)",
    ),
    "drivethrucards": Preset(
        name="drivethrucards",
        service="DriveThruCards",
        deliver="pdf",
        bleed=0.125 * INCH,
        layout="per-card",
        png=False,
        dpi=300,
        filename=PER_CARD_NAME,
        source="DriveThruCards, card file creation guide (drivethrucards.com)",
        pdfx=PdfxStandard.X1A,
        max_ink=240,
        backs_first=True,
    ),
    "pnp-a4": Preset(
        name="pnp-a4",
        service="print and play, A4",
        deliver="sheets",
        bleed=3 * MM,
        layout="sheets",
        png=False,
        dpi=300,
        paper="a4",
        filename="{kind}-sheets.pdf",
        source="ISO 216 A4, 210 x 297 mm",
    ),
    "pnp-letter": Preset(
        name="pnp-letter",
        service="print and play, US Letter",
        deliver="sheets",
        bleed=0.125 * INCH,
        layout="sheets",
        png=False,
        dpi=300,
        paper="letter",
        filename="{kind}-sheets.pdf",
        source="ANSI A / US Letter, 8.5 x 11 in",
    ),
}


def preset(name: str | Preset) -> Preset:
    if isinstance(name, Preset):
        return name
    try:
        return PRESETS[name]
    except KeyError:
        raise PresetError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None


def apply_preset(name: str | Preset, options: RenderOptions) -> RenderOptions:
    """The options with the preset's fields set; everything else is kept."""
    return replace(options, **preset(name).fields())


@dataclass
class PresetResult(RenderResult):
    """A preset's render: the files, and how each kind went onto the service's products."""

    placements: list[Placement] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    preset: str = ""

    def report(self, game: str) -> list[str]:
        """One line per kind: its product and fit, or that it is not exported."""
        lines = [placement.line() for placement in self.placements]
        return lines + [kind.line(self.preset, game) for kind in self.unplaced]


def plan(
    layouts: dict[str, Layout], name: str | Preset
) -> tuple[dict[str, Placement], list[Unplaced]]:
    """Each kind's product and fit, and the kinds the service has no product for.
    Print and play takes any size: no kind is placed or left out."""
    chosen = preset(name)
    placed: dict[str, Placement] = {}
    unplaced: list[Unplaced] = []
    if not chosen.products:
        return placed, unplaced
    for kind, layout in layouts.items():
        found = place(kind, layout, chosen.products)
        if isinstance(found, Placement):
            placed[kind] = found
        else:
            unplaced.append(found)
    return placed, unplaced


def _check_options(options: RenderOptions, chosen: Preset) -> None:
    """A service preset's geometry is not negotiable: bleed, and dpi for pixel files."""
    wrong = []
    if chosen.products and abs(options.bleed - chosen.bleed) > TOLERANCE:
        wrong.append(f"bleed {options.bleed / INCH:g} in (needs {chosen.bleed / INCH:g} in)")
    if chosen.deliver == "png" and options.dpi != chosen.dpi:
        wrong.append(f"{options.dpi} dpi (needs {chosen.dpi} dpi)")
    if chosen.pdfx is not None and options.pdfx is not chosen.pdfx:
        found = options.pdfx.title if options.pdfx else "no PDF/X"
        wrong.append(f"{found} (needs {chosen.pdfx.title})")
    if chosen.max_ink is not None and options.max_ink != chosen.max_ink:
        found = f"{options.max_ink:g}%" if options.max_ink is not None else "no ink limit"
        wrong.append(f"{found} (needs {chosen.max_ink:g}% total ink)")
    if wrong:
        raise PresetError(
            f"{chosen.service} ({chosen.name}) cannot use {' and '.join(wrong)}; "
            "apply the preset's options with apply_preset"
        )


def _layouts(catalog, options: RenderOptions, kinds: Iterable[str] | None):
    layouts = layouts_for(catalog.components, options.layouts_dir, catalog)
    if kinds is None:
        return layouts
    kinds = list(kinds)
    unknown = [kind for kind in kinds if kind not in layouts]
    if unknown:
        raise PresetError(
            f"no layout for {', '.join(unknown)}; kinds with a layout: {', '.join(layouts)}"
        )
    return {kind: layouts[kind] for kind in kinds}


def write_preset_files(
    catalog,
    options: RenderOptions,
    preset_or_name: str | Preset,
    *,
    layouts: dict[str, Layout] | None = None,
    warnings: list[str] | None = None,
    progress=None,
    pdf_pages: dict[Path, int] | None = None,
    problems: list[Problem] | None = None,
) -> list[Path]:
    """Write the preset's file set into options.output_dir/<preset name>/.

    options must carry the preset's fields (apply_preset); layouts defaults to
    every kind that has one. A service preset puts each kind on its product
    (plan) and leaves out the kinds it has none for; README.txt says which.
    pdf_pages, when given, gets each PDF written and its pages. With a problems
    list, a missing image or icon is drawn as a placeholder and its problem goes
    there, as render does; without, it raises FaceProblem.
    """
    chosen = preset(preset_or_name)
    if layouts is None:
        layouts = layouts_for(catalog.components, options.layouts_dir, catalog)
    _check_options(options, chosen)
    placed, unplaced = plan(layouts, chosen)
    if chosen.products:
        layouts = {kind: layout for kind, layout in layouts.items() if kind in placed}
    if chosen.deliver != "png":  # bounded before anything is drawn, as render does
        mode = "per-card" if chosen.deliver == "pdf" else "sheets"
        check_pages(catalog, layouts, replace(options, layout=mode))
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, options.allow_outside_assets)
    folder = options.output_dir / chosen.name
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    folder_options = replace(options, output_dir=folder)
    written: list[Path] = []

    def copies(kind: str):
        layout = layouts[kind]
        placement = placed.get(kind)
        if placement is None:  # print and play: as render draws it
            return _copies(catalog, kind, layout, folder_options, assets, warnings, problems)
        return fitted_copies(catalog, kind, layout, folder_options, placement, assets, warnings,
                             problems)  # fmt: skip

    try:
        if chosen.deliver == "png":
            written = _write_pngs(catalog, layouts, folder_options, chosen, copies, placed,
                                  progress)  # fmt: skip
        else:
            for kind, layout in layouts.items():
                path = folder / chosen.filename.format(kind=kind)
                pages: list[str] = []
                if chosen.deliver == "pdf":
                    data = per_card_pdf(copies(kind), catalog, folder_options, progress,
                                        backs_first=chosen.backs_first, pages=pages)  # fmt: skip
                else:
                    data = sheets_pdf(copies(kind), layout, catalog, folder_options, progress)
                written.append(write_pdf(path, data, {} if pdf_pages is None else pdf_pages))
                if chosen.max_ink is not None:
                    over_ink = ink_problems(path, chosen.max_ink, pages)
                    if over_ink:
                        path.unlink()
                        raise PresetError("\n".join(over_ink))
        if chosen.products:
            path = folder / README
            write_atomic(path, _readme(catalog, chosen, placed, unplaced, written))
            written.append(path)
    except BaseException:
        if created and not any(folder.iterdir()):
            folder.rmdir()
        raise
    return written


def ink_problems(path: Path, limit: float, pages: list[str]) -> list[str]:
    """preflight's total ink check of a written file, one line per colour or
    picture over limit (percent), located by file, card and side."""
    # preflight reads the file with pypdf, which a render for no print service does not load
    from protopress.generators.preflight import ink_checks

    return [
        f"{path.name}: {pages[check.page - 1] if check.page else 'the file'}: {check.message}"
        for check in ink_checks(path, limit)
        if not check.ok
    ]


def fitted_copies(catalog, kind, layout, options, placement: Placement, assets, warnings,
                  problems: list[Problem] | None = None):  # fmt: skip
    """The kind's copies with faces on the product: built with a bleed wide enough
    to cover the product's file once scaled and centred, then wrapped (problems as
    in write_preset_files)."""
    dpi = options.dpi
    inner = replace(options, bleed=placement.inner_bleed(dpi))
    for copy in _copies(catalog, kind, layout, inner, assets, warnings, problems):
        back = None if copy.back is None else placement.wrap(copy.back, dpi, back=True)
        yield Copy(copy.id, placement.wrap(copy.front, dpi), back, copy.repeated)


def _write_pngs(catalog, layouts, options, chosen: Preset, copies, placed, progress):
    """One PNG per face, named the service's way, and a manifest of the counts
    and of the product each kind is ordered as."""
    folder = options.output_dir
    written: list[Path] = []
    rows: list[tuple[str, ...]] = [("kind", "id", "title", "count", "front", "back", "product")]
    for kind in layouts:
        product = placed[kind].product.key if kind in placed else ""
        components = {component.id: component for component in catalog.of_kind(kind)}
        designs, seen = [], set()
        for copy in copies(kind):
            if copy.id not in seen:
                seen.add(copy.id)
                designs.append(copy)
        backs = {None if c.back is None else c.back.drawing for c in designs}
        shared = len(backs) == 1 and designs and designs[0].back is not None
        shared_name = chosen.shared_back.format(kind=kind)
        if shared:
            written.append(_png(folder / shared_name, designs[0].back, chosen.dpi))
        for copy in designs:
            front = chosen.filename.format(kind=kind, id=copy.id, side="front")
            written.append(_png(folder / front, copy.front, chosen.dpi))
            back = ""
            if shared:
                back = shared_name
            elif copy.back is not None:
                back = chosen.filename.format(kind=kind, id=copy.id, side="back")
                written.append(_png(folder / back, copy.back, chosen.dpi))
            component = components[copy.id]
            title = str(component.get("title") or component.get("name") or copy.id)
            rows.append((kind, copy.id, title, str(component.count), front, back, product))
            if progress:
                progress(component.count)
    rows.extend((*row, "") for row in manifest_rows(parts_of(catalog)))  # no file holds them
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    manifest = folder / "manifest.csv"
    write_atomic(manifest, buffer.getvalue().encode("utf-8"))
    written.append(manifest)
    return written


def _png(path: Path, face, dpi: int) -> Path:
    write_atomic(path, png_bytes(face_image(face, dpi), dpi))
    return path


def _readme(catalog, chosen: Preset, placed, unplaced, written) -> bytes:
    """What the folder holds: each kind's product and fit, the kinds left out."""
    lines = [
        f"{catalog.title} {catalog.version}: files for {chosen.service} ({chosen.name})",
        "",
        "Each kind on the service's product (the ruling: docs/presets.md).",
        "Services change their templates: check each product's current template",
        "before you order.",
        "",
    ]
    lines += [f"  {placement.line()}" for placement in placed.values()]
    if unplaced:
        lines += ["", "Not exported:"]
        lines += [f"  {kind.line(chosen.name, catalog.game)}" for kind in unplaced]
    if not placed:
        lines += ["", "Nothing here is printed by this service."]
    lines += ["", "Files:"]
    if chosen.deliver == "png":
        lines.append("  manifest.csv: every design, its count and its product, for the upload form")
        lines.append("  <kind>-<id>-front.png, <kind>-<id>-back.png (or <kind>-back.png, shared)")
    else:
        lines += [f"  {path.name}" for path in written]
    if chosen.backs_first:
        lines.append("  one card side per page: each card's back, then its front")
    if chosen.pdfx is not None:
        ink = f", total ink within {chosen.max_ink:g}%" if chosen.max_ink is not None else ""
        lines.append(f"  {chosen.pdfx.title}, CMYK{ink}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def render_preset(
    catalog,
    options: RenderOptions,
    name: str | Preset,
    *,
    kinds: Iterable[str] | None = None,
    progress=None,
) -> PresetResult:
    """Everything `render --preset NAME` does: apply the preset, put each kind on
    the service's product (plan), check texts with strict before writing, then
    write the preset's file set."""
    chosen = preset(name)
    options = apply_preset(chosen, options)
    result = PresetResult(preset=chosen.name)
    layouts = _layouts(catalog, options, kinds)
    if kinds is None:
        result.skipped = [kind for kind in catalog.components if kind not in layouts]
    placed, result.unplaced = plan(layouts, chosen)
    result.placements = list(placed.values())
    exported = {k: v for k, v in layouts.items() if k in placed or not chosen.products}
    for layout in exported.values():
        result.warnings.extend(layout.safe_zone_warnings())
    if options.strict:
        root = catalog.path.parent if catalog.path else Path.cwd()
        check_strict(catalog, exported, options, AssetPolicy(root, options.allow_outside_assets))
    result.files = write_preset_files(
        catalog,
        options,
        chosen,
        layouts=layouts,
        warnings=result.warnings,
        progress=progress,
        pdf_pages=result.pdf_pages,
        problems=result.problems,
    )
    parts = parts_of(catalog)
    if kinds is None and parts:
        path = options.output_dir / chosen.name / PARTS_FILE  # beside the service's files
        write_atomic(path, parts_csv(parts))
        result.files.append(path)
    return result

"""Print-shop presets: the render settings and file set a service expects.

A preset fixes RenderOptions fields (bleed, layout, png, dpi, paper, crop
marks, duplex) and says what to deliver, named the service's way, into
``output_dir/<preset name>/``:

* ``tgc``, ``mpc``: one PNG per card face at the service's pixel size;
* ``drivethrucards``: one PDF per kind, one card per page, fronts and backs
  alternating, TrimBox 1/8 in inside the page;
* ``pnp-a4``, ``pnp-letter``: print-and-play sheets with crop marks.

The services' figures and where they come from are in docs/presets.md.

Card size: a service preset takes one card size (poker, 2.5 x 3.5 in). A kind
whose layout is another size is REFUSED with a message naming both sizes; it
is never scaled, since a scaled face moves text towards the cut and changes
type sizes behind the designer's back. Design the layout at the service's size.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.generators.face import AssetPolicy
from protopress.generators.layout import Layout, layouts_for
from protopress.generators.parts import (
    PARTS_FILE,
    PER_CARD_NAME,
    manifest_rows,
    parts_csv,
    parts_of,
)
from protopress.generators.png_surface import face_image
from protopress.generators.render import (
    RenderOptions,
    RenderResult,
    TextDoesNotFit,
    _copies,
    _png_bytes,
    per_card_pdf,
    sheets_pdf,
)
from protopress.generators.units import INCH, MM, to_mm

TOLERANCE = 0.01 * MM  # sizes closer than this are the same size
POKER = (2.5 * INCH, 3.5 * INCH)


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
    trim: tuple[float, float] | None = None  # points: the only card size taken
    trim_name: str = ""  # e.g. "poker, 2.5 x 3.5 in"
    pixels: tuple[int, int] | None = None  # one face file, bleed included (png presets)
    filename: str = "{kind}-sheets.pdf"  # per kind (pdf, sheets) or per face (png)
    shared_back: str = "{kind}-back.png"  # png presets: when every card has the same back
    source: str = ""  # where the figures come from

    def fields(self) -> dict:
        """The RenderOptions fields this preset sets."""
        return {
            "bleed": self.bleed,
            "layout": self.layout,
            "png": self.png,
            "dpi": self.dpi,
            "paper": self.paper,
            "crop_marks": self.crop_marks,
            "duplex": self.duplex,
        }


PRESETS: dict[str, Preset] = {
    "tgc": Preset(
        name="tgc",
        service="The Game Crafter",
        deliver="png",
        bleed=0.125 * INCH,
        layout="per-card",
        png=False,
        dpi=300,
        trim=POKER,
        trim_name="poker cards, 2.5 x 3.5 in",
        pixels=(825, 1125),
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
        trim=POKER,
        trim_name="poker cards, 2.5 x 3.5 in",
        pixels=(822, 1122),
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
        trim=POKER,
        trim_name="poker cards, 2.5 x 3.5 in",
        filename=PER_CARD_NAME,
        source="DriveThruCards, card file creation guide (drivethrucards.com)",
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


def _size(width: float, height: float) -> str:
    return f"{to_mm(width):g} x {to_mm(height):g} mm"


def size_problems(layouts: dict[str, Layout], name: str | Preset) -> list[str]:
    """One line per kind whose layout is not the preset's card size (empty: all fit)."""
    chosen = preset(name)
    if chosen.trim is None:
        return []
    width, height = chosen.trim
    problems = []
    for kind, layout in layouts.items():
        if abs(layout.width - width) > TOLERANCE or abs(layout.height - height) > TOLERANCE:
            problems.append(
                f"{kind}: the layout {layout.source} is "
                f"{_size(layout.width, layout.height)}; {chosen.service} ({chosen.name}) takes "
                f"{chosen.trim_name} ({_size(width, height)}) only. Design the layout at that "
                f'size ("size": {{"width": "{width / INCH:g}in", "height": "{height / INCH:g}in"}} '
                "in a --layouts folder) or leave the kind out; protopress does not scale faces"
            )
    return problems


def _check_options(options: RenderOptions, chosen: Preset) -> None:
    """A service preset's geometry is not negotiable: bleed, and dpi for pixel files."""
    wrong = []
    if chosen.trim is not None and abs(options.bleed - chosen.bleed) > TOLERANCE:
        wrong.append(f"bleed {options.bleed / INCH:g} in (needs {chosen.bleed / INCH:g} in)")
    if chosen.deliver == "png" and options.dpi != chosen.dpi:
        wrong.append(f"{options.dpi} dpi (needs {chosen.dpi} dpi)")
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
) -> list[Path]:
    """Write the preset's file set into options.output_dir/<preset name>/.

    options must carry the preset's fields (apply_preset); layouts defaults to
    every kind that has one. Sizes are checked before anything is written.
    """
    chosen = preset(preset_or_name)
    if layouts is None:
        layouts = layouts_for(catalog.components, options.layouts_dir, catalog)
    problems = size_problems(layouts, chosen)
    if problems:
        raise PresetError("\n".join(problems))
    _check_options(options, chosen)
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, options.allow_outside_assets)
    folder = options.output_dir / chosen.name
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    folder_options = replace(options, output_dir=folder)
    written: list[Path] = []
    try:
        if chosen.deliver == "png":
            written = _write_pngs(catalog, layouts, folder_options, chosen, assets, warnings,
                                  progress)  # fmt: skip
        else:
            for kind, layout in layouts.items():
                copies = _copies(catalog, kind, layout, folder_options, assets, warnings)
                path = folder / chosen.filename.format(kind=kind)
                if chosen.deliver == "pdf":
                    data = per_card_pdf(copies, catalog, folder_options, progress)
                else:
                    data = sheets_pdf(copies, layout, catalog, folder_options, progress)
                write_atomic(path, data)
                written.append(path)
    except BaseException:
        if created and not any(folder.iterdir()):
            folder.rmdir()
        raise
    return written


def _write_pngs(catalog, layouts, options, chosen: Preset, assets, warnings, progress):
    """One PNG per face, named the service's way, and a manifest of the counts."""
    folder = options.output_dir
    written: list[Path] = []
    rows = [("kind", "id", "title", "count", "front", "back")]
    for kind, layout in layouts.items():
        components = {component.id: component for component in catalog.of_kind(kind)}
        designs, seen = [], set()
        for copy in _copies(catalog, kind, layout, options, assets, warnings):
            if copy.id not in seen:
                seen.add(copy.id)
                designs.append(copy)
        backs = {None if c.back is None else (c.back.width, c.back.height, c.back.ops)
                 for c in designs}  # fmt: skip
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
            rows.append((kind, copy.id, title, str(component.count), front, back))
            if progress:
                progress(component.count)
    rows.extend(manifest_rows(parts_of(catalog)))  # the parts no file contains
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    manifest = folder / "manifest.csv"
    write_atomic(manifest, buffer.getvalue().encode("utf-8"))
    written.append(manifest)
    return written


def _png(path: Path, face, dpi: int) -> Path:
    write_atomic(path, _png_bytes(face_image(face, dpi), dpi))
    return path


def render_preset(
    catalog,
    options: RenderOptions,
    name: str | Preset,
    *,
    kinds: Iterable[str] | None = None,
    progress=None,
) -> RenderResult:
    """Everything `render --preset NAME` does: apply the preset, check sizes and
    (with strict) texts before writing, then write the preset's file set."""
    chosen = preset(name)
    options = apply_preset(chosen, options)
    result = RenderResult()
    layouts = _layouts(catalog, options, kinds)
    if kinds is None:
        result.skipped = [kind for kind in catalog.components if kind not in layouts]
    problems = size_problems(layouts, chosen)
    if problems:
        raise PresetError("\n".join(problems))
    for layout in layouts.values():
        result.warnings.extend(layout.safe_zone_warnings())
    if options.strict:
        root = catalog.path.parent if catalog.path else Path.cwd()
        assets = AssetPolicy(root, options.allow_outside_assets)
        found: list[str] = []
        for kind, layout in layouts.items():
            for _ in _copies(catalog, kind, layout, options, assets, found):
                pass
        if found:
            raise TextDoesNotFit(found)
    result.files = write_preset_files(
        catalog, options, chosen, layouts=layouts, warnings=result.warnings, progress=progress
    )
    parts = parts_of(catalog)
    if kinds is None and parts:
        path = options.output_dir / chosen.name / PARTS_FILE  # beside the service's files
        write_atomic(path, parts_csv(parts))
        result.files.append(path)
    return result

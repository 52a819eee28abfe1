"""A tuck box as print files: what the catalog's `boxes` (and render --tuck-box)
ask for, and the die-line page of each, its front and back drawn from a layout."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from protopress.components.catalog import Component
from protopress.components.explain import Located
from protopress.components.loader import locate_in_file
from protopress.components.problems import InvalidInput, Problem
from protopress.generators.colours import BLACK, Colour
from protopress.generators.face import Face
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.imposition import PRINTABLE_INSET, Rect
from protopress.generators.layout import Layout, catalog_layout, layouts_for
from protopress.generators.pdf_surface import PdfFaces
from protopress.generators.text import wrap
from protopress.generators.tuckbox import DEFAULT_CLEARANCE, Deck, DieLine, Piece, die_line
from protopress.generators.units import MM, PAPER, parse_length, to_mm

BOX_KIND = "tuck-box"  # the kind a box layout draws; its fields are the box's
PAGE_MARGIN = PRINTABLE_INSET + 3 * MM  # paper edge to the die and the text
TEXT_SIZE = 7.5  # points
CUT_WIDTH = 0.6  # points
FOLD_DASH = (3, 2)  # points: fold lines are dashed, cut lines solid
GLUE_COLOUR = Colour(0.55, 0.55, 0.55)


@dataclass(frozen=True)
class BoxSpec:
    """One tuck box to print."""

    id: str
    holds: tuple[str, ...]
    title: str
    deck: Deck
    layout: Layout | None  # draws the front and back panels; None: the title
    colour: Colour
    text_colour: Colour
    fields: Mapping  # what a box layout binds: the box's entry and cards, card_width, ...


def box_specs(catalog, options, include_catalog: bool = True) -> list[BoxSpec]:
    """The boxes of the catalog's `boxes` (unless include_catalog is False), and
    one per `--tuck-box` kind: the catalog's box that holds that kind alone, else
    a plain one. A held kind without a layout has no card size: a problem at its
    place in the catalog."""
    boxes = catalog.document.get("boxes", ())
    entries = [(f"/boxes/{i}", dict(box)) for i, box in enumerate(boxes)]
    alone = {tuple(box["holds"]): (pointer, box) for pointer, box in reversed(entries)}
    ids = {box["id"] for _, box in entries}
    if not include_catalog:
        entries = []
    for kind in options.tuck_boxes:
        if (kind,) in alone:  # the catalog's own box for the kind
            if alone[(kind,)] not in entries:
                entries.append(alone[(kind,)])
            continue
        entries.append(("", {"id": kind if kind not in ids else f"{kind}-box", "holds": [kind]}))
    return [_spec(catalog, options, pointer, entry) for pointer, entry in entries]


def _spec(catalog, options, pointer: str, entry: dict) -> BoxSpec:
    holds = tuple(entry["holds"])
    layouts = layouts_for(holds, options.layouts_dir, catalog)
    missing = [index for index, kind in enumerate(holds) if kind not in layouts]
    if missing:
        kind = holds[missing[0]]
        at = f"{pointer}/holds/{missing[0]}" if pointer else ""
        raise _problem(catalog, at, f"{kind!r} has no layout, so no card size for a tuck box")
    cards = entry.get("cards") or sum(catalog.copies(kind) for kind in holds)
    thickness = parse_length(entry["card_thickness"]) if "card_thickness" in entry else None
    clearance = parse_length(entry.get("clearance", f"{to_mm(DEFAULT_CLEARANCE)}mm"))
    deck = Deck(
        card_width=max(layouts[kind].width for kind in holds),
        card_height=max(layouts[kind].height for kind in holds),
        cards=cards,
        thickness=thickness or options.card_thickness,
        clearance=clearance,
    )
    layout = None
    if "layout" in entry:
        die = die_line(deck)
        written = catalog_layout(catalog, entry["layout"], f"{pointer}/layout")
        layout = replace(written, width=die.width, height=die.height, sized=True)
    fields = {
        **entry.get("fields", {}),
        **{key: value for key, value in entry.items() if key != "fields"},
        "title": entry.get("title", catalog.title),
        "cards": cards,
        "card_width": round(to_mm(deck.card_width), 2),
        "card_height": round(to_mm(deck.card_height), 2),
    }
    return BoxSpec(
        id=entry["id"],
        holds=holds,
        title=fields["title"],
        deck=deck,
        layout=layout,
        colour=Colour.parse(entry.get("colour", "#ffffff")),
        text_colour=Colour.parse(entry.get("text_colour", "#000000")),
        fields=MappingProxyType(fields),
    )


def _problem(catalog, pointer: str, message: str) -> InvalidInput:
    if not pointer:  # asked for on the command line, not in the catalog
        return InvalidInput([Problem(str(catalog.path), 1, 1, "", message)])
    try:
        return InvalidInput(
            locate_in_file(str(catalog.path), catalog.path, [Located(pointer, message)])
        )
    except (OSError, ValueError):
        return InvalidInput([Problem(str(catalog.path), 1, 1, pointer, message)])


@dataclass(frozen=True)
class BoxPage:
    """Where the die goes: the page size and the die's top-left corner on it."""

    size: tuple[float, float]
    origin: tuple[float, float]
    fits_paper: bool


def place_die(die: DieLine, paper: tuple[float, float], text_height: float) -> BoxPage:
    """Portrait when the die fits, else landscape, else a page of the die's own size."""
    extent = die.extent
    portrait = (min(paper), max(paper))
    for width, height in (portrait, portrait[::-1]):
        room_w, room_h = width - 2 * PAGE_MARGIN, height - 2 * PAGE_MARGIN - text_height
        if extent.width <= room_w and extent.height <= room_h:
            x = (width - extent.width) / 2
            y = PAGE_MARGIN + text_height + (room_h - extent.height) / 2
            return BoxPage((width, height), (x, y), True)
    size = (extent.width + 2 * PAGE_MARGIN, extent.height + 2 * PAGE_MARGIN + text_height)
    return BoxPage(size, (PAGE_MARGIN, PAGE_MARGIN + text_height), False)


def describe(spec: BoxSpec, die: DieLine) -> str:
    deck = spec.deck
    return (
        f"{spec.title}: tuck box {spec.id} for {deck.cards} cards ({', '.join(spec.holds)}, "
        f"{to_mm(deck.card_width):g} x {to_mm(deck.card_height):g} mm). Inside "
        f"{to_mm(die.width):g} x {to_mm(die.height):g} x {to_mm(die.depth):.3g} mm "
        f"(card plus {to_mm(deck.clearance):g} mm; {deck.cards} x "
        f"{to_mm(deck.thickness):g} mm deep). Print at 100% scale. Cut the solid lines, "
        "fold the dashed ones, glue the flap marked GLUE inside the first side."
    )


def draw_box_page(faces: PdfFaces, spec: BoxSpec, catalog, paper_name: str, assets):
    """Draw the die-line page on faces' canvas (the page is left open); return
    the warnings: a die larger than the paper, text that does not fit."""
    canvas = faces.canvas
    die = die_line(spec.deck)
    base = font(DEFAULT_FONT)
    text_width = min(PAPER[paper_name]) - 2 * PAGE_MARGIN
    lines, _ = wrap(describe(spec, die), base, TEXT_SIZE, text_width)
    leading = TEXT_SIZE * 1.3
    page = place_die(die, PAPER[paper_name], len(lines) * leading + 3 * MM)
    width, height = page.size
    canvas.setPageSize(page.size)
    warnings = []
    if not page.fits_paper:
        warnings.append(
            f"tuck box {spec.id}: its die-line ({to_mm(die.extent.width):.0f} x "
            f"{to_mm(die.extent.height):.0f} mm) does not fit {paper_name} paper even "
            f"turned: written on a page of its own size; print it on larger paper"
        )
    canvas.saveState()
    faces.set_fill(BLACK)
    canvas.setFont(base.name, TEXT_SIZE)
    left = (width - text_width) / 2
    for number, line in enumerate(lines):
        canvas.drawString(left, height - PAGE_MARGIN - base.ascent(TEXT_SIZE) - number * leading,
                          line)  # fmt: skip
    ox, oy = page.origin
    for panel in die.panels:
        faces.set_fill(spec.colour)
        _polygon(canvas, [(ox + x, oy + y) for x, y in panel.points], height, fill=True)
    faces_drawn = _panel_faces(spec, catalog, assets)
    for piece, face in faces_drawn.items():
        warnings.extend(face.warnings)
        box = die.panel(piece).box
        clip = Rect(ox + box.x, oy + box.y, box.width, box.height)
        faces.place(face, clip.x, clip.y, height, clip=clip)
    _titles(faces, spec, die, (ox, oy), height, set(faces_drawn))
    faces.set_stroke(BLACK)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.setDash([])
    for cut in die.cuts:
        canvas.line(ox + cut.x1, height - oy - cut.y1, ox + cut.x2, height - oy - cut.y2)
    canvas.setDash(list(FOLD_DASH))
    for fold in die.folds:
        canvas.line(ox + fold.x1, height - oy - fold.y1, ox + fold.x2, height - oy - fold.y2)
    canvas.restoreState()
    return warnings


def _panel_faces(spec: BoxSpec, catalog, assets) -> dict[Piece, Face]:
    """The front and back panels' faces, from the box's layout (bleed 0)."""
    if spec.layout is None:
        return {}
    builder = FaceBuilder(spec.layout, catalog, 0.0, assets)
    component = Component(BOX_KIND, spec.id, 1, spec.fields)
    drawn = {Piece.FRONT: builder.build(component, "front")}
    if spec.layout.back is not None:
        drawn[Piece.BACK] = builder.build(component, "back")
    return drawn


def _titles(faces: PdfFaces, spec: BoxSpec, die: DieLine, origin, height, drawn) -> None:
    """The title where no layout draws: front and back, the sides (turned), the
    lid; and GLUE on the glue flap."""
    canvas, base = faces.canvas, font("sans-bold")
    ox, oy = origin
    for panel in die.panels:
        box = panel.box
        x, y, w, h = ox + box.x, oy + box.y, box.width, box.height
        text, colour, turned = None, spec.text_colour, False
        if panel.piece in (Piece.FRONT, Piece.BACK) and panel.piece not in drawn:
            text = spec.title
        elif panel.piece in (Piece.SIDE, Piece.LID):
            text, turned = spec.title, panel.piece is Piece.SIDE
        elif panel.piece is Piece.GLUE:
            text, colour, turned = "GLUE", GLUE_COLOUR, True
        if not text:
            continue
        along, across = (h, w) if turned else (w, h)
        size = min(across * 0.5, 0.85 * along / max(base.width(text, 1), 1e-6), 24)
        if size < 3:
            continue
        canvas.saveState()
        faces.set_fill(colour)
        canvas.setFont(base.name, size)
        canvas.translate(x + w / 2, height - y - h / 2)
        if turned:
            canvas.rotate(90)
        canvas.drawCentredString(0, -size * 0.35, text)
        canvas.restoreState()


def _polygon(canvas, points, height, fill: bool) -> None:
    path = canvas.beginPath()
    (x, y), *rest = points
    path.moveTo(x, height - y)
    for x, y in rest:
        path.lineTo(x, height - y)
    path.close()
    canvas.drawPath(path, stroke=0, fill=int(fill))

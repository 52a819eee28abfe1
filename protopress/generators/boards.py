"""Drawing a tiled board (see tiling.py): a page map, then one page per tile
with its part of the board, alignment crosses, ticks, labels and crop marks."""

from __future__ import annotations

from protopress.generators.colours import BLACK, WHITE, Colour
from protopress.generators.face import Face
from protopress.generators.fonts import DEFAULT_FONT, font
from protopress.generators.imposition import PRINTABLE_INSET, Rect
from protopress.generators.pdf_surface import PdfFaces
from protopress.generators.text import wrap
from protopress.generators.tiling import CROSS_ARM, Tile, TilePlan, column_letters
from protopress.generators.units import MM, to_mm

LABEL_SIZE = 7  # points
TITLE_SIZE = 10
TEXT_SIZE = 8
MARK_WIDTH = 0.25  # points
CROSS_RADIUS = 2 * MM
GRID_COLOUR = Colour(0.1, 0.35, 0.8)
TILE_MARGIN_TEXT = 14 * MM  # the "joins" label above the window, from the right edge


def instructions(plan: TilePlan, paper_name: str) -> str:
    """How to put the pages together, in plain words."""
    orientation = "landscape" if plan.landscape else "portrait"
    return (
        f"{plan.columns * plan.rows} {paper_name} pages ({orientation}): {plan.columns} "
        f"column{'s' * (plan.columns != 1)} A to {column_letters(plan.columns - 1)}, "
        f"{plan.rows} row{'s' * (plan.rows != 1)} 1 to {plan.rows}; neighbouring pages "
        f"overlap by {to_mm(plan.overlap):g} mm. Print at 100% scale (actual size). "
        "Trim each page along the edge of its picture where it has a neighbour on the "
        "left or above; lay it over that neighbour so that the crosses meet and its edge "
        "sits on the inner tick; glue or tape. Then cut the whole board on its crop marks."
    )


def draw_map_page(faces: PdfFaces, plan: TilePlan, face: Face, title: str, paper_name: str):
    """A small picture of the whole board with the tile grid and each tile's label."""
    canvas, (width, height) = faces.canvas, plan.paper
    canvas.setPageSize(plan.paper)
    base = font(DEFAULT_FONT)
    left, top = PRINTABLE_INSET + 5 * MM, PRINTABLE_INSET + 5 * MM
    text_width = width - 2 * left
    canvas.saveState()
    faces.set_fill(BLACK)
    canvas.setFont(base.name, TITLE_SIZE)
    y = top + base.ascent(TITLE_SIZE)
    canvas.drawString(left, height - y, title)
    lines, _ = wrap(instructions(plan, paper_name), base, TEXT_SIZE, text_width)
    canvas.setFont(base.name, TEXT_SIZE)
    for line in lines:
        y += TEXT_SIZE * 1.3
        canvas.drawString(left, height - y, line)
    box = Rect(left, y + 6 * MM, text_width, height - top - y - 6 * MM)
    scale = min(box.width / plan.board_width, box.height / plan.board_height)
    x0 = box.x + (box.width - plan.board_width * scale) / 2
    y0 = box.y
    canvas.translate(x0, height - y0 - plan.board_height * scale)
    canvas.scale(scale, scale)
    canvas.doForm(faces.form(face))
    canvas.restoreState()
    canvas.saveState()
    faces.set_stroke(GRID_COLOUR)
    canvas.setLineWidth(0.8)
    for tile in plan.tiles:
        r = tile.region
        canvas.rect(x0 + r.x * scale, height - y0 - r.bottom * scale,
                    r.width * scale, r.height * scale, stroke=1, fill=0)  # fmt: skip
    canvas.setFont(base.name, TITLE_SIZE)
    for tile in plan.tiles:
        r = tile.region
        cx, cy = x0 + (r.x + r.width / 2) * scale, y0 + (r.y + r.height / 2) * scale
        label_width = base.width(tile.label, TITLE_SIZE)
        faces.set_fill(WHITE)
        canvas.roundRect(cx - label_width / 2 - 2, height - cy - TITLE_SIZE / 2 - 2,
                         label_width + 4, TITLE_SIZE + 3, 2, stroke=1, fill=1)  # fmt: skip
        faces.set_fill(GRID_COLOUR)
        canvas.drawCentredString(cx, height - cy - TITLE_SIZE / 2 + 1.5, tile.label)
    canvas.restoreState()


def draw_tile_page(faces: PdfFaces, plan: TilePlan, tile: Tile, face: Face, title: str) -> None:
    """One tile: its part of the board inside the window, the crosses over it,
    then the ticks, crop marks and labels in the margin."""
    canvas, height = faces.canvas, plan.paper[1]
    canvas.setPageSize(plan.paper)
    window = plan.window
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(window.x, height - window.bottom, window.width, window.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    x, y = plan.to_page(tile, 0.0, 0.0)
    canvas.translate(x, height - y - face.height)
    canvas.doForm(faces.form(face))
    canvas.restoreState()
    canvas.saveState()
    canvas.clipPath(clip, stroke=0, fill=0)
    for bx, by in plan.crosses():
        px, py = plan.to_page(tile, bx, by)
        for colour, line_width in ((WHITE, 1.2), (BLACK, 0.3)):  # seen on dark and light art
            faces.set_stroke(colour)
            canvas.setLineWidth(line_width)
            canvas.circle(px, height - py, CROSS_RADIUS, stroke=1, fill=0)
            canvas.line(px - CROSS_ARM, height - py, px + CROSS_ARM, height - py)
            canvas.line(px, height - py - CROSS_ARM, px, height - py + CROSS_ARM)
    canvas.restoreState()
    canvas.saveState()
    faces.set_stroke(BLACK)
    canvas.setLineWidth(MARK_WIDTH)
    for line in (*plan.ticks(tile), *plan.crop_marks(tile)):
        canvas.line(line.x1, height - line.y1, line.x2, height - line.y2)
    _labels(faces, plan, tile, title)
    canvas.restoreState()


def _labels(faces: PdfFaces, plan: TilePlan, tile: Tile, title: str) -> None:
    """The page's own label above the window; each neighbour's label on its side."""
    canvas, (width, height) = faces.canvas, plan.paper
    base = font(DEFAULT_FONT)
    ascent, descent = base.ascent(LABEL_SIZE), base.descent(LABEL_SIZE)
    edge = PRINTABLE_INSET + 0.5 * MM  # no glyph nearer the paper edge than this
    faces.set_fill(BLACK)
    canvas.setFont(base.name, LABEL_SIZE)
    own = f"{tile.label}   {title}: column {column_letters(tile.column)}, row {tile.row + 1}"
    canvas.drawCentredString(width / 2, height - edge - ascent, own)
    near = plan.neighbours(tile)
    drawn = plan.drawn(tile)
    if "bottom" in near:
        canvas.drawCentredString(width / 2, edge + descent, f"joins {near['bottom'].label}")
    middle = height - (drawn.y + drawn.height / 2)
    if "left" in near:
        canvas.saveState()
        canvas.translate(edge + ascent, middle)
        canvas.rotate(90)
        canvas.drawCentredString(0, 0, f"joins {near['left'].label}")
        canvas.restoreState()
    if "right" in near:
        canvas.saveState()
        canvas.translate(width - edge - ascent, middle)
        canvas.rotate(-90)
        canvas.drawCentredString(0, 0, f"joins {near['right'].label}")
        canvas.restoreState()
    if "top" in near:  # beside the page's own label, on the right
        canvas.drawRightString(width - TILE_MARGIN_TEXT, height - edge - ascent,
                               f"joins {near['top'].label}")  # fmt: skip

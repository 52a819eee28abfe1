"""Sheet imposition: where faces go on print-and-play sheets and per-card pages.

Pure geometry, in points. Page coordinates have their origin at the TOP-LEFT
corner of the page and y grows DOWNWARD; surfaces convert at the last step.
The one exception is :func:`per_card_boxes`, whose boxes go straight into a
PDF page dictionary and so are in PDF user space (origin bottom-left, y up).

How a sheet is filled (:func:`plan_sheet`):

* The grid's TRIM extent (what is kept after cutting) must lie inside the
  margins. The outer bleed and the crop marks may use the margin but must stay
  out of the edge band (below): bleed is cut away anyway. This is what lets nine 63 x 88 mm
  cards with 3 mm bleed share an A4 sheet with 10 mm margins.
* Neighbouring slots are spaced one of two ways. "gutter": their bleed boxes
  are ``gutter`` apart, so every face keeps its whole bleed and its own cuts.
  "butt": their trim boxes touch and neighbours share one cut; bleed boxes then
  overlap, and each face's bleed is clipped at the shared cut (``Slot.clip``).
  ``SheetSpec.spacing="auto"`` uses gutter spacing unless butting fits
  strictly more per page.
* The face is tried upright and turned 90 degrees; turned is used only when
  it fits strictly more per page (ties keep upright).
* The grid is centred on the page.
* Home printers leave about 5 mm unprinted at every edge, so no ink (bleed,
  crop marks, ruler) comes nearer the paper edge than ``SheetSpec.inset``.
  Crop marks on a side with less room are shortened (down to a 0.5 mm offset
  and 1.5 mm length); when even that does not fit, the grid gets smaller.
* Every sheet carries a 50 mm scale ruler: below or above the grid, clear of
  the crop marks or between them. A grid with no room for it loses a row or
  column; only when no grid at all leaves room is the ruler dropped.
* Crop marks are drawn only beside filled slots (:meth:`SheetPlan.crop_marks`),
  and on a part-filled page a butted slot keeps its bleed where its neighbour
  is empty (:meth:`SheetPlan.filled`), since that cut is made there too.
"""

# Over 600 lines on purpose: the sheet grid, crop marks, ruler and duplex backs depend
# on each other's margins (marks stay 5 mm inside the paper), so they are laid out together.

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from protopress.generators.units import MM, to_mm

DUPLEX_MODES = ("long", "short", "none")
SPACINGS = ("auto", "gutter", "butt")
PRINTABLE_INSET = 5 * MM  # what home printers leave unprinted at each edge
MIN_CROP_OFFSET = 0.5 * MM  # crop marks shorten to this offset and length at the least
MIN_CROP_LENGTH = 1.5 * MM
RULER_LENGTH = 50 * MM
RULER_TICKS = 1.8 * MM  # the tallest tick, above the ruler's bar line
RULER_LABEL_BASELINE = 4.0 * MM  # the label under the bar: its baseline from the ruler's top
RULER_HEIGHT = 4.6 * MM  # ticks, bar and label with its descenders
RULER_GAP = 1 * MM  # between the ruler and any crop mark or the grid
TARGET_REACH = 20 * MM  # half the crosshair of an alignment target
_EPS = 1e-6  # points: absorbs float noise when testing whether something fits


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle; (x, y) is its top-left corner."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class Line:
    """A straight line from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Outline:
    """A closed cut path: a rectangle with rounded corners (a circle when the radius
    is half its side), or a polygon through points."""

    rect: Rect
    radius: float = 0.0
    points: tuple[tuple[float, float], ...] = ()


def _outline(trim: Rect, shape: str, radius: float) -> Outline:
    if shape == "circle":
        return Outline(trim, min(trim.width, trim.height) / 2)
    if shape != "hex":
        return Outline(trim, min(radius, trim.width / 2, trim.height / 2))
    x, y, w, h = trim.x, trim.y, trim.width, trim.height
    if h >= w:  # pointy-top (a rotated slot turns it pointy-sideways)
        points = ((x + w / 2, y), (x + w, y + h / 4), (x + w, y + 3 * h / 4),
                  (x + w / 2, y + h), (x, y + 3 * h / 4), (x, y + h / 4))  # fmt: skip
    else:
        points = ((x, y + h / 2), (x + w / 4, y), (x + 3 * w / 4, y),
                  (x + w, y + h / 2), (x + 3 * w / 4, y + h), (x + w / 4, y + h))  # fmt: skip
    return Outline(trim, 0.0, points)


@dataclass(frozen=True)
class SheetSpec:
    """How a sheet is laid out. All lengths in points; paper is (width, height)."""

    paper: tuple[float, float]
    margin: float = 10 * MM  # keep-out for the trim at every edge; bleed, marks, ruler may use it
    inset: float = PRINTABLE_INSET  # no ink at all nearer the paper edge than this
    gutter: float = 2 * MM  # between neighbouring bleed boxes (gutter spacing)
    crop_marks: bool = True
    crop_length: float = 4 * MM
    crop_offset: float = 1 * MM  # from the grid's outer bleed edge to the start of a mark
    duplex: str = "long"  # "long", "short" or "none"
    back_offset: tuple[float, float] = (0.0, 0.0)  # shift of back pages (x right, y down)
    spacing: str = "auto"  # "auto", "gutter" or "butt" (see the module docstring)

    def __post_init__(self) -> None:
        width, height = self.paper
        if not (width > 0 and height > 0):
            raise ValueError(f"paper size must be positive, got {_mm(width)} x {_mm(height)} mm")
        for name in ("margin", "inset", "gutter", "crop_length", "crop_offset"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must not be negative, got {_mm(getattr(self, name))} mm")
        if 2 * max(self.margin, self.inset) >= min(width, height):
            raise ValueError(
                f"margins of {_mm(max(self.margin, self.inset))} mm leave no printable area on "
                f"{_mm(width)} x {_mm(height)} mm paper"
            )
        if self.duplex not in DUPLEX_MODES:
            raise ValueError(f"unknown duplex {self.duplex!r}; expected one of {DUPLEX_MODES}")
        if self.spacing not in SPACINGS:
            raise ValueError(f"unknown spacing {self.spacing!r}; expected one of {SPACINGS}")

    @property
    def mark_reach(self) -> float:
        """How far crop marks reach beyond the grid's outer bleed edge (0 without marks)."""
        return self.crop_offset + self.crop_length if self.crop_marks else 0.0

    @property
    def min_mark_reach(self) -> float:
        """The least reach crop marks may be shortened to (0 without marks)."""
        if not self.crop_marks:
            return 0.0
        return min(self.crop_offset, MIN_CROP_OFFSET) + min(self.crop_length, MIN_CROP_LENGTH)

    def marks_within(self, room: float) -> Marks | None:
        """The crop marks' offset and length where room is left between the grid's
        bleed edge and the inset: as asked, else shorter, else None (no fit)."""
        if not self.crop_marks:
            return Marks(0.0, 0.0)
        if self.mark_reach <= room + _EPS:
            return Marks(self.crop_offset, self.crop_length)
        if room + _EPS < self.min_mark_reach:
            return None
        length = max(min(self.crop_length, MIN_CROP_LENGTH), room - self.crop_offset)
        return Marks(min(self.crop_offset, room - length), length)


@dataclass(frozen=True)
class Marks:
    """How far crop marks start beyond the grid's bleed edge, and their length."""

    offset: float
    length: float

    @property
    def reach(self) -> float:
        return self.offset + self.length


@dataclass(frozen=True)
class Sides:
    """The crop marks of each side of the grid, shortened where the paper edge is near."""

    top: Marks
    right: Marks
    bottom: Marks
    left: Marks


@dataclass(frozen=True)
class Slot:
    """One face on a sheet. (x, y, width, height) is its BLEED box as placed
    (width and height swapped when rotated); rotated means the face is turned
    90 degrees clockwise. ``clip`` is where the face may paint: its bleed box,
    cut back to the shared trim line wherever it butts a neighbour."""

    x: float
    y: float
    width: float
    height: float
    rotated: bool
    column: int
    row: int
    clip: Rect

    def trim(self, bleed: float) -> Rect:
        """The trim box on the page."""
        return Rect(self.x + bleed, self.y + bleed, self.width - 2 * bleed, self.height - 2 * bleed)

    @property
    def bleed_box(self) -> Rect:
        return Rect(self.x, self.y, self.width, self.height)


@dataclass(frozen=True)
class SheetPlan:
    """The layout of one sheet: front slots in reading order, and what goes around them."""

    spec: SheetSpec
    trim_width: float  # the component's own trim size (unrotated)
    trim_height: float
    bleed: float
    rotated: bool
    columns: int
    rows: int
    fronts: tuple[Slot, ...]
    butted: bool = False  # True: neighbours share cuts (butt spacing)
    sides: Sides = Sides(*(Marks(0.0, 0.0),) * 4)  # the crop marks at each outer edge
    ruler_box: Rect | None = None  # where the scale ruler goes (None: no room anywhere)
    cut_shape: str = "rectangle"  # what each trim's cut follows: rectangle, hex or circle
    cut_radius: float = 0.0  # corner radius of a rectangle's cut

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def bleed_area(self) -> Rect:
        """The grid's outer bleed edge."""
        first, last = self.fronts[0], self.fronts[-1]
        return Rect(first.x, first.y, last.x + last.width - first.x, last.y + last.height - first.y)

    @property
    def trim_area(self) -> Rect:
        """The grid's outer trim edge."""
        area, b = self.bleed_area, self.bleed
        return Rect(area.x + b, area.y + b, area.width - 2 * b, area.height - 2 * b)

    def mirror(self, slot: Slot) -> Slot:
        """Where a face's back lands on the back page (without back_offset).
        Mirroring twice gives the slot back."""
        spec = self.spec
        column, row = slot.column, slot.row
        if flips_x(spec):
            column = self.columns - 1 - column
        elif _flips_y(spec):
            row = self.rows - 1 - row
        box = _mirror_rect(slot.bleed_box, spec)
        return replace(
            slot, x=box.x, y=box.y, column=column, row=row, clip=_mirror_rect(slot.clip, spec)
        )

    def filled(self, count: int | None = None) -> tuple[Slot, ...]:
        """The first count front slots (all by default) as placed on a page with
        only those filled: where a butted slot's right or lower neighbour is
        empty, its clip reaches its own bleed edge there, so that cut keeps
        its bleed too."""
        count = len(self.fronts) if count is None else max(count, 0)
        slots = self.fronts[:count]
        if not self.butted or count == len(self.fronts):
            return slots
        widened = []
        for index, slot in enumerate(slots):
            clip = slot.clip
            if slot.column < self.columns - 1 and index + 1 >= count:  # nothing to the right
                clip = replace(clip, width=slot.x + slot.width - clip.x)
            if slot.row < self.rows - 1 and index + self.columns >= count:  # nothing below
                clip = replace(clip, height=slot.y + slot.height - clip.y)
            widened.append(replace(slot, clip=clip))
        return tuple(widened)

    def backs(self, count: int | None = None) -> tuple[Slot, ...]:
        """The back slot of each filled front slot (same index; see :meth:`filled`):
        mirrored for the duplex mode, then shifted by back_offset. Rotated faces
        stay rotated."""
        dx, dy = self.spec.back_offset
        backs = []
        for slot in self.filled(count):
            back = self.mirror(slot)
            clip = _shift_rect(back.clip, dx, dy)
            backs.append(replace(back, x=back.x + dx, y=back.y + dy, clip=clip))
        return tuple(backs)

    def trim_xs(self) -> tuple[float, ...]:
        """Distinct x of the grid's vertical trim lines, left to right."""
        edges = []
        for slot in self.fronts[: self.columns]:
            box = slot.trim(self.bleed)
            edges += [box.x, box.right]
        return _distinct(edges)

    def trim_ys(self) -> tuple[float, ...]:
        """Distinct y of the grid's horizontal trim lines, top to bottom."""
        edges = []
        for slot in self.fronts[:: self.columns]:
            box = slot.trim(self.bleed)
            edges += [box.y, box.bottom]
        return _distinct(edges)

    def crop_marks(self, filled: int | None = None) -> tuple[Line, ...]:
        """Short marks on every trim line, beside the filled slots only (the
        first ``filled`` in reading order; all by default), each drawn from the
        grid outward: for each x a mark above then below, then for each y a
        mark left then right. Marks at the grid's outer edge use that side's
        (maybe shortened) length; marks beside an empty slot inside the grid
        use the full length. Empty when crop marks are off."""
        if not self.spec.crop_marks:
            return ()
        slots = self.fronts[: len(self.fronts) if filled is None else max(filled, 0)]
        if not slots:
            return ()
        area, full = self.bleed_area, Marks(self.spec.crop_offset, self.spec.crop_length)
        trims = [(slot, slot.trim(self.bleed)) for slot in slots]
        marks = []
        for x in self.trim_xs():
            touching = [slot for slot, box in trims if _near(box.x, x) or _near(box.right, x)]
            if not touching:
                continue
            top = min(slot.y for slot in touching)
            bottom = max(slot.y + slot.height for slot in touching)
            up = self.sides.top if _near(top, area.y) else full
            down = self.sides.bottom if _near(bottom, area.bottom) else full
            marks.append(Line(x, top - up.offset, x, top - up.reach))
            marks.append(Line(x, bottom + down.offset, x, bottom + down.reach))
        for y in self.trim_ys():
            touching = [slot for slot, box in trims if _near(box.y, y) or _near(box.bottom, y)]
            if not touching:
                continue
            left = min(slot.x for slot in touching)
            right = max(slot.x + slot.width for slot in touching)
            out_left = self.sides.left if _near(left, area.x) else full
            out_right = self.sides.right if _near(right, area.right) else full
            marks.append(Line(left - out_left.offset, y, left - out_left.reach, y))
            marks.append(Line(right + out_right.offset, y, right + out_right.reach, y))
        return tuple(marks)

    def cut_lines(self) -> tuple[Line, ...]:
        """Every trim line across the whole grid, bleed edge to bleed edge
        (for optional dashed cut guides): verticals, then horizontals."""
        area = self.bleed_area
        verticals = [Line(x, area.y, x, area.bottom) for x in self.trim_xs()]
        horizontals = [Line(area.x, y, area.right, y) for y in self.trim_ys()]
        return tuple(verticals + horizontals)

    def cut_outlines(self, filled: int | None = None) -> tuple[Outline, ...] | None:
        """One closed cut path per filled slot when the cut is not straight (rounded
        corners, a hex, a circle); None when straight cut_lines() do."""
        if self.cut_shape == "rectangle" and self.cut_radius <= 0:
            return None
        return tuple(
            _outline(slot.trim(self.bleed), self.cut_shape, self.cut_radius)
            for slot in self.filled(filled)
        )

    def ruler(self) -> Rect | None:
        """Where the 50 mm scale ruler goes (see :func:`place_ruler`); None when
        no grid left room for it."""
        return self.ruler_box


def plan_sheet(trim_width: float, trim_height: float, bleed: float, spec: SheetSpec) -> SheetPlan:
    """Lay out as many faces as fit on one sheet (see the module docstring).

    A component that fits only without crop marks (its bleed reaches within
    reach of the edge band) gets a plan without them: its ``spec.crop_marks``
    is then False."""
    _check_component(trim_width, trim_height, bleed)
    plan = _best_plan(trim_width, trim_height, bleed, spec)
    if plan is None and spec.crop_marks:
        plan = _best_plan(trim_width, trim_height, bleed, replace(spec, crop_marks=False))
    if plan is not None:
        return plan
    limit_w, limit_h = _limits(bleed, spec)
    room = " and room for bleed and crop marks" if _outer(bleed, spec) > spec.margin else ""
    raise ValueError(
        f"a {_mm(trim_width)} x {_mm(trim_height)} mm component does not fit on the sheet, "
        f"even turned 90 degrees: its trim must fit in {_mm(limit_w)} x {_mm(limit_h)} mm "
        f"(the paper less its margins{room})"
    )


def fits_sheet(trim_width: float, trim_height: float, bleed: float, spec: SheetSpec) -> bool:
    """Whether plan_sheet can put at least one such component on a sheet (with
    crop marks or without); a larger one is tiled (see tiling.py)."""
    _check_component(trim_width, trim_height, bleed)
    if _best_plan(trim_width, trim_height, bleed, spec) is not None:
        return True
    return (
        spec.crop_marks
        and _best_plan(trim_width, trim_height, bleed, replace(spec, crop_marks=False)) is not None
    )


def _outer(bleed: float, spec: SheetSpec) -> float:
    """From the paper edge to the trim at the least: the edge band, marks, bleed."""
    return spec.inset + bleed + spec.min_mark_reach


def _limits(bleed: float, spec: SheetSpec) -> tuple[float, float]:
    """The largest trim grid (width, height) the margins and the edge band allow."""
    paper_w, paper_h = spec.paper
    outer = _outer(bleed, spec)
    return (
        min(paper_w - 2 * spec.margin, paper_w - 2 * outer),
        min(paper_h - 2 * spec.margin, paper_h - 2 * outer),
    )


def _best_plan(
    trim_width: float, trim_height: float, bleed: float, spec: SheetSpec
) -> SheetPlan | None:
    """The grid with most faces per page and a ruler; else the best without one."""
    limit_w, limit_h = _limits(bleed, spec)
    spacings = {"auto": (False, True), "gutter": (False,), "butt": (True,)}[spec.spacing]
    for need_ruler in (True, False):
        best: SheetPlan | None = None
        for rotated in (False, True):  # earlier candidates win ties
            w, h = (trim_height, trim_width) if rotated else (trim_width, trim_height)
            for butted in spacings:
                gap = 0.0 if butted else 2 * bleed + spec.gutter
                for columns in range(_fit(limit_w, w, gap), 0, -1):
                    for rows in range(_fit(limit_h, h, gap), 0, -1):
                        if best is not None and columns * rows <= best.per_page:
                            break
                        plan = _arrange(
                            (trim_width, trim_height), bleed, spec, rotated, butted, columns, rows
                        )
                        if plan is not None and (plan.ruler_box is not None or not need_ruler):
                            best = plan
                            break
        if best is not None:
            return best
    return None


def _arrange(
    trim: tuple[float, float],
    bleed: float,
    spec: SheetSpec,
    rotated: bool,
    butted: bool,
    columns: int,
    rows: int,
) -> SheetPlan | None:
    """A centred grid of columns x rows, its crop marks fitted to the paper and
    its ruler placed; None when the marks cannot keep clear of the paper edge."""
    paper_w, paper_h = spec.paper
    w, h = (trim[1], trim[0]) if rotated else trim
    gap = 0.0 if butted else 2 * bleed + spec.gutter
    left = (paper_w - (columns * w + (columns - 1) * gap)) / 2
    top = (paper_h - (rows * h + (rows - 1) * gap)) / 2
    grid_w, grid_h = columns * w + (columns - 1) * gap, rows * h + (rows - 1) * gap
    rooms = (top, paper_w - left - grid_w, paper_h - top - grid_h, left)  # paper edge to trim
    fitted = [
        marks
        for room in rooms
        if (marks := spec.marks_within(room - bleed - spec.inset)) is not None
    ]
    if len(fitted) < len(rooms):
        return None
    slots = []
    for row in range(rows):
        for column in range(columns):
            tx, ty = left + column * (w + gap), top + row * (h + gap)
            box = Rect(tx - bleed, ty - bleed, w + 2 * bleed, h + 2 * bleed)
            clip = box
            if butted:  # stop at shared cuts; outer edges keep their bleed
                x0 = tx if column > 0 else box.x
                x1 = tx + w if column < columns - 1 else box.right
                y0 = ty if row > 0 else box.y
                y1 = ty + h if row < rows - 1 else box.bottom
                clip = Rect(x0, y0, x1 - x0, y1 - y0)
            slots.append(Slot(box.x, box.y, box.width, box.height, rotated, column, row, clip))
    plan = SheetPlan(
        spec=spec,
        trim_width=trim[0],
        trim_height=trim[1],
        bleed=bleed,
        rotated=rotated,
        columns=columns,
        rows=rows,
        fronts=tuple(slots),
        butted=butted,
        sides=Sides(*fitted),
    )
    return replace(plan, ruler_box=place_ruler(plan))


def place_ruler(plan: SheetPlan) -> Rect | None:
    """Where the ruler fits between the grid and the inset, clear of the marks:
    below the grid under its marks (left-aligned with the trim), below it
    between its marks, then the same above the grid. None when nowhere fits."""
    spec, area = plan.spec, plan.bleed_area
    paper_w, paper_h = spec.paper
    xs = plan.trim_xs() if spec.crop_marks else ()
    below = (
        (area.bottom + plan.sides.bottom.reach + RULER_GAP, ()),
        (area.bottom + RULER_GAP, xs),
    )
    above = (
        (area.y - plan.sides.top.reach - RULER_GAP - RULER_HEIGHT, ()),
        (area.y - RULER_GAP - RULER_HEIGHT, xs),
    )
    for y, marks in below + above:
        if y < spec.inset - _EPS or y + RULER_HEIGHT > paper_h - spec.inset + _EPS:
            continue
        x = _ruler_x(plan.trim_area.x, marks, spec.inset, paper_w - spec.inset)
        if x is not None:
            return Rect(x, y, RULER_LENGTH, RULER_HEIGHT)
    return None


def _ruler_x(preferred: float, marks: tuple[float, ...], low: float, high: float) -> float | None:
    """The first x from preferred (else from the left) where the ruler stays
    within low..high and RULER_GAP clear of every mark at marks."""
    starts = [preferred] + [low] + [x + RULER_GAP for x in marks]
    for start in starts:
        x = min(max(start, low), high - RULER_LENGTH)
        if x < low - _EPS:
            return None
        if all(x - mark >= RULER_GAP - _EPS or mark - x - RULER_LENGTH >= RULER_GAP - _EPS
               for mark in marks):  # fmt: skip
            return x
    return None


@dataclass(frozen=True)
class PageBoxes:
    """Page boxes for one face per page, as (x0, y0, x1, y1) in PDF user space."""

    width: float
    height: float
    media: tuple[float, float, float, float]
    bleed: tuple[float, float, float, float]
    trim: tuple[float, float, float, float]


def per_card_boxes(trim_width: float, trim_height: float, bleed: float) -> PageBoxes:
    """A page the size of the bleed box: MediaBox = BleedBox, TrimBox inset by bleed."""
    _check_component(trim_width, trim_height, bleed)
    width, height = trim_width + 2 * bleed, trim_height + 2 * bleed
    page = (0.0, 0.0, width, height)
    trim = (bleed, bleed, bleed + trim_width, bleed + trim_height)
    return PageBoxes(width=width, height=height, media=page, bleed=page, trim=trim)


@dataclass(frozen=True)
class AlignmentPage:
    """A two-sided duplex calibration page. Each target is two concentric squares
    (20 and 10 mm) and a 40 mm crosshair; the front adds millimetre scales
    (+-10 mm) 15 mm below and right of the centre target, which the back's
    crosshair crosses when the sheet is held to the light."""

    centres: tuple[tuple[float, float], ...]  # target centres on the front page
    front: tuple[Line | Rect, ...]  # targets, then the scales
    back: tuple[Line | Rect, ...]  # the same targets where duplexing puts them, plus back_offset


def alignment_test(spec: SheetSpec) -> AlignmentPage:
    """Geometry of a duplex calibration page: targets at the centre and inside
    the four corners, mirrored onto the back for spec.duplex and shifted by
    spec.back_offset."""
    width, height = spec.paper
    inset = spec.margin + TARGET_REACH
    if min(width, height) < 2 * inset + 2 * TARGET_REACH:
        raise ValueError(
            f"{_mm(width)} x {_mm(height)} mm paper with {_mm(spec.margin)} mm margins "
            "is too small for an alignment page"
        )
    centres = (
        (width / 2, height / 2),
        (inset, inset),
        (width - inset, inset),
        (inset, height - inset),
        (width - inset, height - inset),
    )
    targets = [shape for cx, cy in centres for shape in _target(cx, cy)]
    dx, dy = spec.back_offset
    back = tuple(_shift(_mirror(shape, spec), dx, dy) for shape in targets)
    return AlignmentPage(centres=centres, front=tuple(targets) + _scales(*centres[0]), back=back)


def _target(cx: float, cy: float) -> tuple[Line | Rect, ...]:
    big, small = 10 * MM, 5 * MM
    return (
        Rect(cx - big, cy - big, 2 * big, 2 * big),
        Rect(cx - small, cy - small, 2 * small, 2 * small),
        Line(cx - TARGET_REACH, cy, cx + TARGET_REACH, cy),
        Line(cx, cy - TARGET_REACH, cx, cy + TARGET_REACH),
    )


def _scales(cx: float, cy: float) -> tuple[Line, ...]:
    """Millimetre scales: a horizontal one 15 mm below the centre (reads x), a
    vertical one 15 mm right of it (reads y); ticks every mm, longer every 5."""
    at = 15 * MM
    lines = [
        Line(cx - 10 * MM, cy + at, cx + 10 * MM, cy + at),
        Line(cx + at, cy - 10 * MM, cx + at, cy + 10 * MM),
    ]
    for k in range(-10, 11):
        tick = (3 if k % 5 == 0 else 1.5) * MM
        lines.append(Line(cx + k * MM, cy + at, cx + k * MM, cy + at + tick))
        lines.append(Line(cx + at, cy + k * MM, cx + at + tick, cy + k * MM))
    return tuple(lines)


def _fit(limit: float, size: float, gap: float) -> int:
    """How many of size, gap apart, fit in limit: n * size + (n - 1) * gap <= limit."""
    if size > limit + _EPS:
        return 0
    return math.floor((limit + gap + _EPS) / (size + gap))


def _check_component(trim_width: float, trim_height: float, bleed: float) -> None:
    if not (trim_width > 0 and trim_height > 0):
        raise ValueError(
            f"trim size must be positive, got {_mm(trim_width)} x {_mm(trim_height)} mm"
        )
    if not bleed >= 0:
        raise ValueError(f"bleed must not be negative, got {_mm(bleed)} mm")


def flips_x(spec: SheetSpec) -> bool:
    """Does duplexing mirror left-right? Long-edge flip of a portrait page does."""
    width, height = spec.paper
    portrait = width <= height
    return (spec.duplex == "long" and portrait) or (spec.duplex == "short" and not portrait)


def _flips_y(spec: SheetSpec) -> bool:
    return spec.duplex != "none" and not flips_x(spec)


def _mirror_rect(rect: Rect, spec: SheetSpec) -> Rect:
    width, height = spec.paper
    if flips_x(spec):
        return replace(rect, x=width - rect.x - rect.width)
    if _flips_y(spec):
        return replace(rect, y=height - rect.y - rect.height)
    return rect


def _mirror(shape: Line | Rect, spec: SheetSpec) -> Line | Rect:
    if isinstance(shape, Rect):
        return _mirror_rect(shape, spec)
    width, height = spec.paper
    if flips_x(spec):
        return replace(shape, x1=width - shape.x1, x2=width - shape.x2)
    if _flips_y(spec):
        return replace(shape, y1=height - shape.y1, y2=height - shape.y2)
    return shape


def _shift_rect(rect: Rect, dx: float, dy: float) -> Rect:
    return replace(rect, x=rect.x + dx, y=rect.y + dy)


def _shift(shape: Line | Rect, dx: float, dy: float) -> Line | Rect:
    if isinstance(shape, Rect):
        return _shift_rect(shape, dx, dy)
    return Line(shape.x1 + dx, shape.y1 + dy, shape.x2 + dx, shape.y2 + dy)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-3


def _distinct(values: list[float]) -> tuple[float, ...]:
    """Sorted values with near-duplicates (shared butted cuts) merged."""
    result: list[float] = []
    for value in sorted(values):
        if not result or value - result[-1] > _EPS:
            result.append(value)
    return tuple(result)


def _mm(points: float) -> str:
    return f"{round(to_mm(points), 2):g}"

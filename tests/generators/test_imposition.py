"""Sheet imposition, checked against layouts worked out by hand in millimetres.

Page coordinates: origin top-left, y down. A4 is 210 x 297 mm, letter is
215.9 x 279.4 mm. Defaults: 10 mm margins for the trim, no ink within 5 mm of
the paper edge, 2 mm gutter, crop marks 1 mm off the bleed edge and 4 mm long
(they reach 5 mm beyond the grid's bleed edge) unless the paper edge is nearer,
and a ruler 50 x 4.6 mm kept 1 mm clear of the grid and the marks.
"""

import pytest

from protopress.generators.imposition import (
    RULER_HEIGHT,
    RULER_LENGTH,
    Line,
    Rect,
    SheetSpec,
    alignment_test,
    per_card_boxes,
    plan_sheet,
)
from protopress.generators.units import INCH, MM, PAPER, mm

A4 = SheetSpec(PAPER["a4"])
LETTER = SheetSpec(PAPER["letter"])


def near(value_mm):
    """A millimetre value as points, compared to 0.01 mm."""
    return pytest.approx(mm(value_mm), abs=0.01 * MM)


def rect_mm(rect):
    return tuple(round(v / MM, 4) for v in (rect.x, rect.y, rect.width, rect.height))


def line_mm(line):
    return tuple(round(v / MM, 4) for v in (line.x1, line.y1, line.x2, line.y2))


def shape_mm(shape):
    """A shape in mm for comparing drawings (a line's direction does not matter)."""
    if isinstance(shape, Line):
        ends = sorted([line_mm(shape)[:2], line_mm(shape)[2:]])
        return ("line", *ends[0], *ends[1])
    return ("rect", *rect_mm(shape))


@pytest.fixture
def poker_a4():
    return plan_sheet(mm(63), mm(88), mm(3), A4)


# --- what fits ---------------------------------------------------------------


def test_poker_on_a4_is_nine_up_upright_and_butted(poker_a4):
    # The trim must fit inside 210 - 2*10 = 190 by 297 - 2*10 = 277 mm.
    # Gutter spacing puts 3 + 2 + 3 = 8 mm between trims: 2 * 63 + 8 = 134 fits,
    # 3 * 63 + 2 * 8 = 205 does not, so only 2 x 2 (2 * 88 + 8 = 184; 280 > 277).
    # Butted, trims touch: 3 * 63 = 189 <= 190 and 3 * 88 = 264 <= 277: 3 x 3.
    # Turned (88 wide), the best is 2 x 4 = 8 (2 * 88 = 176, 4 * 63 = 252) < 9.
    plan = poker_a4
    assert (plan.columns, plan.rows, plan.per_page) == (3, 3, 9)
    assert plan.rotated is False
    assert plan.butted is True
    # Centred: trim grid 189 x 264 mm, so it starts at (210 - 189) / 2 = 10.5 and
    # (297 - 264) / 2 = 16.5 mm; the first bleed box 3 mm earlier, 69 x 94 mm.
    first = plan.fronts[0]
    assert (first.x, first.y) == (near(7.5), near(13.5))
    assert (first.width, first.height) == (near(69), near(94))
    assert first.rotated is False
    # Butted neighbours are one trim width (63 mm) apart: reading order is row by row.
    assert [(s.column, s.row) for s in plan.fronts[:4]] == [(0, 0), (1, 0), (2, 0), (0, 1)]
    assert plan.fronts[1].x == near(7.5 + 63)
    assert plan.fronts[3].y == near(13.5 + 88)
    assert plan.fronts[8].trim(plan.bleed).bottom == near(16.5 + 264)


def test_butted_faces_clip_their_bleed_at_shared_cuts(poker_a4):
    plan = poker_a4
    # The top-left face keeps its outer bleed (left, top) but stops at the shared
    # cuts: right at trim 10.5 + 63 = 73.5, bottom at 16.5 + 88 = 104.5 mm.
    assert rect_mm(plan.fronts[0].clip) == (7.5, 13.5, 66, 91)
    # The middle face has neighbours all round: its clip is exactly its trim box.
    middle = plan.fronts[4]
    assert rect_mm(middle.clip) == rect_mm(middle.trim(plan.bleed))


def test_poker_on_a4_with_gutters_is_six_turned():
    # Forcing gutter spacing: upright is 2 x 2 = 4 (above). Turned, each trim is
    # 88 x 63: columns 2 * 88 + 8 = 184 <= 190, rows 4 * 63 + 3 * 8 = 276 <= 277.
    # But 4 rows leave the bottom bleed edge at 297 - 10.5 + 3 = 289.5 mm: no room
    # for the 4.6 mm ruler before the 5 mm edge band, above or below the grid,
    # beside the marks or under them. So one row goes: 2 x 3 = 6.
    plan = plan_sheet(mm(63), mm(88), mm(3), SheetSpec(PAPER["a4"], spacing="gutter"))
    assert (plan.columns, plan.rows, plan.rotated, plan.butted) == (2, 3, True, False)
    # Trim grid 184 x 205 mm from ((210 - 184) / 2, (297 - 205) / 2) = (13, 46);
    # bleed boxes 94 x 69 mm (swapped), each 94 + 2 = 96 mm right of the last.
    first, second = plan.fronts[0], plan.fronts[1]
    assert rect_mm(first.bleed_box) == (10, 43, 94, 69)
    assert second.x == near(10 + 96)
    assert plan.fronts[2].y == near(43 + 69 + 2)
    # The ruler goes under the bottom marks (bleed edge 254 + 5 + 1), at the trim's left.
    assert rect_mm(plan.ruler()) == (13, 260, 50, 4.6)
    assert all(slot.rotated for slot in plan.fronts)
    # With gutters every face keeps its whole bleed.
    assert all(slot.clip == slot.bleed_box for slot in plan.fronts)


def test_poker_on_letter_with_default_margins_is_eight_turned():
    # Letter less 10 mm margins: 195.9 x 259.4 mm for the trim.
    # Upright: 3 columns butted (189 <= 195.9) but only 2 rows (3 * 88 = 264 > 259.4): 6.
    # Turned: 2 columns of 88 (176; 264 > 195.9) and 4 rows of 63 (252 <= 259.4): 8.
    plan = plan_sheet(mm(63), mm(88), mm(3), LETTER)
    assert (plan.columns, plan.rows, plan.per_page) == (2, 4, 8)
    assert plan.rotated is True and plan.butted is True
    # Trim grid 176 x 252 mm from ((215.9 - 176) / 2, (279.4 - 252) / 2) = (19.95, 13.7).
    assert rect_mm(plan.fronts[0].bleed_box) == (16.95, 10.7, 94, 69)


def test_poker_on_letter_with_quarter_inch_margins_and_no_marks_keeps_the_edge_band():
    # 1/4 in = 6.35 mm margins: 215.9 - 12.7 = 203.2 and 279.4 - 12.7 = 266.7 mm.
    # 3 * 63 = 189 <= 203.2 and 3 * 88 = 264 <= 266.7 would be 3 x 3 upright, but
    # its bleed would start (279.4 - 264) / 2 - 3 = 4.7 mm from the paper edge,
    # inside the 5 mm a home printer leaves blank: 2 x 4 turned instead.
    spec = SheetSpec(PAPER["letter"], margin=0.25 * INCH, crop_marks=False)
    plan = plan_sheet(mm(63), mm(88), mm(3), spec)
    assert (plan.columns, plan.rows, plan.rotated) == (2, 4, True)
    assert rect_mm(plan.fronts[0].trim(plan.bleed)) == (19.95, 13.7, 88, 63)


def test_a_printer_without_an_edge_band_still_gets_a_ruler():
    # With inset 0 the 3 x 3 grid fits the paper, but its bleed edges lie 4.7 mm
    # from the top and bottom: the 4.6 mm ruler plus its 1 mm gap does not fit.
    # A sheet without a ruler cannot be checked for scale, so 2 x 4 turned wins.
    spec = SheetSpec(PAPER["letter"], margin=0.25 * INCH, crop_marks=False, inset=0)
    plan = plan_sheet(mm(63), mm(88), mm(3), spec)
    assert (plan.columns, plan.rows, plan.rotated) == (2, 4, True)
    assert plan.ruler() is not None


def test_crop_marks_limit_the_grid():
    # Same letter sheet with marks: 3 rows need 264 + 2 * (3 + 5) = 280 > 279.4 mm
    # of paper, so it falls back to 2 x 4 turned (4 * 63 + 16 = 268).
    spec = SheetSpec(PAPER["letter"], margin=0.25 * INCH)
    plan = plan_sheet(mm(63), mm(88), mm(3), spec)
    assert (plan.columns, plan.rows, plan.rotated) == (2, 4, True)


def test_a_landscape_tile_is_turned_when_that_fits_more():
    # A 120 x 70 mm tile with 3 mm bleed on A4 (trim must fit 190 x 277 mm):
    # upright, 1 column (2 * 120 > 190) of 3 rows (4 * 70 = 280 > 277): 3 either way.
    # Turned (70 wide, 120 tall), gutter spacing: 2 * 70 + 8 = 148 <= 190 and
    # 2 * 120 + 8 = 248 <= 277: 2 x 2 = 4. Butting gives no more, so gutters stay.
    plan = plan_sheet(mm(120), mm(70), mm(3), A4)
    assert (plan.columns, plan.rows, plan.per_page) == (2, 2, 4)
    assert plan.rotated is True and plan.butted is False
    assert (plan.trim_width, plan.trim_height) == (near(120), near(70))
    # Trim grid 148 x 248 mm from ((210 - 148) / 2, (297 - 248) / 2) = (31, 24.5);
    # placed bleed boxes are 76 x 126 mm.
    assert rect_mm(plan.fronts[0].bleed_box) == (28, 21.5, 76, 126)
    assert rect_mm(plan.fronts[3].bleed_box) == (28 + 78, 21.5 + 128, 76, 126)


def test_a_landscape_card_turns_into_nine_up():
    # 88 x 63 mm upright: 2 x 4 = 8 (as poker turned); turned it is poker upright: 9.
    plan = plan_sheet(mm(88), mm(63), mm(3), A4)
    assert (plan.columns, plan.rows, plan.rotated) == (3, 3, True)


def test_square_components_never_turn():
    plan = plan_sheet(mm(50), mm(50), mm(3), A4)
    assert plan.rotated is False


# --- crop marks, cut lines, ruler --------------------------------------------


def test_crop_marks_of_the_first_butted_slot(poker_a4):
    plan = poker_a4
    marks = {line_mm(line) for line in plan.crop_marks()}
    # Grid bleed edge: left 7.5, top 13.5, right 10.5 + 189 + 3 = 202.5,
    # bottom 16.5 + 264 + 3 = 283.5 mm. Marks start 1 mm beyond it and run 4 mm out.
    # The first slot's trim lines are x = 10.5, 73.5 and y = 16.5, 104.5 mm.
    for x in (10.5, 73.5):
        assert (x, 12.5, x, 8.5) in marks  # above: 13.5 - 1 up to 13.5 - 5
        assert (x, 284.5, x, 288.5) in marks  # below: 283.5 + 1 down to 283.5 + 5
    # Left and right only 7.5 - 5 = 2.5 mm are left before the edge band: the
    # marks keep their 1 mm offset and shorten to 1.5 mm, ending 5 mm from the edge.
    for y in (16.5, 104.5):
        assert (6.5, y, 5, y) in marks  # left: 7.5 - 1 out to 7.5 - 2.5
        assert (203.5, y, 205, y) in marks  # right: 202.5 + 1 out to 202.5 + 2.5
    # Butted columns share cuts: 4 distinct x and 4 distinct y, two marks each.
    assert len(plan.crop_marks()) == (4 + 4) * 2
    first = plan.crop_marks()[0]
    assert (first.x1, first.y1, first.x2, first.y2) == (
        near(10.5),
        near(12.5),
        near(10.5),
        near(8.5),
    )


def test_crop_marks_with_gutters_mark_both_edges_of_every_column():
    plan = plan_sheet(mm(120), mm(70), mm(3), A4)
    # Column trims 31..101 and 109..179 mm; row trims 24.5..144.5 and 152.5..272.5.
    assert [round(x / MM, 4) for x in plan.trim_xs()] == [31, 101, 109, 179]
    assert [round(y / MM, 4) for y in plan.trim_ys()] == [24.5, 144.5, 152.5, 272.5]
    marks = {line_mm(line) for line in plan.crop_marks()}
    # Grid bleed edge: left 28, top 21.5, right 182, bottom 275.5 mm.
    assert (31, 20.5, 31, 16.5) in marks
    assert (31, 276.5, 31, 280.5) in marks
    assert (27, 24.5, 23, 24.5) in marks
    assert (183, 24.5, 187, 24.5) in marks
    assert len(marks) == 16


SIZES = [(63, 88), (120, 70), (88, 63), (25, 25), (15, 15), (190, 250), (180, 120), (80, 94)]


@pytest.mark.parametrize("spec", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("size", SIZES)
def test_marks_ruler_and_bleed_keep_5_mm_from_the_paper_edge(size, spec):
    plan = plan_sheet(mm(size[0]), mm(size[1]), mm(3), spec)
    width, height = spec.paper
    low, high_x, high_y = mm(5) - 1e-6, width - mm(5) + 1e-6, height - mm(5) + 1e-6
    boxes = [slot.bleed_box for slot in plan.fronts]
    for line in plan.crop_marks():
        for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
            assert low <= x <= high_x and low <= y <= high_y, line_mm(line)
            assert not any(b.x < x < b.right and b.y < y < b.bottom for b in boxes)
    for box in boxes:
        assert low <= box.x and box.right <= high_x and low <= box.y and box.bottom <= high_y
    ruler = plan.ruler()
    assert ruler is not None
    assert low <= ruler.x and ruler.right <= high_x and low <= ruler.y and ruler.bottom <= high_y
    # clear of every mark and of the grid's bleed by the 1 mm gap
    for line in plan.crop_marks():
        apart_x = (
            min(line.x1, line.x2) >= ruler.right + mm(1) - 1e-6
            or max(line.x1, line.x2) <= ruler.x - mm(1) + 1e-6
        )
        apart_y = (
            min(line.y1, line.y2) >= ruler.bottom + mm(1) - 1e-6
            or max(line.y1, line.y2) <= ruler.y - mm(1) + 1e-6
        )
        assert apart_x or apart_y, line_mm(line)
    area = plan.bleed_area
    assert ruler.y >= area.bottom + mm(1) - 1e-6 or ruler.bottom <= area.y - mm(1) + 1e-6


def test_crop_marks_only_beside_filled_slots(poker_a4):
    # 4 of 9 filled: row 0 whole, row 1 only column 0.
    marks = {line_mm(line) for line in poker_a4.crop_marks(4)}
    # x = 10.5 and 73.5 (column 0) run down to row 1: their bottom marks sit
    # under row 1 (bleed edge 16.5 + 2 * 88 + 3 = 195.5), inside the empty row 2.
    assert (10.5, 196.5, 10.5, 200.5) in marks
    # x = 136.5 and 199.5 end with row 0 (bleed edge 16.5 + 88 + 3 = 107.5).
    assert (199.5, 108.5, 199.5, 112.5) in marks
    # y = 192.5 (under row 1) is marked left, and right of column 0 only.
    assert (6.5, 192.5, 5, 192.5) in marks
    assert (73.5 + 3 + 1, 192.5, 73.5 + 3 + 5, 192.5) in marks
    # Nothing beside row 2: no mark reaches its cut at y = 280.5 or below the grid.
    assert not any(280.5 in (m[1], m[3]) or max(m[1], m[3]) > 283.5 for m in marks)
    # 4 x 2 vertical + 3 x 2 horizontal (y = 16.5, 104.5, 192.5).
    assert len(marks) == 14
    assert poker_a4.crop_marks(0) == ()


def test_no_crop_marks_when_turned_off():
    plan = plan_sheet(mm(63), mm(88), mm(3), SheetSpec(PAPER["a4"], crop_marks=False))
    assert plan.crop_marks() == ()


def test_cut_lines_run_across_the_grid(poker_a4):
    lines = [line_mm(line) for line in poker_a4.cut_lines()]
    # 4 verticals from the top bleed edge (13.5) to the bottom one (283.5), then
    # 4 horizontals from the left bleed edge (7.5) to the right one (202.5).
    assert lines[:4] == [(x, 13.5, x, 283.5) for x in (10.5, 73.5, 136.5, 199.5)]
    assert lines[4:] == [(7.5, y, 202.5, y) for y in (16.5, 104.5, 192.5, 280.5)]


def test_ruler_sits_between_the_bottom_marks_when_it_cannot_go_under_them(poker_a4):
    ruler = poker_a4.ruler()
    # The bottom marks end at 288.5 mm; under them the ruler would end at
    # 288.5 + 1 + 4.6 = 294.1 > 297 - 5. So it goes beside them, 1 mm below the
    # bleed edge (283.5 + 1) and 1 mm right of the mark at x = 10.5 mm; the next
    # mark (73.5) is 12 mm beyond its end.
    assert rect_mm(ruler) == (11.5, 284.5, 50, 4.6)
    assert (ruler.width, ruler.height) == (RULER_LENGTH, RULER_HEIGHT)
    assert ruler.bottom <= A4.paper[1] - mm(5)


def test_ruler_goes_under_the_marks_when_there_is_room():
    plan = plan_sheet(mm(120), mm(70), mm(3), A4)
    # The tile grid's bleed edge is at 275.5 mm and its marks end at 280.5 mm:
    # the ruler starts 1 mm lower, left-aligned with the trim grid (31 mm).
    assert rect_mm(plan.ruler()) == (31, 281.5, 50, 4.6)


def test_a_grid_without_room_for_the_ruler_loses_a_row():
    # 25 mm point gems: 11 rows (275 mm) fit the 277 mm inside the margins, but
    # leave the bleed 8 mm from the top and bottom: room for shortened marks,
    # none for the ruler. 10 rows leave 20.5 mm.
    plan = plan_sheet(mm(25), mm(25), mm(3), A4)
    assert (plan.columns, plan.rows) == (7, 10)
    assert plan.ruler() is not None


def test_no_ruler_only_when_no_grid_leaves_room():
    # A 180 x 277 mm sheet fills A4 less 10 mm margins: one per page, no ruler.
    spec = SheetSpec(PAPER["a4"], margin=10 * MM, crop_marks=False)
    plan = plan_sheet(mm(180), mm(277), mm(3), spec)
    assert plan.per_page == 1
    assert plan.ruler() is None


# --- duplex backs ------------------------------------------------------------


def test_long_edge_backs_mirror_left_right(poker_a4):
    backs = poker_a4.backs()
    # x_back = 210 - 7.5 - 69 = 133.5 mm: exactly where column 2 sits on the front.
    assert (backs[0].x, backs[0].y) == (near(133.5), near(13.5))
    assert (backs[0].column, backs[0].row) == (2, 0)
    assert (backs[0].x, backs[0].y) == (poker_a4.fronts[2].x, poker_a4.fronts[2].y)
    # The clip mirrors too: it matches the front clip of column 2.
    assert rect_mm(backs[0].clip) == rect_mm(poker_a4.fronts[2].clip)


def test_short_edge_backs_mirror_top_bottom():
    plan = plan_sheet(mm(63), mm(88), mm(3), SheetSpec(PAPER["a4"], duplex="short"))
    back = plan.backs()[0]
    # y_back = 297 - 13.5 - 94 = 189.5 mm: where row 2 sits on the front.
    assert (back.x, back.y) == (near(7.5), near(189.5))
    assert (back.column, back.row) == (0, 2)


def test_no_duplex_keeps_backs_in_place():
    plan = plan_sheet(mm(63), mm(88), mm(3), SheetSpec(PAPER["a4"], duplex="none"))
    assert plan.backs() == plan.fronts


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
@pytest.mark.parametrize("size", [(63, 88), (120, 70)])
def test_mirroring_twice_is_the_identity(duplex, size):
    plan = plan_sheet(mm(size[0]), mm(size[1]), mm(3), SheetSpec(PAPER["a4"], duplex=duplex))
    for slot in plan.fronts:
        twice = plan.mirror(plan.mirror(slot))
        assert rect_mm(twice.bleed_box) == rect_mm(slot.bleed_box)
        assert rect_mm(twice.clip) == rect_mm(slot.clip)
        assert (twice.column, twice.row, twice.rotated) == (slot.column, slot.row, slot.rotated)


def test_backs_land_on_the_front_grid(poker_a4):
    fronts = {rect_mm(slot.bleed_box) for slot in poker_a4.fronts}
    assert {rect_mm(slot.bleed_box) for slot in poker_a4.backs()} == fronts


def test_back_offset_shifts_every_back():
    spec = SheetSpec(PAPER["a4"], back_offset=(mm(1.5), mm(-0.5)))
    back = plan_sheet(mm(63), mm(88), mm(3), spec).backs()[0]
    # Mirrored to (133.5, 13.5) mm, then 1.5 mm right and 0.5 mm up.
    assert (back.x, back.y) == (near(135), near(13))
    assert (back.clip.x, back.clip.y) == (near(136.5 + 1.5), near(13.5 - 0.5))


def test_backs_of_turned_faces_are_turned():
    plan = plan_sheet(mm(120), mm(70), mm(3), A4)
    assert all(back.rotated for back in plan.backs())
    # Same size as placed on the front: 76 x 126 mm.
    assert rect_mm(plan.backs()[0].bleed_box)[2:] == (76, 126)


# --- per-card pages ----------------------------------------------------------


def test_per_card_boxes_for_a_poker_card():
    boxes = per_card_boxes(mm(63), mm(88), mm(3))
    # 1 mm = 72 / 25.4 pt. Page 69 x 94 mm = 195.591 x 266.457 pt;
    # trim from 3 mm = 8.504 pt to 66 mm = 187.087 pt and 91 mm = 257.953 pt.
    points = pytest.approx
    assert (boxes.width, boxes.height) == (points(195.591, abs=0.01), points(266.457, abs=0.01))
    assert boxes.media == points((0, 0, 195.591, 266.457), abs=0.01)
    assert boxes.bleed == boxes.media
    assert boxes.trim == points((8.504, 8.504, 187.087, 257.953), abs=0.01)


def test_per_card_boxes_without_bleed_are_the_trim():
    boxes = per_card_boxes(mm(63), mm(88), 0)
    assert boxes.trim == boxes.media


# --- alignment page ----------------------------------------------------------


def test_alignment_targets_meet_once_duplexed():
    page = alignment_test(A4)
    # Five targets of 4 shapes each: centre (105, 148.5) and 10 + 20 = 30 mm in
    # from each corner.
    assert [(round(x / MM, 4), round(y / MM, 4)) for x, y in page.centres] == [
        (105, 148.5),
        (30, 30),
        (180, 30),
        (30, 267),
        (180, 267),
    ]
    targets = page.front[:20]
    assert len(page.back) == 20
    # Targets are symmetric and so is their layout: the mirrored back targets
    # cover exactly the front ones, the top-left target coming from the top-right.
    assert sorted(map(shape_mm, page.back)) == sorted(map(shape_mm, targets))
    # The top-left target's square (20, 20, 20, 20) lands at x = 210 - 20 - 20 = 170.
    assert rect_mm(page.back[4]) == (170, 20, 20, 20)
    # The front also has two 21-tick millimetre scales with a baseline each.
    scales = page.front[20:]
    assert len(scales) == 2 + 2 * 21
    assert all(isinstance(s, Line) for s in scales)


def test_alignment_back_offset_moves_the_back_targets():
    page = alignment_test(SheetSpec(PAPER["a4"], back_offset=(mm(2), mm(1))))
    # The centre target's 20 mm square at (95, 138.5), shifted by (2, 1) mm.
    assert rect_mm(page.back[0]) == (97, 139.5, 20, 20)


# --- errors ------------------------------------------------------------------


def test_a_component_too_big_even_turned_is_refused():
    with pytest.raises(ValueError, match=r"300 x 400 mm component does not fit.*190 x 277 mm"):
        plan_sheet(mm(300), mm(400), mm(3), A4)


def test_a_component_fitting_only_when_turned_is_turned():
    # 250 x 150 mm: too wide for 190 mm upright, fits as 150 x 250 turned.
    plan = plan_sheet(mm(250), mm(150), 0, A4)
    assert (plan.per_page, plan.rotated) == (1, True)


@pytest.mark.parametrize(
    ("size", "bleed", "message"),
    [
        ((-63, 88), 3, "trim size must be positive"),
        ((63, 0), 3, "trim size must be positive"),
        ((63, 88), -1, "bleed must not be negative"),
    ],
)
def test_bad_component_sizes_are_refused(size, bleed, message):
    with pytest.raises(ValueError, match=message):
        plan_sheet(mm(size[0]), mm(size[1]), mm(bleed), A4)
    with pytest.raises(ValueError, match=message):
        per_card_boxes(mm(size[0]), mm(size[1]), mm(bleed))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"duplex": "sideways"}, "unknown duplex 'sideways'"),
        ({"spacing": "tight"}, "unknown spacing 'tight'"),
        ({"margin": -1.0}, "margin must not be negative"),
        ({"gutter": -1.0}, "gutter must not be negative"),
        ({"margin": 105 * MM}, "leave no printable area"),
    ],
)
def test_bad_sheet_specs_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        SheetSpec(PAPER["a4"], **options)


def test_bad_paper_is_refused():
    with pytest.raises(ValueError, match="paper size must be positive"):
        SheetSpec((0.0, 100.0))


def test_slot_trim_is_the_bleed_box_inset(poker_a4):
    trim = poker_a4.fronts[0].trim(poker_a4.bleed)
    assert isinstance(trim, Rect)
    assert rect_mm(trim) == (10.5, 16.5, 63, 88)


def test_a_part_filled_butted_page_keeps_the_bleed_beside_empty_slots(poker_a4):
    # 4 of 9: row 0 whole, row 1 column 0 only. Slot 0's neighbours right and
    # below are filled: its clip stays at the shared cuts (7.5, 13.5, 66, 91).
    slots = poker_a4.filled(4)
    assert len(slots) == 4
    assert rect_mm(slots[0].clip) == (7.5, 13.5, 66, 91)
    # Slot 1 (row 0, column 1) has an empty slot below: its clip runs down to
    # its own bleed edge, 16.5 + 88 + 3 = 107.5 mm, and stops at its shared side cuts.
    assert rect_mm(slots[1].clip) == (73.5, 13.5, 63, 94)
    # Slot 3 (row 1, column 0) has empty slots right and below: bleed on both.
    assert rect_mm(slots[3].clip) == (7.5, 104.5, 69, 91)
    # Its back (mirrored to column 2) keeps that bleed too.
    assert rect_mm(poker_a4.backs(4)[3].clip) == (133.5, 104.5, 69, 91)
    # A full page is unchanged.
    assert poker_a4.filled() == poker_a4.fronts


def test_a_component_with_room_only_for_its_bleed_goes_without_crop_marks():
    # 190 x 277 mm with 5 mm bleed on A4: the bleed edge lies (210 - 190) / 2 - 5
    # = 5 mm from the side edges, right on the edge band: no room for even the
    # shortest mark (2 mm). Rather than refuse it, the sheet drops the marks.
    plan = plan_sheet(mm(190), mm(277), mm(5), A4)
    assert plan.per_page == 1
    assert plan.spec.crop_marks is False and plan.crop_marks() == ()
    assert rect_mm(plan.bleed_area) == (5, 5, 200, 287)

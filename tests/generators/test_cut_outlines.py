"""Cut lines follow the component's shape: rounded corners, hexes, circles."""

from dataclasses import replace

from protopress.generators.imposition import SheetSpec, plan_sheet
from protopress.generators.units import MM, PAPER

SPEC = SheetSpec(paper=PAPER["a4"])


def _plan(width, height, **cut):
    return replace(plan_sheet(width * MM, height * MM, 3 * MM, SPEC), **cut)


def test_straight_cuts_stay_lines():
    assert _plan(63, 88).cut_outlines() is None


def test_rounded_corners_one_outline_per_filled_slot():
    plan = _plan(63, 88, cut_radius=3 * MM)
    outlines = plan.cut_outlines(4)
    assert len(outlines) == 4
    trim = plan.fronts[0].trim(plan.bleed)
    assert outlines[0].rect == trim
    assert outlines[0].radius == 3 * MM


def test_circle_and_hex():
    [circle] = _plan(25, 25, cut_shape="circle").cut_outlines(1)
    assert abs(circle.radius - 12.5 * MM) < 1e-6
    [hexagon] = _plan(76.2, 88, cut_shape="hex").cut_outlines(1)
    xs = sorted({round(x, 6) for x, _ in hexagon.points})
    ys = sorted({round(y, 6) for _, y in hexagon.points})
    assert len(hexagon.points) == 6
    assert abs((xs[-1] - xs[0]) - hexagon.rect.width) < 1e-6
    assert abs((ys[-1] - ys[0]) - hexagon.rect.height) < 1e-6

import dataclasses
import itertools

import pytest

from protopress.components.schemas import schema_documents
from protopress.generators.shapes import SHAPES, Outline, outline, scaled

MASK = 64


def _bbox(shape_outline: Outline) -> tuple[float, float, float, float]:
    xs = [x for contour in shape_outline.contours for x, _ in contour]
    ys = [y for contour in shape_outline.contours for _, y in contour]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.fixture(scope="module")
def masks():
    """Each shape rasterised on a MASK x MASK bitmap, contours combined even-odd."""
    image = pytest.importorskip("PIL.Image")
    chops = pytest.importorskip("PIL.ImageChops")
    draw = pytest.importorskip("PIL.ImageDraw")

    def rasterise(shape_outline: Outline):
        acc = image.new("1", (MASK, MASK), 0)
        for contour in shape_outline.contours:
            layer = image.new("1", (MASK, MASK), 0)
            draw.Draw(layer).polygon([(x * MASK, y * MASK) for x, y in contour], fill=1)
            acc = chops.logical_xor(acc, layer)
        return acc

    return {shape: rasterise(outline(shape)) for shape in SHAPES}, chops


def _pixels(mask) -> int:
    return mask.convert("L").histogram()[255]


def test_shapes_are_the_schema_enum_in_order():
    enum = schema_documents()["common.schema.json"]["$defs"]["shape"]["enum"]
    assert list(SHAPES) == enum


@pytest.mark.parametrize("shape", SHAPES)
def test_outline_fills_the_unit_box(shape):
    result = outline(shape)
    assert result.fill_rule == "evenodd"
    assert result.contours
    for contour in result.contours:
        assert len(contour) >= 3
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in contour)
    left, top, right, bottom = _bbox(result)
    assert max(right - left, bottom - top) >= 0.8
    assert (left + right) / 2 == pytest.approx(0.5, abs=1e-3)
    assert (top + bottom) / 2 == pytest.approx(0.5, abs=1e-3)


@pytest.mark.parametrize("shape", ["circle", "heart", "crescent", "drop", "ring", "spiral"])
def test_curves_are_smooth(shape):
    assert len(outline(shape).contours[0]) >= 48


def test_ring_and_teardrop_pair_have_two_contours():
    assert len(outline("ring").contours) == 2
    assert len(outline("teardrop-pair").contours) == 2
    others = set(SHAPES) - {"ring", "teardrop-pair"}
    assert all(len(outline(shape).contours) == 1 for shape in others)


def test_ring_has_a_hole(masks):
    bitmaps, _ = masks
    centre = (MASK // 2, MASK // 2)
    assert bitmaps["circle"].getpixel(centre)
    assert not bitmaps["ring"].getpixel(centre)


def test_silhouettes_differ_pairwise(masks):
    bitmaps, chops = masks
    too_alike = []
    for a, b in itertools.combinations(SHAPES, 2):
        inter = _pixels(chops.logical_and(bitmaps[a], bitmaps[b]))
        union = _pixels(chops.logical_or(bitmaps[a], bitmaps[b]))
        if inter / union >= 0.9:
            too_alike.append(f"{a}/{b}: IoU {inter / union:.3f}")
    assert not too_alike


def test_up_and_down_shapes():
    def flipped(shape):
        return {(round(x, 4), round(1 - y, 4)) for x, y in outline(shape).contours[0]}

    up = {(round(x, 4), round(y, 4)) for x, y in outline("triangle").contours[0]}
    assert flipped("triangle-down") == up
    _, kite_top, _, kite_bottom = _bbox(outline("kite"))
    widest = max(outline("kite").contours[0], key=lambda p: p[0])
    assert widest[1] - kite_top < kite_bottom - widest[1]  # the long leg is below


def test_outlines_are_deterministic():
    build = outline.__wrapped__
    for shape in SHAPES:
        assert build(shape) == build(shape)


def test_outline_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        outline("circle").contours = ()


def test_unknown_shape_lists_the_known_ones():
    with pytest.raises(KeyError) as caught:
        outline("blob")
    message = str(caught.value)
    assert "blob" in message
    assert all(shape in message for shape in SHAPES)


def test_scaled_maps_the_unit_box_onto_the_square():
    square = Outline((((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),))
    hole = Outline((((0.0, 0.0), (1.0, 0.5), (0.25, 1.0)), ((0.5, 0.5), (0.5, 0.75), (0.75, 0.5))))
    assert scaled(square, 10, 20, 30) == [[(10, 20), (40, 20), (40, 50), (10, 50)]]
    assert scaled(hole, 0, 0, 8) == [[(0, 0), (8, 4), (2, 8)], [(4, 4), (4, 6), (6, 4)]]
    placed = scaled(outline("star"), 5.0, 7.0, 2.0)
    assert len(placed) == len(outline("star").contours)
    for contour in placed:
        assert all(5.0 <= x <= 7.0 and 7.0 <= y <= 9.0 for x, y in contour)

"""Faces a publisher would look at: the example's board keeps its card slots
apart, Gemstone Caverns' die nets use their page, DragonStone's action cards
say what they do. Positions are read back from the faces' drawing operations
and compared with the layouts' figures worked by hand."""

import itertools
from pathlib import Path

from protopress.components import load_catalog
from protopress.generators.face import FaceBuilder, RectOp
from protopress.generators.layout import layouts_for
from protopress.generators.units import MM

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"
SLOT_STROKE = (0x8A, 0x6D, 0x3B)  # the outline of the board's card slots and of the bank


def _mm(value: float) -> float:
    return round(value / MM, 2)


def test_the_example_boards_card_slots_and_bank_do_not_overlap():
    """Two market rows of four 67 x 92 mm slots at y 90 and 190, then DRAW,
    DISCARD and the bank at y 290: 8 mm between rows as between columns, the
    last row ending at 382 mm, inside the 12-388 mm playing area."""
    catalog = load_catalog(EXAMPLE / "catalog.json")
    layout = layouts_for(catalog.components, EXAMPLE / "layouts", catalog)["board"]
    (board,) = catalog.of_kind("board")
    face = FaceBuilder(layout, catalog, 0.0).build(board, "front")
    boxes = [
        (_mm(op.x), _mm(op.y), _mm(op.w), _mm(op.h))
        for op in face.ops
        if isinstance(op, RectOp) and op.stroke is not None
        and op.stroke.rgb255() == SLOT_STROKE
    ]  # fmt: skip
    assert sorted({y for _, y, _, _ in boxes}) == [90, 190, 290]
    assert len(boxes) == 11  # eight market slots, draw, discard, bank
    assert (203.5, 290, 142, 92) in boxes  # the bank spans the last two columns
    for (ax, ay, aw, ah), (bx, by, bw, bh) in itertools.combinations(boxes, 2):
        apart = ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
        assert apart, ((ax, ay, aw, ah), (bx, by, bw, bh))
    for x, y, w, h in boxes:
        assert 12 < x < x + w < 388
        assert 12 < y < y + h < 388

"""Faces a publisher would look at: the example's board keeps its card slots
apart, Gemstone Caverns' die nets use their page, DragonStone's action cards
say what they do. Positions are read back from the faces' drawing operations
and compared with the layouts' figures worked by hand."""

import itertools
from pathlib import Path

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators.face import PolygonOp, RectOp, TextOp
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import layouts_for
from protopress.generators.render import RenderOptions, sheet_plan
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


def _face(game: str, kind: str, component_id: str):
    catalog = load_catalog(builtin_catalog_path(game))
    layout = layouts_for(catalog.components, None, catalog)[kind]
    (component,) = [c for c in catalog.of_kind(kind) if c.id == component_id]
    return layout, FaceBuilder(layout, catalog, 0.0).build(component, "front")


def test_die_nets_stand_upright_two_by_two_on_a4():
    """A 95 x 134 mm net with 3 mm of bleed is 101 x 140 mm: two across take
    202 of A4's 210 mm and two down 280 of its 297, upright. Turned, 140 mm
    across would leave room for one, so the four dice share one page upright."""
    layout, _ = _face("gemstone-caverns", "die", "die-rainbow")
    assert (_mm(layout.width), _mm(layout.height)) == (95, 134)
    plan = sheet_plan(layout, RenderOptions(output_dir=Path("unused")))
    assert (plan.rotated, plan.columns, plan.rows) == (False, 2, 2)


def test_a_die_net_is_a_cross_of_six_24_mm_faces():
    """The row of three faces at y 44 from x 11.5, the column at x 35.5 from
    y 20 down to 116: a cube of 24 mm folds from it."""
    _, face = _face("gemstone-caverns", "die", "die-rainbow")
    squares = sorted(
        (_mm(op.x), _mm(op.y))
        for op in face.ops
        if isinstance(op, RectOp) and _mm(op.w) == 24 and _mm(op.h) == 24
    )
    assert squares == [(11.5, 44), (35.5, 20), (35.5, 44), (35.5, 68), (35.5, 92), (59.5, 44)]


def _texts(face) -> list[str]:
    return [run[2] for op in face.ops if isinstance(op, TextOp) for run in op.runs]


def test_an_action_card_shows_each_step_as_a_word_and_a_count():
    """Gem Juggle: pay yellow; move 3, swap 1, mine 2 (its effect in the catalog)."""
    _, face = _face("dragonstone-mine", "action-card", "gem-juggle")
    texts = _texts(face)
    for word in ("PAY", "MOVE", "×3", "SWAP", "×1", "MINE", "×2"):
        assert word in texts, (word, texts)
    order = [t for t in texts if t in ("MOVE", "SWAP", "MINE")]
    assert order == ["MOVE", "SWAP", "MINE"]  # top to bottom, as the steps are played


def test_an_action_card_names_whom_it_hits_and_which_gem_it_takes():
    _, heist = _face("dragonstone-mine", "action-card", "great-heist")
    shown = ("STEAL", "×3", "ONE", "RIVAL", "MINE", "×2")
    assert [text for text in _texts(heist) if text in shown] == list(shown)
    _, quake = _face("dragonstone-mine", "action-card", "earthquake")
    assert "ALL" in _texts(quake) and "RIVALS" in _texts(quake)
    _, hunt = _face("dragonstone-mine", "action-card", "red-hunt")
    hearts = [op for op in hunt.ops if isinstance(op, PolygonOp) and op.fill is not None
              and op.fill.rgb255() == (0xC6, 0x28, 0x28)]  # fmt: skip
    assert len(hearts) == 1  # the red gem beside the first MINE, from gem_colours

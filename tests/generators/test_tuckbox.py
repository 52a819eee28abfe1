"""Tuck boxes: the die-line worked by hand, then measured in the PDF (panel
sizes from the fold lines, folds dashed and cuts solid), the 5 mm edge band,
the catalog's `boxes` checked with located problems, and --tuck-box."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_reading import stroked_segments
from pypdf import PdfReader

from protopress.cli import cli
from protopress.components import InvalidInput, load_catalog
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.tuckbox import Deck, Piece, die_line
from protopress.generators.units import MM

pytest.importorskip("pypdfium2")
from test_print_edges import ink_near_edges  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "cottage-market"


def mm(value: float) -> float:
    return round(value / MM, 3)


def test_a_poker_deck_of_40_makes_a_65_x_90_x_12_mm_box():
    # 63 x 88 mm cards + 2 mm clearance; 40 x 0.3 mm = 12 mm deep
    die = die_line(Deck(63 * MM, 88 * MM, 40, 0.3 * MM, 2 * MM))
    assert (mm(die.width), mm(die.height), mm(die.depth)) == (65, 90, 12)
    front, back = die.panel(Piece.FRONT).box, die.panel(Piece.BACK).box
    assert (mm(front.x), mm(front.width), mm(front.height)) == (12, 65, 90)
    assert (mm(back.x), mm(back.width)) == (89, 65)  # side | front | side | back
    lid = die.panel(Piece.LID).box
    assert (mm(lid.y), mm(lid.height), mm(lid.x)) == (15, 12, 89)  # under a 15 mm tuck flap
    # the glue flap (10 mm) closes the row: 12 + 65 + 12 + 65 + 10; tuck, lid, body,
    # bottom, tuck: 15 + 12 + 90 + 12 + 15
    assert (mm(die.extent.width), mm(die.extent.height)) == (164, 144)
    assert len(die.folds) == 12  # 4 between the body panels and the glue flap, 8 to flaps


def test_a_thin_deck_still_folds():
    die = die_line(Deck(63 * MM, 88 * MM, 5))  # 1.5 mm of cards: the box is 3 mm deep
    assert mm(die.depth) == 3


def write_box_game(tmp_path: Path, box: dict, cards: int = 40) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "game")
    path = tmp_path / "game" / "catalog.json"
    document = json.loads(path.read_text())
    document["cards"] = [{"id": "plain", "count": cards, "title": "Plain", "text": "x"}]
    document["boxes"] = [box]
    document.pop("boards", None)  # nothing large to draw here
    document.pop("tokens", None)
    path.write_text(json.dumps(document, indent=2))
    return path


def render_box(tmp_path: Path, box: dict, cards: int = 40, paper: str = "a4"):
    catalog = load_catalog(write_box_game(tmp_path, box, cards))
    options = RenderOptions(output_dir=tmp_path / "out", layout="sheets", paper=paper,
                            layouts_dir=tmp_path / "game" / "layouts")  # fmt: skip
    return render_catalog(catalog, options)


def test_the_die_line_in_the_pdf_measures_card_plus_clearance_and_the_decks_thickness(tmp_path):
    box = {"id": "deck", "holds": ["card"], "card_thickness": "0.5mm", "clearance": "3mm"}
    options = RenderOptions(output_dir=tmp_path / "out", layout="sheets")
    catalog = load_catalog(write_box_game(tmp_path, box, cards=30))
    render_catalog(catalog, options)
    path = tmp_path / "out" / "deck-tuck-box.pdf"
    assert PdfReader(path).page_labels == ["tuck box"]
    strokes = stroked_segments(path)
    folds = [s for s in strokes if s.dashed]
    cuts = [s for s in strokes if not s.dashed]
    assert len(folds) == 12 and len(cuts) > 12
    fold_keys = {frozenset(((round(s.x1, 2), round(s.y1, 2)), (round(s.x2, 2), round(s.y2, 2))))
                 for s in folds}  # fmt: skip
    cut_keys = {frozenset(((round(s.x1, 2), round(s.y1, 2)), (round(s.x2, 2), round(s.y2, 2))))
                for s in cuts}  # fmt: skip
    assert not fold_keys & cut_keys  # no edge is both
    # the body's vertical folds: side | front | side | back | glue, measured
    body_height = max(abs(s.y2 - s.y1) for s in folds)
    verticals = sorted(s.x1 for s in folds if abs(s.x1 - s.x2) < 0.01 and
                       abs(abs(s.y2 - s.y1) - body_height) < 0.01)  # fmt: skip
    widths = [mm(b - a) for a, b in zip(verticals, verticals[1:], strict=False)]
    # card 63 x 88 mm from the layout, + 3 mm; 30 cards x 0.5 mm = 15 mm
    assert widths == [66, 15, 66]
    assert mm(body_height) == 91
    # the lid: two horizontal folds above the back, 15 mm apart
    back_left, back_right = verticals[2], verticals[3]
    over_back = sorted(s.y1 for s in folds if abs(s.y1 - s.y2) < 0.01
                       and abs(min(s.x1, s.x2) - back_left) < 0.01
                       and abs(max(s.x1, s.x2) - back_right) < 0.01)  # fmt: skip
    assert [mm(b - a) for a, b in zip(over_back, over_back[1:], strict=False)] == [15]
    # the side of the box 15 mm wide, its fold lines full height
    first_side = verticals[0] - min(s.x1 for s in cuts)
    assert mm(first_side) == 15


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_die_line_page_keeps_the_5_mm_edge_band_clear(tmp_path, paper):
    result = render_box(tmp_path, {"id": "deck", "holds": ["card"], "layout": "layouts/tuck-box.json"},
                        paper=paper)  # fmt: skip
    (path,) = (p for p in result.files if p.name == "deck-tuck-box.pdf")
    assert ink_near_edges(path) == []


def test_a_box_too_large_for_the_paper_gets_a_page_of_its_own_size_and_a_warning(tmp_path):
    # 100 cards x 1 mm: 100 mm deep, the die 2 x 100 + 2 x 65 + 10 = 340 mm wide
    result = render_box(tmp_path, {"id": "big", "holds": ["card"], "card_thickness": "1mm"}, 100)
    assert any("tuck box big: its die-line (340 x" in w for w in result.warnings)
    (page,) = PdfReader(tmp_path / "out" / "big-tuck-box.pdf").pages
    assert mm(float(page.mediabox.width)) == 340 + 2 * 8


def test_a_deck_that_is_too_wide_for_portrait_goes_landscape(tmp_path):
    # 80 cards x 0.5 mm = 40 mm: 2 x 40 + 2 x 65 + 10 = 220 mm wide, 15 + 40 + 90 + 40 + 15 = 200
    render_box(tmp_path, {"id": "wide", "holds": ["card"], "card_thickness": "0.5mm"}, 80)
    (page,) = PdfReader(tmp_path / "out" / "wide-tuck-box.pdf").pages
    assert page.mediabox.width > page.mediabox.height


def problems_of(tmp_path: Path, box: dict) -> list[str]:
    path = write_box_game(tmp_path, box)
    with pytest.raises(InvalidInput) as raised:
        load_catalog(path)
    return [f"{p.line} {p.pointer}: {p.message}" for p in raised.value.problems]


def test_a_box_holding_an_unknown_kind_is_located_with_a_suggestion(tmp_path):
    (problem,) = problems_of(tmp_path, {"id": "deck", "holds": ["crad"]})
    assert problem.endswith("/boxes/0/holds/0: 'crad' is not a kind of this catalog "
                            "(did you mean 'card'?)")  # fmt: skip


def test_a_box_with_an_absurd_thickness_or_an_unknown_key_is_located(tmp_path):
    found = problems_of(tmp_path, {"id": "deck", "holds": ["card"], "card_thickness": "9mm",
                                   "colur": "#ffffff"})  # fmt: skip
    assert any(p.endswith("/boxes/0/card_thickness: '9mm' is out of range: expected above 0 "
                          "to 5 mm") for p in found)  # fmt: skip
    assert any("/boxes/0/colur: unknown property 'colur'" in p for p in found)


def test_render_tuck_box_adds_a_box_for_a_kind_and_refuses_an_unknown_one(tmp_path):
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(cli, ["render", "gem-rush", "--kind", "gem-card", "--layout", "sheets",
                                 "--tuck-box", "gem-card", "--card-thickness", "0.5mm",
                                 "-o", str(out), "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = PdfReader(out / "gem-card-tuck-box.pdf").pages[0].extract_text()
    assert "x 0.5 mm deep" in text
    result = runner.invoke(cli, ["render", "gem-rush", "--tuck-box", "gem-crad", "-o", str(out)])
    assert result.exit_code == 2 and "gem-rush has no gem-crad" in result.output


def test_a_box_of_a_kind_without_a_layout_or_with_a_missing_layout_is_located(tmp_path):
    path = write_box_game(tmp_path, {"id": "deck", "holds": ["symbol"]})
    catalog = load_catalog(path)
    with pytest.raises(InvalidInput) as raised:
        render_catalog(catalog, RenderOptions(output_dir=tmp_path / "out"))
    (problem,) = raised.value.problems
    assert problem.pointer == "/boxes/0/holds/0" and problem.line > 1
    assert problem.message == "'symbol' has no layout, so no card size for a tuck box"
    assert not (tmp_path / "out").exists()  # nothing written
    path = write_box_game(tmp_path / "2", {"id": "deck", "holds": ["card"], "layout": "no.json"})
    with pytest.raises(InvalidInput) as raised:
        render_catalog(load_catalog(path), RenderOptions(output_dir=tmp_path / "out"))
    (problem,) = raised.value.problems
    assert problem.pointer == "/boxes/0/layout"


def test_boxes_and_tiled_boards_render_to_the_same_bytes_twice(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "game")
    catalog = load_catalog(tmp_path / "game" / "catalog.json")
    files = []
    for run in ("a", "b"):
        options = RenderOptions(output_dir=tmp_path / run, layout="sheets",
                                layouts_dir=tmp_path / "game" / "layouts")  # fmt: skip
        render_catalog(catalog, options)
        files.append({p.name: p.read_bytes() for p in (tmp_path / run).glob("*.pdf")})
    assert {"board-sheets.pdf", "cards-tuck-box.pdf"} <= set(files[0])
    assert files[0] == files[1]


def test_the_front_has_a_thumb_notch_and_tuck_box_picks_the_catalogs_own_box(tmp_path):
    die = die_line(Deck(63 * MM, 88 * MM, 40))
    front = die.panel(Piece.FRONT).box
    # the front's top edge: 8 mm radius notch in its middle, reaching 8 mm down into it
    inside = [line for line in die.cuts if front.x < line.x1 < front.right
              and front.y < max(line.y1, line.y2) < front.y + front.height / 2]  # fmt: skip
    assert inside and mm(max(max(c.y1, c.y2) for c in inside) - front.y) == 8
    assert mm(min(min(c.x1, c.x2) for c in inside)) == mm(front.x + front.width / 2 - 8 * MM)
    runner = CliRunner()
    shutil.copytree(EXAMPLE, tmp_path / "game")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["render", str(tmp_path / "game" / "catalog.json"), "--layouts",
                                 str(tmp_path / "game" / "layouts"), "--kind", "card",
                                 "--layout", "sheets", "--tuck-box", "card", "-o", str(out),
                                 "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["card-sheets.pdf", "cards-tuck-box.pdf"]

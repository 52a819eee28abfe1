"""What is the same on every card of a layout is worked out once per builder (one
render of one layout): its fonts, lengths, colours and icons' outlines. A new builder
works them out again, so a font file changed between renders is drawn."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import reportlab

from protopress.components import load_catalog
from protopress.generators import face_elements, fonts
from protopress.generators.colours import Colour
from protopress.generators.face import PolygonOp, RectOp, TextOp
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import load_layout

MM = 72 / 25.4
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
LAYOUT = {
    "kind": "card",
    "size": {"width": 60, "height": 80},
    "fonts": {"display": "Display.ttf"},
    "front": [
        {"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{title}", "font": "display"},
        {"type": "text", "x": "5mm", "y": "60mm", "w": 50, "h": 10, "text": "Rule",
         "font": "display"},
        {"type": "icons", "x": 10, "y": 20, "icon_size": 10, "gap": 2, "items": "{icons}",
         "from": "symbols"},
    ],
}  # fmt: skip


def _builder(folder: Path) -> tuple[FaceBuilder, list]:
    """A builder of the layout above for three cards, each showing a diamond icon."""
    document = {
        "game": "t", "title": "T", "version": "1",
        "symbols": [{"id": "gem", "name": "Gem", "shape": "diamond", "colour": "#884422"}],
        "cards": [{"id": f"c{n}", "title": f"Card {n}", "icons": ["gem"]} for n in range(3)],
    }  # fmt: skip
    (folder / "cat.json").write_text(json.dumps(document))
    (folder / "card.json").write_text(json.dumps(LAYOUT))
    catalog = load_catalog(folder / "cat.json")
    return FaceBuilder(load_layout(folder / "card.json"), catalog, bleed=0), catalog.of_kind("card")


def _stamps_counted(monkeypatch) -> list[Path]:
    """The font files fonts.font looks at (os.stat) to know whether they changed."""
    looked: list[Path] = []
    real = fonts._stamp

    def counting(file: Path) -> tuple[int, int, int]:
        looked.append(file)
        return real(file)

    monkeypatch.setattr(fonts, "_stamp", counting)
    return looked


def test_a_layout_font_file_is_looked_at_once_for_every_card_of_a_render(tmp_path, monkeypatch):
    shutil.copy(VERA, tmp_path / "Display.ttf")
    builder, cards = _builder(tmp_path)
    looked = _stamps_counted(monkeypatch)
    faces = [builder.build(card, "front") for card in cards]  # two texts on each of three
    assert looked == [tmp_path / "Display.ttf"]
    texts = [op for face in faces for op in face.ops if isinstance(op, TextOp)]
    assert len(texts) == 6 and all(text.font is texts[0].font for text in texts)


def test_the_next_builder_draws_a_font_file_changed_since_the_last(tmp_path, monkeypatch):
    """The next render (watch, a preview's reload) makes a new builder: the font's
    file is looked at again and the changed file is the one drawn."""
    shutil.copy(VERA, tmp_path / "Display.ttf")
    builder, cards = _builder(tmp_path)
    first = builder.build(cards[0], "front").ops[0]
    shutil.copy(VERA.with_name("VeraBd.ttf"), tmp_path / "Display.ttf")
    assert builder.build(cards[1], "front").ops[0].font == first.font  # one render: one font
    again, cards = _builder(tmp_path)
    second = again.build(cards[0], "front").ops[0]
    assert isinstance(first, TextOp) and isinstance(second, TextOp)
    assert first.font.name != second.font.name, "the font of the last render was drawn"
    assert second.font.path.read_bytes() == VERA.with_name("VeraBd.ttf").read_bytes()


def test_an_icon_outline_is_placed_once_and_is_where_its_square_is(tmp_path):
    """A diamond of 10 mm at (10 mm, 20 mm): its corners at the middle of each side."""
    shutil.copy(VERA, tmp_path / "Display.ttf")
    builder, cards = _builder(tmp_path)
    icons = [
        op for card in cards for op in builder.build(card, "front").ops
        if isinstance(op, PolygonOp)
    ]  # fmt: skip
    assert len(icons) == 3
    assert all(icon.contours is icons[0].contours for icon in icons)
    (corners,) = icons[0].contours
    expected = [(15, 20), (20, 25), (15, 30), (10, 25)]
    drawn = [coordinate / MM for corner in corners for coordinate in corner]
    assert drawn == pytest.approx([mm for corner in expected for mm in corner])


def test_a_length_is_read_as_written_whatever_was_read_before(tmp_path):
    """Lengths are remembered by their type and value: 1 and 1.0 are 1 mm, "1pt" a
    point, and True (equal to 1 in Python) stays no length at all."""
    shutil.copy(VERA, tmp_path / "Display.ttf")
    builder, _ = _builder(tmp_path)
    assert builder._length(1) == pytest.approx(MM)
    assert builder._length(1.0) == pytest.approx(MM)
    assert builder._length("1pt") == 1.0
    assert builder._length("3mm") == pytest.approx(3 * MM)
    assert builder._length("3mm") == pytest.approx(3 * MM)
    with pytest.raises(ValueError, match="is not a length"):
        builder._length(True)


def test_a_written_colour_is_parsed_once_and_a_bound_one_for_each_card(tmp_path, monkeypatch):
    layout = {
        "kind": "card", "size": {"width": 60, "height": 80},
        "front": [
            {"type": "rect", "x": 0, "y": 0, "w": 60, "h": 80, "fill": "#ff0000"},
            {"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{title}",
             "colour": "{ink}"},
        ],
    }  # fmt: skip
    document = {
        "game": "t", "title": "T", "version": "1",
        "cards": [{"id": "c1", "title": "One", "ink": "#0000ff"},
                  {"id": "c2", "title": "Two", "ink": "#00ff00"}],
    }  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(document))
    (tmp_path / "card.json").write_text(json.dumps(layout))
    catalog = load_catalog(tmp_path / "cat.json")
    builder = FaceBuilder(load_layout(tmp_path / "card.json"), catalog, bleed=0)
    parsed: list[str] = []
    real = face_elements.colour

    def counting(value, fields, key="colour"):
        parsed.append(value)
        return real(value, fields, key)

    monkeypatch.setattr(face_elements, "colour", counting)
    faces = [builder.build(card, "front") for card in catalog.of_kind("card")]
    assert [value for value in parsed if value is not None] == ["#ff0000", "{ink}", "{ink}"]
    fills = [face.ops[0].fill for face in faces if isinstance(face.ops[0], RectOp)]
    assert fills == [Colour(1, 0, 0), Colour(1, 0, 0)]
    inks = [op.colour for face in faces for op in face.ops if isinstance(op, TextOp)]
    assert inks == [Colour(0, 0, 1), Colour(0, 1, 0)]

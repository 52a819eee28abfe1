"""Named CSS colours wherever a colour is accepted: layouts, catalogs, fields."""

from __future__ import annotations

import json

import pytest
from face_drawing import at, close, face, pixels
from PIL import ImageColor

from protopress.components import load_catalog
from protopress.components.colournames import CSS_COLOURS
from protopress.components.problems import InvalidInput
from protopress.components.schemas import schema_documents
from protopress.generators.colours import Colour
from protopress.generators.layout import load_layout


def test_the_148_css_names_with_their_values():
    assert len(CSS_COLOURS) == 148
    assert CSS_COLOURS["brown"] == "#a52a2a"  # CSS Color 4, by hand
    assert CSS_COLOURS["rebeccapurple"] == "#663399"
    assert CSS_COLOURS["grey"] == CSS_COLOURS["gray"] == "#808080"
    assert set(ImageColor.colormap) == set(CSS_COLOURS)  # Pillow agrees
    for name, value in CSS_COLOURS.items():
        assert ImageColor.getrgb(name) == ImageColor.getrgb(value), name


def test_the_schema_accepts_exactly_these_names():
    enum = schema_documents()["common.schema.json"]["$defs"]["colour_name"]["enum"]
    assert enum == list(CSS_COLOURS)


def test_a_name_parses_as_its_colour():
    assert Colour.parse("brown") == Colour(165 / 255, 42 / 255, 42 / 255)
    assert Colour.parse("#A52A2A") == Colour.parse("brown")
    with pytest.raises(ValueError, match=r"'browm' is not a colour .* \(did you mean 'brown'\?\)"):
        Colour.parse("browm")


def test_a_layout_fills_with_a_name_and_a_field_holding_one(tmp_path):
    drawn = face(tmp_path, [
        {"type": "rect", "x": 0, "y": 0, "w": 30, "h": 80, "fill": "brown"},
        {"type": "rect", "x": 30, "y": 0, "w": 30, "h": 80, "fill": "{paint}"},
    ], {"paint": "steelblue"})  # fmt: skip
    image = pixels(drawn)
    assert close(at(image, 15, 40), (165, 42, 42))
    assert close(at(image, 45, 40), (70, 130, 180))  # steelblue #4682b4


def test_a_near_miss_is_located_with_the_nearest_name(tmp_path):
    layout = {"kind": "card", "size": "poker",
              "front": [{"type": "rect", "bleed": True, "fill": "browm"}]}  # fmt: skip
    (tmp_path / "card.json").write_text(json.dumps(layout))
    with pytest.raises(InvalidInput) as error:
        load_layout(tmp_path / "card.json")
    (problem,) = error.value.problems
    assert problem.pointer == "/front/0/fill"
    assert "found 'browm' (did you mean 'brown'?)" in problem.message
    assert problem.message.startswith('expected #rrggbb, a CSS colour name such as "brown"')


def test_a_catalog_colour_may_be_a_name(tmp_path):
    catalog = {"game": "t", "title": "T", "version": "1", "style": {"accent": "brown"},
               "cards": [{"id": "c1", "title": "C"}]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    assert load_catalog(tmp_path / "cat.json").document["style"]["accent"] == "brown"
    catalog["style"]["accent"] = "tomatoe"
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    with pytest.raises(InvalidInput, match="did you mean 'tomato'"):
        load_catalog(tmp_path / "cat.json")

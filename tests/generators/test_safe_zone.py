"""The safe-zone check: a zone narrower than 2 mm is itself a warning, and
text boxes and data icons outside the zone are named; every built-in layout,
small tokens included, keeps a 2 mm zone and its content inside it."""

import json

import pytest

from protopress.generators.layout import BUILTIN_LAYOUTS, MIN_SAFE_ZONE, load_layout


def layout_file(tmp_path, safe: str, front: list[dict]):
    document = {"kind": "token", "size": {"width": "15mm", "height": "15mm"}, "safe": safe,
                "front": front}  # fmt: skip
    path = tmp_path / "token.json"
    path.write_text(json.dumps(document))
    return load_layout(path)


def test_a_safe_zone_under_2_mm_is_a_warning(tmp_path):
    layout = layout_file(tmp_path, "1.2mm", [])
    assert layout.safe_zone_warnings() == [
        "token.json: safe zone of 1.2 mm is narrower than 2 mm; hand and die cuts drift more than that"
    ]
    assert layout_file(tmp_path, "2mm", []).safe_zone_warnings() == []


def test_text_and_data_icons_outside_the_zone_are_named_and_decoration_is_not(tmp_path):
    front = [
        {"type": "icon", "x": 0.5, "y": 0.5, "icon_size": 14, "shape": "circle"},  # a ring
        {"type": "icon", "x": 1, "y": 4, "icon_size": 5, "shape": "{element}"},  # data, 1 mm in
        {"type": "icon", "x": 10, "y": 11.5, "icon_size": 2, "shape": "star", "when": "stars"},
        {"type": "text", "x": 2, "y": 2, "w": 11, "h": 3, "text": "{name}"},  # inside
        {"type": "text", "x": 2, "y": 11, "w": 11, "h": 3, "text": "{name}"},  # to 14 > 13 mm
    ]
    assert layout_file(tmp_path, "2mm", front).safe_zone_warnings() == [
        "token.json /front/1: icon reaches outside the safe zone (2 mm inside the trim)",
        "token.json /front/2: icon reaches outside the safe zone (2 mm inside the trim)",
        "token.json /front/4: text box reaches outside the safe zone (2 mm inside the trim)",
    ]


@pytest.mark.parametrize("path", sorted(BUILTIN_LAYOUTS.glob("*.json")), ids=lambda p: p.stem)
def test_built_in_layouts_keep_a_2_mm_safe_zone(path):
    layout = load_layout(path)
    assert layout.safe >= MIN_SAFE_ZONE - 1e-6
    assert layout.safe_zone_warnings() == []

"""Layouts that reuse: extends, fragments, repeat, bound positions, and the located
problems of each."""

from __future__ import annotations

import json

import pytest

from protopress.components.problems import InvalidInput
from protopress.generators.layout import layouts_for, load_layout

SIZE = {"width": "63mm", "height": "88mm"}
RULER = {"type": "line", "name": "ruler", "x": 5, "y": 80, "x2": 58, "y2": 80}
TITLE = {"type": "text", "name": "title", "x": 5, "y": 5, "w": 53, "h": 9, "text": "{title}"}


def write(folder, name: str, document: dict) -> str:
    """A JSON file written one element per line, so that problems have distinct lines."""
    path = folder / name
    lines = ["{"]
    for index, (key, value) in enumerate(document.items()):
        comma = "," if index < len(document) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join(f"    {json.dumps(item)}" for item in value)
            lines.append(f'  "{key}": [\n{items}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    path.write_text("\n".join(lines + ["}"]) + "\n")
    return str(path)


def layout(folder, front=(), name="card.json", **more):
    document = {"kind": "card", "size": SIZE, "front": list(front), **more}
    return load_layout(folder / name) if write(folder, name, document) else None


def problems(path) -> list[str]:
    with pytest.raises(InvalidInput) as caught:
        load_layout(path)
    return [str(problem) for problem in caught.value.problems]


def plain(layout_, side="front", fields=None, warnings=None):
    found = [] if warnings is None else warnings
    return [element for element, _ in layout_.elements(side, fields or {}, found, "c1")]


# ---- extends ----------------------------------------------------------------------------


@pytest.fixture
def base(tmp_path):
    write(tmp_path, "base.json", {"kind": "card", "size": SIZE, "front": [TITLE, RULER],
                                  "back": [{"type": "rect", "bleed": True, "fill": "#000000"}]})  # fmt: skip
    return tmp_path


def test_extends_inherits_everything_and_overrides_by_name(base):
    own = {**TITLE, "size": 14}
    child = layout(base, [own, {"type": "rect", "x": 1, "y": 1, "w": 2, "h": 2}], "child.json",
                   extends="base.json", kind="gem-card", safe="4mm")  # fmt: skip
    assert [e["type"] for e in child.front] == ["text", "line", "rect"]  # in place, then after
    assert child.front[0]["size"] == 14 and child.kind == "gem-card"
    assert child.back == ({"type": "rect", "bleed": True, "fill": "#000000"},)
    assert round(child.safe / 72 * 25.4, 6) == 4


def test_extends_removes_by_name_and_a_child_may_omit_size_and_front(base):
    write(base, "child.json", {"kind": "card", "extends": "base.json", "remove": ["ruler"]})
    child = load_layout(base / "child.json")
    assert [e["type"] for e in child.front] == ["text"]


def test_extends_a_built_in_kind_by_name(tmp_path):
    write(tmp_path, "card.json", {"kind": "card", "extends": "card", "remove": []})
    assert len(load_layout(tmp_path / "card.json").front) == 5


def test_removing_a_name_not_inherited_is_located(base):
    path = write(base, "child.json", {"kind": "card", "extends": "base.json",
                                      "remove": ["rular"]})  # fmt: skip
    assert problems(path) == [
        f"{path}:4:14 /remove/0: no inherited element named 'rular' (did you mean 'ruler'?)"
    ]


def test_an_extends_cycle_is_located(tmp_path):
    write(tmp_path, "a.json", {"kind": "card", "extends": "b.json"})
    path = write(tmp_path, "b.json", {"kind": "card", "extends": "a.json"})
    assert problems(tmp_path / "a.json") == [
        f"{path}:3:14 /extends: extends goes round in a circle: a.json -> b.json -> a.json"
    ]


def test_a_missing_parent_is_located(tmp_path):
    path = write(tmp_path, "a.json", {"kind": "card", "extends": "nowhere.json"})
    assert problems(path) == [f"{path}:3:14 /extends: layout file 'nowhere.json' not found"]
    path = write(tmp_path, "b.json", {"kind": "card", "extends": "crad"})
    assert problems(path) == [
        f"{path}:3:14 /extends: no built-in layout 'crad' (did you mean 'card'?)"
    ]
    path = write(tmp_path, "c.json", {"kind": "card", "extends": "../c.json"})
    assert problems(path) == [
        f"{path}:3:14 /extends: layout file '../c.json' lies outside the layout's folder"
    ]


def test_a_layout_without_extends_needs_front_and_a_size_to_draw(tmp_path):
    path = write(tmp_path, "a.json", {"kind": "card"})
    assert problems(path) == [f"{path}:1:1 /: missing required property 'front'"]
    # the size may come from a declared kind instead; drawing a built-in kind needs one
    path = write(tmp_path, "card.json", {"kind": "card", "front": [TITLE]})
    with pytest.raises(InvalidInput) as raised:
        layouts_for(["card"], tmp_path)
    assert [str(p) for p in raised.value.problems] == [
        f"{path}:1:1 /: no size: give the layout a size, or declare the kind's size in the catalog"
    ]


def test_a_problem_in_the_parent_is_located_in_the_parent(base):
    write(base, "base.json", {"kind": "card", "size": SIZE, "front": [{**TITLE, "font": "fancy"}]})
    write(base, "child.json", {"kind": "card", "extends": "base.json"})
    assert problems(base / "child.json") == [
        f"{base / 'base.json'}:5:99 /front/0/font: unknown font 'fancy'; "
        "fonts: sans, sans-bold, sans-bold-italic, sans-italic"
    ]


# ---- fragments --------------------------------------------------------------------------

BADGE = [
    {"type": "rect", "x": 0, "y": 0, "w": 8, "h": 8, "fill": "{colour}"},
    {"type": "text", "x": 0, "y": 0, "w": 8, "h": 8, "text": "{label}", "when": "{field}"},
]


def test_a_fragment_is_placed_offset_with_its_own_bindings(tmp_path):
    use = {"type": "fragment", "use": "badge", "x": 10, "y": "2mm",
           "with": {"colour": "#ff0000", "label": "IN {id}", "field": "{entrance}"}}  # fmt: skip
    found = layout(tmp_path, [use], fragments={"badge": BADGE}).front
    assert found == (
        {"type": "rect", "x": 10.0, "y": 2.0, "w": 8, "h": 8, "fill": "#ff0000"},
        {"type": "text", "x": 10.0, "y": 2.0, "w": 8, "h": 8, "text": "IN {id}",
         "when": ["entrance"]},
    )  # fmt: skip


def test_fragments_come_from_a_shared_file_and_a_fragment_may_place_another(tmp_path):
    write(tmp_path, "shared.json", {"fragments": {"badge": BADGE, "two": [
        {"type": "fragment", "use": "badge", "with": {"colour": "#000000"}},
        {"type": "fragment", "use": "badge", "x": 9, "with": {"colour": "#ffffff"}}]}})  # fmt: skip
    use = {"type": "fragment", "use": "two", "y": 1, "when": "open",
           "with": {"label": "x", "field": "{id}"}}  # fmt: skip
    found = layout(tmp_path, [use], uses=["shared.json"]).front
    assert [(e["x"], e["y"], e.get("fill"), e["when"]) for e in found if e["type"] == "rect"] == [
        (0, 1.0, "#000000", ["open"]),
        (9.0, 1.0, "#ffffff", ["open"]),
    ]


def test_a_literal_bound_alone_where_text_belongs_is_text(tmp_path):
    """A `with` number or yes/no standing alone for a key that holds text (a colour, a
    shape) binds as its text, as inside a longer template; lengths and a text (which
    the face formats) keep the number. Found by the fuzzing: `"fill": "{k}"` with
    `"k": 0` reached the drawing as the number 0 (exit 70)."""
    bits = [{"type": "rect", "x": "{k}", "y": 0, "w": 8, "h": 8, "fill": "{k}"},
            {"type": "text", "x": 0, "y": 0, "w": 8, "h": 8, "text": "{k}"},
            {"type": "icon", "x": 0, "y": 0, "icon_size": 2, "shape": "{yes}"}]  # fmt: skip
    use = {"type": "fragment", "use": "bits", "with": {"k": 2.5, "yes": True}}
    found = layout(tmp_path, [use], fragments={"bits": bits}).front
    assert found == (
        {"type": "rect", "x": 2.5, "y": 0, "w": 8, "h": 8, "fill": "2.5"},
        {"type": "text", "x": 0, "y": 0, "w": 8, "h": 8, "text": 2.5},
        {"type": "icon", "x": 0, "y": 0, "icon_size": 2, "shape": "yes"},
    )


def test_an_unknown_fragment_is_located(tmp_path):
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{"type": "fragment", "use": "badeg"}], fragments={"badge": BADGE})
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'card.json'}:5:33 /front/0/use: unknown fragment 'badeg' "
        "(did you mean 'badge'?)"
    ]


def test_a_fragment_placing_itself_is_located(tmp_path):
    loop = {"a": [{"type": "fragment", "use": "b"}], "b": [{"type": "fragment", "use": "a"}]}
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{"type": "fragment", "use": "a"}], fragments=loop)
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'card.json'}:7:92 /fragments/b/0/use: fragment 'a' places itself (a -> b -> a)"
    ]


# ---- repeat -----------------------------------------------------------------------------

LABEL = {"type": "text", "x": 10, "y": 5, "w": 8, "h": 4, "text": "N{index}/{number}"}


def test_repeat_a_number_of_times_with_a_step(tmp_path):
    found = layout(tmp_path, [{**LABEL, "repeat": {"count": 3, "dx": 9, "dy": "1mm"}}]).front
    assert [(e["x"], e["y"], e["text"]) for e in found] == [
        (10, 5, "N0/1"), (19.0, 6.0, "N1/2"), (28.0, 7.0, "N2/3")
    ]  # fmt: skip


def test_repeat_in_a_grid_of_columns(tmp_path):
    repeat = {"count": 5, "dx": 10, "columns": 2, "row_dy": 20}
    found = layout(tmp_path, [{**LABEL, "repeat": repeat}]).front
    assert [(e["x"], e["y"]) for e in found] == [(10, 5), (20.0, 5), (10, 25.0), (20.0, 25.0),
                                                 (10, 45.0)]  # fmt: skip


def test_repeat_bound_to_a_number_field(tmp_path):
    found = layout(tmp_path, [{**LABEL, "repeat": {"count": "{stars}", "dx": 5}}])
    assert [e["x"] for e in plain(found, fields={"stars": 2})] == [10, 15.0]
    assert plain(found, fields={"stars": "two"}) == [] and plain(found) == []


def test_repeat_once_per_item_of_a_list_field(tmp_path):
    row = {"type": "text", "x": 5, "y": 10, "w": 50, "h": 5, "text": "{item.name}: {item}",
           "when": ["item.cost", "!{item.free}"], "repeat": {"each": "{rows}", "dy": 6}}  # fmt: skip
    found = plain(layout(tmp_path, [row]), fields={"rows": [{"name": "a"}, {"name": "b"}]})
    assert [(e["y"], e["text"], e["when"]) for e in found] == [
        (10, "{rows.0.name}: {rows.0}", ["rows.0.cost", "!rows.0.free"]),
        (16.0, "{rows.1.name}: {rows.1}", ["rows.1.cost", "!rows.1.free"]),
    ]


def test_a_bound_count_over_the_bound_is_a_located_warning(tmp_path):
    found = layout(tmp_path, [{**LABEL, "repeat": {"count": "{many}"}}])
    warnings = []
    assert len(plain(found, fields={"many": 5000}, warnings=warnings)) == 1000
    assert warnings == [
        f"c1: {tmp_path / 'card.json'}:5:94 /front/0/repeat: {{many}} gives 5000 repetitions; "
        "the first 1000 are drawn"
    ]


def test_a_literal_count_over_the_bound_is_located(tmp_path):
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{**LABEL, "repeat": {"count": 1001}}])
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'card.json'}:5:104 /front/0/repeat/count: expected an integer "
        "from 0 to 1000 or a string, found 1001"
    ]


def test_a_repeat_reaching_past_the_length_bound_is_located(tmp_path):
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{**LABEL, "repeat": {"count": 200, "dx": 10}}])
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'card.json'}:5:5 /front/0: x lands at 1010 mm, out of -1000 to 1000"
    ]


# ---- bound positions and sizes ----------------------------------------------------------


def test_positions_and_sizes_bind_to_fields(tmp_path):
    box = {"type": "rect", "x": "{slot.x}", "y": 4, "w": "{width}", "h": 3,
           "repeat": {"count": 2, "dx": 10}}  # fmt: skip
    found = plain(layout(tmp_path, [box]), fields={"slot": {"x": 5}, "width": "1in"})
    assert [(e["x"], e["w"]) for e in found] == [(5.0, 25.4), (15.0, 25.4)]


def test_a_bound_position_that_is_not_a_length_is_a_located_warning(tmp_path):
    box = {"type": "rect", "x": "{slot_x}", "y": 4, "w": 3, "h": 3}
    warnings = []
    assert plain(layout(tmp_path, [box]), fields={"slot_x": "left"}, warnings=warnings) == []
    assert warnings == [
        f"c1: {tmp_path / 'card.json'}:5:27 /front/0/x: {{slot_x}} is 'left', not a length "
        "(-1000 to 1000 mm); not drawn"
    ]


def test_a_fragment_placed_at_a_bound_position(tmp_path):
    use = {"type": "fragment", "use": "badge", "x": "{at}", "with": {"colour": "#000000",
                                                                     "label": "", "field": "x"}}  # fmt: skip
    found = plain(layout(tmp_path, [use], fragments={"badge": BADGE}), fields={"at": 7})
    assert [e["x"] for e in found] == [7.0, 7.0]


# ---- unknown element types ----------------------------------------------------------------


def test_an_unknown_element_type_is_located(tmp_path):
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{"type": "txet", "x": 1, "y": 1}])
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'card.json'}:5:14 /front/0/type: 'txet' is not one of 'rect', 'line', "
        "'ellipse', 'polygon', 'star', 'text', 'icon', 'icons', 'image', 'grid', 'table', "
        "'markers', 'legend', 'fragment' (did you mean 'text'?)"
    ]


def test_an_unknown_element_type_inside_a_fragment_file_is_located(tmp_path):
    path = write(tmp_path, "shared.json", {"fragments": {"a": [{"type": "circle"}]}})
    with pytest.raises(InvalidInput) as caught:
        layout(tmp_path, [{"type": "fragment", "use": "a"}], uses=["shared.json"])
    assert str(caught.value.problems[0]).startswith(
        f"{path}:2:32 /fragments/a/0/type: 'circle' is not one of"
    )


def test_a_repeats_index_alone_as_a_text_draws_the_number(tmp_path):
    from types import SimpleNamespace

    from protopress.components.catalog import Component
    from protopress.generators.face import TextOp
    from protopress.generators.face_builder import FaceBuilder

    text = {"type": "text", "x": 2, "y": 2, "w": 10, "h": 5, "text": "{number}",
            "repeat": {"count": 3, "dx": 10}}  # fmt: skip
    found = layout(tmp_path, [text])
    assert [e["text"] for e in found.front] == [1, 2, 3]  # the number itself, bound
    catalog = SimpleNamespace(title="t", version="1", game="g", document={})
    face = FaceBuilder(found, catalog, 0.0).build(Component("card", "c1", 1, {}), "front")
    assert [op.runs[0][2] for op in face.ops if isinstance(op, TextOp)] == ["1", "2", "3"]

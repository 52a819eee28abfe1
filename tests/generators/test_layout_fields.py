"""Layout values of the wrong type, literal or bound through fields, are located
problems (exit 1), never an internal error."""

import json

import pytest
from click.testing import CliRunner

from protopress.cli import cli

BASE = {"x": 2, "y": 2, "w": 40, "h": 40}
CASES = {
    "icon-shape-literal": ({"type": "icon", "x": 2, "y": 2, "icon_size": 5, "shape": "blob"},
                           {}, "/front/0/shape", "unknown shape 'blob'"),
    "icon-shape-field": ({"type": "icon", "x": 2, "y": 2, "icon_size": 5, "shape": "{glyph}"},
                         {"glyph": "blob"}, "/front/0/shape", "unknown shape 'blob'"),
    "markers-col-string": ({**BASE, "type": "markers", "rows": 3, "columns": 3, "items": "{marks}",
                            "from": "cards"}, {"marks": [{"element": "ruby", "col": "x"}]},
                           "/front/0/items", "expected a number for 'col' of a marker, found 'x'"),
    "markers-col-null": ({**BASE, "type": "markers", "rows": 3, "columns": 3, "items": "{marks}",
                          "from": "cards"}, {"marks": [{"element": "ruby", "col": None}]},
                         "/front/0/items", "found None"),
    "legend-items-number": ({**BASE, "type": "legend", "from": "cards", "items": "{which}",
                             "text": "{id}"}, {"which": 7}, "/front/0/items",
                            "expected a list of ids, found 7"),
    "legend-from-title": ({**BASE, "type": "legend", "from": "title", "text": "{id}"}, {},
                          "/front/0/from", "'title' is not a collection"),
    "legend-from-style": ({**BASE, "type": "legend", "from": "style", "text": "{id}"}, {},
                          "/front/0/from", "'style' is not a collection"),
    "icons-from-title": ({"type": "icons", "x": 2, "y": 2, "icon_size": 5, "items": "{which}",
                          "from": "title"}, {"which": ["a"]}, "/front/0/from",
                         "'title' is not a collection"),
    "icons-from-totals": ({"type": "icons", "x": 2, "y": 2, "icon_size": 5, "items": "{which}",
                           "from": "totals"}, {"which": ["a"]}, "/front/0/from",
                          "'totals' is not a collection"),
    "looked-up-colour-5": ({"type": "icons", "x": 2, "y": 2, "icon_size": 5, "items": "{which}",
                            "from": "cards"}, {"which": ["odd"]}, "/front/0/from",
                           "cards 'odd' has colour 5"),
    "looked-up-unknown-shape": ({"type": "icons", "x": 2, "y": 2, "icon_size": 5,
                                 "items": "{which}", "from": "cards"}, {"which": ["blob"]},
                                "/front/0/from", "unknown shape 'splodge'"),
    "table-labels-number": ({**BASE, "type": "table", "labels": "{rows}", "columns": 2},
                            {"rows": 12}, "/front/0/labels", "expected a list of row labels"),
    # found by the deep fuzzing: a colour bound to a field named neither file nor card
    "rect-fill-length": ({**BASE, "type": "rect", "fill": "{paint}"}, {"paint": "12mm"},
                         "/front/0/fill", "'12mm' is not a colour"),
    "line-stroke-list": ({"type": "line", "x": 1, "y": 1, "x2": 9, "y2": 9, "stroke": "{paint}"},
                         {"paint": ["#ffffff", "#000000"]}, "/front/0/stroke", "is not a colour"),
    "text-colour-number": ({**BASE, "type": "text", "text": "x", "colour": "{paint}"},
                           {"paint": 0}, "/front/0/colour", "'0' is not a colour"),
    "grid-fill-bad-hex": ({**BASE, "type": "grid", "rows": 2, "columns": 2, "fill": "{paint}"},
                          {"paint": "#12345g"}, "/front/0/fill", "'#12345g' is not a colour"),
}  # fmt: skip


def _assert_located(tmp_path, element, fields, pointer, message) -> None:
    """Render one card with element; expect exit 1 and the problem at the layout's pointer."""
    catalog = {
        "game": "t", "title": "T", "version": "1",
        "style": {"accent": "#112233"},
        "totals": {"cards": 4},
        "cards": [{"id": "c1", "title": "C", "count": 1, **fields},
                  {"id": "ruby", "title": "R", "shape": "circle", "colour": "#aa0000"},
                  {"id": "odd", "title": "O", "shape": "circle", "colour": 5},
                  {"id": "blob", "title": "B", "shape": "splodge"}],
    }  # fmt: skip
    layout = {"kind": "card", "size": {"width": "63mm", "height": "88mm"}, "front": [element]}
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o")])  # fmt: skip
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    where = f"{tmp_path / 'layouts' / 'card.json'}:"
    line = next((line for line in result.output.splitlines() if line.startswith(where)), "")
    assert f" {pointer}: card 'c1': " in line and message in line, result.output


def test_a_number_from_a_fragment_s_with_in_a_colour_is_a_located_problem(tmp_path):
    """Found by the fuzzing of bound repeats: `"with": {"k": 0}` into `"fill": "{k}"`
    was exit 70 (`TypeError`/`AttributeError` while drawing)."""
    layout = {"kind": "card", "size": "poker",
              "fragments": {"f": [{"type": "rect", "x": 0, "y": 0, "w": 1, "h": 1,
                                   "fill": "{k}"}]},
              "front": [{"type": "fragment", "use": "f", "with": {"k": 0}}]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(
        {"game": "t", "title": "T", "version": "1", "cards": [{"id": "c1"}]}))  # fmt: skip
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o")])  # fmt: skip
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    column = json.dumps(layout).index('"{k}"') + 1  # at the value
    assert result.output.splitlines() == [
        f"{tmp_path / 'layouts' / 'card.json'}:1:{column} /fragments/f/0/fill: card 'c1': "
        "'0' is not a colour (expected #rrggbb, or a CSS colour name such as 'brown')"
    ]
    assert not (tmp_path / "o").exists()


BOUNDED = {
    "grid-rows": ({**BASE, "type": "grid", "rows": "{n}", "columns": 3}, {"n": 10**7},
                  "/front/0/rows", "{n} is 10000000; expected 0 to 100"),
    "grid-columns-negative": ({**BASE, "type": "grid", "rows": 3, "columns": "{n}"}, {"n": -4},
                              "/front/0/columns", "{n} is -4; expected 0 to 100"),
    "table-columns": ({**BASE, "type": "table", "labels": "{rows}", "columns": "{n}"},
                      {"rows": ["a"], "n": 10**6}, "/front/0/columns", "expected 0 to 100"),
    "table-labels": ({**BASE, "type": "table", "labels": "{rows}", "columns": 2},
                     {"rows": ["a"] * 1001}, "/front/0/labels", "1001 items to draw"),
    "text-length": ({**BASE, "type": "text", "text": "{story}"}, {"story": "word " * 40_001},
                    "/front/0/text", "200005 characters to draw in one text box; expected at most 20000"),
    "icons": ({"type": "icons", "x": 2, "y": 2, "icon_size": 5, "items": "{which}",
               "from": "cards"}, {"which": ["ruby"] * 200_000}, "/front/0/items",
              "200000 items to draw; expected at most 1000"),
    "markers-rows": ({**BASE, "type": "markers", "rows": "{n}", "columns": 3, "items": "{m}",
                      "from": "cards"}, {"n": 101, "m": []}, "/front/0/rows", "expected 0 to 100"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrongly_typed_layout_value_is_a_located_problem(tmp_path, case):
    _assert_located(tmp_path, *CASES[case])


@pytest.mark.parametrize("case", sorted(BOUNDED))
def test_a_count_taken_from_a_field_is_bounded_before_drawing(tmp_path, case):
    _assert_located(tmp_path, *BOUNDED[case])


@pytest.mark.parametrize("dash", [[0], [0, 0], [0, 0, 0, 0]])
def test_a_dash_pattern_of_zeros_is_a_located_problem(tmp_path, dash):
    """Found by the deep fuzzing: reportlab refuses an all-zero dash halfway
    through the render (`setDash: array=[0]`), naming no file."""
    layout = {"kind": "card", "size": "poker",
              "front": [{"type": "line", "x": 1, "y": 1, "x2": 9, "y2": 9, "dash": dash}]}  # fmt: skip
    catalog = {"game": "t", "title": "T", "version": "1", "cards": [{"id": "c1", "title": "C"}]}
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o")])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "card.json:" in result.output and "/front/0/dash" in result.output, result.output
    assert not (tmp_path / "o").exists()


def test_a_dash_pattern_with_a_gap_still_draws(tmp_path):
    layout = {"kind": "card", "size": "poker",
              "front": [{"type": "line", "x": 1, "y": 1, "x2": 9, "y2": 9, "dash": [0, 2]}]}  # fmt: skip
    catalog = {"game": "t", "title": "T", "version": "1", "cards": [{"id": "c1", "title": "C"}]}
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o")])  # fmt: skip
    assert result.exit_code == 0, result.output


def test_a_repeat_over_a_field_that_runs_off_the_page_is_a_warning_not_a_crash(tmp_path):
    """Found by the deep fuzzing: repetitions over a long list field moved past
    1000 mm raised an uncaught LayoutProblem (exit 70). As with any position
    bound to a field, the repetitions out of range are left out with a warning
    naming the card and the element."""
    layout = {"kind": "card", "size": "poker",
              "front": [{"type": "text", "x": 2, "y": 2, "w": 20, "h": 3, "text": "{item}",
                         "repeat": {"each": "{rows}", "dy": 3}}]}  # fmt: skip
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "rows": [str(n) for n in range(400)]}]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o")])  # fmt: skip
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    assert "c1: " in result.output and "/front/0: y lands at 1001 mm" in result.output
    assert "not drawn" in result.output


@pytest.mark.parametrize("width", ["0.01mm", 0.5, "9.9mm"])
def test_a_trim_smaller_than_10_mm_is_a_located_problem(tmp_path, width):
    """Found in the bounds review: sheets fit paper / size faces across, so a
    0.01 mm card with --bleed 0 asked for millions of slots a page and never
    finished. A trim is at least 10 mm, as a declared kind's size is."""
    layout = {"kind": "card", "size": {"width": width, "height": "20mm"},
              "front": [{"type": "rect", "bleed": True, "fill": "#ff0000"}]}  # fmt: skip
    catalog = {"game": "t", "title": "T", "version": "1", "cards": [{"id": "c1", "title": "C"}]}
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout, indent=1))
    result = CliRunner().invoke(cli, ["render", str(tmp_path / "cat.json"), "--layouts",
                                      str(tmp_path / "layouts"), "-o", str(tmp_path / "o"),
                                      "--bleed", "0"])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "/size/width: " in result.output and "a trim is at least 10 mm" in result.output


def test_the_copies_of_one_kind_are_bounded_before_anything_is_written(tmp_path):
    """Each component has at most 10,000 copies, but their sum was unbounded:
    a few kilobytes of catalog asked for millions of pages."""
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": f"c{n}", "title": "C", "count": 10_000} for n in range(11)]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    result = CliRunner().invoke(
        cli, ["render", str(tmp_path / "cat.json"), "-o", str(tmp_path / "o")]
    )
    assert result.exit_code == 1, result.output
    assert "card: 110000 copies to print; at most 100000 of one kind" in result.output
    assert not (tmp_path / "o").exists()

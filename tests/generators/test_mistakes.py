"""A designer's mistakes are caught where they are made, all in one run: a layout
binding to a field no card has, located in the layout with the nearest field; the
catalog naming its layouts; text that overflows naming its element."""

import json

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.designer import new_project

TITLE = '"{title}"'


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def project(tmp_path):
    """protopress new: a catalog that names its layouts folder, five cards."""
    new_project(tmp_path / "game")
    return tmp_path / "game"


def _edit_layout(project, old: str, new: str):
    layout = project / "layouts" / "card.json"
    text = layout.read_text()
    assert old in text
    layout.write_text(text.replace(old, new))
    return layout


def _where(path, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the first needle in a file."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle} not in {path}")


def test_new_names_its_layouts_and_renders_without_the_flag(project, tmp_path):
    assert json.loads((project / "catalog.json").read_text())["layouts"] == "layouts"
    rendered = invoke("render", project / "catalog.json", "-o", tmp_path / "out", "-q")
    assert rendered.exit_code == 0, rendered.output
    assert rendered.output == ""  # the cards' cost and points are drawn: no warning
    validated = invoke("validate", project / "catalog.json")
    assert validated.stdout.splitlines() == [f"ok {project / 'catalog.json'}"]


def test_a_binding_no_card_has_is_a_located_problem_everywhere(project, tmp_path):
    layout = _edit_layout(project, '"{title}"', '"{titel}"')
    line, column = _where(layout, '"{titel}"')
    expected = (
        f"{layout}:{line}:{column} /front/2/text: 'titel' is not a field of any card "
        "(did you mean 'title'?)"
    )
    catalog = project / "catalog.json"
    validated = invoke("validate", catalog)
    assert validated.exit_code == 1
    assert expected in validated.output.splitlines()
    checked = invoke("check", catalog)
    assert checked.exit_code == 1
    assert f"error card.json: {expected}" in checked.output.splitlines()
    rendered = invoke("render", catalog, "-o", tmp_path / "out", "-q")
    assert rendered.exit_code == 1
    assert expected in rendered.output.splitlines()
    assert not (tmp_path / "out").exists()


def test_a_when_on_a_field_no_card_has_is_a_problem(project):
    _edit_layout(project, '"when": "points"', '"when": "pionts"')
    validated = invoke("validate", project / "catalog.json")
    assert validated.exit_code == 1
    assert "/front/3/when: 'pionts' is not a field of any card (did you mean 'points'?)" in (
        validated.output
    )


def test_layouts_flag_overrides_the_catalog(project, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    layout = json.loads((project / "layouts" / "card.json").read_text())
    layout["front"][2]["text"] = "{name}"
    (other / "card.json").write_text(json.dumps(layout))
    result = invoke("validate", project / "catalog.json", "--layouts", other)
    assert "'name' is not a field of any card" in result.output
    assert result.exit_code == 1


def test_a_missing_layouts_folder_is_located_at_the_key(project):
    catalog = project / "catalog.json"
    catalog.write_text(catalog.read_text().replace('"layouts": "layouts"', '"layouts": "layuots"'))
    line, column = _where(catalog, '"layuots"')
    result = invoke("validate", catalog)
    assert result.exit_code == 1
    assert result.output.startswith(
        f"{catalog}:{line}:{column} /layouts: layouts folder 'layuots' not found"
    )


def test_a_layouts_folder_outside_the_catalog_is_refused(project):
    catalog = project / "catalog.json"
    catalog.write_text(catalog.read_text().replace('"layouts": "layouts"', '"layouts": ".."'))
    result = invoke("render", catalog, "-q", "-o", project / "out")
    assert result.exit_code == 1
    assert "/layouts: layouts folder '..' lies outside the catalog's folder" in result.output


def test_without_layouts_the_built_in_look_gets_a_hint_and_no_false_suggestion(project):
    catalog = project / "catalog.json"
    catalog.write_text(catalog.read_text().replace('  "layouts": "layouts",\n', ""))
    result = invoke("validate", catalog)
    assert result.exit_code == 0
    warnings = [line for line in result.output.splitlines() if line.startswith("warning")]
    assert warnings[0] == (
        f"warning {catalog}:1:1 /: the cards are drawn with the built-in card layout, which "
        'shows only text, title: name your layouts folder in the catalog ("layouts": '
        '"layouts") or with --layouts DIR'
    )
    cost = next(line for line in warnings if "/cost:" in line)
    assert cost.endswith("field 'cost' (in 5 cards) is not used by card.json")  # not 'count'


def test_an_overflow_warning_names_the_element_and_its_field(project, tmp_path):
    catalog = project / "catalog.json"
    document = json.loads(catalog.read_text())
    document["cards"][0]["text"] = "Gain wood. " * 80
    catalog.write_text(json.dumps(document, indent=2))
    layout = project / "layouts" / "card.json"
    lines = layout.read_text().splitlines()
    text_line = lines.index('      "text": "{text}",')
    element_line = max(n for n in range(text_line) if lines[n] == "    {") + 1
    result = invoke("render", catalog, "-o", tmp_path / "out", "-q", "--layout", "sheets")
    assert result.exit_code == 0
    [warning] = [w for w in result.output.splitlines() if "does not fit" in w]
    assert warning.startswith("warning woodcutter: text 'Gain wood. Gain wood.")
    assert warning.endswith(f"even at 7 pt ({layout}:{element_line}:5 /front/6, field 'text')")


def test_the_preview_lists_what_validate_reports(project):
    from protopress.web.preview import Preview

    _edit_layout(project, '"{title}"', '"{titel}"')
    catalog = project / "catalog.json"
    document = json.loads(catalog.read_text())
    document["cards"][1]["txet"] = "a typo"
    catalog.write_text(json.dumps(document, indent=2))
    validated = invoke("validate", catalog).stdout.splitlines()
    reported = [
        line.replace(f"{project}/", "")
        for line in validated
        if line.startswith(str(project)) or line.startswith("warning")
    ]
    assert len(reported) == 2
    preview = Preview(catalog)
    assert preview.state()["problems"] == reported

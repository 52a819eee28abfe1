"""Strict fields everywhere: a declared kind's layout binds only declared (or standard)
names, each other binding a located problem at the binding; the generic card's
unused-field warning runs in validate and check too, and is an error with render --strict."""

import json

import pytest
from click.testing import CliRunner

from protopress.cli import cli

KINDS = {
    "resource-token": {
        "collection": "tokens",
        "size": "token",
        "layout": "token.json",
        "fields": {
            "title": {"type": "text"},
            "value": {"type": "integer"},
            "marks": {"type": "list", "of": {"type": "text"}},
        },  # fmt: skip
    }
}


def _project(tmp_path, front):
    catalog = {"game": "t", "title": "T", "version": "1", "kinds": KINDS,
               "tokens": [{"id": "a", "title": "A", "value": 2, "marks": ["x"]}]}  # fmt: skip
    (tmp_path / "cat.json").write_text(json.dumps(catalog, indent=1))
    layout = {"kind": "resource-token", "front": front}
    # one element a line, so that each element's line is known (line 4 is front/0)
    text = '{"kind": "resource-token",\n "front": [\n'
    text += ",\n".join(json.dumps(element) for element in front) + "\n]}\n"
    assert json.loads(text) == layout
    (tmp_path / "token.json").write_text(text)
    return tmp_path / "cat.json"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


TEXT = {"type": "text", "x": 2, "y": 2, "w": 16, "h": 6}


def test_a_binding_to_an_undeclared_field_is_located_at_the_binding(tmp_path):
    path = _project(tmp_path, [{**TEXT, "text": "{title}"}, {**TEXT, "text": "{titel} {value}"}])
    layout = tmp_path / "token.json"
    column = layout.read_text().splitlines()[3].index('"{titel}') + 1
    expected = (
        f"{layout}:4:{column} /front/1/text: 'titel' is not a field of resource-token "
        "(did you mean 'title'?)"
    )
    rendered = invoke("render", path, "-o", tmp_path / "out", "-q")
    assert rendered.exit_code == 1
    assert rendered.output.strip() == expected
    assert not (tmp_path / "out").exists()
    validated = invoke("validate", path)
    assert validated.exit_code == 1
    assert expected in validated.output
    checked = invoke("check", path)
    assert checked.exit_code == 1
    assert f"error token.json: {expected}" in checked.output


def test_a_when_test_of_an_undeclared_field_is_located(tmp_path):
    path = _project(tmp_path, [{**TEXT, "text": "{title}", "when": "!valeu"}])
    result = invoke("validate", path)
    assert result.exit_code == 1
    assert (
        "/front/0/when: 'valeu' is not a field of resource-token (did you mean 'value'?)"
    ) in result.output


def test_standard_and_repeat_names_are_known(tmp_path):
    repeat = {**TEXT, "text": "{number}/{index}: {item}", "repeat": {"each": "{marks}", "dy": 3}}
    front = [{**TEXT, "text": "{id} x{count} {kind} {catalog.title} {value}"}, repeat]
    result = invoke("validate", _project(tmp_path, front))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_an_unknown_name_without_a_near_one_lists_the_fields(tmp_path):
    result = invoke("validate", _project(tmp_path, [{**TEXT, "text": "{zzz}"}]))
    assert "'zzz' is not a field of resource-token; fields: title, value, marks, id, count" in (
        result.output
    )


CARDS = {"game": "c", "title": "C", "version": "1",
         "cards": [{"id": "a", "title": "A", "titel": "typo"}]}  # fmt: skip


@pytest.fixture
def card_catalog(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(CARDS, indent=1))
    return path


WARNING = "/cards/0/titel: field 'titel' is not used by card.json (did you mean 'title'?)"


def test_validate_warns_of_an_unused_card_field(card_catalog):
    result = invoke("validate", card_catalog)
    assert result.exit_code == 0
    assert f"warning {card_catalog}:9:4 {WARNING}" in result.output
    report = json.loads(invoke("validate", "--json", card_catalog).stdout)
    [warning] = report["catalogs"][0]["warnings"]
    assert (warning["line"], warning["pointer"]) == (9, "/cards/0/titel")


def test_check_warns_of_an_unused_card_field(card_catalog):
    result = invoke("check", card_catalog)
    assert result.exit_code == 0
    assert f"warning a: {card_catalog}:9:4 {WARNING}" in result.output


def test_render_strict_makes_an_unused_card_field_an_error(card_catalog, tmp_path):
    loose = invoke("render", card_catalog, "-o", tmp_path / "loose", "-q")
    assert loose.exit_code == 0
    assert f"warning {card_catalog}:9:4 {WARNING}" in loose.output
    strict = invoke("render", card_catalog, "-o", tmp_path / "strict", "-q", "--strict")
    assert strict.exit_code == 1
    assert strict.output.strip() == f"{card_catalog}:9:4 {WARNING}"
    assert not (tmp_path / "strict").exists()


def test_a_layouts_folder_is_what_the_fields_are_checked_against(card_catalog, tmp_path):
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "card.yaml").write_text(
        "kind: card\nsize: poker\nfront:\n  - {type: text, x: 2, y: 2, w: 50, h: 9, "
        "text: '{title} {titel}'}\n"
    )
    result = invoke("validate", card_catalog, "--layouts", folder)
    assert result.exit_code == 0
    assert "warning" not in result.output

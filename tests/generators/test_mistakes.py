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


MM = 72 / 25.4
ART_BOX = {"x": 10, "y": 40, "w": 20, "h": 30}  # mm from the trim's top-left corner
BLEED = 3  # mm, render's default


@pytest.fixture
def broken(project):
    """Two cards with art that is not there, one with an icon that does not exist,
    one with art that is: each card drawn once (count 1), so its face is on its page."""
    from PIL import Image

    layout_path = project / "layouts" / "card.json"
    layout = json.loads(layout_path.read_text())
    layout["front"].append({"type": "image", "when": "art", **ART_BOX, "path": "{art}"})
    layout_path.write_text(json.dumps(layout, indent=1))
    catalog = project / "catalog.json"
    document = json.loads(catalog.read_text())
    for card in document["cards"]:
        card["count"] = 1
    cards = {card["id"]: card for card in document["cards"]}
    cards["woodcutter"]["art"] = "art/woodcutter.png"
    cards["quarry"]["art"] = "art/quary.png"
    cards["cottage"]["text"] = "Burn :fier: to build."
    cards["market"]["art"] = "art/market.png"
    catalog.write_text(json.dumps(document, indent=2))
    (project / "art").mkdir()
    Image.new("RGB", (240, 360), "#2e7d32").save(project / "art" / "market.png")
    return project


def _problems(broken) -> list[str]:
    layout = broken / "layouts" / "card.json"
    image_line, image_column = _where(layout, '"{art}"')
    text_line, text_column = _where(layout, '"{text}"')
    return [
        f"{layout}:{text_line}:{text_column} /front/6/text: card 'cottage': unknown icon "
        "':fier:'; icons come from symbols (write \\: for a literal colon)",
        f"{layout}:{image_line}:{image_column} /front/8/path: card 'quarry': image 'art/quary.png' not "
        f"found (looked for {broken / 'art' / 'quary.png'})",
        f"{layout}:{image_line}:{image_column} /front/8/path: card 'woodcutter': image "
        f"'art/woodcutter.png' not found (looked for {broken / 'art' / 'woodcutter.png'})",
    ]


def test_every_missing_image_and_icon_is_reported_in_one_run(broken, tmp_path):
    expected = _problems(broken)
    catalog = broken / "catalog.json"
    rendered = invoke("render", catalog, "-o", tmp_path / "out", "-q")
    assert rendered.exit_code == 1
    assert rendered.stdout.splitlines() == expected
    # the files are written, every face drawn (placeholders where the art is missing)
    assert (tmp_path / "out" / "card-sheets.pdf").is_file()
    assert (tmp_path / "out" / "card-print-shop.pdf").is_file()
    validated = invoke("validate", catalog)
    assert validated.exit_code == 1
    assert validated.stdout.splitlines() == expected  # up front, the same lines
    checked = invoke("check", catalog)
    assert checked.exit_code == 1
    assert [line for line in checked.stdout.splitlines() if line.startswith("error")] == [
        f"error card.json: {line}" for line in expected
    ]


def test_strict_still_stops_at_the_first_pass(broken, tmp_path):
    result = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q", "--strict")
    assert result.exit_code == 1
    for line in _problems(broken):
        assert f"error {line}" in result.output
    assert not (tmp_path / "out").exists()


def test_a_missing_image_is_a_crossed_box_in_the_pdf(broken, tmp_path):
    from pdf_reading import stroked_segments, text_runs

    invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "--layout", "per-card")
    pdf = tmp_path / "out" / "card-print-shop.pdf"
    height = (88 + 2 * BLEED) * MM  # a per-card page: the trim and its bleed
    left, right = (BLEED + 10) * MM, (BLEED + 30) * MM
    top, bottom = height - (BLEED + 40) * MM, height - (BLEED + 70) * MM
    # woodcutter comes first: its front is page 0; its diagonals corner to corner
    segments = {(round(s.x1, 2), round(s.y1, 2), round(s.x2, 2), round(s.y2, 2))
                for s in stroked_segments(pdf, 0)}  # fmt: skip
    assert (round(left, 2), round(top, 2), round(right, 2), round(bottom, 2)) in segments
    assert (round(left, 2), round(bottom, 2), round(right, 2), round(top, 2)) in segments
    [name] = [run for run in text_runs(pdf, 0) if run.text.strip() == "art/woodcutter.png"]
    assert left < name.x < right and bottom < name.baseline < top
    # market's art is there: no crossed box on its page (page 8: the fifth card's front)
    assert not any(s.x1 == left for s in stroked_segments(pdf, 8))


def test_a_missing_image_is_a_crossed_box_in_the_png(broken, tmp_path):
    from PIL import Image

    invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "--png", "--dpi", "150")
    folder = tmp_path / "out" / "png" / "card"

    def pixel(name: str, x_mm: float, y_mm: float):
        with Image.open(folder / name) as image:
            dots = 150 / 25.4
            return image.convert("RGB").getpixel(
                (round((BLEED + x_mm) * dots), round((BLEED + y_mm) * dots))
            )

    # on the diagonal a quarter of the way down, red; off both diagonals, the pale
    # fill; in the cottage's text the unknown icon is its name: no shape is drawn
    red = pixel("woodcutter-front.png", 10 + 5, 40 + 7.5)
    assert red[0] > 180 and red[1] < 110 and red[2] < 110
    assert pixel("woodcutter-front.png", 23, 47) == (255, 237, 237)
    assert pixel("market-front.png", 20, 55) == (0x2E, 0x7D, 0x32)  # the art itself


def test_the_preview_lists_the_problems_validate_reports(broken):
    from protopress.web.preview import Preview

    _edit_layout(broken, '"{title}"', '"{titel}"')
    catalog = broken / "catalog.json"
    document = json.loads(catalog.read_text())
    document["cards"][1]["txet"] = "a typo"
    catalog.write_text(json.dumps(document, indent=2))
    validated = invoke("validate", catalog)
    reported = sorted(
        line.replace(f"warning {broken}/", "warning ").removeprefix(f"{broken}/")
        for line in validated.stdout.splitlines()
    )
    state = Preview(catalog).state()
    listed = state["problems"] + [
        problem
        for kind in state["kinds"]
        for component in kind["components"]
        for problem in component["problems"]
    ]
    assert len(reported) == 5  # {titel}, two images, one icon; the txet field (a warning)
    assert sorted(listed) == reported


def test_catalog_and_layout_problems_come_in_one_run(project, tmp_path):
    catalog = project / "catalog.json"
    catalog.write_text(catalog.read_text().replace('"count": 3', '"count": "three"', 1))
    layout = _edit_layout(project, '"type": "line"', '"type": "lien"')
    line, column = _where(layout, '"lien"')
    catalog_line, catalog_column = _where(catalog, '"three"')
    layout_problem = (
        f"{layout}:{line}:{column} /front/5/type: 'lien' is not one of 'rect', 'line', "
        "'ellipse', 'polygon', 'star', 'text', 'icon', 'icons', 'image', 'grid', 'table', "
        "'markers', 'legend', 'fragment' (did you mean 'line'?)"
    )
    for command in ("validate", "render", "check"):
        result = invoke(command, catalog, *(["-o", tmp_path / "out"] * (command == "render")))
        assert result.exit_code == 1
        lines = result.stdout.splitlines()
        assert lines[0].startswith(f"{catalog}:{catalog_line}:{catalog_column} /cards/0/count:")
        assert layout_problem in lines


def test_import_checks_the_columns_against_the_layouts_at_their_header(project):
    table = project / "cards.csv"
    table.write_text(table.read_text().replace("id,count,title,", "id,count,titel,", 1))
    result = invoke("import", table, "--kind", "card", "-o", project / "catalog.json")
    assert result.exit_code == 0, result.output  # the catalog is valid: it is written
    assert f"warning {table}!C1: field 'titel' (in 5 cards) is not used by card.json " in (
        result.output
    )
    assert "(did you mean 'title'?)" in result.output
    # and the layout's {title}, which no card has now, at the binding
    layout = project / "layouts" / "card.json"
    line, column = _where(layout, '"{title}"')
    assert (
        f"warning {layout}:{line}:{column} /front/2/text: 'title' is not a field of any card "
        "(did you mean 'titel'?)"
    ) in result.output


def test_import_names_the_source_and_the_layouts_beside_the_catalog(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "cards.csv").write_text("id,title\nace,Ace\n")
    catalog = tmp_path / "deck.json"
    result = invoke("import", tmp_path / "cards.csv", "--kind", "card", "-o", catalog)
    assert result.exit_code == 0, result.output
    document = json.loads(catalog.read_text())
    assert list(document)[:6] == ["game", "title", "version", "layouts", "sources", "cards"]
    assert (document["layouts"], document["sources"]) == ("layouts", {"card": "cards.csv"})


def test_render_refusing_a_binding_lists_the_missing_art_of_the_same_run(broken, tmp_path):
    layout = _edit_layout(broken, '"{title}"', '"{titel}"')
    line, column = _where(layout, '"{titel}"')
    result = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == sorted(
        [
            f"{layout}:{line}:{column} /front/2/text: 'titel' is not a field of any card "
            "(did you mean 'title'?)",
            *_problems(broken),
        ],
        key=lambda text: int(text.split(":")[1]),  # in the layout's order, as validate
    )
    assert not (tmp_path / "out").exists()


def _names_drawn(pdf) -> list[str]:
    """The missing images' names drawn in their crossed boxes, page by page."""
    from pdf_reading import text_runs
    from pypdf import PdfReader

    pages = len(PdfReader(pdf).pages)
    found = [run.text.strip() for page in range(pages) for run in text_runs(pdf, page)]
    return [text for text in found if text.startswith("art/")]


def test_a_preset_draws_every_missing_image_as_a_placeholder_and_goes_on(broken, tmp_path):
    """render --preset goes on past a missing image as render does: every face drawn,
    every problem listed once, the files written, exit 1."""
    rendered = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q",
                      "--preset", "drivethrucards")  # fmt: skip
    assert rendered.exit_code == 1
    assert rendered.stdout.splitlines() == _problems(broken)
    pdf = tmp_path / "out" / "drivethrucards" / "card-print-shop.pdf"
    # the two cards without their art are drawn, each with its image's name in the box
    assert sorted(_names_drawn(pdf)) == ["art/quary.png", "art/woodcutter.png"]


def test_a_png_preset_writes_every_face_past_a_missing_image(broken, tmp_path):
    rendered = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q",
                      "--preset", "tgc")  # fmt: skip
    assert rendered.exit_code == 1
    assert rendered.stdout.splitlines() == _problems(broken)
    cards = [card["id"] for card in json.loads((broken / "catalog.json").read_text())["cards"]]
    for card in cards:
        assert (tmp_path / "out" / "tgc" / f"card-{card}-front.png").is_file()


def test_tts_and_ttpg_draw_placeholders_and_list_each_problem_once(broken, tmp_path):
    """The table-top exports draw the faces again: their problems are the print
    files' and are listed once."""
    rendered = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q", "--tts",
                      "--ttpg")  # fmt: skip
    assert rendered.exit_code == 1
    assert rendered.stdout.splitlines() == _problems(broken)
    assert "3 problems drawn as placeholders" in rendered.stderr
    assert (tmp_path / "out" / "tts" / "card.json").is_file()
    assert (tmp_path / "out" / "ttpg" / "Templates" / "card.json").is_file()


def test_strict_stops_a_preset_before_anything_is_written(broken, tmp_path):
    result = invoke("render", broken / "catalog.json", "-o", tmp_path / "out", "-q", "--strict",
                    "--preset", "drivethrucards")  # fmt: skip
    assert result.exit_code == 1
    for line in _problems(broken):
        assert f"error {line}" in result.output
    assert not (tmp_path / "out").exists()


def test_strict_stops_the_table_top_exports_listing_every_missing_image(broken, tmp_path):
    from protopress.components import load_catalog
    from protopress.generators.render import RenderOptions, TextDoesNotFit
    from protopress.generators.tts import write_tts

    catalog = load_catalog(broken / "catalog.json")
    options = RenderOptions(tmp_path / "out", layouts_dir=broken / "layouts", strict=True)
    with pytest.raises(TextDoesNotFit) as stopped:
        write_tts(catalog, options, problems=[])
    listed = stopped.value.warnings  # in catalog order
    assert len(listed) == 3 and set(listed) == set(_problems(broken))
    assert not (tmp_path / "out").exists()

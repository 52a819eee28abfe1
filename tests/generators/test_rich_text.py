"""Rich text: inline icons on the baseline that wrap with the words, bold and
italic spans, escapes, and problems with the markup located at the element."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdf_reading import filled_paths, text_runs

from protopress.components import load_catalog
from protopress.generators.markup import Icon, MarkupError, Span, has_markup, parse, plain
from protopress.generators.render import RenderOptions, RenderResult, render_catalog

MM = 72 / 25.4
BOX = {"x": 5, "y": 10, "w": 40, "h": 30}


def render(tmp_path: Path, text: str, **element) -> Path:
    return rendered(tmp_path, text, **element)[0]


def rendered(tmp_path: Path, text: str, png: bool = False, **element) -> tuple[Path, list[str]]:
    result = render_result(tmp_path, text, png, **element)
    return tmp_path / "out" / "card-print-shop.pdf", result.warnings


def render_result(tmp_path: Path, text: str, png: bool = False, **element) -> RenderResult:
    catalog = {
        "game": "t", "title": "T", "version": "1",
        "symbols": [{"id": "gold", "name": "Gold", "shape": "circle", "colour": "#d4a017"},
                    {"id": "ruby", "name": "Ruby", "shape": "drop", "colour": "#c0392b"}],
        "cards": [{"id": "c1", "title": "C", "count": 1, "text": text}],
    }  # fmt: skip
    layout = {
        "kind": "card",
        "size": {"width": "63mm", "height": "88mm"},
        "front": [{"type": "text", **BOX, "text": "{text}", "size": 10, **element}],
    }
    (tmp_path / "layouts").mkdir(exist_ok=True)
    (tmp_path / "cat.json").write_text(json.dumps(catalog))
    (tmp_path / "layouts" / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(tmp_path / "out", layout="per-card", layouts_dir=tmp_path / "layouts",
                            png=png)  # fmt: skip
    return render_catalog(load_catalog(tmp_path / "cat.json"), options)


def box_on_page() -> tuple[float, float, float, float]:
    """The text box (left, bottom, right, top) in page points: trim plus 3 mm bleed."""
    height = (88 + 6) * MM
    left, top = (BOX["x"] + 3) * MM, height - (BOX["y"] + 3) * MM
    return left, top - BOX["h"] * MM, left + BOX["w"] * MM, top


# ---- the markup ---------------------------------------------------------


def test_markup_parses_into_spans_and_icons():
    assert parse("Pay :gold: to <b>draw</b> <i>one</i>") == (
        Span("Pay "), Icon("gold"), Span(" to "), Span("draw", bold=True), Span(" "),
        Span("one", italic=True),
    )  # fmt: skip
    assert parse("<b><i>both</i></b>") == (Span("both", bold=True, italic=True),)


def test_escapes_and_ordinary_colons_and_brackets_stay_text():
    assert plain(parse(r"\:gold: costs 10:30 \<b> a < b \\")) == ":gold: costs 10:30 <b> a < b \\"
    assert not has_markup("Cost: 2, time 10:30, a < b")
    assert has_markup("Pay :gold:")


@pytest.mark.parametrize(
    "text", ["<b>open", "</i>closed", "<b><b>twice</b></b>", "<b><i>x</b></i>"]
)
def test_unbalanced_spans_are_refused(text):
    with pytest.raises(MarkupError):
        parse(text)


# ---- drawn --------------------------------------------------------------


def test_text_extracts_without_markup_and_bold_words_use_the_bold_font(tmp_path):
    pdf = render(tmp_path, "Pay :gold: to <b>draw</b> a card")
    runs = text_runs(pdf)
    text = "".join(run.text for run in runs)
    assert "Pay" in text and "draw" in text and ":gold:" not in text and "<b>" not in text
    fonts = {run.text.strip(): run.font for run in runs if run.text.strip()}
    assert "Bold" in fonts["draw"] or "Bd" in fonts["draw"]
    assert not any("Bd" in font or "Bold" in font for word, font in fonts.items() if "Pay" in word)


def test_an_icon_sits_on_the_baseline_inside_the_box(tmp_path):
    pdf = render(tmp_path, "Pay :gold: now")
    (baseline,) = {round(run.baseline, 2) for run in text_runs(pdf)}
    (icon,) = filled_paths(pdf)
    left, bottom, right, top = box_on_page()
    xs, ys = [x for x, _ in icon], [y for _, y in icon]
    assert left <= min(xs) and max(xs) <= right and bottom <= min(ys) and max(ys) <= top + 1e-3
    assert baseline - 0.5 <= min(ys) <= baseline + 1.5  # the circle's foot on the baseline
    assert max(ys) - min(ys) <= 10.01  # at the text's size


def test_icons_wrap_with_the_words(tmp_path):
    words = " ".join(["word"] * 12)
    pdf = render(tmp_path, f"{words} :ruby: end")
    baselines = sorted({round(run.baseline, 2) for run in text_runs(pdf)}, reverse=True)
    assert len(baselines) >= 2
    (icon,) = filled_paths(pdf)
    foot = min(y for _, y in icon)
    assert abs(foot - baselines[-1]) < 1.5  # on the last line, not the first
    left, bottom, right, top = box_on_page()
    assert all(left <= x <= right for x, _ in icon)


def test_letters_touching_an_icon_stay_on_its_line(tmp_path):
    """No line breaks between an icon and the letters or icons touching it: at
    every width the full stop stays right after the ruby, the bracket right
    before it, and the two icons of ':gold::ruby:' together."""
    text = "Pay two gold (:ruby:). Then draw a card :gold::ruby:, and more"
    widths_with_the_ruby_first_on_a_line = 0
    for width in range(20, 41):
        pdf = render(tmp_path, text, w=width)
        runs = [run for run in text_runs(pdf) if run.text.strip()]
        first_ruby, gold, second_ruby = sorted(
            filled_paths(pdf), key=lambda p: -min(y for _, y in p)
        )[:3]
        feet = [round(min(y for _, y in icon), 1) for icon in (first_ruby, gold, second_ruby)]
        ruby_left, ruby_right = min(x for x, _ in first_ruby), max(x for x, _ in first_ruby)
        stop = next(run for run in runs if run.text.strip() == ").")
        bracket = next(run for run in runs if run.text.strip() == "(")
        assert abs(stop.baseline - feet[0]) < 1.5, width  # the same line as the ruby
        assert 0 <= stop.x - ruby_right < 2.0, (
            width
        )  # right after it (the drop is narrower than its box)
        assert abs(bracket.baseline - feet[0]) < 1.5 and bracket.x < ruby_left, width
        assert feet[1] == feet[2], width  # gold and ruby glued
        left = box_on_page()[0]
        widths_with_the_ruby_first_on_a_line += bracket.x - left < 0.5
    assert widths_with_the_ruby_first_on_a_line  # the bracket-and-icon word did wrap


def test_rich_text_shrinks_to_fit_and_reports_overflow(tmp_path):
    _, warnings = rendered(tmp_path, "Pay :gold: <b>now</b> " * 4, min_size=6)
    assert not warnings
    _, warnings = rendered(tmp_path, " ".join([":gold: <b>much</b> text"] * 60), min_size=9)
    assert any("does not fit" in warning and "9 pt" in warning for warning in warnings)


def test_an_unknown_icon_is_located_with_a_suggestion(tmp_path):
    # drawn as its name, [gld?], and reported: the render goes on and fails at the end
    (problem,) = render_result(tmp_path, "Pay :gld: now").problems
    assert "card.json" in str(problem) and "/front/0/text" in str(problem)
    assert ":gld:" in str(problem) and "did you mean ':gold:'?" in str(problem)
    assert (tmp_path / "out" / "card-print-shop.pdf").is_file()


def test_icons_come_from_the_named_collection(tmp_path):
    problems = render_result(tmp_path, "Pay :gold: now", icons="cards").problems
    assert "unknown icon ':gold:'" in str(problems[0])


def test_the_same_markup_renders_the_same_bytes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = render(tmp_path / "a", "A :gold: <i>b</i>")
    assert first.read_bytes() == render(tmp_path / "b", "A :gold: <i>b</i>").read_bytes()


def test_the_png_is_the_pdf_rasterised_icons_and_all(tmp_path):
    from PIL import Image

    render_png = rendered(tmp_path, "Pay :gold: now", png=True)[0].parent / "png" / "card"
    with Image.open(render_png / "c1-front.png") as image:
        colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    assert (0xD4, 0xA0, 0x17) in colours  # the gold icon, drawn by the PDF code

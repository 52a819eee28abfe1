"""<span color size font> inside rich text, and the warning for <i> in a font without an italic."""

from __future__ import annotations

import shutil

import pytest
from face_drawing import face, operations

from protopress.generators.face_builder import FaceProblem
from protopress.generators.fonts import BUILTIN_FONTS
from protopress.generators.markup import MarkupError, Span, parse

TEXT = {"type": "text", "x": 5, "y": 5, "w": 50, "h": 40, "size": 10}


def test_a_span_carries_its_colour_size_and_font_and_inner_spans_win():
    assert parse('a <span color="red" size="12">b <span font="body" size="8">c</span></span>') == (
        Span("a "), Span("b ", colour="red", size=12), Span("c", colour="red", size=8, font="body"),
    )  # fmt: skip
    assert parse('<b><span colour="#112233">x</span></b>') == (
        Span("x", bold=True, colour="#112233"),
    )
    assert parse("a <spanner> b") == (Span("a <spanner> b"),)  # not a tag: text


@pytest.mark.parametrize(("text", "message"), [
    ("<span>x</span>", "is not read"),
    ('<span weight="bold">x</span>', "no attribute 'weight'"),
    ('<span size="0.5">x</span>', "is not a size"),
    ('<span size="big">x</span>', "is not a size"),
    ('<span color="red">x', "<span> is not closed"),
    ("x</span>", "</span> closes a <span> that is not open"),
])  # fmt: skip
def test_a_span_that_cannot_be_read_is_refused(text, message):
    with pytest.raises(MarkupError, match=message):
        parse(text)


def _runs(drawn) -> list[tuple[str, float, tuple[float, ...]]]:
    """(font, size, fill colour) of each text showing operator, in order."""
    found, font, size, fill = [], "", 0.0, ()
    for operands, op in operations(drawn):
        if op == b"Tf":
            font, size = str(operands[0]), float(operands[1])
        elif op == b"rg":
            fill = tuple(round(float(v), 3) for v in operands)
        elif op in (b"Tj", b"TJ"):
            found.append((font, size, fill))
    return found


def test_a_span_is_drawn_in_its_colour_size_and_font(tmp_path):
    text = 'Pay <span color="crimson" size="20">3</span> <span font="sans-bold">now</span>'
    drawn = face(tmp_path, [{**TEXT, "text": text}])
    crimson = (round(220 / 255, 3), round(20 / 255, 3), round(60 / 255, 3))  # #dc143c
    fonts = {str(operands[0]) for operands, op in operations(drawn) if op == b"Tf"}
    runs = _runs(drawn)
    assert (20.0, crimson) in {(size, fill) for _, size, fill in runs}
    sizes = {size for _, size, _ in runs}
    assert sizes == {10.0, 20.0}
    assert len(fonts) == 2  # the text's sans and the span's sans-bold


def test_a_span_shrinks_with_the_text(tmp_path):
    # 10 pt text that only fits at a smaller size: the 20 pt span keeps twice its size
    text = 'Pay <span size="20">3</span> ' + "word " * 40
    drawn = face(tmp_path, [{**TEXT, "h": 12, "text": text}])
    sizes = sorted({size for _, size, _ in _runs(drawn)})
    assert len(sizes) == 2 and sizes[0] < 10
    assert sizes[1] == pytest.approx(2 * sizes[0])


def test_an_unknown_span_font_or_colour_is_a_problem_at_the_text(tmp_path):
    with pytest.raises(FaceProblem) as error:
        face(tmp_path, [{**TEXT, "text": '<span font="sans-blod">x</span>'}])
    (problem,) = error.value.problems
    assert problem.pointer == "/front/0/text"
    assert "<span font='sans-blod'>: unknown font (did you mean 'sans-bold'?)" in problem.message
    with pytest.raises(FaceProblem, match="<span color='browm'>: 'browm' is not a colour"):
        face(tmp_path, [{**TEXT, "text": '<span color="browm">x</span>'}])


def test_italic_in_a_font_without_one_is_warned(tmp_path):
    shutil.copy(BUILTIN_FONTS["sans"], tmp_path / "Body.ttf")
    fonts = {"body": "Body.ttf"}
    drawn = face(tmp_path, [{**TEXT, "font": "body", "text": "a <i>b</i>"}], fonts=fonts)
    assert drawn.warnings == (  # and drawn slanted (test_synthesised_italic.py)
        "c1: <i> is drawn slanted: the layout has no italic of the font 'body' (add one as "
        "body-italic under fonts)",
    )
    shutil.copy(BUILTIN_FONTS["sans-italic"], tmp_path / "BodyItalic.ttf")
    fonts["body-italic"] = "BodyItalic.ttf"
    assert (
        face(tmp_path, [{**TEXT, "font": "body", "text": "a <i>b</i>"}], fonts=fonts).warnings == ()
    )
    assert face(tmp_path, [{**TEXT, "text": "a <i>b</i>"}]).warnings == ()  # sans has one

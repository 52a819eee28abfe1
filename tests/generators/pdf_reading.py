"""Read back what a page draws: text runs with their fonts and baselines, and the
points of every filled path, in page coordinates (points, y up)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream


@dataclass(frozen=True)
class Run:
    text: str
    font: str
    x: float
    baseline: float


def _multiply(a, b):
    return [
        a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5],
    ]  # fmt: skip


def text_runs(path: Path, page: int = 0) -> list[Run]:
    runs: list[Run] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            matrix = _multiply(tm, cm)
            name = str(font.get("/BaseFont", "")) if font else ""
            runs.append(Run(text, name.split("+")[-1], matrix[4], matrix[5]))

    PdfReader(path).pages[page].extract_text(visitor_text=visit)
    return runs


def filled_paths(path: Path, page: int = 0) -> list[list[tuple[float, float]]]:
    """The points of each path filled on the page (forms are not entered)."""
    reader = PdfReader(path)
    content = ContentStream(reader.pages[page].get_contents(), reader)
    matrix, stack, current, paths = [1, 0, 0, 1, 0, 0], [], [], []
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(matrix)
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            matrix = _multiply([float(v) for v in operands], matrix)
        elif operator in (b"m", b"l"):
            x, y = (float(v) for v in operands)
            current.append((matrix[0] * x + matrix[2] * y + matrix[4],
                            matrix[1] * x + matrix[3] * y + matrix[5]))  # fmt: skip
        elif operator in (b"f", b"f*", b"B", b"B*", b"b", b"b*"):
            paths.append(current)
            current = []
        elif operator in (b"n", b"S", b"s"):
            current = []
    return paths


def image_boxes(path: Path, page: int = 0) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of each image drawn on the page, from its matrix."""
    reader = PdfReader(path)
    content = ContentStream(reader.pages[page].get_contents(), reader)
    matrix, stack, boxes = [1, 0, 0, 1, 0, 0], [], []
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(matrix)
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            matrix = _multiply([float(v) for v in operands], matrix)
        elif operator == b"Do":
            boxes.append((matrix[4], matrix[5], matrix[0], matrix[3]))
    return boxes


def filled_bounds(path: Path, rgb: tuple[float, float, float], page: int = 0):
    """(left, bottom, right, top) of everything the page fills in colour rgb
    (rectangles, lines and curve points, forms not entered), or None."""
    reader = PdfReader(path)
    content = ContentStream(reader.pages[page].get_contents(), reader)
    matrix, stack, points, current, fill = [1, 0, 0, 1, 0, 0], [], [], [], None

    def at(x, y):
        return (
            matrix[0] * x + matrix[2] * y + matrix[4],
            matrix[1] * x + matrix[3] * y + matrix[5],
        )

    for operands, operator in content.operations:
        values = (
            [float(v) for v in operands]
            if operator in (b"cm", b"re", b"m", b"l", b"c", b"rg")
            else []
        )
        if operator == b"q":
            stack.append((matrix, fill))
        elif operator == b"Q":
            matrix, fill = stack.pop()
        elif operator == b"cm":
            matrix = _multiply(values, matrix)
        elif operator == b"rg":
            fill = tuple(round(v, 3) for v in values)
        elif operator == b"re":
            x, y, w, h = values
            current += [at(x, y), at(x + w, y + h)]
        elif operator in (b"m", b"l", b"c"):
            current += [at(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif operator in (b"f", b"f*", b"B", b"B*", b"b", b"b*"):
            if fill == tuple(round(v, 3) for v in rgb):
                points += current
            current = []
        elif operator in (b"n", b"S", b"s"):
            current = []
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def xobject_subtypes(path: Path) -> list[str]:
    """The subtype of every XObject of every page, forms entered (e.g. ['/Form', '/Image'])."""
    found: list[str] = []

    def visit(resources):
        xobjects = resources.get("/XObject") if resources else None
        for ref in (xobjects or {}).values():
            xobject = ref.get_object()
            found.append(str(xobject.get("/Subtype")))
            if xobject.get("/Subtype") == "/Form":
                visit(xobject.get("/Resources"))

    for page in PdfReader(path).pages:
        visit(page.get("/Resources"))
    return found


def operators(path: Path, page: int = 0) -> Counter[bytes]:
    """How often the page uses each content operator, forms entered (an inline
    image counts as b"INLINE IMAGE")."""
    reader = PdfReader(path)
    found = Counter(
        op for _, op in ContentStream(reader.pages[page].get_contents(), reader).operations
    )

    def visit(resources):
        xobjects = resources.get("/XObject") if resources else None
        for ref in (xobjects or {}).values():
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                found.update(op for _, op in ContentStream(xobject, reader).operations)
                visit(xobject.get("/Resources"))

    visit(reader.pages[page].get("/Resources"))
    return found


@dataclass(frozen=True)
class Stroke:
    """A straight stroked segment in page coordinates (points, y up), and
    whether it was drawn dashed."""

    x1: float
    y1: float
    x2: float
    y2: float
    dashed: bool


def stroked_segments(path: Path, page: int = 0) -> list[Stroke]:
    """Every straight segment stroked on the page (forms are not entered)."""
    reader = PdfReader(path)
    content = ContentStream(reader.pages[page].get_contents(), reader)
    matrix, dashed, stack, current, found = [1, 0, 0, 1, 0, 0], False, [], [], []

    def at(x, y):
        return (
            matrix[0] * x + matrix[2] * y + matrix[4],
            matrix[1] * x + matrix[3] * y + matrix[5],
        )

    for operands, operator in content.operations:
        if operator == b"q":
            stack.append((matrix, dashed))
        elif operator == b"Q":
            matrix, dashed = stack.pop()
        elif operator == b"cm":
            matrix = _multiply([float(v) for v in operands], matrix)
        elif operator == b"d":
            dashed = len(operands[0]) > 0
        elif operator == b"m":
            current = [at(*(float(v) for v in operands))]
        elif operator == b"l":
            current.append(at(*(float(v) for v in operands)))
        elif operator in (b"S", b"s"):
            for (x1, y1), (x2, y2) in zip(current, current[1:], strict=False):
                found.append(Stroke(x1, y1, x2, y2, dashed))
            current = []
        elif operator in (b"n", b"f", b"f*", b"B", b"B*", b"b", b"b*", b"re", b"c"):
            current = [] if operator != b"re" else current
    return found

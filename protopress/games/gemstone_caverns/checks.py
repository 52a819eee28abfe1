"""Gemstone Caverns set checks: symbols on the dice, tray shapes, score sheet.

The tray shapes come from enumerating polyominoes, which the rules engine
reuses: every die touches another along a full edge, and a shape may be
rotated but never mirrored when drawn, so the shapes that matter are the
one-sided polyominoes (seven for four dice). "Each die touching at least one
other" is read as one connected shape: two separate dominoes meet the letter
of that rule but are not "the shape" the rules have players draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator

from protopress.components import Catalog
from protopress.validators.findings import Check, Finding

# A symbol on more than this many times the faces of another skews the groups
# players can build towards it.
MAX_FACE_RATIO = 1.5

Cell = tuple[int, int]  # (row, column), rows run down the page
Shape = frozenset[Cell]

# Names of the tetrominoes, drawn row by row ("#" a die, "." a gap, "/" a new
# row). They only name shapes; the shapes themselves are enumerated.
TETROMINO_PICTURES = {
    "I": "####",
    "O": "##/##",
    "T": "###/.#.",
    "S": ".##/##.",
    "Z": "##./.##",
    "L": "#./#./##",
    "J": ".#/.#/##",
}

MAX_ENUMERATED_CELLS = 8  # the count grows about fourfold a cell; 10 cells take a second


def normalise(cells: Collection[Cell]) -> Shape:
    """The cells shifted so that the top row and the left column are 0."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def rotations(shape: Collection[Cell]) -> tuple[Shape, ...]:
    """The distinct quarter turns of a shape, normalised, the shape first."""
    turns = [normalise(shape)]
    for _ in range(3):
        turns.append(normalise({(c, -r) for r, c in turns[-1]}))
    return tuple(dict.fromkeys(turns))


def canonical(shape: Collection[Cell], mirror: bool = False) -> Shape:
    """One representative of the shape's rotations (and mirror images if mirror)."""
    variants = list(rotations(shape))
    if mirror:
        variants += rotations({(r, -c) for r, c in shape})
    return min(variants, key=sorted)


def polyominoes(cells: int, mirror: bool = False) -> tuple[Shape, ...]:
    """Every connected shape of `cells` edge-joined squares, one per class.

    Without mirror, shapes that are mirror images of each other are different
    (one-sided polyominoes); with mirror they are one (free polyominoes).
    """
    shapes = {frozenset({(0, 0)})}
    for _ in range(cells - 1):
        shapes = {
            canonical(shape | {(r + dr, c + dc)}, mirror)
            for shape in shapes
            for r, c in shape
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if (r + dr, c + dc) not in shape
        }
    return tuple(sorted(shapes, key=sorted))


def parse_picture(picture: str) -> Shape:
    return frozenset(
        (r, c)
        for r, row in enumerate(picture.split("/"))
        for c, mark in enumerate(row)
        if mark == "#"
    )


def picture(shape: Collection[Cell]) -> str:
    """The shape drawn row by row, as in TETROMINO_PICTURES."""
    shape = normalise(shape)
    rows = range(max(r for r, _ in shape) + 1)
    columns = range(max(c for _, c in shape) + 1)
    return "/".join("".join("#" if (r, c) in shape else "." for c in columns) for r in rows)


def shape_name(shape: Collection[Cell], mirror: bool = False) -> str:
    """The tetromino letter of a shape, or its picture for other shapes."""
    key = canonical(shape, mirror)
    for name, drawn in TETROMINO_PICTURES.items():
        if canonical(parse_picture(drawn), mirror) == key:
            return name
    return picture(key)


def _names(shapes: Iterable[Shape], mirror: bool) -> list[str]:
    order = list(TETROMINO_PICTURES)
    names = [shape_name(shape, mirror) for shape in shapes]
    return sorted(names, key=lambda name: order.index(name) if name in order else len(order))


def dice_symbols(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Faces per symbol over all dice; lopsided or missing symbols warn."""
    on_faces = Counter(face for die in catalog.of_kind("die") for face in die["faces"] * die.count)
    faces = {symbol.id: on_faces[symbol.id] for symbol in catalog.of_kind("symbol")}
    counts = ", ".join(f"{symbol} {n}" for symbol, n in faces.items())
    yield Finding(
        "info",
        "dice",
        f"symbol faces over {catalog.copies('die')} dice ({on_faces.total()} faces): {counts}",
        "dice-symbols",
        dict(faces),
    )
    rolled = {symbol: n for symbol, n in faces.items() if n}
    if rolled:
        most = max(rolled, key=rolled.__getitem__)
        least = min(rolled, key=rolled.__getitem__)
        if rolled[most] > MAX_FACE_RATIO * rolled[least]:
            yield Finding(
                "warning",
                "dice",
                f"'{most}' is on {rolled[most]} faces, more than {MAX_FACE_RATIO:g} times "
                f"'{least}' on {rolled[least]}",
                "dice-symbols",
                {"most": rolled[most], "least": rolled[least]},
            )
    for symbol, n in faces.items():
        if not n:
            yield Finding("warning", symbol, f"'{symbol}' is on no die", "dice-symbols")


def tray_shapes(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """The shapes the rolled dice can be arranged into."""
    dice = catalog.copies("die")
    if not 0 < dice <= MAX_ENUMERATED_CELLS:
        return
    one_sided = polyominoes(dice)
    free = polyominoes(dice, mirror=True)
    yield Finding(
        "info",
        "dice",
        f"{dice} dice make {len(one_sided)} shapes when drawn, rotated but never mirrored: "
        f"{', '.join(_names(one_sided, False))} ({len(free)} counting mirror images as one: "
        f"{', '.join(_names(free, True))})",
        "tray-shapes",
        {"dice": dice, "one_sided": len(one_sided), "free": len(free)},
    )


def score_sheet(catalog: Catalog, seed: int = 0) -> Iterator[Finding]:
    """Boxes on each score sheet and about how many turns fill them."""
    per_turn = catalog.copies("die") or 4
    for sheet in catalog.of_kind("score-sheet"):
        boxes = sheet["rows"] * sheet["columns"]
        turns = boxes // per_turn
        yield Finding(
            "info",
            sheet.id,
            f"{sheet['rows']}x{sheet['columns']} grid: {boxes} boxes, about {turns} turns "
            f"at {per_turn} boxes a turn",
            "score-sheet",
            {"boxes": boxes, "turns": turns},
        )


CHECKS: tuple[Check, ...] = (
    Check("dice-symbols", ("die", "symbol"), dice_symbols),
    Check("tray-shapes", ("die",), tray_shapes),
    Check("score-sheet", ("score-sheet",), score_sheet),
)

"""How a kind's faces go onto a print service's product: which product, and
whether the face is kept, scaled or centred.

The ruling (docs/presets.md, "Mapping a kind to a product"):

* The product is the service's NEAREST one of the kind's shape: every side
  within NEAR (2 mm) of the layout's, either way round. A kind with none is
  not exported, and reported.
* The same size (within 0.01 mm): the face goes through unchanged.
* Otherwise the face is scaled, aspect kept, to fit inside the product's trim,
  when that changes type sizes by at most SCALE_LIMIT (2%); the bleed is
  drawn wider to cover the rest (a layout's full-bleed background reaches it).
* Else it is centred at 100%, type sizes kept, on a bleed widened the same way:
  a band of the bleed colour inside the cut, or a sliver of the edge cut off
  when the product is the smaller one.
* A landscape layout on a portrait product (a pointy hex on a flat-topped one)
  is turned a quarter, fronts clockwise and backs anticlockwise (so they meet
  when the card is turned over): the file has the product's own orientation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from protopress.generators.face import Face, FaceOp
from protopress.generators.products import Product, size_words
from protopress.generators.units import MM

NEAR = 2 * MM  # a product this close on every side takes the kind
SCALE_LIMIT = 0.02  # a larger scale changes type sizes noticeably: centre instead
SAME = 0.01 * MM  # sizes closer than this are the same size
COVER = 0.5  # points of bleed beyond the file's edge, so no pixel is left unpainted
SHOWN = 0.05 * MM  # margins smaller than this are not mentioned


class Fit(Enum):
    EXACT = "exact size, unchanged"
    SCALED = "scaled"
    CENTRED = "centred at 100%"


@dataclass(frozen=True)
class Placement:
    """A kind on a product: the layout's trim, how it fits, and whether it is turned."""

    kind: str
    width: float  # the layout's trim, points
    height: float
    product: Product
    fit: Fit
    scale: float
    turned: bool

    @property
    def trim(self) -> tuple[float, float]:
        """The product's trim in the layout's orientation."""
        product = self.product
        return (product.height, product.width) if self.turned else (product.width, product.height)

    def margins(self) -> tuple[float, float]:
        """Across and down, per side: the product's trim beyond the scaled face's
        (bleed colour inside the cut) or, when negative, the face cut off."""
        across, down = self.trim
        return (across - self.scale * self.width) / 2, (down - self.scale * self.height) / 2

    def _file(self, dpi: int) -> tuple[float, float, float, float]:
        """The file's size and the bleeds beside the trim, in the layout's orientation."""
        width, height = self.product.file_size(dpi)
        bleed_x, bleed_y = self.product.bleeds(dpi)
        if self.turned:
            return height, width, bleed_y, bleed_x
        return width, height, bleed_x, bleed_y

    def direct(self, dpi: int = 300) -> bool:
        """Drawn as the layout is, with the product's bleed: same size, same way
        round, the same bleed on every side."""
        bleed_x, bleed_y = self.product.bleeds(dpi)
        return self.fit is Fit.EXACT and not self.turned and abs(bleed_x - bleed_y) < 1e-6

    def inner_bleed(self, dpi: int = 300) -> float:
        """The bleed to build the layout's face with, so that scaled and centred
        it covers the whole file."""
        _, _, bleed_x, bleed_y = self._file(dpi)
        if self.direct(dpi):
            return bleed_x
        margin_x, margin_y = self.margins()
        return max(bleed_x + margin_x, bleed_y + margin_y) / self.scale + COVER

    def wrap(self, face: Face, dpi: int = 300, back: bool = False) -> Face:
        """The file's face: face (built with inner_bleed) scaled, centred and turned
        onto the product. A turned front turns clockwise and its back anticlockwise,
        so the two still meet when the card is turned over its long edge."""
        if self.direct(dpi):
            return face
        width, height, bleed_x, bleed_y = self._file(dpi)
        margin_x, margin_y = self.margins()
        x = bleed_x + margin_x - self.scale * face.bleed  # the inner face's corner, unturned
        y = bleed_y + margin_y - self.scale * face.bleed
        turn = 0
        if self.turned:
            inner_w, inner_h = self.scale * face.width, self.scale * face.height
            if back:  # (u, v) -> (v, width - u): a quarter turn anticlockwise
                x, y, turn = y, width - x - inner_w, -90
            else:  # (u, v) -> (height - v, u): a quarter turn clockwise
                x, y, turn = height - y - inner_h, x, 90
            width, height = height, width
        bleed = min(self.product.bleeds(dpi))
        return Face(face.name, width, height, bleed, (FaceOp(face, x, y, self.scale, turn),),
                    face.warnings)  # fmt: skip

    def line(self) -> str:
        """The decision in words, e.g. "gem-card: 63 x 88 mm -> Poker size cards
        2.5 x 3.5 in (63.5 x 88.9 mm), scaled 100.8% (0.1 mm of bleed colour at
        top and bottom)"."""
        product = self.product
        arrow = "=" if self.fit is Fit.EXACT else "->"
        size = size_words(self.width / MM, self.height / MM, product.shape, "mm")
        words = f"{self.kind}: {size} {arrow} {product.title} "
        words += f"({product.key}) {product.size_text()}"
        if self.fit is Fit.SCALED:
            words += f", scaled {self.scale * 100:.1f}%"
        else:
            words += f", {self.fit.value}"
            if self.fit is Fit.CENTRED:
                ratio = min(
                    w / s for w, s in zip(self.trim, (self.width, self.height), strict=True)
                )
                words += f" (scaling would be {ratio * 100:.1f}%, more than "
                words += f"{SCALE_LIMIT * 100:g}% off: type sizes are kept)"
        if self.turned:
            words += ", turned a quarter to the product's orientation (fronts clockwise)"
        edges = _edges(*self.margins())
        return words + (f"; {edges}" if edges else "")


@dataclass(frozen=True)
class Unplaced:
    """A kind the service has no product for."""

    kind: str
    width: float
    height: float
    shape: str
    nearest: Product | None  # of the same shape, however far

    def line(self, preset: str, game: str) -> str:
        """e.g. "tgc has no product for gem-rush tower (180 x 120 mm): not exported"."""
        size = size_words(self.width / MM, self.height / MM, self.shape, "mm")
        words = f"{preset} has no product for {game} {self.kind} ({size}): not exported"
        if self.nearest is not None:
            words += f" (nearest: {self.nearest.title}, {self.nearest.size_text()})"
        return words


def place(kind: str, layout, products: tuple[Product, ...]) -> Placement | Unplaced:
    """The kind's product and fit under the ruling above (layout: width, height, shape)."""
    width, height, shape = layout.width, layout.height, layout.shape
    best: tuple[float, Product, bool] | None = None
    for product in products:
        if product.shape != shape:
            continue
        turned = _turned(width, height, product)
        across, down = (
            (product.height, product.width) if turned else (product.width, product.height)
        )
        distance = max(abs(across - width), abs(down - height))
        if best is None or distance < best[0] - 1e-9:
            best = (distance, product, turned)
    if best is None or best[0] > NEAR + 1e-9:
        return Unplaced(kind, width, height, shape, None if best is None else best[1])
    distance, product, turned = best
    across, down = (product.height, product.width) if turned else (product.width, product.height)
    if distance <= SAME:
        return Placement(kind, width, height, product, Fit.EXACT, 1.0, turned)
    scale = min(across / width, down / height)
    if abs(scale - 1) <= SCALE_LIMIT + 1e-9:
        return Placement(kind, width, height, product, Fit.SCALED, scale, turned)
    return Placement(kind, width, height, product, Fit.CENTRED, 1.0, turned)


def _turned(width: float, height: float, product: Product) -> bool:
    """Does the layout lie the other way round from the product?"""
    if abs(product.width - product.height) < 1e-9 or abs(width - height) < 1e-9:
        return False
    return (width > height) != (product.width > product.height)


def _edges(across: float, down: float) -> str:
    """The margins in words: "0.1 mm of bleed colour at top and bottom"."""
    if abs(across - down) < SHOWN:
        return _edge(across, "on every side")
    parts = [_edge(across, "left and right"), _edge(down, "at top and bottom")]
    return ", ".join(part for part in parts if part)


def _edge(margin: float, where: str) -> str:
    if abs(margin) < SHOWN:
        return ""
    what = "of bleed colour inside the cut" if margin > 0 else "of the face cut off"
    return f"{abs(margin) / MM:.2g} mm {what} {where}"

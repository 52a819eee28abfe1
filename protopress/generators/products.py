"""What each print service sells: its products' trim sizes, shapes and file sizes.

One table per service preset, in the service's own order (the first of two
equally near products wins). The figures and where they come from are listed
in docs/presets.md ("Products"); services change their templates, so they
must be checked before ordering. A product is listed only where the service
is known to sell it: a kind of another size is reported, never guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass

from protopress.generators.units import INCH, MM

TGC_PAGE = "thegamecrafter.com/make/products/"


@dataclass(frozen=True)
class Product:
    """One product of a service. Trim as the service lists it (portrait, or a
    flat-topped hex as wide as its corners); the file holds the trim plus bleed."""

    key: str  # the service's name for it: TGC's product page, MPC's size name
    title: str
    width: float  # trim, points
    height: float
    shape: str  # "rectangle", "circle" or "hex"
    source: str  # where the figure comes from
    pixels: tuple[int, int] | None = None  # PNG services: the file at 300 dpi, bleed included
    bleed: float | None = None  # PDF services: on every side, points
    note: str = ""  # what is derived rather than published

    def file_size(self, dpi: int = 300) -> tuple[float, float]:
        """The file's width and height in points, bleed included."""
        if self.pixels is not None:
            return self.pixels[0] * 72 / dpi, self.pixels[1] * 72 / dpi
        assert self.bleed is not None, self.key
        return self.width + 2 * self.bleed, self.height + 2 * self.bleed

    def bleeds(self, dpi: int = 300) -> tuple[float, float]:
        """Bleed beside the trim across and down, points (they may differ a little:
        TGC's Euro Poker file is the poker file around a 63 x 88 mm trim)."""
        width, height = self.file_size(dpi)
        return (width - self.width) / 2, (height - self.height) / 2

    def size_text(self) -> str:
        """e.g. "2.5 x 3.5 in (63.5 x 88.9 mm)", "63 x 88 mm", "1 in round (25.4 mm)"."""
        mm = size_words(self.width / MM, self.height / MM, self.shape, "mm")
        inches = self.width / INCH, self.height / INCH
        if all(abs(v * 8 - round(v * 8)) < 1e-9 for v in inches):  # designed in inches
            plain = mm.removesuffix(" round").removesuffix(" hex")  # the shape is said once
            return f"{size_words(*inches, self.shape, 'in')} ({plain})"
        return mm


def size_words(width: float, height: float, shape: str, unit: str) -> str:
    """ "63 x 88 mm", "25 mm round" (a circle), "44.45 x 51.33 mm hex"."""
    if shape == "circle" and abs(width - height) < 1e-9:
        return f"{width:.4g} {unit} round"
    words = f"{width:.4g} x {height:.4g} {unit}"
    return words if shape == "rectangle" else f"{words} {shape}"


def _tgc(key: str, title: str, size: tuple[float, float], pixels: tuple[int, int],
         shape: str = "rectangle") -> Product:  # fmt: skip
    return Product(key, title, size[0], size[1], shape, TGC_PAGE + key, pixels=pixels)


def _in(width: float, height: float) -> tuple[float, float]:
    return width * INCH, height * INCH


def _mm(width: float, height: float) -> tuple[float, float]:
    return width * MM, height * MM


MPC_BLEED_NOTE = (
    "pixel size derived from the trim and MPC's 0.12 in poker-template bleed; "
    "check the product's own template"
)


def _mpc(key: str, title: str, size: tuple[float, float], pixels: tuple[int, int],
         note: str = MPC_BLEED_NOTE) -> Product:  # fmt: skip
    return Product(key, title, size[0], size[1], "rectangle",
                   "makeplayingcards.com, " + title + " product page and template",
                   pixels=pixels, note=note)  # fmt: skip


def _dtc(key: str, title: str, size: tuple[float, float]) -> Product:
    return Product(key, title, size[0], size[1], "rectangle",
                   "drivethrucards.com, card file creation guide", bleed=0.125 * INCH)  # fmt: skip


PRODUCTS: dict[str, tuple[Product, ...]] = {
    "tgc": (
        _tgc("PokerDeck", "Poker Deck", _in(2.5, 3.5), (825, 1125)),
        _tgc("EuroPokerDeck", "Euro Poker Deck", _mm(63, 88), (825, 1125)),
        _tgc("BridgeDeck", "Bridge Deck", _in(2.25, 3.5), (750, 1125)),
        _tgc("MiniDeck", "Mini Deck", _in(1.75, 2.5), (600, 825)),
        _tgc("TarotDeck", "Tarot Deck", _in(2.75, 4.75), (900, 1500)),
        _tgc("EuroSquareDeck", "Euro Square Deck", _mm(70, 70), (900, 900)),
        _tgc("MiniSquareTile", "Mini Square Tile", _in(1.25, 1.25), (450, 450)),
        _tgc("MediumSquareTile", "Medium Square Tile", _in(2.5, 2.5), (825, 825)),
        _tgc("LargeSquareTile", "Large Square Tile", _in(3.5, 3.5), (1125, 1125)),
        _tgc("SmallSquareChit", "Small Square Chit", _in(0.5, 0.5), (225, 225)),
        _tgc("MediumSquareChit", "Medium Square Chit", _in(0.75, 0.75), (300, 300)),
        _tgc("LargeSquareChit", "Large Square Chit", _in(1, 1), (375, 375)),
        _tgc("SmallCircleChit", "Small Circle Chit", _in(0.5, 0.5), (225, 225), "circle"),
        _tgc("MediumCircleChit", "Medium Circle Chit", _in(0.75, 0.75), (300, 300), "circle"),
        _tgc("LargeCircleChit", "Large Circle Chit", _in(1, 1), (375, 375), "circle"),
        _tgc("MiniCircleTile", "Mini Circle Tile", _in(1.25, 1.25), (450, 450), "circle"),
        _tgc("SmallHexTile", "Small Hex Tile", _in(2, 1.75), (675, 600), "hex"),
        _tgc("LargeHexTile", "Large Hex Tile", _in(3.75, 3.25), (1200, 1050), "hex"),
    ),
    "mpc": (
        _mpc("poker", "Poker size cards", _in(2.5, 3.5), (822, 1122), note=""),
        _mpc("bridge", "Bridge size cards", _in(2.25, 3.5), (747, 1122)),
        _mpc("mini", "Mini cards", _in(1.75, 2.5), (597, 822)),
        _mpc("tarot", "Tarot cards", _in(2.75, 4.75), (897, 1497)),
    ),
    "drivethrucards": (_dtc("poker", "Poker size cards", _in(2.5, 3.5)),),
}

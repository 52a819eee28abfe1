"""The mapping of a kind's size to a service's product: hand-worked examples."""

from dataclasses import dataclass

import pytest

from protopress.generators.face import Face, FaceOp, RectOp
from protopress.generators.fitting import Fit, Placement, Unplaced, place
from protopress.generators.products import PRODUCTS, Product
from protopress.generators.units import INCH, MM


@dataclass(frozen=True)
class Size:  # what place() reads of a layout
    width: float
    height: float
    shape: str = "rectangle"


def mm(width, height, shape="rectangle") -> Size:
    return Size(width * MM, height * MM, shape)


def chit(key, inches, shape="rectangle", pixels=None) -> Product:
    px = round((inches + 0.25) * 300)
    return Product(key, key, inches * INCH, inches * INCH, shape, "test", pixels=pixels or (px, px))


MPC = PRODUCTS["mpc"]
TGC = PRODUCTS["tgc"]


def test_a_63_by_88_card_is_scaled_onto_a_poker_card():
    # 63.5 / 63 = 1.00794 across, 88.9 / 88 = 1.01023 down: the smaller keeps the aspect
    placement = place("gem-card", mm(63, 88), MPC)
    assert isinstance(placement, Placement)
    assert (placement.product.key, placement.fit, placement.turned) == ("poker", Fit.SCALED, False)
    assert placement.scale == pytest.approx(63.5 / 63)
    across, down = placement.margins()
    assert across == pytest.approx(0, abs=1e-9)
    assert down / MM == pytest.approx((88.9 - 88 * 63.5 / 63) / 2)  # 0.1008 mm each end
    assert placement.line() == (
        "gem-card: 63 x 88 mm -> Poker size cards (poker) 2.5 x 3.5 in (63.5 x 88.9 mm), "
        "scaled 100.8%; 0.1 mm of bleed colour inside the cut at top and bottom"
    )


def test_the_game_crafter_prints_63_by_88_and_70_by_70_as_they_are():
    card, tile = place("gem-card", mm(63, 88), TGC), place("room-tile", mm(70, 70), TGC)
    assert isinstance(card, Placement) and isinstance(tile, Placement)
    assert (card.product.key, card.fit) == ("EuroPokerDeck", Fit.EXACT)
    assert (tile.product.key, tile.fit) == ("EuroSquareDeck", Fit.EXACT)
    assert tile.direct()  # 900 px = 70 mm + 2 x 3.1 mm: the same bleed all round
    assert not card.direct()  # 825 x 1125 px around 63 x 88 mm: 3.42 mm across, 3.62 mm down
    assert card.line() == (
        "gem-card: 63 x 88 mm = Euro Poker Deck (EuroPokerDeck) 63 x 88 mm, exact size, unchanged"
    )


def test_a_landscape_card_is_turned_to_the_products_orientation():
    placement = place("market-card", mm(88, 63), MPC)
    assert isinstance(placement, Placement)
    assert placement.turned and placement.fit is Fit.SCALED
    assert placement.trim == pytest.approx((3.5 * INCH, 2.5 * INCH))
    assert "turned a quarter to the product's orientation (fronts clockwise)" in placement.line()


def test_more_than_two_percent_off_is_centred_at_full_size():
    # 17.6 mm on a 3/4 in (19.05 mm) chit: scaling would be 108.2%
    placement = place("token", mm(17.6, 17.6), (chit("MediumSquareChit", 0.75),))
    assert isinstance(placement, Placement)
    assert (placement.fit, placement.scale) == (Fit.CENTRED, 1.0)
    assert placement.margins()[0] / MM == pytest.approx((19.05 - 17.6) / 2)  # 0.725 mm
    assert placement.line() == (
        "token: 17.6 x 17.6 mm -> MediumSquareChit (MediumSquareChit) 0.75 x 0.75 in "
        "(19.05 x 19.05 mm), centred at 100% (scaling would be 108.2%, more than 2% off: "
        "type sizes are kept); 0.72 mm of bleed colour inside the cut on every side"
    )


def test_a_centred_face_on_a_smaller_product_loses_a_sliver_of_its_edge():
    placement = place("marker", mm(40, 40), (chit("Big", 1.5),))  # 38.1 mm: 95.25%
    assert isinstance(placement, Placement) and placement.fit is Fit.CENTRED
    assert placement.line().endswith("0.95 mm of the face cut off on every side")


def test_a_kind_with_no_product_within_2_mm_is_not_exported():
    found = place("first-player-marker", mm(40, 40), TGC)
    assert isinstance(found, Unplaced)
    assert found.line("tgc", "gem-rush") == (
        "tgc has no product for gem-rush first-player-marker (40 x 40 mm): not exported "
        "(nearest: Mini Square Tile, 1.25 x 1.25 in (31.75 x 31.75 mm))"
    )
    assert isinstance(place("x", mm(60.9, 88.9), MPC), Unplaced)  # 2.6 mm narrower than poker
    assert isinstance(place("x", mm(61.6, 88.9), MPC), Placement)  # 1.9 mm: taken


def test_shapes_must_match():
    assert isinstance(place("gem", mm(25, 25, "circle"), (chit("Square", 1),)), Unplaced)
    round_chit = place("gem", mm(25, 25, "circle"), TGC)
    assert isinstance(round_chit, Placement)
    assert round_chit.product.key == "LargeCircleChit"
    line = Unplaced("gem", 20 * MM, 20 * MM, "circle", None).line("mpc", "g")
    assert line == "mpc has no product for g gem (20 mm round): not exported"
    assert round_chit.line() == (
        "gem: 25 mm round -> Large Circle Chit (LargeCircleChit) 1 in round (25.4 mm), "
        "scaled 101.6%"
    )


def test_a_pointy_hex_is_turned_onto_a_flat_topped_tile():
    # 44.45 mm across the flats is TGC's Small Hex Tile (2 in across the corners) turned
    placement = place("hex", mm(44.45, 44.45 * 2 / 3**0.5, "hex"), TGC)
    assert isinstance(placement, Placement)
    assert (placement.product.key, placement.turned) == ("SmallHexTile", True)
    assert placement.scale == pytest.approx(2 * INCH / (44.45 * 2 / 3**0.5 * MM))


def test_the_nearest_of_two_products_wins():
    products = (chit("far", 1.0), chit("near", 0.98))  # 25.4 mm and 24.9 mm
    placement = place("t", mm(24.8, 24.8), products)
    assert isinstance(placement, Placement) and placement.product.key == "near"


def test_wrapping_puts_the_scaled_trim_in_the_middle_of_the_file():
    placement = place("card", mm(63, 88), MPC)
    assert isinstance(placement, Placement)
    bleed = placement.inner_bleed()
    inner = Face("card/a/front", 63 * MM + 2 * bleed, 88 * MM + 2 * bleed, bleed,
                 (RectOp(0, 0, 1, 1),))  # fmt: skip
    outer = placement.wrap(inner)
    assert (outer.width, outer.height) == pytest.approx((822 * 72 / 300, 1122 * 72 / 300))
    (op,) = outer.ops
    assert isinstance(op, FaceOp) and op.turn == 0
    scale = 63.5 / 63
    assert op.x + scale * bleed == pytest.approx(0.12 * INCH)  # trim's left edge at the cut
    assert op.x <= 0 and op.y <= 0  # the scaled bleed covers the file
    assert op.x + scale * inner.width >= outer.width
    assert op.y + scale * inner.height >= outer.height
    turned = place("card", mm(88, 63), MPC)
    assert isinstance(turned, Placement)
    front = turned.wrap(Face("c", 10, 10, 1, ()))
    back = turned.wrap(Face("c", 10, 10, 1, ()), back=True)
    assert (front.ops[0].turn, back.ops[0].turn) == (90, -90)  # they meet when turned over
    assert front.width < front.height  # portrait, as the product


def test_every_png_product_states_a_file_of_its_trim_plus_bleed():
    for service, products in PRODUCTS.items():
        for product in products:
            across, down = product.bleeds()
            assert 0.1 * INCH < across < 0.15 * INCH, (service, product.key)
            assert 0.1 * INCH < down < 0.15 * INCH, (service, product.key)
            if product.pixels is None:  # a PDF page: one bleed on every side
                assert across == pytest.approx(down)
            assert product.source


STANDARD = {  # each named standard size on each service: product, fit, scale in % (hand-worked)
    "poker": {
        "tgc": ("EuroPokerDeck", 100.0),
        "mpc": ("poker", 100.8),
        "drivethrucards": ("poker", 100.8),
    },  # 63.5 / 63
    "bridge": {"tgc": ("BridgeDeck", 99.9), "mpc": ("bridge", 99.9)},  # 88.9 / 89
    "tarot": {"tgc": ("TarotDeck", 99.8), "mpc": ("tarot", 99.8)},  # 69.85 / 70
    "mini": {"tgc": ("MiniDeck", 100.8), "mpc": ("mini", 100.8)},  # 63.5 / 63
    "mini-euro": {},  # 44 x 68: 4.5 mm longer than a mini card
    "euro": {},  # 59 x 92: 3.1 mm longer than a bridge card
    "jumbo": {},
    "square": {"tgc": ("EuroSquareDeck", 100.0)},
    "square-small": {"tgc": ("MediumSquareTile", 100.8)},  # 63.5 / 63
    "hex": {},  # 76.2 mm across the flats; TGC's Large Hex Tile is 82.55
    "hex-small": {},  # 50.8 mm across the flats; TGC's Small Hex Tile is 44.45
    "token": {"tgc": ("LargeCircleChit", 101.6)},  # 25.4 / 25
    "token-large": {},  # 38 mm round; TGC's Mini Circle Tile is 31.75
}


def test_every_standard_size_on_every_service():
    from protopress.components.sizes import STANDARD_SIZES

    assert set(STANDARD) == set(STANDARD_SIZES)
    for name, standard in STANDARD_SIZES.items():
        size = mm(standard.width, standard.height, standard.shape)
        for service, products in PRODUCTS.items():
            found = place(name, size, products)
            expected = STANDARD[name].get(service)
            if expected is None:
                assert isinstance(found, Unplaced), (name, service)
                continue
            assert isinstance(found, Placement), (name, service)
            assert (found.product.key, round(found.scale * 100, 1)) == expected, (name, service)
            assert (found.fit is Fit.EXACT) == (expected[1] == 100.0)


def test_a_layout_at_a_products_size_is_drawn_as_designed():
    placement = place("card", Size(2.5 * INCH, 3.5 * INCH), TGC)
    assert isinstance(placement, Placement) and placement.product.key == "PokerDeck"
    assert placement.fit is Fit.EXACT and placement.direct()
    face = Face("card/a/front", 2.75 * INCH, 3.75 * INCH, 0.125 * INCH, ())
    assert placement.inner_bleed() == pytest.approx(0.125 * INCH)
    assert placement.wrap(face) is face

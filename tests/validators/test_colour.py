"""Colour-vision simulation and icon distinguishability, on worked examples."""

import json

import pytest

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.validators.colour import (
    CHECKS,
    ICON_KINDS,
    MIN_DELTA_E,
    VISIONS,
    delta_e,
    icon_findings,
    lab,
    simulate,
)


@pytest.fixture
def symbols(write_catalog):
    """A catalog whose symbols are (id, shape, colour or None) triples."""

    def build(*icons):
        items = [
            {"id": icon_id, "name": icon_id.title(), "shape": shape}
            | ({"colour": colour} if colour else {})
            for icon_id, shape, colour in icons
        ]
        document = {"game": "my-game", "title": "My Game", "version": "1.0", "symbols": items}
        return load_catalog(write_catalog(json.dumps(document)))

    return build


def messages(catalog):
    return [str(f) for f in icon_findings(catalog, "symbol", "colour-symbol")]


def test_deuteranopia_of_the_primaries_is_the_machado_matrix_column():
    # Pure red, green and blue are (1,0,0), (0,1,0), (0,0,1) in linear RGB too, so
    # each simulated colour is one column of the severity-1.0 deuteranopia matrix,
    # clipped to [0, 1], sRGB-encoded (1.055 * c ** (1/2.4) - 0.055) and scaled to 255:
    #   red   (0.367322, 0.280085, -0.011820) -> (163.22, 144.28, 0)     -> a3 90 00
    #   green (0.860646, 0.672501,  0.042940) -> (238.69, 214.01, 58.44) -> ef d6 3a
    #   blue  (-0.227968, 0.047413, 0.968881) -> (0, 61.499, 251.48)     -> 00 3d fb
    assert simulate("#ff0000", "deuteranopia") == "#a39000"
    assert simulate("#00ff00", "deuteranopia") == "#efd63a"
    assert simulate("#0000ff", "deuteranopia") == "#003dfb"


def test_normal_vision_keeps_a_colour_and_greyscale_keeps_its_luminance():
    assert simulate("#C62828", "normal") == "#c62828"
    # Red's luminance is 0.2126 (linear); 1.055 * 0.2126 ** (1/2.4) - 0.055 = 0.4984 -> 7f.
    assert simulate("#ff0000", "greyscale") == "#7f7f7f"
    assert simulate("#7f7f7f", "greyscale") == "#7f7f7f"
    with pytest.raises(ValueError, match="unknown vision 'sepia'"):
        simulate("#ff0000", "sepia")


def test_lab_and_delta_e_use_the_d65_white():
    assert lab("#ffffff") == pytest.approx((100, 0, 0), abs=1e-4)
    # The published CIELAB of sRGB red.
    assert lab("#ff0000") == pytest.approx((53.2408, 80.0925, 67.2032), abs=1e-3)
    assert delta_e("#ffffff", "#000000") == pytest.approx(100, abs=1e-4)
    assert delta_e("#123456", "#123456") == 0


def test_pure_red_and_green_stay_apart_for_dichromats_by_lightness():
    # The model keeps the primaries' lightness: under deuteranopia red looks a dark
    # olive and green a light yellow, so they stay well over the threshold.
    assert delta_e(simulate("#ff0000", "deuteranopia"), simulate("#00ff00", "deuteranopia")) == (
        pytest.approx(27.96, abs=0.01)
    )
    assert delta_e(simulate("#ff0000", "protanopia"), simulate("#00ff00", "protanopia")) == (
        pytest.approx(65.74, abs=0.01)
    )


def test_red_and_green_of_one_shape_and_lightness_are_flagged_for_dichromats(symbols):
    # Each pair lies on a confusion line of one dichromacy: rust and moss map to the
    # same #93842f under deuteranopia; ember and fern to #796a00 and #7a6b00 under
    # protanopia. With normal vision they are far apart (ΔE 92.6 and 108.9).
    assert messages(symbols(("rust", "drop", "#cc5533"), ("moss", "drop", "#449922"))) == [
        "error rust: 'rust' and 'moss' share the shape 'drop' and are not distinguishable by "
        "colour under deuteranopia (ΔE 0.0), greyscale (ΔE 5.1)"
    ]
    assert messages(symbols(("ember", "drop", "#ee4411"), ("fern", "drop", "#227711"))) == [
        "error ember: 'ember' and 'fern' share the shape 'drop' and are not distinguishable by "
        "colour under protanopia (ΔE 0.5)"
    ]
    assert messages(symbols(("ruby", "drop", "#ff0000"), ("jade", "drop", "#00ff00"))) == []


def test_equal_luminance_is_flagged_in_greyscale_or_left_to_shape(symbols):
    # Red and #7f7f7f grey both have luminance 0.2126: identical once printed in grey.
    assert messages(symbols(("ruby", "circle", "#ff0000"), ("ash", "circle", "#7f7f7f"))) == [
        "error ruby: 'ruby' and 'ash' share the shape 'circle' and are not distinguishable by "
        "colour under greyscale (ΔE 0.0)"
    ]
    catalog = symbols(("ruby", "circle", "#ff0000"), ("ash", "square", "#7f7f7f"))
    findings = list(icon_findings(catalog, "symbol", "colour-symbol"))
    assert [str(f) for f in findings] == [
        "info symbols: under greyscale, only shape tells apart ruby/ash (ΔE 0.0)"
    ]
    assert findings[0].data == {"pairs": 1, "delta_e": {"ruby/ash": 0.0}}


def test_info_lists_every_pair_of_a_vision_once(symbols):
    catalog = symbols(
        ("ruby", "circle", "#ff0000"),
        ("ash", "square", "#7f7f7f"),
        ("moss", "star", "#009400"),
        ("plain", "star", None),  # no colour: not an icon of the colour check
    )
    assert messages(catalog) == [
        "info symbols: under greyscale, only shape tells apart ruby/ash (ΔE 0.0), "
        "ruby/moss (ΔE 0.0), ash/moss (ΔE 0.0)"
    ]


def test_one_check_per_icon_kind():
    assert VISIONS == ("normal", "deuteranopia", "protanopia", "tritanopia", "greyscale")
    assert MIN_DELTA_E == 10
    assert [(check.name, check.needs) for check in CHECKS] == [
        (f"colour-{kind}", (kind,)) for kind in ICON_KINDS
    ]


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_built_in_icons_are_told_apart_by_everyone(game):
    catalog = load_catalog(builtin_catalog_path(game))
    findings = [
        finding
        for check in CHECKS
        if all(catalog.of_kind(kind) for kind in check.needs)
        for finding in check.run(catalog, 0)
    ]
    assert {finding.severity for finding in findings} <= {"info"}

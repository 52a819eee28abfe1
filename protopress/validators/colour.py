"""Colour vision: can every player tell the icons of a set apart?

Two icons of one set are told apart by shape when their `shape` values differ,
and by colour when their colours, as a reader with a given vision sees them,
are at least MIN_DELTA_E apart. Icons that share a shape and are not apart by
colour under some vision are an error; icons that only their shapes keep apart
are reported as information, one finding per set and vision.
"""

from __future__ import annotations

from itertools import combinations

from protopress.components import Catalog
from protopress.components.colournames import hex_of
from protopress.components.schemas import kinds
from protopress.validators.findings import Check, Finding

VISIONS = ("normal", "deuteranopia", "protanopia", "tritanopia", "greyscale")

# Icon sets: Gem Rush gems, DragonStone Mine gem colours, Gemstone Caverns and
# Stonespine Architects symbols, Stonespine elements. Icons without a colour
# (symbols may have none) are left out.
ICON_KINDS = ("gem", "gem-colour", "symbol", "element")

# CIE76 ΔE of about 2.3 is a just-noticeable difference between two patches
# side by side. Icons are small, seen apart from each other on the table, on
# printed card under home lighting, so we ask for several of those: below 10
# two icons are easily mistaken for each other at a glance.
MIN_DELTA_E = 10.0

# Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
# Simulation of Color Vision Deficiency", IEEE TVCG 15(6):1291-1298,
# doi:10.1109/TVCG.2009.113: the simulation matrices for severity 1.0
# (protanopia, deuteranopia, and their tritan approximation). They act on
# linear sRGB, so colours are decoded from the sRGB gamma first.
MACHADO_2009 = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# Relative luminance from linear RGB (Rec. 709 / sRGB primaries).
LUMINANCE = (0.2126, 0.7152, 0.0722)

# Every vision is a 3x3 matrix on linear RGB: greyscale puts the luminance in
# all three channels.
VISION_MATRICES = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    **{vision: MACHADO_2009[vision] for vision in ("deuteranopia", "protanopia", "tritanopia")},
    "greyscale": (LUMINANCE, LUMINANCE, LUMINANCE),
}

# Linear sRGB to CIE XYZ, and the reference white, both D65 (IEC 61966-2-1).
SRGB_TO_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
D65_WHITE = (0.95047, 1.0, 1.08883)


def _decode(channel: float) -> float:
    """sRGB-encoded [0, 1] to linear."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _encode(linear: float) -> float:
    """Linear [0, 1] (clipped) to sRGB-encoded."""
    linear = min(1.0, max(0.0, linear))
    return 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055


def _linear_rgb(colour: str) -> tuple[float, float, float]:
    rgb_hex = hex_of(colour)  # a CSS name too
    red, green, blue = (_decode(int(rgb_hex[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return red, green, blue


def _hex(linear) -> str:
    return "#" + "".join(f"{round(_encode(c) * 255):02x}" for c in linear)


def _apply(matrix, vector) -> tuple[float, float, float]:
    return tuple(sum(m * v for m, v in zip(row, vector, strict=True)) for row in matrix)


def simulate(rgb_hex: str, vision: str) -> str:
    """The #rrggbb colour a reader with `vision` (one of VISIONS) sees."""
    if vision not in VISION_MATRICES:
        raise ValueError(f"unknown vision {vision!r}; expected one of {', '.join(VISIONS)}")
    return _hex(_apply(VISION_MATRICES[vision], _linear_rgb(rgb_hex)))


def lab(rgb_hex: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    x, y, z = (
        f(v / white)
        for v, white in zip(_apply(SRGB_TO_XYZ, _linear_rgb(rgb_hex)), D65_WHITE, strict=True)
    )
    return 116 * y - 16, 500 * (x - y), 200 * (y - z)


def delta_e(hex_a: str, hex_b: str) -> float:
    """CIE76 colour difference: the distance between two colours in CIELAB."""
    return sum((a - b) ** 2 for a, b in zip(lab(hex_a), lab(hex_b), strict=True)) ** 0.5


def _pairs_text(pairs) -> str:
    return ", ".join(f"{a.id}/{b.id} (ΔE {de:.1f})" for a, b, de in pairs)


def icon_findings(catalog: Catalog, kind: str, check: str):
    """Findings for one icon set: errors per pair, information per vision."""
    icons = [icon for icon in catalog.of_kind(kind) if icon.get("colour")]
    seen = {
        vision: {icon.id: simulate(icon["colour"], vision) for icon in icons} for vision in VISIONS
    }
    by_shape: dict[str, list] = {vision: [] for vision in VISIONS}
    for a, b in combinations(icons, 2):
        close = {}
        for vision in VISIONS:
            de = round(delta_e(seen[vision][a.id], seen[vision][b.id]), 1)
            if de < MIN_DELTA_E:
                close[vision] = de
        if close and a["shape"] == b["shape"]:
            visions = ", ".join(f"{vision} (ΔE {de:.1f})" for vision, de in close.items())
            yield Finding(
                "error",
                a.id,
                f"'{a.id}' and '{b.id}' share the shape '{a['shape']}' and are not "
                f"distinguishable by colour under {visions}",
                check,
                {"delta_e": close},
            )
        elif close:
            for vision, de in close.items():
                by_shape[vision].append((a, b, de))
    collection = kinds()[kind].collection
    for vision, pairs in by_shape.items():
        if pairs:
            yield Finding(
                "info",
                collection,
                f"under {vision}, only shape tells apart {_pairs_text(pairs)}",
                check,
                {"pairs": len(pairs), "delta_e": {f"{a.id}/{b.id}": de for a, b, de in pairs}},
            )


def _check(kind: str) -> Check:
    name = f"colour-{kind}"
    return Check(name, (kind,), lambda catalog, seed=0: icon_findings(catalog, kind, name))


CHECKS: tuple[Check, ...] = tuple(_check(kind) for kind in ICON_KINDS)

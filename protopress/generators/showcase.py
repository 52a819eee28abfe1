"""Pictures of chosen components for a rules page or a crowdfunding page: a hand
of cards fanned as a player holds them, or a showcase row of faces side by side.

The geometry is plain: in a hand, card i of n turns by angle_i = (i - (n - 1) / 2)
* step about a pivot `radius` below the middle of the cards (radius = FAN_RADIUS
card heights), so its centre is at (radius * sin angle_i, radius * (1 - cos
angle_i)) from the middle card's centre (y down); the picture is the union of
the turned cards, with a margin. A showcase row puts the faces side by side on
their bottom edge, a gap apart. Every face casts the same soft shadow. Same
faces, same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from PIL import Image, ImageFilter

from protopress.components.problems import Problem
from protopress.components.suggest import did_you_mean
from protopress.generators.assets import AssetPolicy
from protopress.generators.face import Face
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import layouts_for
from protopress.generators.png_surface import face_images

FAN_RADIUS = 2.5  # the pivot of a hand, in card heights below the cards' centre
DEFAULT_STEP = 10.0  # degrees between neighbouring cards of a hand: about 0.6 of a card shows
MAX_FACES = 60  # a picture of chosen components, not of a whole game
MAX_PIXELS = 60_000_000  # of the faces together, and of the picture: memory stays bounded
GAP = 0.08  # between faces of a row, and the margin, in card widths (of the widest)
SHADOW = (0.02, 0.03, 0.025)  # its offset right and down, and its blur, in card widths
SHADOW_COLOUR = (0, 0, 0, 90)


class Arrangement(Enum):
    HAND = "hand"
    ROW = "row"


@dataclass(frozen=True)
class Placement:
    """Where a face goes: its centre (pixels, y down) and its turn (degrees,
    clockwise as seen)."""

    x: float
    y: float
    angle: float


def fan(count: int, card_height: float, step: float = DEFAULT_STEP) -> list[Placement]:
    """The centres and turns of a hand of count cards, the middle card's centre at
    (0, 0) (between the two middle ones for an even count)."""
    radius = FAN_RADIUS * card_height
    placements = []
    for index in range(count):
        angle = (index - (count - 1) / 2) * step
        turn = math.radians(angle)
        placements.append(Placement(radius * math.sin(turn), radius * (1 - math.cos(turn)), angle))
    return placements


def row(sizes: Sequence[tuple[int, int]], gap: float) -> list[Placement]:
    """The centres of faces side by side, their bottom edges on y = 0, gap apart."""
    placements, left = [], 0.0
    for width, height in sizes:
        placements.append(Placement(left + width / 2, -height / 2, 0.0))
        left += width + gap
    return placements


def turned_size(width: float, height: float, angle: float) -> tuple[float, float]:
    """The width and height of the box around a width x height face turned by angle."""
    turn = math.radians(angle)
    cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
    return width * cos + height * sin, width * sin + height * cos


def compose(
    faces: Sequence[Image.Image],
    arrangement: Arrangement,
    step: float = DEFAULT_STEP,
    background: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Image.Image:
    """The faces (RGB images, in order: the last on top) arranged as a hand or a row,
    with their shadows, on background (transparent by default): an RGBA image."""
    if not faces:
        raise ValueError("no faces to show")
    widest = max(face.width for face in faces)
    if arrangement is Arrangement.HAND:
        placements = fan(len(faces), max(face.height for face in faces), step)
    else:
        placements = row([face.size for face in faces], GAP * widest)
    shadow_x, shadow_y, blur = (round(part * widest) for part in SHADOW)
    margin = math.ceil(GAP * widest) + max(shadow_x, shadow_y) + 2 * blur
    boxes = []
    for face, place in zip(faces, placements, strict=True):
        width, height = turned_size(face.width, face.height, place.angle)
        boxes.append(
            (place.x - width / 2, place.y - height / 2, place.x + width / 2, place.y + height / 2)
        )
    _check_pixels(boxes, margin)
    left = math.floor(min(box[0] for box in boxes)) - margin
    top = math.floor(min(box[1] for box in boxes)) - margin
    right = math.ceil(max(box[2] for box in boxes)) + margin
    bottom = math.ceil(max(box[3] for box in boxes)) + margin
    picture = Image.new("RGBA", (right - left, bottom - top), background)
    for face, place in zip(faces, placements, strict=True):
        card = face.convert("RGBA")
        if place.angle:  # PIL turns counter-clockwise: clockwise as seen is minus
            card = card.rotate(-place.angle, Image.Resampling.BICUBIC, expand=True)
        corner = (round(place.x - card.width / 2) - left, round(place.y - card.height / 2) - top)
        shadow = _shadow(card, blur)
        picture.alpha_composite(
            shadow, (corner[0] + shadow_x - 2 * blur, corner[1] + shadow_y - 2 * blur)
        )
        picture.alpha_composite(card, corner)
    return picture


def _check_pixels(boxes, margin: int) -> None:
    """ValueError for a picture over MAX_PIXELS, before any of it is drawn."""
    width = max(box[2] for box in boxes) - min(box[0] for box in boxes) + 2 * margin
    height = max(box[3] for box in boxes) - min(box[1] for box in boxes) + 2 * margin
    if width * height > MAX_PIXELS:
        raise ValueError(
            f"a picture of {width:,.0f} x {height:,.0f} pixels; at most "
            f"{MAX_PIXELS // 1_000_000} million (a lower dpi, fewer faces or a smaller step)"
        )


def _shadow(card: Image.Image, blur: int) -> Image.Image:
    """The card's silhouette in SHADOW_COLOUR, blurred, with 2 * blur of room each side."""
    room = 2 * blur
    mask = Image.new("L", (card.width + 2 * room, card.height + 2 * room), 0)
    mask.paste(card.getchannel("A"), (room, room))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    shadow = Image.new("RGBA", mask.size, SHADOW_COLOUR[:3] + (0,))
    alpha = mask.point(lambda value: value * SHADOW_COLOUR[3] // 255)
    shadow.putalpha(alpha)
    return shadow


@dataclass(frozen=True)
class Shown:
    """The faces drawn for a picture, and the problems met drawing them (a missing
    image or icon is drawn as a placeholder, as render draws it)."""

    images: list[Image.Image]
    problems: list[Problem]


def draw_faces(
    catalog,
    ids: Sequence[str],
    side: str = "front",
    dpi: int = 150,
    layouts_dir=None,
    allow_outside_assets: bool = False,
) -> Shown:
    """The side of each named component (ID, or KIND/ID where kinds share an id) at
    dpi, in the order named (one may come more than once). ValueError naming an id
    that no drawn kind has, one that several have, or a component with no such side."""
    layouts = layouts_for(catalog.components, layouts_dir, catalog)
    components = [_named(catalog, layouts, name) for name in ids]
    if len(components) > MAX_FACES:
        raise ValueError(f"{len(components)} faces to show; a picture shows at most {MAX_FACES}")
    pixels = sum(
        round(layouts[c.kind].width * dpi / 72) * round(layouts[c.kind].height * dpi / 72)
        for c in components
    )
    if pixels > MAX_PIXELS:
        raise ValueError(
            f"{len(components)} faces of {pixels / 1_000_000:,.0f} million pixels at {dpi} dpi; "
            f"a picture draws at most {MAX_PIXELS // 1_000_000} million (a lower --dpi, or fewer)"
        )
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, allow_outside_assets)
    builders: dict[str, FaceBuilder] = {}
    faces: list[Face] = []
    problems: list[Problem] = []
    for component in components:
        layout = layouts[component.kind]
        if side == "back" and layout.back is None:
            raise ValueError(f"{component.kind}/{component.id} has no back")
        if component.kind not in builders:
            builders[component.kind] = FaceBuilder(layout, catalog, 0.0, assets, placeholders=True)
        face = builders[component.kind].build(component, side)  # InvalidInput: render's refusal
        problems.extend(face.problems)
        faces.append(face)
    return Shown(list(face_images(faces, dpi)), sorted(set(problems)))


def _named(catalog, layouts, name: str):
    """The component ID or KIND/ID names among the drawn kinds; ValueError when none
    or several are (with did-you-mean, or the KIND/ID forms to write)."""
    kind, _, ident = name.rpartition("/")
    kinds = [kind] if kind else list(layouts)
    if kind and kind not in layouts:
        raise ValueError(f"no drawn kind {kind!r}{did_you_mean(kind, layouts)} (in {name!r})")
    matches = [c for k in kinds for c in catalog.of_kind(k) if c.id == ident]
    if not matches:
        ids = {c.id for k in kinds for c in catalog.of_kind(k)}
        raise ValueError(f"no drawn component {name!r}{did_you_mean(ident, ids)}")
    if len(matches) > 1:
        forms = " or ".join(f"{c.kind}/{c.id}" for c in matches)
        raise ValueError(f"{ident!r} names {len(matches)} components: write {forms}")
    return matches[0]

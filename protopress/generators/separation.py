"""Colour-managed CMYK: sRGB colours and card art separated through an ICC
output profile with Pillow's ImageCms (LittleCMS).

The rendering intent is relative colorimetric with black point compensation,
Adobe's and most RIPs' default for print: colours inside the press's gamut
(nearly every flat colour a card layout uses) keep their measured appearance
on the paper, only the colours outside it are clipped to its edge, and the
compensation maps sRGB black onto the profile's darkest black rather than
clipping the shadows of the art. Perceptual would shift every colour to make
room for the few outside the gamut.

One ruling on top of the profile: pure black (#000000) in vector drawing (text,
lines, crop marks) becomes 100% K alone, as prepress does, so thin black text
and hairlines do not depend on four plates being in register. Images go
through the profile unchanged.

A print service may also cap the total ink (DriveThruCards: 240%) below what
the profile allows (300% for the bundled one). With a limit, every separated
colour and pixel over it is brought down: first the grey that cyan, magenta
and yellow have in common is moved to black (grey component replacement,
which keeps the colour's darkness), then, if still over, cyan, magenta and
yellow are scaled down together. Colours within the limit are untouched.
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from protopress.files import NotRegularFile, open_regular
from protopress.generators.colours import Colour
from protopress.generators.images import open_image

__all__ = [
    "BUNDLED_PROFILE",
    "INTENT",
    "CmykProfile",
    "Separation",
    "check_profile",
    "SeparatedImage",
    "load_profile",
    "separation",
]

BUNDLED_PROFILE = "ISOcoated_v2_300_bas.icc"  # basICColor, FOGRA39, 300% total ink, zlib licence
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC
FLAGS = ImageCms.Flags.BLACKPOINTCOMPENSATION
INTENT_NAME = "relative colorimetric with black point compensation"
MAX_PROFILE_BYTES = 16 * 1024 * 1024  # a CMYK output profile is a few MiB at most
IMAGE_CACHE_BYTES = 256 * 1024 * 1024  # separated art kept for reuse (one 64-megapixel image)
_REGISTERED = {BUNDLED_PROFILE: "FOGRA39"}  # output conditions of the ICC registry


@dataclass(frozen=True)
class CmykProfile:
    """A CMYK output profile: its bytes (embedded in PDF/X) and what it names."""

    label: str  # how the user named it, or the bundled file's name
    data: bytes = field(repr=False)
    description: str  # the profile's own description tag
    condition: str  # OutputConditionIdentifier: a registry name (FOGRA39) or "Custom"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def load_profile(path: Path | None = None) -> CmykProfile:
    """The bundled profile (path None) or the CMYK output profile at path.

    Raises ValueError naming the file when it is not an ICC profile, not CMYK or
    not an output (printer) profile: an RGB or a monitor profile cannot separate.
    """
    if path is None:
        data = resources.files(__package__).joinpath("profiles", BUNDLED_PROFILE).read_bytes()
        return check_profile(BUNDLED_PROFILE, data, _REGISTERED[BUNDLED_PROFILE])
    try:
        with open_regular(path) as stream:  # a FIFO or a device is refused, never read
            data = stream.read(MAX_PROFILE_BYTES + 1)
    except NotRegularFile as error:
        raise ValueError(
            f"{path}: cannot read the ICC profile ({error.kind}, not a regular file)"
        ) from None
    except OSError as error:
        raise ValueError(f"{path}: cannot read the ICC profile ({error.strerror})") from None
    if len(data) > MAX_PROFILE_BYTES:
        raise ValueError(
            f"{path}: larger than {MAX_PROFILE_BYTES // 2**20} MiB; not an ICC profile"
        )
    return check_profile(str(path), data, "Custom")


def check_profile(label: str, data: bytes, condition: str = "Custom") -> CmykProfile:
    """The profile in data, or ValueError naming label when it is no CMYK output profile."""
    if len(data) < 132 or data[36:40] != b"acsp":  # the header's signature, ICC.1 7.2.9
        raise ValueError(f"{label}: not an ICC profile (no 'acsp' signature in its header)")
    declared = int.from_bytes(data[:4], "big")
    if declared > len(data):  # cut short (bytes past the declared size are ignored)
        raise ValueError(
            f"{label}: not a readable ICC profile (its header gives {declared} bytes, the "
            f"file has {len(data)})"
        )
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile
    except (OSError, ImageCms.PyCMSError) as error:
        raise ValueError(f"{label}: not a readable ICC profile ({error})") from None
    if profile.xcolor_space.strip() != "CMYK":
        raise ValueError(
            f"{label}: its colour space is {profile.xcolor_space.strip()}; a CMYK output "
            "profile is needed"
        )
    if profile.device_class != "prtr":
        raise ValueError(
            f"{label}: a CMYK profile of class {profile.device_class!r}; an output (printer, "
            "'prtr') profile is needed"
        )
    try:
        ImageCms.buildTransform(_srgb(), ImageCms.ImageCmsProfile(io.BytesIO(data)), "RGB",
                                "CMYK", INTENT, FLAGS)  # fmt: skip
    except (OSError, ImageCms.PyCMSError) as error:
        raise ValueError(f"{label}: not a usable CMYK profile ({error})") from None
    description = (profile.profile_description or "").strip() or Path(label).name
    return CmykProfile(label, data, description, condition)


@dataclass(frozen=True)
class SeparatedImage:
    """Art separated to CMYK, and its alpha (None when opaque) for a soft mask."""

    cmyk: Image.Image
    alpha: Image.Image | None

    @property
    def size(self) -> int:
        """Bytes of pixels held."""
        pixels = self.cmyk.width * self.cmyk.height
        return pixels * (5 if self.alpha is not None else 4)


def limited(cmyk: tuple[float, float, float, float], limit: float) -> tuple[float, ...]:
    """A CMYK colour (0..1 each) with its total ink brought within limit (1 = 100%),
    grey component replaced by black first (see the module docstring)."""
    c, m, y, k = cmyk
    excess = c + m + y + k - limit
    if excess <= 0:
        return cmyk
    moved = min(c, m, y, 1 - k, excess / 2)  # each unit moved saves two of ink
    c, m, y, k = c - moved, m - moved, y - moved, k + moved
    colour = c + m + y
    if colour + k > limit and colour > 0:
        factor = (limit - k) / colour
        c, m, y = c * factor, m * factor, y * factor
    return c, m, y, k


def limited_image(image: Image.Image, limit: float) -> Image.Image:
    """A CMYK image with every pixel's total ink within limit, as limited does it."""
    top = limit * 255 - 1  # a level below, so that rounding the channels cannot go over
    c, m, y, k = (band.convert("F") for band in image.split())

    def math(expression, **bands) -> Image.Image:
        result = ImageMath.lambda_eval(expression, **bands)
        assert isinstance(result, Image.Image)
        return result

    total = math(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    highest = total.getextrema()[1]
    if isinstance(highest, (int, float)) and highest <= top:
        return image
    moved = math(  # the grey moved to black, per pixel: 0 where within the limit
        lambda e: e["max"](e["min"](e["min"](e["min"](e["c"], e["m"]), e["y"]),
                                    e["min"](255 - e["k"], (e["t"] - top) / 2)), 0),
        c=c, m=m, y=y, k=k, t=total,
    )  # fmt: skip
    c, m, y = (math(lambda e: e["a"] - e["d"], a=band, d=moved) for band in (c, m, y))
    k = math(lambda e: e["a"] + e["d"], a=k, d=moved)
    colour = math(lambda e: e["c"] + e["m"] + e["y"], c=c, m=m, y=y)
    factor = math(lambda e: e["min"]((top - e["k"]) / e["max"](e["s"], 1), 1), k=k, s=colour)
    bands = [math(lambda e: e["a"] * e["f"], a=band, f=factor) for band in (c, m, y)]
    bands.append(math(lambda e: e["a"] + 0.5, a=k))  # black rounded, the others cut down
    return Image.merge("CMYK", [band.convert("L") for band in bands])


class Separation:
    """sRGB to CMYK through one profile (and a total ink limit, when one is
    given: 2.4 for 240%); transforms are built once and kept."""

    def __init__(self, profile: CmykProfile, max_ink: float | None = None):
        self.profile = profile
        self.max_ink = max_ink
        self._output = ImageCms.ImageCmsProfile(io.BytesIO(profile.data))
        self._colours: dict[Colour, tuple[float, float, float, float]] = {}
        self._transforms: dict[bytes, ImageCms.ImageCmsTransform] = {}
        self._images: OrderedDict[tuple, SeparatedImage] = OrderedDict()  # least recent first
        self._image_bytes = 0

    def transform(self, source: bytes | None = None) -> ImageCms.ImageCmsTransform:
        """The RGB to CMYK transform from source (an ICC profile's bytes; None: sRGB)."""
        key = source or b""
        if key not in self._transforms:
            inp = ImageCms.ImageCmsProfile(io.BytesIO(source)) if source else _srgb()
            self._transforms[key] = ImageCms.buildTransform(
                inp, self._output, "RGB", "CMYK", INTENT, FLAGS
            )
        return self._transforms[key]

    def colour(self, colour: Colour) -> tuple[float, float, float, float]:
        """The colour's CMYK values (0..1, to 1/255 as LittleCMS gives them)."""
        if colour not in self._colours:
            if colour.rgb255() == (0, 0, 0):
                self._colours[colour] = (0.0, 0.0, 0.0, 1.0)  # 100% K: see the module docstring
            else:
                pixel = Image.new("RGB", (1, 1), colour.rgb255())
                values = self.transform().apply(pixel).tobytes()  # one CMYK pixel
                c, m, y, k = (round(v / 255, 4) for v in values)
                if self.max_ink is not None:  # a hair below the limit: the values are rounded
                    c, m, y, k = (round(v, 4) for v in limited((c, m, y, k), self.max_ink - 0.001))
                self._colours[colour] = (c, m, y, k)
        return self._colours[colour]

    def image(self, path: Path) -> SeparatedImage:
        """The art at path in CMYK (its own RGB profile honoured, else sRGB assumed).

        Separated art is kept, up to IMAGE_CACHE_BYTES of pixels, so art drawn on
        many faces and in both files of a kind is separated once."""
        key = (path, *_stamp(path))
        if key in self._images:
            self._images.move_to_end(key)
            return self._images[key]
        art = _separated(self, path)
        self._images[key] = art
        self._image_bytes += art.size
        while self._image_bytes > IMAGE_CACHE_BYTES and len(self._images) > 1:
            _, dropped = self._images.popitem(last=False)
            self._image_bytes -= dropped.size
        return art


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def _separated(separation: Separation, path: Path) -> SeparatedImage:
    with open_image(path, path.name) as image:
        image.load()
        embedded = image.info.get("icc_profile")
        alpha = None
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            rgba = image.convert("RGBA")
            alpha = rgba.getchannel("A")
            if alpha.getextrema() == (255, 255):
                alpha = None
            rgb = rgba.convert("RGB")
        else:
            rgb = image.convert("RGB")
    source = embedded if embedded and _is_rgb(embedded) else None
    cmyk = ImageCms.applyTransform(rgb, separation.transform(source))
    assert cmyk is not None
    if separation.max_ink is not None:
        cmyk = limited_image(cmyk, separation.max_ink)
    return SeparatedImage(cmyk, alpha)


def _is_rgb(data: bytes) -> bool:
    try:
        return ImageCms.ImageCmsProfile(io.BytesIO(data)).profile.xcolor_space.strip() == "RGB"
    except (OSError, ImageCms.PyCMSError):
        return False  # a broken embedded profile: the art is taken as sRGB


@functools.lru_cache(maxsize=1)
def _srgb() -> ImageCms.ImageCmsProfile:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


def separation(path: Path | None = None, max_ink: float | None = None) -> Separation:
    """The separation through the profile at path (None: the bundled one), within
    max_ink (1 = 100%; None: the profile's own), cached per profile file and
    limit so every file of a render shares its checks and transforms."""
    return _separation(path, *(_stamp(path) if path is not None else (0, 0)), max_ink)


@functools.lru_cache(maxsize=8)
def _separation(path: Path | None, mtime: int, size: int, max_ink: float | None) -> Separation:
    return Separation(load_profile(path), max_ink)

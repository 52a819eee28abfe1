"""Where a face's images may come from: the catalog's folder (unless allowed
otherwise), files that exist and are images by their content, and not absurdly
large (checked from the header, before any pixel is decoded)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from protopress.components.problems import InvalidInput
from protopress.generators.images import ImageRefused, image_format, open_image
from protopress.generators.vector_art import VectorArt

MAX_IMAGE_PIXELS = 64_000_000  # an A3 poster at 600 dpi; larger images are refused unread


class MissingAsset(ValueError):
    """An image that is not there: a render draws a placeholder in its place (an
    image refused for what it is, or for where it lies, stops the render instead)."""


class AssetPolicy:
    """Where images may come from: under the catalog's folder unless allowed,
    existing, readable as images, and not absurdly large (checked from the
    header, before any pixel is decoded)."""

    def __init__(self, root: Path, allow_outside: bool = False):
        self.root = root.resolve()
        self.allow_outside = allow_outside
        self._checked: dict[Path, Path] = {}
        self._sizes: dict[Path, tuple[float, float]] = {}
        self._art: dict[Path, VectorArt] = {}
        self._fonts_checked: dict[int, object] = {}  # id -> layout (kept, so ids stay unique)

    def check_fonts(self, layout) -> None:
        """Raise InvalidInput, located in the layout, for fonts that lie outside the
        catalog's folder and the layout's own (unless allowed) or cannot be used."""
        if id(layout) in self._fonts_checked:
            return
        problems = layout.font_problems(self.root, self.allow_outside)
        if problems:
            raise InvalidInput(problems)
        self._fonts_checked[id(layout)] = layout

    def resolve(self, relative: str) -> Path:
        if "\0" in relative:  # no file system takes one; the error would name no image
            raise ValueError(f"image {relative!r} cannot be used: a name holds no NUL character")
        try:
            path = (self.root / relative).resolve()
        except (OSError, RuntimeError) as error:  # a symlink loop (RuntimeError before 3.13)
            raise ValueError(f"image {relative!r} cannot be resolved: {error}") from None
        if path in self._checked:
            return path
        if not self.allow_outside and not path.is_relative_to(self.root):
            raise ValueError(
                f"image {relative!r} lies outside the catalog folder {self.root} "
                "(use --allow-outside-assets to allow it)"
            )
        try:
            found = path.is_file()
        except OSError as error:  # a name too long for the file system
            raise ValueError(f"image {relative!r} cannot be used: {error.strerror}") from None
        if not found:
            raise MissingAsset(f"image {relative!r} not found (looked for {path})")
        try:
            image_kind = image_format(path)
        except OSError as error:
            raise ValueError(f"image {relative!r} cannot be read: {error}") from None
        if image_kind == "SVG":
            # its references stay inside the catalog folder (or, for an SVG
            # allowed from outside, inside its own folder)
            roots = (self.root,) if path.is_relative_to(self.root) else (path.parent,)
            # svg.py loads svglib, lxml and reportlab.graphics: only for a catalog with SVG art
            from protopress.generators.svg import load_svg

            art = load_svg(path, relative, roots)
            self._checked[path] = path
            self._sizes[path] = (art.width, art.height)
            self._art[path] = art
            return path
        width, height = _checked_image(path, relative)
        if width * height > MAX_IMAGE_PIXELS:
            raise ValueError(
                f"image {relative!r} is {width}x{height} pixels; images over "
                f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are refused"
            )
        self._checked[path] = path
        self._sizes[path] = (width, height)
        return path

    def size(self, path: Path) -> tuple[float, float]:
        """The pixel size of an image resolve() has checked (an SVG's own size in points)."""
        return self._sizes[path]

    def art(self, path: Path) -> VectorArt | None:
        """The drawing of an SVG resolve() has checked; None for a raster image."""
        return self._art.get(path)


def _checked_image(path: Path, relative: str) -> tuple[int, int]:
    """The size of an allowed image, decoded once here so that a truncated or
    damaged file is reported by name rather than halfway through a page."""
    try:
        with open_image(path, relative) as image:  # content checked before Pillow opens it
            width, height = image.size
            if width * height <= MAX_IMAGE_PIXELS:
                image.load()
    except Image.DecompressionBombError:
        raise ValueError(
            f"image {relative!r} is over {MAX_IMAGE_PIXELS // 1_000_000} megapixels "
            "(a decompression bomb?); refused"
        ) from None
    except ImageRefused:
        raise
    except (OSError, SyntaxError, EOFError, ValueError) as error:  # Pillow's "damaged"
        # ValueError: a text chunk past Pillow's bound on decompressing it (a bomb)
        raise ValueError(f"image {relative!r} cannot be read: {error}") from None
    return width, height

"""Pictures on a face: fitted or cropped to their box, print warnings, a missing one's stand-in."""

from __future__ import annotations

from dataclasses import replace

from protopress.generators.assets import MissingAsset
from protopress.generators.binding import fill
from protopress.generators.colours import Colour
from protopress.generators.face import ImageOp, LineOp, Op, RectOp, TextOp
from protopress.generators.face_elements import FieldError
from protopress.generators.face_shapes import ShapeDrawing
from protopress.generators.fonts import DEFAULT_FONT
from protopress.generators.scripts import aligned
from protopress.generators.units import to_mm
from protopress.generators.vector_art import VectorArt

PLACEHOLDER_INK = Colour(0.85, 0.1, 0.1)  # a missing image's crossed box and name
PLACEHOLDER_PAPER = Colour(1.0, 0.93, 0.93)


class ImageDrawing(ShapeDrawing):
    """The builder's pictures: an image element, or its placeholder when it is missing."""

    def _image(self, element, fields, warnings, component_id):
        if self.assets is None:
            return []
        label = fill(element["path"], fields)
        box = self._box(element)
        try:
            path = self.assets.resolve(label)
        except MissingAsset as error:
            self._missing_art("path", str(error))
            return self._placeholder(label, box)
        except ValueError as error:  # refused: located at the element's path, naming the component
            raise FieldError("path", str(error)) from None
        fit = element.get("fit", "contain")
        size, art = self.assets.size(path), self.assets.art(path)
        placed = fitted_image(size, box, fit, aligned(element.get("align", "center"), ""),
                              element.get("valign", "middle"))(path, art)  # fmt: skip
        if "clip" in element:
            placed = replace(placed, mask=self._clip_shape(element, box))
        warnings.extend(
            art_warnings(f"{component_id}: image {label!r}", size, art, box, fit, placed)
        )
        return [placed]

    def _placeholder(self, label: str, box) -> list[Op]:
        """A crossed box with the image's name, where the image would go."""
        x, y, w, h = box
        ops: list[Op] = [
            RectOp(x, y, w, h, PLACEHOLDER_PAPER, PLACEHOLDER_INK, 1.0),
            LineOp(x, y, x + w, y + h, PLACEHOLDER_INK, 1.0),
            LineOp(x, y + h, x + w, y, PLACEHOLDER_INK, 1.0),
        ]
        name_font = self._font(DEFAULT_FONT)
        size = min(8.0, h / 4)
        width = name_font.width(label, size)
        if width > w * 0.9:
            size *= w * 0.9 / width
            width = name_font.width(label, size)
        if size >= 3:  # smaller, no one reads it: the box and its cross still show
            baseline = y + (h + name_font.ascent(size)) / 2
            run = ((x + (w - width) / 2, baseline, label),)
            ops += [RectOp(x + (w - width) / 2 - 1, y + (h - size) / 2 - 1, width + 2, size + 2,
                           PLACEHOLDER_PAPER),  # the name stays readable over the cross
                    TextOp(run, name_font, size, PLACEHOLDER_INK)]  # fmt: skip
        return ops


PRINT_DPI = 300  # below this a raster picture prints visibly soft


def art_warnings(name: str, size, art: VectorArt | None, box, fit: str, placed: ImageOp):
    """What a designer should hear about a placed picture: stretched out of its
    shape, printing below PRINT_DPI (rasters only: vectors are sharp at any
    size), or an SVG with parts svglib could not draw."""
    found: list[str] = []
    shape = (
        f"an SVG of {size[0]:g}x{size[1]:g} pt"
        if art is not None
        else f"{size[0]}x{size[1]} pixels"
    )
    if min(size[0], size[1], box[2], box[3], placed.w, placed.h) <= 0:
        return found  # nothing of it is drawn: no shape to keep, no resolution to judge
    if fit == "stretch" and abs(size[0] / size[1] - box[2] / box[3]) > 0.01 * size[0] / size[1]:
        found.append(f"{name} is stretched out of shape ({shape} into a "
                     f"{to_mm(box[2]):.0f}x{to_mm(box[3]):.0f} mm box)")  # fmt: skip
    if art is None:
        dpi = min(size[0] / (placed.w / 72), size[1] / (placed.h / 72))
        if dpi < PRINT_DPI - 1e-6:
            found.append(f"{name} prints at {int(dpi + 1e-6)} dpi at its drawn size "
                         f"({size[0]}x{size[1]} pixels over {to_mm(placed.w):.0f}x"
                         f"{to_mm(placed.h):.0f} mm); {PRINT_DPI} dpi or more prints sharp")  # fmt: skip
    else:
        found.extend(f"{name}: part of the SVG is not drawn ({note})" for note in art.notes[:3])
    return found


def fitted_image(size: tuple[float, float], box, fit: str, align: str, valign: str):
    """Where a picture of size (pixels, or an SVG's own size) goes in box: whole
    (contain), filling it and cropped (cover) or stretched to it (stretch);
    align and valign place it."""
    x, y, w, h = box
    if fit == "stretch":
        return lambda path, art=None: ImageOp(path, x, y, w, h, art=art)
    scale = (min if fit == "contain" else max)(w / size[0], h / size[1])
    pw, ph = size[0] * scale, size[1] * scale
    px = x + {"left": 0, "center": (w - pw) / 2, "right": w - pw}[align]
    py = y + {"top": 0, "middle": (h - ph) / 2, "bottom": h - ph}[valign]
    clip = box if fit == "cover" else None
    return lambda path, art=None: ImageOp(path, px, py, pw, ph, clip, art)

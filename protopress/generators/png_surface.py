"""Draw a face into a Pillow image at an exact pixel size.

Shapes are drawn supersampled and scaled down, since Pillow does not
anti-alias polygons; text uses the same TrueType files and the same line
positions as the PDF."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from protopress.generators.face import Face, ImageOp, LineOp, PolygonOp, RectOp, TextOp
from protopress.generators.images import open_image

SUPERSAMPLE = 3


def pixel_size(face: Face, dpi: int) -> tuple[int, int]:
    return round(face.width * dpi / 72), round(face.height * dpi / 72)


def face_image(face: Face, dpi: int = 300, supersample: int = SUPERSAMPLE) -> Image.Image:
    """The face at dpi, bleed included, as an RGB image of exactly pixel_size pixels."""
    width, height = pixel_size(face, dpi)
    scale = dpi / 72 * supersample
    image = Image.new("RGB", (width * supersample, height * supersample), "white")
    draw = ImageDraw.Draw(image)
    for op in face.ops:
        if isinstance(op, RectOp):
            box = [op.x * scale, op.y * scale, (op.x + op.w) * scale - 1, (op.y + op.h) * scale - 1]
            draw.rounded_rectangle(
                box,
                radius=op.radius * scale,
                fill=op.fill.rgb255() if op.fill else None,
                outline=op.stroke.rgb255() if op.stroke else None,
                width=max(1, round(op.stroke_width * scale)) if op.stroke else 0,
            )
        elif isinstance(op, LineOp):
            width = max(1, round(op.stroke_width * scale))
            for x1, y1, x2, y2 in _dashes(op, scale):
                draw.line([x1, y1, x2, y2], fill=op.stroke.rgb255(), width=width)
        elif isinstance(op, PolygonOp):
            _polygon(image, op, scale)
        elif isinstance(op, TextOp):
            pillow_font = op.font.pillow(max(1, round(op.size * scale)))
            for x, baseline, text in op.runs:
                draw.text((x * scale, baseline * scale), text, font=pillow_font,
                          fill=op.colour.rgb255(), anchor="ls")  # fmt: skip
        elif isinstance(op, ImageOp):
            with open_image(op.path, op.path.name) as source:
                size = (round(op.w * scale), round(op.h * scale))
                image.paste(source.convert("RGB").resize(size, Image.LANCZOS),
                            (round(op.x * scale), round(op.y * scale)))  # fmt: skip
    return image.reduce(supersample) if supersample > 1 else image  # box filter: exact size


def _dashes(op: LineOp, scale: float):
    """The drawn pieces of a line (the whole line when it is not dashed), in pixels."""
    x1, y1, x2, y2 = op.x1 * scale, op.y1 * scale, op.x2 * scale, op.y2 * scale
    if not op.dash or sum(op.dash) <= 0:
        yield x1, y1, x2, y2
        return
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    pattern = [d * scale for d in (op.dash if len(op.dash) % 2 == 0 else op.dash * 2)]
    at, index = 0.0, 0
    while at < length:
        step = pattern[index % len(pattern)]
        end = min(at + step, length)
        if index % 2 == 0 and end > at:  # even entries are dashes, odd ones gaps
            yield (x1 + (x2 - x1) * at / length, y1 + (y2 - y1) * at / length,
                   x1 + (x2 - x1) * end / length, y1 + (y2 - y1) * end / length)  # fmt: skip
        at, index = end, index + 1


def _polygon(image: Image.Image, op: PolygonOp, scale: float) -> None:
    """Fill with the even-odd rule (holes cut out), working only inside the bounding box."""
    points = [[(x * scale, y * scale) for x, y in contour] for contour in op.contours]
    left = int(min(x for contour in points for x, _ in contour)) - 2
    top = int(min(y for contour in points for _, y in contour)) - 2
    right = int(max(x for contour in points for x, _ in contour)) + 3
    bottom = int(max(y for contour in points for _, y in contour)) + 3
    box = (right - left, bottom - top)
    if op.fill is not None:
        mask = Image.new("1", box, 0)
        for contour in points:
            layer = Image.new("1", box, 0)
            ImageDraw.Draw(layer).polygon([(x - left, y - top) for x, y in contour], fill=1)
            mask = ImageChops.logical_xor(mask, layer)
        image.paste(op.fill.rgb255(), (left, top), mask=mask)
    if op.stroke is not None:
        draw = ImageDraw.Draw(image)
        width = max(1, round(op.stroke_width * scale))
        for contour in points:
            draw.line([*contour, contour[0]], fill=op.stroke.rgb255(), width=width, joint="curve")

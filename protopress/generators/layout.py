"""Layouts: how each component kind is drawn, as JSON data checked by
layout.schema.json. Built-in kinds ship a default layout; a designer's folder
of layouts (one <kind>.json each) overrides them."""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import ImageFont
from reportlab.pdfbase.ttfonts import TTFont

from protopress.components.explain import Located
from protopress.components.jsonpos import escape_token
from protopress.components.loader import load_document
from protopress.files import NotRegularFile, read_regular
from protopress.generators.fonts import BUILTIN_FONTS, Font, font
from protopress.generators.units import MM, parse_length, to_mm

LAYOUT_SCHEMA = "layout.schema.json"
BUILTIN_LAYOUTS = Path(__file__).parent / "layouts"
MIN_SAFE_ZONE = 2 * MM  # narrower, a hand or die cut may clip the content


@dataclass(frozen=True)
class Layout:
    kind: str
    width: float  # trim, points
    height: float
    safe: float
    corner_radius: float
    front: tuple[dict, ...]
    back: tuple[dict, ...] | None
    source: Path
    fonts: dict[str, Path] = field(default_factory=dict)

    def safe_zone_warnings(self) -> list[str]:
        """A safe zone narrower than MIN_SAFE_ZONE, and text boxes and data icons
        that reach outside the safe zone, where a cut may clip them."""
        warnings = []
        if self.safe < MIN_SAFE_ZONE - 1e-6:
            warnings.append(
                f"{self.source.name}: safe zone of {to_mm(self.safe):g} mm is narrower than "
                f"{to_mm(MIN_SAFE_ZONE):g} mm; hand and die cuts drift more than that"
            )
        for side, elements in (("front", self.front), ("back", self.back or ())):
            for index, element in enumerate(elements):
                box = _content_box(element)
                if box is None:
                    continue
                x, y, w, h = box
                inside = (
                    x >= self.safe - 1e-6
                    and y >= self.safe - 1e-6
                    and x + w <= self.width - self.safe + 1e-6
                    and y + h <= self.height - self.safe + 1e-6
                )
                if not inside:
                    warnings.append(
                        f"{self.source.name} /{side}/{index}: {element['type']} "
                        f"{'box ' if element['type'] == 'text' else ''}reaches outside the "
                        f"safe zone ({to_mm(self.safe):g} mm inside the trim)"
                    )
        return warnings

    def font(self, name: str) -> Font:
        if name in self.fonts:
            return font(f"{self.source.stem}-{name}", self.fonts[name])
        return font(name)


def _content_box(element: dict) -> tuple[float, float, float, float] | None:
    """Where a text box or a data icon sits (x, y, w, h); None for other elements.
    A data icon shows the component: its shape comes from a field, or it is
    drawn only when a field is set. Fixed shapes (rings, frames) are decoration
    and may run to the trim."""
    if element["type"] == "text":
        keys = ("x", "y", "w", "h")
    elif element["type"] == "icon" and ("when" in element or "{" in str(element.get("shape", ""))):
        keys = ("x", "y", "icon_size", "icon_size")
    else:
        return None
    x, y, w, h = (parse_length(element[key]) for key in keys)
    return x, y, w, h


def load_layout(path: Path, display: str | None = None) -> Layout:
    """A layout file, validated; raises InvalidInput with located problems."""
    path = Path(path)
    document = load_document(path, LAYOUT_SCHEMA, display, extra_checks=_font_checks(path))
    size = document["size"]
    return Layout(
        kind=document["kind"],
        width=parse_length(size["width"]),
        height=parse_length(size["height"]),
        safe=parse_length(document.get("safe", 3)),
        corner_radius=parse_length(document.get("corner_radius", 0)),
        front=tuple(document["front"]),
        back=tuple(document["back"]) if "back" in document else None,
        source=path,
        fonts={
            name: (path.parent / file).resolve() for name, file in document.get("fonts", {}).items()
        },
    )


def _font_checks(path: Path):
    def check(document) -> list[Located]:
        findings = []
        if not isinstance(document, dict):
            return findings
        fonts = document.get("fonts", {})
        if isinstance(fonts, dict):
            for name, file in fonts.items():
                if isinstance(file, str):
                    problem = _font_file_problem(path, file)
                    if problem:
                        findings.append(Located(f"/fonts/{escape_token(name)}", problem))
        findings += _length_checks(document)
        known = set(BUILTIN_FONTS) | set(fonts if isinstance(fonts, dict) else {})
        for side in ("front", "back"):
            elements = document.get(side)
            for index, element in enumerate(elements if isinstance(elements, list) else []):
                name = element.get("font") if isinstance(element, dict) else None
                if isinstance(name, str) and name not in known:
                    findings.append(
                        Located(
                            f"/{side}/{index}/font",
                            f"unknown font {name!r}; fonts: {', '.join(sorted(known))}",
                        )
                    )
        return findings

    return check


MAX_LENGTH_MM = 1000  # as the schema's bound on lengths written as numbers
_ELEMENT_LENGTHS = ("x", "y", "w", "h", "x2", "y2", "radius", "icon_size", "gap", "label_width",
                    "line_height")  # fmt: skip


def _length_checks(document: dict) -> list[Located]:
    """Lengths written with a unit stay within the bounds of numeric ones (1000 mm), and
    the trim size is more than zero: no page or picture of absurd size gets drawn."""
    findings = []

    def check(pointer: str, value, positive: bool = False) -> None:
        if not isinstance(value, str):
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if positive and number and value <= 0:
                findings.append(Located(pointer, f"expected a size above 0, found {value!r}"))
            return
        try:
            length = to_mm(parse_length(value))
        except ValueError:
            return  # the schema's pattern says what a length is
        if not -MAX_LENGTH_MM <= length <= MAX_LENGTH_MM:
            findings.append(
                Located(pointer, f"{value!r} is out of range: expected -1000 to 1000 mm")
            )
        elif positive and length <= 0:
            findings.append(Located(pointer, f"expected a size above 0, found {value!r}"))

    size = document.get("size")
    if isinstance(size, dict):
        for key in ("width", "height"):
            check(f"/size/{key}", size.get(key), positive=True)
    for key in ("safe", "corner_radius"):
        check(f"/{key}", document.get(key))
    for side in ("front", "back"):
        elements = document.get(side)
        for index, element in enumerate(elements if isinstance(elements, list) else []):
            if isinstance(element, dict):
                for key in _ELEMENT_LENGTHS:
                    check(f"/{side}/{index}/{key}", element.get(key))
    return findings


MAX_FONT_BYTES = 64 * 1024 * 1024  # the largest CJK fonts are around 20 MiB


def _font_file_problem(layout: Path, file: str) -> str | None:
    """Why a layout's font file cannot be used, or None."""
    try:
        target = (layout.parent / file).resolve()
        if not target.is_relative_to(layout.parent.resolve()):
            return f"font file {file!r} lies outside the layout's folder"
        if not target.exists():
            return f"font file {file!r} not found"
        data = read_regular(target, MAX_FONT_BYTES)
    except NotRegularFile as error:
        return f"font file {file!r} is {error.kind}, not a regular file"
    except (OSError, ValueError, RuntimeError) as error:  # a NUL, a link loop (RuntimeError)
        return f"font file {file!r} cannot be used: {error}"
    if len(data) > MAX_FONT_BYTES:
        return f"font file {file!r} is larger than {MAX_FONT_BYTES // (1024 * 1024)} MiB"
    return _font_data_problem(file, data)


def _font_data_problem(file: str, data: bytes) -> str | None:
    """Why the bytes of a font file are no TrueType font both reportlab and
    Pillow can use: an empty, text, truncated or damaged file is told here, by
    name, rather than failing halfway through a render."""
    try:
        TTFont("protopress-check", io.BytesIO(data))
        ImageFont.truetype(io.BytesIO(data), 10)
    except Exception as error:  # the parsers raise anything on damaged data
        reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        return f"font file {file!r} is not a usable TrueType font ({reason})"
    return None


def builtin_layout_dirs() -> tuple[Path, ...]:
    """Where built-in layouts live: the shared kinds' folder, then each game's own."""
    from protopress.games import builtin_specs

    games = tuple(spec.layouts_dir for spec in builtin_specs() if spec.layouts_dir)
    return (BUILTIN_LAYOUTS, *games)


def builtin_layout_files() -> list[Path]:
    return sorted(path for folder in builtin_layout_dirs() for path in folder.glob("*.json"))


@functools.cache
def builtin_layout(kind: str) -> Layout | None:
    for folder in builtin_layout_dirs():
        path = folder / f"{kind}.json"
        if path.is_file():
            return load_layout(path)
    return None


def layouts_for(kinds, override_dir: Path | None = None) -> dict[str, Layout]:
    """The layout of each kind: the designer's own when present, else the built-in one.

    Kinds without any layout (gem definitions, scoring tables, ...) are not drawn.
    """
    result = {}
    for kind in kinds:
        own = override_dir / f"{kind}.json" if override_dir else None
        layout = load_layout(own) if own and own.is_file() else builtin_layout(kind)
        if layout is not None:
            result[kind] = layout
    return result

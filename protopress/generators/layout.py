"""Layouts: how each component kind is drawn, as JSON data checked by
layout.schema.json. Built-in kinds ship a default layout; a designer's folder
of layouts (one <kind>.json each) overrides them."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from protopress.components.explain import Located
from protopress.components.loader import load_document
from protopress.generators.fonts import BUILTIN_FONTS, Font, font
from protopress.generators.units import parse_length, to_mm

LAYOUT_SCHEMA = "layout.schema.json"
BUILTIN_LAYOUTS = Path(__file__).parent / "layouts"


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
        """Text boxes that reach outside the safe zone, where a cut may clip them."""
        warnings = []
        for side, elements in (("front", self.front), ("back", self.back or ())):
            for index, element in enumerate(elements):
                if element["type"] != "text":
                    continue
                x, y = parse_length(element["x"]), parse_length(element["y"])
                w, h = parse_length(element["w"]), parse_length(element["h"])
                inside = (
                    x >= self.safe - 1e-6
                    and y >= self.safe - 1e-6
                    and x + w <= self.width - self.safe + 1e-6
                    and y + h <= self.height - self.safe + 1e-6
                )
                if not inside:
                    warnings.append(
                        f"{self.source.name} /{side}/{index}: text box reaches outside the "
                        f"safe zone ({to_mm(self.safe):g} mm inside the trim)"
                    )
        return warnings

    def font(self, name: str) -> Font:
        if name in self.fonts:
            return font(f"{self.source.stem}-{name}", self.fonts[name])
        return font(name)


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
                target = (path.parent / str(file)).resolve()
                if not target.is_relative_to(path.parent.resolve()):
                    findings.append(
                        Located(
                            f"/fonts/{name}", f"font file {file!r} lies outside the layout's folder"
                        )
                    )
                elif not target.is_file():
                    findings.append(Located(f"/fonts/{name}", f"font file {file!r} not found"))
        known = set(BUILTIN_FONTS) | set(fonts if isinstance(fonts, dict) else {})
        for side in ("front", "back"):
            for index, element in enumerate(document.get(side) or []):
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


@functools.cache
def builtin_layout(kind: str) -> Layout | None:
    path = BUILTIN_LAYOUTS / f"{kind}.json"
    return load_layout(path) if path.is_file() else None


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

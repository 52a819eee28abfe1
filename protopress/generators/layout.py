"""Layouts: how each component kind is drawn, as JSON (or YAML) data checked by
layout.schema.json. Built-in kinds ship a default layout; a designer's folder
of layouts (one <kind>.json, <kind>.yaml or <kind>.yml each) overrides them."""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from PIL import ImageFont
from reportlab.pdfbase.ttfonts import TTFont

from protopress.components.explain import Located
from protopress.components.jsonpos import escape_token
from protopress.components.loader import (
    SOURCE_SUFFIXES,
    file_positions,
    load_document,
    parse_source_file,
)
from protopress.components.problems import InvalidInput, Problem
from protopress.components.schemas import kinds as builtin_kinds
from protopress.components.sizes import MIN_SIZE_MM, trim_of
from protopress.components.suggest import did_you_mean
from protopress.files import NotRegularFile, read_regular
from protopress.generators.expand import (
    LENGTH_KEYS,
    Deferred,
    Fragment,
    LayoutProblem,
    Origin,
    expand_side,
    per_component,
)
from protopress.generators.fonts import BUILTIN_FONTS, Font, font
from protopress.generators.otf import is_cff, truetype_file
from protopress.generators.sfnt import cmap_problem
from protopress.generators.units import MM, parse_length, to_mm

LAYOUT_SCHEMA = "layout.schema.json"
BUILTIN_LAYOUTS = Path(__file__).parent / "layouts"
MIN_SAFE_ZONE = 2 * MM  # narrower, a hand or die cut may clip the content


MAX_EXTENDS = 16  # layouts in one chain of extends
FRAGMENTS_SCHEMA = "layout-fragments.schema.json"
SIDES = ("front", "back")


@dataclass(frozen=True)
class Layout:
    kind: str
    width: float  # trim, points
    height: float
    safe: float
    corner_radius: float
    front: tuple[dict | Deferred, ...]  # plain elements; Deferred ones need a component
    back: tuple[dict | Deferred, ...] | None
    source: Path
    fonts: dict[str, Path] = field(default_factory=dict)
    origins: dict[str, tuple[Origin, ...]] = field(default_factory=dict, compare=False)
    font_origins: dict[str, Origin] = field(default_factory=dict, compare=False)
    shape: str = "rectangle"  # what the cut line follows: see components/sizes.py
    sized: bool = True  # False: no layout of the chain gives a size (a declared kind's does)

    def elements(
        self, side: str, fields, warnings: list, component_id: str
    ) -> list[tuple[dict, Origin | None]]:
        """The plain elements of one side of one component, with where each was
        written; problems of its bound repeats and positions become warnings naming
        the component and the element. LayoutProblem when the side's expansion
        passes the face's bounds (expand.Budget)."""
        found: list = []
        items = (self.front if side == "front" else self.back) or ()
        elements = list(per_component(items, self.origins.get(side, ()), fields, found))
        warnings.extend(f"{component_id}: {locate_origin(o, message)}" for o, message in found)
        return elements

    def safe_zone_warnings(self) -> list[str]:
        """A safe zone narrower than MIN_SAFE_ZONE, and text boxes and data icons
        that reach outside the safe zone, where a cut may clip them."""
        warnings = []
        if self.safe < MIN_SAFE_ZONE - 1e-6:
            warnings.append(
                f"{self.source.name}: safe zone of {to_mm(self.safe):g} mm is narrower than "
                f"{to_mm(MIN_SAFE_ZONE):g} mm; hand and die cuts drift more than that"
            )
        for side in SIDES:
            items = (self.front if side == "front" else self.back) or ()
            for element, origin in zip(items, self.origins.get(side, ()), strict=False):
                if isinstance(element, Deferred):
                    continue
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
                        f"{origin.path.name} {origin.pointer}: {element['type']} "
                        f"{'box ' if element['type'] == 'text' else ''}reaches outside the "
                        f"safe zone ({to_mm(self.safe):g} mm inside the trim)"
                    )
        return warnings

    def font_problems(self, root: Path, allow_outside: bool) -> list[Problem]:
        """Fonts must lie under the catalog's folder (root) or the folder of the layout
        that names them, unless allowed (--allow-outside-assets), like images. A font
        outside the layout's folder was not read when the layout was loaded: it is
        checked here, once its place is allowed."""
        problems = []
        for name, path in self.fonts.items():
            origin = self.font_origins.get(name, Origin(self.source, str(self.source), "/fonts"))
            written = str(path)
            folder = origin.path.parent.resolve()
            if path.is_relative_to(folder):
                continue  # checked whole when the layout was loaded
            problem: str | None
            if not allow_outside and not path.is_relative_to(root):
                problem = (f"font file {written!r} lies outside the catalog folder {root} and "
                           "the layout's folder (use --allow-outside-assets to allow it)")  # fmt: skip
            else:
                problem = font_file_problem(path, written)
            if problem:
                problems.append(problem_at(origin, problem))
        return problems

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


@dataclass(frozen=True)
class _Document:
    path: Path
    display: str
    content: dict

    def origin(self, pointer: str) -> Origin:
        return Origin(self.path, self.display, pointer)


def load_layout(path: Path, display: str | None = None) -> Layout:
    """A layout file with what it extends and uses, validated and expanded into plain
    elements; raises InvalidInput with located problems (in whichever file they are)."""
    path = Path(path)
    chain = _chain(path, display or str(path))
    try:
        return _assemble(chain)
    except LayoutProblem as problem:
        raise InvalidInput([problem_at(problem.origin, problem.message)]) from None


def _chain(path: Path, display: str) -> list[_Document]:
    """The layout and the layouts it extends, itself first; each valid on its own."""
    chain: list[_Document] = []
    while True:
        content = load_document(path, LAYOUT_SCHEMA, display, extra_checks=_file_checks(path))
        document = _Document(path, display, content)
        chain.append(document)
        if "extends" not in content:
            return chain
        parent, problem = _parent(path, content["extends"])
        seen = [d.path.resolve() for d in chain]
        if problem is None and parent.resolve() in seen:
            names = [d.path.name for d in chain[seen.index(parent.resolve()) :]]
            problem = f"extends goes round in a circle: {' -> '.join([*names, parent.name])}"
        if problem is None and len(chain) >= MAX_EXTENDS:
            problem = f"more than {MAX_EXTENDS} layouts extend each other"
        if problem:
            raise InvalidInput([problem_at(document.origin("/extends"), problem)])
        path, display = parent, _display_of(document, content["extends"], parent)


def _display_of(child: _Document, written: str, parent: Path) -> str:
    return str(Path(child.display).parent / written) if _is_file_name(written) else str(parent)


def _is_file_name(written: str) -> bool:
    """Whether extends names a layout file (base.json, base.yaml) rather than a built-in kind."""
    return written.lower().endswith(SOURCE_SUFFIXES)


def _parent(path: Path, written: str) -> tuple[Path, str | None]:
    """The file a layout extends (a path next to it, or a built-in kind), or a problem."""
    if _is_file_name(written):
        return path.parent / written, _file_problem(path, written, "layout")
    found = _builtin_path(written)
    if found is None:
        kinds = [p.stem for p in builtin_layout_files()]
        return path, f"no built-in layout {written!r}{did_you_mean(written, kinds)}"
    return found, None


def _assemble(chain: list[_Document]) -> Layout:
    """One layout from a chain of extends: the root's, overridden child by child."""
    settings: dict = {}
    fonts: dict[str, Path] = {}
    font_origins: dict[str, Origin] = {}
    fragments: dict[str, Fragment] = {}
    sides: dict[str, list | None] = {"front": None, "back": None}
    findings: list[tuple[Origin, str]] = []
    for document in reversed(chain):
        content = document.content
        settings.update({k: content[k] for k in ("kind", "size", "safe", "corner_radius")
                         if k in content})  # fmt: skip
        fonts.update({n: (document.path.parent / f).resolve()
                      for n, f in content.get("fonts", {}).items()})  # fmt: skip
        font_origins.update({n: document.origin(f"/fonts/{escape_token(n)}")
                             for n in content.get("fonts", {})})  # fmt: skip
        fragments.update(_fragments(document, findings))
        findings += _remove(document, sides)
        for side in SIDES:
            if side in content:
                findings += _merge(document, side, sides)
    findings += _use_problems(sides, fragments) + _font_problems(sides, fragments, fonts)
    if findings:
        raise InvalidInput([problem_at(origin, message) for origin, message in findings])
    expanded = {
        side: expand_side(sides[side], fragments) for side in SIDES if sides[side] is not None
    }
    width, height, shape = trim_of(settings["size"]) if "size" in settings else (0, 0, "rectangle")
    return Layout(
        kind=settings["kind"],
        width=width,
        height=height,
        shape=shape,
        sized="size" in settings,
        safe=parse_length(settings.get("safe", 3)),
        corner_radius=parse_length(settings.get("corner_radius", 0)),
        front=expanded["front"][0],
        back=expanded["back"][0] if "back" in expanded else None,
        source=chain[0].path,
        fonts=fonts,
        font_origins=font_origins,
        origins={side: origins for side, (_, origins) in expanded.items()},
    )


def _fragments(document: _Document, findings: list) -> dict[str, Fragment]:
    """The fragments a layout brings: from the files it uses, then its own (later wins)."""
    result = {}
    for index, file in enumerate(document.content.get("uses", [])):
        problem = _file_problem(document.path, file, "fragment")
        if problem:
            findings.append((document.origin(f"/uses/{index}"), problem))
            continue
        path, display = document.path.parent / file, str(Path(document.display).parent / file)
        content = load_document(path, FRAGMENTS_SCHEMA, display, extra_checks=_length_checks)
        result.update(_named_fragments(_Document(path, display, content)))
    result.update(_named_fragments(document))
    return result


def _named_fragments(document: _Document) -> dict[str, Fragment]:
    return {
        name: Fragment(tuple(elements), document.origin(f"/fragments/{escape_token(name)}"))
        for name, elements in document.content.get("fragments", {}).items()
    }


def _remove(document: _Document, sides: dict) -> list[tuple[Origin, str]]:
    """Drops the inherited elements a layout removes by name; a name not inherited is a problem."""
    findings = []
    for index, name in enumerate(document.content.get("remove", [])):
        for side in SIDES:
            kept = [(e, o) for e, o in sides[side] or () if e.get("name") != name]
            if sides[side] is not None and len(kept) < len(sides[side]):
                sides[side] = kept
                break
        else:
            known = [e["name"] for side in SIDES for e, _ in sides[side] or () if "name" in e]
            hint = did_you_mean(name, known) or (
                f"; names: {', '.join(known)}" if known else "; no inherited element has a name"
            )
            findings.append((document.origin(f"/remove/{index}"),
                             f"no inherited element named {name!r}{hint}"))  # fmt: skip
    return findings


def _merge(document: _Document, side: str, sides: dict) -> list[tuple[Origin, str]]:
    """A layout's elements of one side over the inherited ones: a named element replaces
    the inherited one of that name where it stood, any other is drawn after them."""
    merged = list(sides[side] or [])
    findings, own = [], set()
    for index, element in enumerate(document.content[side]):
        origin = document.origin(f"/{side}/{index}")
        name = element.get("name")
        if name is not None and name in own:
            findings.append((origin.at("/name"), f"two elements of the {side} are named {name!r}"))
        own.add(name)
        where = next((i for i, (e, _) in enumerate(merged) if name and e.get("name") == name), None)
        if where is None:
            merged.append((element, origin))
        else:
            merged[where] = (element, origin)
    sides[side] = merged
    return findings


def _each_element(sides: dict, fragments: Mapping[str, Fragment]):
    """Every written element, with where it was written."""
    for side in SIDES:
        yield from sides[side] or ()
    for fragment in fragments.values():
        for index, element in enumerate(fragment.elements):
            yield element, fragment.origin.at(f"/{index}")


def _use_problems(sides, fragments) -> list[tuple[Origin, str]]:
    return [
        (origin.at("/use"), f"unknown fragment {element['use']!r}"
         + (did_you_mean(element["use"], fragments) or _names(fragments, "fragments")))
        for element, origin in _each_element(sides, fragments)
        if element.get("type") == "fragment" and element["use"] not in fragments
    ]  # fmt: skip


def _names(names, what: str) -> str:
    return f"; {what}: {', '.join(sorted(names))}" if names else f"; there are no {what}"


def _font_problems(sides, fragments, fonts) -> list[tuple[Origin, str]]:
    known = set(BUILTIN_FONTS) | set(fonts)
    return [
        (origin.at("/font"), f"unknown font {element['font']!r}; fonts: {', '.join(sorted(known))}")
        for element, origin in _each_element(sides, fragments)
        if isinstance(element.get("font"), str) and element["font"] not in known
    ]


def problem_at(origin: Origin, message: str) -> Problem:
    """A problem at a pointer of a layout or fragment file, with its line and column there."""
    line, column = file_positions(origin.path).locate(origin.pointer)
    return Problem(origin.display, line, column, origin.pointer, message)


def locate_origin(origin: Origin, message: str) -> str:
    """file:line:column /pointer: message, for an element of a layout or fragment file."""
    return str(problem_at(origin, message))


def _file_checks(path: Path):
    """Checks of one layout file beyond its schema: font files and lengths."""

    def check(document) -> list[Located]:
        findings: list[Located] = []
        if not isinstance(document, dict):
            return findings
        fonts = document.get("fonts", {})
        if isinstance(fonts, dict):
            for name, file in fonts.items():
                if isinstance(file, str):
                    problem = _font_file_problem(path, file)
                    if problem:
                        findings.append(Located(f"/fonts/{escape_token(name)}", problem))
        return findings + _length_checks(document)

    return check


MAX_LENGTH_MM = 1000  # as the schema's bound on lengths written as numbers
_REPEAT_LENGTHS = ("dx", "dy", "row_dx", "row_dy")


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
            return  # the schema's pattern says what a length is (or it is a {field})
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
            findings += _trim_check(f"/size/{key}", size.get(key))
    for key in ("safe", "corner_radius"):
        check(f"/{key}", document.get(key))
    for pointer, element in _written_elements(document):
        for key in LENGTH_KEYS:
            check(f"{pointer}/{key}", element.get(key))
        repeat = element.get("repeat")
        for key in _REPEAT_LENGTHS if isinstance(repeat, dict) else ():
            check(f"{pointer}/repeat/{key}", repeat.get(key))
        findings += _dash_check(pointer, element.get("dash"))
        findings += _stops_check(pointer, element.get("fill"))
    return findings


def _stops_check(pointer: str, fill) -> list[Located]:
    """A gradient's stops: one per colour, each at or after the one before."""
    if not isinstance(fill, dict) or not isinstance(fill.get("stops"), list):
        return []
    stops, colours = fill["stops"], fill.get("linear", fill.get("radial"))
    if isinstance(colours, list) and len(stops) != len(colours):
        message = f"{len(stops)} stops for {len(colours)} colours; give one stop per colour"
        return [Located(f"{pointer}/fill/stops", message)]
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in stops)
    if numbers and any(b < a for a, b in zip(stops, stops[1:], strict=False)):
        message = f"stops {stops!r} go backwards; each is at or after the one before"
        return [Located(f"{pointer}/fill/stops", message)]
    return []


def _trim_check(pointer: str, value) -> list[Located]:
    """A trim at least MIN_SIZE_MM, as for declared kinds: a sheet fits
    (paper / size) faces across, so a 0.01 mm card without bleed asked for
    millions of slots per page and never finished."""
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            return []
        length = value if not isinstance(value, str) else to_mm(parse_length(value))
    except ValueError:
        return []
    if 0 < length < MIN_SIZE_MM:
        message = f"{value!r} is too small: a trim is at least {MIN_SIZE_MM:g} mm"
        return [Located(pointer, message)]
    return []


def _dash_check(pointer: str, dash) -> list[Located]:
    """A dash pattern of zeros only draws nothing, and PDF refuses it mid-render."""
    numbers = isinstance(dash, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in dash
    )
    if numbers and dash and not any(v > 0 for v in dash):
        message = f"dash {dash!r} has no length above 0; give one (e.g. [2, 1]) or [] for solid"
        return [Located(f"{pointer}/dash", message)]
    return []


def _written_elements(document: dict):
    """(pointer, element) of every element object of a side or fragment, however typed."""
    lists = [(f"/{side}", document.get(side)) for side in SIDES]
    fragments = document.get("fragments")
    if isinstance(fragments, dict):
        lists += [(f"/fragments/{escape_token(n)}", e) for n, e in fragments.items()]
    for pointer, elements in lists:
        for index, element in enumerate(elements if isinstance(elements, list) else []):
            if isinstance(element, dict):
                yield f"{pointer}/{index}", element


def _file_problem(layout: Path, file: str, what: str, confined: bool = True) -> str | None:
    """Why a file a layout names cannot be used, or None: it must exist and (confined)
    lie inside the layout's folder."""
    try:
        target = (layout.parent / file).resolve()
        if confined and not target.is_relative_to(layout.parent.resolve()):
            return f"{what} file {file!r} lies outside the layout's folder"
        if not target.exists():
            return f"{what} file {file!r} not found"
    except (OSError, ValueError, RuntimeError) as error:  # a NUL, a long name, a link loop
        return f"{what} file {file!r} cannot be used: {error}"
    return None


MAX_FONT_BYTES = 64 * 1024 * 1024  # the largest CJK fonts are around 20 MiB


def _font_file_problem(layout: Path, file: str) -> str | None:
    """Why a layout's font file cannot be used, or None. A font outside the layout's
    folder is read only once its place is allowed (Layout.font_problems, at render)."""
    problem = _file_problem(layout, file, "font", confined=False)
    if problem is not None:
        return problem
    target = (layout.parent / file).resolve()
    if not target.is_relative_to(layout.parent.resolve()):
        return None
    return font_file_problem(target, file)


def font_file_problem(target: Path, file: str) -> str | None:
    """Why the font file at target (written file) cannot be used, or None: not a
    regular file, too large, or no font (read boundedly)."""
    try:
        data = read_regular(target, MAX_FONT_BYTES)
    except NotRegularFile as error:
        return f"font file {file!r} is {error.kind}, not a regular file"
    except (OSError, ValueError, RuntimeError) as error:  # a NUL, a link loop (RuntimeError)
        return f"font file {file!r} cannot be used: {error}"
    if len(data) > MAX_FONT_BYTES:
        return f"font file {file!r} is larger than {MAX_FONT_BYTES // (1024 * 1024)} MiB"
    return _font_data_problem(file, data)


def _font_data_problem(file: str, data: bytes) -> str | None:
    """Why the bytes of a font file are no TrueType or OpenType font both
    reportlab and Pillow can use (an OTF's CFF outlines converted first): an
    empty, text, truncated or damaged file is told here, by name, rather than
    failing halfway through a render."""
    cff = is_cff(data)
    kind = "OpenType (CFF)" if cff else "TrueType"
    too_large = cmap_problem(data)  # before any font library expands the ranges
    if too_large is not None:
        return f"font file {file!r} is not a usable {kind} font ({too_large})"
    try:
        if cff:
            data = truetype_file(data).read_bytes()
        checked = TTFont("protopress-check", io.BytesIO(data))
        # every glyph read as embedding reads them: a font can parse, then fail to subset
        checked.face.makeSubset(sorted(checked.face.charToGlyph))
        ImageFont.truetype(io.BytesIO(data), 10)
    except Exception as error:  # the parsers raise anything on damaged data
        reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        return f"font file {file!r} is not a usable {kind} font ({reason})"
    return None


def builtin_layout_dirs() -> tuple[Path, ...]:
    """Where built-in layouts live: the shared kinds' folder, then each game's own."""
    from protopress.games import builtin_specs

    games = tuple(spec.layouts_dir for spec in builtin_specs() if spec.layouts_dir)
    return (BUILTIN_LAYOUTS, *games)


def builtin_layout_files() -> list[Path]:
    return sorted(path for folder in builtin_layout_dirs() for path in folder.glob("*.json"))


def _builtin_path(kind: str) -> Path | None:
    for folder in builtin_layout_dirs():
        path = folder / f"{kind}.json"
        if path.is_file():
            return path
    return None


def builtin_layout(kind: str) -> Layout | None:
    """The built-in layout of a kind, looked up afresh each time (a game registered
    later may bring one) and loaded once per file."""
    path = _builtin_path(kind)
    return _builtin_file(path) if path else None


@functools.cache
def _builtin_file(path: Path) -> Layout:
    return load_layout(path)


def own_layout(folder: Path, kind: str) -> Path | None:
    """The designer's layout of a kind in a --layouts folder: <kind>.json, .yaml or .yml;
    InvalidInput when more than one of them is there (which one is meant?)."""
    found = [path for path in (folder / f"{kind}{s}" for s in SOURCE_SUFFIXES) if path.is_file()]
    if len(found) > 1:
        names = " and ".join(path.name for path in found)
        message = f"two layouts of {kind}: {names}; keep one"
        raise InvalidInput([Problem(str(found[1]), 1, 1, "", message)])
    return found[0] if found else None


def is_layout_file(path: Path) -> bool:
    """Whether a file of a --layouts folder is a layout (by its suffix)."""
    return path.suffix.lower() in SOURCE_SUFFIXES


def layouts_for(kinds, override_dir: Path | None = None, catalog=None) -> dict[str, Layout]:
    """The layout of each kind: the designer's own when present, else the built-in one,
    else (a kind the catalog declares) the layout its declaration names, relative to
    the catalog. A declared size overrides the layout's. Without override_dir, the
    folder the catalog names (its `layouts` key) is the designer's.

    Kinds without any layout (gem definitions, scoring tables, ...) are not drawn.
    """
    declared = catalog.declared if catalog is not None else {}
    if override_dir is None and catalog is not None:
        override_dir = catalog_layouts_dir(catalog)
    result = {}
    for kind in kinds:
        own = own_layout(override_dir, kind) if override_dir else None
        layout: Layout | None
        if own is not None:
            layout = load_layout(own)
        elif kind in declared and declared[kind].layout:
            layout = _declared_layout(catalog, declared[kind])
        else:
            layout = builtin_layout(kind)
        if layout is not None and kind in declared and declared[kind].size is not None:
            width, height, shape = trim_of(declared[kind].size)
            layout = replace(layout, width=width, height=height, shape=shape, sized=True)
        if layout is not None and not layout.sized:
            problem = "no size: give the layout a size, or declare the kind's size in the catalog"
            raise InvalidInput([problem_at(Origin(layout.source, str(layout.source), ""), problem)])
        if layout is not None:
            result[kind] = layout
    return result


LAYOUTS_KEY = "layouts"  # the catalog's own folder of layouts, relative to it


def catalog_layouts_dir(catalog) -> Path | None:
    """The folder of layouts the catalog names (its `layouts` key), or None. A
    folder that is missing, not a folder, or outside the catalog's folder is a
    problem located at the key. `--layouts DIR` overrides it."""
    written = catalog.document.get(LAYOUTS_KEY) if catalog.path else None
    if not isinstance(written, str):
        return None
    origin = Origin(catalog.path, str(catalog.path), f"/{LAYOUTS_KEY}")
    folder = catalog.path.parent / written
    try:
        inside = folder.resolve().is_relative_to(catalog.path.parent.resolve())
        found = folder.is_dir()
    except (OSError, ValueError, RuntimeError) as error:  # a NUL, a long name, a link loop
        raise InvalidInput([problem_at(origin, f"layouts folder {written!r}: {error}")]) from None
    if not inside:
        problem = f"layouts folder {written!r} lies outside the catalog's folder"
        raise InvalidInput([problem_at(origin, problem)])
    if not found:
        problem = f"layouts folder {written!r} not found (looked for {folder})"
        raise InvalidInput([problem_at(origin, problem)])
    return folder


def unloaded_layout_problems(catalog_path: Path, override_dir: Path | None) -> list[Problem]:
    """The problems of every layout file in the folder a catalog that did not load
    names (its `layouts` key, read from its text), or in override_dir: reported in
    the same run as the catalog's own problems, never one run after them."""
    try:
        document = parse_source_file(catalog_path, str(catalog_path))
    except (OSError, InvalidInput):
        document = None
    document = document if isinstance(document, dict) else {}
    declared = document.get("kinds")
    # a folder may hold fragment files and bases too: only <kind>.json files are layouts
    names = {*builtin_kinds(), *(declared if isinstance(declared, dict) else ())}
    folder = override_dir
    if folder is None:
        written = document.get(LAYOUTS_KEY)
        if not isinstance(written, str):
            return []
        folder = catalog_path.parent / written
        try:
            if not folder.is_dir() or not folder.resolve().is_relative_to(
                catalog_path.parent.resolve()
            ):
                return []  # the catalog's own problem, once it loads
        except (OSError, ValueError, RuntimeError):
            return []
    problems: list[Problem] = []
    for path in sorted(
        p for p in folder.iterdir() if is_layout_file(p) and p.stem in names and p.is_file()
    ):
        try:
            load_layout(path)
        except InvalidInput as invalid:
            problems += invalid.problems
    return problems


def is_builtin_layout(layout: Layout) -> bool:
    """Whether a layout is one protopress ships (not the designer's own)."""
    source = layout.source.resolve()
    return any(source.is_relative_to(folder.resolve()) for folder in builtin_layout_dirs())


def _declared_layout(catalog, kind) -> Layout:
    """The layout a declared kind names, which must lie in the catalog's folder."""
    return catalog_layout(catalog, kind.layout, f"/kinds/{escape_token(kind.name)}/layout")


def catalog_layout(catalog, written: str, pointer: str) -> Layout:
    """A layout the catalog names at pointer, relative to the catalog and inside
    its folder; a missing or outside one is a problem located at pointer."""
    problem = _file_problem(catalog.path, written, "layout")
    if problem:
        origin = Origin(catalog.path, str(catalog.path), pointer)
        raise InvalidInput([problem_at(origin, problem)])
    return load_layout(catalog.path.parent / written)

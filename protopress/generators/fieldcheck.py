"""What a layout and a catalog must agree on, checked before a render.

The generic `card` kind takes free fields, so its schema cannot catch a typo: a
field that neither the card schema nor the card's layout knows is reported as a
located warning with the nearest known name ("titel": did you mean 'title'?).
A declared kind's layout may bind only the kind's declared fields and the
standard names (id, count, kind, catalog; index, number and item in repeats), and
the designer's own card layout only fields some card has: any other binding is a
located problem in the layout, with the nearest field's name (it would print
blank). A list of ids drawn by an `icons`, `legend` or `markers` element with
`from: <collection>` must name components of that collection: an unknown id is a
located problem (it would print as a blank icon). Both apply to the generic card
and to the kinds a catalog declares (whose schemas already refuse unknown fields).
validate, check, render, import and the preview run these checks (field_report,
the one function they share); render --strict makes the warnings errors.
validate and check also build the faces (drawn_problems), so that what a render
meets (missing images, unknown icons...) is reported up front, all at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from protopress.components.jsonpos import escape_token
from protopress.components.loader import file_positions
from protopress.components.problems import InvalidInput, Problem
from protopress.components.schemas import kinds, schema_documents
from protopress.components.suggest import did_you_mean
from protopress.generators.assets import AssetPolicy
from protopress.generators.binding import PLACEHOLDER
from protopress.generators.conditions import field_tested
from protopress.generators.expand import Deferred
from protopress.generators.face_builder import FaceBuilder, FaceProblem
from protopress.generators.layout import (
    LAYOUTS_KEY,
    Layout,
    is_builtin_layout,
    layouts_for,
    problem_at,
)

FREE_KIND = "card"  # the built-in kind whose fields are free


def used_fields(layout: Layout) -> set[str]:
    """The top-level field names a layout binds ({title}, {cost.0}) or tests (when)."""
    used: set[str] = set()
    for element in _elements(layout):
        _collect(element, used)
    return used


def _elements(layout: Layout) -> Iterator[dict]:
    for item in (*layout.front, *(layout.back or ())):
        yield item.element if isinstance(item, Deferred) else item


def _collect(value, used: set[str]) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            used.update(match.split(".")[0] for match in PLACEHOLDER.findall(item))
        elif isinstance(item, dict):
            for key, child in item.items():
                if key in ("when", "unless"):
                    tests = child if isinstance(child, list) else [child]
                    used.update(_tested(test) for test in tests if isinstance(test, str))
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)


def _tested(test: str) -> str:
    return field_tested(test.lstrip("!")).split(".")[0].strip()


def _drawn_lists(layout: Layout) -> Iterator[tuple[str, str]]:
    """(field, collection) of every element that draws a field's ids from a collection."""
    for element in _elements(layout):
        items, source = element.get("items"), element.get("from")
        if isinstance(items, str) and isinstance(source, str):
            match = PLACEHOLDER.fullmatch(items)
            if match and "." not in match.group(1):
                yield match.group(1), source


@dataclass(frozen=True)
class FieldReport:
    """What a catalog's designer kinds and their layouts disagree on."""

    problems: list[Problem]  # unknown ids in drawn lists, layout bindings to undeclared fields
    warnings: list[Problem]  # generic card fields that no layout uses (errors with --strict)
    # what drawing the faces meets (missing images, unknown icons, bad colours and sizes);
    # found only when asked (drawn=True): a render meets them as it draws
    drawn: list[Problem] = field(default_factory=list)

    @property
    def every_problem(self) -> list[Problem]:
        return sorted({*self.problems, *self.drawn})


def designer_layouts(catalog, layouts_dir: Path | None = None) -> dict[str, Layout]:
    """The layouts of the kinds these checks are for: the generic card and declared kinds."""
    wanted = [k for k in catalog.components if k == FREE_KIND or k in catalog.declared]
    return layouts_for(wanted, layouts_dir, catalog) if wanted else {}


def field_report(
    catalog, layouts: Mapping[str, Layout], drawn: bool = False, allow_outside: bool = False
) -> FieldReport:
    """The problems and warnings of the designer's kinds (the generic card and the
    declared kinds) drawn by layouts; with drawn, also what building their faces
    meets (drawn_problems), as validate and check report up front."""
    findings: list[tuple[str, str]] = []
    warnings: list[tuple[str, str]] = []
    layout_problems: list[Problem] = []
    every = {**kinds(), **catalog.declared}
    collections = {kind.collection: kind.name for kind in every.values()}
    for kind, layout in layouts.items():
        if kind != FREE_KIND and kind not in catalog.declared:
            continue
        collection = every[kind].collection
        if kind == FREE_KIND:
            builtin = is_builtin_layout(layout)
            warnings += _unused(catalog, collection, layout, builtin)
            if not builtin:  # the built-in look binds what it may; the hint above says why
                known = [*_card_fields(catalog, collection), *STANDARD_NAMES]
                layout_problems += _unknown_bindings(layout, known, f"any {FREE_KIND}")
        else:
            declared = catalog.declared[kind]
            layout_problems += _unknown_bindings(
                layout, [*declared.fields, *STANDARD_NAMES], declared.name
            )
        for name, source in _drawn_lists(layout):
            if source not in collections:
                continue  # the render says the collection is unknown, at the layout
            ids = {c.id for c in catalog.of_kind(collections[source])}
            for index, item in enumerate(catalog.document.get(collection) or ()):
                value = item.get(name)
                for position, entry in enumerate(value if isinstance(value, list) else ()):
                    if isinstance(entry, str) and entry not in ids:
                        pointer = f"/{collection}/{index}/{escape_token(name)}/{position}"
                        message = (
                            f"{entry!r} is not one of the {source} ({layout.source.name} draws "
                            f"{name} from {source}){did_you_mean(entry, ids)}"
                        )
                        findings.append((pointer, message))
    return FieldReport(
        sorted(_located(catalog, findings) + layout_problems),
        _located(catalog, warnings, key=True),
        drawn_problems(catalog, layouts, allow_outside) if drawn else [],
    )


def drawn_problems(catalog, layouts: Mapping[str, Layout], allow_outside: bool = False):
    """Every problem building the designer's kinds' faces meets, all at once: images
    missing or refused and unknown `:icons:` (which a render draws as placeholders),
    fonts, colours and sizes from fields (one per face: the face stops there)."""
    root = catalog.path.parent if catalog.path else Path.cwd()
    assets = AssetPolicy(root, allow_outside)
    found: set[Problem] = set()
    for kind, layout in layouts.items():
        if kind != FREE_KIND and kind not in catalog.declared:
            continue
        try:
            builder = FaceBuilder(layout, catalog, 0.0, assets, placeholders=True)
        except InvalidInput as invalid:  # its fonts
            found.update(invalid.problems)
            continue
        sides = ("front", "back") if layout.back is not None else ("front",)
        for component in catalog.of_kind(kind):
            for side in sides:
                try:
                    found.update(builder.build(component, side).problems)
                except FaceProblem as problem:
                    found.update(problem.problems)
    return sorted(found)


# Names every component's bindings have (face_builder.context), and those a repeat binds.
STANDARD_NAMES = ("id", "count", "kind", "catalog")
REPEAT_NAMES = ("index", "number", "item")


def _card_fields(catalog, collection: str) -> list[str]:
    """The generic card's fields: every one some card has (a field of the card
    schema that no card has prints blank all the same)."""
    names: dict[str, None] = {}
    for item in catalog.document.get(collection) or ():
        names.update(dict.fromkeys(item))
    return list(names)


def _unknown_bindings(layout: Layout, known: list[str], owner: str) -> list[Problem]:
    """A binding ({titel}, when: titel) in a layout to a name that is neither a field
    of the kind (known: a declared kind's fields, or those the generic cards have) nor
    a standard one, at the binding, with did-you-mean: it would print blank."""
    found: dict[tuple[str, str], Problem] = {}
    for side in ("front", "back"):
        items = (layout.front if side == "front" else layout.back) or ()
        for item, origin in zip(items, layout.origins.get(side, ()), strict=False):
            if isinstance(item, Deferred):
                element, local = item.element, {*item.context.scope, *REPEAT_NAMES}
                local |= _with_names(element)
            else:
                element, local = item, set()
            for pointer, name in _bindings(element):
                if name in known or name in local:
                    continue
                message = f"{name!r} is not a field of {owner}" + (
                    did_you_mean(name, known) or f"; fields: {', '.join(known)}"
                )
                problem = problem_at(origin.at(pointer), message)
                found.setdefault((problem.file, problem.pointer), problem)
    return list(found.values())


def _with_names(element: dict) -> set[str]:
    names: set[str] = set()
    stack: list = [element]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("with"), dict):
                names.update(item["with"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return names


def _bindings(element: dict) -> Iterator[tuple[str, str]]:
    """(pointer inside the element, top-level name) of each {binding} and when/unless test."""
    stack: list[tuple[str, object, str | None]] = [("", element, None)]
    while stack:
        pointer, item, key = stack.pop()
        if isinstance(item, str):
            if key in ("when", "unless"):
                yield pointer, _tested(item)
            else:
                for match in PLACEHOLDER.findall(item):
                    yield pointer, match.split(".")[0]
        elif isinstance(item, dict):
            for child_key, child in item.items():
                stack.append((f"{pointer}/{escape_token(child_key)}", child, child_key))
        elif isinstance(item, list):
            for index, child in enumerate(item):
                # a when written as one test is a list once expanded: point at the key
                at = pointer if key in ("when", "unless") else f"{pointer}/{index}"
                stack.append((at, child, key))


def _unused(catalog, collection: str, layout: Layout, builtin: bool) -> list[tuple[str, str]]:
    """Card fields no layout shows, with the nearest name the layout binds. Drawn by
    the built-in look, only its own fields are suggested (never the schema's `count`
    for a `cost`), and fields that are no typo of them bring a hint to name the
    catalog's layouts: the designer forgot them."""
    schema = schema_documents()[kinds()[FREE_KIND].schema_file]
    shown = used_fields(layout)
    known = set(schema["properties"]) | shown
    first: dict[str, str] = {}  # each unknown name once, where it is first written
    times: dict[str, int] = {}
    for index, item in enumerate(catalog.document.get(collection) or ()):
        for name in item:
            if name not in known:
                first.setdefault(name, f"/{collection}/{index}/{escape_token(name)}")
                times[name] = times.get(name, 0) + 1
    found = []
    suggested = shown if builtin else known
    for name, pointer in first.items():
        more = f" (in {times[name]} {collection})" if times[name] > 1 else ""
        message = f"field {name!r}{more} is not used by {layout.source.name}"
        found.append((pointer, message + did_you_mean(name, suggested)))
    if builtin and any(not did_you_mean(name, shown) for name in first):
        hint = (f"the {collection} are drawn with the built-in {FREE_KIND} layout, which shows "
                f"only {', '.join(sorted(shown))}: name your layouts folder in the catalog "
                f'("{LAYOUTS_KEY}": "layouts") or with --layouts DIR')  # fmt: skip
        found.insert(0, ("", hint))
    return found


def _located(catalog, findings: list[tuple[str, str]], key: bool = False) -> list[Problem]:
    if not findings:
        return []
    positions = file_positions(catalog.path)
    name = str(catalog.path)
    return sorted(
        Problem(name, *positions.locate(pointer, key=key), pointer, message)
        for pointer, message in findings
    )

"""What a layout and a catalog must agree on, checked before a render.

The generic `card` kind takes free fields, so its schema cannot catch a typo: a
field that neither the card schema nor the card's layout knows is reported as a
located warning with the nearest known name ("titel": did you mean 'title'?).
A list of ids drawn by an `icons`, `legend` or `markers` element with
`from: <collection>` must name components of that collection: an unknown id is a
located problem (it would print as a blank icon). Both apply to the generic card
and to the kinds a catalog declares (whose schemas already refuse unknown fields).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from protopress.components.jsonpos import escape_token, source_map
from protopress.components.problems import InvalidInput, Problem
from protopress.components.schemas import kinds, schema_documents
from protopress.components.suggest import did_you_mean
from protopress.files import read_text_again
from protopress.generators.binding import PLACEHOLDER
from protopress.generators.expand import Deferred
from protopress.generators.layout import Layout

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
    name = test.lstrip("!")
    for separator in "=~":
        name = name.split(separator, 1)[0]
    return name.split(".")[0].strip()


def _drawn_lists(layout: Layout) -> Iterator[tuple[str, str]]:
    """(field, collection) of every element that draws a field's ids from a collection."""
    for element in _elements(layout):
        items, source = element.get("items"), element.get("from")
        if isinstance(items, str) and isinstance(source, str):
            match = PLACEHOLDER.fullmatch(items)
            if match and "." not in match.group(1):
                yield match.group(1), source


def binding_problems(catalog, layouts: Mapping[str, Layout]) -> tuple[list[Problem], list[str]]:
    """Located problems (unknown ids in drawn lists) and warnings (unused card fields)
    of the designer's kinds: the generic card and the declared kinds."""
    findings: list[tuple[str, str]] = []
    warnings: list[tuple[str, str]] = []
    every = {**kinds(), **catalog.declared}
    collections = {kind.collection: kind.name for kind in every.values()}
    for kind, layout in layouts.items():
        if kind != FREE_KIND and kind not in catalog.declared:
            continue
        collection = every[kind].collection
        if kind == FREE_KIND:
            warnings += _unused(catalog, collection, layout)
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
    return _located(catalog, findings), [str(p) for p in _located(catalog, warnings, key=True)]


def _unused(catalog, collection: str, layout: Layout) -> list[tuple[str, str]]:
    schema = schema_documents()[kinds()[FREE_KIND].schema_file]
    known = set(schema["properties"]) | used_fields(layout)
    first: dict[str, str] = {}  # each unknown name once, where it is first written
    times: dict[str, int] = {}
    for index, item in enumerate(catalog.document.get(collection) or ()):
        for name in item:
            if name not in known:
                first.setdefault(name, f"/{collection}/{index}/{escape_token(name)}")
                times[name] = times.get(name, 0) + 1
    found = []
    for name, pointer in first.items():
        more = f" (in {times[name]} {collection})" if times[name] > 1 else ""
        message = f"field {name!r}{more} is not used by {layout.source.name}"
        found.append((pointer, message + did_you_mean(name, known)))
    return found


def _located(catalog, findings: list[tuple[str, str]], key: bool = False) -> list[Problem]:
    if not findings:
        return []
    positions = source_map(read_text_again(catalog.path))
    name = str(catalog.path)
    return sorted(
        Problem(name, *positions.locate(pointer, key=key), pointer, message)
        for pointer, message in findings
    )


def check_bindings(catalog, layouts: Mapping[str, Layout]) -> list[str]:
    """The warnings of binding_problems; raises InvalidInput when there are problems."""
    problems, warnings = binding_problems(catalog, layouts)
    if problems:
        raise InvalidInput(problems)
    return warnings

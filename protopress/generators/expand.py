"""Reusable layout elements made plain: fragments placed, repeats unrolled, and the
local names ({index}, {number}, {item}, a fragment's `with` values) bound.

What depends only on the layout is expanded once, when it is loaded; a repeat over
a component's field and a position bound to a field stay Deferred and are
expanded per component. Face drawing only ever sees plain elements. Binding is
substitution of names, never evaluation: no arithmetic, no code from data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from protopress.generators.binding import MISSING, PLACEHOLDER, lookup
from protopress.generators.limits import MAX_EXPANDED, MAX_EXPANSION_STEPS
from protopress.generators.units import parse_length, to_mm

MAX_REPEAT = 1000  # repetitions of one element, literal or bound
MAX_NESTING = 16  # fragments placed inside fragments
LENGTH_KEYS = ("x", "y", "w", "h", "x2", "y2", "radius", "icon_size", "gap", "label_width",
               "line_height")  # fmt: skip
_OFFSET_AXIS = {"x": 0, "x2": 0, "y": 1, "y2": 1}
# keys whose value may be a number or a yes/no (layout.schema.json), and a text, whose
# number alone the face formats itself: a {name} standing alone for a literal keeps it
# there; every other key (a colour, a shape, a path) holds text, so it becomes text
_LITERAL_KEYS = frozenset({*LENGTH_KEYS, "rows", "columns", "total", "text"})
_DROPPED_KEYS = frozenset({"name", "use", "with", "repeat"})  # used up by expansion
_CONDITION = re.compile(r"^(!?)((?:[A-Za-z0-9_.-]|\{[A-Za-z0-9_.-]+\})+)(.*)$", re.DOTALL)


class LayoutProblem(Exception):
    """A problem found while expanding, at an element of a layout or fragment file."""

    def __init__(self, origin: Origin, message: str):
        self.origin, self.message = origin, message
        super().__init__(f"{origin.display} {origin.pointer}: {message}")


@dataclass(frozen=True)
class Origin:
    """Where an element was written: its file and JSON pointer there."""

    path: Path
    display: str
    pointer: str

    def at(self, suffix: str) -> Origin:
        return Origin(self.path, self.display, self.pointer + suffix)


class Alias(str):
    """A local name standing for a component field path ({item} for {cost.2})."""


@dataclass(frozen=True)
class Fragment:
    elements: tuple[dict, ...]
    origin: Origin  # the fragment's list


@dataclass(frozen=True)
class Context:
    fragments: Mapping[str, Fragment]
    scope: Mapping[str, object] = field(default_factory=dict)
    offset: tuple[float, float] = (0.0, 0.0)
    when: tuple[str, ...] = ()  # conditions of the fragment uses around an element
    placing: tuple[str, ...] = ()  # fragments being placed, outermost first

    def inner(self, **changes) -> Context:
        return Context(**{**self.__dict__, **changes})


@dataclass(frozen=True)
class Deferred:
    """An element whose expansion needs a component's fields."""

    element: dict
    context: Context
    origin: Origin


class Budget:
    """The expansion work left for one face, counted as it is done: plain elements
    made (drawn or left out) and steps (every element, repetition and fragment
    placement visited). Repeats nested through fragments multiply, so the bound is
    met before the elements past it are built. A problem is located at the
    element of the side being expanded (`at`)."""

    def __init__(self) -> None:
        self.elements = 0
        self.steps = 0
        self.at: Origin | None = None

    def step(self, origin: Origin) -> None:
        self.steps += 1
        if self.steps > MAX_EXPANSION_STEPS:
            raise LayoutProblem(self.at or origin, f"expands through more than "
                                f"{MAX_EXPANSION_STEPS} repetitions and fragments")  # fmt: skip

    def element(self, origin: Origin) -> None:
        self.elements += 1
        if self.elements > MAX_EXPANDED:
            raise LayoutProblem(self.at or origin, f"expands to more than {MAX_EXPANDED} elements")


# ---- binding local names ------------------------------------------------------------


def bind(value, scope: Mapping[str, object], literal: bool = True):
    """value with local names replaced: a literal stays a number where a whole string
    is one {name} (unless literal is False: then it is text, as inside a longer
    template); an alias rewrites the path ({item.cost} -> {cards.2.cost})."""
    if isinstance(value, list):
        return [bind(item, scope, literal) for item in value]
    if isinstance(value, dict):  # a gradient fill: its colours may be local names
        return {key: bind(item, scope, literal) for key, item in value.items()}
    if not isinstance(value, str) or "{" not in value or not scope:
        return value
    whole = PLACEHOLDER.fullmatch(value) if literal else None
    if whole:
        found = _local(whole.group(1), scope)
        if found is not None and not isinstance(found, Alias) and found is not _KEEP:
            return found
    return PLACEHOLDER.sub(lambda match: _text(match, scope), value)


_KEEP = object()


def _local(path: str, scope: Mapping[str, object]):
    """The local value a {path} stands for, an Alias path, _KEEP, or None (not local)."""
    head, dot, rest = path.partition(".")
    if head not in scope:
        return None
    value = scope[head]
    if isinstance(value, Alias):
        return Alias(value + dot + rest)
    return _KEEP if dot else value


def _text(match: re.Match, scope) -> str:
    found = _local(match.group(1), scope)
    if found is None or found is _KEEP:
        return match.group(0)
    if isinstance(found, Alias):
        return "{" + found + "}"
    if isinstance(found, bool):
        return "yes" if found else "no"
    return str(found)


def bind_condition(condition: str, scope: Mapping[str, object]) -> str:
    """A `when` condition with local names bound: in its field path a name stands for
    the path itself ("{door}.side=N", "item.cost"), in its value for a template."""
    match = _CONDITION.match(condition)
    if not match or not scope:
        return condition
    negate, path, rest = match.groups()
    path = PLACEHOLDER.sub(lambda m: _text(m, scope).strip("{}"), path)
    found = _local(path, scope)
    return negate + (found if isinstance(found, Alias) else path) + bind(rest, scope)


def _bound_element(element: Mapping, scope) -> dict:
    result = {}
    for key, value in element.items():
        if key in _DROPPED_KEYS:
            continue
        if key == "type":
            result[key] = value
        elif key == "when":
            conditions = [value] if isinstance(value, str) else value
            result[key] = [bind_condition(condition, scope) for condition in conditions]
        else:
            result[key] = bind(value, scope, literal=key in _LITERAL_KEYS)
    return result


# ---- expansion ----------------------------------------------------------------------


def expand(
    element: Mapping,
    context: Context,
    origin: Origin,
    budget: Budget,
    fields=None,
    warnings=None,
):
    """(plain element, origin) pairs of one element; with fields None (at load), what
    needs a component's fields comes as a Deferred instead. The work is charged to
    budget as it is done."""
    budget.step(origin)
    if "repeat" in element:
        yield from _repeat(element, context, origin, budget, fields, warnings)
    elif element.get("type") == "fragment":
        yield from _fragment(element, context, origin, budget, fields, warnings)
    else:
        budget.element(origin)
        yield from _plain(element, context, origin, fields, warnings)


def _repeat(element, context: Context, origin: Origin, budget: Budget, fields, warnings):
    repeat = element["repeat"]
    body = {key: value for key, value in element.items() if key != "repeat"}
    source = bind(repeat.get("each", repeat.get("count")), context.scope)
    if isinstance(source, str) and fields is None:
        yield Deferred(dict(element), context, origin), origin
        return
    if "each" in repeat:
        path = source.strip("{}") if isinstance(source, str) else ""
        items = lookup(fields, path) if path else MISSING
        times = len(items) if isinstance(items, list | tuple) else 0
    else:
        times = _whole_number(source, fields)
        path = None
    if times > MAX_REPEAT:
        if warnings is not None:
            warnings.append((origin.at("/repeat"), f"{source} gives {times} repetitions; "
                             f"the first {MAX_REPEAT} are drawn"))  # fmt: skip
        times = MAX_REPEAT
    steps = _steps(repeat)
    for index in range(times):
        scope = {**context.scope, "index": index, "number": index + 1}
        if path is not None:
            scope["item"] = Alias(f"{path}.{index}")
        dx, dy = steps(index)
        inner = context.inner(scope=scope, offset=_add(context.offset, (dx, dy)))
        yield from expand(body, inner, origin, budget, fields, warnings)


def _whole_number(value, fields) -> int:
    if isinstance(value, str):
        value = lookup(fields, value.strip("{}"))
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return max(value, 0)


def _steps(repeat: Mapping):
    """The offset of each repetition in mm: dx, dy along a row, row_dx, row_dy per row."""
    dx, dy, row_dx, row_dy = (_mm(repeat.get(key, 0)) for key in ("dx", "dy", "row_dx", "row_dy"))
    columns = repeat.get("columns")

    def step(index: int) -> tuple[float, float]:
        column, row = (index % columns, index // columns) if columns else (index, 0)
        return column * dx + row * row_dx, column * dy + row * row_dy

    return step


def _fragment(element, context: Context, origin: Origin, budget: Budget, fields, warnings):
    name = element["use"]
    if name in context.placing:
        chain = " -> ".join((*context.placing, name))
        raise LayoutProblem(origin.at("/use"), f"fragment {name!r} places itself ({chain})")
    if len(context.placing) >= MAX_NESTING:
        raise LayoutProblem(origin.at("/use"), f"fragments nest more than {MAX_NESTING} deep")
    fragment = context.fragments[name]  # names were checked when the layout was loaded
    at = {key: bind(element.get(key, 0), context.scope) for key in ("x", "y")}
    bound = {key: value for key, value in at.items() if _is_binding(value)}
    if bound:
        if fields is None:
            yield Deferred(dict(element), context, origin), origin
            return
        resolved = _resolved(bound, fields, origin, warnings)
        if resolved is None:
            return
        at.update(resolved)
    scope = {**context.scope}
    for key, value in element.get("with", {}).items():
        value = bind(value, context.scope)
        scope[key] = Alias(value[1:-1]) if _is_binding(value) else value
    when = element.get("when")
    conditions = [] if when is None else [when] if isinstance(when, str) else when
    inner = context.inner(
        scope=scope,
        offset=_add(context.offset, (_mm(at["x"]), _mm(at["y"]))),
        when=(*context.when, *(bind_condition(c, context.scope) for c in conditions)),
        placing=(*context.placing, name),
    )
    for index, child in enumerate(fragment.elements):
        yield from expand(child, inner, fragment.origin.at(f"/{index}"), budget, fields, warnings)


def _plain(element, context: Context, origin: Origin, fields, warnings):
    plain = _bound_element(element, context.scope)
    if context.when:
        plain["when"] = [*context.when, *plain.get("when", ())]
    bound = {key: plain[key] for key in LENGTH_KEYS if _is_binding(plain.get(key))}
    if bound:
        if fields is None:
            yield Deferred(dict(element), context, origin), origin
            return
        resolved = _resolved(bound, fields, origin, warnings)
        if resolved is None:
            return
        plain.update(resolved)
    try:
        moved = shifted(plain, context.offset, origin)
    except LayoutProblem as problem:
        if fields is None or warnings is None:
            raise  # while loading: a problem of the layout itself
        # moved there by a component's own fields (a long list repeated): like any
        # position bound to a field, left out with a warning naming the component
        warnings.append((problem.origin, f"{problem.message}; not drawn"))
        return
    yield moved, origin


def _is_binding(value) -> bool:
    return isinstance(value, str) and PLACEHOLDER.fullmatch(value) is not None


def _resolved(bound: Mapping[str, str], fields, origin: Origin, warnings) -> dict | None:
    """Bound lengths looked up in the fields (mm), or None when one is not a length."""
    result = {}
    for key, template in bound.items():
        value = lookup(fields, template[1:-1])
        try:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError
            length = value if not isinstance(value, str) else to_mm(parse_length(value))
        except ValueError:
            length = None
        if length is None or not -1000 <= length <= 1000:
            if warnings is not None:
                found = "missing" if value is MISSING else f"{value!r}, not a length"
                warnings.append((origin.at(f"/{key}"),
                                 f"{template} is {found} (-1000 to 1000 mm); not drawn"))  # fmt: skip
            return None
        result[key] = length
    return result


def shifted(element: dict, offset: tuple[float, float], origin: Origin) -> dict:
    """The element moved by offset (mm); positions with a unit become millimetres."""
    if offset == (0.0, 0.0) or element.get("bleed"):
        return element
    for key, axis in _OFFSET_AXIS.items():
        if key in element and offset[axis]:
            moved = round(_mm(element[key]) + offset[axis], 6)
            if not -1000 <= moved <= 1000:
                raise LayoutProblem(origin, f"{key} lands at {moved:g} mm, out of -1000 to 1000")
            element[key] = moved
    return element


def _mm(value) -> float:
    return to_mm(parse_length(value)) if isinstance(value, str) else float(value)


def _add(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return a[0] + b[0], a[1] + b[1]


def expand_side(elements, fragments: Mapping[str, Fragment]) -> tuple[tuple, tuple[Origin, ...]]:
    """A side's (element, origin) pairs expanded at load: plain elements and Deferred ones,
    with the origin of each."""
    items, origins = [], []
    budget = Budget()
    for element, origin in elements:
        budget.at = origin
        for item, where in expand(element, Context(fragments), origin, budget):
            items.append(item)
            origins.append(where)
            if len(items) > MAX_EXPANDED:
                raise LayoutProblem(origin, f"expands to more than {MAX_EXPANDED} elements")
    return tuple(items), tuple(origins)


def per_component(items, origins, fields, warnings: list) -> Iterator[tuple[dict, Origin | None]]:
    """The plain elements of one component, each with where it was written:
    Deferred ones expanded with its fields. The face's elements are bounded as
    at load (MAX_EXPANDED), counted as they are made: a LayoutProblem at the
    Deferred element whose expansion goes past the bound."""
    budget = Budget()
    for index, item in enumerate(items):
        if isinstance(item, Deferred):
            budget.at = item.origin
            yield from expand(item.element, item.context, item.origin, budget, fields, warnings)
        else:
            where = origins[index] if index < len(origins) else None
            budget.at = where or budget.at
            if budget.at is not None:  # always, but for a Layout made without origins
                budget.element(budget.at)
            yield item, where
